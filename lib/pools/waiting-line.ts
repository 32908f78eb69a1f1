/**
 * The waiting line of a pool's `acquire` (docs/browsers.md#pools): first come, first served, and
 * bounded. Pure: it knows nothing of browsers, so the fairness rules are unit-tested on their own
 * (test/unit/pool-waiting-line.test.mjs).
 *
 * - `serve(item)` hands `item` to the waiter at the head of the line and to nobody else; it
 *   answers false when nobody waits, and the caller keeps the item.
 * - A waiter leaves the line when its time runs out (it gets `undefined`) or when its signal aborts
 *   (its promise rejects with the signal's reason); either way it is never served afterwards, so an
 *   item is never handed to a caller that has gone.
 * - One more waiter than `maxWaiters` is refused at once with `REPL_ERR_POOL_QUEUE_FULL` (429).
 */
import { ReplError } from '../../common/errors.js';

interface Waiter<T> {
  resolve: (item: T | undefined) => void;
  reject: (reason: unknown) => void;
  timer: NodeJS.Timeout | undefined;
  onAbort: (() => void) | undefined;
  signal: AbortSignal | undefined;
}

export class WaitingLine<T> {
  readonly maxWaiters: number;
  readonly #waiters: Array<Waiter<T>> = [];

  constructor(maxWaiters: number) {
    if (!Number.isInteger(maxWaiters) || maxWaiters < 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'maxWaiters must be a non-negative integer');
    this.maxWaiters = maxWaiters;
  }

  /** Callers waiting right now. */
  get length(): number {
    return this.#waiters.length;
  }

  /**
   * Joins the end of the line: resolves with the item `serve()` hands over, or `undefined` once
   * `timeoutMs` has passed without one. Rejects with the signal's reason when it aborts.
   *
   * @throws ReplError `REPL_ERR_POOL_QUEUE_FULL` when the line already holds `maxWaiters`.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (this.#waiters.length >= this.maxWaiters) {
      return Promise.reject(new ReplError('REPL_ERR_POOL_QUEUE_FULL',
        `${this.#waiters.length} callers already wait for a browser of this pool (the most the line holds): try again later, or make the pool larger`));
    }
    return new Promise<T | undefined>((resolve, reject) => {
      const waiter: Waiter<T> = { resolve, reject, timer: undefined, onAbort: undefined, signal };
      waiter.timer = setTimeout(() => {
        this.#leave(waiter);
        resolve(undefined);
      }, Math.max(0, timeoutMs));
      if (signal !== undefined) {
        waiter.onAbort = () => {
          this.#leave(waiter);
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
    });
  }

  /** Hands `item` to the first waiter; false when nobody waits (the caller keeps it). */
  serve(item: T): boolean {
    const waiter = this.#waiters[0];
    if (waiter === undefined) return false;
    this.#leave(waiter);
    waiter.resolve(item);
    return true;
  }

  /** Everybody leaves with `reason` (the pool is deleted or the server closes). */
  rejectAll(reason: unknown): void {
    for (const waiter of this.#waiters.slice()) {
      this.#leave(waiter);
      waiter.reject(reason);
    }
  }

  #leave(waiter: Waiter<T>): void {
    const index = this.#waiters.indexOf(waiter);
    if (index >= 0) this.#waiters.splice(index, 1);
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    if (waiter.onAbort !== undefined) waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }
}
