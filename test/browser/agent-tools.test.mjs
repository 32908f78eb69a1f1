// The agent browser tools (lib/tools; docs/agent-tools.md) against a real headless Chromium and
// fixture pages on 127.0.0.1: snapshots (password values absent, hidden and zero-size elements
// absent, both caps), refs (stale after navigation, inside a same-origin and a cross-site iframe),
// diff snapshots, every tool, isolation of sessions (cookies and storage), idle eviction, the URL
// policy, the workspace bounds, approval, tabs, popups, downloads, uploads and dialogs.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserTools, renderSnapshot } from '../../dist/lib/index.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
// One browser for the context-isolated sessions of every tools instance here.
const host = new Browser({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => host.close());

function makeTools(t, options = {}) {
  const tools = new BrowserTools({ host, permission: 'allow', settleMs: 0, ...options });
  t.teardown(() => tools.close());
  return tools;
}

const crossSite = (name) => `http://localhost:${fixtures.port}/${name}`;
const formUrl = `${fixtures.url('agent-form.html')}?frame=${encodeURIComponent(crossSite('agent-frame.html'))}`;
const byLabel = (snapshot, label) => snapshot.elements.find((element) => element.label === label);

/** The form page with both iframes read (a cross-site frame may still be loading right after open). */
async function openForm(page) {
  await page.open(formUrl, { snapshot: 'none' });
  await page.waitFor({ text: 'frame idle', timeoutMs: 10_000 }, { snapshot: 'none' }).catch(() => undefined);
  for (let i = 0; i < 50; i++) {
    const snapshot = await page.snapshot();
    if (byLabel(snapshot, 'Frame button') !== undefined && byLabel(snapshot, 'Inner button') !== undefined) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the iframes never appeared in a snapshot');
}

t.test('a snapshot: title, URL, elements with refs; no password value, no hidden or zero-size element', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('snapshot');
  const snapshot = await openForm(page);
  t.equal(snapshot.title, 'Agent form');
  t.equal(snapshot.url, formUrl);
  t.match(snapshot.text, /Please fill in the form below\./);
  const password = byLabel(snapshot, 'Password');
  t.ok(password, 'the password field is listed');
  t.equal(password.type, 'password');
  t.equal(password.value, undefined, 'its value is not');
  const rendered = renderSnapshot(snapshot);
  t.notMatch(rendered, /hunter2/, 'the password value appears nowhere in what the model reads');
  t.notMatch(JSON.stringify(snapshot), /hunter2/, 'nor in the structured snapshot');
  for (const hidden of ['Hidden action', 'Invisible action', 'Zero button']) t.equal(byLabel(snapshot, hidden), undefined, `${hidden} is left out`);
  t.same(byLabel(snapshot, 'Country'), { ref: byLabel(snapshot, 'Country').ref, tag: 'select', label: 'Country', value: 'France', options: ['France', 'Germany'] });
  t.same(byLabel(snapshot, 'Subscribe').state, ['unchecked']);
  t.match(byLabel(snapshot, 'Next page').href, /\/agent-next\.html$/);
  t.equal(byLabel(snapshot, 'Inner button').frame, fixtures.url('agent-inner.html'), 'same-origin iframe elements have refs');
  t.equal(byLabel(snapshot, 'Frame button').frame, crossSite('agent-frame.html'), 'cross-site iframe elements have refs');
  const refs = snapshot.elements.map((element) => element.ref);
  t.equal(new Set(refs).size, refs.length, 'refs are unique');
  t.equal(snapshot.chars, rendered.length, 'the snapshot knows its own size in characters');
  const again = await page.snapshot();
  t.same(again.elements.map((element) => element.ref), refs, 'the same elements keep their refs');
});

t.test('both caps: maxElements and maxTextChars, with the whole text saved in the workspace', async (t) => {
  const tools = makeTools(t, { maxElements: 25, maxTextChars: 500 });
  const page = tools.page('caps');
  const { snapshot } = await page.open(fixtures.url('agent-many.html'));
  t.equal(snapshot.elements.length, 25);
  t.equal(snapshot.elementCount, 300);
  t.equal(snapshot.text.length, 500);
  t.ok(snapshot.textChars > 500);
  t.match(renderSnapshot(snapshot), /Elements \(25 of 300; browser_find searches them all\)/);
  t.ok(snapshot.fullTextPath, 'the whole text is saved');
  const saved = readFileSync(join(tools.workspaceOf('caps'), snapshot.fullTextPath), 'utf8');
  t.equal(saved.length, snapshot.textChars);
  t.match(saved, /Paragraph number 2000 of the long text\./);
  const found = await page.find('Item 299');
  t.same(found.elements.map((element) => element.label), ['Item 299'], 'find reaches past the element cap');
  const clicked = await page.click(found.elements[0].ref, { snapshot: 'none' });
  t.match(clicked.message, /clicked \[\d+\] button "Item 299"/, 'and its refs can be used');
  const regex = await page.find(/number 19\d\d /);
  t.equal(regex.lines.length, 100, 'a regular expression over the text');
});

t.test('a stale ref after navigation fails and says to snapshot again', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('stale');
  const { snapshot } = await page.open(fixtures.url('agent-form.html'));
  const next = byLabel(snapshot, 'Next page');
  const save = byLabel(snapshot, 'Save');
  const after = await page.click(next.ref);
  t.equal(after.snapshot.title, 'Next');
  await t.rejects(page.click(save.ref), { code: 'REPL_ERR_STALE_REF', message: /ref \d+ is stale.*take a new snapshot \(browser_snapshot\)/ });
  await t.rejects(page.click(9999), { code: 'REPL_ERR_STALE_REF' });
  await t.rejects(page.click('x'), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  const back = await page.back();
  t.equal(back.snapshot.title, 'Agent form', 'back goes back');
});

t.test('click and type by ref in a cross-site iframe and a same-origin one; a diff after typing', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('frames');
  const snapshot = await openForm(page);
  const clicked = await page.click(byLabel(snapshot, 'Frame button').ref, { snapshot: 'full' });
  t.match(clicked.snapshot.text, /frame clicked 1/, 'the cross-site button was clicked');
  const typedInFrame = await page.type(byLabel(snapshot, 'Frame input').ref, 'hello', { snapshot: 'full' });
  t.match(typedInFrame.snapshot.text, /frame typed hello/, 'typing reached the cross-site input');
  const inner = await page.click(byLabel(snapshot, 'Inner button').ref);
  t.match(inner.snapshot.text, /inner clicked/, 'the same-origin iframe button was clicked');

  await page.snapshot();
  const typed = await page.type(byLabel(snapshot, 'Email').ref, 'me@example.com', { snapshot: 'diff' });
  const diff = typed.snapshot;
  t.equal(diff.mode, 'diff');
  t.equal(diff.navigated, false);
  t.equal(diff.changed.find((element) => element.label === 'Email')?.value, 'me@example.com', 'the changed field is in the diff');
  t.ok(diff.changed.every((element) => element.label === 'Email' || element.label === 'Inner button'), 'only it, and the button that lost the focus');
  t.same(diff.added, []);
  const full = await page.snapshot();
  t.ok(diff.chars < full.chars / 3, `the diff (${diff.chars} chars) is a fraction of the page (${full.chars})`);
  t.notMatch(renderSnapshot(diff), /Please fill in the form/, 'the unchanged page is not repeated');
  const none = await page.type(byLabel(snapshot, 'Comment').ref, 'hi', { snapshot: 'none' });
  t.equal(none.snapshot, undefined, 'snapshot: "none" answers without one');
  const submitted = await page.type(byLabel(snapshot, 'Email').ref, 'x@y.z', { submit: true });
  t.equal(submitted.snapshot.title, 'Next', 'submit presses Enter and the form is sent');
  t.match(submitted.snapshot.text, /email=x%40y\.z/);
});

t.test('select, check, keys, scroll, waitFor, screenshots', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('misc');
  const { snapshot } = await page.open(fixtures.url('agent-form.html'));
  const selected = await page.selectOption(byLabel(snapshot, 'Country').ref, ['Germany'], { snapshot: 'diff' });
  t.same(selected.snapshot.changed.map((element) => element.value), ['Germany']);
  await t.rejects(page.selectOption(byLabel(snapshot, 'Country').ref, ['Spain']), { code: 'REPL_ERR_ACTION_FAILED', message: /no option "Spain"/ });
  const checked = await page.click(byLabel(snapshot, 'Subscribe').ref, { snapshot: 'diff' });
  t.same(checked.snapshot.changed[0].state.filter((state) => state !== 'focused'), ['checked']);
  await page.type(byLabel(snapshot, 'Email').ref, 'abc', { snapshot: 'none' });
  await page.pressKey('Control+A', { snapshot: 'none' });
  const cleared = await page.pressKey('Backspace');
  t.equal(byLabel(cleared.snapshot, 'Email').value, undefined, 'a combination (Control+A) and a key');
  const pressed = await page.pressKey('Tab', { snapshot: 'none' });
  t.match(pressed.message, /pressed Tab/);
  const scrolled = await page.scroll({ snapshot: 'none' });
  t.match(scrolled.message, /scrolled 700 px/, 'the default is 700 px');
  const waited = await page.waitFor({ text: 'Status: idle' }, { snapshot: 'none' });
  t.match(waited.message, /is visible/);
  await t.rejects(page.waitFor({ selector: '#never', timeoutMs: 300 }), { code: 'REPL_ERR_ACTION_FAILED', message: /did not appear/ });
  await t.rejects(page.waitFor({}), { code: 'REPL_ERR_INVALID_ARGUMENT' });

  const png = await page.screenshot();
  t.match(png.path, /screenshots\/screenshot-1\.png$/);
  t.equal(readFileSync(png.path).subarray(1, 4).toString(), 'PNG');
  t.equal(png.data, undefined);
  const jpeg = await page.screenshot({ path: 'shots/page.jpg', quality: 60, includeImage: true });
  t.equal(jpeg.mimeType, 'image/jpeg');
  t.equal(jpeg.data[0], 0xff, 'include_image returns the bytes');
  t.equal(jpeg.bytes, jpeg.data.length);
  t.ok(jpeg.width > 0 && jpeg.height > 0);
  await t.rejects(page.screenshot({ path: '../../escape.png' }), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' });
  await t.rejects(page.screenshot({ path: '/tmp/outside.png' }), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' });
  t.notOk(existsSync('/tmp/outside.png'));
});

t.test('only http(s) URLs of allowed origins are opened', async (t) => {
  const tools = makeTools(t, { blockedOrigins: ['localhost'] });
  const page = tools.page('policy');
  for (const url of ['file:///etc/passwd', 'data:text/html,<b>x</b>', 'javascript:alert(1)', 'chrome://settings', 'about:blank', 'not a url']) {
    await t.rejects(page.open(url), { code: 'REPL_ERR_URL_NOT_ALLOWED' }, url);
  }
  await t.rejects(page.open('file:///etc/passwd'), { message: /only http: and https: URLs are opened; file: URLs are refused/ });
  await t.rejects(page.open(crossSite('agent-next.html')), { code: 'REPL_ERR_URL_NOT_ALLOWED', message: /blocked/ });
  const allowed = makeTools(t, { allowedOrigins: [fixtures.origin] }).page('allowed');
  t.equal((await allowed.open(fixtures.url('agent-next.html'))).snapshot.title, 'Next');
  await t.rejects(allowed.open(crossSite('agent-next.html')), { message: /not in the allowed origins/ });
});

t.test('permission: ask uses the approver; deny and no approver refuse', async (t) => {
  const asked = [];
  const tools = makeTools(t, { permission: 'ask', approve: ({ url }) => { asked.push(url); return url.includes('next'); } });
  const page = tools.page('ask');
  t.equal((await page.open(fixtures.url('agent-next.html'))).snapshot.title, 'Next');
  await t.rejects(page.open(fixtures.url('agent-form.html')), { code: 'REPL_ERR_OPEN_NOT_APPROVED', message: /was declined/ });
  t.same(asked, [fixtures.url('agent-next.html'), fixtures.url('agent-form.html')]);
  t.equal((await page.snapshot()).title, 'Next', 'a declined open leaves the page where it was');
  const declined = await page.open(fixtures.url('agent-form.html'), { approve: () => false }).catch((error) => error);
  t.equal(declined.code, 'REPL_ERR_OPEN_NOT_APPROVED', 'a per-call approver wins');
  const nobody = makeTools(t, { permission: 'ask' }).page('nobody');
  await t.rejects(nobody.open(fixtures.url('agent-next.html')), { message: /needs approval.*permission "allow"/ });
  const denied = makeTools(t, { permission: 'deny' }).page('deny');
  await t.rejects(denied.open(fixtures.url('agent-next.html')), { message: /denied/ });
});

t.test('two sessions never see each other\'s cookies or storage', async (t) => {
  const tools = makeTools(t);
  const alpha = tools.page('alpha');
  const beta = tools.page('beta');
  const first = await alpha.open(`${fixtures.url('agent-cookie.html')}?set=alpha`);
  t.match(first.snapshot.text, /cookie: session=alpha; storage: alpha/);
  const [again, other] = await Promise.all([alpha.open(fixtures.url('agent-cookie.html')), beta.open(fixtures.url('agent-cookie.html'))]);
  t.match(again.snapshot.text, /cookie: session=alpha; storage: alpha/, 'a session keeps its own cookie');
  t.match(other.snapshot.text, /cookie: \(none\); storage: \(none\)/, 'another session does not see it');
  t.ok((await host.listRepls()).every((repl) => !repl.name.startsWith('tools:')), 'tool sessions are not REPLs of the host');
  await alpha.close();
  t.equal((await alpha.status()).open, false, 'close() closes the page');
  const reopened = await alpha.open(fixtures.url('agent-cookie.html'));
  t.match(reopened.snapshot.text, /cookie: \(none\)/, 'its context went with it');
});

t.test('an idle page is closed after idleMs and the next call opens a new one', async (t) => {
  const tools = makeTools(t, { idleMs: 300 });
  const page = tools.page('idle');
  await page.open(`${fixtures.url('agent-cookie.html')}?set=idle`);
  t.equal((await page.status()).open, true);
  for (let i = 0; i < 100 && (await page.status()).open; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal((await page.status()).open, false, 'evicted');
  const fresh = await page.open(fixtures.url('agent-cookie.html'));
  t.match(fresh.snapshot.text, /cookie: \(none\)/, 'a fresh page, without the old cookies');
});

t.test('tabs and popups, dialogs, downloads, uploads', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('extras');
  const { snapshot } = await page.open(fixtures.url('agent-form.html'));
  const popup = await page.click(byLabel(snapshot, 'Open popup').ref);
  t.equal(popup.snapshot.tabs.length, 2, 'the popup is a tab of the session');
  const tabs = await page.tabs();
  t.match(tabs[1].url, /agent-next\.html\?popup=1/);
  const selected = await page.selectTab(1);
  t.equal(selected.snapshot.title, 'Next');
  await page.closeTab(1);
  t.equal((await page.tabs()).length, 1);
  await t.rejects(page.closeTab(0), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /only tab/ });
  await t.rejects(page.selectTab(5), { message: /no tab 5/ });

  const current = await page.snapshot();
  const asked = await page.click(byLabel(current, 'Ask').ref);
  t.equal(asked.snapshot.dialog?.type, 'confirm', 'the snapshot shows the dialog');
  t.match(renderSnapshot(asked.snapshot), /browser_handle_dialog/);
  const answered = await page.handleDialog({ accept: true });
  t.match(answered.snapshot.text, /Answer: yes/);

  const upload = join(tools.workspaceOf('extras'), 'upload.txt');
  writeFileSync(upload, 'file body');
  const fresh = await page.snapshot();
  const attached = await page.uploadFile(byLabel(fresh, 'Attachment').ref, ['upload.txt'], { snapshot: 'diff' });
  t.same(attached.snapshot.changed.map((element) => element.value), ['upload.txt']);
  await t.rejects(page.uploadFile(byLabel(fresh, 'Attachment').ref, ['/etc/passwd']), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE' });

  await page.click(byLabel(fresh, 'Download report').ref, { snapshot: 'none' });
  let downloads = [];
  for (let i = 0; i < 100 && downloads.length === 0; i++) {
    downloads = await page.downloads();
    if (downloads.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(downloads.length, 1);
  t.equal(downloads[0].suggestedFilename, 'report.txt');
  t.ok(downloads[0].path.startsWith(tools.workspaceOf('extras')), 'saved in the session\'s workspace');
  t.equal(readFileSync(downloads[0].path, 'utf8'), 'quarterly report\n');
});

t.test('calls on one page are serialised; bad input is refused without harm', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('serial');
  const { snapshot } = await page.open(fixtures.url('agent-form.html'));
  const ref = byLabel(snapshot, 'Email').ref;
  const results = await Promise.all(['a@x', 'b@x', 'c@x'].map((text) => page.type(ref, text, { snapshot: 'none' })));
  t.equal(results.length, 3);
  t.equal(byLabel(await page.snapshot(), 'Email').value, 'c@x', 'the last call ran last');
  t.throws(() => tools.page(''), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  await t.rejects(page.type(ref, 5), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  await t.rejects(page.scroll({ pixels: Infinity }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  await t.rejects(page.click(ref, { snapshot: 'some' }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  t.equal((await page.snapshot()).title, 'Agent form', 'the session still works');
  await tools.close();
  await t.rejects(page.snapshot(), { code: 'REPL_ERR_CLOSED' });
  t.notOk(existsSync(tools.workspace), 'a temporary workspace is removed with the service');
});

t.test('isolation: "process" gives a session a browser of its own, ended on close', async (t) => {
  const tools = makeTools(t, { isolation: 'process' });
  const page = tools.page('own');
  const { snapshot } = await page.open(`${fixtures.url('agent-cookie.html')}?set=own`);
  t.match(snapshot.text, /session=own/);
  t.equal((await page.status()).isolation, 'process');
  await page.close();
  const again = await page.open(fixtures.url('agent-cookie.html'));
  t.match(again.snapshot.text, /cookie: \(none\)/, 'a new browser with a new profile');
});

t.test('an isolated session lists only the tabs of its own browser context, not the default REPL\'s', async (t) => {
  const repl = host.repl('default');
  const opened = await repl.run(`await gotoUrl(${JSON.stringify(fixtures.url('agent-next.html'))}); await waitForLoad();`);
  t.equal(opened.success, true, opened.error);
  const tools = makeTools(t);
  const page = tools.page('own-context');
  const snapshot = await page.open(fixtures.url('agent-many.html'));
  t.same(snapshot.snapshot.tabs.map((tab) => tab.url), [fixtures.url('agent-many.html')], 'one tab: its own');
  const tabs = await page.tabs();
  t.equal(tabs.length, 1, 'browser_tabs shows the same');
});

t.test('issue 25: the text of open shadow roots, slotted text where it renders, in document order; find searches it', async (t) => {
  const tools = makeTools(t);
  const page = tools.page('shadow-text');
  const { snapshot } = await page.open(fixtures.url('agent-shadow.html'));
  const lines = snapshot.text.split('\n');
  t.same(lines, ['Team directory', 'Everyone in the Lisbon office', 'Ana Ferreira Design Message Ana', 'Rui Santos Support Message Rui', '2 people online', 'Updated daily.'],
    'rows, the slotted caption and a nested shadow root in render order; no hidden slot, no unslotted light text, no closed shadow root');
  t.same(snapshot.elements.map((element) => element.label), ['Message Ana', 'Message Rui'], 'the buttons inside get refs');
  const found = await page.find('rui santos');
  t.same(found.lines, ['Rui Santos Support Message Rui'], 'browser_find finds a name shown inside the shadow root');
  const clicked = await page.waitFor({ text: '2 people online', timeoutMs: 2_000 }, { snapshot: 'none' });
  t.match(clicked.message, /is visible/, 'a wait for text sees it too');
});
