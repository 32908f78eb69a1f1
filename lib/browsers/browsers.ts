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
 * It is the default pool of `/browser_pools` (lib/browsers/browser-pools.ts): `create()` takes a
 * browser out of it for good, a pool's `acquire` leases one (docs/browsers.md#pools). Named pools
 * are warm pools of the same kind ({@link createWarmPool}), their browsers counted here too.
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
import type { BrowserOptions, BrowserProfileInfo, Tags } from './browser.js';
import { resolveTelemetry } from '../telemetry/config.js';
import { relayChromiumArgs } from '../proxies/config.js';
import type { StoredProxy } from '../proxies/config.js';
import { ProxyRelay } from '../proxies/relay.js';
import type { ProxyStore } from '../proxies/store.js';
import type { TelemetrySelection } from '../telemetry/config.js';
import { WarmPool } from '../pools/warm-pool.js';
import { recycleBrowser } from './browser-recycle.js';
import { checkProfileName } from '../profiles/profile-rules.js';
import type { ProfileStore, StoredProfile } from '../profiles/profile-store.js';

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
/** Callers that may wait in the default pool's `acquire` line at once (a named pool sets its own). */
export const DEFAULT_POOL_MAX_WAITERS = 100;

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
  /**
   * Unpacked extension folders Chromium loads at launch (`--load-extension`;
   * docs/browsers.md#extensions). Such a browser is launched for the request, never taken from
   * the pool.
   */
  extensionDirs?: readonly string[] | undefined;
  /**
   * A proxy of `proxies` (the SDK's `proxy_id`): the browser talks to a relay of its own on
   * 127.0.0.1 that forwards to it and answers its authentication (docs/browsers.md#proxies).
   */
  proxyId?: string | undefined;
  /**
   * The SDK's `profile` (`{ id | name, save_changes }`, docs/browsers.md#profiles): the browser
   * starts with a copy of that stored profile, and with `save_changes` writes its user data back
   * when it ends. Needs `profiles` of the registry.
   */
  profile?: unknown;
  signal?: AbortSignal | undefined;
  /**
   * How long to wait in the create queue when there is no room, in ms, at most the registry's
   * `createWaitMs`. Default `createWaitMs`; 0: the fast `REPL_ERR_BROWSER_LIMIT` of a full server.
   */
  waitMs?: number | undefined;
  /** Leaves the create queue when it fires (the caller found room elsewhere); unlike `signal`, it does not stop a launch once the turn came. */
  leaveQueue?: AbortSignal | undefined;
}

/**
 * A create request, checked ({@link Browsers.resolveInit}): what a launch needs and what the
 * listing gets. A pool keeps one as its configuration, so that a field `create()` learns is a
 * field pools have too.
 */
export interface BrowserSpec {
  headless: boolean;
  viewport: Viewport | undefined;
  timeoutSeconds: number;
  name: string | undefined;
  tags: Tags | undefined;
  startUrl: string | undefined;
  telemetry: TelemetrySelection | undefined;
  /** The proxy its relay forwards to (`proxy_id`; docs/browsers.md#proxies). */
  proxy: StoredProxy | undefined;
  /** Chromium flags of this browser alone (its extensions' `--load-extension`). */
  args: readonly string[];
  /** The stored profile's user data it starts from, and saves to (`profile`; docs/browsers.md#profiles). */
  userData?: BrowserManagerOptions['userData'];
}

/** What {@link Browsers.createWarmPool} needs of a pool. */
export interface WarmPoolConfig {
  size: number;
  fillRatePerMinute?: number | undefined;
  /** Callers that may wait in `acquire` at once. */
  maxWaiters: number;
  /** The configuration its browsers launch with (read at each launch, so an update applies to the next one). */
  spec: () => BrowserSpec;
  /** The pool keeps a profile: a released browser keeps its cookies and sites' storage (lib/browsers/browser-recycle.ts). */
  keepProfile: () => boolean;
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
  /** The proxies `proxyId` names (`/proxies`). Default none: a `proxyId` is then not found. */
  proxies?: ProxyStore | undefined;
  /** The stored profiles `create({ profile })` loads and saves (docs/browsers.md#profiles). Default none: `profile` is refused. */
  profiles?: ProfileStore | undefined;
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
  readonly #profiles: ProfileStore | undefined;
  /** The listed browsers, by id, oldest first. */
  readonly #sessions = new Map<string, Browser>();
  /** Ends in progress, so `close()` can wait for them. */
  readonly #ending = new Set<Promise<void>>();
  /** The server's warm pool (`pool`), the default pool of `/browser_pools`. */
  readonly #defaultPool: WarmPool<Browser>;
  /** Every warm pool, the default one included: a browser's end may let each refill. */
  readonly #pools = new Set<WarmPool<Browser>>();
  /** Launched browsers that are nobody's right now: idle in a pool, or being cleaned after a release. */
  readonly #parked = new Set<Browser>();
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
  readonly #proxies: ProxyStore | undefined;
  /** The relay and proxy of each browser created with a `proxyId` (its relay closes with it). */
  readonly #proxied = new WeakMap<Browser, { relay: ProxyRelay; proxyId: string | undefined }>();
  /** Pool browsers that save a profile when they end, and whether they were ever leased (#launchParked). */
  readonly #poolLeases = new WeakMap<Browser, { used: boolean }>();

  constructor(options: BrowsersOptions = {}) {
    super();
    this.maxBrowsers = options.maxBrowsers === undefined ? derivedMaxBrowsers() : checkBrowserCount(options.maxBrowsers, 'maxBrowsers');
    this.poolSize = checkBrowserCount(options.pool ?? 0, 'pool');
    this.#idPrefix = options.idPrefix ?? '';
    this.#proxies = options.proxies;
    this.#profiles = options.profiles;
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
    this.#defaultPool = this.createWarmPool({
      size: this.poolSize, maxWaiters: DEFAULT_POOL_MAX_WAITERS, spec: () => this.resolveInit({}), keepProfile: () => false,
    });
    this.#defaultPool.fill();
  }

  /** The server's warm pool (`pool`, `--browser-pool`): the pool `default` of `/browser_pools`. */
  get defaultPool(): WarmPool<Browser> {
    return this.#defaultPool;
  }

  /**
   * A warm pool whose browsers this registry launches, counts against `maxBrowsers`, cleans on a
   * release with reuse (lib/browsers/browser-recycle.ts; a browser that fails it is ended and
   * replaced) and ends. Fill it with `fill()`; end it with {@link removeWarmPool}.
   */
  createWarmPool(config: WarmPoolConfig): WarmPool<Browser> {
    const pool: WarmPool<Browser> = new WarmPool<Browser>({
      size: config.size,
      fillRatePerMinute: config.fillRatePerMinute,
      maxWaiters: config.maxWaiters,
      launch: () => this.#launchParked(config.spec()),
      canLaunch: () => !this.closed && !this.#draining && this.liveBrowsers < this.maxBrowsers,
      recycle: (browser) => this.#recycle(browser, config.keepProfile()),
      retire: (browser) => this.#retire(browser),
      onLaunchError: (error) => debug('warming a pool browser failed: %o', error),
    });
    this.#pools.add(pool);
    return pool;
  }

  /**
   * Ends a warm pool: its waiters get `REPL_ERR_CLOSED`, its idle browsers end. Its leased browsers
   * end too with `force`; without, they live on as ordinary browsers until deleted or reaped.
   */
  async removeWarmPool(pool: WarmPool<Browser>, options: { force?: boolean } = {}): Promise<void> {
    this.#pools.delete(pool);
    const leased = await pool.close();
    for (const browser of leased) {
      browser.poolId = undefined;
      if (options.force === true) await this.#end(browser);
    }
  }

  /**
   * A browser a pool handed out, listed as `create()` lists its own: with the spec's name, tags,
   * start URL, inactivity clock and telemetry. The caller has taken it out of its pool.
   *
   * @throws ReplError `REPL_ERR_CONFLICT` (the name is taken; the browser is then the caller's to give back).
   */
  adopt(browser: Browser, spec: BrowserSpec, options: { pooled: boolean; poolId?: string | undefined; profile?: BrowserProfileInfo | undefined }): Browser {
    if (spec.name !== undefined) this.#assertNameFree(spec.name);
    this.#parked.delete(browser);
    const lease = this.#poolLeases.get(browser);
    if (lease !== undefined) lease.used = true;
    browser.poolId = options.poolId;
    browser.enlist({
      name: spec.name, tags: spec.tags, startUrl: spec.startUrl, pooled: options.pooled, timeoutSeconds: spec.timeoutSeconds,
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      onIdle: (idle) => {
        debug('%s idle for %d s: reaping', idle.id, idle.timeoutSeconds);
        void this.#end(idle);
      },
    });
    this.#sessions.set(browser.id, browser);
    // Before the start URL opens, so its first events are captured.
    browser.telemetry.configure(spec.telemetry);
    const { startUrl } = spec;
    if (startUrl !== undefined) {
      // Best effort and not awaited, as the hosted product: the URL is recorded, a failure dropped.
      browser.tabs?.navigateFirstTab(startUrl).catch((error: unknown) => debug('%s: start_url failed: %o', browser.id, error));
    }
    return browser;
  }

  /**
   * Takes a listed browser back for its pool (a release): gone from the API at once (its id, name
   * and calls), still alive and counted, for the pool to clean or retire.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`
   */
  detach(browser: Browser): void {
    if (this.#sessions.get(browser.id) !== browser) throw new ReplError('REPL_ERR_NOT_FOUND', `no browser with id "${browser.id}"`);
    this.#sessions.delete(browser.id);
    this.#parked.add(browser);
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
    return this.#defaultPool.available > 0 || (this.#queue.length === 0 && this.liveBrowsers + this.#admitted < this.maxBrowsers);
  }

  /** Warm browsers of the default pool ready right now. */
  get pooled(): number {
    return this.#defaultPool.available;
  }

  /** Browsers alive, starting or still ending: sessions, pools (idle or being cleaned), launches and teardowns in flight. */
  get liveBrowsers(): number {
    return this.#sessions.size + this.#parked.size + this.#launches.size + this.#ending.size;
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
    const profile = init.profile === undefined || init.profile === null ? undefined : await this.resolveProfile(init.profile);
    const spec: BrowserSpec = { ...this.resolveInit(init), ...(profile === undefined ? {} : { userData: profile.userData }) };
    // A pool browser fits when the request asks for what the pool launched: headless, default
    // viewport, no proxy, no extensions, and no profile (a pool browser's user data is already made).
    const fitsPool = profile === undefined && spec.headless && spec.proxy === undefined && spec.args.length === 0 && (spec.viewport === undefined || sameViewport(spec.viewport, this.#defaultViewport()));
    let browser = fitsPool ? this.#defaultPool.take() : undefined;
    const pooled = browser !== undefined;
    if (browser === undefined) {
      // First in, first out: a create that arrives while others wait waits behind them (docs/deploy.md).
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
          if (spec.name !== undefined) this.#assertNameFree(spec.name);
        } catch (error) {
          // This create will not use its turn: the next waiter gets it.
          this.#slotFreed();
          throw error;
        }
      }
      // A launch that fails frees its slot itself (#launch).
      browser = await this.#launch(spec, init.signal);
    } else {
      // Out of the pool for good (the pool refills): an ordinary browser from now on.
      this.#defaultPool.forget(browser);
    }
    try {
      // The name may have been taken while this one launched.
      this.adopt(browser, spec, { pooled, ...(profile === undefined ? {} : { profile: await this.profileInfo(profile) }) });
    } catch (error) {
      this.#parked.delete(browser);
      await browser.destroy();
      this.#slotFreed();
      throw error;
    }
    debug('created %s%s', browser.id, pooled ? ' (from the pool)' : '');
    return browser;
  }

  /**
   * Checks a create request (the fields `create()` and the pools take) and fills in the defaults.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming the field, `REPL_ERR_CONFLICT` (name taken).
   */
  resolveInit(init: BrowserInit): BrowserSpec {
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
    const proxy = init.proxyId === undefined ? undefined : this.#proxyOf(init.proxyId);
    const args = extensionFlags(init.extensionDirs);
    return { headless, viewport, timeoutSeconds, name: init.name, tags, startUrl, telemetry, proxy, args };
  }

  /**
   * Renames or retags a browser. `null` removes the name or the tags. The server's own browser
   * can be neither.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_CONFLICT`
   */
  update(idOrName: string, changes: { name?: string | null | undefined; tags?: Tags | null | undefined; telemetry?: unknown; proxyId?: string | null | undefined }): Browser {
    const session = this.get(idOrName);
    if (changes.proxyId !== undefined) return this.#switchProxy(session, changes);
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
   * Resolves at the first point, or with `wait` (and for a browser with a profile's `save_changes`,
   * once that profile is saved) once all of that is done. A browser still ending
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
    // A browser that saves to a profile answers once the profile is saved: a browser created on it
    // right after starts from what this one left (docs/browsers.md#profiles).
    if (options.wait === true || browser.profile?.saveChanges === true) await ended;
  }

  /** The `proxy_id` of a browser (undefined: none, or it was removed). */
  proxyIdOf(browser: Browser): string | undefined {
    return this.#proxied.get(browser)?.proxyId;
  }

  /**
   * PATCH `proxy_id`: the browser's relay forwards to the new proxy (or, with `''`/`null`, straight
   * to the targets) from the next connection on; open ones are cut. Live, with no restart, for a
   * browser created with a proxy: only those talk to a relay.
   */
  #switchProxy(session: Browser, changes: { name?: string | null | undefined; tags?: Tags | null | undefined; telemetry?: unknown; proxyId?: string | null | undefined }): Browser {
    const proxied = this.#proxied.get(session);
    if (proxied === undefined) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', session === this.#primary
        ? 'proxy_id: the default browser has no proxy relay; create a browser with proxy_id (POST /browsers)'
        : 'proxy_id: this browser was created without a proxy, so its Chromium does not talk to a relay and cannot switch live; create a browser with proxy_id (docs/browsers.md#proxies)');
    }
    const proxyId = changes.proxyId === null || changes.proxyId === '' ? undefined : changes.proxyId;
    const proxy = proxyId === undefined ? undefined : this.#proxyOf(proxyId);
    const { proxyId: _proxyId, ...rest } = changes;
    // The other fields first: a refusal there leaves the route as it was.
    const updated = Object.values(rest).some((value) => value !== undefined) ? this.update(session.id, rest) : session;
    proxied.relay.setUpstream(proxy ?? null);
    proxied.proxyId = proxyId;
    return updated;
  }

  /** @throws ReplError `REPL_ERR_PROXY_NOT_FOUND` naming `proxy_id` */
  #proxyOf(proxyId: string): StoredProxy {
    if (typeof proxyId !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'proxy_id must be string');
    if (this.#proxies === undefined) throw new ReplError('REPL_ERR_PROXY_NOT_FOUND', `proxy_id: no proxy with id "${proxyId}" (this server keeps no proxies)`);
    return this.#proxies.get(proxyId, 'proxy_id');
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
    const pools = [...this.#pools];
    this.#pools.clear();
    // Their waiters get REPL_ERR_CLOSED; their idle browsers end below with the others.
    await Promise.all(pools.map((pool) => pool.close()));
    this.#queue.close(new ReplError('REPL_ERR_CLOSED', 'the server is shutting down'));
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    const parked = [...this.#parked];
    this.#parked.clear();
    await Promise.all([this.#primary, ...sessions, ...parked].map(end));
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
    // A leased browser that ends (deleted, reaped) is no longer its pool's; the freed slot goes to
    // the first waiting create, else may let the pools refill.
    for (const pool of this.#pools) pool.forget(session);
    void ending.then(() => this.#slotFreed());
    return ending;
  }

  /** Room may have appeared: the oldest waiting creates get it first, the pools what is left. */
  #slotFreed(): void {
    while (this.#queue.length > 0 && !this.closed && this.liveBrowsers + this.#admitted < this.maxBrowsers) {
      this.#admitted++;
      this.#queue.grant();
    }
    this.#fillPools();
  }

  #fillPools(): void {
    // Creates that wait for room come before warming.
    if (this.#queue.length > 0) return;
    for (const pool of this.#pools) pool.fill();
  }

  /**
   * A pool's launch: parked (counted, nobody's) until a pool hands it out. On a pool that saves
   * its profile, the save runs only for a browser that was leased at least once: one that ends
   * never used (flushed, resized away, the pool deleted) holds nothing of a user, and its save
   * would only replace a newer one by the snapshot it started from (docs/browsers.md#pools-with-a-profile).
   */
  async #launchParked(spec: BrowserSpec): Promise<Browser> {
    const save = spec.userData?.save;
    const lease = { used: false };
    const launch: BrowserSpec = save === undefined ? spec : {
      ...spec,
      userData: { ...spec.userData, save: async (userDataDir) => { if (lease.used) await save(userDataDir); } },
    };
    const browser = await this.#launch(launch, undefined);
    if (save !== undefined) this.#poolLeases.set(browser, lease);
    if (this.closed) {
      // close() began in the moment between the launch's own check and this: end it, tracked.
      await this.#retire(browser);
      throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    }
    this.#parked.add(browser);
    return browser;
  }

  /** Cleans a released browser (lib/browsers/browser-recycle.ts) and gives it a new id; false when it is not clean. */
  async #recycle(browser: Browser, keepProfile: boolean): Promise<boolean> {
    try {
      await recycleBrowser(browser, { keepProfile });
    } catch (error) {
      debug('%s: cleaning for reuse failed, retiring it: %o', browser.id, error);
      return false;
    }
    browser.poolId = undefined;
    browser.renew(`${this.#idPrefix}${createId()}`);
    return !this.closed && !browser.closed;
  }

  /** Ends a browser of a pool (idle, or released without reuse), tracked like any end. */
  #retire(browser: Browser): Promise<void> {
    this.#parked.delete(browser);
    if (this.#sessions.get(browser.id) === browser) return this.#end(browser);
    const ending = browser.destroy()
      .catch((error: unknown) => debug('%s: teardown failed: %o', browser.id, error))
      .finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
    void ending.then(() => this.#slotFreed());
    return ending;
  }

  /** Launches a browser; `close()` waits for every launch still running. */
  #launch(launch: BrowserSpec, signal: AbortSignal | undefined): Promise<Browser> {
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

  async #launchBrowser(launch: BrowserSpec, signal: AbortSignal | undefined): Promise<Browser> {
    const viewport = launch.viewport ?? this.#viewport;
    // The relay listens before Chromium starts, which is told its port.
    const relay = launch.proxy === undefined ? undefined : new ProxyRelay(launch.proxy);
    const extra = [...(launch.args ?? []), ...(relay === undefined ? [] : relayChromiumArgs(await relay.listen()))];
    const args = extra.length === 0 ? {} : { args: [...(this.#launchOptions?.args ?? []), ...extra] };
    let browser: Browser;
    try {
      browser = new Browser({
        ...this.#defaults,
        id: `${this.#idPrefix}${createId()}`,
        // A created browser always launches a Chromium of its own, even when the server's own is attached.
        browser: { ...this.#launchOptions, cdpEndpoint: null, headless: launch.headless, ...args, ...(launch.userData === undefined ? {} : { userData: launch.userData }) },
        ...(viewport === undefined ? {} : { viewport }),
      });
    } catch (error) {
      await relay?.close();
      throw error;
    }
    if (relay !== undefined) {
      // Its lifetime is the browser's: closed (no socket left) when the browser ends, however it ends.
      browser.onEnd(() => relay.close());
      this.#proxied.set(browser, { relay, proxyId: launch.proxy?.id });
    }
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

  /**
   * The stored profile `profile` names, checked (`{ id | name, save_changes }`), with what its
   * launch does: copy it in, and with `save_changes` save it back once Chromium exited. A pool
   * (lib/browsers/browser-pools.ts) puts its `userData` in the spec its browsers launch with.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (naming the field), `REPL_ERR_PROFILE_NOT_FOUND`
   */
  async resolveProfile(value: unknown): Promise<ProfileUse> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'profile must be an object with id or name');
    const { id, name, save_changes: saveChanges } = value as Record<string, unknown>;
    if (saveChanges !== undefined && saveChanges !== null && typeof saveChanges !== 'boolean') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'profile.save_changes must be boolean');
    const hasId = id !== undefined && id !== null && id !== '';
    const hasName = name !== undefined && name !== null && name !== '';
    if (hasId === hasName) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'profile must have either id or name (not both)');
    if (hasId && typeof id !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'profile.id must be string');
    const key = hasId ? id as string : checkProfileName(name, 'profile.name');
    const store = this.#profiles;
    if (store === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'profile is not supported by this registry: it stores no profiles (BrowsersOptions.profiles)');
    const stored = await store.get(key);
    const save = saveChanges === true;
    return {
      id: stored.id,
      stored,
      saveChanges: save,
      userData: {
        seed: (userDataDir) => store.copyInto(stored.id, userDataDir),
        save: save ? async (userDataDir) => {
          await store.save(stored.id, userDataDir);
        } : undefined,
      },
    };
  }

  /** The SDK's `Profile` of a browser launched on `use`: the stored metadata as it is now. */
  async profileInfo(use: ProfileUse): Promise<BrowserProfileInfo> {
    const loaded = await this.#profiles?.get(use.id).catch(() => use.stored);
    return { ...(loaded ?? use.stored), saveChanges: use.saveChanges };
  }

  /** Calls `listener` with a profile's id after each save of it; returns the unsubscribe (a no-op without profiles). */
  onProfileSaved(listener: (id: string) => void): () => void {
    return this.#profiles?.onSaved(listener) ?? (() => undefined);
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

/** Chromium's flags for loading `dirs` (none for none). A comma would split a path: refused. */
function extensionFlags(dirs: readonly string[] | undefined): string[] {
  if (dirs === undefined || dirs.length === 0) return [];
  for (const dir of dirs) {
    if (typeof dir !== 'string' || dir === '' || dir.includes(',')) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `extensionDirs: ${JSON.stringify(dir)} is not a folder Chromium can load (empty, or with a comma)`);
  }
  // Without --disable-extensions-except: it would also disable what loadExtensions adds later
  // through CDP (docs/browsers.md#extensions).
  return [`--load-extension=${dirs.join(',')}`];
}

/** A stored profile a created browser starts from (and maybe saves to). */
export interface ProfileUse {
  id: string;
  stored: StoredProfile;
  saveChanges: boolean;
  userData: NonNullable<BrowserManagerOptions['userData']>;
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
