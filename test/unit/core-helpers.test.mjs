// The core helpers over the in-memory fake browser (no I/O): cdp() routing, waitForEvent arming,
// dialog handling (known, and opening during a call), the waitForLoad generation check on a
// Chromium that answers Page.navigate before the commit, exactly-once js(), waitMs clamping and
// the tab helpers' edge cases.
import t from 'tap';
import { CdpClient } from '../../dist/worker/cdp/cdp-client.js';
import { HelperContext } from '../../dist/worker/helpers/helper-context.js';
import { createCoreHelpers } from '../../dist/worker/helpers/browser-helpers.js';
import { FakeBrowser } from '../helpers/fake-browser.mjs';

/** Helpers on a fake browser, inside a cell with `cellMs` left. */
function setup(t, { cellMs = 30_000, targets } = {}) {
  const browser = new FakeBrowser(targets);
  const client = new CdpClient({ endpointProvider: async () => 'ws://fake', connect: browser.connect });
  const notes = [];
  const context = new HelperContext({ client, note: (message) => notes.push(message) });
  context.beginCell(Date.now() + cellMs);
  // Waiter timers are unref'd (a REPL worker's port keeps its loop alive); here nothing else would.
  const keepAlive = setInterval(() => {}, 1_000);
  t.teardown(() => {
    clearInterval(keepAlive);
    context.endCell();
    return client.close();
  });
  return { browser, client, context, notes, helpers: createCoreHelpers(context) };
}

/** Resolves once `predicate()` is true (polling the fake's command log). */
async function until(predicate) {
  while (!predicate()) await new Promise((resolve) => setImmediate(resolve));
}

t.test('cdp() routing', async (t) => {
  const { browser, client, helpers } = setup(t);
  await helpers.cdp('Target.getTargets');
  await helpers.cdp('Runtime.evaluate', { expression: '1' });
  await helpers.cdp('Custom.method', {}, null);
  await helpers.cdp('Custom.other', { a: 1 }, 'explicit-session');
  await helpers.cdp('Storage.getCookies');
  const routed = browser.commands
    .filter((command) => !['Target.attachToTarget', 'Target.activateTarget', 'Page.enable', 'DOM.enable', 'Runtime.enable', 'Network.enable'].includes(command.method))
    .map((command) => [command.method, command.sessionId ?? null]);
  t.same(routed, [
    ['Target.getTargets', null],
    ['Target.getTargets', null], // the auto-attach listing
    ['Runtime.evaluate', client.sessionId],
    ['Custom.method', null],
    ['Custom.other', 'explicit-session'],
    ['Storage.getCookies', null],
  ]);
});

t.test('waitForEvent', async (t) => {
  const { browser, client, helpers } = setup(t);
  t.throws(() => helpers.waitForEvent('Page.loadEventFired'), {
    code: 'REPL_ERR_TARGET_NOT_FOUND',
    message: 'waitForEvent: no target is attached; call ensureRealTab() or newTab() before arming a page event',
  }, 'a page event needs an attached page; it does not attach');
  await helpers.ensureRealTab();
  const page = helpers.waitForEvent('Page.loadEventFired', { predicate: (event) => event.params.n === 2 });
  const level = helpers.waitForEvent('Browser.downloadProgress', { sessionId: null });
  browser.emit('Page.loadEventFired', { n: 1 }, client.sessionId);
  browser.emit('Page.loadEventFired', { n: 2 }, client.sessionId);
  browser.emit('Browser.downloadProgress', { state: 'completed' });
  t.same((await page).params, { n: 2 }, 'the predicate skips other events');
  t.equal((await page).sessionId, client.sessionId);
  t.equal((await level).sessionId, undefined, 'browser-level events have no session');
  t.equal(await helpers.waitForEvent('Never.happens', { timeoutSec: 0.02 }), null);
});

t.test('drainEvents attaches first', async (t) => {
  const { browser, client, helpers } = setup(t);
  const events = await helpers.drainEvents();
  t.ok(client.sessionId, 'attached');
  t.type(events, Array);
  browser.emit('Network.requestWillBeSent', { requestId: 'r1' }, client.sessionId);
  t.same((await helpers.drainEvents()).map((event) => event.method), ['Network.requestWillBeSent']);
  t.same(await helpers.drainEvents(), []);
});

t.test('dialogs', async (t) => {
  t.test('a known dialog: pageInfo reports it without evaluating, other helpers fail at once', async (t) => {
    const { browser, client, helpers } = setup(t);
    await helpers.ensureRealTab();
    browser.emit('Page.javascriptDialogOpening', { type: 'confirm', message: 'sure?' }, client.sessionId);
    const evaluations = browser.sent('Runtime.evaluate').length;
    t.same(await helpers.pageInfo(), { url: 'https://example.com/', title: 'Example', dialog: { type: 'confirm', message: 'sure?' } });
    await t.rejects(helpers.js('1'), {
      code: 'REPL_ERR_DIALOG_OPEN',
      message: 'js: a JavaScript confirm dialog is open ("sure?") and blocks the page; handle it with handleDialog({ accept: true }) or cdp("Page.handleJavaScriptDialog", { accept: true }) (or { accept: false }; add promptText for a prompt), or leave the page with gotoUrl(...) or cdp("Page.reload")',
    });
    await t.rejects(helpers.captureScreenshot('/tmp/never-written.png'), { code: 'REPL_ERR_DIALOG_OPEN', message: /^captureScreenshot: a JavaScript confirm dialog is open/ });
    await t.rejects(helpers.waitForLoad(1), { code: 'REPL_ERR_DIALOG_OPEN', message: /^waitForLoad: / });
    await t.rejects(helpers.uploadFile('#f', '/etc/hostname'), { code: 'REPL_ERR_DIALOG_OPEN', message: /^uploadFile: / });
    t.equal(browser.sent('Runtime.evaluate').length, evaluations, 'nothing was evaluated behind the dialog');
    browser.emit('Page.javascriptDialogClosed', {}, client.sessionId);
    browser.handlers.set('Runtime.evaluate', () => ({ result: { type: 'object', value: { url: 'u', title: 'T', viewport: {}, scroll: {}, page: {}, ready_state: 'complete' } } }));
    t.equal((await helpers.pageInfo()).dialog, null);
  });

  t.test('a dialog that opens during a call', async (t) => {
    const { browser, client, helpers } = setup(t);
    await helpers.ensureRealTab();
    browser.hang.add('Runtime.evaluate');
    const js = helpers.js('alert("x")');
    const info = helpers.pageInfo();
    await until(() => browser.sent('Runtime.evaluate').length === 2);
    browser.emit('Page.javascriptDialogOpening', { type: 'alert', message: 'x' }, client.sessionId);
    await t.rejects(js, { code: 'REPL_ERR_DIALOG_OPEN', message: /^js: a JavaScript alert dialog opened during the call \("x"\) and blocks the page; handle it with handleDialog\(\{ accept: true \}\) or cdp\("Page\.handleJavaScriptDialog"/ });
    t.same(await info, { url: 'https://example.com/', title: 'Example', dialog: { type: 'alert', message: 'x' } });
    t.equal(browser.sent('Runtime.evaluate').length, 2, 'nothing was sent again');
  });
});

t.test('js', async (t) => {
  t.test('runs exactly once: a dropped connection is reported, not retried', async (t) => {
    const { browser, helpers } = setup(t);
    await helpers.ensureRealTab();
    browser.dropBeforeAnswer = (frame) => frame.method === 'Runtime.evaluate';
    await t.rejects(helpers.js('window.count++'), { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    t.equal(browser.sent('Runtime.evaluate').length, 1);
  });

  t.test('function mode builds one expression; targetId uses a temporary session unless it is the attached one', async (t) => {
    const { browser, client, helpers } = setup(t);
    browser.handlers.set('Runtime.evaluate', (params) => ({ result: { type: 'object', value: { type: 'number', value: params.expression.length } } }));
    await helpers.js(async ({ value }) => value * 2, { arg: { value: 4 } });
    const expression = browser.sent('Runtime.evaluate').at(-1).params.expression;
    t.match(expression, 'async ({ value }) => value * 2');
    t.match(expression, '"value",{"type":"number","value":4}');
    const attaches = browser.sent('Target.attachToTarget').length;
    await helpers.js(() => 1, { targetId: client.targetId });
    t.equal(browser.sent('Target.attachToTarget').length, attaches, 'the attached target reuses its session');
    await helpers.js(() => 1, { targetId: 'frame-1' });
    t.equal(browser.sent('Target.attachToTarget').length, attaches + 1);
    t.equal(browser.sent('Target.detachFromTarget').at(-1).params.sessionId.startsWith('session-frame-1'), true, 'and detaches it');
  });
});

t.test('waitForLoad never reports the document a navigation replaces', async (t) => {
  // A Chromium whose Page.navigate answers before the commit: the old document (loader L1,
  // complete) stays for three more frame-tree polls.
  const { browser, helpers } = setup(t);
  let trees = 0;
  const log = [];
  browser.handlers.set('Page.getFrameTree', () => {
    trees++;
    const loaderId = trees <= 4 ? 'L1' : 'L2';
    log.push(`tree:${loaderId}`);
    return { frameTree: { frame: { id: 'main', loaderId, url: 'x', securityOrigin: '', mimeType: 'text/html' } } };
  });
  browser.handlers.set('Page.navigate', () => ({ frameId: 'main', loaderId: 'L2' }));
  browser.handlers.set('Runtime.evaluate', (params) => {
    log.push(`eval:${params.expression}`);
    return { result: { type: 'string', value: 'complete' } };
  });
  await helpers.gotoUrl('https://example.com/next');
  t.equal(await helpers.waitForLoad(5), true);
  t.same(log, ['tree:L1', 'tree:L1', 'tree:L1', 'tree:L1', 'tree:L2', 'eval:document.readyState'], 'readyState is read only once the new loader committed');
  log.length = 0;
  t.equal(await helpers.waitForLoad(5), true);
  t.same(log, ['eval:document.readyState'], 'after that, a plain check');
});

t.test('gotoUrl notes a failed navigation', async (t) => {
  const { browser, notes, helpers } = setup(t);
  browser.handlers.set('Page.navigate', () => ({ frameId: 'main', loaderId: 'L9', errorText: 'net::ERR_NAME_NOT_RESOLVED' }));
  t.same(await helpers.gotoUrl('https://nowhere.invalid/'), { frameId: 'main', loaderId: 'L9', errorText: 'net::ERR_NAME_NOT_RESOLVED' });
  t.same(notes, ['browser-repl: gotoUrl: navigation to https://nowhere.invalid/ failed: net::ERR_NAME_NOT_RESOLVED']);
});

t.test('waitMs', async (t) => {
  const { helpers } = setup(t, { cellMs: 1_000 });
  await helpers.waitMs(1);
  await t.rejects(helpers.waitMs(2_000), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /^waitMs: 2000 ms does not fit in the \d+ ms left before this cell's deadline/ });
  await t.rejects(helpers.waitMs('5'), { message: 'waitMs: milliseconds must be a non-negative finite number' });
});

t.test('waitForNetworkIdle', async (t) => {
  const { browser, client, helpers } = setup(t);
  await helpers.ensureRealTab();
  browser.emit('Network.requestWillBeSent', { requestId: 'busy' }, client.sessionId);
  t.equal(await helpers.waitForNetworkIdle(0, 0.1), false, 'a request in flight');
  browser.emit('Network.loadingFinished', { requestId: 'busy' }, client.sessionId);
  t.equal(await helpers.waitForNetworkIdle(0.05, 1), true);
  await t.rejects(helpers.waitForNetworkIdle(NaN), { message: 'waitForNetworkIdle: idleSec must be a non-negative finite number' });
});

t.test('tabs', async (t) => {
  t.test('listing, current tab, real tab and frames', async (t) => {
    const { helpers } = setup(t);
    t.same((await helpers.listTabs()).map((tab) => tab.targetId), ['page-1', 'internal-1']);
    t.same((await helpers.listTabs(false)).map((tab) => tab.targetId), ['page-1']);
    t.same(await helpers.ensureRealTab(), { targetId: 'page-1', title: 'Example', url: 'https://example.com/' });
    t.same(await helpers.currentTab(), { targetId: 'page-1', title: 'Example', url: 'https://example.com/' });
    t.same(await helpers.iframeTarget('frame.example'), { targetId: 'frame-1', url: 'https://frame.example.com/', title: '', type: 'iframe' });
    t.equal(await helpers.iframeTarget('no-such-host'), null);
  });

  t.test('newTab surfaces a failed reuse instead of opening a second tab', async (t) => {
    const { browser, helpers } = setup(t, { targets: [{ targetId: 'blank-1', type: 'page', url: 'about:blank', title: '' }] });
    browser.handlers.set('Page.navigate', () => {
      throw { code: -32000, message: 'Cannot navigate to invalid URL' };
    });
    await t.rejects(helpers.newTab('not a url'), { code: 'REPL_ERR_CDP_COMMAND_FAILED', message: /Cannot navigate to invalid URL/ });
    t.equal(browser.sent('Target.createTarget').length, 0);
  });

  t.test('closeTab and switchTab edge cases', async (t) => {
    const { helpers } = setup(t);
    await t.rejects(helpers.closeTab(), { code: 'REPL_ERR_TARGET_NOT_FOUND', message: 'closeTab: no tab is attached and no target id was provided' });
    await t.rejects(helpers.switchTab(null), { message: 'switchTab: expected a targetId string or a tab object returned by currentTab/listTabs' });
    await t.rejects(helpers.switchTab({ targetId: 7 }), { message: 'switchTab: expected a targetId string or a tab object returned by currentTab/listTabs' });
    t.match(await helpers.switchTab({ targetId: 'frame-1' }), /^session-frame-1/, 'any target type can be attached');
  });
});
