/**
 * Frees what V8's ordinary collections never free in a worker that runs cells: every
 * `vm.SourceTextModule` (each cell is one) stays on the heap after it ran, about 2 KiB for a
 * trivial cell, on Node 20 and 24 alike (nodejs/node#59118: the module and Node's wrapper hold each
 * other through two weak handles, which an ordinary full collection does not see through). Left
 * alone, a REPL's heap grew by 55 MiB over 20 000 trivial cells (issue 26).
 *
 * V8 does free them when asked for all the garbage it can find (`LowMemoryNotification`: several
 * collections in a row, as before a heap snapshot). This thread's own inspector session asks for
 * exactly that (`HeapProfiler.collectGarbage`), after a cell once the heap grew by
 * {@link GROWTH_BYTES} since the last time: a few tens of milliseconds every few thousand cells,
 * run when the worker is idle (it delays at most the cell that arrives meanwhile).
 */
import { createRequire } from 'node:module';
import v8 from 'node:v8';

import type { Session } from 'node:inspector';

/** Heap growth that asks for a thorough collection. */
const GROWTH_BYTES = 8 * 1024 * 1024;
/** The heap is looked at once every this many cells (a look costs about a microsecond). */
const CELLS_PER_LOOK = 16;

export class ModuleReclaimer {
  #session: Session | null | undefined;
  #baseline = v8.getHeapStatistics().used_heap_size;
  #cells = 0;
  #collecting = false;

  /** After every cell: schedules a thorough collection when the heap grew enough. */
  afterCell(): void {
    if (++this.#cells % CELLS_PER_LOOK !== 0 || this.#collecting) return;
    if (v8.getHeapStatistics().used_heap_size - this.#baseline < GROWTH_BYTES) return;
    const session = this.#connect();
    if (session === null) return;
    this.#collecting = true;
    // After the answer went out: the host is not kept waiting.
    setImmediate(() => {
      session.post('HeapProfiler.collectGarbage', () => {
        this.#baseline = v8.getHeapStatistics().used_heap_size;
        this.#collecting = false;
      });
    });
  }

  /** This thread's session, created on first use; null when this Node has no inspector. */
  #connect(): Session | null {
    if (this.#session !== undefined) return this.#session;
    try {
      const { Session: SessionClass } = createRequire(import.meta.url)('node:inspector') as typeof import('node:inspector');
      const session = new SessionClass();
      session.connect();
      this.#session = session;
    } catch {
      this.#session = null;
    }
    return this.#session;
  }
}
