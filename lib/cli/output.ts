/**
 * How `run` and `shell` show a cell: text items as they stream in (write items as written,
 * console lines on their own lines, stderr items on stderr), images saved as
 * `image-<n>.<ext>` with a line naming each file, and a failed cell's error and stack. Also the
 * one place that turns a client failure into a message and an exit code.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientError } from '../client/index.js';
import type { CallOptions, ChromiumReplClient, ReplContent, ReplRequest, ReplResult } from '../client/index.js';
import { EXIT } from './options.js';

/** Where a cell's output goes. */
export interface OutputStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface CellOutputOptions {
  /** Folder for images; created when missing. */
  outDir: string;
  /** Which stream gets the `image: <path>` lines (`run`: stderr, so stdout stays the cell's own output). */
  imageNotes: 'stdout' | 'stderr';
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'image/svg+xml': 'svg' };

/** `png` for `image/png`; an unknown subtype keeps its own name, made file-safe. */
export function imageExtension(mimeType: string): string {
  const known = EXTENSIONS[mimeType.toLowerCase()];
  if (known !== undefined) return known;
  const subtype = mimeType.split('/')[1]?.replace(/[^a-z0-9]+/gi, '').toLowerCase() ?? '';
  return subtype === '' ? 'img' : subtype;
}

/** Prints the items of cells, one after another, to one pair of streams. */
export class CellOutput {
  readonly #streams: OutputStreams;
  readonly #options: CellOutputOptions;
  /** The last text written to a stream did not end in a newline. */
  readonly #openLine = { stdout: false, stderr: false };
  #nextImage = 1;

  constructor(streams: OutputStreams, options: CellOutputOptions) {
    this.#streams = streams;
    this.#options = options;
  }

  /** One content item, as soon as it arrives. */
  async content(item: ReplContent): Promise<void> {
    if (item.type === 'image') {
      const bytes = Buffer.from(item.data_b64, 'base64');
      const path = await this.#saveImage(item.mime_type, bytes);
      this.#line(this.#options.imageNotes, `image: ${path} (${item.mime_type}, ${bytes.length} bytes)`);
      return;
    }
    if (item.channel === 'write') {
      this.#write('stdout', item.text);
    } else {
      // console.log and friends are lines; repl.write is not, so a console line after an open write starts anew.
      this.#line(item.channel, item.text);
    }
  }

  /**
   * The end of a cell: the items the stream did not already deliver (all of them when the server
   * answered JSON), then what went wrong, if anything. A cell this CLI interrupted (Ctrl-C) is
   * said to be so, not reported as an error.
   */
  async result(result: ReplResult, streamedItems: number, options: { interruptRequested?: boolean } = {}): Promise<void> {
    for (const item of (result.content ?? []).slice(streamedItems)) await this.content(item);
    if (result.content_truncated === true) this.#line('stderr', '(output truncated: the cell emitted more than a response may carry)');
    if (options.interruptRequested === true && result.interrupted === true) {
      this.#line('stderr', '(interrupted: the REPL and its bindings are kept)');
      return;
    }
    if (!result.success) {
      const error = result.error ?? 'the cell failed';
      const stack = result.stack ?? '';
      // A stack starts with "Name: message"; print the message on its own only when the stack lacks it.
      this.#line('stderr', stack === '' ? `Uncaught ${error}` : stack.includes(error) ? `Uncaught ${stack}` : `Uncaught ${error}\n${stack}`);
    }
    if (result.repl_terminated === true) {
      this.#line('stderr', '(the REPL was terminated: its bindings are gone, and the next cell starts a fresh one)');
    } else if (result.interrupted === true) {
      // Stopped by its timeout, or by someone else's interrupt: the error line above says which.
      const when = result.error?.startsWith('execution timed out') === true ? ' at its timeout' : '';
      this.#line('stderr', `(the cell was interrupted${when}: the REPL and its bindings are kept)`);
    }
  }

  /** A note of the CLI itself, on stderr. */
  note(text: string): void {
    this.#line('stderr', text);
  }

  /** Ends an open line, so what follows (a prompt, the shell's next line) starts at column 0. */
  finish(): void {
    for (const name of ['stdout', 'stderr'] as const) if (this.#openLine[name]) this.#write(name, '\n');
  }

  #write(name: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    this.#streams[name].write(text);
    this.#openLine[name] = !text.endsWith('\n');
  }

  #line(name: 'stdout' | 'stderr', text: string): void {
    if (this.#openLine[name]) this.#write(name, '\n');
    this.#write(name, text.endsWith('\n') ? text : `${text}\n`);
  }

  async #saveImage(mimeType: string, bytes: Buffer): Promise<string> {
    await mkdir(this.#options.outDir, { recursive: true });
    const extension = imageExtension(mimeType);
    // `wx` never overwrites: an existing image-<n> (an earlier run's) moves the number on.
    for (;;) {
      const path = join(this.#options.outDir, `image-${this.#nextImage++}.${extension}`);
      try {
        await writeFile(path, bytes, { flag: 'wx' });
        return path;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}

/** What {@link streamCell} learnt. */
export interface StreamedCell {
  result: ReplResult;
  /** The server's id of the cell (streaming servers only), for `GET /repl/results/{cell_id}`. */
  cellId: string | undefined;
}

/** Hooks of {@link streamCell}. */
export interface StreamCellHooks {
  /** Hears the cell id as soon as the server reports it (before any output). */
  onCell?: (cellId: string) => void;
  /** Whether this CLI asked for the cell to be interrupted (how its result is shown). */
  interruptRequested?: () => boolean;
}

/**
 * Runs one cell through `replStream`, printing each item as it arrives. The hooks learn the cell
 * id, so an interrupted caller can stop it on the server or say how to fetch its result.
 */
export async function streamCell(
  client: ChromiumReplClient,
  body: ReplRequest,
  callOptions: CallOptions,
  output: CellOutput,
  hooks: StreamCellHooks = {},
): Promise<StreamedCell> {
  let streamed = 0;
  let cellId: string | undefined;
  for await (const event of client.replStream(body, callOptions)) {
    if (event.event === 'cell') {
      cellId = event.data.cell_id;
      hooks.onCell?.(cellId);
    } else if (event.event === 'content') {
      streamed += 1;
      await output.content(event.data);
    } else {
      await output.result(event.data, streamed, { interruptRequested: hooks.interruptRequested?.() === true });
      return { result: event.data, cellId };
    }
  }
  // replStream throws CLIENT_ERR_STREAM_ENDED rather than end without a result.
  throw new ClientError(0, 'CLIENT_ERR_STREAM_ENDED', 'the event stream ended before its result event');
}

/**
 * Ctrl-C (`shell`) or SIGINT (`run`) during a streamed cell: `POST /repl/interrupt` naming that
 * cell, so that no other cell of the REPL is stopped by mistake. Sent once the server reported
 * the cell's id (at once, when it has); the cell's own answer then says it was interrupted.
 */
export class CellInterrupt {
  readonly #client: ChromiumReplClient;
  readonly #repl: string;
  readonly #browser: string | undefined;
  readonly #note: (message: string) => void;
  #cellId: string | undefined;
  #requested = false;
  #sent = false;

  constructor(client: ChromiumReplClient, repl: string, browser: string | undefined, note: (message: string) => void) {
    this.#client = client;
    this.#repl = repl;
    this.#browser = browser;
    this.#note = note;
  }

  /** The server's id of the cell, once the stream reported it. */
  get cellId(): string | undefined {
    return this.#cellId;
  }

  get requested(): boolean {
    return this.#requested;
  }

  cellStarted(cellId: string): void {
    this.#cellId = cellId;
    if (this.#requested) this.#send();
  }

  request(): void {
    this.#requested = true;
    if (this.#cellId !== undefined) this.#send();
  }

  #send(): void {
    if (this.#sent || this.#cellId === undefined) return;
    this.#sent = true;
    const body = { repl: this.#repl, cell_id: this.#cellId };
    this.#client.interrupt(body, { browser: this.#browser }).catch((error: unknown) => {
      this.#note(`chromium-repl: the interrupt failed: ${error instanceof Error ? error.message : String(error)} (Ctrl-C again stops waiting for the cell)`);
    });
  }
}

/**
 * A failed call as the CLI reports it: a server that cannot be reached, a refused token and every
 * other 4xx are exit code 2 (the command line or the setup is wrong); a 5xx or an error inside a
 * stream (the server failed) is 1, like a failed cell.
 */
export function describeFailure(error: unknown, url: string): { message: string; exitCode: number } {
  if (!(error instanceof ClientError)) {
    return { message: error instanceof Error ? error.message : String(error), exitCode: EXIT.cellFailed };
  }
  if (error.code === 'CLIENT_ERR_CONNECTION') {
    return { message: `${error.message} (is \`chromium-repl serve\` running there? Set --url or BROWSER_REPL_URL)`, exitCode: EXIT.usage };
  }
  if (error.status === 401) {
    return { message: `${url} refused the token (${error.code}): pass --token or set BROWSER_REPL_TOKEN to the server's token`, exitCode: EXIT.usage };
  }
  // Below 400 the status is not the error's: 0 when no answer arrived, the stream's 200 for an
  // `error` event inside it (whose code, such as a cell's, has no HTTP status of its own).
  const label = error.status < 400 ? error.code : `${error.status} ${error.code}`;
  return { message: `${error.message} (${label})`, exitCode: error.status >= 400 && error.status < 500 ? EXIT.usage : EXIT.cellFailed };
}
