/**
 * Which cell (REPL) or call (executor) a `webmcp` call or a timer belongs to. The worker's loop runs each
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

/** A timer a cell started: `setTimeout`/`setInterval` handles and `setImmediate` handles are cleared differently. */
export type CellTimer = { kind: 'timeout' | 'interval'; handle: NodeJS.Timeout } | { kind: 'immediate'; handle: NodeJS.Immediate };

/** Tracked timers are pruned of the ones that already ran once there are this many. */
const TIMER_PRUNE_AT = 1024;

/** The webmcp calls and timers of one cell or executor call. */
export class CellScope {
  /** How to abort each call still waiting for its answer, in the order they started. */
  readonly #unfinished = new Set<() => void>();
  #ended = false;
  #interrupted = false;
  /** The timers the cell started while it ran: an interrupt clears them (issue 15). */
  #timers: Set<CellTimer> | undefined;

  /** The cell finished: no new call may start in this scope. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * The cell ran past its deadline and was interrupted: what it left behind (a promise chain, a
   * listener) must have no effect any more; its output is dropped and its awaits throw.
   */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /**
   * Records a timer the cell started, so that an interrupt can clear it. Timers started after the
   * cell ended are not recorded: a cell that finished may leave an interval running on purpose.
   */
  trackTimer(timer: CellTimer): void {
    // What an interrupted cell still runs (a `catch` before its next check) starts nothing.
    if (this.#interrupted) {
      clearTimer(timer);
      return;
    }
    if (this.#ended) return;
    this.#timers ??= new Set();
    if (this.#timers.size >= TIMER_PRUNE_AT) {
      // `_destroyed`: Node's own mark of a timer that ran (or was cleared); a cell awaiting a
      // million short sleeps must not keep a million handles.
      for (const tracked of this.#timers) if ((tracked.handle as { _destroyed?: boolean })._destroyed === true) this.#timers.delete(tracked);
    }
    this.#timers.add(timer);
  }

  /**
   * Interrupts the cell: clears its timers, then ends the scope (aborting its unfinished calls).
   * Returns how many calls it aborted. Idempotent.
   */
  interrupt(): number {
    if (this.#interrupted) return 0;
    this.#interrupted = true;
    for (const timer of this.#timers ?? []) clearTimer(timer);
    this.#timers = undefined;
    return this.end();
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

  /** How many calls of the cell are unfinished now (what {@link end} would abort). */
  get unfinished(): number {
    return this.#unfinished.size;
  }

  /** Ends the scope and aborts every call still unfinished; returns how many it aborted. Idempotent. */
  end(): number {
    if (this.#ended) return 0;
    this.#ended = true;
    this.#timers = undefined;
    const aborts = [...this.#unfinished];
    this.#unfinished.clear();
    for (const abort of aborts) abort();
    return aborts.length;
  }
}

function clearTimer(timer: CellTimer): void {
  if (timer.kind === 'immediate') clearImmediate(timer.handle);
  else clearTimeout(timer.handle);
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
