// A cell can post anything on its worker's own port (workerData.port): the main thread validates
// every message, and a malformed one ends only that REPL with REPL_ERR_PROTOCOL, keeping the output
// received so far. Other REPLs, the same REPL's next call and the server keep working.
import t from 'tap';
import { BrowserManager, PlaywrightExecutors, createRepl } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

const MALFORMED = 'browser REPL process sent a malformed message';

/** [name, message posted by the cell (JS source), expected error]. */
const VARIANTS = [
  ['a garbage object', '{ hello: "world" }', `${MALFORMED} (message type must be a string, got undefined)`],
  ['an unknown type', '{ type: "bogus", requestId: 1 }', `${MALFORMED} (unknown message type "bogus")`],
  ['a wrong requestId', '{ type: "output", requestId: 999, item: { type: "text", channel: "write", text: "forged" } }', /^response ID mismatch: expected \d+, got 999$/],
  ['output without item', '{ type: "output", requestId: 1 }', `${MALFORMED} (output message: item must be an output item object, got undefined)`],
  ['output with a bad item', '{ type: "output", requestId: 1, item: { type: "text", text: 5 } }', `${MALFORMED} (output message: item.channel must be write, stdout or stderr)`],
  ['a result with a string error', '{ type: "result", requestId: 1, success: false, error: "boom", contentTruncated: false, durationMs: 0 }', `${MALFORMED} (result message: error must be a serialized error object, got string)`],
  ['a non-object', '42', `${MALFORMED} (expected a message object, got number)`],
  ['null', 'null', `${MALFORMED} (expected a message object, got null)`],
];

const cell = (payload) => [
  'repl.write("before");',
  `(await import("node:worker_threads")).workerData.port.postMessage(${payload});`,
  'await new Promise((resolve) => setTimeout(resolve, 10_000));',
  'repl.write("after");',
].join('\n');

t.test('library: a malformed message ends only its own REPL, with REPL_ERR_PROTOCOL', async (t) => {
  const repl = createRepl({ browser: false });
  const other = createRepl({ browser: false });
  t.teardown(() => Promise.all([repl.close(), other.close()]));
  const kept = await other.run('var kept = "intact"');
  for (const [name, payload, error] of VARIANTS) {
    const before = await repl.run('repl.write("warm")');
    const result = await repl.run(cell(payload), { timeoutSec: 30 });
    t.equal(result.success, false, name);
    t.equal(result.errorCode, 'REPL_ERR_PROTOCOL', name);
    t.equal(result.replTerminated, true, name);
    if (typeof error === 'string') t.equal(result.error, error, name);
    else t.match(result.error, error, name);
    t.equal(result.replId, before.replId, `${name}: answered for the REPL that broke`);
    t.same(result.content, [{ type: 'text', channel: 'write', text: 'before' }], `${name}: output so far is kept`);
    t.ok(result.durationMs < 10_000, `${name}: answered at once, not at the cell's end`);

    const again = await repl.run('repl.write("again")');
    t.equal(again.success, true, `${name}: the next call works`);
    t.not(again.replId, result.replId, `${name}: on a new worker`);
    const check = await other.run('repl.write(kept)');
    t.same(check.content, [{ type: 'text', channel: 'write', text: 'intact' }], `${name}: the other REPL is untouched`);
    t.equal(check.replId, kept.replId);
  }
});

t.test('HTTP: the call answers repl_terminated; the next call, other routes and the process keep working', async (t) => {
  const api = await apiServer(t);
  const library = createRepl({ browser: false });
  t.teardown(() => library.close());
  await library.run('var survivor = 1');
  for (const [name, payload, error] of VARIANTS) {
    const first = await api.repl('var bound = 1; repl.write("ok")');
    const broken = await api.repl(cell(payload), { timeout_sec: 30 });
    t.equal(broken.success, false, name);
    t.equal(broken.repl_terminated, true, name);
    t.equal(broken.repl_id, first.repl_id, name);
    if (typeof error === 'string') t.equal(broken.error, error, name);
    else t.match(broken.error, error, name);
    t.same(texts(broken), ['before'], name);

    const health = await api.call('GET', '/healthz');
    t.equal(health.status, 200, `${name}: /healthz`);
    const next = await api.repl('repl.write(typeof bound)');
    t.equal(next.success, true, name);
    t.not(next.repl_id, broken.repl_id, `${name}: a new repl_id`);
    t.same(texts(next), ['undefined'], `${name}: a fresh REPL`);
    const alive = await library.run('repl.write(String(survivor))');
    t.same(alive.content?.map((item) => item.text), ['1'], `${name}: a REPL of the same process is untouched`);
  }
});

t.test('executor: a malformed reply fails only that call and that worker; the next call gets a new one', async (t) => {
  const browser = new BrowserManager();
  const executors = new PlaywrightExecutors({
    browser,
    warmSpare: false,
    workerUrl: new URL('../fixtures/workers/executor-echo.mjs', import.meta.url),
  });
  t.teardown(async () => { await executors.close(); await browser.close(); });
  const reply = (fields) => JSON.stringify({ type: 'reply', requestId: '$id', stdout: '', stderr: '', ...fields });
  const good = await executors.execute({ code: reply({ success: true, resultJson: '1' }) });
  t.same(good, { success: true, result: 1, stdout: '', stderr: '' });
  const firstWorker = executors.get('default').workerId;
  const cases = [
    [reply({ success: false, error: 'boom' }), 'executor worker sent a malformed message (reply message: error must be a serialized error object, got string)'],
    ['{"type":"result","requestId":"$id"}', 'executor worker sent a malformed message (unknown message type "result")'],
    ['{"type":"output","requestId":"$id"}', 'executor worker sent a malformed message (output message: channel must be stdout or stderr)'],
    ['42', 'executor worker sent a malformed message (expected a message object, got number)'],
    [JSON.stringify({ type: 'reply', requestId: 999, success: true, stdout: '', stderr: '' }), /^response ID mismatch: expected \d+, got 999$/],
  ];
  let previous = firstWorker;
  for (const [code, error] of cases) {
    const result = await executors.execute({ code });
    t.same(Object.keys(result).sort(), ['error', 'stderr', 'stdout', 'success'], String(error));
    t.match(result, { success: false, stdout: '', stderr: '' });
    if (typeof error === 'string') t.equal(result.error, `execution failed: ${error}`);
    else t.match(result.error.replace(/^execution failed: /, ''), error);
    t.equal(executors.get('default').workerId, null, 'the worker was destroyed');
    const next = await executors.execute({ code: reply({ success: false, error: { name: 'TypeError', message: 'real failure', stack: 'TypeError: real failure\n    at <anonymous>:1:1' } }) });
    t.same(next, { success: false, error: 'real failure', stdout: '', stderr: 'TypeError: real failure\n    at <anonymous>:1:1\n' }, 'a well-formed error reply');
    const worker = executors.get('default').workerId;
    t.not(worker, previous, 'a new worker');
    previous = worker;
  }
});
