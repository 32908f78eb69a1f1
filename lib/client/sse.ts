/**
 * A parser for `text/event-stream` (the WHATWG HTML "server-sent events" interpretation rules):
 * `event`, `data`, `id` and `retry` fields, multi-line `data`, `:` comments, and lines ended by
 * CRLF, LF or CR, also when a CRLF is split across two chunks. It holds no I/O of its own, so the
 * unit tests feed it strings (test/unit/sse-parser.test.mjs) and the client feeds it a fetch body.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field, or `message` when the event had none. */
  event: string;
  /** The `data` lines joined with `\n`. */
  data: string;
  /** The last `id` field seen so far (it carries over to later events, as the spec says). */
  id: string;
  /** The `retry` field of this event, in milliseconds, when it had a valid one. */
  retry?: number;
}

/**
 * Incremental parser: `push` text as it arrives and collect the events it completes; `end`
 * when the stream ends. Comment lines are counted in {@link comments} (keepalives) and otherwise
 * ignored.
 */
export class SseParser {
  #buffer = '';
  /** The previous chunk ended in CR: a LF at the start of the next one belongs to that line end. */
  #pendingCr = false;
  #sawFirstChunk = false;
  #event = '';
  #data: string[] = [];
  #id = '';
  #retry: number | undefined;
  #comments = 0;

  /** How many comment lines (`: keepalive`) were seen. */
  get comments(): number {
    return this.#comments;
  }

  /** Feeds decoded text; returns the events it completed, in order. */
  push(text: string): SseEvent[] {
    // The decoder gives '' for a chunk that ends inside a character: it must not end a pending CR.
    if (text === '') return [];
    let chunk = text;
    if (!this.#sawFirstChunk) {
      this.#sawFirstChunk = true;
      // The stream may start with one U+FEFF byte order mark, which is not part of the first line.
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    if (this.#pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.#pendingCr = false;
    this.#buffer += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const cr = this.#buffer.indexOf('\r', start);
      const lf = this.#buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      const line = this.#buffer.slice(start, end);
      if (this.#buffer[end] === '\r') {
        if (end + 1 === this.#buffer.length) {
          // A CR at the very end: the LF of a CRLF may be in the next chunk.
          this.#pendingCr = true;
          start = end + 1;
        } else {
          start = this.#buffer[end + 1] === '\n' ? end + 2 : end + 1;
        }
      } else {
        start = end + 1;
      }
      const event = this.#line(line);
      if (event !== undefined) events.push(event);
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  /**
   * The stream ended. An event whose blank line never came is discarded, as the spec requires
   * (it may have been cut off mid-way); returns nothing, and exists so callers say so explicitly.
   */
  end(): SseEvent[] {
    this.#buffer = '';
    this.#data = [];
    this.#event = '';
    this.#retry = undefined;
    return [];
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) {
      this.#comments += 1;
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        // An id with NUL is ignored, so it cannot be used to smuggle a header-breaking value.
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event;
    const retry = this.#retry;
    this.#data = [];
    this.#event = '';
    this.#retry = undefined;
    // A block with no data line dispatches nothing (it may still have set the id).
    if (data.length === 0) return undefined;
    const dispatched: SseEvent = { event: event === '' ? 'message' : event, data: data.join('\n'), id: this.#id };
    if (retry !== undefined) dispatched.retry = retry;
    return dispatched;
  }
}

/**
 * The events of a `text/event-stream` body, decoded as UTF-8 as they arrive. Breaking out of the
 * loop (or an abort of the request's signal) cancels the body, which closes the connection.
 */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser();
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      yield* parser.push(decoder.decode(chunk.value, { stream: true }));
    }
    done = true;
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    // An early exit (break, throw, return) leaves the connection open unless the body is cancelled.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
