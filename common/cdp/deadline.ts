/**
 * When a call must be over, passed in the options of each command and wait rather than read from
 * shared mutable state (Playwright's `server/progress.ts` deadline is the model). A deadline is an
 * absolute time and already contains any safety margin: whoever creates it decides how much time
 * is left. The REPL worker makes one per cell, `DEADLINE_MARGIN_MS` (common/limits.ts) before the
 * cell's destructive deadline, so helpers fail cleanly before the worker is terminated.
 *
 * A command with a deadline is not sent once the deadline has passed
 * (`REPL_ERR_CDP_DEADLINE_REACHED`), and its timeout never runs past it (the timeout message then
 * says "bounded by the execution timeout"); a wait with one resolves as timed out there.
 */

/** An absolute deadline (Unix ms). Immutable; share one between the calls of an operation. */
export class Deadline {
  /** Unix ms by which the call must have ended. */
  readonly at: number;

  constructor(at: number) {
    if (Number.isNaN(at)) throw new RangeError('Deadline: at must be a number of milliseconds, got NaN');
    this.at = at;
  }

  /** A deadline `ms` from now. */
  static in(ms: number): Deadline {
    return new Deadline(Date.now() + ms);
  }

  /** Milliseconds left; zero or negative once the deadline has passed. */
  remaining(now: number = Date.now()): number {
    return this.at - now;
  }

  /** True once no time is left. */
  get reached(): boolean {
    return this.remaining() <= 0;
  }

  /**
   * Settles like `promise`, or rejects with `timeoutError()` when the deadline passes first (at
   * once when it has passed already). `promise` itself is not cancelled; its late failure is
   * handled here, never an unhandled rejection.
   */
  race<T>(promise: Promise<T>, timeoutError: () => Error): Promise<T> {
    const remaining = this.remaining();
    if (remaining <= 0) {
      promise.catch(() => {});
      return Promise.reject(timeoutError());
    }
    return new Promise<T>((resolve, reject) => {
      // setTimeout overflows above 2^31 - 1 ms and then fires at once.
      const timer = setTimeout(() => reject(timeoutError()), Math.min(remaining, 2_147_483_647));
      timer.unref();
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error as Error);
        },
      );
    });
  }
}

/** Options of anything bounded by a {@link Deadline}. */
export interface DeadlineOptions {
  /** When the call must be over; omitted: only its own timeout bounds it. */
  deadline?: Deadline | undefined;
}
