// The owners that follow the one lifecycle (common/resource.ts) without a browser: concurrent
// close() callers share one promise and the work runs once, nobody is answered before it is
// done, close() after destroy() resolves with the destruction, and "closed" holds from the call.
import t from 'tap';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { BrowserLink } from '../../dist/common/cdp/browser-link.js';
import { ScopedEndpoint } from '../../dist/common/cdp/scoped-endpoint.js';
import { ReplWorkerSupply } from '../../dist/lib/repl/repl-worker-supply.js';
import { ExecutorWorkerSupply } from '../../dist/lib/executor/executor-worker-supply.js';
import { PlaywrightExecutors } from '../../dist/lib/executor/executor-registry.js';
import { BrowserManager } from '../../dist/lib/chromium/browser-manager.js';
import { Peers } from '../../dist/lib/http/peers.js';
import { CdpProxy } from '../../dist/lib/http/cdp-proxy.js';
import { WebMcpMonitor } from '../../dist/lib/webmcp/webmcp-monitor.js';
import { McpHttpSessions } from '../../dist/lib/mcp/http-sessions.js';
import { BrowserTools } from '../../dist/lib/tools/tool-service.js';
import { FakeBrowser } from '../helpers/fake-browser.mjs';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A promise settled by the test, with a flag telling whether it has settled. */
function gate() {
  let open;
  const promise = new Promise((resolve) => { open = resolve; });
  return { promise, open };
}

/** Whether `promise` has settled after the pending turns ran. */
async function settled(promise) {
  let done = false;
  void promise.then(() => { done = true; }, () => { done = true; });
  await turn();
  return done;
}

/** A worker whose destroy() is held until the test lets it finish. */
function heldWorker() {
  const release = gate();
  const worker = {
    alive: true,
    destroyed: 0,
    destroy() {
      worker.destroyed++;
      worker.alive = false;
      return release.promise;
    },
  };
  return { worker, release: release.open };
}

t.test('BrowserLink: one close for all callers; close() after destroy() is the destruction', async (t) => {
  const browser = new FakeBrowser();
  const link = new BrowserLink({ endpointProvider: async () => 'ws://fake/1', connect: browser.connect });
  await link.connection();
  browser.hang.add('Target.getTargets');
  const pending = link.send('Target.getTargets');
  await turn();
  const first = link.close();
  t.equal(link.closed, true, 'closed from the call on');
  await t.rejects(link.connection(), { code: 'REPL_ERR_CLOSED' }, 'no connect starts after close()');
  t.equal(link.close(), first, 'concurrent callers share one promise');
  await first;
  await t.rejects(pending, { code: 'REPL_ERR_CDP_DISCONNECTED' });
  t.equal(link.disposed, true);
  t.equal(browser.openConnections, 0);

  const other = new BrowserLink({ endpointProvider: async () => 'ws://fake/2', connect: new FakeBrowser().connect });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('ScopedEndpoint: one close for all callers; clients are refused from the call on', async (t) => {
  const endpoint = new ScopedEndpoint({ upstream: async () => 'ws://browser.invalid/x', scope: async () => ({ mode: 'shared', ownTargetIds: [], foreign: {} }) });
  await endpoint.url();
  const first = endpoint.close();
  t.equal(endpoint.close(), first, 'concurrent callers share one promise');
  let refused = 0;
  endpoint.accept({ close: () => { refused++; } });
  t.equal(refused, 1, 'a client accepted after close() is closed at once');
  t.equal(endpoint.clientCount, 0);
  await first;
  t.equal(endpoint.disposed, true);
  await t.rejects(endpoint.url(), { message: 'the scoped endpoint is closed' });

  const other = new ScopedEndpoint({ upstream: async () => 'ws://browser.invalid/x', scope: async () => ({ mode: 'shared', ownTargetIds: [], foreign: {} }) });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('ReplWorkerSupply: the spare is ended once, and every close() waits for it', async (t) => {
  const supply = new ReplWorkerSupply({ settings: {}, env: {} });
  const { worker, release } = heldWorker();
  let starts = 0;
  supply.start = () => { starts++; return Promise.resolve(worker); };
  supply.refill();
  t.equal(starts, 1, 'a spare started');
  const first = supply.close();
  const second = supply.close();
  t.equal(second, first, 'concurrent callers share one promise');
  supply.refill();
  t.equal(starts, 1, 'no spare starts after close()');
  await turn();
  t.equal(await settled(second), false, 'the second caller waits for the spare to end');
  release();
  await Promise.all([first, second]);
  t.equal(worker.destroyed, 1, 'the spare was ended once');

  const other = new ReplWorkerSupply({ settings: {}, env: {}, enabled: false });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('ExecutorWorkerSupply: the spare is destroyed once, and every close() waits for it', async (t) => {
  const made = [];
  const supply = new ExecutorWorkerSupply(() => {
    const held = heldWorker();
    made.push(held);
    return held.worker;
  }, { enabled: true });
  supply.refill();
  t.equal(made.length, 1, 'a spare started');
  const first = supply.close();
  const second = supply.close();
  t.equal(second, first, 'concurrent callers share one promise');
  supply.refill();
  t.equal(made.length, 1, 'no spare starts after close()');
  await turn();
  t.equal(await settled(second), false, 'the second caller waits for the spare\'s exit');
  made[0].release();
  await Promise.all([first, second]);
  t.equal(made[0].worker.destroyed, 1, 'the spare was destroyed once');

  const other = new ExecutorWorkerSupply(() => heldWorker().worker, { enabled: false });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('PlaywrightExecutors: one shutdown for all callers, closed from the call on', async (t) => {
  const executors = new PlaywrightExecutors({ browser: new BrowserManager(), warmSpare: false });
  const first = executors.close();
  t.equal(executors.closed, true);
  t.equal(executors.close(), first, 'concurrent callers share one promise');
  t.same(await executors.list(), [], 'nothing listed once closed');
  await first;
  await executors[Symbol.asyncDispose]();
});

t.test('Peers: one close of the connection pool for all callers', async (t) => {
  const peers = new Peers({ nodeId: 'a', peers: { b: 'http://127.0.0.2:7000' } });
  const first = peers.close();
  t.equal(peers.close(), first, 'concurrent callers share one promise');
  await first;
  t.equal(peers.disposed, true);

  const other = new Peers({ nodeId: 'a' });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('CdpProxy: one close for all callers, closed from the call on', async (t) => {
  const proxy = new CdpProxy({ resolve: () => { throw new Error('no browsers here'); } });
  const first = proxy.close();
  t.equal(proxy.closed, true);
  t.equal(proxy.close(), first, 'concurrent callers share one promise');
  await first;
  t.equal(proxy.disposed, true);
});

t.test('WebMcpMonitor: closed by the call itself, so nothing connects after close()', async (t) => {
  let asked = 0;
  const monitor = new WebMcpMonitor({ endpoint: async () => { asked++; return 'ws://browser.invalid/x'; } });
  const first = monitor.close();
  await t.rejects(monitor.start(), { code: 'REPL_ERR_CLOSED' }, 'a call right after close() is refused');
  await t.rejects(monitor.listTools(), { code: 'REPL_ERR_CLOSED' });
  t.equal(monitor.close(), first, 'concurrent callers share one promise');
  await first;
  t.equal(asked, 0, 'the endpoint was never asked for');
  t.equal(monitor.running, false);
  await monitor[Symbol.asyncDispose]();

  const other = new WebMcpMonitor({ endpoint: async () => 'ws://browser.invalid/x' });
  const destroyed = other.destroy();
  t.equal(other.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
});

t.test('McpHttpSessions: every close() waits until the last tool session is closed', async (t) => {
  const closing = gate();
  const toolCloses = [];
  const tools = {
    page: () => { throw new Error('no pages in this test'); },
    workspaceOf: () => '/nonexistent',
    close: (sessionId) => { toolCloses.push(sessionId); return closing.promise; },
  };
  const sessions = new McpHttpSessions({ tools, sessionIdleMs: 0 });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => { void sessions.handlePost(req, res, JSON.parse(Buffer.concat(chunks).toString())); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const initialize = {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'lifecycle-test', version: '1' } },
  };
  const answer = await fetch(`http://127.0.0.1:${server.address().port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initialize),
  });
  await answer.text();
  t.equal(answer.status, 200);
  const id = answer.headers.get('mcp-session-id');
  t.equal(sessions.size, 1, 'one session');

  const first = sessions.close();
  const second = sessions.close();
  t.equal(second, first, 'concurrent callers share one promise');
  await turn();
  t.equal(await settled(second), false, 'the second caller waits for the tool session to close');
  closing.open();
  await Promise.all([first, second]);
  t.same(toolCloses, [`mcp-${id}`], 'the tool session was closed once');
  t.equal(sessions.size, 0);
});

t.test('BrowserTools: one close of the service for all callers; a session close is its own', async (t) => {
  const tools = new BrowserTools();
  const workspace = tools.workspace;
  t.equal(existsSync(workspace), true);
  tools.page('s1');
  await tools.close('s1');
  t.equal(tools.closed, false, 'closing a session leaves the service open');
  t.same(tools.sessionIds, []);
  const first = tools.close();
  t.equal(tools.closed, true, 'closed from the call on');
  t.throws(() => tools.page('s2'), { code: 'REPL_ERR_CLOSED' });
  t.equal(tools.close(), first, 'concurrent callers share one promise');
  await first;
  t.equal(existsSync(workspace), false, 'the temporary workspace is removed');
  await tools[Symbol.asyncDispose]();
});
