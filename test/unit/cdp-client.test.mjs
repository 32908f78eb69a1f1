// CdpClient against a scripted in-memory browser: attach rules (own tab included), retries and
// the exactly-once rule, per-call deadlines, dialog/network state, event ring and waiters,
// reconnect and close.
import t from 'tap';
import { CdpClient } from '../../dist/worker/cdp/cdp-client.js';
import { Deadline } from '../../dist/common/cdp/deadline.js';
import { isInternalUrl } from '../../dist/worker/cdp/page-attachment.js';
import { HelperContext } from '../../dist/worker/helpers/helper-context.js';
import { SAFE_RETRY_METHODS } from '../../dist/common/cdp/safe-retry-methods.js';
import { FakeBrowser } from '../helpers/fake-browser.mjs';

const keepAlive = setInterval(() => {}, 60_000);
t.teardown(() => clearInterval(keepAlive));

const RENDERER_HINT =
  ' (the page renderer is unresponsive — a modal JavaScript dialog may be blocking it; recover with cdp("Page.handleJavaScriptDialog", { accept: true }) or cdp("Page.reload"))';

/** The options a helper passes while a cell with `cellMs` left runs (HelperContext keeps 500 ms back). */
function cellCall(client, cellMs) {
  const context = new HelperContext({ client, note: () => {} });
  context.beginCell(Date.now() + cellMs);
  return context.callOptions();
}

function setup(t, { browser = new FakeBrowser(), ...options } = {}) {
  let providerCalls = 0;
  const notes = [];
  const requests = [];
  const client = new CdpClient({
    endpointProvider: async (request) => {
      requests.push(request);
      return `ws://fake/${++providerCalls}`;
    },
    connect: browser.connect,
    onNote: (note) => notes.push(note),
    ...options,
  });
  t.teardown(() => client.close());
  return { browser, client, notes, requests, providerCalls: () => providerCalls };
}

t.test('CdpClient', async (t) => {
  t.test('#ensureAttached', async (t) => {
    t.test('picks the first page with a non-internal URL, activates it and enables the four domains', async (t) => {
      const { browser, client } = setup(t, {
        browser: new FakeBrowser([
          { targetId: 'blank', type: 'page', url: 'about:blank', title: '' },
          { targetId: 'internal', type: 'page', url: 'chrome://newtab/', title: '' },
          { targetId: 'frame', type: 'iframe', url: 'https://f.example/', title: '' },
          { targetId: 'real', type: 'page', url: 'https://example.com/', title: 'Example' },
        ]),
      });
      const sessionId = await client.ensureAttached();
      t.equal(client.targetId, 'real');
      t.equal(client.sessionId, sessionId);
      t.match(client.session, { sessionId, targetId: 'real', closed: false }, 'the attached page is a CdpSession');
      t.same(browser.sent('Target.attachToTarget').map((c) => c.params), [{ targetId: 'real', flatten: true }]);
      t.same(browser.sent('Target.activateTarget').map((c) => c.params), [{ targetId: 'real' }]);
      t.same(
        browser.commands.filter((c) => c.sessionId === sessionId).map((c) => c.method).sort(),
        ['DOM.enable', 'Network.enable', 'Page.enable', 'Runtime.enable'],
      );
      t.equal(client.rendererResponsive, true);
      t.equal(await client.ensureAttached(), sessionId, 'a second call reuses the session');
      t.equal(browser.sent('Target.attachToTarget').length, 1);
    });

    t.test('falls back to any page, then creates about:blank', async (t) => {
      const internalOnly = setup(t, { browser: new FakeBrowser([{ targetId: 'ntp', type: 'page', url: 'chrome://newtab/', title: '' }]) });
      await internalOnly.client.ensureAttached();
      t.equal(internalOnly.client.targetId, 'ntp');

      const none = setup(t, { browser: new FakeBrowser([{ targetId: 'w', type: 'service_worker', url: 'https://x/', title: '' }]) });
      await none.client.ensureAttached();
      t.same(none.browser.sent('Target.createTarget').map((c) => c.params), [{ url: 'about:blank' }]);
      t.equal(none.client.targetId, 'created-1');
    });

    t.test('re-lists and retries once when the target vanished between listing and attaching', async (t) => {
      const { browser, client } = setup(t);
      let failures = 1;
      browser.handlers.set('Target.attachToTarget', (params) => {
        if (failures-- > 0) throw { code: -32602, message: 'No target with given id found' };
        return { sessionId: `session-${params.targetId}` };
      });
      await client.ensureAttached();
      t.equal(browser.sent('Target.getTargets').length, 2);
      t.equal(client.targetId, 'page-1');
    });

    t.test('prefers the previously attached target after a dropped connection', async (t) => {
      const { browser, client } = setup(t);
      await client.attach('frame-1');
      browser.dropAll();
      await client.sessionCommand('DOM.getDocument', {});
      t.equal(client.targetId, 'frame-1');
      t.equal(client.connectionCount, 2);
    });
  });

  t.test('#attach', async (t) => {
    t.test('reuses the session for the same target and detaches the previous one on a switch', async (t) => {
      const { browser, client } = setup(t);
      const first = await client.attach('page-1');
      t.equal(await client.attach('page-1'), first);
      const second = await client.attach('frame-1');
      t.not(second, first);
      await client.attach('page-1');
      t.equal(browser.sent('Target.attachToTarget').length, 3);
      t.same(browser.sent('Target.detachFromTarget').map((c) => c.params.sessionId), [first, second]);
    });

    t.test('rejects with REPL_ERR_TARGET_NOT_FOUND for an unknown target', async (t) => {
      const { client } = setup(t);
      await t.rejects(client.attach('nope'), { code: 'REPL_ERR_TARGET_NOT_FOUND' });
    });

    t.test('marks the renderer unresponsive when an enable times out, and hints at it', async (t) => {
      const { browser, client } = setup(t);
      browser.hang.add('Page.enable');
      const started = Date.now();
      // The enable timeout (5 s) is bounded by the deadline passed here, so the test stays short.
      await client.attach('page-1', { deadline: new Deadline(started + 150) });
      t.equal(client.rendererResponsive, false);
      browser.hang.add('Runtime.evaluate');
      const error = await client.sessionCommand('Runtime.evaluate', { expression: '1' }, { timeoutMs: 20 }).catch((e) => e);
      t.equal(error.code, 'REPL_ERR_CDP_TIMEOUT');
      t.equal(error.message, `CDP Runtime.evaluate timed out after 20ms${RENDERER_HINT} (outcome unknown; command was not retried)`);
      t.ok(browser.sent('Page.enable').length >= 2, 'the enables are re-run before later session commands');
    });

    t.test('dismisses a dialog left open before attach and writes a note', async (t) => {
      const { browser, client, notes } = setup(t);
      browser.dialogOpen = true;
      browser.handlers.set('Page.enable', (params, frame, transport) => {
        // Reported when Page is enabled while a dialog is showing.
        if (browser.dialogOpen) transport.emit('Page.javascriptDialogOpening', { url: 'u', message: 'left "open"', type: 'confirm', hasBrowserHandler: true }, frame.sessionId);
        return {};
      });
      await client.ensureAttached();
      t.equal(browser.sent('Page.handleJavaScriptDialog').length, 1);
      t.equal(client.pendingDialog, null);
      t.same(notes, ['browser-repl: dismissed a pre-existing JavaScript dialog (type: confirm, message: "left \\"open\\"") left open before attach']);
    });
  });

  t.test('mainFrameLoading follows the attached page only, and starts over on attach', async (t) => {
    const { browser, client } = setup(t);
    const sessionId = await client.ensureAttached();
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    browser.emit('Page.frameStartedLoading', { frameId: 'page-1' }, 'another-session');
    await settle();
    t.equal(client.mainFrameLoading, false, 'events of other sessions are ignored');
    browser.emit('Page.frameStartedLoading', { frameId: 'page-1' }, sessionId);
    await settle();
    t.equal(client.mainFrameLoading, true);
    browser.emit('Page.frameStoppedLoading', { frameId: 'page-1' }, sessionId);
    await settle();
    t.equal(client.mainFrameLoading, false);
    browser.emit('Page.frameStartedLoading', { frameId: 'page-1' }, sessionId);
    await settle();
    await client.attach('internal-1');
    t.equal(client.mainFrameLoading, false, 'a newly attached target starts with no load in progress');
  });

  t.test('#sessionCommand and #send retries', async (t) => {
    t.test('a safe session command is re-run once after the connection drops, reconnecting and reattaching', async (t) => {
      const { browser, client, providerCalls } = setup(t);
      await client.ensureAttached();
      let drops = 1;
      browser.dropBeforeAnswer = (frame) => frame.method === 'DOM.getDocument' && drops-- > 0;
      const result = await client.sessionCommand('DOM.getDocument', {});
      t.equal(result.root.nodeId, 1);
      t.equal(browser.sent('DOM.getDocument').length, 2);
      t.equal(client.connectionCount, 2);
      t.equal(browser.openConnections, 1);
      t.equal(providerCalls(), 2, 'the endpoint provider is asked again before reconnecting');
    });

    t.test('a socket that refuses writes before its close event: a safe command reconnects instead of failing twice', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureAttached();
      // The browser was SIGKILLed: the socket is closing but has not emitted 'close' yet.
      browser.connections[0].failSends = true;
      const result = await client.sessionCommand('DOM.getDocument', {});
      t.equal(result.root.nodeId, 1);
      t.equal(client.connectionCount, 2, 'the retry opened a new connection');
      t.equal(browser.sent('DOM.getDocument').length, 1, 'only the write that went through was seen by the browser');
    });

    t.test('an unsafe session command reports an unknown outcome and is not re-sent', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureAttached();
      browser.dropBeforeAnswer = (frame) => frame.method === 'Runtime.evaluate';
      const error = await client.sessionCommand('Runtime.evaluate', { expression: 'count++' }).catch((e) => e);
      t.equal(error.code, 'REPL_ERR_CDP_OUTCOME_UNKNOWN');
      t.equal(error.message, 'CDP Runtime.evaluate outcome is unknown because the connection closed before its response; the command was not retried');
      t.equal(error.cause.message, 'CDP connection closed');
      t.equal(browser.sent('Runtime.evaluate').length, 1);
    });

    t.test('browser-level: a safe method is retried on a fresh connection, an unsafe one is not', async (t) => {
      const { browser, client } = setup(t);
      let drops = 1;
      browser.dropBeforeAnswer = (frame) => frame.method === 'Target.getTargets' && drops-- > 0;
      const targets = await client.listTargets();
      t.equal(targets.length, 3);
      t.same(targets[0], { targetId: 'page-1', type: 'page', title: 'Example', url: 'https://example.com/', attached: false });
      t.equal(browser.sent('Target.getTargets').length, 2);

      browser.dropBeforeAnswer = (frame) => frame.method === 'Target.createTarget';
      await t.rejects(client.browserCommand('Target.createTarget', { url: 'about:blank' }), {
        code: 'REPL_ERR_CDP_OUTCOME_UNKNOWN',
        message: /^CDP Target\.createTarget outcome is unknown/,
      });
      t.equal(browser.sent('Target.createTarget').length, 1);
    });

    t.test('a command on an explicit session is never retried and keeps the raw error', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.dropBeforeAnswer = (frame) => frame.method === 'DOM.getDocument';
      await t.rejects(client.send('DOM.getDocument', {}, { sessionId }), { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
      t.equal(browser.sent('DOM.getDocument').length, 1);
    });

    t.test('reconnects after a restart and attaches the first real page again', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureAttached();
      browser.restart();
      t.equal(client.sessionId, undefined, 'the session is cleared when the socket closes');
      await client.sessionCommand('Page.navigate', { url: 'https://example.com/2' });
      t.equal(client.targetId, 'page-1@2');
      t.equal(browser.openConnections, 1);
    });

    t.test('retries a refused connect, asking the provider each time and naming the dead endpoint', async (t) => {
      const { browser, client, providerCalls, requests } = setup(t);
      browser.refuseConnections = 2;
      await client.ensureConnected();
      t.equal(providerCalls(), 3);
      t.same(browser.endpoints, ['ws://fake/1', 'ws://fake/2', 'ws://fake/3']);
      t.same(requests, [{}, { previous: 'ws://fake/1' }, { previous: 'ws://fake/2' }]);
      browser.dropAll();
      await client.ensureConnected();
      t.same(requests.at(-1), { previous: 'ws://fake/3' }, 'after a drop the closed endpoint is reported');
    });

    t.test('an endpoint provider error reaches the caller unchanged', async (t) => {
      const browser = new FakeBrowser();
      const client = new CdpClient({
        endpointProvider: async () => {
          const error = new Error('No Chromium-based browser found');
          error.code = 'REPL_ERR_BROWSER_NOT_FOUND';
          throw error;
        },
        connect: browser.connect,
      });
      t.teardown(() => client.close());
      await t.rejects(client.sessionCommand('Page.navigate', { url: 'x' }), { code: 'REPL_ERR_BROWSER_NOT_FOUND' });
      t.equal(browser.connections.length, 0);
    });
  });

  t.test('a failed session command\'s stack names the helper that called it', async (t) => {
    const { browser, client } = setup(t);
    browser.handlers.set('DOM.querySelector', () => {
      throw { code: -32000, message: 'Could not find node with given id' };
    });
    async function someHelperFunction() {
      return await client.sessionCommand('DOM.querySelector', { nodeId: 1, selector: '#x' });
    }
    const error = await someHelperFunction().catch((e) => e);
    t.equal(error.message, 'CDP DOM.querySelector failed: Could not find node with given id (code -32000)');
    t.match(error.stack, /someHelperFunction/);
  });

  t.test('deadlines', async (t) => {
    t.test('a command cannot start once the deadline margin is reached', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureAttached();
      await t.rejects(client.sessionCommand('Page.navigate', { url: 'x' }, cellCall(client, 100)), {
        code: 'REPL_ERR_CDP_DEADLINE_REACHED',
        message: 'CDP Page.navigate could not run: the execution deadline has already been reached',
      });
      t.equal(browser.sent('Page.navigate').length, 0);
    });

    t.test('evaluate waits up to the deadline rather than the 30 s default while a cell runs', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.hang.add('Runtime.evaluate');
      await t.rejects(client.evaluate(sessionId, 'new Promise(() => {})', cellCall(client, 500 + 50)), {
        code: 'REPL_ERR_CDP_TIMEOUT',
        message: /timed out after \d+ms \(bounded by the execution timeout\) \(outcome unknown; command was not retried\)$/,
      });
    });

    t.test('each call has its own deadline: a bounded call does not bound the next one', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.hang.add('DOM.getDocument');
      const bounded = client.sessionCommand('DOM.getDocument', {}, { deadline: Deadline.in(30) }).catch((e) => e);
      const own = client.sessionCommand('DOM.getDocument', {}, { timeoutMs: 120 }).catch((e) => e);
      const raw = client.send('DOM.getDocument', {}, { sessionId, timeoutMs: 60_000, deadline: Deadline.in(40) }).catch((e) => e);
      const [first, second, third] = await Promise.all([bounded, own, raw]);
      t.match(first.message, /^CDP DOM\.getDocument timed out after \d+ms \(bounded by the execution timeout\)$/);
      t.equal(second.message, 'CDP DOM.getDocument timed out after 120ms', 'no deadline leaks from the earlier call');
      t.equal(third.data.boundedByDeadline, true);
    });

    t.test('a deadline already passed fails before connecting, naming the command', async (t) => {
      const { browser, client } = setup(t);
      await t.rejects(client.sessionCommand('Page.navigate', { url: 'x' }, { deadline: new Deadline(Date.now() - 1) }), {
        code: 'REPL_ERR_CDP_DEADLINE_REACHED',
        message: 'CDP Page.navigate could not run: the execution deadline has already been reached',
      });
      await t.rejects(client.ensureAttached({ deadline: new Deadline(Date.now() - 1) }), { code: 'REPL_ERR_CDP_DEADLINE_REACHED' });
      await client.ensureConnected();
      t.equal(browser.commands.length, 0, 'nothing was sent: the connect went on for later callers only');
    });

    t.test('HelperContext: the cell deadline less 500 ms, only while the cell runs', async (t) => {
      const { client } = setup(t);
      const context = new HelperContext({ client, note: () => {} });
      t.equal(context.deadline, undefined);
      t.same(context.callOptions({ timeoutMs: 5 }), { timeoutMs: 5, deadline: undefined });
      const cellDeadline = Date.now() + 10_000;
      context.beginCell(cellDeadline);
      t.equal(context.deadline.at, cellDeadline - 500);
      t.equal(context.callOptions().deadline, context.deadline);
      t.equal(context.callOptions({ sessionId: 'S' }).sessionId, 'S');
      t.equal(context.waitDeadline(60_000), cellDeadline - 500);
      context.endCell();
      t.equal(context.deadline, undefined);
      t.equal(context.signal.aborted, true);
    });
  });

  t.test('ownTab', async (t) => {
    t.test('automatic attach attaches the own tab, never the first real page', async (t) => {
      const requests = [];
      const { browser, client } = setup(t, {
        ownTab: async (request) => {
          requests.push(request);
          return 'internal-1';
        },
      });
      t.equal(client.ownTargetId, undefined, 'not known before the first attach');
      await client.ensureAttached();
      t.equal(client.targetId, 'internal-1');
      t.equal(client.ownTargetId, 'internal-1');
      t.same(requests, [{}]);
      t.same(browser.sent('Target.attachToTarget').map((c) => c.params), [{ targetId: 'internal-1', flatten: true }]);
      t.equal(browser.sent('Target.getTargets').length, 0, 'no listing: the target is known');
      t.equal(browser.sent('Target.createTarget').length, 0);

      await client.attach('page-1');
      browser.dropAll();
      await client.sessionCommand('DOM.getDocument', {});
      t.equal(client.targetId, 'internal-1', 'after a drop the own tab comes back, not the last switched-to one');
    });

    t.test('an own tab that is gone is replaced once through ownTab({ gone })', async (t) => {
      const requests = [];
      const browser = new FakeBrowser();
      const { client } = setup(t, {
        browser,
        ownTab: async (request) => {
          requests.push(request);
          if (request.gone === undefined) return 'closed-tab';
          browser.targets.push({ targetId: 'replacement', type: 'page', url: 'about:blank', title: '' });
          return 'replacement';
        },
      });
      await client.ensureAttached();
      t.same(requests, [{}, { gone: 'closed-tab' }]);
      t.equal(client.targetId, 'replacement');
      t.equal(client.ownTargetId, 'replacement');
    });

    t.test('a replacement that is gone as well fails instead of asking forever', async (t) => {
      let calls = 0;
      const { client } = setup(t, { ownTab: async () => `missing-${++calls}` });
      await t.rejects(client.ensureAttached(), { code: 'REPL_ERR_CDP_COMMAND_FAILED', message: /No target with given id/ });
      t.equal(calls, 2);
    });

    t.test('waiting for the own tab ends at the deadline', async (t) => {
      const { client } = setup(t, { ownTab: () => new Promise(() => {}) });
      await t.rejects(client.ensureAttached({ deadline: Deadline.in(20) }), {
        code: 'REPL_ERR_CDP_DEADLINE_REACHED',
        message: "CDP Target.attachToTarget could not run: the execution deadline was reached while waiting for this REPL's own tab",
      });
    });

    t.test('without ownTab, ownTargetId stays undefined', async (t) => {
      const { client } = setup(t);
      await client.ensureAttached();
      t.equal(client.ownTargetId, undefined);
    });
  });

  t.test('state from events', async (t) => {
    t.test('tracks the pending dialog of the attached session only', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.emit('Page.javascriptDialogOpening', { message: 'other', type: 'alert' }, 'some-other-session');
      t.equal(client.pendingDialog, null);
      browser.emit('Page.javascriptDialogOpening', { message: 'hello-prompt', type: 'prompt', url: 'u', hasBrowserHandler: true }, sessionId);
      t.match(client.pendingDialog, { type: 'prompt', message: 'hello-prompt', since: Number });
      browser.emit('Page.javascriptDialogClosed', { result: true, userInput: '' }, sessionId);
      t.equal(client.pendingDialog, null);
    });

    t.test('after a switch, events of the previous session no longer reach the page state', async (t) => {
      const { browser, client } = setup(t);
      const first = await client.attach('page-1');
      const second = await client.attach('frame-1');
      browser.emit('Page.javascriptDialogOpening', { message: 'old tab', type: 'alert' }, first);
      browser.emit('Network.requestWillBeSent', { requestId: 'old' }, first);
      t.equal(client.pendingDialog, null);
      t.equal(client.inFlightRequests.size, 0);
      browser.emit('Page.javascriptDialogOpening', { message: 'new tab', type: 'alert' }, second);
      t.equal(client.pendingDialog.message, 'new tab');
    });

    t.test('tracks in-flight requests and the last network activity of the attached session', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      const before = client.lastNetworkActivity;
      await new Promise((resolve) => setTimeout(resolve, 5));
      browser.emit('Network.requestWillBeSent', { requestId: 'r1' }, sessionId);
      browser.emit('Network.requestWillBeSent', { requestId: 'r2' }, sessionId);
      browser.emit('Network.requestWillBeSent', { requestId: 'elsewhere' }, 'other');
      t.same([...client.inFlightRequests].sort(), ['r1', 'r2']);
      browser.emit('Network.loadingFinished', { requestId: 'r1' }, sessionId);
      browser.emit('Network.loadingFailed', { requestId: 'r2' }, sessionId);
      t.equal(client.inFlightRequests.size, 0);
      t.ok(client.lastNetworkActivity > before);
      browser.emit('Network.requestWillBeSent', { requestId: 'r3' }, sessionId);
      browser.dropAll();
      t.equal(client.inFlightRequests.size, 0, 'a dropped connection clears the in-flight set');
    });

    t.test('a main-frame navigation forgets in-flight requests of the replaced document', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.emit('Network.requestWillBeSent', { requestId: 'old', loaderId: 'L1' }, sessionId);
      browser.emit('Network.requestWillBeSent', { requestId: 'new', loaderId: 'L2' }, sessionId);
      browser.emit('Page.frameNavigated', { frame: { id: 'child', parentId: 'main', loaderId: 'L3' } }, sessionId);
      t.same([...client.inFlightRequests].sort(), ['new', 'old'], 'a subframe navigation changes nothing');
      browser.emit('Page.frameNavigated', { frame: { id: 'main', loaderId: 'L2' } }, sessionId);
      t.same([...client.inFlightRequests], ['new']);
    });

    t.test('Target.detachedFromTarget for the attached session clears it', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      browser.emit('Target.detachedFromTarget', { sessionId: 'unrelated' });
      t.equal(client.sessionId, sessionId);
      browser.emit('Target.detachedFromTarget', { sessionId, targetId: 'page-1' });
      t.equal(client.sessionId, undefined);
      t.equal(client.targetId, undefined);
      await client.ensureAttached();
      t.equal(browser.sent('Target.attachToTarget').length, 2);
    });
  });

  t.test('#drainEvents', async (t) => {
    t.test('returns the 500 newest events of every session and empties the ring', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      client.drainEvents();
      for (let i = 0; i < 600; i++) browser.emit('Network.requestWillBeSent', { requestId: `r${i}` }, i % 2 === 0 ? sessionId : undefined);
      t.equal(client.droppedEvents, 100);
      const events = client.drainEvents();
      t.equal(events.length, 500);
      t.equal(events[0].params.requestId, 'r100');
      t.match(events[0], { method: 'Network.requestWillBeSent', sessionId, time: Number });
      t.same(client.drainEvents(), []);
    });
  });

  t.test('#waitForEvent', async (t) => {
    t.test('matches method and session strictly and skips events the predicate rejects', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      const pageWaiter = client.waitForEvent('Network.requestWillBeSent', { sessionId, predicate: (e) => e.params.requestId === 'wanted' });
      const browserWaiter = client.waitForEvent('Browser.downloadProgress', { sessionId: null });
      browser.emit('Network.requestWillBeSent', { requestId: 'wanted' }); // browser-level: wrong session
      browser.emit('Network.requestWillBeSent', { requestId: 'ignored' }, sessionId);
      browser.emit('Browser.downloadProgress', { guid: 'g' }, sessionId); // session event: not browser-level
      browser.emit('Network.requestWillBeSent', { requestId: 'wanted' }, sessionId);
      browser.emit('Browser.downloadProgress', { guid: 'g', state: 'completed' });
      const page = await pageWaiter;
      t.equal(page.sessionId, sessionId);
      t.equal(page.params.requestId, 'wanted');
      const download = await browserWaiter;
      t.equal(download.params.state, 'completed');
      t.notOk('sessionId' in download);
      t.ok(client.drainEvents().some((e) => e === page), 'matched events still go into the ring');
    });

    t.test('only sees events that arrive after arming, and is one-shot', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureConnected();
      browser.emit('Page.loadEventFired', { timestamp: 1 });
      const waiter = client.waitForEvent('Page.loadEventFired', { timeoutMs: 10_000 });
      browser.emit('Page.loadEventFired', { timestamp: 2 });
      browser.emit('Page.loadEventFired', { timestamp: 3 });
      t.equal((await waiter).params.timestamp, 2);
    });

    t.test('resolves null on timeout, or at once when the deadline has no time left', async (t) => {
      const { client } = setup(t);
      t.equal(await client.waitForEvent('Never.happens', { timeoutMs: 10 }), null);
      t.equal(await client.waitForEvent('Never.happens', { timeoutMs: 60_000, ...cellCall(client, 200) }), null);
    });

    t.test('rejects with the predicate\'s error', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureConnected();
      const waiter = client.waitForEvent('A.b', {
        predicate: () => {
          throw new Error('bad predicate');
        },
      });
      browser.emit('A.b');
      await t.rejects(waiter, { message: 'bad predicate' });
    });

    t.test('rejects when the connection closes or the connect fails', async (t) => {
      const { browser, client } = setup(t);
      await client.ensureConnected();
      const waiter = client.waitForEvent('Page.loadEventFired', { sessionId: 's' });
      browser.dropAll();
      await t.rejects(waiter, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });

      const failing = new CdpClient({ endpointProvider: async () => 'ws://x', connect: async () => { throw Object.assign(new Error('refused'), { code: 'REPL_ERR_CDP_CONNECT_FAILED' }); } });
      t.teardown(() => failing.close());
      await t.rejects(failing.waitForEvent('A.b'), { code: 'REPL_ERR_CDP_CONNECT_FAILED' });
    });

    t.test('a waiter on a session that detaches fails with REPL_ERR_TARGET_NOT_FOUND', async (t) => {
      const { browser, client } = setup(t);
      const sessionId = await client.ensureAttached();
      const waiter = client.waitForEvent('Page.loadEventFired', { sessionId });
      const other = client.waitForEvent('Page.loadEventFired', { sessionId: 'another' });
      browser.emit('Target.detachedFromTarget', { sessionId, targetId: 'page-1' });
      await t.rejects(waiter, { code: 'REPL_ERR_TARGET_NOT_FOUND', message: /Page\.loadEventFired.*target page-1 was detached/ });
      browser.emit('Page.loadEventFired', { timestamp: 1 }, 'another');
      t.ok(await other, 'waiters on other sessions are unaffected');
    });

    t.test('honours an AbortSignal', async (t) => {
      const { client } = setup(t);
      const controller = new AbortController();
      const waiter = client.waitForEvent('A.b', { signal: controller.signal });
      controller.abort(new Error('stop'));
      await t.rejects(waiter, { code: 'REPL_ERR_ABORTED' });
    });
  });

  t.test('#evaluateOnTarget uses a transient session and always detaches it', async (t) => {
    const { browser, client } = setup(t);
    const result = await client.evaluateOnTarget('frame-1', 'document.nodeType');
    t.equal(result.result.value, 'document.nodeType');
    const attach = browser.sent('Target.attachToTarget');
    t.equal(attach.length, 1);
    const evaluate = browser.sent('Runtime.evaluate')[0];
    t.same(evaluate.params, { expression: 'document.nodeType', awaitPromise: true, returnByValue: true });
    t.match(evaluate.sessionId, /^session-frame-1/);
    t.same(browser.sent('Target.detachFromTarget').map((c) => c.params.sessionId), [evaluate.sessionId]);
    t.equal(client.sessionId, undefined, 'the attached target is untouched');
    t.equal(client.session, undefined);
    await t.rejects(client.evaluateOnTarget('gone', '1'), { code: 'REPL_ERR_TARGET_NOT_FOUND' });
  });

  t.test('#close rejects pending commands and waiters, then refuses new work', async (t) => {
    const { browser, client } = setup(t);
    const sessionId = await client.ensureAttached();
    browser.hang.add('Runtime.evaluate');
    const command = client.sessionCommand('Runtime.evaluate', { expression: '1' });
    const raw = client.evaluate(sessionId, '2');
    const waiter = client.waitForEvent('Page.loadEventFired', { sessionId });
    await new Promise((resolve) => setImmediate(resolve));
    await client[Symbol.asyncDispose]();
    await client.close();
    for (const pending of [command, raw, waiter]) await t.rejects(pending, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    t.equal(browser.openConnections, 0);
    t.equal(client.closed, true);
    await t.rejects(client.sessionCommand('Page.enable'), { code: 'REPL_ERR_CLOSED' });
    await t.rejects(client.waitForEvent('A.b'), { code: 'REPL_ERR_CLOSED' });
  });
});

t.test('isInternalUrl', async (t) => {
  for (const url of ['about:blank', 'chrome://newtab/', 'chrome-extension://x/', 'chrome-untrusted://x', 'devtools://devtools/', 'edge://settings', 'ABOUT:blank', '']) {
    t.equal(isInternalUrl(url), true, url);
  }
  for (const url of ['https://example.com/', 'http://127.0.0.1:1/', 'data:text/html,x', 'file:///tmp/x.html']) {
    t.equal(isInternalUrl(url), false, url);
  }
});

t.test('SAFE_RETRY_METHODS holds only observational or idempotent methods', async (t) => {
  t.equal(SAFE_RETRY_METHODS.size, 17);
  for (const unsafe of ['Runtime.evaluate', 'Runtime.callFunctionOn', 'Page.navigate', 'Input.dispatchMouseEvent', 'Target.createTarget', 'Target.attachToTarget']) {
    t.equal(SAFE_RETRY_METHODS.has(unsafe), false, unsafe);
  }
});
