/**
 * The browsers a server hosts besides its default one (`POST /browsers`): each session is a
 * `BrowserHost` with a Chromium of its own (own temporary profile), its REPLs, executors and tabs.
 *
 * A session ends when it is deleted, or when it has been inactive for `timeoutSeconds`. Activity
 * is what the hosted product counts: an API call addressed to the browser (held from the moment
 * it arrives until its answer ends, so a long cell keeps its browser) and an open CDP connection
 * through `cdp_ws_url`. Ending a session destroys its host: cells end, workers exit, tabs close,
 * Chromium is killed and its profile and download folders are removed.
 *
 * A warm pool keeps `pool` launched, unused browsers so that `create()` need not wait for a
 * launch; it is refilled in the background. Browsers in the pool count towards `maxBrowsers`.
 */
import { debuglog } from 'node:util';
import { createId } from '@paralleldrive/cuid2';

import { ReplError } from '../../common/errors.js';
import { derivedMaxBrowsers } from '../../common/memory-budget.js';
import { checkViewport, resolveViewport } from '../browser/viewport.js';
import type { Viewport } from '../browser/viewport.js';
import type { BrowserManagerOptions } from '../browser/browser-manager.js';
import { BrowserHost } from './browser-host.js';
import type { BrowserHostOptions } from './browser-host.js';

const debug = debuglog('browser-repl:browsers');

/** Inactivity before a session is reaped, when the request does not say (the hosted product's default). */
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** The hosted product's upper bound (72 h). It requires at least 10 s; we accept 1 s, which tests and short jobs want. */
export const MAX_TIMEOUT_SECONDS = 259_200;
export { MEMORY_PER_BROWSER_BYTES } from '../../common/memory-budget.js';
/** The id and name a session may never take: it addresses the server's own browser. */
export const DEFAULT_BROWSER_ID = 'default';
/** Names: what the hosted product's dashboard accepts in practice, and safe in a URL path. */
const SESSION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** The hosted product allows up to 50 tag pairs. */
const MAX_TAGS = 50;
const MAX_TAG_BYTES = 256;

export type Tags = Record<string, string>;

/** What `create()` accepts (the supported part of the SDK's `BrowserCreateParams`). */
export interface BrowserSessionInit {
  /** Default true: a server has no display. `false` needs one (`DISPLAY`). */
  headless?: boolean | undefined;
  name?: string | undefined;
  /** Inactivity, in seconds, before the session is reaped (1..259200, default 60). */
  timeoutSeconds?: number | undefined;
  viewport?: Viewport | undefined;
  /** Opened in the first tab once the browser runs; best effort, as in the hosted product. */
  startUrl?: string | undefined;
  tags?: Tags | undefined;
  signal?: AbortSignal | undefined;
}

export interface BrowserSessionsOptions {
  /**
   * What every session's host starts from: REPL heap, executors, environment, and the browser's
   * launch options (`executable`, `noSandbox`, `args`, `env`). A session always launches its own
   * Chromium, even when the default browser is attached through `CDP_ENDPOINT`.
   */
  hostDefaults?: Omit<BrowserHostOptions, 'id' | 'browser' | 'viewport'> | undefined;
  /** Launch options of session browsers (from the default host's, when they were options). */
  browser?: BrowserManagerOptions | undefined;
  /** Default viewport of session browsers (the default host's, else the manager's default). */
  viewport?: Viewport | undefined;
  /** Launched, unused browsers kept ready (default 0). */
  pool?: number | undefined;
  /** Most browsers at once, sessions and pool together, the default browser not counted. Default from memory. */
  maxBrowsers?: number | undefined;
  /** Prefix of session ids (issue 14 names the pod in it). Default none. */
  idPrefix?: string | undefined;
}

/** One browser session. */
export class BrowserSession {
  readonly id: string;
  readonly host: BrowserHost;
  readonly createdAt: Date;
  readonly headless: boolean;
  readonly timeoutSeconds: number;
  readonly viewport: Viewport;
  readonly startUrl: string | undefined;
  /** Taken from the warm pool rather than launched for this request. */
  readonly pooled: boolean;
  name: string | undefined;
  tags: Tags | undefined;
  #holds = 0;
  #timer: NodeJS.Timeout | undefined;
  #lastActiveAt: number;
  readonly #onIdle: (session: BrowserSession) => void;

  constructor(init: {
    id: string; host: BrowserHost; headless: boolean; timeoutSeconds: number; viewport: Viewport; pooled: boolean;
    name?: string | undefined; tags?: Tags | undefined; startUrl?: string | undefined;
  }, onIdle: (session: BrowserSession) => void) {
    this.id = init.id;
    this.host = init.host;
    this.createdAt = new Date();
    this.headless = init.headless;
    this.timeoutSeconds = init.timeoutSeconds;
    this.viewport = init.viewport;
    this.pooled = init.pooled;
    this.name = init.name;
    this.tags = init.tags;
    this.startUrl = init.startUrl;
    this.#lastActiveAt = Date.now();
    this.#onIdle = onIdle;
    this.#arm();
  }

  /** Open API calls and CDP connections right now. */
  get activeHolds(): number {
    return this.#holds;
  }

  /** When the last activity ended (or now, while one is open). */
  get lastActiveAt(): Date {
    return new Date(this.#holds > 0 ? Date.now() : this.#lastActiveAt);
  }

  /**
   * Marks the start of an activity (an API call, an open CDP connection); the returned function
   * ends it (idempotent). The inactivity clock stops while any activity is open.
   */
  hold(): () => void {
    this.#holds++;
    this.#disarm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      this.#lastActiveAt = Date.now();
      if (this.#holds === 0) this.#arm();
    };
  }

  /** Stops the inactivity clock for good (the session is ending). */
  end(): void {
    this.#disarm();
    this.#holds = Number.POSITIVE_INFINITY;
  }

  #arm(): void {
    this.#disarm();
    this.#timer = setTimeout(() => {
      // Work that outlived its request (a streamed cell whose client went away) is activity too.
      if (this.host.busy) this.#arm();
      else this.#onIdle(this);
    }, this.timeoutSeconds * 1000);
    // The clock must not keep a process alive that has nothing else to do.
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The limit when none is configured: what the machine's memory holds at 512 MiB per browser. */
export function defaultMaxBrowsers(env: NodeJS.ProcessEnv = process.env): number {
  const configured = env['BROWSER_REPL_MAX_BROWSERS'];
  if (configured !== undefined && configured !== '') return checkMaxBrowsers(Number(configured), 'BROWSER_REPL_MAX_BROWSERS');
  return derivedMaxBrowsers();
}

function checkMaxBrowsers(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field} must be a non-negative integer, got ${String(value)}`);
  return value;
}

export class BrowserSessions {
  readonly #options: BrowserSessionsOptions;
  readonly #sessions = new Map<string, BrowserSession>();
  /** Ends in progress, so `close()` can wait for them. */
  readonly #ending = new Set<Promise<void>>();
  readonly #pool: BrowserHost[] = [];
  /** Pool browsers being launched. */
  #filling = 0;
  /** Every launch in flight (pool and create), settled: counted against the limit, and `close()` waits for them. */
  readonly #launches = new Set<Promise<void>>();
  readonly maxBrowsers: number;
  readonly poolSize: number;
  #closed = false;
  #draining = false;

  constructor(options: BrowserSessionsOptions = {}) {
    this.#options = options;
    this.maxBrowsers = options.maxBrowsers === undefined ? defaultMaxBrowsers() : checkMaxBrowsers(options.maxBrowsers, 'maxBrowsers');
    this.poolSize = checkMaxBrowsers(options.pool ?? 0, 'pool');
    this.#fillPool();
  }

  /** Live sessions, oldest first. */
  list(): BrowserSession[] {
    return [...this.#sessions.values()];
  }

  /** Warm browsers ready right now. */
  get pooled(): number {
    return this.#pool.length;
  }

  /** Browsers alive, starting or still ending: sessions, pool, launches and teardowns in flight. */
  get liveBrowsers(): number {
    return this.#sessions.size + this.#pool.length + this.#launches.size + this.#ending.size;
  }

  get closed(): boolean {
    return this.#closed;
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
  }

  /**
   * The session with that id, or else with that name.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`
   */
  get(idOrName: string): BrowserSession {
    const byId = this.#sessions.get(idOrName);
    if (byId !== undefined) return byId;
    for (const session of this.#sessions.values()) if (session.name === idOrName) return session;
    throw new ReplError('REPL_ERR_NOT_FOUND', `no browser with id or name "${idOrName}"`);
  }

  /**
   * Launches a browser (or takes one from the pool) and returns its session once Chromium runs.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (a field; the message names it), `REPL_ERR_CONFLICT`
   *   (name taken), `REPL_ERR_BROWSER_LIMIT`, `REPL_ERR_CLOSED`, launch failures.
   */
  async create(init: BrowserSessionInit = {}): Promise<BrowserSession> {
    this.#assertOpen();
    const headless = init.headless ?? true;
    if (typeof headless !== 'boolean') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'headless must be boolean');
    const env = this.#options.browser?.env ?? process.env;
    if (!headless && process.platform === 'linux' && !env['DISPLAY'] && !env['WAYLAND_DISPLAY']) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST',
        'headless: false needs a display, and this server has none (DISPLAY is not set): run it under a display server such as Xvfb, or leave headless out');
    }
    const timeoutSeconds = checkTimeoutSeconds(init.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    const viewport = init.viewport === undefined ? undefined : asRequestError(() => checkViewport(init.viewport, 'viewport'));
    if (init.name !== undefined) this.#assertNameFree(init.name);
    const tags = init.tags === undefined ? undefined : checkTags(init.tags);
    const startUrl = init.startUrl === undefined ? undefined : checkStartUrl(init.startUrl);

    // A pool browser fits when the request asks for what the pool launched: headless, default viewport.
    const fitsPool = headless && (viewport === undefined || sameViewport(viewport, this.#defaultViewport()));
    let host = fitsPool ? this.#pool.shift() : undefined;
    const pooled = host !== undefined;
    if (host === undefined) {
      if (this.liveBrowsers >= this.maxBrowsers) {
        throw new ReplError('REPL_ERR_BROWSER_LIMIT',
          `this server already runs ${this.liveBrowsers} of its ${this.maxBrowsers} browsers; delete one (DELETE /browsers/{id}) `
          + 'or wait for an idle one to be reaped (timeout_seconds); the limit is maxBrowsers (BROWSER_REPL_MAX_BROWSERS)');
      }
      host = await this.#launch({ headless, viewport }, init.signal);
    }
    this.#fillPool();
    // The name may have been taken while this one launched.
    if (init.name !== undefined) {
      try {
        this.#assertNameFree(init.name);
      } catch (error) {
        await host.destroy();
        throw error;
      }
    }
    const session = new BrowserSession({
      id: host.id, host, headless, timeoutSeconds, viewport: viewport ?? this.#defaultViewport(), pooled,
      name: init.name, tags, startUrl,
    }, (idle) => {
      debug('%s idle for %d s: reaping', idle.id, idle.timeoutSeconds);
      void this.#end(idle);
    });
    this.#sessions.set(session.id, session);
    if (startUrl !== undefined) {
      // Best effort and not awaited, as the hosted product: the URL is recorded, a failure dropped.
      host.tabs?.navigateFirstTab(startUrl).catch((error: unknown) => debug('%s: start_url failed: %o', session.id, error));
    }
    debug('created %s%s', session.id, pooled ? ' (from the pool)' : '');
    return session;
  }

  /**
   * Renames or retags a session. `null` removes the name or the tags.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_CONFLICT`
   */
  update(idOrName: string, changes: { name?: string | null | undefined; tags?: Tags | null | undefined }): BrowserSession {
    const session = this.get(idOrName);
    if (changes.name !== undefined && changes.name !== null && changes.name !== session.name) this.#assertNameFree(changes.name);
    const tags = changes.tags === undefined || changes.tags === null ? changes.tags : checkTags(changes.tags);
    if (changes.name !== undefined) session.name = changes.name ?? undefined;
    if (tags !== undefined) session.tags = tags ?? undefined;
    return session;
  }

  /**
   * Ends a session: at once it is gone from the API (its id and name are free, its calls fail),
   * then its cells end, its workers exit, its Chromium is killed and its folders are removed.
   * Resolves at the first point, or with `wait` once all of that is done. A browser still ending
   * counts towards `maxBrowsers` (it still holds its memory); `close()` waits for it.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`
   */
  async delete(idOrName: string, options: { wait?: boolean } = {}): Promise<void> {
    const ended = this.#end(this.get(idOrName));
    if (options.wait === true) await ended;
  }

  /** Ends every session and pool browser, waiting for running cells to end gracefully. */
  async close(): Promise<void> {
    await this.#shutdown((host) => host.close());
  }

  /** Ends every session and pool browser now (running cells are cancelled). */
  async destroy(): Promise<void> {
    await this.#shutdown((host) => host.destroy());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #shutdown(end: (host: BrowserHost) => Promise<void>): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const session of sessions) session.end();
    const pool = this.#pool.splice(0);
    await Promise.all([...sessions.map((session) => end(session.host)), ...pool.map(end)]);
    // Launches and teardowns still running, including any a finishing launch starts now.
    while (this.#launches.size + this.#ending.size > 0) await Promise.all([...this.#launches, ...this.#ending]);
  }

  #end(session: BrowserSession): Promise<void> {
    if (this.#sessions.get(session.id) !== session) return Promise.resolve();
    this.#sessions.delete(session.id);
    session.end();
    const ending = session.host.destroy()
      .catch((error: unknown) => debug('%s: teardown failed: %o', session.id, error))
      .finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
    // A freed slot may let the pool refill.
    void ending.then(() => this.#fillPool());
    return ending;
  }

  #fillPool(): void {
    while (!this.#closed && !this.#draining && this.#pool.length + this.#filling < this.poolSize && this.liveBrowsers < this.maxBrowsers) {
      this.#filling++;
      this.#launch({ headless: true, viewport: undefined }, undefined).then(
        (host) => {
          this.#filling--;
          if (!this.#closed) {
            this.#pool.push(host);
            return;
          }
          // close() began in the moment between the launch's own check and this: end it, tracked.
          const ending = host.destroy().catch(() => undefined).finally(() => this.#ending.delete(ending));
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

  /** Launches a host's browser; `close()` waits for every launch still running. */
  #launch(launch: { headless: boolean; viewport: Viewport | undefined }, signal: AbortSignal | undefined): Promise<BrowserHost> {
    const launching = this.#launchHost(launch, signal);
    const settled = launching.then(() => undefined, () => undefined);
    this.#launches.add(settled);
    void settled.then(() => this.#launches.delete(settled));
    return launching;
  }

  async #launchHost(launch: { headless: boolean; viewport: Viewport | undefined }, signal: AbortSignal | undefined): Promise<BrowserHost> {
    const hostDefaults = this.#options.hostDefaults ?? {};
    const viewport = launch.viewport ?? this.#options.viewport;
    const host = new BrowserHost({
      ...hostDefaults,
      id: `${this.#options.idPrefix ?? ''}${createId()}`,
      // A session always launches a browser of its own, even when the default one is attached.
      browser: { ...this.#options.browser, cdpEndpoint: null, headless: launch.headless },
      ...(viewport === undefined ? {} : { viewport }),
    });
    try {
      await host.browser!.endpoint({ signal });
      // Everything a first cell would set up, done now: the host's own browser connection (with
      // the download folder applied) and the default REPL's worker, connected with its page attached.
      await host.tabs!.downloads.prepare('repl:default');
      await host.repl('default').warm({ signal });
      // A launch that ends after close() began must not outlive it: close() waits for launches.
      if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
      return host;
    } catch (error) {
      await host.destroy();
      throw error;
    }
  }

  #defaultViewport(): Viewport {
    return resolveViewport(this.#options.viewport, this.#options.browser?.env ?? process.env);
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
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
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
