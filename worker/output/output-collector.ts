/**
 * Orders and bounds everything a cell emits. While a cell runs, each accepted item is handed to
 * the sink at once (so output survives even if the worker is later terminated); between cells,
 * items wait in the stray buffer and are replayed first into the next cell, counted against its
 * budgets (contract §3, §6).
 */
import { LIMITS } from '../../lib/limits.js';
import type { OutputChannel, OutputItem } from '../../lib/protocol.js';
import { ArrayPrototypePush, ArrayPrototypeShift, BufferByteLength } from './primordials.js';
import { cutUtf8 } from './text-budget.js';

/** Receives accepted items; `transfer` lists buffers that may be moved instead of copied. */
export type OutputSink = (item: OutputItem, transfer: ArrayBuffer[]) => void;

export interface CollectorLimits {
  textBytes: number;
  imageBytesPerResponse: number;
  items: number;
  strayItems: number;
}

const DEFAULT_LIMITS: CollectorLimits = {
  textBytes: LIMITS.textBytesPerResponse,
  imageBytesPerResponse: LIMITS.imageBytesPerResponse,
  items: LIMITS.itemsPerExecution,
  strayItems: LIMITS.strayItems,
};

export class OutputCollector {
  readonly #limits: CollectorLimits;
  #sink: OutputSink | null = null;
  #stray: OutputItem[] = [];
  #strayTruncated = false;
  #items = 0;
  #textBytes = 0;
  #imageBytes = 0;
  #truncated = false;

  constructor(limits: Partial<CollectorLimits> = {}) {
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** True while a cell is collecting. */
  get active(): boolean {
    return this.#sink !== null;
  }

  /** Starts a cell: resets budgets and replays the stray buffer into it. */
  begin(sink: OutputSink): void {
    this.#sink = sink;
    this.#items = 0;
    this.#textBytes = 0;
    this.#imageBytes = 0;
    this.#truncated = this.#strayTruncated;
    const stray = this.#stray;
    this.#stray = [];
    this.#strayTruncated = false;
    for (let i = 0; i < stray.length; i++) this.#accept(stray[i]!);
  }

  /** Ends the cell; later output goes to the stray buffer. Returns whether anything was cut. */
  end(): { contentTruncated: boolean } {
    this.#sink = null;
    return { contentTruncated: this.#truncated };
  }

  text(channel: OutputChannel, text: string): void {
    this.#route({ type: 'text', channel, text });
  }

  /**
   * Adds an image. The bytes are copied once into a buffer owned by the collector, because the
   * caller's buffer may be mutated after the call or belong to Buffer's shared pool.
   */
  image(mimeType: string, bytes: Uint8Array): void {
    const owned = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(owned).set(bytes);
    this.#route({ type: 'image', mimeType, bytes: owned });
  }

  #route(item: OutputItem): void {
    if (this.#sink !== null) {
      this.#accept(item);
      return;
    }
    ArrayPrototypePush(this.#stray, item);
    if (this.#stray.length > this.#limits.strayItems) {
      ArrayPrototypeShift(this.#stray);
      this.#strayTruncated = true;
    }
  }

  #accept(item: OutputItem): void {
    if (this.#items >= this.#limits.items) {
      this.#truncated = true;
      return;
    }
    if (item.type === 'text') {
      const remaining = this.#limits.textBytes - this.#textBytes;
      if (remaining <= 0) {
        this.#truncated = true;
        return;
      }
      const size = BufferByteLength(item.text, 'utf8');
      let text = item.text;
      if (size > remaining) {
        text = cutUtf8(text, remaining);
        this.#truncated = true;
        this.#textBytes = this.#limits.textBytes;
        if (text === '') return;
      } else {
        this.#textBytes += size;
      }
      this.#items++;
      this.#sink!({ type: 'text', channel: item.channel, text }, []);
      return;
    }
    const size = item.bytes.byteLength;
    if (this.#imageBytes + size > this.#limits.imageBytesPerResponse) {
      this.#truncated = true;
      this.#accept({
        type: 'text',
        channel: 'stderr',
        text: `repl.emitImage: dropped a ${size} byte image; aggregate response image limit reached`,
      });
      return;
    }
    this.#imageBytes += size;
    this.#items++;
    this.#sink!(item, [item.bytes]);
  }
}
