/**
 * A bounded ring of telemetry envelopes for one browser (docs/telemetry.md): each event gets the
 * next sequence number (`seq`, from 1, never reused), the oldest ones are evicted once the ring
 * holds `maxEvents` events or `maxBytes` of JSON, and listeners hear every new envelope at once.
 *
 * Resuming a stream is `after(lastSeq)`: every retained envelope with a larger seq, oldest first,
 * so a client that reconnects with `Last-Event-ID` while its last event is still retained loses
 * nothing and sees nothing twice. When older events were evicted meanwhile, `after()` starts at
 * the oldest retained one and the gap shows in the seq values. Pure: no timers, no I/O.
 */

/** One retained event with its sequence number: the SDK's `TelemetryEventsResponse`. */
export interface Envelope<E = unknown> {
  seq: number;
  event: E;
}

export interface EventRingOptions {
  /** Events kept at most. Default 10 000. */
  maxEvents?: number | undefined;
  /** JSON bytes kept at most (each envelope counted as its serialised length). Default 16 MiB. */
  maxBytes?: number | undefined;
}

export const DEFAULT_RING_EVENTS = 10_000;
export const DEFAULT_RING_BYTES = 16 * 1024 * 1024;

/** `{"seq":,"event":}` around an event's JSON, without the seq's digits. */
const ENVELOPE_OVERHEAD = '{"seq":,"event":}'.length;

function digits(value: number): number {
  return String(value).length;
}

interface Slot<E> {
  envelope: Envelope<E>;
  bytes: number;
}

/** The ring; see the module comment. */
export class EventRing<E = unknown> {
  readonly maxEvents: number;
  readonly maxBytes: number;
  // A plain array with a moving head: eviction is O(1), and it is compacted once the head is half of it.
  #slots: Array<Slot<E>> = [];
  #head = 0;
  #bytes = 0;
  #nextSeq = 1;
  readonly #listeners = new Set<(envelope: Envelope<E>) => void>();

  constructor(options: EventRingOptions = {}) {
    this.maxEvents = positive(options.maxEvents ?? DEFAULT_RING_EVENTS, 'maxEvents');
    this.maxBytes = positive(options.maxBytes ?? DEFAULT_RING_BYTES, 'maxBytes');
  }

  /** Events retained now. */
  get size(): number {
    return this.#slots.length - this.#head;
  }

  /** JSON bytes retained now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The seq the next event gets (one past the newest ever pushed). */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** The seq of the oldest retained event, or `nextSeq` when the ring is empty. */
  get firstSeq(): number {
    return this.size === 0 ? this.#nextSeq : this.#slots[this.#head]!.envelope.seq;
  }

  /**
   * Appends `event` with the next seq, evicts what no longer fits, and tells every listener.
   * `jsonBytes`, when the caller knows it, is the event's serialised length (the envelope's
   * `{"seq":…,"event":…}` is added here): a ring of one known shape then skips serialising.
   */
  push(event: E, jsonBytes?: number): Envelope<E> {
    const envelope: Envelope<E> = { seq: this.#nextSeq++, event };
    const bytes = jsonBytes === undefined ? JSON.stringify(envelope).length : jsonBytes + ENVELOPE_OVERHEAD + digits(envelope.seq);
    this.#slots.push({ envelope, bytes });
    this.#bytes += bytes;
    // The newest event is always kept, even one larger than maxBytes on its own.
    while (this.size > 1 && (this.size > this.maxEvents || this.#bytes > this.maxBytes)) this.#evict();
    // A copy: a listener may unsubscribe (or subscribe another) while it hears the event.
    if (this.#listeners.size > 0) for (const listener of [...this.#listeners]) listener(envelope);
    return envelope;
  }

  /** Every retained envelope with a seq greater than `seq`, oldest first. */
  after(seq: number): Array<Envelope<E>> {
    const start = this.#indexOf(seq + 1);
    return this.#slots.slice(start).map((slot) => slot.envelope);
  }

  /** Every retained envelope, oldest first. */
  all(): Array<Envelope<E>> {
    return this.after(0);
  }

  /** Calls `listener` with each envelope pushed from now on; returns the unsubscriber. */
  subscribe(listener: (envelope: Envelope<E>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Index (in #slots) of the first retained envelope with seq ≥ `seq` (seqs are consecutive). */
  #indexOf(seq: number): number {
    if (this.size === 0) return this.#slots.length;
    const first = this.#slots[this.#head]!.envelope.seq;
    const offset = Math.max(0, Math.min(seq - first, this.size));
    return this.#head + offset;
  }

  #evict(): void {
    const slot = this.#slots[this.#head]!;
    this.#bytes -= slot.bytes;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#slots.length) {
      this.#slots = this.#slots.slice(this.#head);
      this.#head = 0;
    }
  }
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/**
 * The seq a `Last-Event-ID` header names, or `undefined` when it names none (absent, empty, not a
 * non-negative integer: such a client is treated as a fresh one, as SSE clients expect).
 */
export function lastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * Where a new stream starts: after `Last-Event-ID` when given (it wins over `replay`), from the
 * oldest retained event with `replay=all`, else from now on (only new events).
 */
export function streamStart(ring: { nextSeq: number }, lastId: number | undefined, replay: unknown): number {
  if (lastId !== undefined) return lastId;
  if (replay === 'all') return 0;
  return ring.nextSeq - 1;
}
