/**
 * The browser pools of `/browser_pools` (docs/browsers.md#pools): named warm pools of browsers
 * that callers `acquire` (a long poll, first come first served) and `release` (cleaned for the
 * next caller, or ended and replaced). The server's own warm pool (`--browser-pool N`) is the pool
 * `default`: `POST /browsers` keeps taking from it, and it can be acquired from like any other.
 *
 * A pool's browser options are a create request (`BrowserInit`), checked by the same
 * `Browsers.resolveInit` as `POST /browsers`, so a field browsers learn is a field pools have.
 * Every pool's browsers count against `maxBrowsers`, and the sizes of all pools together may not
 * exceed it.
 *
 * A pool may keep a stored profile (`profile: { id | name, save_changes }`,
 * docs/browsers.md#pools-with-a-profile): its browsers launch on a copy of it, a release keeps
 * their cookies and sites' storage, with `save_changes` a browser that was leased writes its user
 * data back when it ends (the last save to finish wins, whole, as for any two browsers on one
 * profile), and with `refresh_on_profile_update` (the default with a profile) a save of the
 * profile ends the idle browsers, so the next ones launch on it.
 */
import { createId } from '@paralleldrive/cuid2';

import { ReplError } from '../../common/errors.js';
import type { WarmPool } from '../pools/warm-pool.js';
import type { Browser } from './browser.js';
import type { BrowserInit, Browsers, BrowserSpec, ProfileUse } from './browsers.js';

/** The id and name of the server's own warm pool. */
export const DEFAULT_POOL_ID = 'default';
/** Callers that may wait in one pool's acquire line at once; one more is a 429. */
export const MAX_POOL_WAITERS = 100;
/** The longest acquire wait a request may ask for (an hour; the SDK's default timeout is shorter). */
export const MAX_ACQUIRE_TIMEOUT_SECONDS = 3600;
/** The acquire wait when the request gives none and the pool has no fill rate to derive it from. */
const DEFAULT_ACQUIRE_TIMEOUT_SECONDS = 30;
const POOL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

/** What a pool is made of, besides its browsers' options. */
export interface PoolSettings {
  name?: string | undefined;
  size: number;
  /** Percent of `size` launched per minute at most (the hosted product's unit); default: as fast as launches go. */
  fillRatePerMinute?: number | undefined;
  /** End the idle browsers when the pool's profile is saved (default: true with a profile); needs a profile. */
  refreshOnProfileUpdate?: boolean | undefined;
}

/** One pool, as the API describes it. */
export interface BrowserPoolEntry {
  readonly id: string;
  readonly name: string | undefined;
  readonly createdAt: Date;
  readonly size: number;
  readonly fillRatePerMinute: number | undefined;
  /** The browser options, as given (what `browser_pool_config` echoes). */
  readonly init: Readonly<BrowserInit>;
  /** The options, checked (what its browsers launch with). */
  readonly spec: BrowserSpec;
  readonly pool: WarmPool<Browser>;
  /** The stored profile its browsers launch on (`profile_id`), if any. */
  readonly profileId: string | undefined;
  /** Whether a save of that profile ends the idle browsers. */
  readonly refreshOnProfileUpdate: boolean;
}

interface PoolState {
  id: string;
  name: string | undefined;
  createdAt: Date;
  init: BrowserInit;
  spec: BrowserSpec;
  pool: WarmPool<Browser>;
  profile: ProfileUse | undefined;
  refreshOnProfileUpdate: boolean;
}

export class BrowserPools {
  readonly #browsers: Browsers;
  /** By id, oldest first; the default pool first of all. */
  readonly #pools = new Map<string, PoolState>();

  constructor(browsers: Browsers) {
    this.#browsers = browsers;
    this.#pools.set(DEFAULT_POOL_ID, {
      id: DEFAULT_POOL_ID, name: DEFAULT_POOL_ID, createdAt: new Date(), init: {}, spec: browsers.resolveInit({}), pool: browsers.defaultPool,
      profile: undefined, refreshOnProfileUpdate: false,
    });
    // For the server's life, as the registry and its store.
    browsers.onProfileSaved((profileId) => this.#profileSaved(profileId));
  }

  list(): BrowserPoolEntry[] {
    return [...this.#pools.values()].map((state) => entryOf(state));
  }

  /** @throws ReplError `REPL_ERR_NOT_FOUND` */
  get(idOrName: string): BrowserPoolEntry {
    return entryOf(this.#state(idOrName));
  }

  /**
   * A new pool; it starts filling at once. With `init.profile`, its browsers launch on that stored
   * profile (resolved now: `profile_id` is the id it named).
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming the field, `REPL_ERR_CONFLICT` (name taken),
   *   `REPL_ERR_PROFILE_NOT_FOUND`.
   */
  async create(settings: PoolSettings, init: BrowserInit): Promise<BrowserPoolEntry> {
    if (this.#browsers.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    const name = settings.name;
    if (name !== undefined) this.#assertNameFree(name, undefined);
    const size = this.#checkSize(settings.size, undefined);
    const fillRatePerMinute = checkFillRate(settings.fillRatePerMinute);
    const base = this.#browsers.resolveInit(init);
    const profile = hasProfile(init.profile) ? await this.#browsers.resolveProfile(init.profile) : undefined;
    const refreshOnProfileUpdate = checkRefresh(settings.refreshOnProfileUpdate, profile) ?? profile !== undefined;
    // Checked again after the wait: another pool may have taken the name or the room meanwhile.
    if (name !== undefined) this.#assertNameFree(name, undefined);
    this.#checkSize(size, undefined);
    if (this.#browsers.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    const id = createId();
    const state: PoolState = {
      id, name, createdAt: new Date(), init: { ...init }, spec: specOf(base, profile), pool: undefined as unknown as WarmPool<Browser>, profile, refreshOnProfileUpdate,
    };
    state.pool = this.#browsers.createWarmPool({
      size, fillRatePerMinute, maxWaiters: MAX_POOL_WAITERS, spec: () => state.spec, keepProfile: () => state.profile !== undefined,
    });
    this.#pools.set(id, state);
    state.pool.fill();
    return entryOf(state);
  }

  /**
   * Changes a pool: the given settings and browser options replace the old ones (options merge
   * field by field). Browsers launched from now on use them; idle ones are rebuilt only with
   * `discardAllIdle`, leased ones keep what they launched with (the hosted product's rule). A new
   * `profile` is resolved now; `clearProfile` removes the pool's (and its refresh).
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST` naming the field, `REPL_ERR_CONFLICT`,
   *   `REPL_ERR_PROFILE_NOT_FOUND`.
   */
  async update(idOrName: string, settings: Partial<PoolSettings>, init: BrowserInit, options: { discardAllIdle?: boolean; clearStartUrl?: boolean; clearProfile?: boolean } = {}): Promise<BrowserPoolEntry> {
    const state = this.#state(idOrName);
    if (state.id === DEFAULT_POOL_ID) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'the default pool is the server\'s warm pool: its size is --browser-pool (BROWSER_REPL_BROWSER_POOL) and its browsers are those of POST /browsers; create a pool of your own to configure one');
    }
    // An empty name changes nothing, as in the hosted product.
    const name = settings.name === undefined || settings.name === '' ? state.name : settings.name;
    if (name !== state.name && name !== undefined) this.#assertNameFree(name, state.id);
    const size = settings.size === undefined ? state.pool.size : this.#checkSize(settings.size, state.id);
    const fillRatePerMinute = settings.fillRatePerMinute === undefined ? state.pool.fillRatePerMinute : checkFillRate(settings.fillRatePerMinute);
    const merged: BrowserInit = { ...state.init };
    for (const [key, value] of Object.entries(init)) if (value !== undefined) Object.assign(merged, { [key]: value });
    if (options.clearStartUrl === true) delete merged.startUrl;
    if (options.clearProfile === true) delete merged.profile;
    const base = this.#browsers.resolveInit(merged);
    const profile = options.clearProfile === true ? undefined
      : hasProfile(init.profile) ? await this.#browsers.resolveProfile(init.profile) : state.profile;
    const refreshOnProfileUpdate = options.clearProfile === true ? false
      : checkRefresh(settings.refreshOnProfileUpdate, profile) ?? (profile !== undefined && (state.profile === undefined || state.refreshOnProfileUpdate));
    // Checked again after the wait: the pool may be gone, another may have taken the name or the room.
    if (this.#pools.get(state.id) !== state) throw new ReplError('REPL_ERR_NOT_FOUND', `no browser pool with id or name "${idOrName}"`);
    if (name !== state.name && name !== undefined) this.#assertNameFree(name, state.id);
    if (settings.size !== undefined) this.#checkSize(size, state.id);
    state.name = name;
    state.init = merged;
    state.spec = specOf(base, profile);
    state.profile = profile;
    state.refreshOnProfileUpdate = refreshOnProfileUpdate;
    await state.pool.resize(size, fillRatePerMinute);
    if (options.discardAllIdle === true) await state.pool.flush();
    return entryOf(state);
  }

  /**
   * Deletes a pool: waiters get `REPL_ERR_CLOSED`, idle browsers end. Leased browsers end too with
   * `force`; without it, a pool with leases is not deleted.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST` (the default pool), `REPL_ERR_POOL_IN_USE`.
   */
  async delete(idOrName: string, options: { force?: boolean } = {}): Promise<void> {
    const state = this.#state(idOrName);
    if (state.id === DEFAULT_POOL_ID) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'the default pool cannot be deleted: it is the server\'s warm pool (--browser-pool); start the server with --browser-pool 0 to have none');
    if (state.pool.acquired > 0 && options.force !== true) {
      throw new ReplError('REPL_ERR_POOL_IN_USE', `pool "${state.name ?? state.id}" has ${state.pool.acquired} acquired browsers: release them, or delete with force: true to end them`);
    }
    this.#pools.delete(state.id);
    await this.#browsers.removeWarmPool(state.pool, { force: true });
  }

  /**
   * A browser of the pool for this caller, listed under `/browsers` until released: an idle one at
   * once, else the caller waits its turn in the line up to `timeoutSeconds` (undefined when none came).
   * A caller whose signal aborts (its client went away) leaves the line; a browser handed to it in
   * that very moment goes back to the pool unused.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST` naming the field,
   *   `REPL_ERR_POOL_QUEUE_FULL`, `REPL_ERR_CONFLICT` (name taken), `REPL_ERR_CLOSED`.
   */
  async acquire(idOrName: string, request: { timeoutSeconds?: number | undefined; name?: string | undefined; tags?: BrowserInit['tags']; startUrl?: string | undefined; telemetry?: unknown; signal?: AbortSignal | undefined }): Promise<Browser | undefined> {
    const state = this.#state(idOrName);
    if (this.#browsers.draining) throw new ReplError('REPL_ERR_DRAINING', 'this server is draining (shutting down gracefully) and hands out no browsers: acquire on another server');
    const timeoutSeconds = request.timeoutSeconds ?? defaultAcquireTimeout(state.pool);
    if (typeof timeoutSeconds !== 'number' || !Number.isFinite(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > MAX_ACQUIRE_TIMEOUT_SECONDS) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `acquire_timeout_seconds must be a number from 0 to ${MAX_ACQUIRE_TIMEOUT_SECONDS}`);
    }
    // This lease's own fields on top of the pool's, checked before the caller waits.
    const spec = this.#browsers.resolveInit({
      ...state.init, name: request.name, tags: request.tags, startUrl: request.startUrl ?? state.init.startUrl, telemetry: request.telemetry ?? state.init.telemetry,
    });
    const browser = await state.pool.acquire(timeoutSeconds * 1000, request.signal);
    if (browser === undefined) return undefined;
    if (request.signal?.aborted === true) {
      state.pool.giveBack(browser);
      return undefined;
    }
    try {
      const profile = state.profile === undefined ? undefined : await this.#browsers.profileInfo(state.profile);
      return this.#browsers.adopt(browser, spec, { pooled: true, poolId: state.id, ...(profile === undefined ? {} : { profile }) });
    } catch (error) {
      state.pool.giveBack(browser);
      throw error;
    }
  }

  /**
   * Gives a browser back to the pool that leased it: gone from `/browsers` at once; with `reuse`
   * (the default) cleaned and handed to the next caller, a browser that fails its cleaning ended
   * and replaced; without, ended and replaced at the pool's fill rate.
   *
   * @throws ReplError `REPL_ERR_NOT_FOUND` (no such pool, or the browser is not leased from it).
   */
  async release(idOrName: string, sessionId: string, reuse: boolean): Promise<void> {
    const state = this.#state(idOrName);
    let browser: Browser;
    try {
      browser = this.#browsers.get(sessionId);
    } catch {
      throw new ReplError('REPL_ERR_NOT_FOUND', `session_id: no browser "${sessionId}" is acquired from pool "${state.name ?? state.id}"`);
    }
    if (browser.poolId !== state.id || !state.pool.has(browser)) {
      throw new ReplError('REPL_ERR_NOT_FOUND', `session_id: browser "${sessionId}" is not acquired from pool "${state.name ?? state.id}"`);
    }
    this.#browsers.detach(browser);
    await state.pool.release(browser, reuse);
  }

  /** Ends every idle browser of the pool; it refills with its current options. @throws ReplError `REPL_ERR_NOT_FOUND` */
  async flush(idOrName: string): Promise<void> {
    await this.#state(idOrName).pool.flush();
  }

  /** A profile was saved: the pools on it that refresh end their idle browsers, so the next ones launch on the save. */
  #profileSaved(profileId: string): void {
    for (const state of this.#pools.values()) {
      if (state.profile?.id !== profileId || !state.refreshOnProfileUpdate) continue;
      state.pool.flush().catch(() => undefined);
    }
  }

  #state(idOrName: string): PoolState {
    const byId = this.#pools.get(idOrName);
    if (byId !== undefined) return byId;
    for (const state of this.#pools.values()) if (state.name === idOrName) return state;
    throw new ReplError('REPL_ERR_NOT_FOUND', `no browser pool with id or name "${idOrName}"`);
  }

  #assertNameFree(name: string, self: string | undefined): void {
    if (typeof name !== 'string' || !POOL_NAME_PATTERN.test(name)) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'name must be 1 to 255 letters, digits, "_", "." or "-", starting with a letter or digit');
    }
    for (const state of this.#pools.values()) {
      if (state.id === self) continue;
      if (state.name === name || state.id === name) throw new ReplError('REPL_ERR_CONFLICT', `a browser pool named "${name}" already exists (${state.id})`);
    }
  }

  /** A size that, with every other pool's, fits in `maxBrowsers`. */
  #checkSize(size: unknown, self: string | undefined): number {
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'size must be a non-negative integer');
    let others = 0;
    for (const state of this.#pools.values()) if (state.id !== self) others += state.pool.size;
    if (others + size > this.#browsers.maxBrowsers) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST',
        `size: the pools would hold ${others + size} browsers, more than this server's ${this.#browsers.maxBrowsers} (maxBrowsers, BROWSER_REPL_MAX_BROWSERS); make it at most ${Math.max(0, this.#browsers.maxBrowsers - others)}`);
    }
    return size;
  }
}

function entryOf(state: PoolState): BrowserPoolEntry {
  return {
    id: state.id, name: state.name, createdAt: state.createdAt, size: state.pool.size, fillRatePerMinute: state.pool.fillRatePerMinute,
    init: state.init, spec: state.spec, pool: state.pool, profileId: state.profile?.id, refreshOnProfileUpdate: state.refreshOnProfileUpdate,
  };
}

/** The spec a pool's browsers launch with: the checked options, on the profile's user data if it has one. */
function specOf(base: BrowserSpec, profile: ProfileUse | undefined): BrowserSpec {
  return profile === undefined ? base : { ...base, userData: profile.userData };
}

function hasProfile(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** `refresh_on_profile_update` as given (undefined: not given); true needs a profile, as in the hosted product. */
function checkRefresh(value: unknown, profile: ProfileUse | undefined): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'refresh_on_profile_update must be boolean');
  if (value && profile === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'refresh_on_profile_update: the pool has no profile to refresh on; give it a profile ({ id } or { name })');
  return value;
}

function checkFillRate(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'fill_rate_per_minute must be a number above 0 (percent of size per minute)');
  return value;
}

/** The hosted product's default: the time the pool takes to fill at its fill rate. */
function defaultAcquireTimeout(pool: WarmPool<Browser>): number {
  const rate = pool.fillRatePerMinute;
  if (rate === undefined) return DEFAULT_ACQUIRE_TIMEOUT_SECONDS;
  return Math.min(MAX_ACQUIRE_TIMEOUT_SECONDS, Math.ceil(60 * 100 / rate));
}
