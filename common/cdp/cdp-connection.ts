/**
 * One CDP connection over a {@link Transport}: typed commands with ids and deadlines, event
 * dispatch, and no promise left hanging when the transport closes. Retries, sessions and attach
 * policy live one level up, in `CdpClient`.
 */

import { debuglog } from 'node:util';

import { ReplError } from '../errors.js';
import { BOUNDED_SUFFIX, CONNECTION_CLOSED_MESSAGE, OUTCOME_UNKNOWN_SUFFIX, deadlineReachedMessage } from './cdp-errors.js';
import { isSafeRetryMethod } from './safe-retry-methods.js';

import type { ErrorCode } from '../errors.js';
import type { CdpErrorData } from './cdp-errors.js';
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import type { Transport, TransportCloseInfo } from './transport.js';

const debugFrames = debuglog('browser-repl:cdp');

/** Every method of the protocol version this package is typed against. */
export type CdpMethod = keyof ProtocolMapping.Commands;
/** Parameters of `M` (`undefined` for methods without parameters). */
export type CdpParams<M extends CdpMethod> = ProtocolMapping.Commands[M]['paramsType'][0];
/** Result of `M`. */
export type CdpResult<M extends CdpMethod> = ProtocolMapping.Commands[M]['returnType'];
/** Every event of the protocol version this package is typed against. */
export type CdpEventName = keyof ProtocolMapping.Events;
/** Parameters of event `E`; `unknown` for names outside the typed protocol. */
export type CdpEventParams<E extends string> = E extends CdpEventName ? ProtocolMapping.Events[E][0] : unknown;

/** An event as received, stamped with the wall-clock time of receipt (Unix ms). */
export interface CdpEvent<P = unknown> {
  readonly method: string;
  readonly params: P;
  /** Absent for browser-level events. */
  readonly sessionId?: string;
  readonly time: number;
}

/** Default per-command timeout (repl-contract §3). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
/** Commands give up this long before the execution deadline so the cell can still fail cleanly. */
export const COMMAND_DEADLINE_MARGIN_MS = 500;
// setTimeout overflows above 2^31 - 1 ms and then fires at once.
const MAX_TIMER_MS = 2_147_483_647;
const FRAME_LOG_LIMIT = 1_000;

/** Per-command options of {@link CdpConnection.send}. */
export interface CdpSendOptions {
  /** Flattened target session; omit for a browser-level command. */
  sessionId?: string | undefined;
  /** Own timeout; default the connection's (30 s). `Infinity` means "until the deadline". */
  timeoutMs?: number | undefined;
  /**
   * Execution deadline (Unix ms). The command's timeout is clamped to end
   * {@link COMMAND_DEADLINE_MARGIN_MS} before it; with no time left the command is not sent.
   */
  deadlineMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Consulted when the command times out; its result (with a leading space) is appended. */
  timeoutHint?: (() => string | undefined) | undefined;
}

/** Options of {@link CdpConnection}. */
export interface CdpConnectionOptions {
  defaultTimeoutMs?: number | undefined;
  /** Called for every event, synchronously, in arrival order. */
  onEvent?: ((event: CdpEvent) => void) | undefined;
  /** Called once when the connection closes, after every pending command was rejected. */
  onClose?: ((info: TransportCloseInfo) => void) | undefined;
}

interface PendingCommand {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (failure: CommandFailure) => void;
  timer: NodeJS.Timeout | undefined;
  disposeAbort: (() => void) | undefined;
}

/**
 * Why a command failed, as plain data. It becomes a `ReplError` only in {@link settleAtCaller},
 * an async continuation of the caller, so the error's stack is the caller's (V8's async stack
 * trace) without capturing a stack for every command that succeeds.
 */
class CommandFailure {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly data: CdpErrorData,
    readonly cause?: unknown,
  ) {}
}

/**
 * Awaits a command and turns its failure into the error the caller sees. Callers that `await`
 * the command (or pass it through `Promise.race` or `.then(resolve, reject)`) appear on the
 * error's stack as `at async …` frames; this function's own frame is left out.
 */
async function settleAtCaller<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (failure) {
    if (!(failure instanceof CommandFailure)) throw failure;
    const error = new ReplError(failure.code, failure.message, failure.cause === undefined ? { data: failure.data } : { data: failure.data, cause: failure.cause });
    Error.captureStackTrace(error, settleAtCaller);
    throw error;
  }
}

interface IncomingFrame {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  sessionId?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/**
 * A CDP connection. Commands reject with `REPL_ERR_CDP_COMMAND_FAILED` (Chromium answered with an
 * error), `REPL_ERR_CDP_TIMEOUT`, `REPL_ERR_CDP_DEADLINE_REACHED`, `REPL_ERR_ABORTED` or
 * `REPL_ERR_CDP_DISCONNECTED` (`CDP connection closed`); each error's stack is the caller's.
 */
export class CdpConnection {
  readonly #transport: Transport;
  readonly #pending = new Map<number, PendingCommand>();
  readonly #defaultTimeoutMs: number;
  readonly #onEvent: ((event: CdpEvent) => void) | undefined;
  readonly #onClose: ((info: TransportCloseInfo) => void) | undefined;
  #nextId = 1;
  #closeInfo: TransportCloseInfo | undefined;

  constructor(transport: Transport, options: CdpConnectionOptions = {}) {
    this.#transport = transport;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#onEvent = options.onEvent;
    this.#onClose = options.onClose;
    transport.onmessage = (message) => this.#handleMessage(message);
    transport.onclose = (info) => this.#handleClose(info);
  }

  /** True once the transport closed or `close()` was called. */
  get closed(): boolean {
    return this.#closeInfo !== undefined;
  }

  /** Why the connection closed, once it has. */
  get closeInfo(): TransportCloseInfo | undefined {
    return this.#closeInfo;
  }

  /** Number of commands waiting for an answer. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Sends `method` and resolves with its result. A failed command's error is built in an async
   * continuation of the caller, so its stack shows the callers that await it.
   */
  send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpSendOptions = {}): Promise<CdpResult<M>> {
    return settleAtCaller(this.#dispatch(method, params, options));
  }

  #dispatch<M extends CdpMethod>(method: M, params: CdpParams<M> | undefined, options: CdpSendOptions): Promise<CdpResult<M>> {
    return new Promise<unknown>((resolve, reject) => {
      const fail = (code: ErrorCode, message: string, data: Record<string, unknown>, cause?: unknown): void =>
        reject(new CommandFailure(code, message, { method, ...data }, cause));

      if (this.#closeInfo !== undefined) {
        // A dead connection fails fast instead of writing to the socket.
        fail('REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, { connectionClosedBeforeResponse: true, notSent: true, ...closeData(this.#closeInfo) });
        return;
      }
      const { signal } = options;
      if (signal?.aborted === true) {
        fail('REPL_ERR_ABORTED', `CDP ${method} was aborted before it was sent`, {}, signal.reason);
        return;
      }

      const requested = normaliseTimeout(options.timeoutMs, this.#defaultTimeoutMs);
      let timeoutMs = Number.isFinite(requested) ? requested : this.#defaultTimeoutMs;
      let bounded = false;
      if (options.deadlineMs !== undefined) {
        const remaining = options.deadlineMs - COMMAND_DEADLINE_MARGIN_MS - Date.now();
        if (remaining <= 0) {
          fail('REPL_ERR_CDP_DEADLINE_REACHED', deadlineReachedMessage(method), {});
          return;
        }
        if (remaining < requested) {
          timeoutMs = remaining;
          bounded = true;
        }
      }
      timeoutMs = Math.min(Math.max(1, Math.round(timeoutMs)), MAX_TIMER_MS);

      const id = this.#nextId++;
      const frame: { id: number; method: string; params: unknown; sessionId?: string } = { id, method, params: params ?? {} };
      if (options.sessionId !== undefined) frame.sessionId = options.sessionId;
      let text: string;
      try {
        text = JSON.stringify(frame);
      } catch (error) {
        fail('REPL_ERR_CDP_COMMAND_FAILED', `CDP ${method} failed: its parameters are not JSON-serialisable (${(error as Error).message})`, {}, error);
        return;
      }
      try {
        this.#transport.send(text);
      } catch (error) {
        // The socket is closing (its peer died) but has not emitted 'close' yet. The connection is
        // over now: closing it here makes a retry reconnect instead of writing into the same
        // socket again. Never written, so the caller may retry any method.
        this.#abandon({ code: 1006, reason: 'the socket stopped accepting writes', error: error as Error });
        fail('REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, { connectionClosedBeforeResponse: true, notSent: true }, error);
        return;
      }
      if (debugFrames.enabled) debugFrames('SEND %s', truncate(text));

      const pending: PendingCommand = { method, sessionId: options.sessionId, resolve, reject, timer: undefined, disposeAbort: undefined };
      this.#pending.set(id, pending);
      pending.timer = setTimeout(() => {
        this.#settle(id);
        const unsafe = !isSafeRetryMethod(method);
        const message =
          `CDP ${method} timed out after ${timeoutMs}ms` +
          (bounded ? BOUNDED_SUFFIX : '') +
          (options.timeoutHint?.() ?? '') +
          (unsafe ? OUTCOME_UNKNOWN_SUFFIX : '');
        fail('REPL_ERR_CDP_TIMEOUT', message, { timeoutMs, boundedByDeadline: bounded, outcomeUnknown: unsafe });
      }, timeoutMs);
      pending.timer.unref();
      if (signal !== undefined) {
        const onAbort = (): void => {
          this.#settle(id);
          // A late reply to this id is dropped; the command itself may still run in the browser.
          fail('REPL_ERR_ABORTED', `CDP ${method} was aborted` + (isSafeRetryMethod(method) ? '' : ' (outcome unknown)'), {}, signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        pending.disposeAbort = () => signal.removeEventListener('abort', onAbort);
      }
    }) as Promise<CdpResult<M>>;
  }

  /** Closes the transport; every pending command rejects with `CDP connection closed`. Idempotent. */
  close(): void {
    this.#abandon({ code: 1000, reason: 'closed by the client' });
  }

  /** Stops listening to the transport, closes it, and rejects what is pending with `info`. */
  #abandon(info: TransportCloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#transport.onmessage = undefined;
    this.#transport.onclose = undefined;
    this.#transport.close();
    this.#handleClose(info);
  }

  /** Removes the pending entry and its timer/listener; returns it if it was still pending. */
  #settle(id: number): PendingCommand | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.disposeAbort?.();
    return pending;
  }

  #handleMessage(text: string): void {
    if (debugFrames.enabled) debugFrames('RECV %s', truncate(text));
    let frame: IncomingFrame;
    try {
      frame = JSON.parse(text) as IncomingFrame;
    } catch {
      return; // Not CDP; nothing can be matched to it.
    }
    if (typeof frame !== 'object' || frame === null) return;
    if (typeof frame.id === 'number') {
      const pending = this.#settle(frame.id);
      // Unknown ids are late replies to commands that timed out or were aborted: dropped.
      if (pending === undefined) return;
      if (frame.error !== undefined && frame.error !== null) {
        const { code, message, data } = frame.error;
        const text = typeof message === 'string' ? message : 'unknown error';
        // Chromium puts the useful part of "Invalid parameters" errors in `data`.
        const detail = typeof data === 'string' && data !== '' ? `: ${data}` : '';
        pending.reject(
          new CommandFailure('REPL_ERR_CDP_COMMAND_FAILED', `CDP ${pending.method} failed: ${text}${detail} (code ${String(code)})`, {
            method: pending.method,
            cdpCode: code,
            cdpMessage: text,
            cdpData: data,
          }),
        );
        return;
      }
      pending.resolve(frame.result ?? {});
      return;
    }
    if (typeof frame.method === 'string') {
      const event: { method: string; params: unknown; sessionId?: string; time: number } = {
        method: frame.method,
        params: frame.params ?? {},
        time: Date.now(),
      };
      if (typeof frame.sessionId === 'string') event.sessionId = frame.sessionId;
      if (event.method === 'Target.detachedFromTarget') this.#rejectSession((event.params as { sessionId?: unknown }).sessionId);
      try {
        this.#onEvent?.(event);
      } catch (error) {
        // One faulty listener must not stop the stream for everyone else.
        debugFrames('event handler threw on %s: %s', event.method, (error as Error).stack ?? String(error));
      }
    }
  }

  /**
   * Chromium never answers the commands of a session whose target closed or detached (a tab
   * closed mid-`js()`): they would wait for their deadline. Rejected here instead.
   */
  #rejectSession(sessionId: unknown): void {
    if (typeof sessionId !== 'string') return;
    for (const [id, command] of [...this.#pending]) {
      if (command.sessionId !== sessionId) continue;
      this.#settle(id);
      command.reject(
        new CommandFailure(
          'REPL_ERR_TARGET_NOT_FOUND',
          `CDP ${command.method} got no answer: its target closed or was detached while the command was pending`,
          { method: command.method, sessionId, targetDetached: true },
        ),
      );
    }
  }

  #handleClose(info: TransportCloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#closeInfo = info;
    const pending = [...this.#pending.keys()];
    for (const id of pending) {
      const command = this.#settle(id);
      if (command === undefined) continue;
      command.reject(
        new CommandFailure('REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, { method: command.method, connectionClosedBeforeResponse: true, ...closeData(info) }, info.error),
      );
    }
    this.#onClose?.(info);
  }
}

function closeData(info: TransportCloseInfo): Record<string, unknown> {
  return { closeCode: info.code, closeReason: info.reason };
}

function normaliseTimeout(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value) || value < 0) return fallback;
  return value;
}

function truncate(text: string): string {
  return text.length <= FRAME_LOG_LIMIT ? text : `${text.slice(0, FRAME_LOG_LIMIT)}… (${text.length} chars)`;
}
