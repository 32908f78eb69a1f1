/**
 * The registry of the browsers a server serves, by id: its own browser, `default` (what the
 * top-level routes and `/mcp` drive), and the browsers of `POST /browsers`, each a `Browser` with a
 * Chromium of its own (own temporary profile), its REPLs, executors and tabs.
 *
 * `default` is an entry like the others, except in three ways, all decided here and nowhere else:
 * it is never reaped, never listed (`list()`, `GET /browsers`), and can be neither renamed, tagged
 * nor deleted (it lives as long as the registry). No other module compares an id with it.
 *
 * A listed browser ends when it is deleted, or when it has been inactive for `timeoutSeconds`.
 * Activity is what the hosted product counts: an API call addressed to the browser (held from the
 * moment it arrives until its answer ends, so a long cell keeps its browser) and an open CDP
 * connection through `cdp_ws_url`. Ending a browser destroys it: cells end, workers exit, tabs
 * close, Chromium is killed and its profile and download folders are removed.
 *
 * A warm pool keeps `pool` launched, unused browsers so that `create()` need not wait for a
 * launch; it is refilled in the background. Browsers in the pool count towards `maxBrowsers`.
 */
import { debuglog } from 'node:util';
import { createId } from '@paralleldrive/cuid2';

import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { derivedMaxBrowsers } from '../../common/memory-budget.js';
import { checkViewport, resolveViewport } from '../chromium/viewport.js';
import type { Viewport } from '../chromium/viewport.js';
import { BrowserManager } from '../chromium/browser-manager.js';
import type { BrowserManagerOptions } from '../chromium/browser-manager.js';
import { Browser } from './browser.js';
import { CreateQueue } from './create-queue.js';
import type { BrowserOptions, Tags } from './browser.js';
import { resolveTelemetry } from '../telemetry/config.js';

const debug = debuglog('browser-repl:browsers');

/** Inactivity before a session is reaped, when the request does not say (the hosted product's default). */
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** The hosted product's upper bound (72 h). It requires at least 10 s; we accept 1 s, which tests and short jobs want. */
export const MAX_TIMEOUT_SECONDS = 259_200;
export { MEMORY_PER_BROWSER_BYTES } from '../../common/memory-budget.js';
/** The id and name of the server's own browser; no other browser may take it. */
const DEFAULT_BROWSER_ID = 'default';
/** Names: what the hosted product's dashboard accepts in practice, and safe in a URL path. */
const SESSION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** The hosted product allows up to 50 tag pairs. */
const MAX_TAGS = 50;
const MAX_TAG_BYTES = 256;

/** What `create()` accepts (the supported part of the SDK's `BrowserCreateParams`). */
export interface BrowserInit {
  /** Default true: a server has no display. `false` needs one (`DISPLAY`). */
  headless?: boolean | undefined;
  name?: string | undefined;
  /** Inactivity, in seconds, before the browser is reaped (1..259200, default 60). */
  timeoutSeconds?: number | undefined;
  viewport?: Viewport | undefined;
  /** Opened in the first tab once the browser runs; best effort, as in the hosted product. */
  startUrl?: string | undefined;
  tags?: Tags | undefined;
  /** The SDK's `telemetry` field, checked here (docs/telemetry.md); default: no capture. */
  telemetry?: unknown;
  signal?: AbortSignal | undefined;
  /**
   * How long to wait in the create queue when there is no room, in ms, at most the registry's
   * `createWaitMs`. Default `createWaitMs`; 0: the fast `REPL_ERR_BROWSER_LIMIT` of a full server.
   */
  waitMs?: number | undefined;
  /** Leaves the create queue when it fires (the caller found room elsewhere); unlike `signal`, it does not stop a launch once the turn came. */
  leaveQueue?: AbortSignal | undefined;
}

export interface BrowsersOptions {
  /**
   * The server's own browser (`default`): its options, or a `Browser` built by the caller (closed
   * with the registry). As options, they are also what every browser of `create()` starts from:
   * REPL heap, executors, environment, the viewport, and Chromium's launch options (`executable`,
   * `noSandbox`, `args`, `env`). A created browser always launches its own Chromium, even when the
   * server's own is attached through `CDP_ENDPOINT`. Default: `{}` (find and launch Chromium on
   * first use).
   */
  primary?: BrowserOptions | Browser | undefined;
  /** Launched, unused browsers kept ready (default 0). */
  pool?: number | undefined;
  /**
   * Most browsers at once, created and pooled together, the server's own not counted. Default from
   * memory (`createApp` passes `BROWSER_REPL_MAX_BROWSERS` when set: lib/http/settings.ts).
   */
  maxBrowsers?: number | undefined;
  /** Prefix of created browsers' ids (issue 14 names the pod in it). Default none. */
  idPrefix?: string | undefined;
  /** Longest wait of a create for room, in ms (`--create-wait-seconds`). Default 0: a full server refuses at once. */
  createWaitMs?: number | undefined;
  /** Most creates waiting for room at once (`--create-queue`). Default 0 (no waiting). */
  createQueue?: number | undefined;
}

/**
 * A count of browsers (`maxBrowsers`, `pool`, `BROWSER_REPL_MAX_BROWSERS`) as a non-negative
 * integer. @throws ReplError `REPL_ERR_INVALID_ARGUMENT` naming `field`.
 */
export function checkBrowserCount(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field} must be a non-negative integer, got ${String(value)}`);
  return value;
}

export class Browsers extends Resource {
  readonly #primary: Browser;
  /** What created browsers start from (the primary's options, without its id, Chromium and viewport). */
  readonly #defaults: Omit<BrowserOptions, 'id' | 'browser' | 'viewport'>;
  /** Launch options of created browsers (the primary's, when they were options). */
  readonly #launchOptions: BrowserManagerOptions | undefined;
  /** Default viewport of created browsers (the primary's option, else the Chromium default). */
  readonly #viewport: Viewport | undefined;
  readonly #idPrefix: string;
  /** The listed browsers, by id, oldest first. */
  readonly #sessions = new Map<string, Browser>();
  /** Ends in progress, so `close()` can wait for them. */
  readonly #ending = new Set<Promise<void>>();
  readonly #pool: Browser[] = [];
  /** Pool browsers being launched. */
  #filling = 0;
  /** Every launch in flight (pool and create), settled: counted against the limit, and `close()` waits for them. */
  readonly #launches = new Set<Promise<void>>();
  readonly maxBrowsers: number;
  readonly poolSize: number;
  /** Longest wait for room a create may have (docs/deploy.md#waiting-for-room). */
  readonly createWaitMs: number;
  /** Creates waiting for room, oldest first: a freed slot goes to the first. */
  readonly #queue: CreateQueue;
  /** Waiters granted a slot that have not launched yet (between the grant and their next step). */
  #admitted = 0;
  #draining = false;

  constructor(options: BrowsersOptions = {}) {
    super();
    this.maxBrowsers = options.maxBrowsers === undefined ? derivedMaxBrowsers() : checkBrowserCount(options.maxBrowsers, 'maxBrowsers');
    this.poolSize = checkBrowserCount(options.pool ?? 0, 'pool');
    this.#idPrefix = options.idPrefix ?? '';
    this.createWaitMs = checkBrowserCount(options.createWaitMs ?? 0, 'createWaitMs');
    this.#queue = new CreateQueue({ capacity: checkBrowserCount(options.createQueue ?? 0, 'createQueue') });
    const primary = options.primary ?? {};
    if (primary instanceof Browser) {
      this.#primary = primary;
      this.#defaults = {};
      this.#launchOptions = undefined;
      this.#viewport = undefined;
    } else {
      const { id: _id, browser, viewport, ...defaults } = primary;
      this.#primary = new Browser({ ...primary, id: DEFAULT_BROWSER_ID });
      this.#defaults = defaults;
      this.#launchOptions = browser === undefined || browser === false || browser instanceof BrowserManager ? undefined : browser;
      this.#viewport = viewport;
    }
    // Never reaped (no clock), and described by the browsers API under the id it is addressed by.
    this.#primary.enlist({ name: DEFAULT_BROWSER_ID, timeoutSeconds: 0 });
    this.#fillPool();
  }

  /** The server's own browser: what the top-level routes and `/mcp` drive. */
  get primary(): Browser {
    return this.#primary;
  }

  /** Every browser: the server's own first, then the listed ones, oldest first (for `/metrics`). */
  all(): Browser[] {
    return [this.#primary, ...this.#sessions.values()];
  }

  /** The browsers `GET /browsers` lists (the server's own is not one), oldest first. */
  list(): Browser[] {
    return [...this.#sessions.values()];
  }

  /** Creates waiting for room now. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Most creates that may wait for room at once. */
  get queueCapacity(): number {
    return this.#queue.capacity;
  }

  /** Whether a create would start a browser now, without waiting (a pool browser, or a free slot nobody waits for). */
  get hasRoom(): boolean {
    if (this.closed || this.#draining) return false;
    return this.#pool.length > 0 || (this.#queue.length === 0 && this.liveBrowsers + this.#admitted < this.maxBrowsers);
  }

  /** Warm browsers ready right now. */
  get pooled(): number {
    return this.#pool.length;
  }

  /** Browsers alive, starting or still ending: sessions, pool, launches and teardowns in flight. */
  get liveBrowsers(): number {
    return this.#sessions.size + this.#pool.length + this.#launches.size + this.#ending.size;
  }

  /** `drain()` was called: no new browsers, the live ones keep working. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * Stops taking new browsers, the first step of a graceful shutdown (SIGTERM in a pod): `create()`
   * answers 503 `REPL_ERR_DRAINING`, so a client or load balancer tries another server, while the
   * live sessions keep working until they end or the server closes. The pool is not refilled.
   */
  drain(): void {
    this.#draining = true;
    // The waiting creates go elsewhere now: a client or the forwarding server retries another.
    this.#queue.close(new ReplError('REPL_ERR_DRAINING', 'this server began draining while the create waited for room: create it on another server'));
  }

  /**
   * The browser with that id, or else with that name; `default` is the server's own.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`
   */
  get(idOrName: string): Browser {
    if (idOrName === DEFAULT_BROWSER_ID) return this.#primary;
    const byId = this.#sessions.get(idOrName);
    if (byId !== undefined) return byId;
    for (const session of this.#sessions.values()) if (session.name === idOrName) return session;
    throw new ReplError('REPL_ERR_NOT_FOUND', `no browser with id or name "${idOrName}"`);
  }

  /**
   * Launches a browser (or takes one from the pool) and returns it, listed, once Chromium runs.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (a field; the message names it), `REPL_ERR_CONFLICT`
   *   (name taken), `REPL_ERR_BROWSER_LIMIT`, `REPL_ERR_CLOSED`, launch failures.
   */
  async create(init: BrowserInit = {}): Promise<Browser> {
    this.#assertOpen();
    const headless = init.headless ?? true;
    if (typeof headless !== 'boolean') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'headless must be boolean');
    const env = this.#launchOptions?.env ?? process.env;
    if (!headless && process.platform === 'linux' && !env['DISPLAY'] && !env['WAYLAND_DISPLAY']) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST',
        'headless: false needs a display, and this server has none (DISPLAY is not set): run it under a display server such as Xvfb, or leave headless out');
    }
    const timeoutSeconds = checkTimeoutSeconds(init.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    const viewport = init.viewport === undefined ? undefined : asRequestError(() => checkViewport(init.viewport, 'viewport'));
    if (init.name !== undefined) this.#assertNameFree(init.name);
    const tags = init.tags === undefined ? undefined : checkTags(init.tags);
    const startUrl = init.startUrl === undefined ? undefined : checkStartUrl(init.startUrl);
    const telemetry = resolveTelemetry(init.telemetry, undefined, 'create');

    // A pool browser fits when the request asks for what the pool launched: headless, default viewport.
    const fitsPool = headless && (viewport === undefined || sameViewport(viewport, this.#defaultViewport()));
    let browser = fitsPool ? this.#pool.shift() : undefined;
    const pooled = browser !== undefined;
    if (browser === undefined) {
      // First in, first out: a create that arrives while others wait waits behind them.
      if (this.#queue.length > 0 || this.liveBrowsers + this.#admitted >= this.maxBrowsers) {
        const waitMs = Math.min(init.waitMs ?? this.createWaitMs, this.createWaitMs);
        if (waitMs <= 0 || this.#queue.capacity === 0) {
          throw new ReplError('REPL_ERR_BROWSER_LIMIT',
            `this server already runs ${this.liveBrowsers} of its ${this.maxBrowsers} browsers; delete one (DELETE /browsers/{id}) `
            + 'or wait for an idle one to be reaped (timeout_seconds); the limit is maxBrowsers (BROWSER_REPL_MAX_BROWSERS)');
        }
        const signals = [init.signal, init.leaveQueue].filter((signal) => signal !== undefined);
        await this.#queue.wait({ timeoutMs: waitMs, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
        // Granted: the slot was counted for this create in #admitted until it launches, now.
        this.#admitted--;
        try {
          this.#assertOpen();
          if (init.name !== undefined) this.#assertNameFree(init.name);
        } catch (error) {
          // This create will not use its turn: the next waiter gets it.
          this.#slotFreed();
          throw error;
        }
      }
      browser = await this.#launch({ headless, viewport }, init.signal);
    }
    this.#fillPool();
    // The name may have been taken while this one launched.
    if (init.name !== undefined) {
      try {
        this.#assertNameFree(init.name);
      } catch (error) {
        await browser.destroy();
        this.#slotFreed();
        throw error;
      }
    }
    browser.enlist({
      name: init.name, tags, startUrl, pooled, timeoutSeconds,
      onIdle: (idle) => {
        debug('%s idle for %d s: reaping', idle.id, idle.timeoutSeconds);
        void this.#end(idle);
      },
    });
    const created = browser;
    this.#sessions.set(created.id, created);
    // Before the start URL opens, so its first events are captured.
    created.telemetry.configure(telemetry);
    if (startUrl !== undefined) {
      // Best effort and not awaited, as the hosted product: the URL is recorded, a failure dropped.
      created.tabs?.navigateFirstTab(startUrl).catch((error: unknown) => debug('%s: start_url failed: %o', created.id, error));
    }
    debug('created %s%s', created.id, pooled ? ' (from the pool)' : '');
    return created;
  }

  /**
   * Renames or retags a browser. `null` removes the name or the tags. The server's own browser
   * can be neither.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_CONFLICT`
   */
  update(idOrName: string, changes: { name?: string | null | undefined; tags?: Tags | null | undefined; telemetry?: unknown }): Browser {
    const session = this.get(idOrName);
    // The fields it refuses are named, so that the message says what to drop.
    const refused = (['name', 'tags'] as const).filter((field) => changes[field] !== undefined);
    // The server's own browser may have telemetry, not a new name or tags.
    if (session === this.#primary && (refused.length > 0 || changes.telemetry === undefined)) {
      const what = refused.length === 0 ? '' : `${refused.join(', ')}: `;
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `${what}the default browser cannot be renamed or tagged`);
    }
    const telemetry = resolveTelemetry(changes.telemetry, session.telemetry.selection, 'update');
    if (changes.name !== undefined && changes.name !== null && changes.name !== session.name) this.#assertNameFree(changes.name);
    const tags = changes.tags === undefined || changes.tags === null ? changes.tags : checkTags(changes.tags);
    if (changes.name !== undefined) session.name = changes.name ?? undefined;
    if (tags !== undefined) session.tags = tags ?? undefined;
    session.telemetry.configure(telemetry);
    return session;
  }

  /**
   * Ends a listed browser: at once it is gone from the API (its id and name are free, its calls fail),
   * then its cells end, its workers exit, its Chromium is killed and its folders are removed.
   * Resolves at the first point, or with `wait` once all of that is done. A browser still ending
   * counts towards `maxBrowsers` (it still holds its memory); `close()` waits for it.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`
   */
  async delete(idOrName: string, options: { wait?: boolean } = {}): Promise<void> {
    const browser = this.get(idOrName);
    if (browser === this.#primary) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'the default browser cannot be deleted (it lives as long as the server); DELETE /repls/default resets its REPL');
    }
    const ended = this.#end(browser);
    if (options.wait === true) await ended;
  }

  /** Ends every browser, the server's own included, waiting for running cells to end gracefully. */
  protected async closeGracefully(): Promise<void> {
    await this.#shutdown((browser) => browser.close());
  }

  /** Ends every browser now (running cells are cancelled). */
  protected override async destroyNow(): Promise<void> {
    await this.#shutdown((browser) => browser.destroy());
  }

  async #shutdown(end: (browser: Browser) => Promise<void>): Promise<void> {
    this.#queue.close(new ReplError('REPL_ERR_CLOSED', 'the server is shutting down'));
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    const pool = this.#pool.splice(0);
    await Promise.all([this.#primary, ...sessions, ...pool].map(end));
    // Launches and teardowns still running, including any a finishing launch starts now.
    while (this.#launches.size + this.#ending.size > 0) await Promise.all([...this.#launches, ...this.#ending]);
  }

  #end(session: Browser): Promise<void> {
    if (this.#sessions.get(session.id) !== session) return Promise.resolve();
    this.#sessions.delete(session.id);
    const ending = session.destroy()
      .catch((error: unknown) => debug('%s: teardown failed: %o', session.id, error))
      .finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
    // A freed slot goes to the first waiting create, else may let the pool refill.
    void ending.then(() => this.#slotFreed());
    return ending;
  }

  /** Room may have appeared: the oldest waiting creates get it first, the pool what is left. */
  #slotFreed(): void {
    while (this.#queue.length > 0 && !this.closed && this.liveBrowsers + this.#admitted < this.maxBrowsers) {
      this.#admitted++;
      this.#queue.grant();
    }
    this.#fillPool();
  }

  #fillPool(): void {
    while (!this.closed && !this.#draining && this.#queue.length === 0 && this.#pool.length + this.#filling < this.poolSize && this.liveBrowsers < this.maxBrowsers) {
      this.#filling++;
      this.#launch({ headless: true, viewport: undefined }, undefined).then(
        (browser) => {
          this.#filling--;
          if (!this.closed) {
            this.#pool.push(browser);
            return;
          }
          // close() began in the moment between the launch's own check and this: end it, tracked.
          const ending = browser.destroy().catch(() => undefined).finally(() => this.#ending.delete(ending));
          this.#ending.add(ending);
        },
        (error: unknown) => {
          this.#filling--;
          // A pool that cannot launch stays short; every create() then launches and reports why.
          debug('warming a pool browser failed: %o', error);
        },
      );
    }
  }

  /** Launches a browser; `close()` waits for every launch still running. */
  #launch(launch: { headless: boolean; viewport: Viewport | undefined }, signal: AbortSignal | undefined): Promise<Browser> {
    const launching = this.#launchBrowser(launch, signal);
    const settled = launching.then(() => false, () => true);
    const tracked = settled.then(() => undefined);
    this.#launches.add(tracked);
    void settled.then((failed) => {
      this.#launches.delete(tracked);
      // A launch that failed leaves its slot free (a successful one holds it as a browser).
      if (failed) this.#slotFreed();
    });
    return launching;
  }

  async #launchBrowser(launch: { headless: boolean; viewport: Viewport | undefined }, signal: AbortSignal | undefined): Promise<Browser> {
    const viewport = launch.viewport ?? this.#viewport;
    const browser = new Browser({
      ...this.#defaults,
      id: `${this.#idPrefix}${createId()}`,
      // A created browser always launches a Chromium of its own, even when the server's own is attached.
      browser: { ...this.#launchOptions, cdpEndpoint: null, headless: launch.headless },
      ...(viewport === undefined ? {} : { viewport }),
    });
    try {
      await browser.chromium!.endpoint({ signal });
      // Everything a first cell would set up, done now: the browser's own connection (with the
      // download folder applied) and the default REPL's worker, connected with its page attached.
      await browser.tabs!.downloads.prepare('repl:default');
      await browser.repl('default').warm({ signal });
      // A launch that ends after close() began must not outlive it: close() waits for launches.
      if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
      return browser;
    } catch (error) {
      await browser.destroy();
      throw error;
    }
  }

  #defaultViewport(): Viewport {
    return resolveViewport(this.#viewport, this.#launchOptions?.env ?? process.env);
  }

  #assertNameFree(name: string): void {
    if (typeof name !== 'string' || !SESSION_NAME_PATTERN.test(name)) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'name must be 1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit');
    }
    if (name === DEFAULT_BROWSER_ID) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'name "default" is reserved for the server\'s own browser');
    for (const session of this.#sessions.values()) {
      if (session.name === name || session.id === name) throw new ReplError('REPL_ERR_CONFLICT', `a browser named "${name}" already exists (${session.id})`);
    }
  }

  #assertOpen(): void {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    if (this.#draining) throw new ReplError('REPL_ERR_DRAINING', 'this server is draining (shutting down gracefully) and takes no new browsers: create it on another server');
  }
}

function checkTimeoutSeconds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_SECONDS) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `timeout_seconds must be an integer from 1 to ${MAX_TIMEOUT_SECONDS}`);
  }
  return value;
}

function checkTags(tags: unknown): Tags {
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'tags must be an object of strings');
  const entries = Object.entries(tags as Record<string, unknown>);
  if (entries.length > MAX_TAGS) throw new ReplError('REPL_ERR_INVALID_REQUEST', `tags may hold at most ${MAX_TAGS} pairs`);
  const checked: Tags = {};
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `tags.${key} must be string`);
    if (key === '' || Buffer.byteLength(key) > MAX_TAG_BYTES || Buffer.byteLength(value) > MAX_TAG_BYTES) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `tags.${key}: keys must be 1 to ${MAX_TAG_BYTES} bytes and values at most ${MAX_TAG_BYTES}`);
    }
    Object.defineProperty(checked, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return checked;
}

function checkStartUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'start_url must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'start_url must be an absolute http: or https: URL');
  return url.href;
}

/** The library's argument errors, as the 400 an HTTP field error is. */
function asRequestError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ReplError && error.code === 'REPL_ERR_INVALID_ARGUMENT') throw new ReplError('REPL_ERR_INVALID_REQUEST', error.message);
    throw error;
  }
}

function sameViewport(a: Viewport, b: Viewport): boolean {
  return a.width === b.width && a.height === b.height;
}
