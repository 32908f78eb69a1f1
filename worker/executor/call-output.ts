/**
 * Captures the `console` output of one execute call into `stdout` and `stderr` strings (the
 * hosted product leaves both empty). Each call gets its own console as a closure variable, so
 * code abandoned by a timeout writes into its own, already answered, call and never into a later
 * one. The worker's global `console` routes to whichever call is running (library warnings,
 * helpers defined by earlier calls) and to a debug log between calls.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { debuglog } from 'node:util';

const debug = debuglog('browser-repl:executor');

type Channel = 'stdout' | 'stderr';

/** Receives each accepted write as it happens (a streaming call); see `ExecutorOutputMessage`. */
export type WriteListener = (channel: Channel, text: string) => void;

/** The output of one call: its own console, a byte budget per channel, closed once answered. */
export class CallOutput {
  readonly #limitBytes: number;
  readonly #onWrite: WriteListener | undefined;
  readonly #text: Record<Channel, string[]> = { stdout: [], stderr: [] };
  readonly #bytes: Record<Channel, number> = { stdout: 0, stderr: 0 };
  readonly #truncated: Record<Channel, boolean> = { stdout: false, stderr: false };
  #open = true;
  /** The console the call's code sees. */
  readonly console: Console;

  constructor(limitBytes: number, onWrite?: WriteListener) {
    this.#limitBytes = limitBytes;
    this.#onWrite = onWrite;
    this.console = consoleWriting((channel, text) => this.write(channel, text));
  }

  /** Appends text unless the call was answered or the channel is full (then notes it once). */
  write(channel: Channel, text: string): void {
    if (!this.#open) return;
    const bytes = Buffer.byteLength(text);
    if (this.#bytes[channel] + bytes > this.#limitBytes) {
      if (!this.#truncated[channel]) {
        this.#truncated[channel] = true;
        this.#accept(channel, `[browser-repl: ${channel} truncated at ${this.#limitBytes} bytes]\n`);
      }
      return;
    }
    this.#bytes[channel] += bytes;
    this.#accept(channel, text);
  }

  /** Keeps the text, and hands it to the listener: streamed chunks are the reply's text, piece by piece. */
  #accept(channel: Channel, text: string): void {
    this.#text[channel].push(text);
    this.#onWrite?.(channel, text);
  }

  /** Ends capture and returns what was written. Later writes are dropped. */
  close(): { stdout: string; stderr: string } {
    this.#open = false;
    return { stdout: this.#text.stdout.join(''), stderr: this.#text.stderr.join('') };
  }
}

/** The worker's global `console`: writes to the running call, or to the debug log between calls. */
export class OutputRouter {
  current: CallOutput | undefined;
  readonly console: Console = consoleWriting((channel, text) => {
    if (this.current !== undefined) this.current.write(channel, text);
    else debug('%s between calls: %s', channel, text.trimEnd());
  });
}

function consoleWriting(write: (channel: Channel, text: string) => void): Console {
  // Writable calls write() synchronously while nothing is buffered, and the callback is
  // synchronous, so every console call has landed before the code's next statement.
  const stream = (channel: Channel) => new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      write(channel, typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return new Console({ stdout: stream('stdout'), stderr: stream('stderr'), colorMode: false });
}
