/**
 * `/browser_pools`: the hosted product's browser pools (shapes of `@onkernel/sdk`'s
 * `client.browserPools`), over lib/browsers/browser-pools.ts; docs/browsers.md#pools has the rules.
 * A pool's browser options are parsed by `browserInitOf`, the very function `POST /browsers` uses,
 * so each field a browser accepts (or refuses) a pool accepts (or refuses) alike. `acquire` is a
 * long poll: the browser as `POST /browsers` answers it, or 204 when none came in time; a client
 * that hangs up leaves the line.
 */
import { Router } from 'express';
import type { Request, Response } from 'express';

import { pageOf, pageRequest } from '../paging.js';
import { ReplError } from '../../../common/errors.js';
import type { components } from '../../client/openapi-types.js';
import { BrowserPools } from '../../browsers/browser-pools.js';
import type { BrowserPoolEntry } from '../../browsers/browser-pools.js';
import type { Tags } from '../../browsers/browser.js';
import { jsonBody, noRetry } from '../middleware.js';
import { validateBody } from '../schema-validator.js';
import { telemetryWire } from '../../telemetry/config.js';
import { browserInitOf, browserWire } from './browsers-routes.js';
import type { BrowsersRoutesOptions } from './browsers-routes.js';

const BODY_LIMIT_BYTES = 64 * 1024;
/** The pool's own fields of a create or update body; the rest are its browsers' options. */
const POOL_FIELDS = ['name', 'size', 'fill_rate_per_minute', 'refresh_on_profile_update', 'discard_all_idle'] as const;

export type WireBrowserPool = components['schemas']['BrowserPool'];

export function browserPoolsRoutes(options: BrowsersRoutesOptions & { pools?: BrowserPools }): Router {
  const pools = options.pools ?? new BrowserPools(options.browsers);
  const wireBrowser = browserWire(options);
  const router = Router();

  router.get('/browser_pools', (req: Request, res: Response) => {
    const paging = pageRequest(req.query);
    let rows = pools.list();
    const name = req.query['name'];
    if (typeof name === 'string' && name !== '') rows = rows.filter((pool) => pool.name?.toLowerCase() === name.toLowerCase());
    const query = req.query['query'];
    if (typeof query === 'string' && query !== '') {
      const needle = query.toLowerCase();
      rows = rows.filter((pool) => pool.id === query || (pool.name?.toLowerCase().includes(needle) ?? false));
    }
    const page = pageOf(res, rows, paging);
    res.json(page.map(wirePool));
  });

  router.post('/browser_pools', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const { settings, browser } = splitBody(req.body, 'BrowserPoolSettings');
    if (settings['size'] === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'size is required');
    const init = await browserInitOf(browser, options);
    const pool = await pools.create({
      name: settings['name'] as string | undefined,
      size: settings['size'] as number,
      fillRatePerMinute: settings['fill_rate_per_minute'] as number | undefined,
      refreshOnProfileUpdate: settings['refresh_on_profile_update'] as boolean | undefined,
    }, init);
    res.json(wirePool(pool));
  });

  router.get('/browser_pools/:id_or_name', (req: Request, res: Response) => {
    res.json(wirePool(pools.get(String(req.params['id_or_name']))));
  });

  router.patch('/browser_pools/:id_or_name', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const { settings, browser } = splitBody(req.body, 'BrowserPoolSettings');
    // An empty start_url clears the pool's (the hosted product's update rule).
    const clearStartUrl = browser['start_url'] === '';
    if (clearStartUrl) delete browser['start_url'];
    // `profile: { id: "" }` (or null) removes the pool's profile (the hosted product's update rule).
    const clearProfile = isClearedProfile(browser['profile']);
    if (clearProfile) delete browser['profile'];
    const init = await browserInitOf(browser, options);
    const pool = await pools.update(String(req.params['id_or_name']), {
      name: settings['name'] as string | undefined,
      size: settings['size'] as number | undefined,
      fillRatePerMinute: settings['fill_rate_per_minute'] as number | undefined,
      refreshOnProfileUpdate: settings['refresh_on_profile_update'] as boolean | undefined,
    }, init, { discardAllIdle: settings['discard_all_idle'] === true, clearStartUrl, clearProfile });
    res.json(wirePool(pool));
  });

  router.delete('/browser_pools/:id_or_name', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = optionalBody(req.body);
    validateBody('BrowserPoolDeleteRequest', body);
    await pools.delete(String(req.params['id_or_name']), { force: body['force'] === true });
    res.status(204).end();
  });

  router.post('/browser_pools/:id_or_name/acquire', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    // A retried acquire would lease a second browser.
    noRetry(res);
    const body = optionalBody(req.body);
    validateBody('BrowserPoolAcquireRequest', body);
    const controller = new AbortController();
    // A client that gave up leaves the line; a browser handed over at that moment goes back unused.
    const onClose = () => { if (!res.writableFinished) controller.abort(new Error('client disconnected')); };
    res.once('close', onClose);
    let session;
    try {
      session = await pools.acquire(String(req.params['id_or_name']), {
        timeoutSeconds: body['acquire_timeout_seconds'] as number | undefined,
        name: body['name'] as string | undefined,
        tags: body['tags'] as Tags | undefined,
        startUrl: body['start_url'] as string | undefined,
        telemetry: body['telemetry'] ?? undefined,
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      throw error;
    }
    if (controller.signal.aborted) return;
    res.removeHeader('x-should-retry');
    if (session === undefined) {
      res.status(204).end();
      return;
    }
    res.json(wireBrowser(req, res, session));
  });

  router.post('/browser_pools/:id_or_name/release', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = optionalBody(req.body);
    validateBody('BrowserPoolReleaseRequest', body);
    await pools.release(String(req.params['id_or_name']), body['session_id'] as string, body['reuse'] !== false);
    res.status(204).end();
  });

  router.post('/browser_pools/:id_or_name/flush', async (req: Request, res: Response) => {
    await pools.flush(String(req.params['id_or_name']));
    res.status(204).end();
  });

  return router;
}

/** `BrowserPool` of the SDK: its counts, and the configuration as given. */
function wirePool(pool: BrowserPoolEntry): WireBrowserPool {
  const { init, spec } = pool;
  const config: WireBrowserPool['browser_pool_config'] = {
    size: pool.size,
    headless: spec.headless,
    timeout_seconds: spec.timeoutSeconds,
  };
  if (pool.name !== undefined) config.name = pool.name;
  if (pool.fillRatePerMinute !== undefined) config.fill_rate_per_minute = pool.fillRatePerMinute;
  if (init.viewport !== undefined) config.viewport = { ...init.viewport };
  if (spec.startUrl !== undefined) config.start_url = spec.startUrl;
  const telemetry = telemetryWire(spec.telemetry);
  if (telemetry !== undefined) config.telemetry = telemetry;
  // The profile as it was sent (the hosted product's echo); `profile_id` is the one it resolved to.
  if (pool.profileId !== undefined && isObject(init.profile)) {
    const { id, name, save_changes: saveChanges } = init.profile;
    const profile: NonNullable<typeof config.profile> = {};
    if (typeof id === 'string' && id !== '') profile.id = id;
    if (typeof name === 'string' && name !== '') profile.name = name;
    if (saveChanges === true) profile.save_changes = true;
    config.profile = profile;
    config.refresh_on_profile_update = pool.refreshOnProfileUpdate;
  }
  const wire: WireBrowserPool = {
    id: pool.id,
    created_at: pool.createdAt.toISOString(),
    acquired_count: pool.pool.acquired,
    available_count: pool.pool.available,
    browser_pool_config: config,
    extension_ids: [],
  };
  if (pool.name !== undefined) wire.name = pool.name;
  if (pool.profileId !== undefined) wire.profile_id = pool.profileId;
  return wire;
}

/** An update's `profile` that removes the pool's: `{ id: "" }` (the hosted product's way), `{ name: "" }` or null. */
function isClearedProfile(value: unknown): boolean {
  if (value === null) return true;
  if (!isObject(value)) return false;
  const { id, name } = value;
  const empty = (field: unknown) => field === undefined || field === null || field === '';
  return (id === '' || name === '') && empty(id) && empty(name);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A create or update body: the pool's own fields (checked by `schema`) and its browsers' options. */
function splitBody(raw: unknown, schema: string): { settings: Record<string, unknown>; browser: Record<string, unknown> } {
  const body = optionalBody(raw);
  const settings: Record<string, unknown> = {};
  const browser: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((POOL_FIELDS as readonly string[]).includes(key)) settings[key] = value;
    else browser[key] = value;
  }
  validateBody(schema, settings);
  return { settings, browser };
}

function optionalBody(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
  return raw as Record<string, unknown>;
}

