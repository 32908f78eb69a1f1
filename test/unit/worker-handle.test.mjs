// WorkerHandle with tiny fixture workers (test/fixtures/workers/handle-echo.mjs): handshake,
// one request at a time, validation, exits, close/destroy. The REPL and executor kinds are
// covered end to end by test/socket/worker-protocol.test.mjs and the lifecycle suites.
import t from 'tap';
import { WorkerHandle, liveThreadCount, outOfMemoryText } from '../../dist/lib/threads/worker-handle.js';
import { BrowserCalls, MAX_WEBMCP_CALLS_IN_FLIGHT } from '../../dist/lib/threads/browser-calls.js';
import { ReplError } from '../../dist/common/errors.js';
import { liveExecutorThreads } from '../../dist/lib/executor/executor-worker.js';
import { liveWorkerThreads } from '../../dist/lib/repl/repl-worker.js';

const FIXTURE = new URL('../fixtures/workers/handle-echo.mjs', import.meta.url);
const VERSION = 7;

/** The test kind's validator: a small protocol of ready, pong, tick and endpoint-request. */
function validate(message) {
  if (typeof message !== 'object' || message === null) return { ok: false, error: `expected an object, got ${message === null ? 'null' : typeof message}` };
  switch (message.type) {
    case 'ready':
      return typeof message.id === 'string' && Number.isInteger(message.protocolVersion) ? { ok: true, message } : { ok: false, error: 'ready: bad fields' };
    case 'pong':
    case 'tick':
    case 'endpoint-request':
      return Number.isInteger(message.requestId) ? { ok: true, message } : { ok: false, error: `${message.type}: requestId must be an integer` };
    case 'webmcp-call':
    case 'webmcp-abort':
      return Number.isInteger(message.callId) ? { ok: true, message } : { ok: false, error: `${message.type}: callId must be an integer` };
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(message.type)}` };
  }
}

const KIND = {
  thread: 'test',
  url: FIXTURE,
  protocolVersion: VERSION,
  validate,
  identify: (message) => ({ protocolVersion: message.protocolVersion, id: message.id }),
  shutdownMessage: { type: 'shutdown' },
  destroyedReason: 'test worker was destroyed',
  describeExit: (exit) => {
    switch (exit.cause) {
      case 'out-of-memory': return `out of memory (${exit.heapMb} MiB)`;
      case 'uncaught': return `uncaught: ${exit.detail}`;
      case 'destroyed': return exit.reason;
      case 'exit-code': return `exit code ${exit.exitCode}`;
    }
  },
  startFailed: (failure) => new ReplError('REPL_ERR_START_FAILED',
    'timeoutMs' in failure ? `not ready within ${failure.timeoutMs} ms` : `exited during startup: ${failure.exit.message}`),
  malformed: (problem) => `malformed message (${problem})`,
};

let counter = 0;
function start(t, { data = {}, kind = {}, heapMb = 256, externalMemoryMb, startupTimeoutMs = 10_000, onEndpointRequest, onWebMcpCall } = {}) {
  const id = `worker-${++counter}`;
  const handle = new WorkerHandle({ ...KIND, ...kind }, {
    id,
    name: `test ${id}`,
    workerData: (port) => ({ port, protocolVersion: VERSION, id, ...data }),
    heapMb,
    externalMemoryMb,
    // Not tap's loaders: a plain thread starts in milliseconds.
    execArgv: [],
    startupTimeoutMs,
    // The browser calls of the REPL and executor kinds, installed through the handle's `calls` hook.
    calls: new BrowserCalls({ onEndpointRequest: onEndpointRequest ?? (async () => 'ws://127.0.0.1:1/devtools/browser/x'), onWebMcpCall }),
  });
  t.teardown(() => handle.destroy());
  return handle;
}

/** A request whose answer is the first `pong`'s text. */
const ask = (handle, command, options) => handle.request(
  (requestId) => ({ ...command, requestId }),
  (message) => (message.type === 'pong' ? { answer: message.text } : undefined),
  options);

t.test('WorkerHandle', async (t) => {
  t.test('#ready resolves after the handshake; #close posts the shutdown message and resolves after exit', async (t) => {
    const before = liveThreadCount('test');
    const handle = start(t);
    t.equal(handle.state, 'starting');
    t.equal(handle.alive, true);
    await handle.ready;
    t.equal(handle.state, 'ready');
    t.equal(liveThreadCount('test'), before + 1);
    t.same(await ask(handle, { type: 'ping', text: 'hi' }), { kind: 'answered', value: 'hi' });
    const closing = handle.close({ graceMs: 5_000 });
    t.equal(handle.state, 'closing');
    t.equal(handle.alive, false);
    t.equal(handle.close(), closing, 'idempotent: the same promise');
    await closing;
    t.equal(handle.state, 'closed');
    t.equal(liveThreadCount('test'), before);
    const exit = await handle.exited;
    t.match(exit, { cause: 'destroyed', deliberate: true, exitCode: 0, message: 'test worker was destroyed' });
    t.equal(handle.destroyReason, 'test worker was destroyed');
    await handle.destroy('later');
    t.equal(handle.destroyReason, 'test worker was destroyed', 'the first reason counts');
  });

  t.test('#close destroys a worker that ignores the shutdown message once graceMs has passed', async (t) => {
    const handle = start(t, { data: { ignoreShutdown: true } });
    await handle.ready;
    const started = performance.now();
    await handle.close({ graceMs: 200 });
    t.ok(performance.now() - started >= 190);
    t.equal(handle.state, 'closed');
  });

  t.test('#close of a kind without a shutdown message is destroy()', async (t) => {
    const handle = start(t, { kind: { shutdownMessage: undefined }, data: { ignoreShutdown: true } });
    await handle.ready;
    const started = performance.now();
    await handle.close({ graceMs: 10_000 });
    t.ok(performance.now() - started < 5_000);
    t.match(await handle.exited, { cause: 'destroyed', deliberate: true });
  });

  t.test('[Symbol.asyncDispose] closes', async (t) => {
    const handle = start(t);
    await handle.ready;
    await handle[Symbol.asyncDispose]();
    t.equal(handle.state, 'closed');
  });

  t.test('#ready rejects with the kind\'s error after the startup deadline, once the thread has exited', async (t) => {
    const before = liveThreadCount('test');
    const handle = start(t, { data: { silentStart: true }, startupTimeoutMs: 200 });
    await t.rejects(handle.ready, { code: 'REPL_ERR_START_FAILED', message: 'not ready within 200 ms' });
    t.equal(handle.state, 'closed');
    t.equal(liveThreadCount('test'), before);
  });

  t.test('#ready has no deadline of its own with startupTimeoutMs null: the owner ends the thread', async (t) => {
    const handle = start(t, { data: { silentStart: true }, startupTimeoutMs: null });
    const settled = await Promise.race([
      handle.ready.then(() => 'ready', () => 'rejected'),
      new Promise((resolve) => setTimeout(resolve, 400, 'still waiting')),
    ]);
    t.equal(settled, 'still waiting');
    t.equal(handle.state, 'starting');
    await handle.destroy('owner gave up');
    await t.rejects(handle.ready, { code: 'REPL_ERR_START_FAILED', message: /^exited during startup: / });
    t.equal(handle.state, 'closed');
  });

  t.test('#ready rejects when the handshake does not match (id or protocol version)', async (t) => {
    const wrongId = start(t, { data: { readyAs: 'someone-else' } });
    await t.rejects(wrongId.ready, { message: /^exited during startup: uncaught: worker handshake mismatch \(protocol 7, id someone-else\)$/ });
    const wrongVersion = start(t, { data: { protocolVersion: VERSION + 1 } });
    await t.rejects(wrongVersion.ready, { message: /handshake mismatch \(protocol 8, id worker-\d+\)/ });
  });

  t.test('#request hands every message with its id to the handler until it answers', async (t) => {
    const handle = start(t);
    await handle.ready;
    const ticks = [];
    const outcome = await handle.request(
      (requestId) => ({ type: 'progress', requestId }),
      (message, request) => {
        t.equal(request.requestId, 1);
        if (message.type === 'tick') { ticks.push(message.i); request.started = true; return undefined; }
        return { answer: message.text };
      });
    t.same(outcome, { kind: 'answered', value: 'done' });
    t.same(ticks, [0, 1, 2]);
    t.same(await ask(handle, { type: 'ping', text: 'second' }), { kind: 'answered', value: 'second' }, 'ids go on: 2');
  });

  t.test('#request throws while another request is pending', async (t) => {
    const handle = start(t);
    await handle.ready;
    const pending = ask(handle, { type: 'silent' });
    t.equal(handle.busy, true);
    t.throws(() => ask(handle, { type: 'ping' }), /while request 1 is pending/);
    await handle.destroy();
    t.match(await pending, { kind: 'exited', started: false, exit: { cause: 'destroyed', deliberate: true } });
    t.equal(handle.busy, false);
  });

  t.test('#request rejects a message that cannot be cloned and stays usable', async (t) => {
    const handle = start(t);
    await handle.ready;
    await t.rejects(ask(handle, { type: 'ping', callback: () => 1 }), { name: 'DataCloneError' });
    t.equal(handle.busy, false);
    t.same(await ask(handle, { type: 'ping', text: 'after' }), { kind: 'answered', value: 'after' });
  });

  t.test('#request after the thread ended resolves at once with the exit', async (t) => {
    const handle = start(t);
    await handle.ready;
    await handle.destroy('gone');
    t.match(await ask(handle, { type: 'ping' }), { kind: 'exited', exit: { message: 'gone' } });
  });

  t.test('responseDeadlineMs: an unanswered request is unresponsive and the thread is destroyed', async (t) => {
    const handle = start(t);
    await handle.ready;
    const outcome = await ask(handle, { type: 'spin' }, { responseDeadlineMs: 300 });
    t.same(outcome, { kind: 'unresponsive', waitedMs: 300 });
    t.equal(handle.alive, false);
    await handle.exited;
    t.equal(handle.destroyReason, 'test worker was destroyed');
  });

  t.test('a malformed message ends only that worker; the pending request answers protocol', async (t) => {
    const other = start(t);
    await other.ready;
    const cases = [
      [42, 'malformed message (expected an object, got number)'],
      [null, 'malformed message (expected an object, got null)'],
      [{ type: 'bogus' }, 'malformed message (unknown message type "bogus")'],
      [{ type: 'pong' }, 'malformed message (pong: requestId must be an integer)'],
      [{ type: 'pong', requestId: 99, text: 'x' }, 'response ID mismatch: expected 1, got 99'],
      [{ type: 'ready', protocolVersion: VERSION, id: 'again' }, 'malformed message (a second ready message)'],
    ];
    for (const [payload, message] of cases) {
      const handle = start(t);
      await handle.ready;
      const outcome = await handle.request(
        (requestId) => ({ type: 'post', requestId, payload }),
        () => ({ answer: 'unexpected' }));
      t.same(outcome, { kind: 'protocol', message }, JSON.stringify(payload));
      const exit = await handle.exited;
      t.match(exit, { cause: 'destroyed', deliberate: true, message }, 'the violation is the destroy reason');
      t.same(await ask(other, { type: 'ping', text: 'still here' }), { kind: 'answered', value: 'still here' });
    }
  });

  t.test('a message while no request is pending is corruption too', async (t) => {
    const handle = start(t);
    await handle.ready;
    // Answered at the first tick: the two later ticks and the pong arrive with nothing pending.
    const outcome = await handle.request((requestId) => ({ type: 'progress', requestId }), () => ({ answer: 'first tick' }));
    t.same(outcome, { kind: 'answered', value: 'first tick' });
    t.match(await handle.exited, { cause: 'destroyed', message: 'response ID mismatch: expected none, got 1' });
  });

  t.test('a handler can declare a violation, and a handler that throws ends only the worker', async (t) => {
    const first = start(t);
    await first.ready;
    t.same(await first.request((requestId) => ({ type: 'ping', requestId }), () => ({ violation: 'not what I asked' })),
      { kind: 'protocol', message: 'not what I asked' });
    const second = start(t);
    await second.ready;
    t.same(await second.request((requestId) => ({ type: 'ping', requestId }), () => { throw new Error('handler bug'); }),
      { kind: 'protocol', message: 'failed to handle a pong message: handler bug' });
    await Promise.all([first.exited, second.exited]);
  });

  t.test('#exited describes an exit code, an uncaught exception and the heap cap', async (t) => {
    const exits = start(t);
    await exits.ready;
    const exited = await ask(exits, { type: 'exit', code: 3 });
    t.match(exited, { kind: 'exited', started: false, exit: { cause: 'exit-code', exitCode: 3, deliberate: false, message: 'exit code 3' } });

    const throws = start(t);
    await throws.ready;
    const thrown = await ask(throws, { type: 'throw' });
    t.match(thrown, { kind: 'exited', exit: { cause: 'uncaught', deliberate: false, message: 'uncaught: fixture failure' } });
    t.match(thrown.exit.stack, /fixture failure/);

    const hog = start(t, { heapMb: 64 });
    await hog.ready;
    const oom = await ask(hog, { type: 'hog' });
    t.match(oom, { kind: 'exited', exit: { cause: 'out-of-memory', limit: 'heap', heapMb: 64, capMb: 64, message: 'out of memory (64 MiB)' } });
    t.equal(outOfMemoryText(oom.exit), 'the 64 MiB heap limit was reached');
  });

  t.test('memory outside the heap past externalMemoryMb ends the thread as out of memory, busy or in a loop', async (t) => {
    for (const command of ['external-hog', 'external-spin']) {
      const hog = start(t, { externalMemoryMb: 32 });
      await hog.ready;
      const oom = await ask(hog, { type: command });
      t.match(oom, {
        kind: 'exited',
        exit: { cause: 'out-of-memory', limit: 'external-memory', heapMb: 256, capMb: 32, deliberate: true },
      }, command);
      t.match(oom.exit.detail, /past the 32 MiB cap on memory outside the heap \(Buffers, ArrayBuffers; BROWSER_REPL_EXTERNAL_MEMORY_MB\)/, command);
      t.equal(outOfMemoryText(oom.exit), 'the cap on memory outside the heap was reached');
      t.equal(hog.state, 'closed');
    }
  });

  t.test('#destroy interrupts a busy loop and resolves only after exit', async (t) => {
    const before = liveThreadCount('test');
    const handle = start(t);
    await handle.ready;
    const pending = ask(handle, { type: 'spin' });
    const destroyed = handle.destroy('stopped on purpose');
    t.equal(handle.destroy(), destroyed, 'idempotent: the same promise');
    await destroyed;
    t.equal(handle.state, 'closed');
    t.equal(liveThreadCount('test'), before);
    t.match(await pending, { kind: 'exited', exit: { cause: 'destroyed', message: 'stopped on purpose', deliberate: true } });
  });

  t.test('endpoint requests are answered through the callback, errors as SerializedError', async (t) => {
    const seen = [];
    const plain = start(t, { onEndpointRequest: async (message) => { seen.push(message); return 'ws://one'; } });
    await plain.ready;
    const one = await ask(plain, { type: 'endpoint' });
    t.same(JSON.parse(one.value), { type: 'endpoint-reply', requestId: 1, endpoint: 'ws://one' });
    t.same(seen, [{ type: 'endpoint-request', requestId: 1 }]);

    const withTab = start(t, { onEndpointRequest: async () => ({ endpoint: 'ws://two', targetId: 'TAB' }) });
    await withTab.ready;
    t.same(JSON.parse((await ask(withTab, { type: 'endpoint' })).value), { type: 'endpoint-reply', requestId: 1, endpoint: 'ws://two', targetId: 'TAB' });

    const failing = start(t, {
      onEndpointRequest: async () => { throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'no browser here', { data: { tried: 2 } }); },
    });
    await failing.ready;
    const reply = JSON.parse((await ask(failing, { type: 'endpoint' })).value);
    t.match(reply, { type: 'endpoint-reply', requestId: 1, error: { name: 'ReplError', code: 'REPL_ERR_BROWSER_NOT_FOUND', message: 'no browser here', data: { tried: 2 } } });
    t.type(reply.error.stack, 'string');
    t.notOk('endpoint' in reply);
  });
});

t.test('WorkerHandle WebMCP calls', async (t) => {
  const list = (callId) => ({ type: 'webmcp-call', callId, operation: 'list' });
  const invoke = (callId, toolRef) => ({ type: 'webmcp-call', callId, operation: 'invoke', toolRef, inputJson: '{}' });
  const abort = (callId) => ({ type: 'webmcp-abort', callId });
  /** Posts `payloads` from the worker; resolves with the first `expect` webmcp replies it got, by callId. */
  const exchange = async (handle, payloads, expect) => {
    const outcome = await ask(handle, { type: 'webmcp', payloads, expect });
    return outcome.kind === 'answered' ? JSON.parse(outcome.value).sort((a, b) => a.callId - b.callId) : outcome;
  };
  const tools = [{ tool_ref: 'wmcp_1', tool: { name: 'echo', description: '', inputSchema: {} }, source: {} }];
  /** A handler that answers `list`, fails `stale` and `boom`, and holds `hold` until its signal aborts (recorded in `held`). */
  const fake = () => {
    const held = [];
    const calls = [];
    const handler = async (call, signal) => {
      calls.push(call);
      if (call.operation === 'list') return { tools };
      if (call.toolRef === 'stale') throw new ReplError('REPL_ERR_WEBMCP_TOOL_NOT_FOUND', 'tool no longer available');
      if (call.toolRef === 'boom') throw new Error('boom');
      if (call.toolRef === 'hold') {
        held.push(signal);
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      }
      return { invocation: { invocation_id: `inv-${call.callId}`, status: 'completed', output: call.toolRef } };
    };
    return { handler, held, calls };
  };

  t.test('are answered beside the pending request, by callId, with data.statusCode on errors', async (t) => {
    const { handler, calls } = fake();
    const handle = start(t, { onWebMcpCall: handler });
    await handle.ready;
    const replies = await exchange(handle, [list(1), invoke(2, 'ok'), invoke(3, 'stale'), invoke(4, 'boom')], 4);
    t.same(replies.slice(0, 2), [
      { type: 'webmcp-reply', callId: 1, tools },
      { type: 'webmcp-reply', callId: 2, invocation: { invocation_id: 'inv-2', status: 'completed', output: 'ok' } },
    ]);
    t.match(replies[2], { callId: 3, error: { name: 'ReplError', code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', message: 'tool no longer available', data: { statusCode: 404 } } });
    t.match(replies[3], { callId: 4, error: { name: 'Error', message: 'boom', data: { statusCode: 500 } } });
    t.same(calls.map((call) => call.callId), [1, 2, 3, 4]);
    t.equal(handle.state, 'ready', 'no protocol violation: they are not answers to the pending request');
  });

  t.test('without a handler every call is answered REPL_ERR_BROWSER_NOT_FOUND', async (t) => {
    const handle = start(t);
    await handle.ready;
    const [reply] = await exchange(handle, [list(1)], 1);
    t.match(reply, { callId: 1, error: { code: 'REPL_ERR_BROWSER_NOT_FOUND', data: { statusCode: 500 } } });
  });

  t.test('webmcp-abort aborts that call only, and an aborted call gets no reply', async (t) => {
    const { handler, held } = fake();
    const handle = start(t, { onWebMcpCall: handler });
    await handle.ready;
    const replies = await exchange(handle, [invoke(1, 'hold'), invoke(2, 'hold'), abort(1), abort(99), list(3)], 1);
    t.same(replies.map((reply) => reply.callId), [3]);
    t.equal(held[0].aborted, true);
    t.match(held[0].reason, { code: 'REPL_ERR_ABORTED', message: 'the cell that made this call finished' });
    t.equal(held[1].aborted, false, 'the other call still runs');
    t.same(await exchange(handle, [], 0), [], 'the aborted call, rejected by its handler, sent nothing');
    t.equal(handle.state, 'ready', 'an abort of an unknown call is no violation');
  });

  t.test(`more than ${MAX_WEBMCP_CALLS_IN_FLIGHT} in flight: the next is answered REPL_ERR_CONFLICT; destroy aborts them all`, async (t) => {
    const { handler, held } = fake();
    const handle = start(t, { onWebMcpCall: handler });
    await handle.ready;
    const payloads = Array.from({ length: MAX_WEBMCP_CALLS_IN_FLIGHT + 1 }, (_, index) => invoke(index + 1, 'hold'));
    const [reply] = await exchange(handle, payloads, 1);
    t.match(reply, { callId: MAX_WEBMCP_CALLS_IN_FLIGHT + 1, error: { code: 'REPL_ERR_CONFLICT', data: { statusCode: 409 } } });
    t.match(reply.error.message, /^at most 64 webmcp calls may be in flight at once/);
    t.equal(held.length, MAX_WEBMCP_CALLS_IN_FLIGHT);
    const destroyed = handle.destroy();
    t.ok(held.every((signal) => signal.aborted), 'aborted at once, before the thread has exited');
    t.match(held[0].reason, { code: 'REPL_ERR_ABORTED', message: 'the worker that made this call was ended' });
    await destroyed;
  });

  t.test('a callId repeated while in flight is a protocol violation; the thread ending aborts the calls', async (t) => {
    const { handler, held } = fake();
    const handle = start(t, { onWebMcpCall: handler });
    await handle.ready;
    const outcome = await exchange(handle, [invoke(7, 'hold'), list(7)], 1);
    t.same(outcome, { kind: 'protocol', message: 'malformed message (webmcp-call 7 while a call with that id is in flight)' });
    await handle.exited;
    t.equal(held[0].aborted, true);

    const { handler: second, held: secondHeld } = fake();
    const selfExit = start(t, { onWebMcpCall: second });
    await selfExit.ready;
    await exchange(selfExit, [invoke(1, 'hold')], 0);
    while (secondHeld.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    void ask(selfExit, { type: 'exit', code: 0 });
    await selfExit.exited;
    t.equal(secondHeld[0].aborted, true, 'a thread that exits by itself aborts its calls too');
    t.match(secondHeld[0].reason, { message: 'the worker that made this call ended' });
  });
});

t.test('liveWorkerThreads() and liveExecutorThreads() count their kinds only', async (t) => {
  const repl = liveWorkerThreads();
  const executor = liveExecutorThreads();
  const handle = start(t);
  await handle.ready;
  t.equal(liveWorkerThreads(), repl);
  t.equal(liveExecutorThreads(), executor);
  await handle.destroy();
});
