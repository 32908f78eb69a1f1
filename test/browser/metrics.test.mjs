// GET /metrics (issue 14) against the real server with a real headless Chromium, real REPL and
// executor workers and a real MCP client: the exposition is parsed with a strict Prometheus
// text-format parser (test/helpers/prometheus-text.mjs), every family the issue lists is present, and each one moves when its event happens
// (a cell, a timeout, a heap exhaustion, an executor call, a browser of POST /browsers, an MCP
// session, a Chromium crash and its relaunch, HTTP requests by route and status). The probes
// /healthz and /readyz answer without the token; a drain turns /readyz to 503 and refuses new
// browsers with REPL_ERR_DRAINING while a running cell still gets its answer.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiServer } from '../helpers/api-server.mjs';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

t.setTimeout(240_000);

const TOKEN = 'test-token-metrics';
const auth = { authorization: `Bearer ${TOKEN}` };
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
// A small heap cap makes the heap exhaustion quick.
const api = await apiServer(t, { token: TOKEN, primaryBrowser: { heapMb: 96 }, maxBrowsers: 2 });

/** Scrapes /metrics and returns the families by name. */
async function scrape() {
  const response = await api.call('GET', '/metrics', undefined, { headers: auth });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${response.text}`);
  if (!String(response.headers['content-type']).startsWith('text/plain; version=0.0.4')) throw new Error(`content type ${response.headers['content-type']}`);
  return parsePrometheusText(response.text);
}

const valueOf = sampleValue;

/** POST /repl on the default REPL, with the token; the parsed answer. */
async function cell(code) {
  return (await api.call('POST', '/repl', { code }, { headers: auth })).json;
}

async function eventually(check) {
  const until = Date.now() + 20_000;
  while (!(await check()) && Date.now() < until) await sleep(50);
  return check();
}

t.test('probes answer without the token; /metrics needs it', async (t) => {
  const health = await api.call('GET', '/healthz');
  t.equal(health.status, 200);
  t.same(health.json, { status: 'ok' });
  const ready = await api.call('GET', '/readyz');
  t.equal(ready.status, 200);
  t.same(ready.json, { status: 'ready' });
  const refused = await api.call('GET', '/metrics');
  t.equal(refused.status, 401, 'the metrics sit behind the token');
  const other = await api.call('GET', '/repls');
  t.equal(other.status, 401, 'and so does everything else');
});

t.test('every family is present, typed and documented', async (t) => {
  const families = await scrape();
  const expected = {
    browser_repl_browsers: 'gauge',
    browser_repl_browsers_pooled: 'gauge',
    browser_repl_browsers_limit: 'gauge',
    browser_repl_creates_queued: 'gauge',
    browser_repl_create_queue_limit: 'gauge',
    browser_repl_repls: 'gauge',
    browser_repl_executors: 'gauge',
    browser_repl_mcp_sessions: 'gauge',
    browser_repl_cell_duration_seconds: 'histogram',
    browser_repl_execute_duration_seconds: 'histogram',
    browser_repl_timeouts_total: 'counter',
    browser_repl_cell_timeouts_total: 'counter',
    browser_repl_worker_restarts_total: 'counter',
    browser_repl_oom_kills_total: 'counter',
    browser_repl_chromium_restarts_total: 'counter',
    browser_repl_chromium_crashes_total: 'counter',
    browser_repl_http_requests_total: 'counter',
    process_cpu_user_seconds_total: 'counter',
    process_resident_memory_bytes: 'gauge',
    nodejs_eventloop_lag_seconds: 'gauge',
    nodejs_heap_size_used_bytes: 'gauge',
  };
  for (const [name, type] of Object.entries(expected)) {
    const family = families.get(name);
    t.ok(family, `${name} is exposed`);
    t.equal(family?.type, type, `${name} is a ${type}`);
    t.ok((family?.help ?? '').length > 10, `${name} has a help text`);
  }
  t.equal(valueOf(families, 'browser_repl_browsers_limit'), 2, 'the limit is the configured one');
  t.equal(valueOf(families, 'browser_repl_timeouts_total', { kind: 'cell' }), 0, 'counters start at 0, so rate() sees the first increase');
});

t.test('cells: the duration histogram by outcome, the REPL gauge, HTTP requests by route and status', async (t) => {
  const before = await scrape();
  const result = await api.call('POST', '/repl', {
    code: `await gotoUrl(${JSON.stringify(fixtures.url('basic.html'))}); await waitForLoad(); repl.write((await pageInfo()).title);`,
  }, { headers: auth });
  t.equal(result.status, 200);
  t.equal(result.json.success, true, result.json.error);
  const failed = await api.call('POST', '/repl', { code: 'throw new Error("on purpose")' }, { headers: auth });
  t.equal(failed.json.success, false);
  const invalid = await api.call('POST', '/repl', { code: 42 }, { headers: auth });
  t.equal(invalid.status, 400);
  const unmatched = await api.call('GET', '/no-such-route', undefined, { headers: auth });
  t.equal(unmatched.status, 404);
  const after = await scrape();

  const moved = (name, labels) => valueOf(after, name, labels) - valueOf(before, name, labels);
  t.equal(moved('browser_repl_cell_duration_seconds', { outcome: 'ok' }), 1, 'one cell answered');
  t.equal(moved('browser_repl_cell_duration_seconds', { outcome: 'error' }), 1, 'one cell threw');
  t.ok(valueOf(after, 'browser_repl_repls') >= 1, 'the default REPL is counted');
  t.equal(moved('browser_repl_http_requests_total', { method: 'POST', route: '/repl', status: '200' }), 2, 'POST /repl 200, by route pattern');
  t.equal(moved('browser_repl_http_requests_total', { method: 'POST', route: '/repl', status: '400' }), 1, 'POST /repl 400');
  t.equal(moved('browser_repl_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1, 'a 404 without a route is "unmatched", not its path');
  const routes = new Set(after.get('browser_repl_http_requests_total').samples.map((sample) => sample.labels.route));
  t.notOk(routes.has('/no-such-route'), 'no path of the client becomes a label value');
});

t.test('timeouts, heap exhaustion and worker restarts', async (t) => {
  const before = await scrape();
  const timedOut = await api.call('POST', '/repl', { code: 'while (true) {}', timeout_sec: 1, repl: 'spin' }, { headers: auth });
  t.match(timedOut.json, { success: false, interrupted: true, error: /timed out/ });
  const spin = new URL('../fixtures/modules/spin.mjs', import.meta.url).href;
  const ended = await api.call('POST', '/repl', { code: `(await import(${JSON.stringify(spin)})).spin()`, timeout_sec: 1, repl: 'spin' }, { headers: auth });
  t.match(ended.json, { success: false, repl_terminated: true, error: /timed out/ });
  const exhausted = await api.call('POST', '/repl', {
    code: 'const hog = []; while (true) hog.push(new Array(1e6).fill(Math.random()))',
    timeout_sec: 120,
    repl: 'hog',
  }, { headers: auth });
  t.match(exhausted.json, { success: false, repl_terminated: true, error: /out of memory/ });
  // The worker's exit is published when its thread has ended, a moment after the answer.
  let after;
  t.ok(await eventually(async () => {
    after = await scrape();
    return valueOf(after, 'browser_repl_oom_kills_total', { kind: 'repl', limit: 'heap' }) > valueOf(before, 'browser_repl_oom_kills_total', { kind: 'repl', limit: 'heap' });
  }), 'the heap exhaustion is an OOM kill of a REPL worker');
  const moved = (name, labels) => valueOf(after, name, labels) - valueOf(before, name, labels);
  t.equal(moved('browser_repl_timeouts_total', { kind: 'cell' }), 2, 'two cells timed out');
  t.equal(moved('browser_repl_cell_timeouts_total', { repl: 'kept' }), 1, 'one was interrupted, its REPL kept');
  t.equal(moved('browser_repl_cell_timeouts_total', { repl: 'terminated' }), 1, 'one could only be stopped by ending its worker');
  t.equal(moved('browser_repl_cell_duration_seconds', { outcome: 'timeout' }), 2);
  t.equal(moved('browser_repl_cell_duration_seconds', { outcome: 'terminated' }), 1, 'the exhausted cell ended with its worker');
  t.equal(moved('browser_repl_worker_restarts_total', { kind: 'repl', cause: 'out-of-memory' }), 1, 'the exhausted worker is a restart');
  t.equal(moved('browser_repl_worker_restarts_total', { kind: 'repl', cause: 'destroyed' }), 0, 'the timed-out one, ended on purpose, is not');
});

t.test('executor calls, browsers of POST /browsers and MCP sessions', async (t) => {
  const before = await scrape();
  const executed = await api.call('POST', '/playwright/execute', { code: 'return 6 * 7', executor: 'metrics' }, { headers: auth });
  t.equal(executed.json.success, true, executed.json.error);
  const slow = await api.call('POST', '/playwright/execute', { code: 'await new Promise(() => {})', executor: 'metrics', timeout_sec: 1 }, { headers: auth });
  t.equal(slow.json.success, false);
  const created = await api.call('POST', '/browsers', {}, { headers: auth });
  t.equal(created.status, 200, created.text);
  const perBrowser = await api.call('POST', `/browsers/${created.json.session_id}/repl`, { code: 'repl.write(1)' }, { headers: auth });
  t.equal(perBrowser.status, 200);

  const client = new Client({ name: 'metrics-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: auth } });
  await client.connect(transport);
  t.teardown(() => client.close());

  const during = await scrape();
  const moved = (name, labels) => valueOf(during, name, labels) - valueOf(before, name, labels);
  t.equal(moved('browser_repl_execute_duration_seconds', { outcome: 'ok' }), 1, 'one executor call answered');
  t.equal(moved('browser_repl_execute_duration_seconds', { outcome: 'timeout' }), 1, 'one timed out');
  t.equal(moved('browser_repl_timeouts_total', { kind: 'execute' }), 1);
  t.ok(valueOf(during, 'browser_repl_executors') >= 1, 'the named executor is counted');
  t.equal(moved('browser_repl_browsers'), 1, 'the new browser is counted');
  t.equal(moved('browser_repl_mcp_sessions'), 1, 'the MCP session is counted');
  t.equal(moved('browser_repl_http_requests_total', { method: 'POST', route: '/browsers/{id_or_name}/repl', status: '200' }), 1,
    'a per-browser route is labelled by its pattern, not the id');

  // Ends the MCP session on the server (DELETE /mcp), as a client that is done should.
  await transport.terminateSession();
  await client.close();
  const deleted = await api.call('DELETE', `/browsers/${created.json.session_id}`, undefined, { headers: auth });
  t.equal(deleted.status, 204);
  t.ok(await eventually(async () => {
    const now = await scrape();
    return valueOf(now, 'browser_repl_browsers') === valueOf(before, 'browser_repl_browsers') && valueOf(now, 'browser_repl_mcp_sessions') === valueOf(before, 'browser_repl_mcp_sessions');
  }), 'the gauges come back down when the browser and the MCP session end');
});

t.test('a Chromium crash and its relaunch', async (t) => {
  const first = await cell('repl.write((await pageInfo()).url)');
  t.equal(first.success, true);
  const manager = api.server.app.browsers.primary.chromium;
  const pid = manager.pid;
  t.type(pid, 'number', 'the default browser runs');
  const before = await scrape();
  process.kill(pid, 'SIGKILL');
  t.ok(await eventually(async () => valueOf(await scrape(), 'browser_repl_chromium_crashes_total') > valueOf(before, 'browser_repl_chromium_crashes_total')),
    'the killed Chromium counts as a crash');
  // The next cell that needs the browser relaunches it (a cell may fail once while it goes).
  t.ok(await eventually(async () => (await cell('repl.write((await pageInfo()).url)')).success), 'a later cell works on a relaunched browser');
  const after = await scrape();
  t.equal(valueOf(after, 'browser_repl_chromium_restarts_total') - valueOf(before, 'browser_repl_chromium_restarts_total'), 1, 'one relaunch');
  t.not(manager.pid, pid);
});

t.test('drain: /readyz 503, no new browsers, a running cell still answers', async (t) => {
  const running = api.call('POST', '/repl', { code: 'await new Promise((resolve) => setTimeout(resolve, 1500)); repl.write("finished")', repl: 'drain' }, { headers: auth });
  // The cell is in flight before the drain starts.
  t.ok(await eventually(async () => (await api.server.app.browsers.primary.listRepls()).some((row) => row.name === 'drain' && row.busy)), 'the cell runs');
  const drained = api.server.app.drain({ timeoutMs: 60_000 });
  const ready = await api.call('GET', '/readyz');
  t.equal(ready.status, 503);
  t.same(ready.json, { status: 'draining' });
  const refused = await api.call('POST', '/browsers', {}, { headers: auth });
  t.equal(refused.status, 503);
  t.equal(refused.json.code, 'REPL_ERR_DRAINING');
  t.match(refused.json.message, /draining/);
  const other = await api.call('POST', '/repl', { code: 'repl.write("still served")' }, { headers: auth });
  t.equal(other.json.success, true, 'a draining server still answers the browsers it runs');
  const answer = await running;
  t.equal(answer.json.success, true, answer.json.error);
  t.match(answer.json.content, [{ type: 'text', text: 'finished' }], 'the running cell got its answer');
  await drained;
  t.pass('the drain ended once nothing was in flight');
});
