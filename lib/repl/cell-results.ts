/**
 * The results of recent cells of one host, by cell id, so that a caller who lost its connection
 * (a streaming client that went away, a JSON client whose socket dropped) can fetch what its cell
 * answered: `GET /repl/results/{cell_id}`.
 *
 * A cell is `running` from admission until it settles, then `finished` (its result) or `failed`
 * (the host error it rejected with). Running cells are always kept: they are bounded by the calls
 * in flight. Settled ones are kept for `ttlMs` after they settled, and only the newest `capacity`
 * of them, holding at most `maxBytes` of output together (one result may carry 16 MiB of images:
 * 32 of those would pin half a gigabyte for ten minutes). Expiry is checked on every access, so
 * the store needs no timer and holds nothing alive.
 */
import type { CellResult } from './cell-result.js';

/** What the store knows about one cell. */
export type CellRecord =
  | { state: 'running' }
  | { state: 'finished'; result: CellResult }
  | { state: 'failed'; error: unknown };

export interface CellResultsOptions {
  /** Settled results kept at most (default 32). */
  capacity?: number;
  /** Output bytes (text and images) the settled results may hold together (default 64 MiB); the oldest go first. */
  maxBytes?: number;
  /** How long a settled result is kept (default 10 minutes). */
  ttlMs?: number;
  /** @internal Test seam: the clock, in milliseconds. */
  now?: () => number;
}

export const CELL_RESULTS_CAPACITY = 32;
export const CELL_RESULTS_TTL_MS = 10 * 60 * 1000;
export const CELL_RESULTS_MAX_BYTES = 64 * 1024 * 1024;

type Settled = Exclude<CellRecord, { state: 'running' }> & { settledAt: number; bytes: number };

/** Output a result holds: the bytes of its images and (about) of its text. */
function outputBytes(result: CellResult): number {
  let bytes = 0;
  for (const item of result.content ?? []) bytes += item.type === 'image' ? item.data.length : item.text.length;
  return bytes;
}

export class CellResults {
  readonly #capacity: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #running = new Set<string>();
  /** Insertion order is settling order: the first entry is the oldest. */
  readonly #settled = new Map<string, Settled>();
  /** Sum of `bytes` over {@link #settled}. */
  #bytes = 0;

  constructor(options: CellResultsOptions = {}) {
    this.#capacity = options.capacity ?? CELL_RESULTS_CAPACITY;
    this.#maxBytes = options.maxBytes ?? CELL_RESULTS_MAX_BYTES;
    this.#ttlMs = options.ttlMs ?? CELL_RESULTS_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Records an admitted cell. */
  start(cellId: string): void {
    this.#running.add(cellId);
  }

  /** Records the result a cell resolved with. */
  finish(cellId: string, result: CellResult): void {
    this.#settle(cellId, { state: 'finished', result, settledAt: this.#now(), bytes: outputBytes(result) });
  }

  /** Records the host error a cell rejected with (`REPL_ERR_CLOSED`, `REPL_ERR_ABORTED`, …). */
  fail(cellId: string, error: unknown): void {
    this.#settle(cellId, { state: 'failed', error, settledAt: this.#now(), bytes: 0 });
  }

  /** The cell's record, or undefined when it is unknown or expired. */
  get(cellId: string): CellRecord | undefined {
    if (this.#running.has(cellId)) return { state: 'running' };
    this.#expire();
    const settled = this.#settled.get(cellId);
    if (settled === undefined) return undefined;
    return settled.state === 'finished' ? { state: 'finished', result: settled.result } : { state: 'failed', error: settled.error };
  }

  /** Cells running, and settled results still kept (diagnostics, tests). */
  get size(): { running: number; settled: number } {
    this.#expire();
    return { running: this.#running.size, settled: this.#settled.size };
  }

  #settle(cellId: string, record: Settled): void {
    this.#running.delete(cellId);
    this.#drop(cellId);
    this.#settled.set(cellId, record);
    this.#bytes += record.bytes;
    this.#expire();
    // The newest result is always kept, however large: its caller may be about to ask for it.
    while (this.#settled.size > 1 && (this.#settled.size > this.#capacity || this.#bytes > this.#maxBytes)) {
      this.#drop(this.#settled.keys().next().value as string);
    }
  }

  #drop(cellId: string): void {
    const record = this.#settled.get(cellId);
    if (record === undefined) return;
    this.#settled.delete(cellId);
    this.#bytes -= record.bytes;
  }

  #expire(): void {
    const oldest = this.#now() - this.#ttlMs;
    // Settling order is time order, so expired entries are a prefix.
    for (const [cellId, record] of this.#settled) {
      if (record.settledAt > oldest) break;
      this.#drop(cellId);
    }
  }
}
