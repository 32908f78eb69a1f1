/**
 * Fixed-capacity buffer of the newest CDP events, behind `drainEvents()`. A busy page produces
 * Network events much faster than anyone drains them, so the oldest are dropped and counted.
 */

import type { CdpEvent } from '../../common/cdp/cdp-session.js';

/** Default capacity: the 500 newest events (docs/repl.md, `browser.drainEvents`). */
export const EVENT_RING_CAPACITY = 500;

/** Circular buffer of {@link CdpEvent}s; O(1) push, oldest dropped when full. */
export class EventRing {
  readonly #capacity: number;
  #items: (CdpEvent | undefined)[];
  #start = 0;
  #size = 0;
  #dropped = 0;

  constructor(capacity: number = EVENT_RING_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`EventRing capacity must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
    this.#items = new Array<CdpEvent | undefined>(capacity);
  }

  /** Maximum number of events kept. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Number of events currently buffered. */
  get size(): number {
    return this.#size;
  }

  /** Events dropped because the ring was full, since the last `drain()`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Appends `event`, dropping the oldest one when full. */
  push(event: CdpEvent): void {
    if (this.#size < this.#capacity) {
      this.#items[(this.#start + this.#size) % this.#capacity] = event;
      this.#size++;
      return;
    }
    this.#items[this.#start] = event;
    this.#start = (this.#start + 1) % this.#capacity;
    this.#dropped++;
  }

  /** Returns the buffered events, oldest first, and empties the ring. */
  drain(): CdpEvent[] {
    const out: CdpEvent[] = [];
    for (let i = 0; i < this.#size; i++) {
      const event = this.#items[(this.#start + i) % this.#capacity];
      if (event !== undefined) out.push(event);
    }
    this.#items = new Array<CdpEvent | undefined>(this.#capacity);
    this.#start = 0;
    this.#size = 0;
    this.#dropped = 0;
    return out;
  }
}
