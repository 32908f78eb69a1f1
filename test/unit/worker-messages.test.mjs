// The message guards of common/protocol/validate.ts, both protocols and both directions, and the
// one serialised-error shape (toSerialized / fromSerialized).
import t from 'tap';
import {
  validateExecutorHostMessage, validateExecutorWorkerMessage, validateReplHostMessage, validateReplWorkerMessage,
} from '../../dist/common/protocol/validate.js';
import { ReplError, fromSerialized, toSerialized } from '../../dist/common/errors.js';
import { LIMITS } from '../../dist/common/limits.js';

const error = { name: 'Error', message: 'boom', code: 'E_X', stack: 'Error: boom\n    at x' };
const text = { type: 'text', channel: 'stdout', text: 'hello' };
const image = { type: 'image', mimeType: 'image/png', bytes: new ArrayBuffer(4) };
const tool = {
  tool_ref: 'wmcp_a1', tool: { name: 'echo', description: 'Echoes', inputSchema: {} },
  source: { window_id: 1, tab_id: 1, page_title: 'T', page_url: 'http://x/', frame: null, target_id: 'T1' },
};
const invocation = { invocation_id: 'inv-1', status: 'completed', output: { any: ['thing'] } };
const statusError = { name: 'ReplError', message: 'gone', code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', data: { statusCode: 404 } };
/** Valid in both protocols, worker → main. */
const WEBMCP_CALLS = [
  { type: 'webmcp-call', callId: 1, operation: 'list' },
  { type: 'webmcp-call', callId: 2, operation: 'invoke', toolRef: 'wmcp_a1', inputJson: '{}' },
  { type: 'webmcp-call', callId: 3, operation: 'invoke', toolRef: '', inputJson: '{"a":1}', timeoutSec: 30 },
  { type: 'webmcp-abort', callId: 2 },
];
/** Valid in both protocols, main → worker. */
const WEBMCP_REPLIES = [
  { type: 'webmcp-reply', callId: 1, tools: [] },
  { type: 'webmcp-reply', callId: 1, tools: [tool, { ...tool, tool_ref: 'wmcp_b2' }] },
  { type: 'webmcp-reply', callId: 2, invocation },
  { type: 'webmcp-reply', callId: 2, invocation: { invocation_id: 'inv-2', status: 'awaiting_submission', output: { form_populated: true, submitted: false } } },
  { type: 'webmcp-reply', callId: 2, invocation: { invocation_id: 'inv-3', status: 'error', error_text: 'nope' } },
  { type: 'webmcp-reply', callId: 3, error: statusError },
];
/** Hand-over requests (requestHuman), valid in both protocols. */
const HUMAN_CALLS = [
  { type: 'human-request', callId: 1, message: 'Solve the captcha', timeoutSec: 300 },
  { type: 'human-request', callId: 2, message: 'x'.repeat(4000), timeoutSec: 1 },
  { type: 'human-abort', callId: 1 },
];
const HUMAN_REPLIES = [
  { type: 'human-reply', callId: 1, answer: { reply: '' } },
  { type: 'human-reply', callId: 1, answer: { reply: 'done', by: 'Ada' } },
  { type: 'human-reply', callId: 2, error: { name: 'ReplError', message: 'nobody', code: 'REPL_ERR_HUMAN_TIMEOUT' } },
];

const VALID = {
  replWorker: [
    { type: 'ready', protocolVersion: 2, replId: 'abc' },
    { type: 'output', requestId: 1, item: text },
    { type: 'output', requestId: 1, item: image },
    { type: 'result', requestId: 1, success: true, contentTruncated: false, durationMs: 3 },
    { type: 'result', requestId: 1, success: false, error, contentTruncated: true, durationMs: 0 },
    { type: 'env-applied', requestId: 2 },
    { type: 'endpoint-request', requestId: 1 },
    { type: 'endpoint-request', requestId: 2, previous: 'ws://old' },
    { type: 'tool-result', requestId: 3, outcome: { message: 'clicked 1' } },
    { type: 'tool-result', requestId: 3, error },
    ...WEBMCP_CALLS,
    ...HUMAN_CALLS,
  ],
  replHost: [
    { type: 'execute', requestId: 1, code: '1', deadline: Date.now() + 1000 },
    { type: 'env', requestId: 2, set: { A: 'b', C: null } },
    { type: 'endpoint-reply', requestId: 1, endpoint: 'ws://x' },
    { type: 'endpoint-reply', requestId: 1, endpoint: 'ws://x', targetId: 'T1' },
    { type: 'endpoint-reply', requestId: 1, error: { name: 'ReplError', message: 'no', code: 'REPL_ERR_BROWSER_NOT_FOUND', data: { a: 1 } } },
    { type: 'tool', requestId: 4, operation: { op: 'read' }, deadline: Date.now() + 1000, read: true },
    ...WEBMCP_REPLIES,
    ...HUMAN_REPLIES,
    { type: 'shutdown' },
  ],
  executorWorker: [
    { type: 'ready', protocolVersion: 2, workerId: 'w' },
    { type: 'reply', requestId: 1, success: true, resultJson: '1', stdout: '', stderr: '' },
    { type: 'reply', requestId: 1, success: false, error, stdout: 'a', stderr: 'b', tab: { targetId: 'T', created: true }, timedOut: true, tabMissing: false },
    { type: 'endpoint-request', requestId: 3 },
    { type: 'output', requestId: 1, channel: 'stdout', text: 'hello\n' },
    { type: 'output', requestId: 1, channel: 'stderr', text: '' },
    ...WEBMCP_CALLS,
    ...HUMAN_CALLS,
  ],
  executorHost: [
    { type: 'run', requestId: 1, code: 'return 1', timeoutMs: 5000 },
    { type: 'run', requestId: 3, code: 'return 1', timeoutMs: 5000, streamOutput: true },
    { type: 'run', requestId: 2, code: 'return 1', timeoutMs: 5000, targetId: 'T', tabCreated: true },
    { type: 'endpoint-reply', requestId: 1, endpoint: 'ws://x' },
    ...WEBMCP_REPLIES,
    ...HUMAN_REPLIES,
  ],
};

const GUARDS = {
  replWorker: validateReplWorkerMessage,
  replHost: validateReplHostMessage,
  executorWorker: validateExecutorWorkerMessage,
  executorHost: validateExecutorHostMessage,
};

t.test('every direction accepts its own well-formed messages and returns them as they are', async (t) => {
  for (const [direction, messages] of Object.entries(VALID)) {
    for (const message of messages) {
      const checked = GUARDS[direction](message);
      t.same(checked, { ok: true, message }, `${direction} ${message.type}`);
      t.equal(checked.message, message, 'no copy');
    }
  }
});

t.test('a message of the other direction or the other protocol is an unknown type', async (t) => {
  t.same(validateReplWorkerMessage({ type: 'execute', requestId: 1, code: '', deadline: 1 }),
    { ok: false, error: 'unknown message type "execute"' });
  t.same(validateReplHostMessage({ type: 'result', requestId: 1 }), { ok: false, error: 'unknown message type "result"' });
  t.same(validateExecutorWorkerMessage({ type: 'started', requestId: 1 }), { ok: false, error: 'unknown message type "started"' });
  t.same(validateExecutorHostMessage({ type: 'shutdown' }), { ok: false, error: 'unknown message type "shutdown"' });
  t.same(validateReplWorkerMessage({ type: 'toString' }), { ok: false, error: 'unknown message type "toString"' }, 'no prototype lookups');
});

t.test('validateReplWorkerMessage names what is wrong', async (t) => {
  const cases = [
    [42, 'expected a message object, got number'],
    ['output', 'expected a message object, got string'],
    [null, 'expected a message object, got null'],
    [undefined, 'expected a message object, got undefined'],
    [[1], 'expected a message object, got an array'],
    [{}, 'message type must be a string, got undefined'],
    [{ type: 7 }, 'message type must be a string, got number'],
    [{ type: 'bogus' }, 'unknown message type "bogus"'],
    [{ type: 'started', requestId: 1 }, 'unknown message type "started"'],
    [{ type: 'env-applied' }, 'env-applied message: requestId must be a positive integer, got undefined'],
    [{ type: 'env-applied', requestId: '1' }, 'env-applied message: requestId must be a positive integer, got string'],
    [{ type: 'env-applied', requestId: 1.5 }, 'env-applied message: requestId must be a positive integer, got number'],
    [{ type: 'env-applied', requestId: 0 }, 'env-applied message: requestId must be a positive integer, got number'],
    [{ type: 'output', requestId: 1 }, 'output message: item must be an output item object, got undefined'],
    [{ type: 'output', requestId: 1, item: 'hi' }, 'output message: item must be an output item object, got string'],
    [{ type: 'output', requestId: 1, item: { type: 'text', text: 'x' } }, 'output message: item.channel must be write, stdout or stderr'],
    [{ type: 'output', requestId: 1, item: { type: 'text', channel: 'write' } }, 'output message: item.text must be a string, got undefined'],
    [{ type: 'output', requestId: 1, item: { type: 'video' } }, 'output message: item.type must be "text" or "image"'],
    [{ type: 'output', requestId: 1, item: { type: 'image', mimeType: 'image/png', bytes: new Uint8Array(2) } }, 'output message: item.bytes must be an ArrayBuffer, got an object'],
    [{ type: 'output', requestId: 1, item: { type: 'image', mimeType: 'image/png', bytes: new ArrayBuffer(LIMITS.imageBytes + 1) } }, `output message: item.bytes exceed ${LIMITS.imageBytes} bytes`],
    [{ type: 'result', requestId: 1, success: 'yes', contentTruncated: false, durationMs: 0 }, 'result message: success must be a boolean, got string'],
    [{ type: 'result', requestId: 1, success: false, error: 'boom', contentTruncated: false, durationMs: 0 }, 'result message: error must be a serialized error object, got string'],
    [{ type: 'result', requestId: 1, success: false, error: { name: 'Error' }, contentTruncated: false, durationMs: 0 }, 'result message: error.message must be a string, got undefined'],
    [{ type: 'result', requestId: 1, success: false, error: { name: 'E', message: 'm', data: 1 }, contentTruncated: false, durationMs: 0 }, 'result message: error.data must be an object, got number'],
    [{ type: 'result', requestId: 1, success: true, contentTruncated: false, durationMs: -1 }, 'result message: durationMs must be a number ≥ 0'],
    [{ type: 'result', requestId: 1, success: true, contentTruncated: false, durationMs: Number.NaN }, 'result message: durationMs must be a number ≥ 0'],
    [{ type: 'ready', protocolVersion: '2', replId: 'a' }, 'ready message: protocolVersion must be an integer ≥ 0, got string'],
    [{ type: 'ready', protocolVersion: 2 }, 'ready message: replId must be a string, got undefined'],
    [{ type: 'endpoint-request', requestId: 1, previous: 5 }, 'endpoint-request message: previous must be a string, got number'],
    [{ type: 'tool-result', requestId: 1 }, 'tool-result message: exactly one of outcome and error must be set'],
    [{ type: 'tool-result', requestId: 1, outcome: { message: 'm' }, error }, 'tool-result message: exactly one of outcome and error must be set'],
    [{ type: 'tool-result', requestId: 1, outcome: 'done' }, 'tool-result message: outcome must be an object with a message string'],
  ];
  for (const [message, reason] of cases) {
    t.same(validateReplWorkerMessage(message), { ok: false, error: reason }, reason);
  }
});

t.test('validateReplHostMessage checks what the worker reads', async (t) => {
  const cases = [
    [{ type: 'execute', requestId: 1, deadline: 1 }, 'execute message: code must be a string, got undefined'],
    [{ type: 'execute', requestId: 1, code: '', deadline: -1 }, 'execute message: deadline must be a number ≥ 0'],
    [{ type: 'env', requestId: 1, set: null }, 'env message: set must be an object, got null'],
    [{ type: 'env', requestId: 1, set: { A: 1 } }, 'env message: set.A must be a string or null'],
    [{ type: 'endpoint-reply', requestId: 1 }, 'endpoint-reply message: exactly one of endpoint and error must be set'],
    [{ type: 'endpoint-reply', requestId: 1, endpoint: 'ws://x', error: { name: 'E', message: 'm' } }, 'endpoint-reply message: exactly one of endpoint and error must be set'],
    [{ type: 'endpoint-reply', requestId: 1, endpoint: 'ws://x', targetId: 3 }, 'endpoint-reply message: targetId must be a string, got number'],
    [{ type: 'tool', requestId: 1, operation: 'read', deadline: 1, read: true }, 'tool message: operation must be an object with an op string'],
    [{ type: 'tool', requestId: 1, operation: { op: 'read' }, deadline: 1 }, 'tool message: read must be a boolean, got undefined'],
  ];
  for (const [message, reason] of cases) t.same(validateReplHostMessage(message), { ok: false, error: reason }, reason);
});

t.test('the executor guards check replies and runs', async (t) => {
  const reply = { type: 'reply', requestId: 1, success: false, stdout: '', stderr: '' };
  t.same(validateExecutorWorkerMessage({ ...reply, error: 'boom' }), { ok: false, error: 'reply message: error must be a serialized error object, got string' });
  t.same(validateExecutorWorkerMessage({ ...reply, stdout: undefined }), { ok: false, error: 'reply message: stdout must be a string, got undefined' });
  t.same(validateExecutorWorkerMessage({ ...reply, tab: 'T' }), { ok: false, error: 'reply message: tab must be an object, got string' });
  t.same(validateExecutorWorkerMessage({ ...reply, tab: { targetId: 'T' } }), { ok: false, error: 'reply message: tab.created must be a boolean, got undefined' });
  t.same(validateExecutorWorkerMessage({ ...reply, timedOut: 'yes' }), { ok: false, error: 'reply message: timedOut must be a boolean, got string' });
  t.same(validateExecutorWorkerMessage({ type: 'ready', protocolVersion: 2 }), { ok: false, error: 'ready message: workerId must be a string, got undefined' });
  t.same(validateExecutorHostMessage({ type: 'run', requestId: 1, code: 'x', timeoutMs: 5, tabCreated: 1 }), { ok: false, error: 'run message: tabCreated must be a boolean, got number' });
  t.same(validateExecutorHostMessage({ type: 'run', requestId: 1, code: 'x', timeoutMs: 5, budgetMs: 0 }), { ok: false, error: 'run message: budgetMs must be an integer ≥ 1, got number' });
  t.ok(validateExecutorHostMessage({ type: 'run', requestId: 1, code: 'x', timeoutMs: 5, budgetMs: 7 }).ok, 'budgetMs (the whole budget a timeout names) is optional and checked when present');
  t.same(validateExecutorHostMessage({ type: 'run', requestId: 1, code: 'x', timeoutMs: 5, streamOutput: 'yes' }), { ok: false, error: 'run message: streamOutput must be a boolean, got string' });
  t.same(validateExecutorWorkerMessage({ type: 'output', requestId: 1, channel: 'write', text: 'x' }), { ok: false, error: 'output message: channel must be stdout or stderr' });
  t.same(validateExecutorWorkerMessage({ type: 'output', requestId: 1, channel: 'stdout' }), { ok: false, error: 'output message: text must be a string, got undefined' });
  t.same(validateExecutorWorkerMessage({ type: 'output', channel: 'stdout', text: 'x' }), { ok: false, error: 'output message: requestId must be a positive integer, got undefined' });
});

t.test('the WebMCP guards check calls, aborts and replies alike in both protocols', async (t) => {
  const calls = [
    [{ type: 'webmcp-call', operation: 'list' }, 'webmcp-call message: callId must be a positive integer, got undefined'],
    [{ type: 'webmcp-call', callId: 0, operation: 'list' }, 'webmcp-call message: callId must be a positive integer, got number'],
    [{ type: 'webmcp-call', callId: 1.5, operation: 'list' }, 'webmcp-call message: callId must be a positive integer, got number'],
    [{ type: 'webmcp-call', callId: '1', operation: 'list' }, 'webmcp-call message: callId must be a positive integer, got string'],
    [{ type: 'webmcp-call', callId: 1 }, 'webmcp-call message: operation must be "list" or "invoke"'],
    [{ type: 'webmcp-call', callId: 1, operation: 'delete' }, 'webmcp-call message: operation must be "list" or "invoke"'],
    [{ type: 'webmcp-call', callId: 1, operation: 'list', toolRef: 'wmcp_a1' }, 'webmcp-call message: toolRef is not allowed here'],
    [{ type: 'webmcp-call', callId: 1, operation: 'list', timeoutSec: 5 }, 'webmcp-call message: timeoutSec is not allowed here'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', inputJson: '{}' }, 'webmcp-call message: toolRef must be a string, got undefined'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 5, inputJson: '{}' }, 'webmcp-call message: toolRef must be a string, got number'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'x'.repeat(1025), inputJson: '{}' }, 'webmcp-call message: toolRef is longer than 1024 characters'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'r' }, 'webmcp-call message: inputJson must be a string, got undefined'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'r', inputJson: {} }, 'webmcp-call message: inputJson must be a string, got an object'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'r', inputJson: 'x'.repeat(LIMITS.webmcpInputBytes + 1) },
      `webmcp-call message: inputJson is longer than ${LIMITS.webmcpInputBytes} characters`],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'r', inputJson: '{}', timeoutSec: '5' }, 'webmcp-call message: timeoutSec must be a number, got string'],
    [{ type: 'webmcp-call', callId: 1, operation: 'invoke', toolRef: 'r', inputJson: '{}', timeoutSec: Number.NaN }, 'webmcp-call message: timeoutSec must be a number, got number'],
    [{ type: 'webmcp-abort' }, 'webmcp-abort message: callId must be a positive integer, got undefined'],
    [{ type: 'webmcp-abort', callId: -1 }, 'webmcp-abort message: callId must be a positive integer, got number'],
  ];
  for (const [message, reason] of calls) {
    t.same(validateReplWorkerMessage(message), { ok: false, error: reason }, `REPL: ${reason}`);
    t.same(validateExecutorWorkerMessage(message), { ok: false, error: reason }, `executor: ${reason}`);
  }
  const replies = [
    [{ type: 'webmcp-reply', tools: [] }, 'webmcp-reply message: callId must be a positive integer, got undefined'],
    [{ type: 'webmcp-reply', callId: 1 }, 'webmcp-reply message: exactly one of tools, invocation and error must be set'],
    [{ type: 'webmcp-reply', callId: 1, tools: [], invocation }, 'webmcp-reply message: exactly one of tools, invocation and error must be set'],
    [{ type: 'webmcp-reply', callId: 1, invocation, error: statusError }, 'webmcp-reply message: exactly one of tools, invocation and error must be set'],
    [{ type: 'webmcp-reply', callId: 1, tools: { 0: tool } }, 'webmcp-reply message: tools must be an array of at most 100000 tools'],
    [{ type: 'webmcp-reply', callId: 1, tools: [tool, null] }, 'webmcp-reply message: tools[1] must be an object, got null'],
    [{ type: 'webmcp-reply', callId: 1, tools: [{ ...tool, tool_ref: 7 }] }, 'webmcp-reply message: tools[0].tool_ref must be a string, got number'],
    [{ type: 'webmcp-reply', callId: 1, tools: [{ ...tool, tool: 'echo' }] }, 'webmcp-reply message: tools[0].tool must be an object, got string'],
    [{ type: 'webmcp-reply', callId: 1, tools: [{ ...tool, tool: {} }] }, 'webmcp-reply message: tools[0].tool.name must be a string, got undefined'],
    [{ type: 'webmcp-reply', callId: 1, tools: [{ ...tool, source: null }] }, 'webmcp-reply message: tools[0].source must be an object, got null'],
    [{ type: 'webmcp-reply', callId: 1, invocation: [] }, 'webmcp-reply message: invocation must be an object, got an array'],
    [{ type: 'webmcp-reply', callId: 1, invocation: { status: 'completed' } }, 'webmcp-reply message: invocation.invocation_id must be a string, got undefined'],
    [{ type: 'webmcp-reply', callId: 1, invocation: { invocation_id: 'i', status: 'outcome_unknown' } },
      'webmcp-reply message: invocation.status must be completed, canceled, error or awaiting_submission'],
    [{ type: 'webmcp-reply', callId: 1, invocation: { invocation_id: 'i', status: 'error', error_text: 3 } }, 'webmcp-reply message: invocation.error_text must be a string, got number'],
    [{ type: 'webmcp-reply', callId: 1, error: 'gone' }, 'webmcp-reply message: error must be a serialized error object, got string'],
    [{ type: 'webmcp-reply', callId: 1, error: { name: 'ReplError' } }, 'webmcp-reply message: error.message must be a string, got undefined'],
  ];
  for (const [message, reason] of replies) {
    t.same(validateReplHostMessage(message), { ok: false, error: reason }, `REPL: ${reason}`);
    t.same(validateExecutorHostMessage(message), { ok: false, error: reason }, `executor: ${reason}`);
  }
  t.same(validateReplHostMessage({ type: 'webmcp-call', callId: 1, operation: 'list' }), { ok: false, error: 'unknown message type "webmcp-call"' },
    'each direction has its own half');
  t.same(validateExecutorWorkerMessage({ type: 'webmcp-reply', callId: 1, tools: [] }), { ok: false, error: 'unknown message type "webmcp-reply"' });
});

t.test('the hand-over guards check requests, aborts and replies alike in both protocols', async (t) => {
  const calls = [
    [{ type: 'human-request', message: 'm', timeoutSec: 5 }, 'human-request message: callId must be a positive integer, got undefined'],
    [{ type: 'human-request', callId: 1, timeoutSec: 5 }, 'human-request message: message must be a string of 1 to 4000 characters, got undefined'],
    [{ type: 'human-request', callId: 1, message: '', timeoutSec: 5 }, 'human-request message: message must be a string of 1 to 4000 characters, got 0 characters'],
    [{ type: 'human-request', callId: 1, message: 'x'.repeat(4001), timeoutSec: 5 }, 'human-request message: message must be a string of 1 to 4000 characters, got 4001 characters'],
    [{ type: 'human-request', callId: 1, message: 'm' }, 'human-request message: timeoutSec must be a positive number, got undefined'],
    [{ type: 'human-request', callId: 1, message: 'm', timeoutSec: 0 }, 'human-request message: timeoutSec must be a positive number, got number'],
    [{ type: 'human-request', callId: 1, message: 'm', timeoutSec: '5' }, 'human-request message: timeoutSec must be a positive number, got string'],
    [{ type: 'human-abort', callId: 0 }, 'human-abort message: callId must be a positive integer, got number'],
  ];
  for (const [message, reason] of calls) {
    t.same(validateReplWorkerMessage(message), { ok: false, error: reason }, `REPL: ${reason}`);
    t.same(validateExecutorWorkerMessage(message), { ok: false, error: reason }, `executor: ${reason}`);
  }
  const replies = [
    [{ type: 'human-reply', answer: { reply: '' } }, 'human-reply message: callId must be a positive integer, got undefined'],
    [{ type: 'human-reply', callId: 1 }, 'human-reply message: exactly one of answer and error must be set'],
    [{ type: 'human-reply', callId: 1, answer: { reply: '' }, error: statusError }, 'human-reply message: exactly one of answer and error must be set'],
    [{ type: 'human-reply', callId: 1, answer: 'done' }, 'human-reply message: answer must be an object, got string'],
    [{ type: 'human-reply', callId: 1, answer: {} }, 'human-reply message: answer.reply must be a string, got undefined'],
    [{ type: 'human-reply', callId: 1, answer: { reply: 'x'.repeat(16 * 1024 + 1) } }, 'human-reply message: answer.reply is longer than 16384 characters'],
    [{ type: 'human-reply', callId: 1, answer: { reply: '', by: 7 } }, 'human-reply message: answer.by must be a string, got number'],
    [{ type: 'human-reply', callId: 1, error: 'late' }, 'human-reply message: error must be a serialized error object, got string'],
  ];
  for (const [message, reason] of replies) {
    t.same(validateReplHostMessage(message), { ok: false, error: reason }, `REPL: ${reason}`);
    t.same(validateExecutorHostMessage(message), { ok: false, error: reason }, `executor: ${reason}`);
  }
  t.same(validateReplHostMessage(HUMAN_CALLS[0]), { ok: false, error: 'unknown message type "human-request"' }, 'each direction has its own half');
  t.same(validateExecutorWorkerMessage(HUMAN_REPLIES[0]), { ok: false, error: 'unknown message type "human-reply"' });
});

t.test('toSerialized is the one shape of an error on the port, and fromSerialized rebuilds it', async (t) => {
  const original = new ReplError('REPL_ERR_CDP_TIMEOUT', 'slow', { data: { method: 'Page.navigate' } });
  const serialized = toSerialized(original);
  t.same(Object.keys(serialized).sort(), ['code', 'data', 'message', 'name', 'stack']);
  t.match(serialized, { name: 'ReplError', message: 'slow', code: 'REPL_ERR_CDP_TIMEOUT', data: { method: 'Page.navigate' } });
  t.same(validateReplHostMessage({ type: 'endpoint-reply', requestId: 1, error: serialized }).ok, true);
  const rebuilt = fromSerialized(structuredClone(serialized));
  t.equal(rebuilt.code, 'REPL_ERR_CDP_TIMEOUT');
  t.same(rebuilt.data, { method: 'Page.navigate' });
  t.equal(rebuilt.stack, original.stack);

  const plain = toSerialized(Object.assign(new TypeError('bad'), { code: 'ERR_X' }));
  t.match(plain, { name: 'TypeError', message: 'bad', code: 'ERR_X' });
  t.equal(fromSerialized(plain).code, 'REPL_ERR_PROTOCOL', 'unknown codes become REPL_ERR_PROTOCOL');
  t.same(toSerialized('text'), { name: 'Error', message: 'text' });
  t.same(toSerialized(undefined), { name: 'Error', message: 'undefined' });
  const hostile = { get message() { throw new Error('no'); }, toString() { throw new Error('no'); } };
  t.same(toSerialized(hostile), { name: 'Error', message: '[object Object]' }, 'never throws');
});
