/**
 * Server-Sent Events for the routes that stream (`POST /repl` and `POST /playwright/execute`
 * with `Accept: text/event-stream`). One event is `id: <n>`, `event: <name>` and one `data:` line
 * of JSON (JSON.stringify escapes line breaks, so the data never spans lines), then a blank line.
 *
 * A stream outlives its client on purpose: after a disconnect `send` does nothing and the work
 * goes on, because the routes never tie a streamed call to its connection (docs/repl.md#streaming).
 */
import type { Request, Response } from 'express';
import { ReplError } from '../../common/errors.js';

/** A comment line this often keeps proxies and clients from timing out an idle connection. */
export const KEEPALIVE_MS = 15_000;

/** The request asked for a stream: its `Accept` header lists `text/event-stream`. */
export function wantsEventStream(req: Request): boolean {
  const accept = req.headers.accept;
  if (accept === undefined) return false;
  return accept.split(',').some((range) => range.split(';')[0]!.trim().toLowerCase() === 'text/event-stream');
}

/** `{message, code}` of a failure, as the error handler answers it on the JSON path. */
export function errorBody(error: unknown): { message: string; code: string } {
  if (error instanceof ReplError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error), code: 'REPL_ERR_INTERNAL' };
}

export interface EventStreamOptions {
  /** Extra response headers, sent with the stream's own. */
  headers?: Record<string, string>;
  /** @internal Test seam: the keepalive interval. */
  keepaliveMs?: number;
}

/** One open event stream on `res`. Create it when the call is admitted; `end()` it exactly once at the end. */
export class EventStream {
  readonly #res: Response;
  readonly #keepalive: NodeJS.Timeout;
  #nextId = 1;
  #ended = false;

  /** Answers 200 with the stream's headers and sends them at once, before any event. */
  constructor(res: Response, options: EventStreamOptions = {}) {
    this.#res = res;
    res.status(200);
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    // nginx buffers proxied answers unless told otherwise; a buffered stream is no stream.
    res.setHeader('x-accel-buffering', 'no');
    // The status is 200 before the outcome is known: a client that retries would run the code twice.
    res.setHeader('x-should-retry', 'false');
    for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
    res.flushHeaders();
    this.#keepalive = setInterval(() => this.#write(': keepalive\n\n'), options.keepaliveMs ?? KEEPALIVE_MS);
    // The timer must never keep the process alive: the stream ends with its call, not with it.
    this.#keepalive.unref();
    res.once('close', () => this.#stop());
  }

  /** The client is still connected and the stream has not ended: events reach it. */
  get connected(): boolean {
    return !this.#ended && !this.#res.destroyed && !this.#res.writableEnded;
  }

  /** Sends one event; does nothing once the client has gone or the stream has ended. */
  send(event: string, data: unknown): void {
    if (!this.connected) return;
    this.#write(`id: ${this.#nextId++}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * Sends one unnamed event (`id:` when given, then `data:`), the framing of the telemetry and log
   * streams (the SDK's: "the event: field is never set"); does nothing once the client has gone.
   */
  sendData(id: number | undefined, data: unknown): void {
    if (!this.connected) return;
    this.#write(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Bytes written and not yet taken by the client's socket (a slow reader's backlog). */
  get backlog(): number {
    return this.#res.writableLength;
  }

  /** Sends `event: error` with `{message, code}` for a failure after the stream began. */
  sendError(error: unknown): void {
    this.send('error', errorBody(error));
  }

  /** Stops the keepalive and ends the response. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#stop();
    if (!this.#res.destroyed && !this.#res.writableEnded) this.#res.end();
  }

  #write(chunk: string): void {
    if (!this.connected) return;
    // No backpressure wait: what one call sends is bounded by the response limits (docs/repl.md#limits).
    this.#res.write(chunk);
  }

  #stop(): void {
    this.#ended = true;
    clearInterval(this.#keepalive);
  }
}
