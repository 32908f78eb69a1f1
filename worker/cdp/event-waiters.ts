/**
 * One-shot event waiters behind `waitForEvent`. A waiter matches on method and session with strict
 * equality (no session = browser-level events only), sees only events dispatched after it was
 * armed, and settles exactly once: the event, `null` on timeout, or an error.
 */

import { CONNECTION_CLOSED_MESSAGE, errorAtCallSite } from '../../common/cdp/cdp-errors.js';

import type { CallSite } from '../../common/cdp/cdp-errors.js';

import type { CdpEvent } from '../../common/cdp/cdp-session.js';
import type { Protocol } from 'devtools-protocol';

// setTimeout overflows above 2^31 - 1 ms and then fires at once.
const MAX_TIMER_MS = 2_147_483_647;

/** What {@link EventWaiters.arm} needs. */
export interface ArmOptions {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly predicate: ((event: CdpEvent) => boolean) | undefined;
  /** Positive; the waiter resolves `null` after it. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Call site recorded by the public method, so rejections point at its caller. */
  readonly site: CallSite;
}

/** An armed waiter: its promise, and a way to fail it from outside (a connect error). */
export interface ArmedWaiter {
  readonly promise: Promise<CdpEvent | null>;
  /** Rejects the waiter with `error` if it is still pending. */
  fail(error: Error): void;
}

interface Waiter {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly predicate: ((event: CdpEvent) => boolean) | undefined;
  readonly site: CallSite;
  readonly resolve: (event: CdpEvent | null) => void;
  readonly reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  disposeAbort: (() => void) | undefined;
}

/** The set of pending waiters of one client. */
export class EventWaiters {
  readonly #waiters = new Set<Waiter>();

  /** Number of pending waiters. */
  get size(): number {
    return this.#waiters.size;
  }

  /** Arms a waiter; `options.signal` must not be aborted yet. */
  arm(options: ArmOptions): ArmedWaiter {
    let waiter: Waiter | undefined;
    const promise = new Promise<CdpEvent | null>((resolve, reject) => {
      const armed: Waiter = {
        method: options.method,
        sessionId: options.sessionId,
        predicate: options.predicate,
        site: options.site,
        resolve,
        reject,
        timer: undefined,
        disposeAbort: undefined,
      };
      waiter = armed;
      this.#waiters.add(armed);
      armed.timer = setTimeout(() => {
        if (this.#remove(armed)) resolve(null);
      }, Math.min(options.timeoutMs, MAX_TIMER_MS));
      armed.timer.unref();
      const { signal } = options;
      if (signal !== undefined) {
        const onAbort = (): void => {
          if (this.#remove(armed)) {
            reject(errorAtCallSite(armed.site, 'REPL_ERR_ABORTED', `waitForEvent(${armed.method}) was aborted`, { cause: signal.reason }));
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        armed.disposeAbort = () => signal.removeEventListener('abort', onAbort);
      }
    });
    return {
      promise,
      fail: (error) => {
        if (waiter !== undefined && this.#remove(waiter)) waiter.reject(error);
      },
    };
  }

  /**
   * Offers `event` to every waiter. A waiter whose session just detached (`Target.detachedFromTarget`)
   * could only time out, so it fails at once with `REPL_ERR_TARGET_NOT_FOUND` saying why.
   */
  dispatch(event: CdpEvent): void {
    if (this.#waiters.size === 0) return;
    if (event.method === 'Target.detachedFromTarget') this.#rejectDetached(event);
    for (const waiter of [...this.#waiters]) {
      if (waiter.method !== event.method || waiter.sessionId !== event.sessionId) continue;
      let matched: boolean;
      try {
        matched = waiter.predicate === undefined || waiter.predicate(event);
      } catch (error) {
        this.#remove(waiter);
        waiter.reject(error as Error);
        continue;
      }
      if (!matched) continue;
      this.#remove(waiter);
      waiter.resolve(event);
    }
  }

  /** Rejects every waiter with `CDP connection closed` (`REPL_ERR_CDP_DISCONNECTED`). */
  rejectAll(): void {
    for (const waiter of [...this.#waiters]) {
      this.#remove(waiter);
      waiter.reject(
        errorAtCallSite(waiter.site, 'REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, {
          data: { method: waiter.method, connectionClosedBeforeResponse: true },
        }),
      );
    }
  }

  #rejectDetached(event: CdpEvent): void {
    const { sessionId, targetId } = event.params as Partial<Protocol.Target.DetachedFromTargetEvent>;
    if (sessionId === undefined) return;
    for (const waiter of [...this.#waiters]) {
      if (waiter.sessionId !== sessionId) continue;
      this.#remove(waiter);
      waiter.reject(
        errorAtCallSite(
          waiter.site,
          'REPL_ERR_TARGET_NOT_FOUND',
          `waitForEvent(${waiter.method}): the target${targetId === undefined ? '' : ` ${targetId}`} was detached (closed or crashed) before the event arrived`,
          { data: { method: waiter.method, sessionId, targetId } },
        ),
      );
    }
  }

  #remove(waiter: Waiter): boolean {
    if (!this.#waiters.delete(waiter)) return false;
    clearTimeout(waiter.timer);
    waiter.disposeAbort?.();
    return true;
  }
}
