/**
 * What every browser helper receives: the REPL's CDP client, the running cell's deadline and
 * abort signal, and a way to leave a note on the cell's stderr. One context lives as long as the
 * worker; `beginCell`/`endCell` scope the per-cell parts.
 */
import type { CdpClient } from '../cdp/cdp-client.js';

/** Helpers stop waiting this long before the cell's destructive deadline, so they fail cleanly. */
export const DEADLINE_MARGIN_MS = 500;

/** The signal between cells: a helper still running after its cell ended sees it aborted. */
const ENDED = new AbortController();
ENDED.abort(new Error('Browser REPL execution finished'));

export class HelperContext {
  readonly client: CdpClient;
  readonly #note: (message: string) => void;
  #deadline: number | undefined;
  /** Created on first use of `signal` in a cell: most cells never wait on anything. */
  #controller: AbortController | undefined;

  constructor(options: { client: CdpClient; note: (message: string) => void }) {
    this.client = options.client;
    this.#note = options.note;
  }

  /** Called by the runtime when a cell starts. */
  beginCell(deadline: number): void {
    this.#deadline = deadline;
    this.#controller = undefined;
    this.client.executionDeadlineMs = deadline;
  }

  /** Called when the cell ends: waits it left running are cancelled. */
  endCell(): void {
    this.#deadline = undefined;
    this.client.executionDeadlineMs = undefined;
    this.#controller?.abort(new Error('Browser REPL execution finished'));
    this.#controller = ENDED;
  }

  /** Aborted when the cell that is running now ends. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** Absolute time (Unix ms) by which a wait of `timeoutMs` must end: never past the cell's deadline − 500 ms. */
  waitDeadline(timeoutMs: number): number {
    const own = Date.now() + timeoutMs;
    return this.#deadline === undefined ? own : Math.min(own, this.#deadline - DEADLINE_MARGIN_MS);
  }

  /** Writes `browser-repl: <message>` to the cell's stderr. */
  note(message: string): void {
    this.#note(`browser-repl: ${message}`);
  }
}
