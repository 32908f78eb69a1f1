/**
 * `httpGet(url, headers?, timeoutSec = 20)`: a GET from the REPL process (not the browser) with
 * undici. Bounded where the hosted product is not: the body is capped at {@link HTTP_GET_MAX_BYTES}
 * after decompression, and one timer, clamped to the cell's deadline, covers the whole exchange
 * including the body. Redirects are followed (up to 20, like fetch); gzip, deflate and brotli
 * bodies are decoded; the text is decoded as UTF-8.
 */
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import { Agent, interceptors, request } from 'undici';

import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds } from '../helper-options.js';

import type { Readable, Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { HelperContext } from '../helper-context.js';

/** Largest response body `httpGet` returns: 32 MiB, counted after decompression. */
export const HTTP_GET_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_SEC = 20;
const MAX_REDIRECTIONS = 20;
const DEFAULT_HEADERS: Readonly<Record<string, string>> = { 'user-agent': 'Mozilla/5.0', 'accept-encoding': 'gzip, deflate, br' };

let dispatcher: Dispatcher | undefined;

/** One keep-alive agent per REPL worker, created on first use. */
function sharedDispatcher(): Dispatcher {
  dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
  return dispatcher;
}

function httpError(message: string, options: { cause?: unknown; data?: Record<string, unknown> } = {}): ReplError {
  return new ReplError('REPL_ERR_HTTP_GET_FAILED', message, options);
}

/** The URL to request, and how messages show it (as the caller wrote it). */
function readUrl(url: unknown): { href: string; shown: string } {
  const text = typeof url === 'string' ? url : url instanceof URL ? url.href : undefined;
  let parsed: URL | undefined;
  try {
    parsed = text === undefined ? undefined : new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw invalidArgument('httpGet: url must be an absolute http(s) URL');
  }
  return { href: parsed.href, shown: typeof url === 'string' ? url : parsed.href };
}

function readHeaders(headers: unknown): Record<string, string> {
  const merged: Record<string, string> = { ...DEFAULT_HEADERS };
  if (headers === undefined || headers === null) return merged;
  if (typeof headers !== 'object' || Array.isArray(headers)) throw invalidArgument('httpGet: headers must be an object of string values');
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw invalidArgument('httpGet: headers must be an object of string values');
    merged[name.toLowerCase()] = value;
  }
  return merged;
}

function decoderFor(encoding: string | string[] | undefined): Transform | undefined {
  switch (String(encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Reads `body` (decoded per `encoding`) into one Buffer, failing past the byte cap. */
async function readBody(body: Readable, encoding: string | string[] | undefined, shown: string): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  // pipeline forwards the body's errors (abort, reset) to the decoder we iterate.
  const source: Readable = decoder === undefined ? body : (pipeline(body, decoder, () => {}) as unknown as Readable);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > HTTP_GET_MAX_BYTES) {
      source.destroy();
      body.destroy();
      throw httpError(`GET ${shown} failed: the response body exceeds ${HTTP_GET_MAX_BYTES} bytes (32 MiB)`, { data: { limit: HTTP_GET_MAX_BYTES } });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

export function createHttpGetHelpers(context: HelperContext) {
  /** GETs `url` and returns the body as text; throws on non-2xx, network errors, size and time bounds. */
  async function httpGet(url: unknown, headers?: unknown, timeoutSec?: unknown): Promise<string> {
    const { href, shown } = readUrl(url);
    const requestHeaders = readHeaders(headers);
    const seconds = nonNegativeSeconds('httpGet', timeoutSec, DEFAULT_TIMEOUT_SEC);
    const start = Date.now();
    const timeoutMs = Math.min(seconds * 1000, context.waitDeadline(seconds * 1000) - start);
    if (timeoutMs <= 0) throw httpError(`GET ${shown} timed out before it could start`);

    const controller = new AbortController();
    let reason: 'timeout' | 'cell' | undefined;
    const timer = setTimeout(() => {
      reason = 'timeout';
      controller.abort();
    }, timeoutMs);
    const onCellEnd = (): void => {
      reason ??= 'cell';
      controller.abort();
    };
    const cellSignal = context.signal;
    cellSignal.addEventListener('abort', onCellEnd, { once: true });
    try {
      const response = await request(href, {
        method: 'GET',
        headers: requestHeaders,
        signal: controller.signal,
        dispatcher: sharedDispatcher(),
      });
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump().catch(() => {});
        throw httpError(`GET ${shown} failed with status ${response.statusCode}`, { data: { status: response.statusCode } });
      }
      const declared = Number(response.headers['content-length']);
      if (response.headers['content-encoding'] === undefined && declared > HTTP_GET_MAX_BYTES) {
        response.body.destroy();
        throw httpError(`GET ${shown} failed: the response body exceeds ${HTTP_GET_MAX_BYTES} bytes (32 MiB)`, { data: { limit: HTTP_GET_MAX_BYTES } });
      }
      const bytes = await readBody(response.body, response.headers['content-encoding'], shown);
      return new TextDecoder('utf-8').decode(bytes);
    } catch (error) {
      if (reason === 'timeout') throw httpError(`GET ${shown} timed out after ${Math.round(timeoutMs)}ms`, { cause: error });
      if (reason === 'cell') throw httpError(`GET ${shown} was abandoned because its cell ended`, { cause: error });
      if (error instanceof ReplError) throw error;
      throw httpError(`GET ${shown} failed: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
      cellSignal.removeEventListener('abort', onCellEnd);
    }
  }

  return { httpGet };
}
