/**
 * Orders and bounds everything a cell emits. While a cell runs, each accepted item is handed to
 * the sink at once (so output survives even if the worker is later terminated); between cells,
 * items wait in the stray buffer and are replayed first into the next cell, counted against its
 * budgets (docs/repl.md, "Limits").
 */
import { LIMITS } from '../../common/limits.js';
import type { OutputChannel, OutputItem } from '../../common/protocol/repl-messages.js';
import { ArrayPrototypePush, ArrayPrototypeShift, BufferByteLength, BufferFrom, BufferPrototypeToString } from './primordials.js';

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

  readonly #admit: (() => boolean) | undefined;

  /** `admit` is asked for every item; one it refuses is dropped (output of an interrupted cell). */
  constructor(limits: Partial<CollectorLimits> = {}, admit?: () => boolean) {
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#admit = admit;
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
    if (this.#admit !== undefined && !this.#admit()) return;
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

/**
 * Returns `text` shortened to at most `maxBytes` UTF-8 bytes, ending on a character boundary: the
 * contract counts text in UTF-8 bytes, and a cut inside a multi-byte sequence would put U+FFFD
 * into the response.
 */
export function cutUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (text.length <= maxBytes / 3 || BufferByteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = BufferFrom(text, 'utf8');
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut lands before a lead byte.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return BufferPrototypeToString(bytes, 'utf8', 0, end);
}
