// CdpClient and BrowserManager against a real headless Chromium, with fixture pages served on
// loopback. Covers launch, attach choice, navigation and evaluation, events, dialogs, crash and
// relaunch, the exactly-once rule, attach mode, profile cleanup and the no-browser message.
// Every Chromium started here is closed in a teardown. No assertion depends on timing.
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserManager } from '../../dist/lib/chromium/browser-manager.js';
import { findChromium } from '../../dist/lib/chromium/find-chromium.js';
import { launchChromium, OFFLINE_ARGS } from '../../dist/lib/chromium/launch-chromium.js';
import { detectNoSandbox } from '../../dist/lib/chromium/sandbox.js';
import { CdpClient } from '../../dist/worker/cdp/cdp-client.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const server = await startFixtureServer();
t.teardown(() => server.close());

// cdpEndpoint: null so that a CDP_ENDPOINT in the developer's shell cannot turn this into attach mode.
const manager = new BrowserManager({ cdpEndpoint: null });
t.teardown(() => manager.close());

/** A client on the shared manager, closed when the test ends. */
function newClient(t, options = {}) {
  const notes = [];
  // The request carries `previous` after a drop, so the manager relaunches a dead browser at once.
  const client = new CdpClient({ endpointProvider: (request) => manager.endpoint(request), onNote: (note) => notes.push(note), ...options });
  t.teardown(() => client.close());
  return { client, notes };
}

/** Navigates the attached page and waits for its load event. */
async function navigate(t, client, url) {
  const sessionId = await client.ensureAttached();
  const loaded = client.waitForEvent('Page.loadEventFired', { sessionId, timeoutMs: 15_000 });
  const result = await client.sessionCommand('Page.navigate', { url });
  t.equal(result.errorText, undefined, `navigated to ${url}`);
  t.ok(await loaded, 'load event fired');
  return sessionId;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

t.test('BrowserManager launches Chromium lazily, once for concurrent callers', async (t) => {
  t.equal(manager.mode, 'launch');
  t.equal(manager.launched, false, 'nothing runs before the first use');
  const [first, second] = await Promise.all([manager.endpoint(), manager.endpoint()]);
  t.match(first, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[\w-]+$/);
  t.equal(second, first);
  t.equal(manager.launchCount, 1);
  t.equal(manager.launched, true);
  t.ok(existsSync(manager.userDataDir), 'the temporary profile exists while the browser runs');

  const cmdline = readFileSync(`/proc/${manager.pid}/cmdline`, 'utf8').split('\0');
  for (const flag of OFFLINE_ARGS) t.ok(cmdline.includes(flag), `passes ${flag}`);
  t.ok(cmdline.includes('--remote-debugging-port=0'));
  t.ok(cmdline.some((arg) => arg.startsWith('--headless')), 'headless by default');
  if (detectNoSandbox().noSandbox) t.ok(cmdline.includes('--no-sandbox'), 'noSandbox auto applies (root or container)');
});

t.test('ensureAttached picks the first page with a non-internal URL', async (t) => {
  const { client } = newClient(t);
  const { targetId } = await client.browserCommand('Target.createTarget', { url: server.url('basic.html') });
  const pages = (await client.listTargets()).filter((target) => target.type === 'page');
  t.ok(pages.some((page) => page.url === 'about:blank'), 'the initial about:blank tab is still there');
  await client.ensureAttached();
  t.equal(client.targetId, targetId);
  t.equal(client.rendererResponsive, true);
  await client.browserCommand('Target.closeTarget', { targetId });
  // closeTarget answers before the target is gone; later tests must not find it half-closed.
  while ((await client.listTargets()).some((target) => target.targetId === targetId)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

t.test('navigate, evaluate, and the event ring', async (t) => {
  const { client } = newClient(t);
  const sessionId = await navigate(t, client, server.url('basic.html'));
  const title = await client.evaluate(sessionId, 'document.title');
  t.same(title.result, { type: 'string', value: 'Basic fixture' });
  const marker = await client.sessionCommand('Runtime.evaluate', { expression: 'window.fixtureMarker', returnByValue: true });
  t.equal(marker.result.value, 'basic-loaded');
  const awaited = await client.evaluate(sessionId, 'new Promise((resolve) => setTimeout(() => resolve(6 * 7), 10))');
  t.equal(awaited.result.value, 42, 'promises are awaited');

  const events = client.drainEvents();
  const requests = events.filter((e) => e.method === 'Network.requestWillBeSent' && e.sessionId === sessionId).map((e) => e.params.request.url);
  t.ok(requests.includes(server.url('basic.html')), 'the document request is in the ring');
  t.ok(requests.includes(server.url('basic.css')), 'the stylesheet request is in the ring');
  t.ok(events.some((e) => e.method === 'Page.loadEventFired' && e.sessionId === sessionId));
  t.ok(events.every((e) => typeof e.time === 'number' && typeof e.method === 'string'));
  t.ok(events.length <= 500);
  t.same(client.drainEvents().filter((e) => e.method === 'Page.loadEventFired'), [], 'drained events are gone');
  t.ok(client.lastNetworkActivity > 0);

  const frameTarget = await client.evaluateOnTarget(client.targetId, 'location.pathname');
  t.equal(frameTarget.result.value, '/basic.html', 'evaluateOnTarget reaches the same page through a transient session');
  const failed = await client.sessionCommand('Page.navigate', {}).catch((e) => e);
  t.equal(failed.code, 'REPL_ERR_CDP_COMMAND_FAILED');
  t.match(failed.message, /^CDP Page\.navigate failed: .+ \(code -32602\)$/);
});

t.test('dialog tracking: an alert opened by a timer is reported and can be handled', async (t) => {
  const { client } = newClient(t);
  const sessionId = await client.ensureAttached();
  const opened = client.waitForEvent('Page.javascriptDialogOpening', { sessionId, timeoutMs: 15_000 });
  await client.sessionCommand('Page.navigate', { url: server.url('dialog.html') });
  const event = await opened;
  t.equal(event.params.message, 'hello-alert');
  t.match(client.pendingDialog, { type: 'alert', message: 'hello-alert' });

  const blocked = await client.sessionCommand('Runtime.evaluate', { expression: '1' }, { timeoutMs: 500 }).catch((e) => e);
  t.equal(blocked.code, 'REPL_ERR_CDP_TIMEOUT');
  t.match(blocked.message, /^CDP Runtime\.evaluate timed out after 500ms \(the page renderer is unresponsive — a modal JavaScript dialog may be blocking it; recover with cdp\("Page\.handleJavaScriptDialog", \{ accept: true \}\) or cdp\("Page\.reload"\)\) \(outcome unknown; command was not retried\)$/);

  const closed = client.waitForEvent('Page.javascriptDialogClosed', { sessionId, timeoutMs: 15_000 });
  await client.sessionCommand('Page.handleJavaScriptDialog', { accept: true });
  t.ok(await closed);
  t.equal(client.pendingDialog, null);
  t.equal((await client.evaluate(sessionId, 'document.title')).result.value, 'Dialog fixture');
});

t.test('ownTab: automatic attach uses the own tab, and once it is closed asks for a replacement', async (t) => {
  const { client: opener } = newClient(t);
  const openTab = async () => (await opener.browserCommand('Target.createTarget', { url: server.url('basic.html'), background: true })).targetId;
  let own = await openTab();
  const requests = [];
  const { client } = newClient(t, {
    ownTab: async (request) => {
      requests.push(request);
      if (request.gone !== undefined) own = await openTab();
      return own;
    },
  });
  const first = own;
  await client.ensureAttached();
  t.equal(client.targetId, first);
  t.equal(client.ownTargetId, first);
  // createTarget answers before the tab has committed its URL: poll until it has (bounded).
  let href;
  for (let attempt = 0; attempt < 100; attempt++) {
    ({ result: { value: href } } = await client.sessionCommand('Runtime.evaluate', { expression: 'location.href', returnByValue: true }));
    if (href !== 'about:blank') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(href, server.url('basic.html'), 'the own tab, not the first real page');

  await opener.browserCommand('Target.closeTarget', { targetId: first });
  // Target.detachedFromTarget ends the attached session.
  while (client.targetId === first) await new Promise((resolve) => setTimeout(resolve, 20));
  await client.ensureAttached();
  t.not(client.targetId, first);
  t.equal(client.targetId, own);
  t.equal(client.ownTargetId, own);
  t.same(requests, [{}, {}, { gone: first }], 'the closed tab is named when a replacement is asked for');
  await opener.browserCommand('Target.closeTarget', { targetId: own });
  while ((await opener.listTargets()).some((target) => target.targetId === own)) await new Promise((resolve) => setTimeout(resolve, 50));
});

t.test('Chromium killed with SIGKILL: pending commands reject, the manager relaunches, the client reattaches (3×)', async (t) => {
  const { client } = newClient(t);
  await navigate(t, client, server.url('basic.html'));
  for (let round = 1; round <= 3; round++) {
    const sessionId = await client.ensureAttached();
    const oldPid = manager.pid;
    const oldProfile = manager.userDataDir;
    const launches = manager.launchCount;
    const exited = new Promise((resolve) => {
      const dispose = manager.onExit((info) => {
        dispose();
        resolve(info);
      });
    });

    // Raw send on an explicit session: the error is passed through unchanged.
    const raw = client.send('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true }, { sessionId });
    // Session command, not on the safe list: never re-sent, reported as an unknown outcome.
    const unsafe = client.sessionCommand('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true });
    const waiter = client.waitForEvent('Page.frameNavigated', { sessionId });
    // Let both commands reach the browser before it dies.
    await client.evaluate(sessionId, '1');
    process.kill(oldPid, 'SIGKILL');

    await t.rejects(raw, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' }, `round ${round}: raw send`);
    await t.rejects(
      unsafe,
      {
        code: 'REPL_ERR_CDP_OUTCOME_UNKNOWN',
        message: 'CDP Runtime.evaluate outcome is unknown because the connection closed before its response; the command was not retried',
      },
      `round ${round}: unsafe session command`,
    );
    await t.rejects(waiter, { code: 'REPL_ERR_CDP_DISCONNECTED' }, `round ${round}: waiter`);
    const exit = await exited;
    t.match(exit, { pid: oldPid, signal: 'SIGKILL', expected: false });
    t.notOk(existsSync(oldProfile), `round ${round}: the dead browser's profile was removed`);

    const answer = await client.sessionCommand('Runtime.evaluate', { expression: '6 * 7', returnByValue: true });
    t.equal(answer.result.value, 42, `round ${round}: the next command relaunches, reconnects and reattaches`);
    t.equal(manager.launchCount, launches + 1);
    t.not(manager.pid, oldPid);
    t.not(client.sessionId, sessionId);
  }
});

t.test('attach mode (http://127.0.0.1:<port>): the client discovers the browser, close() never kills it', async (t) => {
  const { executable } = findChromium();
  const external = await launchChromium({ executable, noSandbox: detectNoSandbox().noSandbox });
  t.teardown(() => external.close());
  const port = new URL(external.wsEndpoint).port;
  const endpoint = `http://127.0.0.1:${port}`;

  const attached = new BrowserManager({ cdpEndpoint: endpoint });
  t.equal(attached.mode, 'attach');
  t.equal(await attached.endpoint(), endpoint);
  const client = new CdpClient({ endpointProvider: () => attached.endpoint() });
  t.teardown(() => client.close());
  const version = await client.browserCommand('Browser.getVersion');
  t.match(version.product, /Chrome/);
  await navigate(t, client, server.url('basic.html'));
  t.equal((await client.evaluate(client.sessionId, 'document.title')).result.value, 'Basic fixture');

  await client.close();
  await attached[Symbol.asyncDispose]();
  t.equal(attached.launched, false);
  t.ok(isAlive(external.pid), 'the attached browser still runs');
  const response = await fetch(`${endpoint}/json/version`);
  t.equal(response.status, 200, 'and still answers DevTools requests');
  await response.body?.cancel();
  await t.rejects(attached.endpoint(), { code: 'REPL_ERR_CLOSED' });
});

t.test('close() ends the launched browser and removes its temporary profile', async (t) => {
  const own = new BrowserManager({ cdpEndpoint: null });
  t.teardown(() => own.close());
  await own.endpoint();
  const { pid, userDataDir } = own;
  t.ok(existsSync(userDataDir));
  await own[Symbol.asyncDispose]();
  t.notOk(existsSync(userDataDir), 'profile removed');
  t.notOk(isAlive(pid), 'process gone');
  t.equal(own.launched, false);
  await own.close();
  await t.rejects(own.endpoint(), { code: 'REPL_ERR_CLOSED' });
});

t.test('no Chromium: the first browser command fails with REPL_ERR_BROWSER_NOT_FOUND and a helpful message', async (t) => {
  const emptyHome = mkdtempSync(join(tmpdir(), 'browser-repl-empty-home-'));
  t.teardown(() => rmSync(emptyHome, { recursive: true, force: true }));

  const missing = new BrowserManager({ cdpEndpoint: null, executable: '/nonexistent/chromium' });
  t.teardown(() => missing.close());
  await t.rejects(missing.endpoint(), { code: 'REPL_ERR_BROWSER_NOT_FOUND', message: /`executable` option is "\/nonexistent\/chromium"/ });

  const nothing = new BrowserManager({ cdpEndpoint: null, env: { PATH: '', HOME: emptyHome } });
  t.teardown(() => nothing.close());
  const client = new CdpClient({ endpointProvider: () => nothing.endpoint() });
  t.teardown(() => client.close());
  const error = await client.sessionCommand('Runtime.evaluate', { expression: '1' }).catch((e) => e);
  t.equal(error.code, 'REPL_ERR_BROWSER_NOT_FOUND');
  for (const needle of ['`executable` option', 'BROWSER_REPL_CHROME', 'CHROME_PATH', 'CDP_ENDPOINT', 'npx chromium-repl install-browser', 'apt-get install chromium']) {
    t.ok(error.message.includes(needle), `the message mentions ${needle}`);
  }
  t.equal(nothing.launched, false);
});
