/**
 * Which cell (REPL) or call (executor) a `webmcp` call belongs to. The worker's loop runs each
 * cell inside a {@link CellScope} (`runInCellScope`), and AsyncLocalStorage carries it into
 * everything the cell starts: awaits, promise callbacks, timers, event listeners. When the cell
 * ends, its scope ends: the calls it left unfinished are aborted, and a call made later from
 * something it left behind (a timer firing during the next cell) finds the ended scope and fails
 * at once, so nothing of one cell reaches the next one's output.
 *
 * Propagation through cells that are `vm.SourceTextModule`s of another context, into their
 * timers and detached async functions, is checked on Node 20 (async_hooks promise hooks) and on
 * Node 24 (AsyncContextFrame) by test/socket/webmcp-client.test.mjs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The webmcp calls of one cell or executor call. */
export class CellScope {
  /** How to abort each call still waiting for its answer, in the order they started. */
  readonly #unfinished = new Set<() => void>();
  #ended = false;

  /** The cell finished: no new call may start in this scope. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Records an unfinished call; `abort` runs if the scope ends before the call does. Returns the
   * disposer the call runs when it settles. Throws once the scope has ended.
   */
  track(abort: () => void): () => void {
    if (this.#ended) throw new Error('CellScope.track after the scope ended');
    this.#unfinished.add(abort);
    return () => {
      this.#unfinished.delete(abort);
    };
  }

  /** Ends the scope and aborts every call still unfinished; returns how many it aborted. Idempotent. */
  end(): number {
    if (this.#ended) return 0;
    this.#ended = true;
    const aborts = [...this.#unfinished];
    this.#unfinished.clear();
    for (const abort of aborts) abort();
    return aborts.length;
  }
}

const scopes = new AsyncLocalStorage<CellScope>();

/** Runs `work` in `scope`: everything it starts, now or later, finds `scope` as {@link currentCellScope}. */
export function runInCellScope<T>(scope: CellScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The scope of the code running now, ended or not; undefined outside any cell (the loop itself, an agent-tool call). */
export function currentCellScope(): CellScope | undefined {
  return scopes.getStore();
}
