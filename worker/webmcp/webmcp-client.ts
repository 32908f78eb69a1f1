/**
 * The `webmcp` object of cells and executor code: page-declared tools (WebMCP, docs/webmcp.md),
 * listed and invoked through the main thread, which owns the browser's one WebMCP monitor. Its
 * shapes, defaults and errors are the hosted product's (Kernel's REPL client), so code written for
 * one runs on the other.
 *
 * Every call belongs to the cell (or executor call) that made it (cell-scope.ts): when the cell
 * ends, its unfinished calls are aborted (`webmcp-abort`; the main thread stops waiting and the
 * page's invocation is cancelled, best effort), and a call from code the cell left behind fails
 * at once. The arguments are checked here, before anything crosses the thread, with the limits of
 * `POST /webmcp/invoke`.
 */
import { askedOf } from '../../common/trace/trace-recorder.js';
import type { TraceRecorder } from '../../common/trace/trace-recorder.js';
import { httpStatusOf, isErrorCode } from '../../common/errors.js';
import type { ErrorCode, SerializedError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import type {
  WebMcpAbortMessage, WebMcpCallMessage, WebMcpInvocation, WebMcpReplyMessage, WebMcpTool,
} from '../../common/protocol/webmcp-messages.js';
import { ArrayIsArray, BufferByteLength, JSONStringify, ObjectFreeze, PromisePrototypeThen } from '../output/primordials.js';
import type { CellScope } from './cell-scope.js';

/** Kernel's code for an unknown outcome; every other failure carries the registry code as its `code`. */
const OUTCOME_UNKNOWN = 'outcome_unknown';

/** The JSON body the HTTP route answers for the same failure. */
export interface WebMcpErrorBody {
  message: string;
  code: string;
  invocation_id?: string;
}

/**
 * A failed `webmcp.listTools()` or `webmcp.invokeTool()`, as Kernel's REPL client throws it. The
 * message carries the code and the invocation id, because some transports pass on only a message.
 */
export class WebMCPRequestError extends Error {
  /** The HTTP status `GET /webmcp/tools` or `POST /webmcp/invoke` would answer: 400, 404, 409, 504, … */
  readonly statusCode: number;
  /** Kernel's code: `outcome_unknown` for an outcome that could not be observed, else the registry code. */
  readonly code: string;
  /** The registry code (docs/errors.md), also for an unknown outcome (`REPL_ERR_WEBMCP_OUTCOME_UNKNOWN`). */
  readonly errorCode: ErrorCode;
  /** The page's invocation id, when the invocation got as far as having one. */
  readonly invocationId: string | undefined;
  readonly body: WebMcpErrorBody;

  constructor(failure: { statusCode: number; errorCode: ErrorCode; detail: string; invocationId?: string | undefined }) {
    const code = failure.errorCode === 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN' ? OUTCOME_UNKNOWN : failure.errorCode;
    super(failure.invocationId === undefined
      ? `WebMCP ${code}: ${failure.detail}`
      : `WebMCP ${code}, invocation ${failure.invocationId}: ${failure.detail}`);
    this.name = 'WebMCPRequestError';
    this.statusCode = failure.statusCode;
    this.code = code;
    this.errorCode = failure.errorCode;
    this.invocationId = failure.invocationId;
    this.body = { message: failure.detail, code, ...(failure.invocationId === undefined ? {} : { invocation_id: failure.invocationId }) };
  }
}

/** `webmcp.listTools` options; `excludeCustom` (Kernel's) is accepted and changes nothing, as there are no custom tools. */
export interface ListToolsOptions {
  excludeCustom?: boolean;
}

export interface InvokeToolOptions {
  /** 1..120 seconds, default 60: how long the page has to answer before the outcome is unknown. */
  timeoutSec?: number;
}

/** The frozen object cells and executor code know as `webmcp`. */
export interface WebMcpClient {
  listTools(options?: ListToolsOptions): Promise<WebMcpTool[]>;
  invokeTool(toolRef: string, input?: unknown, options?: InvokeToolOptions): Promise<WebMcpInvocation>;
}

export interface WebMcpClientOptions {
  /** Posts a call or an abort to the main thread. */
  post: (message: WebMcpCallMessage | WebMcpAbortMessage) => void;
  /** The scope of the code calling right now (cell-scope.ts `currentCellScope`). */
  currentScope: () => CellScope | undefined;
  /** The REPL's trace of actions (docs/trace.md): each `invokeTool` is one action of it. */
  trace?: TraceRecorder | undefined;
}

/** The client, and where the worker's loop hands it the main thread's (validated) replies. */
export interface WebMcpBridge {
  readonly client: WebMcpClient;
  receive(reply: WebMcpReplyMessage): void;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (ArrayIsArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function invalid(detail: string): WebMCPRequestError {
  return new WebMCPRequestError({ statusCode: httpStatusOf('REPL_ERR_INVALID_REQUEST'), errorCode: 'REPL_ERR_INVALID_REQUEST', detail });
}

function checkToolRef(toolRef: unknown): string {
  if (typeof toolRef !== 'string') throw invalid(`tool_ref must be a string, got ${describe(toolRef)}`);
  const max = LIMITS.webmcpToolRefMaxChars;
  // In code points, as Kernel counts them (Go runes).
  let chars = 0;
  for (const _ of toolRef) chars++;
  if (chars < 1 || chars > max) throw invalid(`tool_ref must be 1 to ${max} characters long, got ${chars}`);
  return toolRef;
}

/** The input's JSON, checked as `POST /webmcp/invoke` checks its `input`. */
function inputJson(input: unknown): string {
  if (typeof input !== 'object' || input === null || ArrayIsArray(input)) throw invalid(`input must be an object, got ${describe(input)}`);
  let json: unknown;
  try {
    json = JSONStringify(input);
  } catch (error) {
    throw invalid(`input cannot be serialised as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  // `toJSON` may turn an object into anything else.
  if (typeof json !== 'string' || !json.startsWith('{')) throw invalid('input must serialise to a JSON object');
  const bytes = BufferByteLength(json, 'utf8');
  if (bytes > LIMITS.webmcpInputBytes) {
    throw invalid(`input is too large: its JSON is ${bytes} bytes, at most ${LIMITS.webmcpInputBytes} are allowed`);
  }
  return json;
}

function checkOptions(options: unknown): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || ArrayIsArray(options)) throw invalid(`options must be an object, got ${describe(options)}`);
  return options as Record<string, unknown>;
}

function checkTimeoutSec(timeoutSec: unknown): number | undefined {
  if (timeoutSec === undefined) return undefined;
  const { webmcpTimeoutSecMin: min, webmcpTimeoutSecMax: max } = LIMITS;
  if (typeof timeoutSec !== 'number' || !Number.isInteger(timeoutSec) || timeoutSec < min || timeoutSec > max) {
    throw invalid(`timeout_sec must be an integer from ${min} to ${max}, got ${typeof timeoutSec === 'number' ? timeoutSec : describe(timeoutSec)}`);
  }
  return timeoutSec;
}

/** The main thread's error reply as the cell sees it. */
function requestError(error: SerializedError): WebMCPRequestError {
  const errorCode: ErrorCode = isErrorCode(error.code) ? error.code : 'REPL_ERR_INTERNAL';
  const status = error.data?.['statusCode'];
  const invocationId = error.data?.['invocationId'];
  return new WebMCPRequestError({
    statusCode: typeof status === 'number' ? status : httpStatusOf(errorCode),
    errorCode,
    detail: error.message,
    invocationId: typeof invocationId === 'string' ? invocationId : undefined,
  });
}

/** Creates the `webmcp` client of one worker; see the module comment. */
export function createWebMcpClient(options: WebMcpClientOptions): WebMcpBridge {
  const { post, currentScope } = options;
  /** Calls waiting for their reply, by callId; a reply for any other id (an aborted call's) is dropped. */
  const pending = new Map<number, (reply: WebMcpReplyMessage) => void>();
  let nextCallId = 1;

  /** Throws when the calling code belongs to no running cell; see {@link silent} for `orphaned`. */
  function activeScope(orphaned: () => void): CellScope {
    const scope = currentScope();
    if (scope === undefined || scope.ended) orphaned();
    if (scope === undefined) throw invalid('webmcp is only available while a cell runs');
    if (scope.ended) {
      throw invalid('webmcp is only available while a cell runs: the cell that started this code (a timer, a callback or a promise it left behind) has finished');
    }
    return scope;
  }

  /** Posts one call; resolves with its reply, or with undefined when its scope ended first (the call is then aborted). */
  function send(scope: CellScope, call: Omit<WebMcpCallMessage, 'type' | 'callId'>): Promise<WebMcpReplyMessage | undefined> {
    const callId = nextCallId++;
    return new Promise((resolve) => {
      const untrack = scope.track(() => {
        pending.delete(callId);
        post({ type: 'webmcp-abort', callId } satisfies WebMcpAbortMessage);
        resolve(undefined);
      });
      pending.set(callId, (reply) => {
        untrack();
        resolve(reply);
      });
      post({ type: 'webmcp-call', callId, ...call } satisfies WebMcpCallMessage);
    });
  }

  // Async functions, and their errors made after the await: V8's async stack trace then names the
  // cell's own functions that awaited the call (house style point 8).
  async function listTools(listOptions: unknown, orphaned: () => void): Promise<WebMcpTool[]> {
    const scope = activeScope(orphaned);
    checkOptions(listOptions);
    const reply = await send(scope, { operation: 'list' });
    if (reply === undefined) {
      // Made before `orphaned` adds its reaction: V8 then still walks to the awaiting caller.
      const error = new WebMCPRequestError({
        statusCode: httpStatusOf('REPL_ERR_ABORTED'),
        errorCode: 'REPL_ERR_ABORTED',
        detail: 'the cell that started this listing finished before it answered',
      });
      orphaned();
      throw error;
    }
    if (reply.error !== undefined) throw requestError(reply.error);
    if (reply.tools === undefined) throw new Error('WebMCP: the answer to listTools is invalid (it holds no tools)');
    return reply.tools;
  }

  async function invokeTool(toolRef: unknown, input: unknown, invokeOptions: unknown, orphaned: () => void): Promise<WebMcpInvocation> {
    const scope = activeScope(orphaned);
    const call: Omit<WebMcpCallMessage, 'type' | 'callId'> = { operation: 'invoke', toolRef: checkToolRef(toolRef), inputJson: inputJson(input) };
    const timeoutSec = checkTimeoutSec(checkOptions(invokeOptions)['timeoutSec']);
    if (timeoutSec !== undefined) call.timeoutSec = timeoutSec;
    const reply = await send(scope, call);
    if (reply === undefined) {
      const error = new WebMCPRequestError({
        statusCode: httpStatusOf('REPL_ERR_WEBMCP_OUTCOME_UNKNOWN'),
        errorCode: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN',
        detail: 'the cell that started this call finished before it answered; the page tool may still run',
      });
      orphaned();
      throw error;
    }
    if (reply.error !== undefined) throw requestError(reply.error);
    if (reply.invocation === undefined) throw new Error('WebMCP: the answer to invokeTool is invalid (it holds no invocation)');
    return reply.invocation;
  }

  /**
   * Runs one call, giving it `orphaned`: called before it fails for a reason that belongs to a
   * cell already over (it ended before the answer, or the call came from a timer or callback the
   * cell left behind). Such a rejection is marked handled, since nobody can still await it in a
   * running cell and Node's unhandled-rejection report would land in whatever cell runs then. A
   * cell that does await it still gets the rejection. Other failures stay as they are: a running
   * cell that ignores one hears of it in its own output, and a promise with one reaction only
   * keeps V8's async stack trace, which stops at a promise with two.
   */
  function silent<T>(call: (orphaned: () => void) => Promise<T>): Promise<T> {
    let promise: Promise<T> | undefined;
    let orphanedEarly = false;
    promise = call(() => {
      if (promise === undefined) orphanedEarly = true;
      else PromisePrototypeThen(promise, undefined, () => {});
    });
    // Failing before its first await, the call gave its verdict before `promise` existed.
    if (orphanedEarly) PromisePrototypeThen(promise, undefined, () => {});
    return promise;
  }

  const client: WebMcpClient = ObjectFreeze({
    listTools(listOptions?: ListToolsOptions): Promise<WebMcpTool[]> {
      return silent((orphaned) => listTools(listOptions, orphaned));
    },
    invokeTool(toolRef: string, input: unknown = {}, invokeOptions?: InvokeToolOptions): Promise<WebMcpInvocation> {
      const { trace } = options;
      if (trace === undefined) return silent((orphaned) => invokeTool(toolRef, input, invokeOptions, orphaned));
      const start = { source: 'cell' as const, action: 'webmcp' as const, asked: askedOf('webmcp.invokeTool', [toolRef, input]), args: { tool: toolRef } };
      return silent((orphaned) => trace.run(start, () => invokeTool(toolRef, input, invokeOptions, orphaned)));
    },
  });

  return {
    client,
    receive(reply) {
      const settle = pending.get(reply.callId);
      if (settle === undefined) return;
      pending.delete(reply.callId);
      settle(reply);
    },
  };
}
