/**
 * The calls a REPL or executor worker makes to the main thread about its browser, answered beside
 * whatever request is pending: `endpoint-request` (where to connect, which tab is its own) and
 * `webmcp-call` / `webmcp-abort` (list or invoke page tools, common/protocol/webmcp-messages.ts)
 * and `human-request` / `human-abort` (hand over to a person, common/protocol/human-messages.ts).
 * Both kinds of worker install one {@link BrowserCalls} on their `WorkerHandle` through its
 * `calls` hook; the handle itself only routes the message types named here and says when the
 * thread ends.
 *
 * WebMCP calls and hand-over requests are cancellable: each has an AbortSignal of its own,
 * aborted by the worker's `webmcp-abort` / `human-abort` and by the end of the thread.
 */
import { httpStatusOf, ReplError, toSerialized } from '../../common/errors.js';
import type { SerializedError } from '../../common/errors.js';
import type { AttachedMessage, EndpointReplyMessage, EndpointRequestMessage } from '../../common/protocol/repl-messages.js';
import type {
  WebMcpAbortMessage, WebMcpCallMessage, WebMcpInvocation, WebMcpReplyMessage, WebMcpTool,
} from '../../common/protocol/webmcp-messages.js';
import type { HumanAbortMessage, HumanReplyMessage, HumanRequestMessage } from '../../common/protocol/human-messages.js';
import type { WorkerCallChannel, WorkerCalls, WorkerMessage } from './worker-handle.js';

/**
 * What an endpoint answerer may answer beyond the bare endpoint: the fields of the reply message
 * (the tab the worker owns, the tabs others own, its own browser context, its download folders).
 */
export type EndpointAnswer = { endpoint: string } & Pick<EndpointReplyMessage, 'targetId' | 'tabOwners' | 'browserContextId' | 'downloads'>;

/** Answers a worker's `endpoint-request`; a rejection is sent back as a `SerializedError`. */
export type EndpointAnswerer = (message: EndpointRequestMessage) => Promise<string | EndpointAnswer>;

/**
 * Answers a worker's `webmcp-call`: lists or invokes page tools (lib/webmcp) for the cell or call
 * that asked. `signal` aborts when the worker gives up on the call (its cell ended) or the thread
 * ends. A rejection is sent back as a `SerializedError` with `data.statusCode`.
 */
export type WebMcpCallHandler = (call: WebMcpCallMessage, signal: AbortSignal) => Promise<{ tools: WebMcpTool[] } | { invocation: WebMcpInvocation }>;

/**
 * Most WebMCP calls one worker may have in flight; one more is answered `REPL_ERR_CONFLICT` (the
 * cell sees a 409), not treated as a protocol violation: a cell may well start many at once.
 */
export const MAX_WEBMCP_CALLS_IN_FLIGHT = 64;

/**
 * Answers a worker's `human-request` (docs/live-view.md#hand-over): shows the message to the live
 * view's viewers and resolves with the person's answer. `signal` aborts when the worker gives up
 * (its cell ended or was interrupted) or the thread ends; the request must then leave the view.
 */
export type HumanRequestHandler = (call: HumanRequestMessage, signal: AbortSignal) => Promise<{ reply: string; by?: string }>;

/** Most hand-over requests one worker may have pending; one more is answered `REPL_ERR_CONFLICT`. */
export const MAX_HUMAN_REQUESTS_IN_FLIGHT = 8;

const CALL_TYPES: ReadonlySet<string> = new Set(['endpoint-request', 'attached', 'webmcp-call', 'webmcp-abort', 'human-request', 'human-abort']);

export interface BrowserCallsOptions {
  /** Answers the worker's `endpoint-request`s. */
  onEndpointRequest: EndpointAnswerer;
  /** Answers the worker's `webmcp-call`s; absent: each is answered `REPL_ERR_BROWSER_NOT_FOUND`. */
  onWebMcpCall?: WebMcpCallHandler | undefined;
  /** Answers the worker's `human-request`s; absent: each is answered `REPL_ERR_BROWSER_NOT_FOUND`. */
  onHumanRequest?: HumanRequestHandler | undefined;
  /** Told the worker's `attached` notices (the tab it drives now); absent: they are dropped. */
  onAttached?: ((targetId: string) => void) | undefined;
}

/** The browser calls of one worker; see the module comment. */
export class BrowserCalls implements WorkerCalls {
  readonly types = CALL_TYPES;
  #onEndpointRequest: EndpointAnswerer;
  #onWebMcpCall: WebMcpCallHandler | undefined;
  #onHumanRequest: HumanRequestHandler | undefined;
  #onAttached: ((targetId: string) => void) | undefined;
  #channel: WorkerCallChannel | undefined;
  /** The worker's WebMCP calls still being answered, by its `callId`. */
  readonly #webMcpCalls = new Map<number, AbortController>();
  /** The worker's hand-over requests still pending, by its `callId`. */
  readonly #humanCalls = new Map<number, AbortController>();

  constructor(options: BrowserCallsOptions) {
    this.#onEndpointRequest = options.onEndpointRequest;
    this.#onWebMcpCall = options.onWebMcpCall;
    this.#onHumanRequest = options.onHumanRequest;
    this.#onAttached = options.onAttached;
  }

  /**
   * Sets who answers from now on: a REPL worker learns it when a REPL takes it (a warm spare has
   * no one to ask yet). Calls already in flight keep the answerer they started with.
   */
  answerWith(answerers: {
    onEndpointRequest?: EndpointAnswerer | undefined; onWebMcpCall: WebMcpCallHandler | undefined;
    onHumanRequest?: HumanRequestHandler | undefined; onAttached?: ((targetId: string) => void) | undefined;
  }): void {
    if (answerers.onEndpointRequest !== undefined) this.#onEndpointRequest = answerers.onEndpointRequest;
    this.#onWebMcpCall = answerers.onWebMcpCall;
    this.#onHumanRequest = answerers.onHumanRequest;
    this.#onAttached = answerers.onAttached;
  }

  attach(channel: WorkerCallChannel): void {
    this.#channel = channel;
  }

  receive(message: WorkerMessage): void {
    if (message.type === 'endpoint-request') void this.#answerEndpoint(message as EndpointRequestMessage);
    else if (message.type === 'attached') this.#onAttached?.((message as AttachedMessage).targetId);
    else if (message.type === 'webmcp-call') this.#startWebMcpCall(message as WebMcpCallMessage);
    else if (message.type === 'webmcp-abort') this.#abortWebMcpCall(message as WebMcpAbortMessage);
    else if (message.type === 'human-request') this.#startHumanRequest(message as HumanRequestMessage);
    else if (message.type === 'human-abort') this.#abortHumanRequest(message as HumanAbortMessage);
  }

  abandon(reason: string): void {
    const controllers = [...this.#webMcpCalls.values(), ...this.#humanCalls.values()];
    this.#webMcpCalls.clear();
    this.#humanCalls.clear();
    for (const controller of controllers) controller.abort(new ReplError('REPL_ERR_ABORTED', reason));
  }

  #reply(message: EndpointReplyMessage | WebMcpReplyMessage | HumanReplyMessage): void {
    this.#channel?.reply(message);
  }

  async #answerEndpoint(message: EndpointRequestMessage): Promise<void> {
    const { requestId } = message;
    let reply: EndpointReplyMessage;
    try {
      const answer = await this.#onEndpointRequest(message);
      reply = typeof answer === 'string'
        ? { type: 'endpoint-reply', requestId, endpoint: answer }
        : {
          type: 'endpoint-reply',
          requestId,
          endpoint: answer.endpoint,
          ...(answer.targetId === undefined ? {} : { targetId: answer.targetId }),
          ...(answer.tabOwners === undefined ? {} : { tabOwners: answer.tabOwners }),
          ...(answer.browserContextId === undefined ? {} : { browserContextId: answer.browserContextId }),
          ...(answer.downloads === undefined ? {} : { downloads: answer.downloads }),
        };
    } catch (error) {
      reply = { type: 'endpoint-reply', requestId, error: toSerialized(error) };
    }
    this.#reply(reply);
  }

  #startWebMcpCall(call: WebMcpCallMessage): void {
    const { callId } = call;
    // The worker numbers its calls itself and never reuses a number: a repeat is corruption.
    if (this.#webMcpCalls.has(callId)) {
      this.#channel?.malformed(`webmcp-call ${callId} while a call with that id is in flight`);
      return;
    }
    if (this.#webMcpCalls.size >= MAX_WEBMCP_CALLS_IN_FLIGHT) {
      const error = new ReplError('REPL_ERR_CONFLICT',
        `at most ${MAX_WEBMCP_CALLS_IN_FLIGHT} webmcp calls may be in flight at once; await some before starting more`);
      this.#reply({ type: 'webmcp-reply', callId, error: serializedWebMcpError(error) });
      return;
    }
    const controller = new AbortController();
    this.#webMcpCalls.set(callId, controller);
    void this.#answerWebMcpCall(call, controller);
  }

  async #answerWebMcpCall(call: WebMcpCallMessage, controller: AbortController): Promise<void> {
    const { callId } = call;
    let reply: WebMcpReplyMessage;
    try {
      const handler = this.#onWebMcpCall;
      if (handler === undefined) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'no page tools (WebMCP) here: this worker was given no browser to ask');
      const answer = await handler(call, controller.signal);
      reply = 'tools' in answer
        ? { type: 'webmcp-reply', callId, tools: answer.tools }
        : { type: 'webmcp-reply', callId, invocation: answer.invocation };
    } catch (error) {
      reply = { type: 'webmcp-reply', callId, error: serializedWebMcpError(error) };
    }
    // A call the worker aborted, or one of a thread that ended, has no one waiting for its reply.
    if (this.#webMcpCalls.get(callId) !== controller) return;
    this.#webMcpCalls.delete(callId);
    this.#reply(reply);
  }

  /** A hand-over request: the same rules as a WebMCP call (the worker's own ids, a repeat is corruption). */
  #startHumanRequest(call: HumanRequestMessage): void {
    const { callId } = call;
    if (this.#humanCalls.has(callId)) {
      this.#channel?.malformed(`human-request ${callId} while a request with that id is pending`);
      return;
    }
    if (this.#humanCalls.size >= MAX_HUMAN_REQUESTS_IN_FLIGHT) {
      const error = new ReplError('REPL_ERR_CONFLICT', `at most ${MAX_HUMAN_REQUESTS_IN_FLIGHT} requestHuman calls may be pending at once`);
      this.#reply({ type: 'human-reply', callId, error: toSerialized(error) });
      return;
    }
    const controller = new AbortController();
    this.#humanCalls.set(callId, controller);
    void this.#answerHumanRequest(call, controller);
  }

  async #answerHumanRequest(call: HumanRequestMessage, controller: AbortController): Promise<void> {
    const { callId } = call;
    let reply: HumanReplyMessage;
    try {
      const handler = this.#onHumanRequest;
      if (handler === undefined) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'requestHuman needs a browser with a live view: this worker was given none');
      const answer = await handler(call, controller.signal);
      reply = { type: 'human-reply', callId, answer: answer.by === undefined ? { reply: answer.reply } : { reply: answer.reply, by: answer.by } };
    } catch (error) {
      reply = { type: 'human-reply', callId, error: toSerialized(error) };
    }
    // Aborted by the worker, or the thread ended: nobody waits for this reply.
    if (this.#humanCalls.get(callId) !== controller) return;
    this.#humanCalls.delete(callId);
    this.#reply(reply);
  }

  #abortHumanRequest(message: HumanAbortMessage): void {
    const controller = this.#humanCalls.get(message.callId);
    if (controller === undefined) return;
    this.#humanCalls.delete(message.callId);
    controller.abort(new ReplError('REPL_ERR_ABORTED', 'the cell that asked finished'));
  }

  /** An abort of a call that was answered a moment ago (the messages crossed) is no error. */
  #abortWebMcpCall(message: WebMcpAbortMessage): void {
    const controller = this.#webMcpCalls.get(message.callId);
    if (controller === undefined) return;
    this.#webMcpCalls.delete(message.callId);
    controller.abort(new ReplError('REPL_ERR_ABORTED', 'the cell that made this call finished'));
  }
}

/** A failed WebMCP call as it crosses: the registry's error plus the HTTP status the routes would answer. */
function serializedWebMcpError(error: unknown): SerializedError {
  const serialized = toSerialized(error);
  const statusCode = error instanceof ReplError ? httpStatusOf(error.code) : 500;
  serialized.data = { ...serialized.data, statusCode };
  return serialized;
}
