/**
 * The cap on memory outside the V8 heap. `resourceLimits` bounds a worker's heap, but not its
 * Buffers and ArrayBuffers, and a worker shares the server's process: a cell that allocates
 * gigabytes of them would get the whole server killed by the operating system. One process-wide
 * watch samples that memory while workers run requests and tells a worker's owner when it passed
 * its cap (`WorkerHandle` then terminates it and reports `out-of-memory`).
 *
 * Two ways to measure, chosen once per process:
 *
 * - **per worker** (Node ≥ 22.16, where `Worker#getHeapStatistics()` exists): the worker's own
 *   `external_memory`. V8 answers on an interrupt, so a worker in a busy loop answers too, in well
 *   under a millisecond. Exact attribution; memory a worker allocates but never touches counts.
 * - **process-wide** (Node 20 and 22.0–22.15): the growth of this process's resident set (the
 *   memory the operating system must actually provide, which is what gets a process OOM-killed)
 *   during each worker's busy period: from the lowest level seen since that worker's request
 *   started. Memory allocated but never written costs nothing physical and does not count; growth
 *   from before the request (other workers starting, caches) is not the request's. No thread's share
 *   can be told apart, so when several busy workers are past their cap at once, the one whose
 *   request started **last** is terminated (the shortest window that holds that much growth), the
 *   others get a fresh baseline, and if the growth goes on the next poll blames the next one. An
 *   innocent worker busy alongside a hog can be stopped; idle workers never are.

 * Polls run every {@link BUSY_POLL_MS} while some worker is busy and stop when none is; timers are
 * unref'd, and a worker is never asked again before it answered (a worker stuck in a synchronous
 * native call answers late, and allocates nothing meanwhile).
 */
import { Worker } from 'node:worker_threads';

/** How often memory is sampled while a worker is busy. Fast enough that a cell filling memory at
 * about 2 GB/s (page faults bound it) overshoots its cap by at most a few hundred MiB. */
export const BUSY_POLL_MS = 100;

/** Which measure found the cap exceeded; see the module comment. */
export type MemoryMeasure = 'external-memory' | 'process-memory';

export interface MemoryOverrun {
  measure: MemoryMeasure;
  /** What was measured: the worker's external memory, or the process's growth since the baseline. */
  observedBytes: number;
  capBytes: number;
}

/** What the watch needs of one worker. */
export interface WatchedWorker {
  readonly worker: Worker;
  readonly capBytes: number;
  /** A request is pending: only busy workers are sampled (and blamed). */
  readonly busy: () => boolean;
  /** Called at most once per watch entry; the owner terminates the worker. */
  readonly exceeded: (overrun: MemoryOverrun) => void;
}

interface Entry {
  readonly target: WatchedWorker;
  /** A `getHeapStatistics()` of this worker has not answered yet. */
  asking: boolean;
  reported: boolean;
  /** Process-wide measure: the lowest resident set seen since this worker's request started. */
  baseline: number | undefined;
  /** When the current request started (which of several overrunning workers is blamed). */
  busySince: number;
}

type HeapStatisticsWorker = Worker & { getHeapStatistics?: () => Promise<{ external_memory?: number }> };

/** The per-worker measure exists (Node ≥ 22.16, 24); else the process-wide one is used. */
export const perWorkerMeasureAvailable = typeof (Worker.prototype as HeapStatisticsWorker).getHeapStatistics === 'function';

/**
 * A request's baseline may be a reading up to one poll older than the request: reading the
 * resident set is a read of /proc on Linux, a sizeable part of the host's own cost of a trivial
 * cell (issue 26), and growth that recent counts for nothing next to a cap of hundreds of MiB.
 */
const BASELINE_REUSE_MS = BUSY_POLL_MS;

let lastReading = { at: -Infinity, bytes: 0 };

/** Bytes of this process's resident set (one small read of /proc on Linux). */
function processMemoryBytes(): number {
  const bytes = process.memoryUsage.rss();
  lastReading = { at: performance.now(), bytes };
  return bytes;
}

/** The resident set as a request's baseline: {@link processMemoryBytes}, or a reading from the last {@link BASELINE_REUSE_MS}. */
function baselineBytes(): number {
  return performance.now() - lastReading.at <= BASELINE_REUSE_MS ? lastReading.bytes : processMemoryBytes();
}

class MemoryWatch {
  readonly #entries = new Set<Entry>();
  #timer: NodeJS.Timeout | undefined;

  /** Starts watching `target`; the returned function stops it (idempotent). */
  add(target: WatchedWorker): () => void {
    const entry: Entry = { target, asking: false, reported: false, baseline: undefined, busySince: 0 };
    this.#entries.add(entry);
    return () => {
      this.#entries.delete(entry);
    };
  }

  /** `worker` (watched) started a request: its busy period begins now; make sure polls run. */
  wake(worker: Worker): void {
    if (!perWorkerMeasureAvailable) {
      for (const entry of this.#entries) {
        if (entry.target.worker !== worker) continue;
        // Taken as the request starts, not at the first poll: what a cell allocates in its first
        // 100 ms counts against the cap as well.
        entry.baseline = baselineBytes();
        entry.busySince = performance.now();
      }
    }
    if (this.#timer !== undefined) return;
    this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#poll(), BUSY_POLL_MS);
    this.#timer.unref();
  }

  #poll(): void {
    this.#timer = undefined;
    const busy: Entry[] = [];
    for (const entry of this.#entries) {
      if (entry.target.busy() && !entry.reported) busy.push(entry);
      else entry.baseline = undefined; // Idle: growth until its next request is not its own.
    }
    if (busy.length === 0) return;
    if (perWorkerMeasureAvailable) {
      for (const entry of busy) this.#askWorker(entry);
    } else {
      this.#checkProcess(busy);
    }
    this.#schedule();
  }

  #askWorker(entry: Entry): void {
    if (entry.asking) return;
    entry.asking = true;
    const worker = entry.target.worker as HeapStatisticsWorker;
    worker.getHeapStatistics!().then((statistics) => {
      entry.asking = false;
      const external = statistics.external_memory;
      if (typeof external === 'number' && external > entry.target.capBytes) {
        this.#report(entry, { measure: 'external-memory', observedBytes: external, capBytes: entry.target.capBytes });
      }
    }, () => {
      // The thread ended meanwhile (ERR_WORKER_NOT_RUNNING): its handle stops the watch.
      entry.asking = false;
    });
  }

  #checkProcess(busy: Entry[]): void {
    const now = processMemoryBytes();
    let blamed: { entry: Entry; growth: number } | undefined;
    for (const entry of busy) {
      // The lowest level seen in this request: memory freed by GC since makes the cap stricter, never looser.
      if (entry.baseline === undefined || now < entry.baseline) entry.baseline = now;
      const growth = now - entry.baseline;
      if (growth > entry.target.capBytes && (blamed === undefined || entry.busySince > blamed.entry.busySince)) blamed = { entry, growth };
    }
    if (blamed === undefined) return;
    this.#report(blamed.entry, { measure: 'process-memory', observedBytes: blamed.growth, capBytes: blamed.entry.target.capBytes });
    // The others start over: the growth was (most likely) the terminated worker's. If it goes on,
    // a later poll blames the next one.
    for (const entry of busy) if (entry !== blamed.entry) entry.baseline = now;
  }

  #report(entry: Entry, overrun: MemoryOverrun): void {
    if (entry.reported || !this.#entries.has(entry)) return;
    entry.reported = true;
    entry.target.exceeded(overrun);
  }
}

/** The one watch of this process. */
export const memoryWatch = new MemoryWatch();
