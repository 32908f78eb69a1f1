/**
 * One CDP connection over a {@link Transport}: typed commands with ids and deadlines, event
 * dispatch, the {@link CdpSession}s of the targets it attached, and no promise left hanging when
 * the transport closes or a target detaches. Reconnecting and the retry rule live one level up,
 * in `BrowserLink`; page attach policy in the worker's `CdpClient`.
 */

import { debuglog } from 'node:util';

import { ReplError } from '../errors.js';
import { BOUNDED_SUFFIX, CONNECTION_CLOSED_MESSAGE, OUTCOME_UNKNOWN_SUFFIX, deadlineReachedMessage } from './cdp-errors.js';
import { CdpSession } from './cdp-session.js';
import { isSafeRetryMethod } from './safe-retry-methods.js';

import type { ErrorCode } from '../errors.js';
import type { CdpErrorData } from './cdp-errors.js';
import type { CdpCallOptions, CdpEvent, CdpMethod, CdpParams, CdpResult, SessionInbox } from './cdp-session.js';
import type { Transport, TransportCloseInfo } from './transport.js';

export type { CdpCallOptions, CdpEvent, CdpEventName, CdpEventParams, CdpMethod, CdpParams, CdpResult } from './cdp-session.js';

const debugFrames = debuglog('browser-repl:cdp');

/** Default per-command timeout (docs/architecture.md, "Limits of the CDP layer"). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
// setTimeout overflows above 2^31 - 1 ms and then fires at once.
const MAX_TIMER_MS = 2_147_483_647;
const FRAME_LOG_LIMIT = 1_000;

/**
 * Per-command options of {@link CdpConnection.send}. With a `deadline` the command's timeout is
 * clamped to end at it, and with no time left the command is not sent.
 */
export interface CdpSendOptions extends CdpCallOptions {
  /** Flattened target session; omit for a browser-level command. */
  sessionId?: string | undefined;
}

/** Options of {@link CdpConnection}. */
export interface CdpConnectionOptions {
  defaultTimeoutMs?: number | undefined;
  /**
   * Called for every event (browser-level and of every session), synchronously, in arrival order;
   * a session's own listeners run first.
   */
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
 * Commands of a session whose target detached reject with `REPL_ERR_TARGET_NOT_FOUND`.
 */
export class CdpConnection {
  readonly #transport: Transport;
  readonly #pending = new Map<number, PendingCommand>();
  readonly #sessions = new Map<string, { session: CdpSession; inbox: SessionInbox }>();
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

  /** The open session `sessionId` created by {@link CdpConnection.attachToTarget}, if any. */
  session(sessionId: string): CdpSession | undefined {
    return this.#sessions.get(sessionId)?.session;
  }

  /** Every open session of this connection. */
  get sessions(): CdpSession[] {
    return [...this.#sessions.values()].map((entry) => entry.session);
  }

  /**
   * Attaches `targetId` with a flattened session (`Target.attachToTarget {flatten: true}`) and
   * returns it as a {@link CdpSession}, which from then on receives the events of that session.
   * Rejects like {@link CdpConnection.send}.
   */
  async attachToTarget(targetId: string, options: CdpCallOptions = {}): Promise<CdpSession> {
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true }, options);
    return this.#sessions.get(sessionId)?.session ?? this.#createSession(sessionId, targetId);
  }

  #createSession(sessionId: string, targetId: string): CdpSession {
    let inbox: SessionInbox | undefined;
    const session = new CdpSession(this, { sessionId, targetId }, (given) => {
      inbox = given;
    });
    if (inbox === undefined) throw new Error('CdpSession did not bind its inbox');
    const entry = { session, inbox };
    this.#sessions.set(sessionId, entry);
    session.onClose((reason) => {
      if (this.#sessions.get(sessionId) === entry) this.#sessions.delete(sessionId);
      // `detach()` closes the session when its command is answered, maybe before the event.
      if (reason === 'detached') this.#rejectSession(sessionId);
    });
    // Attached just as the socket died: the session is over before anyone used it.
    if (this.#closeInfo !== undefined) inbox.close('disconnected');
    return session;
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
      if (options.deadline !== undefined) {
        const remaining = options.deadline.remaining();
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
      if (typeof frame.sessionId === 'string') {
        event.sessionId = frame.sessionId;
        // The session's own listeners first (state they keep is current for everyone after them).
        this.#sessions.get(frame.sessionId)?.inbox.event(event);
      }
      if (event.method === 'Target.detachedFromTarget') {
        const { sessionId } = event.params as { sessionId?: unknown };
        this.#rejectSession(sessionId);
        if (typeof sessionId === 'string') this.#sessions.get(sessionId)?.inbox.close('detached');
      }
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
    for (const { inbox } of [...this.#sessions.values()]) inbox.close('disconnected');
    this.#sessions.clear();
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
