/**
 * One attached target as an object (Playwright's `CRSession` is the model): commands on its
 * flattened session, its own event listeners, and a `closed` state after which it fails fast.
 * Sessions are created and fed by the `CdpConnection` they belong to
 * (`connection.attachToTarget(targetId)`); this file also declares the protocol types both share.
 *
 * A session closes once: `detached` (its target closed, crashed or was detached:
 * `Target.detachedFromTarget`, or `detach()`), or `disconnected` (its connection closed). Its
 * pending commands are rejected then (`REPL_ERR_TARGET_NOT_FOUND` or `REPL_ERR_CDP_DISCONNECTED`),
 * and later commands fail without being written to the socket.
 */

import { debuglog } from 'node:util';

import { ReplError } from '../errors.js';

import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import type { DeadlineOptions } from './deadline.js';

const debug = debuglog('browser-repl:cdp');

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

/** Per-command options of {@link CdpSession.send} (and, with a session id, `CdpConnection.send`). */
export interface CdpCallOptions extends DeadlineOptions {
  /** Own timeout; default the connection's (30 s). `Infinity` means "until the deadline". */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Consulted when the command times out; its result (with a leading space) is appended. */
  timeoutHint?: (() => string | undefined) | undefined;
}

/** Why a session closed. */
export type SessionCloseReason = 'detached' | 'disconnected';

/** What a session needs from its connection; `CdpConnection` is one. */
export interface SessionChannel {
  send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options?: CdpCallOptions & { sessionId?: string | undefined }): Promise<CdpResult<M>>;
}

/** How the connection feeds a session it created; handed out once, through the constructor. */
export interface SessionInbox {
  /** An event of this session. */
  event(event: CdpEvent): void;
  /** The session is over. Idempotent. */
  close(reason: SessionCloseReason): void;
}

type Listener = (event: CdpEvent) => void;

/** A flattened CDP session on one target. Create with `CdpConnection.attachToTarget`. */
export class CdpSession {
  readonly sessionId: string;
  readonly targetId: string;
  readonly #channel: SessionChannel;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #anyListeners = new Set<Listener>();
  readonly #closeListeners = new Set<(reason: SessionCloseReason) => void>();
  #closeReason: SessionCloseReason | undefined;

  /**
   * @param bind receives the {@link SessionInbox} through which the owning connection delivers
   *   this session's events and its end.
   */
  constructor(channel: SessionChannel, ids: { sessionId: string; targetId: string }, bind: (inbox: SessionInbox) => void) {
    this.#channel = channel;
    this.sessionId = ids.sessionId;
    this.targetId = ids.targetId;
    bind({ event: (event) => this.#emit(event), close: (reason) => this.#close(reason) });
  }

  /** True once the target detached (closed, crashed, or `detach()`). */
  get detached(): boolean {
    return this.#closeReason === 'detached';
  }

  /** True once the session is over: detached, or its connection closed. */
  get closed(): boolean {
    return this.#closeReason !== undefined;
  }

  /** Why the session closed, once it has. */
  get closeReason(): SessionCloseReason | undefined {
    return this.#closeReason;
  }

  /**
   * Sends `method` on this session. Rejects like `CdpConnection.send`; once the target detached it
   * fails at once with `REPL_ERR_TARGET_NOT_FOUND` without writing anything, and once the
   * connection closed with `REPL_ERR_CDP_DISCONNECTED`. Errors carry the caller's stack.
   */
  send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpCallOptions = {}): Promise<CdpResult<M>> {
    if (this.#closeReason === 'detached') {
      const error = new ReplError('REPL_ERR_TARGET_NOT_FOUND', `CDP ${method} could not run: its target closed or was detached; attach the target again`, {
        data: { method, sessionId: this.sessionId, targetId: this.targetId, targetDetached: true, notSent: true },
      });
      Error.captureStackTrace(error, this.send);
      return Promise.reject(error);
    }
    // A closed connection fails fast itself (REPL_ERR_CDP_DISCONNECTED, notSent).
    return this.#channel.send(method, params, { ...options, sessionId: this.sessionId });
  }

  /**
   * Calls `listener` for every `method` event of this session, synchronously, in arrival order.
   * Returns the disposer.
   */
  on<E extends string>(method: E, listener: (event: CdpEvent<CdpEventParams<E>>) => void): () => void {
    let set = this.#listeners.get(method);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(method, set);
    }
    const entry = listener as Listener;
    const listeners = set;
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
      if (listeners.size === 0 && this.#listeners.get(method) === listeners) this.#listeners.delete(method);
    };
  }

  /** Calls `listener` for every event of this session (after the per-method listeners). Returns the disposer. */
  onAny(listener: (event: CdpEvent) => void): () => void {
    this.#anyListeners.add(listener);
    return () => this.#anyListeners.delete(listener);
  }

  /**
   * Calls `listener` once when the session closes. On a session that is already closed it is
   * called on a microtask, so nobody misses the end. Returns the disposer.
   */
  onClose(listener: (reason: SessionCloseReason) => void): () => void {
    const reason = this.#closeReason;
    if (reason !== undefined) {
      let disposed = false;
      queueMicrotask(() => {
        if (!disposed) listener(reason);
      });
      return () => {
        disposed = true;
      };
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /**
   * Detaches from the target (`Target.detachFromTarget`, browser-level) and closes the session.
   * Nothing to do when it is closed already.
   */
  async detach(options: CdpCallOptions = {}): Promise<void> {
    if (this.#closeReason !== undefined) return;
    await this.#channel.send('Target.detachFromTarget', { sessionId: this.sessionId }, options);
    this.#close('detached');
  }

  /** Same as {@link CdpSession.detach}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.detach();
  }

  #emit(event: CdpEvent): void {
    if (this.#closeReason !== undefined) return;
    const listeners = this.#listeners.get(event.method);
    if (listeners !== undefined) for (const listener of [...listeners]) this.#call(listener, event);
    for (const listener of [...this.#anyListeners]) this.#call(listener, event);
  }

  #call(listener: Listener, event: CdpEvent): void {
    try {
      listener(event);
    } catch (error) {
      // One faulty listener must not stop the stream for everyone else.
      debug('session %s listener threw on %s: %s', this.sessionId, event.method, (error as Error).stack ?? String(error));
    }
  }

  #close(reason: SessionCloseReason): void {
    if (this.#closeReason !== undefined) return;
    this.#closeReason = reason;
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    this.#listeners.clear();
    this.#anyListeners.clear();
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (error) {
        debug('session %s close listener threw: %s', this.sessionId, (error as Error).stack ?? String(error));
      }
    }
  }
}
