/**
 * `GET /browsers/{id}/logs/stream` (the SDK's `client.browsers.logs.stream`; docs/telemetry.md#logs):
 * an SSE stream of `{event: "log", message, timestamp}` events, unnamed, one per line.
 *
 * - `source=path&path=/abs/file`: a file on the server's machine, with the rules of the `/fs/*`
 *   routes (an absolute path, read as the server's user; a missing file is 404, a folder 400).
 *   `follow=true` (the default) is `tail -f`: the last 10 lines, then every line appended, across
 *   truncation and replacement of the file; `follow=false` sends the file's last 1 MiB and ends.
 * - `source=supervisor&supervisor_process=api`: the server's own diagnostic log
 *   (lib/telemetry/server-log.ts), from its in-process ring the same way.
 *
 * A stream ends when the client goes, or when the browser it was addressed to ends.
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { absolutePath, fsFailure } from '../../system/file-system.js';
import { SERVER_LOG_PROCESSES } from '../../telemetry/server-log.js';
import type { LogLine, ServerLog } from '../../telemetry/server-log.js';
import type { BrowserOf } from '../middleware.js';
import { EventStream } from '../sse.js';

/** Lines `follow=true` starts with, as `tail -f` does. */
const TAIL_LINES = 10;
/** What `follow=false` sends at most, and how far back the first lines are looked for. */
const READ_BACK_BYTES = 1024 * 1024;
/** How often a followed file is looked at again. */
export const POLL_MS = 250;
/** A line longer than this is sent in pieces. */
const MAX_LINE_BYTES = 64 * 1024;

export interface LogsRoutesOptions {
  serverLog: ServerLog;
}

export function logsRoutes(browserOf: BrowserOf, options: LogsRoutesOptions): Router {
  const router = Router();

  router.get('/logs/stream', async (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    const source = single(req, 'source');
    const follow = flag(single(req, 'follow'), 'follow', true);
    if (source === 'path') {
      const path = absolutePath(single(req, 'path'), 'path');
      const handle = await openFile(path);
      const stream = new EventStream(res);
      const tail = new FileTail(path, handle, (message) => stream.sendData(undefined, line(message)));
      const stopClose = browser.telemetry.onClose(() => void tail.close().then(() => stream.end()));
      res.once('close', () => {
        stopClose();
        void tail.close();
      });
      try {
        await tail.start(follow ? { lines: TAIL_LINES } : { lines: Infinity });
      } catch (error) {
        stream.end();
        throw error;
      }
      if (!follow) {
        await tail.close();
        stream.end();
        return;
      }
      tail.follow();
      return;
    }
    if (source === 'supervisor') {
      const process = single(req, 'supervisor_process');
      if (process === undefined || process === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'supervisor_process is required with source=supervisor');
      if (!(SERVER_LOG_PROCESSES as readonly string[]).includes(process)) {
        throw new ReplError('REPL_ERR_NOT_FOUND', `supervisor_process ${JSON.stringify(process)} is not a process of this server; its own log is ${SERVER_LOG_PROCESSES.map((name) => JSON.stringify(name)).join(' or ')}`);
      }
      const { ring } = options.serverLog;
      const stream = new EventStream(res);
      const lines = ring.all();
      for (const entry of follow ? lines.slice(-TAIL_LINES) : lines) stream.sendData(undefined, entry.event);
      if (!follow) {
        stream.end();
        return;
      }
      const unsubscribe = ring.subscribe((entry) => stream.sendData(undefined, entry.event));
      const stopClose = browser.telemetry.onClose(() => stream.end());
      res.once('close', () => {
        unsubscribe();
        stopClose();
      });
      return;
    }
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `source must be path or supervisor, got ${JSON.stringify(source ?? null)}`);
  });

  return router;
}

function line(message: string): LogLine {
  return { event: 'log', message, timestamp: new Date().toISOString() };
}

async function openFile(path: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `path ${JSON.stringify(path)} is a directory, not a file`);
    return handle;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    throw fsFailure(error, path);
  }
}

/** `tail` of one file: its last lines, then (with `follow()`) each line appended. */
class FileTail {
  readonly #path: string;
  #handle: FileHandle | undefined;
  #ino = 0;
  #position = 0;
  #partial = '';
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #onLine: (message: string) => void;

  constructor(path: string, handle: FileHandle, onLine: (message: string) => void) {
    this.#path = path;
    this.#handle = handle;
    this.#onLine = onLine;
  }

  /** Sends the last `lines` complete lines of what the file holds now (within its last 1 MiB). */
  async start(options: { lines: number }): Promise<void> {
    const handle = this.#handle!;
    const stats = await handle.stat();
    this.#ino = stats.ino;
    const from = Math.max(0, stats.size - READ_BACK_BYTES);
    const text = await readRange(handle, from, stats.size);
    this.#position = from + Buffer.byteLength(text);
    const lines = text.split('\n');
    // What follows the last line break is an unfinished line: kept until its end arrives.
    this.#partial = lines.pop() ?? '';
    // A read that began mid-file starts mid-line: that first piece is dropped.
    if (from > 0) lines.shift();
    for (const message of Number.isFinite(options.lines) ? lines.slice(-options.lines) : lines) this.#emit(message);
  }

  follow(): void {
    if (this.#closed) return;
    this.#timer = setInterval(() => {
      this.#reading = this.#reading.then(() => this.#poll()).catch(() => undefined);
    }, POLL_MS);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#reading;
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
  }

  async #poll(): Promise<void> {
    if (this.#closed || this.#handle === undefined) return;
    // Replaced (log rotation) or truncated: read the new file from its start, as `tail -F` does.
    const current = await stat(this.#path).catch(() => undefined);
    if (current !== undefined && current.ino !== this.#ino) {
      const handle = await open(this.#path, 'r').catch(() => undefined);
      if (handle !== undefined) {
        await this.#handle.close().catch(() => undefined);
        if (this.#closed) {
          await handle.close();
          return;
        }
        this.#handle = handle;
        this.#ino = current.ino;
        this.#position = 0;
        this.#partial = '';
      }
    }
    const { size } = await this.#handle.stat();
    if (size < this.#position) {
      this.#position = 0;
      this.#partial = '';
    }
    if (size === this.#position || this.#closed) return;
    const text = await readRange(this.#handle, this.#position, Math.min(size, this.#position + READ_BACK_BYTES));
    this.#position += Buffer.byteLength(text);
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const message of lines) this.#emit(message);
    // A line with no end in sight is sent in pieces rather than held without bound.
    while (Buffer.byteLength(this.#partial) > MAX_LINE_BYTES) {
      this.#emit(this.#partial.slice(0, MAX_LINE_BYTES));
      this.#partial = this.#partial.slice(MAX_LINE_BYTES);
    }
  }

  #emit(message: string): void {
    if (this.#closed) return;
    this.#onLine(message.endsWith('\r') ? message.slice(0, -1) : message);
  }
}

/** The bytes `from`..`to` of the file, as UTF-8 (a character cut at `to` is finished by the next read). */
async function readRange(handle: FileHandle, from: number, to: number): Promise<string> {
  const buffer = Buffer.alloc(to - from);
  let read = 0;
  while (read < buffer.length) {
    const { bytesRead } = await handle.read(buffer, read, buffer.length - read, from + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  // Cut after the last line break when possible, so no multi-byte character is split.
  const slice = buffer.subarray(0, read);
  const lastBreak = slice.lastIndexOf(0x0a);
  const whole = lastBreak === -1 || lastBreak === slice.length - 1 ? slice : slice.subarray(0, lastBreak + 1);
  return whole.toString('utf8');
}

function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be given once, as a plain value`);
  return value;
}

function flag(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be true or false, got ${JSON.stringify(value)}`);
}
