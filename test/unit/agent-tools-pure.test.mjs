// The pure parts of the agent tools: the URL policy, workspace paths, snapshots and diffs, find,
// rendering, and image sizes from headers (lib/tools, worker/tools/tool-runner.ts).
import t from 'tap';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UrlPolicy, parseOriginPattern } from '../../dist/lib/tools/policy.js';
import { Workspace } from '../../dist/lib/tools/workspace.js';
import { baselineOf, diffSnapshot, findInRead, fullSnapshot } from '../../dist/lib/tools/snapshot.js';
import { renderAction, renderElement, renderFind, renderSnapshot } from '../../dist/lib/tools/render.js';
import { imageSize } from '../../dist/worker/tools/tool-runner.js';

t.test('the URL policy', async (t) => {
  const open = new UrlPolicy();
  t.equal(open.check(' https://example.com/a ').href, 'https://example.com/a');
  t.equal(open.check('http://127.0.0.1:8080/').port, '8080');
  for (const [url, why] of [
    ['file:///etc/passwd', /file: URLs are refused/],
    ['data:text/html,x', /data: URLs are refused/],
    ['javascript:alert(1)', /javascript: URLs are refused/],
    ['chrome://settings', /chrome: URLs are refused/],
    ['about:blank', /about: URLs are refused/],
    ['view-source:https://example.com', /view-source: URLs are refused/],
    ['example.com', /not an absolute URL/],
    ['', /non-empty string/],
    [42, /non-empty string/],
  ]) t.throws(() => open.check(url), { code: 'REPL_ERR_URL_NOT_ALLOWED', message: why }, String(url));

  const policy = new UrlPolicy({ allowedOrigins: ['https://example.com', '*.example.org', 'localhost:3000'], blockedOrigins: ['bad.example.org'] });
  t.ok(policy.check('https://example.com/x'));
  t.throws(() => policy.check('http://example.com/x'), { message: /not in the allowed origins/ }, 'an origin pattern fixes the scheme');
  t.ok(policy.check('https://a.example.org/'));
  t.ok(policy.check('http://deep.a.example.org/'));
  t.throws(() => policy.check('https://example.org/'), { message: /not in the allowed origins/ }, '*. means subdomains only');
  t.throws(() => policy.check('https://bad.example.org/'), { message: /blocked by the tool policy/ }, 'blocked wins');
  t.ok(policy.check('http://localhost:3000/'));
  t.throws(() => policy.check('http://localhost:3001/'), { message: /not in the allowed origins/ });
  t.throws(() => new UrlPolicy({ allowedOrigins: ['https://'] }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  t.throws(() => parseOriginPattern('not a host!', 'allowedOrigins'), { message: /allowedOrigins: "not a host!" is not an origin/ });
  t.throws(() => parseOriginPattern('', 'blockedOrigins'), { message: /non-empty/ });
  t.ok(new UrlPolicy({ allowedOrigins: [] }).check === UrlPolicy.prototype.check);
  t.throws(() => new UrlPolicy({ allowedOrigins: [] }).check('https://example.com/'), { message: /allowed origins \(none\)/ });
});

t.test('workspace paths stay inside', async (t) => {
  const root = t.testdir({ inside: { 'a.txt': 'a' } });
  const workspace = new Workspace(root);
  t.equal(workspace.resolve('shots/x.png'), join(root, 'shots/x.png'));
  t.equal(workspace.resolve(join(root, 'inside/a.txt')), join(root, 'inside/a.txt'), 'an absolute path inside');
  for (const bad of ['../x.png', '/etc/passwd', 'inside/../../x']) {
    t.throws(() => workspace.resolve(bad), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' }, bad);
  }
  symlinkSync('/etc', join(root, 'link'));
  t.throws(() => workspace.resolve('link/new.png'), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' }, 'a link leading out');
  t.throws(() => workspace.resolve('link/passwd'), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' }, 'a file behind a link leading out');
  t.throws(() => workspace.resolve(''), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  t.throws(() => workspace.resolve('a\0b'), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  mkdirSync(join(root, 'sub'));
  t.equal(workspace.relative(join(root, 'sub', 'f.txt')), 'sub/f.txt');
  t.equal(workspace.ensure('made/here'), join(root, 'made/here'));
});

const element = (ref, label, extra = {}) => ({ ref, tag: 'button', label, ...extra });
const read = (elements, text, extra = {}) => ({
  title: 'T', url: 'https://example.com/page', text, elements, document: 'F:L1', tabs: [{ title: 'T', url: 'https://example.com/page', active: true }], ...extra,
});

t.test('full snapshots cap text and elements', async (t) => {
  const page = read([element(1, 'A'), element(2, 'B'), element(3, 'C')], 'x'.repeat(50));
  const snapshot = fullSnapshot(page, { maxTextChars: 10, maxElements: 2 });
  t.equal(snapshot.text, 'x'.repeat(10));
  t.equal(snapshot.textChars, 50);
  t.same(snapshot.elements.map((e) => e.ref), [1, 2]);
  t.equal(snapshot.elementCount, 3);
  const text = renderSnapshot({ ...snapshot, fullTextPath: 'snapshots/snapshot-1.txt' });
  t.match(text, /^Page: T\nURL: https:\/\/example\.com\/page\nElements \(2 of 3; browser_find searches them all\):\n\[1\] button "A"\n\[2\] button "B"\nText \(first 10 of 50 characters; all of it: snapshots\/snapshot-1\.txt\):\nx{10}$/);
});

t.test('diffs hold what changed and nothing else', async (t) => {
  const caps = { maxTextChars: 1000, maxElements: 100 };
  const before = read([element(1, 'Email', { tag: 'input', type: 'email' }), element(2, 'Save'), element(3, 'Gone')], 'Title\nStatus: idle\nFooter');
  const after = read([element(1, 'Email', { tag: 'input', type: 'email', value: 'me@x' }), element(2, 'Save'), element(4, 'New')], 'Title\nStatus: saved\nFooter');
  const diff = diffSnapshot(baselineOf(before), after, caps);
  t.equal(diff.navigated, false);
  t.same(diff.changed.map((e) => e.ref), [1]);
  t.same(diff.added.map((e) => e.ref), [4]);
  t.same(diff.removed, [3]);
  t.same(diff.textAdded, ['Status: saved']);
  t.same(diff.textRemoved, ['Status: idle']);
  const text = renderSnapshot(diff);
  t.match(text, /Changed:\n\[1\] input:email "Email" = "me@x"\nAdded:\n\[4\] button "New"\nRemoved: \[3\]\nText added:\n\+ Status: saved\nText removed:\n- Status: idle/);
  t.notMatch(text, /Footer/);
  t.match(renderSnapshot(diffSnapshot(baselineOf(after), after, caps)), /No change since the previous snapshot\./);
  const navigated = diffSnapshot(baselineOf(before), { ...after, document: 'F:L2' }, caps);
  t.equal(navigated.navigated, true);
  t.equal(navigated.added.length, 3, 'a new document: everything is added');
  t.same(navigated.removed, []);
  t.match(renderSnapshot(navigated), /A new document/);
  t.equal(diffSnapshot(undefined, after, caps).navigated, true, 'no baseline counts as new');
  t.equal(diffSnapshot(undefined, after, { maxTextChars: 5, maxElements: 1 }).added.length, 1, 'caps hold');
});

t.test('find and rendering', async (t) => {
  const page = read([element(1, 'Sign in'), element(2, 'Docs', { tag: 'a', href: 'https://example.com/docs?x=1' }), element(3, 'Pick', { tag: 'select', options: ['Red', 'Blue'] })], 'Welcome\nSign in to continue\nBlue skies');
  const found = findInRead(page, 'sign IN', { maxElements: 10 });
  t.same(found.elements.map((e) => e.ref), [1]);
  t.same(found.lines, ['Sign in to continue']);
  t.same(findInRead(page, /^blue/i, { maxElements: 10 }).lines, ['Blue skies']);
  t.same(findInRead(page, /blue/gi, { maxElements: 10 }).elements.map((e) => e.ref), [3], 'options are searched; g is ignored');
  t.equal(renderFind({ elements: [], lines: [], chars: 0 }), 'No element or text matches.');
  t.match(renderFind(found, page.url), /Elements \(1\):\n\[1\] button "Sign in"\nText \(1 lines\):\nSign in to continue/);
  t.equal(renderElement(page.elements[1], page.url), '[2] link "Docs" → /docs?x=1', 'same-origin links are shortened');
  t.equal(renderElement({ ref: 5, tag: 'a', label: '', href: 'https://other.org/x' }, page.url), '[5] link → https://other.org/x');
  t.equal(renderElement({ ref: 6, tag: 'input', type: 'checkbox', label: 'Ok', state: ['checked', 'disabled'] }, page.url), '[6] checkbox "Ok" [checked, disabled]');
  t.equal(renderElement({ ref: 7, tag: 'div', role: 'tab', label: 'One', frame: 'https://example.com/f' }, page.url), '[7] tab "One" (frame /f)');
  t.equal(renderElement({ ref: 8, tag: 'div', label: 'Notes', value: 'x' }, page.url), '[8] editable "Notes" = "x"');
  t.equal(renderElement({ ref: 9, tag: 'input', type: 'submit', label: 'Go' }, page.url), '[9] button "Go"');
  t.equal(renderAction({ message: 'clicked 1' }), 'clicked 1');
  const withDialog = { ...fullSnapshot({ ...page, dialog: { type: 'alert', message: 'Hi' }, tabs: [{ title: 'A', url: 'u', active: true }, { title: '', url: 'v', active: false }] }, { maxTextChars: 100, maxElements: 100 }) };
  t.match(renderSnapshot(withDialog), /Tabs: \[0\]\* A; \[1\] v \(browser_tabs selects one\)\nDialog: alert "Hi" holds the page; answer it with browser_handle_dialog/);
});

t.test('image sizes from PNG and JPEG headers', async (t) => {
  const png = Buffer.alloc(24);
  png.set([0x89, 0x50, 0x4e, 0x47]);
  png.writeUInt32BE(640, 16);
  png.writeUInt32BE(480, 20);
  t.same(imageSize(png), { width: 640, height: 480 });
  // SOI, an APP0 segment of length 4, then SOF0 with height 300 and width 200.
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x00, 0xc8, 0x03, 0x00, 0x00]);
  t.same(imageSize(jpeg), { width: 200, height: 300 });
  t.same(imageSize(Buffer.from('nope')), { width: 0, height: 0 });
});
