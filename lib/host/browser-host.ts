/**
 * Everything that belongs to one browser: its REPLs (the `default` one today; named REPLs run
 * concurrently later), the environment they share, and the browser endpoint they drive. A
 * `HostRegistry` holds many of these; HTTP routes are mounted per host.
 */
import { BrowserManager } from '../browser/browser-manager.js';
import type { BrowserManagerOptions } from '../browser/browser-manager.js';
import { ReplError } from '../../common/errors.js';
import { Repl } from '../repl/repl.js';
import type { ReplOptions } from '../repl/repl.js';
import { LIMITS } from '../../common/limits.js';
import { PlaywrightExecutors } from '../executor/executor-registry.js';
import type { PlaywrightExecutorsOptions } from '../executor/executor-registry.js';

export interface BrowserHostOptions extends Omit<ReplOptions, 'env' | 'browser'> {
  id?: string;
  env?: Record<string, string>;
  /**
   * The browser: launch options (default: find and launch Chromium on first use, or attach to
   * `CDP_ENDPOINT`), an existing `BrowserManager` (not closed by the host), or `false` for
   * pure-JavaScript REPLs.
   */
  browser?: BrowserManagerOptions | BrowserManager | false;
  /** Options of the Playwright executors (the browser is the host's). */
  playwright?: Omit<PlaywrightExecutorsOptions, 'browser'>;
}

export class BrowserHost {
  readonly id: string;
  readonly #options: BrowserHostOptions;
  readonly #repls = new Map<string, Repl>();
  readonly #browser: BrowserManager | null;
  readonly #ownsBrowser: boolean;
  readonly #executors: PlaywrightExecutors | null;
  #env: Record<string, string>;
  #closed = false;

  constructor(options: BrowserHostOptions = {}) {
    this.id = options.id ?? 'default';
    this.#options = options;
    this.#env = { ...options.env };
    const browser = options.browser ?? {};
    this.#ownsBrowser = browser !== false && !(browser instanceof BrowserManager);
    this.#browser = browser === false ? null : browser instanceof BrowserManager ? browser : new BrowserManager(browser);
    this.#executors = this.#browser === null ? null : new PlaywrightExecutors({ ...options.playwright, browser: this.#browser });
  }

  /** The Playwright executors of this browser, or null for a pure-JavaScript host. */
  get executors(): PlaywrightExecutors | null {
    return this.#executors;
  }

  /** The browser this host drives, or null for a pure-JavaScript host. */
  get browser(): BrowserManager | null {
    return this.#browser;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The REPL of that name, created on first use. */
  repl(name = 'default'): Repl {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
    let repl = this.#repls.get(name);
    if (repl === undefined || repl.closed) {
      const { id: _id, env: _env, browser: _browser, playwright: _playwright, ...replOptions } = this.#options;
      // The host's browser is shared by its REPLs and outlives each of them.
      repl = new Repl({ ...replOptions, env: this.#env, browser: this.#browser ?? false });
      this.#repls.set(name, repl);
    }
    return repl;
  }

  /** Sorted names of the stored environment variables. */
  get envNames(): string[] {
    return Object.keys(this.#env).sort();
  }

  /** Replaces the stored environment and applies it to every REPL of this host. */
  async setEnv(env: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<{ replTerminated: boolean }> {
    validateEnv(env);
    this.#env = { ...env };
    let replTerminated = false;
    for (const repl of this.#repls.values()) {
      if (repl.closed) continue;
      const outcome = await repl.setEnv(this.#env, options);
      replTerminated ||= outcome.replTerminated;
    }
    return { replTerminated };
  }

  async close(): Promise<void> {
    this.#closed = true;
    // Executors close their tabs, so they end before the browser does.
    await Promise.all([...this.#repls.values()].map((repl) => repl.close()).concat(this.#executors?.close() ?? []));
    if (this.#ownsBrowser) await this.#browser?.close();
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#repls.values()].map((repl) => repl.destroy()).concat(this.#executors?.close() ?? []));
    if (this.#ownsBrowser) await this.#browser?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

// ----- environment rules (contract §9.1), shared by the HTTP route and the library -----------

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['CDP_ENDPOINT', 'KERNEL_API_ENDPOINT', 'PORT', 'NODE_OPTIONS']);

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_REQUEST', message);
}

/** Throws REPL_ERR_INVALID_REQUEST with the contract's message for the first offending entry. */
export function validateEnv(env: unknown): asserts env is Record<string, string> {
  if (env === undefined || env === null) throw invalid('env is required');
  if (typeof env !== 'object' || Array.isArray(env)) throw invalid('invalid request body: env must be object');
  const entries = Object.entries(env as Record<string, unknown>);
  if (entries.length > LIMITS.envMaxVariables) throw invalid(`env may contain at most ${LIMITS.envMaxVariables} variables`);
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!NAME_PATTERN.test(name) || Buffer.byteLength(name) > LIMITS.envNameBytes) throw invalid(`invalid env name ${JSON.stringify(name)}`);
    if (RESERVED.has(name) || name.startsWith('BROWSER_REPL_')) throw invalid(`env name ${JSON.stringify(name)} is reserved`);
    if (typeof value !== 'string') throw invalid(`invalid request body: env.${name} must be string`);
    if (Buffer.byteLength(value) > LIMITS.envValueBytes) throw invalid(`env value for ${JSON.stringify(name)} exceeds ${LIMITS.envValueBytes} bytes`);
    if (value.includes('\0')) throw invalid(`env value for ${JSON.stringify(name)} contains a NUL byte`);
  }
}
