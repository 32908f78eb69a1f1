// The worker's webmcp client (worker/webmcp/webmcp-client.ts) and its cell scope, without a
// thread: a fake `post` records what would cross the port, and replies are handed to `receive`.
// test/socket/webmcp-client.test.mjs runs the same client in real REPL workers.
import t from 'tap';
import { WebMCPRequestError, createWebMcpClient } from '../../dist/worker/webmcp/webmcp-client.js';
import { CellScope, currentCellScope, runInCellScope } from '../../dist/worker/webmcp/cell-scope.js';
import { LIMITS } from '../../dist/common/limits.js';

function setup() {
  const posted = [];
  const bridge = createWebMcpClient({ post: (message) => posted.push(message), currentScope: currentCellScope });
  return { posted, webmcp: bridge.client, receive: (reply) => bridge.receive(reply) };
}

/** Runs `work` in a fresh scope, like a cell; returns the scope (not ended) and what `work` returned. */
function inCell(work) {
  const scope = new CellScope();
  return { scope, value: runInCellScope(scope, work) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test('createWebMcpClient', async (t) => {
  t.test('the client is frozen and has the two methods only', async (t) => {
    const { webmcp } = setup();
    t.ok(Object.isFrozen(webmcp));
    t.same(Object.keys(webmcp).sort(), ['invokeTool', 'listTools']);
  });

  t.test('#listTools posts a list call and resolves the reply with its callId; other replies are dropped', async (t) => {
    const { posted, webmcp, receive } = setup();
    const { scope, value: listing } = inCell(() => webmcp.listTools());
    t.same(posted, [{ type: 'webmcp-call', callId: 1, operation: 'list' }]);
    receive({ type: 'webmcp-reply', callId: 99, tools: [] });
    const tools = [{ tool_ref: 'wmcp_1', tool: { name: 'echo' }, source: {} }];
    receive({ type: 'webmcp-reply', callId: 1, tools });
    t.equal(await listing, tools);
    scope.end();
    t.equal(posted.length, 1, 'a finished call is not aborted');
  });

  t.test('#invokeTool sends the ref, the input as JSON and timeoutSec only when given', async (t) => {
    const { posted, webmcp, receive } = setup();
    const { scope, value } = inCell(() => [
      webmcp.invokeTool('wmcp_a', { query: 'SFO' }, { timeoutSec: 30 }),
      webmcp.invokeTool('wmcp_b'),
      webmcp.invokeTool('wmcp_c', undefined, {}),
    ]);
    t.same(posted, [
      { type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'wmcp_a', inputJson: '{"query":"SFO"}', timeoutSec: 30 },
      { type: 'webmcp-call', callId: 2, operation: 'invoke', toolRef: 'wmcp_b', inputJson: '{}' },
      { type: 'webmcp-call', callId: 3, operation: 'invoke', toolRef: 'wmcp_c', inputJson: '{}' },
    ]);
    const awaiting = { invocation_id: 'inv-2', status: 'awaiting_submission', output: { form_populated: true, submitted: false } };
    receive({ type: 'webmcp-reply', callId: 2, invocation: awaiting });
    receive({ type: 'webmcp-reply', callId: 1, invocation: { invocation_id: 'inv-1', status: 'completed', output: 1 } });
    receive({ type: 'webmcp-reply', callId: 3, invocation: { invocation_id: 'inv-3', status: 'error' } });
    t.same(await Promise.all(value), [
      { invocation_id: 'inv-1', status: 'completed', output: 1 },
      awaiting,
      { invocation_id: 'inv-3', status: 'error' },
    ]);
    scope.end();
  });

  t.test('the arguments are checked before anything is posted, each failure a 400 naming its field', async (t) => {
    const { posted, webmcp } = setup();
    const circular = {};
    circular.self = circular;
    const exactly = { a: 'x'.repeat(LIMITS.webmcpInputBytes - '{"a":""}'.length) };
    const cases = [
      [() => webmcp.invokeTool(''), 'tool_ref must be 1 to 128 characters long, got 0'],
      [() => webmcp.invokeTool('r'.repeat(129)), 'tool_ref must be 1 to 128 characters long, got 129'],
      [() => webmcp.invokeTool('😀'.repeat(129)), 'tool_ref must be 1 to 128 characters long, got 129'],
      [() => webmcp.invokeTool(42), 'tool_ref must be a string, got number'],
      [() => webmcp.invokeTool(undefined), 'tool_ref must be a string, got undefined'],
      [() => webmcp.invokeTool('r', []), 'input must be an object, got an array'],
      [() => webmcp.invokeTool('r', null), 'input must be an object, got null'],
      [() => webmcp.invokeTool('r', 'text'), 'input must be an object, got string'],
      [() => webmcp.invokeTool('r', circular), /^input cannot be serialised as JSON: Converting circular structure to JSON/],
      [() => webmcp.invokeTool('r', { n: 1n }), /^input cannot be serialised as JSON: Do not know how to serialize a BigInt/],
      [() => webmcp.invokeTool('r', new Date(0)), 'input must serialise to a JSON object'],
      [() => webmcp.invokeTool('r', { a: `${exactly.a}x` }), `input is too large: its JSON is ${LIMITS.webmcpInputBytes + 1} bytes, at most ${LIMITS.webmcpInputBytes} are allowed`],
      // Measured in UTF-8: fewer characters than the limit, twice as many bytes.
      [() => webmcp.invokeTool('r', { a: 'é'.repeat(LIMITS.webmcpInputBytes / 2) }), /^input is too large: its JSON is 1048584 bytes/],
      [() => webmcp.invokeTool('r', {}, { timeoutSec: 0 }), 'timeout_sec must be an integer from 1 to 120, got 0'],
      [() => webmcp.invokeTool('r', {}, { timeoutSec: 121 }), 'timeout_sec must be an integer from 1 to 120, got 121'],
      [() => webmcp.invokeTool('r', {}, { timeoutSec: 1.5 }), 'timeout_sec must be an integer from 1 to 120, got 1.5'],
      [() => webmcp.invokeTool('r', {}, { timeoutSec: '30' }), 'timeout_sec must be an integer from 1 to 120, got string'],
      [() => webmcp.invokeTool('r', {}, 30), 'options must be an object, got number'],
      [() => webmcp.listTools('all'), 'options must be an object, got string'],
    ];
    const { scope, value: calls } = inCell(() => cases.map(([call]) => call()));
    for (const [index, [, detail]] of cases.entries()) {
      const error = await calls[index].then(() => undefined, (thrown) => thrown);
      t.type(error, WebMCPRequestError, String(detail));
      t.match(error, { name: 'WebMCPRequestError', statusCode: 400, code: 'REPL_ERR_INVALID_REQUEST', errorCode: 'REPL_ERR_INVALID_REQUEST', invocationId: undefined });
      if (typeof detail === 'string') {
        t.equal(error.message, `WebMCP REPL_ERR_INVALID_REQUEST: ${detail}`);
        t.same(error.body, { message: detail, code: 'REPL_ERR_INVALID_REQUEST' });
      } else {
        t.match(error.body.message, detail);
      }
    }
    t.same(posted, [], 'nothing was posted');
    const { value: accepted } = inCell(() => [webmcp.invokeTool('😀'.repeat(128), exactly, { timeoutSec: 120 }), webmcp.invokeTool('r', {}, { timeoutSec: 1 })]);
    t.equal(posted.length, 2, '128 code points, exactly 1 MiB of JSON and both timeout bounds pass');
    t.equal(posted[0].inputJson.length, LIMITS.webmcpInputBytes);
    scope.end();
    void accepted;
  });

  t.test('error replies become WebMCPRequestErrors with Kernel\'s code and message', async (t) => {
    const { webmcp, receive } = setup();
    const { scope, value: calls } = inCell(() => [webmcp.invokeTool('a'), webmcp.invokeTool('b'), webmcp.listTools(), webmcp.invokeTool('c')]);
    receive({ type: 'webmcp-reply', callId: 1, error: { name: 'ReplError', message: 'no answer within 5 s; do not retry automatically', code: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', data: { statusCode: 504, invocationId: 'invocation-1' } } });
    receive({ type: 'webmcp-reply', callId: 2, error: { name: 'ReplError', message: 'tool no longer available; discover tools again', code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', data: { statusCode: 404 } } });
    receive({ type: 'webmcp-reply', callId: 3, error: { name: 'ReplError', message: 'no tab is open', code: 'REPL_ERR_WEBMCP_NO_TABS' } });
    receive({ type: 'webmcp-reply', callId: 4, error: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET', data: { statusCode: 500 } } });
    const [unknown, stale, noTabs, internal] = await Promise.all(calls.map((call) => call.catch((error) => error)));
    t.match(unknown, {
      name: 'WebMCPRequestError', statusCode: 504, code: 'outcome_unknown', errorCode: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', invocationId: 'invocation-1',
      message: 'WebMCP outcome_unknown, invocation invocation-1: no answer within 5 s; do not retry automatically',
    });
    t.same(unknown.body, { message: 'no answer within 5 s; do not retry automatically', code: 'outcome_unknown', invocation_id: 'invocation-1' });
    t.match(stale, { statusCode: 404, code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', errorCode: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', message: 'WebMCP REPL_ERR_WEBMCP_TOOL_NOT_FOUND: tool no longer available; discover tools again' });
    t.match(noTabs, { statusCode: 404, code: 'REPL_ERR_WEBMCP_NO_TABS' }, 'the registry status when the reply has none');
    t.match(internal, { statusCode: 500, code: 'REPL_ERR_INTERNAL', errorCode: 'REPL_ERR_INTERNAL', message: 'WebMCP REPL_ERR_INTERNAL: socket hang up' });
    scope.end();
  });

  t.test('a success reply without its result is a plain error saying so', async (t) => {
    const { webmcp, receive } = setup();
    const { scope, value: [listing, invocation] } = inCell(() => [webmcp.listTools(), webmcp.invokeTool('a')]);
    receive({ type: 'webmcp-reply', callId: 1, invocation: { invocation_id: 'i', status: 'completed' } });
    receive({ type: 'webmcp-reply', callId: 2, tools: [] });
    await t.rejects(listing, { name: 'Error', message: 'WebMCP: the answer to listTools is invalid (it holds no tools)' });
    await t.rejects(invocation, { name: 'Error', message: 'WebMCP: the answer to invokeTool is invalid (it holds no invocation)' });
    scope.end();
  });

  t.test('the stack names the caller that awaited the call', async (t) => {
    const { webmcp, receive } = setup();
    const { scope, value } = inCell(() => (async function checkoutFlow() { return await webmcp.invokeTool('a'); })());
    receive({ type: 'webmcp-reply', callId: 1, error: { name: 'ReplError', message: 'gone', code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND' } });
    const error = await value.catch((thrown) => thrown);
    t.match(error.stack, /at async checkoutFlow/);
    scope.end();
  });
});

t.test('CellScope', async (t) => {
  t.test('outside any scope a call fails at once and posts nothing', async (t) => {
    const { posted, webmcp } = setup();
    await t.rejects(webmcp.listTools(), { name: 'WebMCPRequestError', statusCode: 400, message: 'WebMCP REPL_ERR_INVALID_REQUEST: webmcp is only available while a cell runs' });
    await t.rejects(webmcp.invokeTool('a', {}), { statusCode: 400 });
    t.same(posted, []);
  });

  t.test('#end aborts the unfinished calls: webmcp-abort posted, outcome_unknown for invocations, aborted for listings', async (t) => {
    const { posted, webmcp, receive } = setup();
    const { scope, value: [invocation, listing, answered] } = inCell(() => [webmcp.invokeTool('a'), webmcp.listTools(), webmcp.invokeTool('b')]);
    receive({ type: 'webmcp-reply', callId: 3, invocation: { invocation_id: 'i', status: 'completed' } });
    await answered;
    scope.end();
    scope.end();
    t.same(posted.slice(3), [{ type: 'webmcp-abort', callId: 1 }, { type: 'webmcp-abort', callId: 2 }], 'once each, only the unfinished ones');
    await t.rejects(invocation, {
      name: 'WebMCPRequestError', statusCode: 504, code: 'outcome_unknown', errorCode: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', invocationId: undefined,
      message: 'WebMCP outcome_unknown: the cell that started this call finished before it answered; the page tool may still run',
    });
    await t.rejects(listing, { statusCode: 499, code: 'REPL_ERR_ABORTED', message: 'WebMCP REPL_ERR_ABORTED: the cell that started this listing finished before it answered' });
    receive({ type: 'webmcp-reply', callId: 1, invocation: { invocation_id: 'late', status: 'completed' } });
    t.equal(posted.length, 5, 'a late reply changes nothing');
  });

  t.test('code left behind by an ended scope (a timer) fails at once; the current scope is the one it was started in', async (t) => {
    const { posted, webmcp } = setup();
    const first = new CellScope();
    const late = new Promise((resolve) => {
      runInCellScope(first, () => setTimeout(() => resolve(webmcp.listTools().catch((error) => error)), 20));
    });
    first.end();
    const second = new CellScope();
    const seen = await runInCellScope(second, async () => {
      const error = await late;
      return { error, scope: currentCellScope() };
    });
    t.equal(seen.scope, second);
    t.match(seen.error, { statusCode: 400, message: /^WebMCP REPL_ERR_INVALID_REQUEST: webmcp is only available while a cell runs: the cell that started this code/ });
    t.same(posted, []);
    second.end();
  });

  t.test('a call its ended cell left unawaited, or one made outside a running cell, rejects without an unhandled rejection', async (t) => {
    const { webmcp } = setup();
    const unhandled = [];
    const listener = (reason) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    t.teardown(() => process.off('unhandledRejection', listener));
    const { scope } = inCell(() => {
      webmcp.invokeTool('a', {});
      webmcp.listTools();
    });
    scope.end();
    runInCellScope(scope, () => webmcp.invokeTool('b', {}));
    webmcp.listTools();
    await tick();
    await tick();
    t.same(unhandled, []);
  });

  t.test('#track after the end is a programming error', async (t) => {
    const scope = new CellScope();
    scope.end();
    t.equal(scope.ended, true);
    t.throws(() => scope.track(() => {}), { message: 'CellScope.track after the scope ended' });
  });
});
