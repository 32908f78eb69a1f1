// BrowserLink against a scripted in-memory browser: lazy connect, reconnect after a close, the
// one retry rule (safe or unsent methods once, everything else "outcome unknown"), deadlines
// while connecting, events and close.
import t from 'tap';
import { BrowserLink, retryAfterDrop } from '../../dist/common/cdp/browser-link.js';
import { Deadline } from '../../dist/common/cdp/deadline.js';
import { FakeBrowser } from '../helpers/fake-browser.mjs';

const keepAlive = setInterval(() => {}, 60_000);
t.teardown(() => clearInterval(keepAlive));

function setup(t, options = {}) {
  const browser = options.browser ?? new FakeBrowser();
  const requests = [];
  const events = [];
  const closed = [];
  let calls = 0;
  const link = new BrowserLink({
    endpointProvider: async (request) => {
      requests.push(request);
      return `ws://fake/${++calls}`;
    },
    connect: browser.connect,
    onEvent: (event) => events.push(event),
    onConnectionClose: (connection) => closed.push(connection),
    ...options,
  });
  t.teardown(() => link.close());
  return { browser, link, requests, events, closed };
}

t.test('BrowserLink', async (t) => {
  t.test('connects on first use; concurrent callers share one connect', async (t) => {
    const { browser, link } = setup(t);
    t.equal(link.connected, false);
    t.equal(link.current, undefined);
    const [a, b] = await Promise.all([link.connection(), link.connection()]);
    t.equal(a, b);
    t.equal(link.connected, true);
    t.equal(link.current, a);
    t.equal(link.connectionCount, 1);
    t.equal(browser.connections.length, 1);
    const version = await link.send('Browser.getVersion');
    t.equal(version.product, 'FakeChrome/1');
  });

  t.test('reconnects after the connection closed, naming the dead endpoint to the provider', async (t) => {
    const { browser, link, requests, closed } = setup(t);
    const first = await link.connection();
    browser.dropAll();
    t.same(closed, [first], 'onConnectionClose gets the connection that closed');
    t.equal(link.connected, false);
    const { targetInfos } = await link.send('Target.getTargets');
    t.equal(targetInfos.length, 3);
    t.equal(link.connectionCount, 2);
    t.same(requests, [{}, { previous: 'ws://fake/1' }]);
    t.not(await link.connection(), first);
  });

  t.test('a safe method that lost its answer is sent once more on a fresh connection', async (t) => {
    const { browser, link } = setup(t);
    let drops = 1;
    browser.dropBeforeAnswer = (frame) => frame.method === 'Target.getTargets' && drops-- > 0;
    const { targetInfos } = await link.send('Target.getTargets');
    t.equal(targetInfos.length, 3);
    t.equal(browser.sent('Target.getTargets').length, 2);
    t.equal(link.connectionCount, 2);
  });

  t.test('only once: a second loss is reported as is', async (t) => {
    const { browser, link } = setup(t);
    browser.dropBeforeAnswer = (frame) => frame.method === 'Target.getTargets';
    await t.rejects(link.send('Target.getTargets'), { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    t.equal(browser.sent('Target.getTargets').length, 2);
  });

  t.test('an unsafe method that lost its answer reports an unknown outcome and is not re-sent', async (t) => {
    const { browser, link } = setup(t);
    browser.dropBeforeAnswer = (frame) => frame.method === 'Target.createTarget';
    const error = await link.send('Target.createTarget', { url: 'about:blank' }).catch((e) => e);
    t.equal(error.code, 'REPL_ERR_CDP_OUTCOME_UNKNOWN');
    t.equal(error.message, 'CDP Target.createTarget outcome is unknown because the connection closed before its response; the command was not retried');
    t.equal(error.cause.message, 'CDP connection closed');
    t.equal(browser.sent('Target.createTarget').length, 1);
  });

  t.test('an unsafe method that was never written is sent on a fresh connection', async (t) => {
    const { browser, link } = setup(t);
    await link.connection();
    browser.connections[0].failSends = true;
    const { targetId } = await link.send('Target.createTarget', { url: 'about:blank' });
    t.equal(targetId, 'created-1');
    t.equal(browser.sent('Target.createTarget').length, 1);
    t.equal(link.connectionCount, 2);
  });

  t.test('a deadline bounds the wait for a connect, naming the command', async (t) => {
    const browser = new FakeBrowser();
    let release;
    const { link } = setup(t, {
      browser,
      endpointProvider: () => new Promise((resolve) => {
        release = () => resolve('ws://slow');
      }),
    });
    await t.rejects(link.send('Target.getTargets', undefined, { deadline: new Deadline(Date.now() - 1) }), {
      code: 'REPL_ERR_CDP_DEADLINE_REACHED',
      message: 'CDP Target.getTargets could not run: the execution deadline has already been reached',
    });
    await t.rejects(link.connection({ deadline: Deadline.in(20), method: 'Page.navigate' }), {
      code: 'REPL_ERR_CDP_DEADLINE_REACHED',
      message: 'CDP Page.navigate could not run: the execution deadline was reached while connecting to the browser',
    });
    release();
    await link.connection();
    t.equal(link.connectionCount, 1, 'the connect went on for later callers');
  });

  t.test('the connect budget counts from the endpoint, not from the wait for it', async (t) => {
    const browser = new FakeBrowser();
    const budgets = [];
    const { link } = setup(t, {
      browser,
      connectTimeoutMs: 1_000,
      // A browser that takes most of the budget to launch.
      endpointProvider: () => new Promise((resolve) => setTimeout(() => resolve('ws://launched'), 600)),
      connect: (endpoint, options) => {
        budgets.push(options.timeoutMs);
        return browser.connect(endpoint, options);
      },
    });
    await link.connection();
    t.ok(budgets[0] > 900, `the handshake gets (nearly) the whole budget (${budgets[0]} ms of 1000), not what the launch left`);
  });

  t.test('onEvent receives the events of the current connection', async (t) => {
    const { browser, link, events } = setup(t);
    await link.connection();
    browser.emit('Target.targetCreated', { targetInfo: { targetId: 'x' } });
    browser.emit('Page.loadEventFired', { timestamp: 1 }, 'S1');
    t.same(events.map((event) => [event.method, event.sessionId]), [['Target.targetCreated', undefined], ['Page.loadEventFired', 'S1']]);
  });

  t.test('close rejects what is pending, refuses new work, and is idempotent; asyncDispose closes', async (t) => {
    const { browser, link } = setup(t);
    browser.hang.add('Target.getTargets');
    const pending = link.send('Target.getTargets');
    await new Promise((resolve) => setImmediate(resolve));
    await link[Symbol.asyncDispose]();
    await link.close();
    await t.rejects(pending, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    t.equal(browser.sent('Target.getTargets').length, 1, 'not retried after close');
    t.equal(link.closed, true);
    t.equal(link.current, undefined);
    await t.rejects(link.send('Browser.getVersion'), { code: 'REPL_ERR_CLOSED', message: 'CDP Browser.getVersion could not run: the CDP client is closed' });
    await t.rejects(link.connection(), { code: 'REPL_ERR_CLOSED' });
    t.equal(browser.openConnections, 0);
  });

  t.test('a refused connect is retried, then reported', async (t) => {
    const { browser, link } = setup(t);
    browser.refuseConnections = 10;
    await t.rejects(link.connection(), { code: 'REPL_ERR_CDP_CONNECT_FAILED' });
    t.equal(browser.endpoints.length, 3);
  });
});

t.test('retryAfterDrop', async (t) => {
  const drop = (notSent = false) => Object.assign(new Error('CDP connection closed'), {
    code: 'REPL_ERR_CDP_DISCONNECTED',
    data: { connectionClosedBeforeResponse: true, notSent },
  });
  const options = { closed: () => false, pauseMs: 0 };

  t.test('a preparation that met a dropped connection is retried once, for any method', async (t) => {
    let prepares = 0;
    const result = await retryAfterDrop('Runtime.evaluate', {
      prepare: async () => {
        if (++prepares === 1) throw drop();
        return 'ready';
      },
      send: async (prepared) => `${prepared}!`,
    }, options);
    t.equal(result, 'ready!');
    t.equal(prepares, 2);
    await t.rejects(retryAfterDrop('Runtime.evaluate', { prepare: async () => { throw drop(); }, send: async () => 1 }, options), {
      code: 'REPL_ERR_CDP_DISCONNECTED',
    });
  });

  t.test('other failures, or any failure once closed, are not retried', async (t) => {
    let sends = 0;
    await t.rejects(retryAfterDrop('DOM.getDocument', {
      prepare: async () => undefined,
      send: async () => {
        sends++;
        throw Object.assign(new Error('boom'), { code: 'REPL_ERR_CDP_COMMAND_FAILED' });
      },
    }, options), { message: 'boom' });
    t.equal(sends, 1);
    await t.rejects(retryAfterDrop('DOM.getDocument', {
      prepare: async () => undefined,
      send: async () => {
        sends++;
        throw drop();
      },
    }, { closed: () => true, pauseMs: 0 }), { code: 'REPL_ERR_CDP_DISCONNECTED' });
    t.equal(sends, 2);
  });

  t.test('an unsent command is retried whatever its method; a sent unsafe one is outcome unknown', async (t) => {
    let sends = 0;
    const value = await retryAfterDrop('Input.dispatchMouseEvent', {
      prepare: async () => undefined,
      send: async () => {
        if (++sends === 1) throw drop(true);
        return 'clicked';
      },
    }, options);
    t.equal(value, 'clicked');
    await t.rejects(retryAfterDrop('Input.dispatchMouseEvent', { prepare: async () => undefined, send: async () => { throw drop(); } }, options), {
      code: 'REPL_ERR_CDP_OUTCOME_UNKNOWN',
    });
  });
});
