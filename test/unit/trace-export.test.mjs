// The trace's pure parts (docs/trace.md): the recorder's ring, scopes and secrets
// (common/trace/trace-recorder.ts), and the exporter (common/trace/export-script.ts) on made-up
// entries: locator ranking, failed and superseded entries left out, waits as web-first
// assertions, secrets as environment variables, popups and dialogs placed.
import t from 'tap';
import { TraceRecorder, askedOf, secretEnvName } from '../../dist/common/trace/trace-recorder.js';
import { chooseLocator, exportTrace, playwrightLocator, replTarget, replayProgram, supersededEntries } from '../../dist/common/trace/export-script.js';

const LOGIN = 'http://127.0.0.1:1/login.html';
const SHOP = 'http://127.0.0.1:1/shop.html';
let seq = 0;
/** A made-up entry: `action` on tab `tab` at `url`, with `target` candidates. */
function entry(action, { tab = 'T1', url = LOGIN, ok = true, args = {}, target, secretEnv, opened } = {}) {
  const made = { seq: ++seq, at: '2026-01-01T00:00:00.000Z', source: 'tool', action, asked: action, args, page: { tab, url, document: 1 }, ok, durationMs: 1 };
  if (target !== undefined) made.target = { tag: 'input', css: '#x', unique: ['css'], frames: [], ...target };
  if (secretEnv !== undefined) made.secretEnv = secretEnv;
  if (opened !== undefined) made.opened = opened;
  return made;
}
const email = { role: 'textbox', name: 'Email', label: 'Email', css: '#email', unique: ['role', 'label', 'css'] };
const password = { role: 'textbox', name: 'Password', label: 'Password', css: '#password', unique: ['role', 'label', 'css'], secret: true };
const signIn = { tag: 'button', role: 'button', name: 'Sign in', text: 'Sign in', css: 'form > button', unique: ['role', 'text', 'css'] };

t.test('locators are ranked as Playwright ranks them, unique ones only', async (t) => {
  t.same(chooseLocator({ tag: 'button', testId: 'add-1', role: 'button', name: 'Add', css: '#a', unique: ['testId', 'css'], frames: [] }), { strategy: 'testId', value: 'add-1', frames: [] }, 'a unique test id first');
  t.same(chooseLocator({ tag: 'button', testId: 'dup', role: 'button', name: 'Go', css: '#a', unique: ['role', 'css'], frames: [] }).strategy, 'role', 'a test id that is not unique is passed over');
  t.same(chooseLocator({ tag: 'input', label: 'Name', placeholder: 'Your name', css: '#n', unique: ['label', 'placeholder', 'css'], frames: [] }).strategy, 'label', 'a label before a placeholder');
  t.same(chooseLocator({ tag: 'p', role: 'paragraph', text: 'Paid', css: 'p', unique: ['role', 'text', 'css'], frames: [] }).strategy, 'text', 'a role without a name comes after the text');
  t.same(chooseLocator({ tag: 'div', css: 'main > div:nth-of-type(2)', unique: ['css'], frames: [] }), { strategy: 'css', value: 'main > div:nth-of-type(2)', frames: [] }, 'the CSS path last');
  const inFrame = { strategy: 'role', role: 'button', value: 'Pay now', frames: ['#payment'] };
  t.equal(playwrightLocator('page', inFrame), 'page.locator("#payment").contentFrame().getByRole("button", { name: "Pay now", exact: true })', 'a frame is entered with contentFrame()');
  t.equal(replTarget(inFrame), '{ role: "button", name: "Pay now", exact: true }', 'a REPL semantic target (the helpers search frames)');
  t.equal(replTarget({ strategy: 'testId', value: 'add-1', frames: [] }), '"[data-testid=\\"add-1\\"]"', 'a test id is a selector for the helpers');
});

t.test('a wrong login tried again: failed and superseded entries are left out', async (t) => {
  const entries = [
    entry('goto', { args: { url: LOGIN }, url: '' }),
    entry('fill', { target: email, args: { text: 'reader@harbor.test' } }),
    entry('fill', { target: password, secretEnv: 'PASSWORD' }),
    entry('click', { target: signIn }),
    entry('waitForText', { args: { text: 'Wrong email or password' } }),
    entry('click', { ok: false, args: { ref: 9999 } }),
    entry('fill', { target: password, secretEnv: 'PASSWORD' }),
    entry('click', { target: signIn }),
    entry('waitForText', { url: SHOP, args: { text: 'Find your next book' } }),
  ];
  const superseded = supersededEntries(entries.filter((e) => e.ok));
  t.same([...superseded].sort(), [2, 3, 4], 'the first password, its click and the wait for its error');
  const exported = exportTrace(entries);
  t.same(exported.omitted, { failed: 1, superseded: 3, unsupported: 0 });
  t.same(exported.env, ['PASSWORD']);
  t.equal(exported.playwright.match(/\.fill\(process\.env\["PASSWORD"\] \?\? ''\)/g)?.length, 1, 'one password fill, from the environment');
  t.equal(exported.playwright.match(/\.click\(\)/g)?.length, 1, 'one sign-in click');
  t.notMatch(exported.playwright, 'Wrong email', 'no wait of the failed attempt');
  t.match(exported.playwright, 'await page.waitForLoadState();\n  await expect(page.getByText("Find your next book").first()).toBeVisible();', 'a wait for text is a web-first assertion, after the load of the page the sign-in opened');
  t.equal(exported.playwright.match(/waitForLoadState/g)?.length, 1, 'the load is waited for only where the page changed');
  t.match(exported.playwright, 'import { test, expect } from "@playwright/test";');
  t.match(exported.repl, 'await fillInput({ role: "textbox", name: "Password", exact: true }, process.env["PASSWORD"] ?? \'\');', 'the cell reads the secret from the environment too');
});

t.test('what is not a retry stays', async (t) => {
  const add = { tag: 'button', role: 'button', name: 'Add', css: '#add', unique: ['role', 'css'] };
  const entries = [
    entry('goto', { args: { url: SHOP }, url: '' }),
    entry('click', { url: SHOP, target: add }),
    entry('click', { url: SHOP, target: add }),
  ];
  t.same([...supersededEntries(entries)], [], 'the same click twice without a field filled again is kept twice');
  const gotos = [entry('goto', { args: { url: LOGIN } }), entry('goto', { args: { url: SHOP } })];
  t.same([...supersededEntries(gotos)], [0], 'a navigation followed at once by another is superseded');
});

t.test('popups, dialogs, new tabs and waits for elements', async (t) => {
  const gift = { tag: 'button', role: 'button', name: 'Gift', css: '#gift', unique: ['role', 'css'] };
  const save = { tag: 'button', role: 'button', name: 'Save', css: '#save', unique: ['role', 'css'] };
  const place = { tag: 'button', role: 'button', name: 'Place order', css: '#place', unique: ['role', 'css'] };
  const heading = { tag: 'h2', role: 'heading', name: 'Order confirmed', css: 'h2', unique: ['role', 'text', 'css'] };
  const entries = [
    entry('goto', { args: { url: SHOP } }),
    entry('click', { url: SHOP, target: gift }),
    entry('click', { tab: 'T2', url: 'http://127.0.0.1:1/gift.html', target: save }),
    entry('click', { url: SHOP, target: place }),
    entry('dialog', { url: SHOP, args: { accept: true } }),
    entry('waitForElement', { url: SHOP, target: heading }),
    entry('newTab', { url: SHOP, args: { url: LOGIN }, opened: 'T3' }),
    entry('press', { tab: 'T3', args: { key: 'Control+A' } }),
    entry('webmcp', { url: SHOP, args: { tool: 'x' } }),
  ];
  const { playwright, repl, omitted } = exportTrace(entries);
  const lines = playwright.split('\n').map((line) => line.trim());
  const click = lines.indexOf('await page.getByRole("button", { name: "Gift", exact: true }).click();');
  t.equal(lines[click - 1], "const page1Promise = page.waitForEvent('popup');", 'the popup is armed before the click that opens it');
  t.equal(lines[click + 1], 'const page1 = await page1Promise;');
  t.ok(lines.includes('await page1.getByRole("button", { name: "Save", exact: true }).click();'), 'the popup\'s steps act on it');
  t.equal(lines[click + 2], 'await page1.waitForLoadState();', 'the popup\'s load is waited for before its first step');
  const placeLine = lines.indexOf('await page.getByRole("button", { name: "Place order", exact: true }).click();');
  t.equal(lines[placeLine - 1], "page.once('dialog', (dialog) => dialog.accept());", 'the dialog handler is armed before the click');
  t.ok(lines.includes('await expect(page.getByRole("heading", { name: "Order confirmed", exact: true })).toBeVisible();'), 'a wait for an element is a web-first assertion');
  t.ok(lines.includes('const page2 = await page.context().newPage();') && lines.includes('await page2.goto("http://127.0.0.1:1/login.html");'), 'a new tab');
  t.ok(lines.includes('await page2.keyboard.press("Control+A");'));
  t.equal(omitted.unsupported, 1, 'a WebMCP call has no script equivalent');
  t.match(repl, 'const page1 = await waitForPopup(() => click({ role: "button", name: "Gift", exact: true }));\nawait switchTab(page1);', 'the cell waits for the popup and switches to it');
  t.match(repl, 'await switchTab(page);\nawait click({ role: "button", name: "Place order", exact: true });\nawait handleDialog({ accept: true });', 'back on the first tab, the dialog answered after the click');
  t.match(repl, 'await pressKey("A", ["Control"]);');
  const program = replayProgram(entries);
  t.equal(program.steps.length, 7, 'one replay step per exported step');
  t.match(program.body, '__step(0);\nawait page.goto(');
});

t.test('the recorder: one entry per outermost scope, secrets kept out, a bounded ring', async (t) => {
  let tab = '';
  const recorder = new TraceRecorder({ page: () => ({ tab, url: tab === '' ? '' : LOGIN, document: 1 }), limit: 3 });
  await recorder.run({ source: 'cell', action: 'goto', asked: 'gotoUrl("x")', args: { url: LOGIN } }, async () => {
    tab = 'T1';
    await recorder.run({ source: 'cell', action: 'waitForLoad', asked: 'waitForLoad()' }, async () => undefined);
  });
  let entries = recorder.entries();
  t.equal(entries.length, 1, 'a nested scope records nothing of its own');
  t.same(entries[0].page, { tab: 'T1', url: LOGIN, document: 1 }, 'an action that attached the tab is on it');
  await recorder.run({ source: 'cell', action: 'fill', asked: 'fillInput(…)', text: 's3cret' }, async () => {
    t.equal(recorder.wantsTarget, true, 'the helper is asked to describe its target');
    recorder.describeTarget({ tag: 'input', label: 'Password', css: '#p', unique: ['label', 'css'], frames: [], secret: true });
    t.equal(recorder.wantsTarget, false, 'once');
  });
  await t.rejects(recorder.run({ source: 'cell', action: 'click', asked: 'click("#nope")' }, async () => { throw new Error('not found'); }), /not found/, 'a failure goes through');
  entries = recorder.entries();
  t.equal(entries[1].secretEnv, 'PASSWORD');
  t.notMatch(JSON.stringify(entries), 's3cret', 'the secret is in no entry');
  t.same(recorder.secrets(), { PASSWORD: 's3cret' }, 'the replay gets it');
  t.equal(entries[2].ok, false);
  t.equal(entries[2].error, 'not found');
  await Promise.all([
    recorder.run({ source: 'cell', action: 'press', asked: 'a' }, async () => undefined),
    recorder.run({ source: 'cell', action: 'press', asked: 'b' }, async () => undefined),
  ]);
  entries = recorder.entries();
  t.equal(entries.length, 3, 'the ring keeps its bound');
  t.equal(recorder.dropped, 2, 'and counts what it dropped');
  t.same(entries.map((e) => e.asked), ['click("#nope")', 'a', 'b'], 'actions side by side record one entry each, oldest dropped first');
  recorder.clear();
  t.same(recorder.entries(), []);
  t.same(recorder.secrets(), {});
});

t.test('text typed into a focused password field', async (t) => {
  const pin = { tag: 'input', label: 'PIN', css: '#pin', unique: ['label', 'css'], secret: true };
  const { playwright, repl, env } = exportTrace([entry('goto', { args: { url: LOGIN } }), entry('type', { target: pin, secretEnv: 'PIN' }), entry('type', { args: { text: 'hello' } })]);
  t.match(playwright, 'await page.keyboard.type(process.env["PIN"] ?? \'\');');
  t.match(playwright, 'await page.keyboard.type("hello");');
  t.match(repl, 'await typeText(process.env["PIN"] ?? \'\');');
  t.same(env, ['PIN']);
});

t.test('an action adds what it learned as it ran', async (t) => {
  const recorder = new TraceRecorder({ page: () => ({ tab: 'T1', url: SHOP, document: 2 }) });
  const start = { source: 'tool', action: 'closeTab', asked: 'close-tab {"index":1}', args: { index: 1 } };
  await recorder.run(start, async () => recorder.addArgs({ tab: 'T2' }));
  t.same(recorder.entries()[0].args, { index: 1, tab: 'T2' });
  t.same(start.args, { index: 1 }, 'the caller\'s object is left as it was');
  recorder.addArgs({ tab: 'T3' });
  t.same(recorder.entries()[0].args, { index: 1, tab: 'T2' }, 'outside an action it does nothing');
  const { playwright } = exportTrace([entry('goto', { args: { url: SHOP } }), entry('newTab', { url: SHOP, args: {}, opened: 'T2' }), ...recorder.entries()]);
  t.match(playwright, 'await page1.close();', 'the exported step closes the tab the index named');
});

t.test('what runs quietly records nothing', async (t) => {
  const recorder = new TraceRecorder({ page: () => ({ tab: 'T1', url: SHOP, document: 1 }) });
  await recorder.quietly(async () => {
    t.equal(recorder.wantsTarget, false, 'no target is wanted');
    await recorder.run({ source: 'cell', action: 'waitForLoad', asked: 'waitForLoad()' }, async () => undefined);
  });
  t.same(recorder.entries(), [], 'a helper a reading tool ran is no action');
});

t.test('names', async (t) => {
  t.equal(askedOf('click', [{ role: 'button', name: /Sign/i }]), 'click({"role":"button","name":"/Sign/i"})');
  t.equal(askedOf('waitForPopup', [() => 1]), 'waitForPopup(() => …)');
  t.equal(secretEnvName({ tag: 'input', label: 'Card PIN (4 digits)', css: '#p', unique: [], frames: [] }), 'CARD_PIN_4_DIGITS');
  t.equal(secretEnvName({ tag: 'input', css: '#p', unique: [], frames: [] }), 'SECRET');
  t.equal(secretEnvName({ tag: 'input', placeholder: '2fa code', css: '#p', unique: [], frames: [] }), 'SECRET_2FA_CODE');
});
