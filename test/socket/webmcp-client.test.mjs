// `webmcp` in real REPL workers, against a fake handler passed as ReplOptions.webmcp (no browser):
// the client's shapes, checks and errors, the frozen object, and the cell scope: calls a cell does
// not await end with the cell, and nothing of one cell reaches the next one's output. Run on
// Node 20 (async_hooks) and on Node 24 (AsyncContextFrame), the scope is what proves that
// AsyncLocalStorage reaches into cells, their timers and their detached async functions.
// The main-thread monitor behind the real handler is test/browser/webmcp.test.mjs's.
import t from 'tap';
import { Repl, ReplError } from '../../dist/lib/index.js';

const TOOLS = [{
  tool_ref: 'wmcp_echo',
  tool: { name: 'echo', description: 'Echoes its input', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false, autosubmit: false } },
  source: { window_id: 1, tab_id: 1, page_title: 'Tools', page_url: 'http://127.0.0.1/tools.html', frame: null, target_id: 'T1' },
}];

/**
 * A stand-in for the host's monitor. By ref: `wmcp_echo` completes with what it was given,
 * `wmcp_form` awaits submission, `wmcp_stale` is gone, `wmcp_lost` gives up (outcome unknown),
 * and anything else is held until its signal aborts.
 */
function fakeWebMcp() {
  const calls = [];
  const held = [];
  const handler = async (call, signal) => {
    calls.push(call);
    if (call.operation === 'list') return { tools: TOOLS };
    switch (call.toolRef) {
      case 'wmcp_echo':
        return { invocation: { invocation_id: `inv-${call.callId}`, status: 'completed', output: { input: JSON.parse(call.inputJson), timeoutSec: call.timeoutSec ?? null } } };
      case 'wmcp_form':
        return { invocation: { invocation_id: 'inv-form', status: 'awaiting_submission', output: { form_populated: true, submitted: false } } };
      case 'wmcp_stale':
        throw new ReplError('REPL_ERR_WEBMCP_TOOL_NOT_FOUND', 'tool no longer available; discover tools again');
      case 'wmcp_lost':
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new ReplError('REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', 'the frame navigated before the tool answered; do not retry automatically',
          { data: { invocationId: 'invocation-1' } });
      default:
        held.push({ call, signal });
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => {
          reject(new ReplError('REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', 'aborted'));
        }));
    }
  };
  return { handler, calls, held };
}

function start(t, options = {}) {
  const repl = new Repl({ browser: false, warmSpare: false, ...options });
  t.teardown(() => repl.close());
  return repl;
}

/** Runs a cell that must succeed and returns the JSON it wrote. */
async function json(t, repl, code) {
  const result = await repl.run(code);
  t.equal(result.success, true, result.error);
  return JSON.parse(result.content[0].text);
}

const write = (text) => ({ type: 'text', channel: 'write', text });

t.test('webmcp in a REPL cell', async (t) => {
  const fake = fakeWebMcp();
  const repl = start(t, { webmcp: fake.handler });

  t.test('is one frozen object, also browser.webmcp, with the two methods', async (t) => {
    t.same(await json(t, repl, 'repl.write(JSON.stringify([Object.isFrozen(webmcp), browser.webmcp === webmcp, Object.keys(webmcp).sort()]))'),
      [true, true, ['invokeTool', 'listTools']]);
  });

  t.test('listTools resolves the handler\'s tools; invokeTool passes the ref, the input and the timeout', async (t) => {
    const before = fake.calls.length;
    t.same(await json(t, repl, 'repl.write(JSON.stringify(await webmcp.listTools()))'), TOOLS);
    const results = await json(t, repl, `repl.write(JSON.stringify([
      await webmcp.invokeTool("wmcp_echo", { query: "SFO", nested: { n: 1 } }, { timeoutSec: 30 }),
      await webmcp.invokeTool("wmcp_echo"),
      await webmcp.invokeTool("wmcp_form", { name: "Ada" }),
    ]))`);
    t.match(results, [
      { status: 'completed', output: { input: { query: 'SFO', nested: { n: 1 } }, timeoutSec: 30 } },
      { status: 'completed', output: { input: {}, timeoutSec: null } },
      { invocation_id: 'inv-form', status: 'awaiting_submission', output: { form_populated: true, submitted: false } },
    ]);
    t.same(fake.calls.slice(before).map(({ operation, toolRef, inputJson, timeoutSec }) => ({ operation, toolRef, inputJson, timeoutSec })), [
      { operation: 'list', toolRef: undefined, inputJson: undefined, timeoutSec: undefined },
      { operation: 'invoke', toolRef: 'wmcp_echo', inputJson: '{"query":"SFO","nested":{"n":1}}', timeoutSec: 30 },
      { operation: 'invoke', toolRef: 'wmcp_echo', inputJson: '{}', timeoutSec: undefined },
      { operation: 'invoke', toolRef: 'wmcp_form', inputJson: '{"name":"Ada"}', timeoutSec: undefined },
    ]);
  });

  t.test('bad arguments are 400 WebMCPRequestErrors naming the field, and the handler is never called', async (t) => {
    const before = fake.calls.length;
    const failures = await json(t, repl, `
      const attempts = [
        () => webmcp.invokeTool(""),
        () => webmcp.invokeTool("r".repeat(129)),
        () => webmcp.invokeTool("wmcp_echo", {}, { timeoutSec: 0 }),
        () => webmcp.invokeTool("wmcp_echo", {}, { timeoutSec: 121 }),
        () => webmcp.invokeTool("wmcp_echo", {}, { timeoutSec: 1.5 }),
        () => webmcp.invokeTool("wmcp_echo", []),
        () => webmcp.invokeTool("wmcp_echo", null),
        () => webmcp.invokeTool("wmcp_echo", { big: "x".repeat(1024 * 1024) }),
      ];
      const seen = [];
      for (const attempt of attempts) {
        try { await attempt(); seen.push("resolved"); } catch (error) {
          seen.push([error.name, error.statusCode, error.code, error.errorCode, error.message]);
        }
      }
      repl.write(JSON.stringify(seen));
    `);
    const invalid = (detail) => ['WebMCPRequestError', 400, 'REPL_ERR_INVALID_REQUEST', 'REPL_ERR_INVALID_REQUEST', `WebMCP REPL_ERR_INVALID_REQUEST: ${detail}`];
    t.same(failures, [
      invalid('tool_ref must be 1 to 128 characters long, got 0'),
      invalid('tool_ref must be 1 to 128 characters long, got 129'),
      invalid('timeout_sec must be an integer from 1 to 120, got 0'),
      invalid('timeout_sec must be an integer from 1 to 120, got 121'),
      invalid('timeout_sec must be an integer from 1 to 120, got 1.5'),
      invalid('input must be an object, got an array'),
      invalid('input must be an object, got null'),
      invalid('input is too large: its JSON is 1048586 bytes, at most 1048576 are allowed'),
    ]);
    t.equal(fake.calls.length, before, 'nothing reached the handler');
  });

  t.test('the handler\'s errors arrive with statusCode, code, errorCode, invocationId and Kernel\'s message', async (t) => {
    const [stale, lost] = await json(t, repl, `
      const describe = (e) => ({ name: e.name, statusCode: e.statusCode, code: e.code, errorCode: e.errorCode, invocationId: e.invocationId ?? null, body: e.body, message: e.message });
      repl.write(JSON.stringify([
        await webmcp.invokeTool("wmcp_stale", {}).catch(describe),
        await webmcp.invokeTool("wmcp_lost", {}).catch(describe),
      ]));
    `);
    t.same(stale, {
      name: 'WebMCPRequestError', statusCode: 404, code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', errorCode: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', invocationId: null,
      body: { message: 'tool no longer available; discover tools again', code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND' },
      message: 'WebMCP REPL_ERR_WEBMCP_TOOL_NOT_FOUND: tool no longer available; discover tools again',
    });
    t.same(lost, {
      name: 'WebMCPRequestError', statusCode: 504, code: 'outcome_unknown', errorCode: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', invocationId: 'invocation-1',
      body: { message: 'the frame navigated before the tool answered; do not retry automatically', code: 'outcome_unknown', invocation_id: 'invocation-1' },
      message: 'WebMCP outcome_unknown, invocation invocation-1: the frame navigated before the tool answered; do not retry automatically',
    });
  });

  t.test('an uncaught failure ends the cell with Kernel\'s message and a stack naming the caller', async (t) => {
    const result = await repl.run('async function bookTable() { return await webmcp.invokeTool("wmcp_lost", { party: 4 }); }\nawait bookTable();');
    t.equal(result.success, false);
    t.equal(result.error, 'WebMCP outcome_unknown, invocation invocation-1: the frame navigated before the tool answered; do not retry automatically');
    t.equal(result.errorCode, 'outcome_unknown');
    t.match(result.stack, /^WebMCPRequestError: WebMCP outcome_unknown/);
    t.match(result.stack, /at async bookTable \(browser-repl-cell-\d+\.mjs:1:\d+\)/);
  });

  t.test('a call the cell does not await is aborted when the cell ends, and the next cell\'s output is exactly its own', async (t) => {
    const heldBefore = fake.held.length;
    const first = await repl.run('webmcp.invokeTool("wmcp_x", {}); webmcp.listTools(); repl.write("started")');
    t.equal(first.success, true, first.error);
    t.same(first.content, [write('started')], 'the aborted calls report nothing');
    const [{ call, signal }] = fake.held.slice(heldBefore);
    t.equal(call.toolRef, 'wmcp_x');
    t.equal(signal.aborted, true, 'the handler\'s signal is aborted by the time the cell has answered');
    t.match(signal.reason, { code: 'REPL_ERR_ABORTED', message: 'the cell that made this call finished' });
    const second = await repl.run('await new Promise((resolve) => setTimeout(resolve, 200)); repl.write("second")');
    t.same(second.content, [write('second')], 'no unhandled-rejection text, nothing of cell 1');
  });

  t.test('a chain of the cell\'s own that awaited an aborted call is reported in that cell, not the next', async (t) => {
    const first = await repl.run('(async function sideTask() { await null; await webmcp.invokeTool("wmcp_y", {}); })(); repl.write("started")');
    t.equal(first.success, true, first.error);
    t.same(first.content.map((item) => item.channel), ['write', 'stderr']);
    t.match(first.content[1].text, /^browser-repl: unhandled promise rejection .*\nWebMCPRequestError: WebMCP outcome_unknown: the cell that started this call finished before it answered; the page tool may still run\n/s);
    t.match(first.content[1].text, /at async sideTask/);
    const second = await repl.run('await new Promise((resolve) => setTimeout(resolve, 200)); repl.write("second")');
    t.same(second.content, [write('second')]);
  });

  t.test('a timer of cell 1 calling webmcp during cell 2 fails at once and writes nothing into cell 2', async (t) => {
    const before = fake.calls.length;
    const first = await repl.run(`
      setTimeout(() => { webmcp.listTools(); }, 50);
      setTimeout(() => { webmcp.invokeTool("wmcp_echo", {}).then(() => { globalThis.lateOutcome = "resolved"; }, (error) => { globalThis.lateOutcome = error.message; }); }, 50);
      repl.write("armed");
    `);
    t.same(first.content, [write('armed')]);
    const second = await repl.run('await new Promise((resolve) => setTimeout(resolve, 300)); repl.write("second")');
    t.same(second.content, [write('second')]);
    t.equal(fake.calls.length, before, 'the late calls never reached the handler');
    const outcome = await repl.run('repl.write(globalThis.lateOutcome)');
    t.match(outcome.content[0].text, /^WebMCP REPL_ERR_INVALID_REQUEST: webmcp is only available while a cell runs: the cell that started this code/);
    const own = await json(t, repl, 'const later = () => webmcp.listTools(); repl.write(JSON.stringify((await later()).length))');
    t.equal(own, 1, 'a function declared earlier and called by a running cell runs in that cell');
  });

  t.test('a cell that awaits a call the handler never answers gets outcome_unknown when the worker is ended at its timeout', async (t) => {
    const heldBefore = fake.held.length;
    const result = await repl.run('await webmcp.invokeTool("wmcp_forever", {})', { timeoutSec: 1 });
    t.equal(result.errorCode, 'REPL_ERR_CELL_TIMEOUT');
    const [{ signal }] = fake.held.slice(heldBefore);
    t.equal(signal.aborted, true);
    t.match(signal.reason, { code: 'REPL_ERR_ABORTED' });
  });

  t.test('more than 64 calls in flight: the next is a 409; the cell ending aborts the rest', async (t) => {
    const heldBefore = fake.held.length;
    const first = await json(t, repl, `
      const calls = Array.from({ length: 65 }, (_, index) => webmcp.invokeTool("wmcp_hold_" + index, {}));
      repl.write(JSON.stringify(await Promise.race(calls.map((call, index) => call.then(() => "resolved", (error) => [index, error.statusCode, error.errorCode])))));
    `);
    t.same(first, [64, 409, 'REPL_ERR_CONFLICT']);
    const held = fake.held.slice(heldBefore);
    t.equal(held.length, 64);
    t.ok(held.every(({ signal }) => signal.aborted));
  });
});

t.test('a forged webmcp message from a cell', async (t) => {
  const fake = fakeWebMcp();
  const repl = start(t, { webmcp: fake.handler });
  const port = '(await import("node:worker_threads")).workerData.port';

  t.test('a webmcp-call is answered beside the running cell, and its reply is dropped by the client', async (t) => {
    const result = await repl.run(`${port}.postMessage({ type: "webmcp-call", callId: 1000000, operation: "list" });
      await new Promise((resolve) => setTimeout(resolve, 100)); repl.write("fine")`);
    t.same(result.content, [write('fine')]);
    t.equal(fake.calls.at(-1).callId, 1000000);
  });

  t.test('a callId repeated while in flight ends the REPL with REPL_ERR_PROTOCOL', async (t) => {
    const call = '{ type: "webmcp-call", callId: 2000000, operation: "invoke", toolRef: "wmcp_hold", inputJson: "{}" }';
    const result = await repl.run(`${port}.postMessage(${call}); ${port}.postMessage(${call}); await new Promise((resolve) => setTimeout(resolve, 5000));`);
    t.equal(result.errorCode, 'REPL_ERR_PROTOCOL');
    t.equal(result.error, 'browser REPL process sent a malformed message (webmcp-call 2000000 while a call with that id is in flight)');
    t.equal(fake.held.at(-1).signal.aborted, true);
  });
});

t.test('without a handler (browser: false) webmcp fails with REPL_ERR_BROWSER_NOT_FOUND', async (t) => {
  const repl = start(t);
  const error = await json(t, repl, 'repl.write(JSON.stringify(await webmcp.listTools().catch((e) => [e.name, e.statusCode, e.errorCode, e.message])))');
  t.same(error, ['WebMCPRequestError', 500, 'REPL_ERR_BROWSER_NOT_FOUND', 'WebMCP REPL_ERR_BROWSER_NOT_FOUND: this REPL has no browser, so no page tools']);
});
