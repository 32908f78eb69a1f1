/**
 * Where REPL workers come from: a fresh start, or the one started, unused worker kept in reserve
 * (the warm spare), so that a reset, a replaced REPL or a new named REPL gets a worker in
 * milliseconds instead of a thread start. A `Browser` shares one `ReplWorkerSupply` among all its
 * REPLs (workers start unnamed and are configured by the REPL that takes them), so sixteen idle
 * named REPLs cost seventeen threads, not thirty-two; a `Repl` made on its own has its own.
 *
 * The spare is started with the pool's environment and handed only to a REPL whose environment is
 * the same; it is replaced when the environment changes.
 *
 * Its executor counterpart is `ExecutorWorkerSupply` (lib/executor/executor-worker-supply.ts): the
 * same one-spare idea for Playwright workers, which have no environment and always hand a worker
 * out, where this one answers null when its spare does not fit and the REPL starts its own.
 */
import { init as initCuid } from '@paralleldrive/cuid2';
import { Resource } from '../../common/resource.js';
import { ReplWorker } from './repl-worker.js';
import type { ReplWorkerOptions } from './repl-worker.js';

/** REPL ids are CUID2s, like the hosted product's, so clients that validate them keep working. */
const createReplId: () => string = initCuid({ length: 24 });

/** What every worker of the pool starts with (the REPL's id is drawn per worker). */
export type ReplWorkerSettings = Omit<ReplWorkerOptions, 'replId' | 'env'>;

export interface ReplWorkerSupplyOptions {
  settings: ReplWorkerSettings;
  /** Extra environment variables on top of this process's (the host's or the REPL's). */
  env: Record<string, string>;
  /** Keep one started worker in reserve (default true). */
  enabled?: boolean | undefined;
}

/** Starts REPL workers and keeps one started spare for the REPLs that share it. */
export class ReplWorkerSupply extends Resource {
  readonly #settings: ReplWorkerSettings;
  readonly #enabled: boolean;
  #env: Record<string, string>;
  #envKey: string;
  #spare: Promise<ReplWorker> | null = null;

  constructor(options: ReplWorkerSupplyOptions) {
    super();
    this.#settings = options.settings;
    this.#enabled = options.enabled ?? true;
    this.#env = { ...options.env };
    this.#envKey = envKey(this.#env);
  }

  /** Starts a worker now and resolves once it answered its handshake (it is not configured yet). */
  start(env: Record<string, string> = this.#env): Promise<ReplWorker> {
    const worker = new ReplWorker({
      ...this.#settings,
      replId: createReplId(),
      env: { ...(process.env as Record<string, string>), ...env },
    });
    // `ready` rejects only once the thread has exited: nothing is left to clean up.
    return worker.ready.then(() => worker);
  }

  /**
   * The spare, if one is alive and was started with `env`; the next spare starts at once (so
   * back-to-back resets overlap two starts). Resolves null when there is none to give.
   */
  async take(env: Record<string, string>): Promise<ReplWorker | null> {
    if (envKey(env) !== this.#envKey) return null;
    const spare = this.#spare;
    this.#spare = null;
    if (spare === null) return null;
    this.refill();
    const worker = await spare.catch(() => null);
    if (worker?.alive === true) return worker;
    await worker?.destroy();
    return null;
  }

  /** Starts a spare unless one exists (called after a REPL took or started a worker). */
  refill(): void {
    if (!this.#enabled || this.closed || this.#spare !== null) return;
    const spare = this.start();
    spare.catch(() => undefined);
    this.#spare = spare;
  }

  /** New environment: a spare started with the old one is ended, and the next one gets this. */
  async setEnv(env: Record<string, string>): Promise<void> {
    const key = envKey(env);
    if (key === this.#envKey) return;
    this.#env = { ...env };
    this.#envKey = key;
    const refill = this.#spare !== null;
    await this.#discard();
    if (refill) this.refill();
  }

  /**
   * `close()` ends the spare; no other starts from the call on. Every caller waits for the same
   * end (common/resource.ts): a REPL and its browser may both close a shared supply.
   */
  protected async closeGracefully(): Promise<void> {
    await this.#discard();
  }

  async #discard(): Promise<void> {
    const spare = this.#spare;
    this.#spare = null;
    const worker = await spare?.catch(() => null);
    await worker?.destroy();
  }
}

function envKey(env: Record<string, string>): string {
  return JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
