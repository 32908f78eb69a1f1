// A worker that posts garbage. Cell code reaches both channels of its thread: `parentPort` (which
// the runtime closes at start, so whatever is posted there is dropped in the worker) and the
// runtime's own port (`workerData.port`), where the main thread validates every message and a bad
// one is a protocol violation: REPL_ERR_PROTOCOL, that REPL replaced (lib/threads/worker-handle.ts).
// Either way: the server never crashes, other REPLs are untouched, and the next call works.
import t from 'tap';
import { createRepl } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

const PARENT_PORT = '{ const { parentPort } = await import("node:worker_threads");';
const OWN_PORT = '{ const { port } = (await import("node:worker_threads")).workerData;';

/** [name, cell]: posts on parentPort, then writes; each must succeed as if nothing was posted. */
const IGNORED = [
  ['non-objects', `${PARENT_PORT} for (const value of [42, null, "x", undefined, [1], new Map([[1, 2]])]) parentPort.postMessage(value); }`],
  ['messages that look like the protocol', `${PARENT_PORT} parentPort.postMessage({ type: "result", requestId: 1, success: true, contentTruncated: false, durationMs: 0 }); parentPort.postMessage({ type: "ready", protocolVersion: 1, replId: "forged" }); }`],
  ['a 200 MB string', `${PARENT_PORT} parentPort.postMessage("x".repeat(200e6)); }`],
  ['transferables', `${PARENT_PORT} const buffer = new ArrayBuffer(64 << 20); const { port1 } = new MessageChannel(); parentPort.postMessage({ buffer, port1 }, [buffer, port1]); }`],
  ['a flood of 100k messages', `${PARENT_PORT} for (let i = 0; i < 100_000; i++) parentPort.postMessage({ type: "output", requestId: i }); }`],
  ['parentPort.close()', `${PARENT_PORT} parentPort.close(); }`],
  ['parentPort.removeAllListeners()', `${PARENT_PORT} parentPort.removeAllListeners(); }`],
];

const MALFORMED = 'browser REPL process sent a malformed message';

/** [name, cell, expected error]: posts on the runtime's own port; each ends its REPL with REPL_ERR_PROTOCOL. */
const VIOLATIONS = [
  ['a huge text item for another request', `${OWN_PORT} port.postMessage({ type: "output", requestId: 999_999, item: { type: "text", channel: "write", text: "x".repeat(100e6) } }); }`,
    `${MALFORMED} (output message: item.text is longer than ${48 * 1024 * 1024} characters)`],
  ['transferables in a message of no known type', `${OWN_PORT} const buffer = new ArrayBuffer(64 << 20); const { port1 } = new MessageChannel(); port.postMessage({ buffer, port1 }, [buffer, port1]); }`,
    `${MALFORMED} (message type must be a string, got undefined)`],
  ['a flood of 100k non-objects', `${OWN_PORT} for (let i = 0; i < 100_000; i++) port.postMessage(i); }`,
    `${MALFORMED} (expected a message object, got number)`],
  ['a forged reply to an endpoint request never made', `${OWN_PORT} port.postMessage({ type: "endpoint-reply", requestId: 1, endpoint: "ws://127.0.0.1:1/x" }); }`,
    /^browser REPL process sent a malformed message \(unknown message type "endpoint-reply"\)$/],
  ['a forged result for another request', `${OWN_PORT} port.postMessage({ type: "result", requestId: 123_456, success: true, contentTruncated: false, durationMs: 0 }); }`,
    /^response ID mismatch: expected \d+, got 123456$/],
  ['a second ready message', `${OWN_PORT} port.postMessage({ type: "ready", protocolVersion: 1, replId: "forged" }); }`,
    /^browser REPL process sent a malformed message \(/],
];

const settle = 'await new Promise((resolve) => setTimeout(resolve, 5_000)); repl.write("after");';

t.test('parentPort: whatever a cell posts there is dropped; the REPL keeps its state', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const first = await repl.run('var kept = "intact"');
  for (const [name, code] of IGNORED) {
    const result = await repl.run(`${code} repl.write("posted")`, { timeoutSec: 60 });
    t.equal(result.success, true, `${name}: ${result.error ?? 'ok'}`);
    t.same(texts(result), ['posted'], name);
    t.equal(result.replId, first.replId, `${name}: same worker`);
    const next = await repl.run('repl.write(kept)');
    t.same(texts(next), ['intact'], `${name}: the next call works and the bindings are kept`);
  }
});

t.test("the runtime's own port: garbage is a protocol violation that ends only that REPL", async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  const other = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => Promise.all([repl.close(), other.close()]));
  const kept = await other.run('var kept = "intact"');
  for (const [name, code, error] of VIOLATIONS) {
    const before = await repl.run('var mine = 1');
    const result = await repl.run(`repl.write("before"); ${code} ${settle}`, { timeoutSec: 60 });
    t.equal(result.success, false, name);
    t.equal(result.errorCode, 'REPL_ERR_PROTOCOL', name);
    t.equal(result.replTerminated, true, name);
    if (typeof error === 'string') t.equal(result.error, error, name);
    else t.match(result.error, error, name);
    t.equal(result.replId, before.replId, name);
    t.same(texts(result), ['before'], `${name}: the output before it is kept`);
    t.ok(result.durationMs < 5_000, `${name}: answered at once, not when the cell ends`);
    const next = await repl.run('repl.write(typeof mine)');
    t.same(texts(next), ['undefined'], `${name}: the next call works, on a fresh REPL`);
    t.not(next.replId, before.replId, name);
    const check = await other.run('repl.write(kept)');
    t.same(texts(check), ['intact'], `${name}: the other REPL is untouched`);
    t.equal(check.replId, kept.replId, name);
  }
});

t.test("a cell that closes the runtime's port, or removes its listener", async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());

  t.test('port.close() while a timer keeps the thread alive: a protocol violation, long before the cell timeout', async (t) => {
    const before = await repl.run('var mine = 1');
    const result = await repl.run(`${OWN_PORT} setInterval(() => {}, 1_000); port.close(); } ${settle}`, { timeoutSec: 120 });
    t.equal(result.errorCode, 'REPL_ERR_PROTOCOL');
    t.equal(result.error, `${MALFORMED} (the worker closed its message port)`);
    t.equal(result.replTerminated, true);
    t.equal(result.replId, before.replId);
    t.ok(result.durationMs < 60_000, `answered in ${result.durationMs} ms, not at the 120 s timeout`);
    const next = await repl.run('repl.write(typeof mine)');
    t.same(texts(next), ['undefined'], 'the next call works, on a fresh REPL');
  });

  t.test('port.removeAllListeners(): the runtime listens again, so the REPL and its bindings survive', async (t) => {
    const before = await repl.run('var mine = "kept"');
    const result = await repl.run(`${OWN_PORT} port.removeAllListeners(); } repl.write("removed")`, { timeoutSec: 30 });
    t.equal(result.success, true, result.error);
    t.same(texts(result), ['removed']);
    const next = await repl.run('repl.write(mine)', { timeoutSec: 30 });
    t.equal(next.success, true, next.error);
    t.same(texts(next), ['kept']);
    t.equal(next.replId, before.replId, 'the same worker');
  });
});

t.test('HTTP: the server survives every kind of garbage and keeps answering', async (t) => {
  const api = await apiServer(t);
  for (const [name, code] of [...IGNORED.slice(0, 3), ...VIOLATIONS.slice(0, 3).map(([n, c]) => [n, `${c} ${settle}`])]) {
    const response = await api.call('POST', '/repl', { code, timeout_sec: 60 });
    t.equal(response.status, 200, `${name}: answered`);
    t.type(response.json?.success, 'boolean', `${name}: a well-formed result`);
    const health = await api.call('GET', '/healthz');
    t.equal(health.status, 200, `${name}: /healthz`);
    const next = await api.repl('repl.write("next")');
    t.same(texts(next), ['next'], `${name}: the next call works`);
  }
});
