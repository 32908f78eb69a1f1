/**
 * One call's budget of time and its cancellation, made once where the call enters (an HTTP route,
 * a library call, an MCP tool) and passed down, so that nothing below the edge checks a
 * `timeout_sec` again, converts it again or wires its own timer and abort listener.
 *
 * An operation holds a budget (`timeoutMs`), not a start time: the clock starts when the work gets
 * its turn (a cell queued behind another has not begun to spend its timeout), with
 * {@link Operation.race} or {@link Operation.deadlineFromNow}. Its `signal` is the caller's (the
 * client went away, a library caller gave up); the operation never aborts it itself. Cleanups
 * registered with {@link Operation.defer} run once, when the edge ends the operation.
 *
 * It grows the house's {@link Deadline} (common/cdp/deadline.ts, modelled on Playwright's
 * `Progress`) from one CDP exchange to a whole call.
 */
import { Deadline } from './cdp/deadline.js';
import { ReplError } from './errors.js';
import type { ErrorCode } from './errors.js';
import { timeoutMsOf } from './timeout-sec.js';
import type { TimeoutRange } from './timeout-sec.js';

/** Why a raced piece of work stopped before it settled. */
export type OperationStop = 'timeout' | 'aborted';

export interface OperationOptions {
  /** The budget, in milliseconds: a positive number. */
  timeoutMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal | undefined;
}

/** `REPL_ERR_ABORTED`, caused by what the signal was aborted with. */
export function abortError(signal: AbortSignal): ReplError {
  return new ReplError('REPL_ERR_ABORTED', 'the operation was aborted', { cause: signal.reason });
}

export class Operation {
  /** The budget, in milliseconds. */
  readonly timeoutMs: number;
  /** The caller's cancellation, if it gave one. */
  readonly signal: AbortSignal | undefined;
  readonly #cleanups: (() => void)[] = [];
  #ended = false;

  constructor(options: OperationOptions) {
    const { timeoutMs, signal } = options;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
      throw new RangeError(`Operation: timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
    }
    this.timeoutMs = timeoutMs;
    this.signal = signal;
  }

  /**
   * The operation of a request's `timeout_sec`: the range's default when it is undefined, else an
   * integer within the range, else a `code` error (`REPL_ERR_INVALID_REQUEST` unless told) naming
   * `timeout_sec`. The one place a `timeout_sec` is checked.
   */
  static fromTimeoutSec(timeoutSec: unknown, range: TimeoutRange, options: { signal?: AbortSignal | undefined; code?: ErrorCode } = {}): Operation {
    return new Operation({ timeoutMs: timeoutMsOf(timeoutSec, range, options.code), signal: options.signal });
  }

  /** The budget in seconds, as the caller gave it. */
  get timeoutSec(): number {
    return this.timeoutMs / 1000;
  }

  /** True once the caller's signal fired. */
  get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  /** Throws `REPL_ERR_ABORTED` once the caller's signal fired. */
  throwIfAborted(): void {
    if (this.signal?.aborted === true) throw abortError(this.signal);
  }

  /** `REPL_ERR_ABORTED` with the signal's reason (the operation must have a signal that fired). */
  abortError(): ReplError {
    return this.signal === undefined ? new ReplError('REPL_ERR_ABORTED', 'the operation was aborted') : abortError(this.signal);
  }

  /** The deadline of work whose turn begins now: the whole budget from now, less `marginMs`. */
  deadlineFromNow(marginMs = 0): Deadline {
    return Deadline.in(this.timeoutMs - marginMs);
  }

  /**
   * Settles like `work`, or resolves with why the operation stopped first: `'timeout'` once the
   * budget has passed from this call, `'aborted'` when the signal fires (at once if it has), or a
   * reason `stops` reports (an interrupt asked for, say). Its timer and listener are gone when it
   * settles. `work` is not cancelled: the caller decides what a stop means for it, and a late
   * rejection of it is handled here, never an unhandled rejection.
   */
  race<T, R extends string = never>(work: Promise<T>, stops?: (stop: (reason: R) => void) => void): Promise<T | OperationStop | R> {
    const { signal } = this;
    if (signal?.aborted === true) {
      work.catch(() => {});
      return Promise.resolve('aborted');
    }
    return new Promise<T | OperationStop | R>((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish();
      };
      const onAbort = () => settle(() => resolve('aborted'));
      // setTimeout overflows above 2^31 - 1 ms and then fires at once.
      const timer = setTimeout(() => settle(() => resolve('timeout')), Math.min(this.timeoutMs, 2_147_483_647));
      signal?.addEventListener('abort', onAbort, { once: true });
      stops?.((reason) => settle(() => resolve(reason)));
      work.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error as Error)),
      );
    });
  }

  /** Runs `cleanup` when the operation ends, the last registered first; at once if it has ended. */
  defer(cleanup: () => void): void {
    if (this.#ended) {
      cleanup();
      return;
    }
    this.#cleanups.push(cleanup);
  }

  /** Ends the operation: its cleanups run, once, each even when another throws (the first error is rethrown). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    let failure: { error: unknown } | undefined;
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }

  [Symbol.dispose](): void {
    this.end();
  }
}
