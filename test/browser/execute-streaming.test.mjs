// POST /playwright/execute with Accept: text/event-stream (issue 10, "Streaming"): stdout/stderr
// events as the code writes, then the complete result; a client that disconnects does not stop
// the call. Real Chromium (launched lazily by the server), real HTTP on loopback. No timing
// assertions: the code waits for a file that the test creates only after the first event.
import t from 'tap';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServer } from '../helpers/api-server.mjs';
import { openStream, serverSockets, assertStreamHeaders } from '../helpers/sse.mjs';

// A few executor workers start here, each importing Playwright (CPU-bound on a busy machine).
t.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), 'browser-repl-execute-sse-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempPath = (name) => join(dir, `${files++}-${name}`);
const waitForFile = (path) => `{ const fs = await import("node:fs"); while (!fs.existsSync(${JSON.stringify(path)})) await new Promise((r) => setTimeout(r, 20)); }`;

// The browser is launched, never attached: a CDP_ENDPOINT in the developer's shell must not leak in.
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
const sockets = serverSockets(api.server.server);

t.test('stdout and stderr are streamed as the code writes, then the result', async (t) => {
  const gate = tempPath('gate');
  const stream = await openStream(api.url, '/playwright/execute', {
    code: `console.log("first"); ${waitForFile(gate)} console.error("second"); return 42;`,
    timeout_sec: 60,
  });
  assertStreamHeaders(t, stream);

  const first = await stream.next();
  t.same(first, { id: 1, event: 'stdout', data: { text: 'first\n' } });
  // Only now may the code go on: without streaming, this test would wait for the call's timeout.
  writeFileSync(gate, '');
  const rest = await stream.rest();
  t.same(rest.map((event) => [event.id, event.event]), [[2, 'stderr'], [3, 'result']]);
  t.same(rest[0].data, { text: 'second\n' });
  t.match(rest[1].data, { success: true, result: 42, stdout: 'first\n', stderr: 'second\n' });
});

t.test('a failed call: the streamed stderr is the result\'s, before the stack', async (t) => {
  const stream = await openStream(api.url, '/playwright/execute', {
    code: 'console.error("oops"); console.log("out"); throw new Error("boom");',
  });
  const events = await stream.rest();
  t.same(events.map((event) => event.event), ['stderr', 'stdout', 'result']);
  const result = events[2].data;
  t.equal(result.success, false);
  t.equal(result.error, 'boom');
  t.equal(result.stdout, 'out\n');
  t.ok(result.stderr.startsWith('oops\nError: boom\n'), 'the error\'s stack follows, in the result only');
});

t.test('a client that disconnects does not stop the call', async (t) => {
  const gate = tempPath('gate');
  const done = tempPath('done');
  const stream = await openStream(api.url, '/playwright/execute', {
    executor: 'walkaway',
    code: `console.log("started"); ${waitForFile(gate)} (await import("node:fs")).writeFileSync(${JSON.stringify(done)}, "ended"); return 1;`,
    timeout_sec: 60,
  });
  t.same((await stream.next()).data, { text: 'started\n' });
  // The server must have seen the disconnect before the call may finish.
  const closed = sockets.closed(stream.localPort);
  stream.destroy();
  await closed;
  writeFileSync(gate, '');

  // Queued behind the first call on the same executor: it answers once that one has ended.
  const next = await api.call('POST', '/playwright/execute', { executor: 'walkaway', code: 'return 2' });
  t.equal(next.status, 200);
  t.equal(next.json.result, 2);
  t.ok(existsSync(done), 'the disconnected call ran to its end');
  t.equal((await api.call('DELETE', '/playwright/executors/walkaway')).status, 204);
});

t.test('refusals before admission still answer JSON; no header, no stream', async (t) => {
  const refused = await api.call('POST', '/playwright/execute', { code: '' }, { headers: { accept: 'text/event-stream' } });
  t.equal(refused.status, 400);
  t.match(refused.headers['content-type'], /^application\/json/);
  t.equal(refused.json.code, 'REPL_ERR_INVALID_REQUEST');

  const plain = await api.call('POST', '/playwright/execute', { code: 'console.log("x"); return 3' });
  t.equal(plain.status, 200);
  t.match(plain.headers['content-type'], /^application\/json/);
  t.match(plain.json, { success: true, result: 3, stdout: 'x\n', stderr: '' });
});
