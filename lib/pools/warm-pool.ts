/**
 * One pool of warm items (browsers, in practice: lib/browsers/browser-pools.ts): `size` of them
 * exist at most, idle or leased; idle ones wait to be taken, and leases come back cleaned
 * (`recycle`) or are retired and replaced. Generic and free of browser code, so the rules of the
 * line and of the count are the same for the server's default pool and for named ones, and are
 * unit-tested with plain objects (test/unit/pool-waiting-line.test.mjs).
 *
 * The count: idle + leased + launching + being cleaned never exceeds `size`, so a lease is one of
 * the pool's `size` browsers (the hosted product's rule: 10 acquires on a pool of 2 get 2, the others wait).
 * A fill rate (percent of `size` per minute, as the hosted product) spaces the launches; without
 * one, the pool launches as soon as there is room (and the host allows: `canLaunch`).
 */
import { ReplError } from '../../common/errors.js';
import { WaitingLine } from './waiting-line.js';

export interface WarmPoolOptions<T> {
  size: number;
  /** Percent of `size` launched per minute at most; undefined: no pacing. */
  fillRatePerMinute?: number | undefined;
  /** Callers that may wait in `acquire` at once. */
  maxWaiters: number;
  /** Launches one item (the host counts it against its own limits). */
  launch: () => Promise<T>;
  /** Whether the host has room for one more launch now. */
  canLaunch: () => boolean;
  /** Cleans a released item for its next user; false (or a throw) when it cannot be, and it is retired. */
  recycle: (item: T) => Promise<boolean>;
  /** Ends an item for good. */
  retire: (item: T) => Promise<void>;
  /** A launch failed (the pool stays short until the next attempt). */
  onLaunchError?: ((error: unknown) => void) | undefined;
}

export class WarmPool<T> {
  readonly #idle: T[] = [];
  readonly #leased = new Set<T>();
  readonly #line: WaitingLine<T>;
  readonly #options: WarmPoolOptions<T>;
  #size: number;
  #fillRate: number | undefined;
  #launching = 0;
  #recycling = 0;
  #lastLaunchAt = 0;
  #fillTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: WarmPoolOptions<T>) {
    this.#options = options;
    this.#size = options.size;
    this.#fillRate = options.fillRatePerMinute;
    this.#line = new WaitingLine<T>(options.maxWaiters);
  }

  get size(): number {
    return this.#size;
  }

  get fillRatePerMinute(): number | undefined {
    return this.#fillRate;
  }

  /** Idle items, ready now. */
  get available(): number {
    return this.#idle.length;
  }

  /** Items handed out and not released. */
  get acquired(): number {
    return this.#leased.size;
  }

  /** Callers waiting in `acquire`. */
  get waiting(): number {
    return this.#line.length;
  }

  /** The idle items (for the host's counts and shutdown); a copy. */
  idleItems(): T[] {
    return [...this.#idle];
  }

  has(item: T): boolean {
    return this.#leased.has(item);
  }

  /** Takes an idle item now, or undefined: what `POST /browsers` does with the default pool. */
  take(): T | undefined {
    const item = this.#idle.shift();
    if (item === undefined) return undefined;
    this.#leased.add(item);
    this.fill();
    return item;
  }

  /**
   * An idle item now, else a place in the line: resolves with the item `release` or a launch hands
   * over, or `undefined` once `timeoutMs` passed. A caller whose signal aborts leaves the line and is
   * never handed one.
   *
   * @throws ReplError `REPL_ERR_POOL_QUEUE_FULL`, `REPL_ERR_CLOSED`.
   */
  async acquire(timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'this pool is deleted');
    // Nobody waits while an item is idle (offer() serves the line first), so taking one is fair.
    const now = this.take();
    if (now !== undefined) return now;
    this.fill();
    return this.#line.wait(timeoutMs, signal);
  }

  /**
   * Gives back an item this pool handed out and its caller never used (its client went away
   * between being served and being answered): to the next waiter or the head of the idle list.
   */
  giveBack(item: T): void {
    if (!this.#leased.delete(item)) return;
    if (this.#closed) {
      void this.#retire(item);
      return;
    }
    if (this.#line.serve(item)) this.#leased.add(item);
    else this.#idle.unshift(item);
  }

  /**
   * A lease comes back: with `reuse`, cleaned and offered to the next caller (retired when the
   * cleaning fails); without, retired, and the pool launches a replacement at its fill rate.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND` when this pool did not hand it out.
   */
  async release(item: T, reuse: boolean): Promise<void> {
    if (!this.#leased.delete(item)) throw new ReplError('REPL_ERR_NOT_FOUND', 'that browser is not acquired from this pool');
    if (!reuse || this.#closed || this.#overSize()) {
      await this.#retire(item);
      this.fill();
      return;
    }
    this.#recycling++;
    let clean = false;
    try {
      clean = await this.#options.recycle(item);
    } catch {
      clean = false;
    } finally {
      this.#recycling--;
    }
    if (clean && !this.#closed) this.#offer(item);
    else await this.#retire(item);
    this.fill();
  }

  /** An item ended elsewhere (deleted or reaped while leased, or died idle): no longer counted. */
  forget(item: T): void {
    this.#leased.delete(item);
    const index = this.#idle.indexOf(item);
    if (index >= 0) this.#idle.splice(index, 1);
    this.fill();
  }

  /** Retires every idle item; the pool refills at its fill rate. Leases are untouched. */
  async flush(): Promise<void> {
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((item) => this.#retire(item)));
    this.fill();
  }

  /** New size and fill rate; idle items over the new size are retired. */
  async resize(size: number, fillRatePerMinute: number | undefined): Promise<void> {
    this.#size = size;
    this.#fillRate = fillRatePerMinute;
    const excess: T[] = [];
    while (this.#idle.length > 0 && this.#total() > this.#size) excess.push(this.#idle.pop()!);
    await Promise.all(excess.map((item) => this.#retire(item)));
    this.fill();
  }

  /** Launches while there is room in the pool and on the host, spaced by the fill rate. */
  fill(): void {
    if (this.#fillTimer !== undefined) return;
    while (!this.#closed && this.#total() < this.#size && this.#options.canLaunch()) {
      const wait = this.#pace();
      if (wait > 0) {
        this.#fillTimer = setTimeout(() => {
          this.#fillTimer = undefined;
          this.fill();
        }, wait);
        this.#fillTimer.unref();
        return;
      }
      this.#lastLaunchAt = Date.now();
      this.#launching++;
      this.#options.launch().then(
        (item) => {
          this.#launching--;
          if (this.#closed || this.#overSize()) void this.#retire(item);
          else this.#offer(item);
        },
        (error: unknown) => {
          this.#launching--;
          // A pool that cannot launch stays short; the next acquire or release tries again.
          this.#options.onLaunchError?.(error);
        },
      );
    }
  }

  /**
   * Ends the pool: waiters get `REPL_ERR_CLOSED`, idle items are retired. Returns the leased ones,
   * which the host ends (with `force`) or lets live on as ordinary browsers.
   */
  async close(): Promise<T[]> {
    this.#closed = true;
    if (this.#fillTimer !== undefined) clearTimeout(this.#fillTimer);
    this.#fillTimer = undefined;
    this.#line.rejectAll(new ReplError('REPL_ERR_CLOSED', 'this pool is deleted'));
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((item) => this.#retire(item)));
    const leased = [...this.#leased];
    this.#leased.clear();
    return leased;
  }

  #offer(item: T): void {
    // Leased before the waiter's promise settles: the item is never idle and owned at once.
    this.#leased.add(item);
    if (this.#line.serve(item)) return;
    this.#leased.delete(item);
    this.#idle.push(item);
  }

  async #retire(item: T): Promise<void> {
    await this.#options.retire(item).catch(() => undefined);
  }

  #total(): number {
    return this.#idle.length + this.#leased.size + this.#launching + this.#recycling;
  }

  /** An item not counted right now (just launched, just released) would not fit. */
  #overSize(): boolean {
    return this.#total() >= this.#size;
  }

  /** Milliseconds until the next launch may start. */
  #pace(): number {
    if (this.#fillRate === undefined) return 0;
    const perMinute = Math.max(this.#size * this.#fillRate / 100, 1e-3);
    return Math.max(0, this.#lastLaunchAt + 60_000 / perMinute - Date.now());
  }
}
