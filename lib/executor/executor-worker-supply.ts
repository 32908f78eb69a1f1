/**
 * One started executor worker kept in reserve per host. Importing Playwright is most of a new
 * executor's first call (about a second on a small machine; connecting is tens of milliseconds
 * more), and the worker imports its engine right after the handshake. So a new named executor,
 * or the replacement of a crashed or blocked worker, takes the spare and only has to connect.
 *
 * The spare is not attached to the browser (see worker/executor/browser-connection.ts). It is
 * first started after the registry's first call, so a host that never uses Playwright pays
 * nothing, and it is refilled after the call that used it has finished, so its CPU-heavy start
 * does not compete with that call. Cost: one idle thread with Playwright loaded.
 *
 * Its REPL counterpart is `ReplWorkerSupply` (lib/repl/repl-worker-supply.ts), which also keys
 * its spare by environment; executor workers have none, so any spare fits.
 */
import { Resource } from '../../common/resource.js';
import { ExecutorWorker } from './executor-worker.js';

/** Hands out executor workers, keeping one started in reserve. */
export class ExecutorWorkerSupply extends Resource {
  readonly #create: () => ExecutorWorker;
  readonly #enabled: boolean;
  #spare: ExecutorWorker | null = null;

  constructor(create: () => ExecutorWorker, options: { enabled: boolean }) {
    super();
    this.#create = create;
    this.#enabled = options.enabled;
  }

  /** The spare if it is still alive, else a newly started worker. Await its `ready`. */
  take(): ExecutorWorker {
    const spare = this.#spare;
    this.#spare = null;
    if (spare?.alive === true) return spare;
    if (spare !== null) void spare.destroy();
    return this.#create();
  }

  /** Starts a spare unless one exists (called after a call that used a new worker). */
  refill(): void {
    if (!this.#enabled || this.closed || this.#spare?.alive === true) return;
    this.#spare = this.#create();
  }

  /**
   * `close()` destroys the spare and awaits its exit; no spare starts from the call on. Every
   * caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    const spare = this.#spare;
    this.#spare = null;
    await spare?.destroy();
  }
}
