/**
 * Guards for every message that crosses a worker port, one per protocol and direction. The
 * receiver calls them before it reads a field: a cell can post anything on its worker's port
 * (`workerData.port.postMessage(...)`), so what arrives is `unknown` until checked. A failed
 * check names what was wrong; the main thread then ends only that worker (`REPL_ERR_PROTOCOL`).
 *
 * Hand-written on purpose: a message is checked on every output item, so the checks are plain
 * property reads (structured clone leaves no getters), with no schema compilation and no
 * allocation on success beyond the result object.
 */
import { LIMITS } from '../limits.js';
import type { MainToWorkerMessage, WorkerToMainMessage } from './repl-messages.js';
import type { ExecutorToMainMessage, MainToExecutorMessage } from './executor-messages.js';
import type { WebMcpStatus } from './webmcp-messages.js';
import { HUMAN_MESSAGE_MAX_CHARS, HUMAN_REPLY_MAX_CHARS } from './human-messages.js';

/** What a guard found: the typed message, or what is wrong with it. */
export type Validation<T> = { ok: true; message: T } | { ok: false; error: string };

type Fields = Record<string, unknown>;
/** Checks the fields of one message type; returns what is wrong, or undefined. */
type FieldCheck = (message: Fields) => string | undefined;

/** Identifiers: ids, names, codes, MIME types, target ids. */
const MAX_ID_LENGTH = 1024;
/** Long text (output, messages, stacks, JSON): bounded by what one answer may carry at all. */
const MAX_TEXT_LENGTH = LIMITS.responseBytes;
const CHANNELS = new Set(['write', 'stdout', 'stderr']);

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function requestId(message: Fields): string | undefined {
  const id = message['requestId'];
  return Number.isSafeInteger(id) && (id as number) > 0 ? undefined : `requestId must be a positive integer, got ${describe(id)}`;
}

function string(message: Fields, key: string, maxLength: number, optional = false): string | undefined {
  const value = message[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') return `${key} must be a string, got ${describe(value)}`;
  return value.length <= maxLength ? undefined : `${key} is longer than ${maxLength} characters`;
}

function boolean(message: Fields, key: string, optional = false): string | undefined {
  const value = message[key];
  if (value === undefined && optional) return undefined;
  return typeof value === 'boolean' ? undefined : `${key} must be a boolean, got ${describe(value)}`;
}

function integer(message: Fields, key: string, min: number, optional = false): string | undefined {
  const value = message[key];
  if (optional && value === undefined) return undefined;
  return Number.isSafeInteger(value) && (value as number) >= min ? undefined : `${key} must be an integer ≥ ${min}, got ${describe(value)}`;
}

function finite(message: Fields, key: string, min: number): string | undefined {
  const value = message[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? undefined : `${key} must be a number ≥ ${min}`;
}

/** An optional array of at most `maxItems` identifiers. */
function identifiers(message: Fields, key: string, maxItems: number): string | undefined {
  const value = message[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > maxItems) return `${key} must be an array of at most ${maxItems} strings`;
  return value.every((entry) => typeof entry === 'string' && entry.length <= MAX_ID_LENGTH) ? undefined : `${key} must hold strings only`;
}

/** An optional record of identifiers (at most `maxEntries`). */
function identifierRecord(message: Fields, key: string, maxEntries: number): string | undefined {
  const value = message[key];
  if (value === undefined) return undefined;
  if (!isRecord(value)) return `${key} must be an object, got ${describe(value)}`;
  const entries = Object.entries(value);
  if (entries.length > maxEntries) return `${key} has more than ${maxEntries} entries`;
  return entries.every(([name, entry]) => name.length <= MAX_ID_LENGTH && typeof entry === 'string' && entry.length <= MAX_ID_LENGTH)
    ? undefined : `${key} must map strings to strings`;
}

/** The first problem of several checks, in order. */
function first(...problems: Array<string | undefined>): string | undefined {
  return problems.find((problem) => problem !== undefined);
}

/** `SerializedError` (common/errors.ts) under `key`. */
function serializedError(message: Fields, key: string, optional = true): string | undefined {
  const value = message[key];
  if (value === undefined && optional) return undefined;
  if (!isRecord(value)) return `${key} must be a serialized error object, got ${describe(value)}`;
  const problem = first(
    string(value, 'name', MAX_ID_LENGTH),
    string(value, 'message', MAX_TEXT_LENGTH),
    string(value, 'code', MAX_ID_LENGTH, true),
    string(value, 'stack', MAX_TEXT_LENGTH, true),
    value['data'] === undefined || isRecord(value['data']) ? undefined : `data must be an object, got ${describe(value['data'])}`,
  );
  return problem === undefined ? undefined : `${key}.${problem}`;
}

function outputItem(message: Fields): string | undefined {
  const item = message['item'];
  if (!isRecord(item)) return `item must be an output item object, got ${describe(item)}`;
  let problem: string | undefined;
  if (item['type'] === 'text') {
    problem = CHANNELS.has(item['channel'] as string) ? string(item, 'text', MAX_TEXT_LENGTH) : 'channel must be write, stdout or stderr';
  } else if (item['type'] === 'image') {
    const bytes = item['bytes'];
    problem = first(
      string(item, 'mimeType', MAX_ID_LENGTH),
      bytes instanceof ArrayBuffer ? undefined : `bytes must be an ArrayBuffer, got ${describe(bytes)}`,
      bytes instanceof ArrayBuffer && bytes.byteLength > LIMITS.imageBytes ? `bytes exceed ${LIMITS.imageBytes} bytes` : undefined,
    );
  } else {
    problem = 'type must be "text" or "image"';
  }
  return problem === undefined ? undefined : `item.${problem}`;
}

const endpointRequest: FieldCheck = (message) => first(
  requestId(message),
  string(message, 'previous', MAX_ID_LENGTH, true),
  string(message, 'tabGone', MAX_ID_LENGTH, true),
  boolean(message, 'reapplyDownloads', true),
);

/** Folder paths are bounded by PATH_MAX. */
const MAX_PATH_LENGTH = 4096;

function downloadFolders(message: Fields, key: string): string | undefined {
  const value = message[key];
  if (value === undefined) return undefined;
  if (!isRecord(value)) return `${key} must be an object, got ${describe(value)}`;
  const problem = first(string(value, 'incoming', MAX_PATH_LENGTH), string(value, 'folder', MAX_PATH_LENGTH));
  return problem === undefined ? undefined : `${key}.${problem}`;
}

/** Owned tabs per browser are bounded by the named REPL and executor limits; this is far above both. */
const MAX_OWNED_TABS = 10_000;

const endpointReply: FieldCheck = (message) => first(
  requestId(message),
  string(message, 'endpoint', MAX_ID_LENGTH, true),
  string(message, 'targetId', MAX_ID_LENGTH, true),
  identifierRecord(message, 'tabOwners', MAX_OWNED_TABS),
  string(message, 'browserContextId', MAX_ID_LENGTH, true),
  downloadFolders(message, 'downloads'),
  serializedError(message, 'error'),
  (message['endpoint'] === undefined) === (message['error'] === undefined) ? 'exactly one of endpoint and error must be set' : undefined,
);

// ----- WebMCP (both protocols) -----------------------------------------------------------------

/** Far above what a browser's pages declare; a listing is answered as one message. */
const MAX_WEBMCP_TOOLS = 100_000;
const WEBMCP_STATUSES: ReadonlySet<WebMcpStatus> = new Set(['completed', 'canceled', 'error', 'awaiting_submission']);

function callId(message: Fields): string | undefined {
  const id = message['callId'];
  return Number.isSafeInteger(id) && (id as number) > 0 ? undefined : `callId must be a positive integer, got ${describe(id)}`;
}

function absent(message: Fields, ...keys: string[]): string | undefined {
  const present = keys.find((key) => message[key] !== undefined);
  return present === undefined ? undefined : `${present} is not allowed here`;
}

/**
 * Sizes and types only: what a tool ref, an input or a timeout may be is the monitor's to say
 * (lib/webmcp), and a bad one is answered with an error, not by ending the worker. The input's
 * JSON is bounded in characters by its byte limit, since a UTF-8 byte is never less than one.
 */
const webMcpCall: FieldCheck = (message) => {
  const problem = callId(message);
  if (problem !== undefined) return problem;
  switch (message['operation']) {
    case 'list':
      return absent(message, 'toolRef', 'inputJson', 'timeoutSec');
    case 'invoke': {
      const timeoutSec = message['timeoutSec'];
      return first(
        string(message, 'toolRef', MAX_ID_LENGTH),
        string(message, 'inputJson', LIMITS.webmcpInputBytes),
        timeoutSec === undefined || (typeof timeoutSec === 'number' && Number.isFinite(timeoutSec))
          ? undefined : `timeoutSec must be a number, got ${describe(timeoutSec)}`,
      );
    }
    default:
      return 'operation must be "list" or "invoke"';
  }
};

function webMcpTools(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length > MAX_WEBMCP_TOOLS) return `tools must be an array of at most ${MAX_WEBMCP_TOOLS} tools`;
  for (let index = 0; index < value.length; index++) {
    const entry: unknown = value[index];
    if (!isRecord(entry)) return `tools[${index}] must be an object, got ${describe(entry)}`;
    const tool = entry['tool'];
    const problem = first(
      string(entry, 'tool_ref', MAX_ID_LENGTH),
      isRecord(tool) ? string(tool, 'name', MAX_TEXT_LENGTH)?.replace(/^/, 'tool.') : `tool must be an object, got ${describe(tool)}`,
      isRecord(entry['source']) ? undefined : `source must be an object, got ${describe(entry['source'])}`,
    );
    if (problem !== undefined) return `tools[${index}].${problem}`;
  }
  return undefined;
}

function webMcpInvocation(value: unknown): string | undefined {
  if (!isRecord(value)) return `invocation must be an object, got ${describe(value)}`;
  const problem = first(
    string(value, 'invocation_id', MAX_ID_LENGTH),
    WEBMCP_STATUSES.has(value['status'] as WebMcpStatus) ? undefined : 'status must be completed, canceled, error or awaiting_submission',
    string(value, 'error_text', MAX_TEXT_LENGTH, true),
  );
  return problem === undefined ? undefined : `invocation.${problem}`;
}

const webMcpReply: FieldCheck = (message) => {
  const problem = callId(message);
  if (problem !== undefined) return problem;
  const answers = ['tools', 'invocation', 'error'].filter((key) => message[key] !== undefined);
  if (answers.length !== 1) return 'exactly one of tools, invocation and error must be set';
  switch (answers[0]) {
    case 'tools':
      return webMcpTools(message['tools']);
    case 'invocation':
      return webMcpInvocation(message['invocation']);
    default:
      return serializedError(message, 'error');
  }
};

/** Sizes and types: the range of the timeout is the worker's to check (and the service's again). */
const humanRequest: FieldCheck = (message) => {
  const text = message['message'];
  const timeoutSec = message['timeoutSec'];
  return first(
    callId(message),
    typeof text === 'string' && text.length > 0 && text.length <= HUMAN_MESSAGE_MAX_CHARS
      ? undefined : `message must be a string of 1 to ${HUMAN_MESSAGE_MAX_CHARS} characters, got ${typeof text === 'string' ? `${text.length} characters` : describe(text)}`,
    typeof timeoutSec === 'number' && Number.isFinite(timeoutSec) && timeoutSec > 0 ? undefined : `timeoutSec must be a positive number, got ${describe(timeoutSec)}`,
  );
};

const humanReply: FieldCheck = (message) => {
  const problem = callId(message);
  if (problem !== undefined) return problem;
  const answer = message['answer'];
  if ((answer === undefined) === (message['error'] === undefined)) return 'exactly one of answer and error must be set';
  if (answer === undefined) return serializedError(message, 'error');
  if (!isRecord(answer)) return `answer must be an object, got ${describe(answer)}`;
  return first(string(answer, 'reply', HUMAN_REPLY_MAX_CHARS), string(answer, 'by', MAX_ID_LENGTH, true))?.replace(/^/, 'answer.');
};

function validate<T>(checks: Readonly<Record<string, FieldCheck>>, value: unknown): Validation<T> {
  if (!isRecord(value)) return { ok: false, error: `expected a message object, got ${describe(value)}` };
  const type = value['type'];
  if (typeof type !== 'string') return { ok: false, error: `message type must be a string, got ${describe(type)}` };
  const check = Object.hasOwn(checks, type) ? checks[type] : undefined;
  if (check === undefined) return { ok: false, error: `unknown message type ${JSON.stringify(type.slice(0, 64))}` };
  const problem = check(value);
  return problem === undefined ? { ok: true, message: value as T } : { ok: false, error: `${type} message: ${problem}` };
}

// ----- REPL protocol -------------------------------------------------------------------------

const REPL_WORKER_MESSAGES: Readonly<Record<WorkerToMainMessage['type'], FieldCheck>> = {
  'ready': (message) => first(integer(message, 'protocolVersion', 0), string(message, 'replId', MAX_ID_LENGTH)),
  'output': (message) => first(requestId(message), outputItem(message)),
  'result': (message) => first(
    requestId(message),
    boolean(message, 'success'),
    serializedError(message, 'error'),
    boolean(message, 'contentTruncated'),
    finite(message, 'durationMs', 0),
    boolean(message, 'interrupted', true),
  ),
  'env-applied': requestId,
  'warmed': requestId,
  'tool-result': (message) => first(
    requestId(message),
    serializedError(message, 'error'),
    message['outcome'] !== undefined && !(isRecord(message['outcome']) && typeof message['outcome']['message'] === 'string')
      ? 'outcome must be an object with a message string' : undefined,
    (message['outcome'] === undefined) === (message['error'] === undefined) ? 'exactly one of outcome and error must be set' : undefined,
  ),
  'endpoint-request': endpointRequest,
  'attached': (message) => string(message, 'targetId', MAX_ID_LENGTH),
  'webmcp-call': webMcpCall,
  'webmcp-abort': callId,
  'human-request': humanRequest,
  'human-abort': callId,
};

const REPL_HOST_MESSAGES: Readonly<Record<MainToWorkerMessage['type'], FieldCheck>> = {
  'execute': (message) => first(
    requestId(message),
    string(message, 'code', LIMITS.encodedRequestBytes),
    finite(message, 'deadline', 0),
  ),
  'interrupt': requestId,
  'env': (message) => {
    const problem = requestId(message);
    if (problem !== undefined) return problem;
    const set = message['set'];
    if (!isRecord(set)) return `set must be an object, got ${describe(set)}`;
    for (const [name, value] of Object.entries(set)) {
      if (name === '' || (value !== null && typeof value !== 'string')) return `set.${name.slice(0, 64)} must be a string or null`;
    }
    return undefined;
  },
  'endpoint-reply': endpointReply,
  'configure': (message) => first(string(message, 'name', MAX_ID_LENGTH), boolean(message, 'ownsTab')),
  'warm': requestId,
  // The operation's own fields are checked by the worker's tool runner, which answers a bad one
  // with an error instead of ending the worker.
  'tool': (message) => first(
    requestId(message),
    isRecord(message['operation']) && typeof message['operation']['op'] === 'string' ? undefined : 'operation must be an object with an op string',
    finite(message, 'deadline', 0),
    boolean(message, 'read'),
  ),
  'webmcp-reply': webMcpReply,
  'human-reply': humanReply,
  'shutdown': () => undefined,
};

/** Main thread: a message from a REPL worker. */
export function validateReplWorkerMessage(value: unknown): Validation<WorkerToMainMessage> {
  return validate(REPL_WORKER_MESSAGES, value);
}

/** REPL worker: a message from the main thread. */
export function validateReplHostMessage(value: unknown): Validation<MainToWorkerMessage> {
  return validate(REPL_HOST_MESSAGES, value);
}

// ----- executor protocol ---------------------------------------------------------------------

const EXECUTOR_CHANNELS = new Set(['stdout', 'stderr']);

const EXECUTOR_WORKER_MESSAGES: Readonly<Record<ExecutorToMainMessage['type'], FieldCheck>> = {
  'ready': (message) => first(integer(message, 'protocolVersion', 0), string(message, 'workerId', MAX_ID_LENGTH)),
  'output': (message) => first(
    requestId(message),
    EXECUTOR_CHANNELS.has(message['channel'] as string) ? undefined : 'channel must be stdout or stderr',
    string(message, 'text', MAX_TEXT_LENGTH),
  ),
  'reply': (message) => {
    const tab = message['tab'];
    return first(
      requestId(message),
      boolean(message, 'success'),
      string(message, 'resultJson', MAX_TEXT_LENGTH, true),
      serializedError(message, 'error'),
      string(message, 'stdout', MAX_TEXT_LENGTH),
      string(message, 'stderr', MAX_TEXT_LENGTH),
      boolean(message, 'timedOut', true),
      boolean(message, 'interrupted', true),
      boolean(message, 'tabMissing', true),
      tab === undefined ? undefined
        : !isRecord(tab) ? `tab must be an object, got ${describe(tab)}`
          : first(string(tab, 'targetId', MAX_ID_LENGTH), boolean(tab, 'created'))?.replace(/^/, 'tab.'),
    );
  },
  'endpoint-request': endpointRequest,
  'webmcp-call': webMcpCall,
  'webmcp-abort': callId,
  'human-request': humanRequest,
  'human-abort': callId,
};

const EXECUTOR_HOST_MESSAGES: Readonly<Record<MainToExecutorMessage['type'], FieldCheck>> = {
  'run': (message) => first(
    requestId(message),
    string(message, 'code', LIMITS.encodedRequestBytes),
    integer(message, 'timeoutMs', 1),
    integer(message, 'budgetMs', 1, true),
    string(message, 'targetId', MAX_ID_LENGTH, true),
    boolean(message, 'tabCreated', true),
    identifiers(message, 'foreignTargetIds', MAX_OWNED_TABS),
    identifiers(message, 'ownTargetIds', MAX_OWNED_TABS),
    string(message, 'browserContextId', MAX_ID_LENGTH, true),
    boolean(message, 'streamOutput', true),
  ),
  'interrupt': (message) => first(
    requestId(message),
    message['reason'] === 'timeout' || message['reason'] === 'interrupt' ? undefined : `reason must be timeout or interrupt, got ${describe(message['reason'])}`,
  ),
  'endpoint-reply': endpointReply,
  'webmcp-reply': webMcpReply,
  'human-reply': humanReply,
};

/** Main thread: a message from a Playwright executor worker. */
export function validateExecutorWorkerMessage(value: unknown): Validation<ExecutorToMainMessage> {
  return validate(EXECUTOR_WORKER_MESSAGES, value);
}

/** Executor worker: a message from the main thread. */
export function validateExecutorHostMessage(value: unknown): Validation<MainToExecutorMessage> {
  return validate(EXECUTOR_HOST_MESSAGES, value);
}

