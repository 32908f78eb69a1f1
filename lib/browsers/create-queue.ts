/**
 * A bounded first-in, first-out line of callers waiting for room (docs/deploy.md#waiting-for-room):
 * `POST /browsers` on a full server waits here instead of answering 429 at once, and a pool's
 * `acquire` can wait in one too. The queue holds no resource itself: whoever frees room calls
 * `grant()`, which hands the turn to the oldest waiter. A waiter leaves the line when its wait
 * ends (timeout), when its signal fires (the client went away) or when the queue closes; a waiter
 * that left is never granted, so nothing is launched for a client that is gone.
 */
import { ReplError } from '../../common/errors.js';

export interface WaitOptions {
  /** Longest wait, in milliseconds; 0 or less: no wait (full is at once an error). */
  timeoutMs: number;
  /** The caller gave up (its client disconnected): it leaves the line. */
  signal?: AbortSignal | undefined;
}

interface Waiter {
  grant: () => void;
  fail: (error: Error) => void;
}

export class CreateQueue {
  /** Most callers waiting at once; past it `wait()` refuses at once. */
  readonly capacity: number;
  readonly #waiters: Waiter[] = [];
  #closed: Error | undefined;

  constructor(options: { capacity: number }) {
    if (!Number.isInteger(options.capacity) || options.capacity < 0) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `the queue's capacity must be a non-negative integer, got ${String(options.capacity)}`);
    }
    this.capacity = options.capacity;
  }

  /** Callers waiting now. */
  get length(): number {
    return this.#waiters.length;
  }

  /** Whether one more caller could join the line now. */
  get hasSpace(): boolean {
    return this.#closed === undefined && this.#waiters.length < this.capacity;
  }

  /**
   * Joins the back of the line; resolves when `grant()` gives this caller its turn.
   *
   * @throws ReplError `REPL_ERR_CAPACITY_QUEUE_FULL` (the line is full, or waiting is off),
   *   `REPL_ERR_CAPACITY_WAIT_TIMEOUT` (the wait ended first), `REPL_ERR_ABORTED` (the signal
   *   fired), the error `close()` was given.
   */
  wait(options: WaitOptions): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (options.signal?.aborted === true) return Promise.reject(aborted());
    if (options.timeoutMs <= 0 || this.#waiters.length >= this.capacity) {
      return Promise.reject(new ReplError('REPL_ERR_CAPACITY_QUEUE_FULL', options.timeoutMs <= 0
        ? 'no room for a browser now, and this request does not wait (wait_timeout_seconds 0, or the server\'s create wait is off)'
        : `no room for a browser now, and ${this.#waiters.length} requests already wait for one (the queue holds ${this.capacity})`));
    }
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
      };
      const waiter: Waiter = {
        grant: () => { leave(); resolve(); },
        fail: (error) => { leave(); reject(error); },
      };
      const onAbort = (): void => waiter.fail(aborted());
      const timer = setTimeout(() => waiter.fail(new ReplError('REPL_ERR_CAPACITY_WAIT_TIMEOUT',
        `no room for a browser within ${Math.round(options.timeoutMs / 100) / 10} s`)), options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Gives the oldest waiter its turn; false when nobody waits. */
  grant(): boolean {
    const first = this.#waiters[0];
    if (first === undefined) return false;
    first.grant();
    return true;
  }

  /** Fails every waiter with `error` and refuses new ones (the server is closing). Idempotent. */
  close(error: Error): void {
    this.#closed ??= error;
    for (const waiter of [...this.#waiters]) waiter.fail(this.#closed);
  }
}

function aborted(): ReplError {
  return new ReplError('REPL_ERR_ABORTED', 'the request was abandoned while it waited for room');
}
