/**
 * `/browsers`: the hosted product's browser-session API (shapes of `@onkernel/sdk` 0.84), so its
 * official SDK works against this server with `baseURL`. Plus the middleware that resolves the
 * browser the per-browser routes drive. The server's own browser (`default`) is a browser of the
 * registry like the others: what sets it apart (never listed, never reaped, neither renamed nor
 * deleted) is the registry's business (lib/browsers/browsers.ts).
 *
 * `base_url` is this server's prefix of the browser (`…/browsers/{id}`): the SDK sends `curl`,
 * `curl/raw` (`browsers.fetch`) and `telemetry/stream` there with the `?jwt=` of `cdp_ws_url`
 * instead of the token (docs/curl.md). One deliberate difference from the hosted answers:
 * `webdriver_ws_url` is empty (no WebDriver BiDi).
 */
import { Router } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import { pageOf, pageRequest } from '../paging.js';
import { ReplError } from '../../../common/errors.js';
import type { components } from '../../client/openapi-types.js';
import type { BrowserInit, Browsers } from '../../browsers/browsers.js';
import type { Browser, Tags } from '../../browsers/browser.js';
import type { Viewport } from '../../chromium/viewport.js';
import { cdpCapability } from '../cdp-proxy.js';
import { BROWSER_LOCAL, jsonBody } from '../middleware.js';
import { validateBody } from '../schema-validator.js';
import { publicUrl } from '../public-url.js';
import type { LiveViewKeys } from '../../live-view/capability.js';
import { liveViewUrl, mintLiveView } from './live-view-routes.js';
import { telemetryWire } from '../../telemetry/config.js';
import { CreatePlacement, refusalHeaders, requestedWaitMs } from '../create-placement.js';
import type { PeerDirectory } from '../peer-directory.js';
import { FORWARDED_HEADER } from '../peers.js';

/** Size limit of a create or update body: a few fields and at most 50 tags. */
const BODY_LIMIT_BYTES = 64 * 1024;

/** The `BrowserSession` of openapi.json, the generated type (the SDK's `BrowserCreateResponse`, `BrowserRetrieveResponse`, …). */
export type WireBrowser = components['schemas']['BrowserSession'];

export interface BrowsersRoutesOptions {
  browsers: Browsers;
  /** The key of `cdp_ws_url`'s capability: the server's token, or a secret of this process without one. */
  capabilityKey: string;
  /** The key of the live views' capabilities (`browser_live_view_url`, `POST /browsers/{id}/live_view`). */
  liveViewKeys: LiveViewKeys;
  /** The folders of a create's `extensions` (`[{id | name}]`, lib/extensions); throws naming the field. */
  resolveExtensions?: ((references: ReadonlyArray<{ id?: string; name?: string }>, field: string) => Promise<string[]>) | undefined;
  /** The deployment's other servers: creates without room here go to them, listings show theirs (docs/deploy.md). */
  directory?: PeerDirectory | undefined;
}

/** Asks a peer for every browser of its own that the listing's filters keep, unpaged (the asking server pages). */
const LIST_ALL_HEADER = 'x-browser-repl-list';

/**
 * Create fields of the SDK we do not support, and the value that means "not asked for", which we
 * accept so that SDK code passing defaults still works. Anything else is a 400 naming the field.
 */
const UNSUPPORTED_CREATE: Record<string, { harmless: (value: unknown) => boolean; why: string }> = {
  chrome_policy: { harmless: (value) => isNullish(value) || isEmptyObject(value), why: 'enterprise policies are not applied' },
  stealth: { harmless: (value) => isNullish(value) || value === false, why: 'there is no stealth mode; patchright is available inside cells and executors (docs/playwright.md)' },
  gpu: { harmless: (value) => isNullish(value) || value === false, why: 'GPU acceleration is not offered' },
  kiosk_mode: { harmless: (value) => isNullish(value) || value === false, why: 'the live view shows the page only, there is no address bar to hide' },
  invocation_id: { harmless: isNullish, why: 'there are no actions on this server' },
};
const UNSUPPORTED_UPDATE: Record<string, { harmless: (value: unknown) => boolean; why: string }> = {
  profile: { harmless: isNullish, why: 'a running browser keeps the user-data folder its Chromium launched with (loading a profile would relaunch it, cutting its connections, tabs and REPL pages); create the browser with profile, or acquire it from a pool with one (docs/browsers.md#profiles)' },
  disable_default_proxy: { harmless: () => true, why: '' },
  viewport: { harmless: isNullish, why: 'a running browser keeps its viewport; create a browser with the viewport you need, or call setViewport() in a cell' },
};

/**
 * The fields of a create request, checked as `POST /browsers` checks them (unsupported fields
 * refused, the schema `BrowserCreateRequest`), as the registry's create options. The browser pools
 * build their browsers' options here too (lib/http/routes/browser-pools-routes.ts), so a field
 * added here is a field of pools as well. `body` loses the harmless unsupported fields.
 */
export async function browserInitOf(body: Record<string, unknown>, options: Pick<BrowsersRoutesOptions, 'resolveExtensions'> = {}): Promise<Omit<BrowserInit, 'signal'>> {
  rejectUnsupported(body, UNSUPPORTED_CREATE);
  validateBody('BrowserCreateRequest', body);
  const references = body['extensions'] as Array<{ id?: string; name?: string }> | null | undefined;
  const extensionDirs = references === undefined || references === null || references.length === 0 || options.resolveExtensions === undefined
    ? undefined : await options.resolveExtensions(references, 'extensions');
  return {
    headless: body['headless'] as boolean | undefined,
    name: body['name'] as string | undefined,
    timeoutSeconds: body['timeout_seconds'] as number | undefined,
    viewport: viewportOf(body['viewport']),
    startUrl: body['start_url'] as string | undefined,
    tags: body['tags'] as Tags | undefined,
    telemetry: body['telemetry'],
    extensionDirs,
    proxyId: (body['proxy_id'] ?? undefined) as string | undefined,
    profile: body['profile'],
  };
}

/** The answer of `/browsers` for a browser (`BrowserSession`), which a pool's `acquire` answers too. */
export function browserWire(options: Pick<BrowsersRoutesOptions, 'browsers' | 'capabilityKey' | 'liveViewKeys'>): (req: Request, res: Response, session: Browser) => WireBrowser {
  // A browser that is never reaped says so with timeout_seconds 0.
  return (req: Request, res: Response, session: Browser): WireBrowser => {
    const browser: WireBrowser = {
      session_id: session.id,
      cdp_ws_url: cdpUrl(req, res, session.id, options.capabilityKey),
      // With the mount path and, behind a trusted proxy, the forwarded origin, as cdp_ws_url; a
      // peer's browser is answered by its owner (lib/http/peers.ts forwards with the Host kept).
      base_url: publicUrl(req, res, `/browsers/${encodeURIComponent(session.id)}`).href,
      // Interactive, for the browser's life (the capability names its id, which is never reused).
      browser_live_view_url: liveViewUrl(req, res, session.id, options.liveViewKeys.mint(session.id)),
      webdriver_ws_url: '',
      created_at: session.createdAt.toISOString(),
      headless: session.headless,
      stealth: false,
      timeout_seconds: session.timeoutSeconds,
      viewport: { ...session.viewport },
      usage: { uptime_ms: Date.now() - session.createdAt.getTime() },
    };
    if (session.name !== undefined) browser.name = session.name;
    if (session.tags !== undefined) browser.tags = { ...session.tags };
    if (session.startUrl !== undefined) browser.start_url = session.startUrl;
    const proxyId = options.browsers.proxyIdOf(session);
    if (proxyId !== undefined) browser.proxy_id = proxyId;
    if (session.profile !== undefined) {
      const { saveChanges: _saveChanges, ...profile } = session.profile;
      browser.profile = profile;
    }
    const telemetry = telemetryWire(session.telemetry.selection);
    if (telemetry !== undefined) browser.telemetry = telemetry;
    return browser;
  };
}

export function browsersRoutes(options: BrowsersRoutesOptions): Router {
  const { browsers, directory } = options;
  const router = Router();
  const wire = browserWire(options);
  const placement = new CreatePlacement({ browsers, directory });

  router.post('/browsers', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!isObject(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
    let session: Browser | undefined;
    const controller = new AbortController();
    // A client that gave up before its browser launched (or while it waited) gets none left behind.
    const onClose = () => { if (!res.writableFinished) controller.abort(new Error('client disconnected')); };
    res.once('close', onClose);
    try {
      const init = await browserInitOf(body, options);
      session = await placement.place(req, res, { ...init, signal: controller.signal, waitMs: requestedWaitMs(req, body) }, body);
    } catch (error) {
      refusalHeaders(res, error);
      throw error;
    }
    // A peer answered (docs/deploy.md#one-service-from-many-servers).
    if (session === undefined) return;
    if (controller.signal.aborted) {
      await browsers.delete(session.id).catch(() => undefined);
      return;
    }
    res.json(wire(req, res, session));
  });

  router.get('/browsers', async (req: Request, res: Response) => {
    const paging = pageRequest(req.query);
    const status = req.query['status'];
    if (status !== undefined && status !== 'active' && status !== 'deleted' && status !== 'all') {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'status must be active, deleted or all');
    }
    // Ended sessions are not kept, so "deleted" lists nothing and "all" lists the live ones.
    let rows = status === 'deleted' ? [] : browsers.list();
    const query = req.query['query'];
    if (typeof query === 'string' && query !== '') {
      const needle = query.toLowerCase();
      rows = rows.filter((session) => session.id.includes(needle) || (session.name?.toLowerCase().includes(needle) ?? false) || browsers.proxyIdOf(session) === query);
    }
    const tagFilter = tagQuery(req.query);
    if (tagFilter.length > 0) rows = rows.filter((session) => tagFilter.every(([key, value]) => session.tags?.[key] === value));
    const forwarded = req.headers[FORWARDED_HEADER] !== undefined;
    // A peer asks for all of this server's rows: it pages the deployment's list itself.
    if (forwarded && req.headers[LIST_ALL_HEADER] === 'all') {
      res.json(rows.map((session) => wire(req, res, session)));
      return;
    }
    let wired = rows.map((session) => wire(req, res, session));
    if (directory !== undefined && !forwarded) {
      // Every server's browsers, in one order every server agrees on: oldest first, then by id.
      wired = [...wired, ...await peerRows(directory, req)]
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.session_id.localeCompare(b.session_id));
    }
    const page = pageOf(res, wired, paging);
    res.json(page);
  });

  router.get('/browsers/:id_or_name', (req: Request, res: Response) => {
    const session = browsers.get(String(req.params['id_or_name']));
    holdFor(session, res);
    res.json(wire(req, res, session));
  });

  router.patch('/browsers/:id_or_name', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const idOrName = String(req.params['id_or_name']);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!isObject(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
    rejectUnsupported(body, UNSUPPORTED_UPDATE);
    // After the body's own checks, so a malformed field is named as such (the registry then
    // refuses what a browser may not change).
    validateBody('BrowserUpdateRequest', body);
    const name = body['name'];
    // A new name must be free on every server, not only here (docs/deploy.md#one-service-from-many-servers).
    if (directory !== undefined && typeof name === 'string' && name !== '' && browsers.get(idOrName).name !== name) {
      await directory.assertNameFree(name);
    }
    const session = browsers.update(idOrName, {
      name: body['name'] as string | null | undefined,
      tags: body['tags'] as Tags | null | undefined,
      telemetry: body['telemetry'],
      proxyId: body['proxy_id'] as string | null | undefined,
    });
    holdFor(session, res);
    res.json(wire(req, res, session));
  });

  router.post('/browsers/:id_or_name/live_view', jsonBody(BODY_LIMIT_BYTES), (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!isObject(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
    validateBody('LiveViewRequest', body);
    const session = browsers.get(String(req.params['id_or_name']));
    res.json(mintLiveView(req, res, session, options.liveViewKeys, body as { ttl_seconds?: number; read_only?: boolean }));
  });

  router.delete('/browsers/:id_or_name', async (req: Request, res: Response) => {
    await browsers.delete(String(req.params['id_or_name']));
    res.status(204).end();
  });

  return router;
}

/** The rows of every other server that answers in time; one that does not (ended, unreachable) lists nothing. */
async function peerRows(directory: PeerDirectory, req: Request): Promise<WireBrowser[]> {
  const others = await directory.others();
  const lists = await Promise.all(others.map(async ({ url }) => {
    try {
      const answer = await directory.send(url, req.originalUrl, {
        method: 'GET', headers: { ...req.headers, [LIST_ALL_HEADER]: 'all' }, timeoutMs: 2_000, signal: AbortSignal.timeout(5_000),
      });
      if (answer.status !== 200) {
        await answer.body.dump();
        return [];
      }
      return await answer.body.json() as WireBrowser[];
    } catch {
      return [];
    }
  }));
  return lists.flat();
}

/**
 * Resolves the browser of the per-browser routes (`repl`, `repls`, `playwright/*`, `process/*`,
 * `fs/*`, `webmcp/*`): the one `/browsers/{id_or_name}` names, or the registry's own at the top
 * level (no id in the path). Leaves it in `res.locals`, and holds it (activity) until the answer
 * has been sent, so a long cell keeps its browser.
 */
export function resolveBrowser(browsers: Browsers): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const idOrName = req.params['id_or_name'];
    const browser = idOrName === undefined ? browsers.primary : browsers.get(String(idOrName));
    holdFor(browser, res);
    res.locals[BROWSER_LOCAL] = browser;
    next();
  };
}

function holdFor(browser: Browser, res: Response): void {
  const release = browser.hold();
  res.once('close', release);
}

/** `ws://<the Host the client used>/browsers/<id>/cdp`, with the browser's capability (`?jwt=`). */
export function cdpUrl(req: Request, res: Response, sessionId: string, token: string | undefined): string {
  // With the app's mount path (and, behind a trusted proxy, the forwarded origin and prefix).
  const url = publicUrl(req, res, `/browsers/${encodeURIComponent(sessionId)}/cdp`, { websocket: true });
  if (token !== undefined && token !== '') url.searchParams.set('jwt', cdpCapability(token, sessionId));
  return url.href;
}

function rejectUnsupported(body: Record<string, unknown>, table: Record<string, { harmless: (value: unknown) => boolean; why: string }>): void {
  for (const [field, rule] of Object.entries(table)) {
    if (!Object.hasOwn(body, field)) continue;
    if (!rule.harmless(body[field])) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} is not supported by this server: ${rule.why}`);
    // Accepted as "not asked for"; the schema below need not know it.
    delete body[field];
  }
}

/** The SDK's viewport carries `refresh_rate`, which only matters to a live view: dropped. */
function viewportOf(value: unknown): Viewport | undefined {
  if (value === undefined || value === null) return undefined;
  const { width, height } = value as { width: number; height: number };
  return { width, height };
}

/** `tags[team]=search` query pairs (how the SDK encodes its `tags` filter). */
function tagQuery(query: Request['query']): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(query)) {
    const match = /^tags\[(.+)\]$/.exec(key);
    if (match !== null && typeof value === 'string') pairs.push([match[1]!, value]);
  }
  const nested = query['tags'];
  if (isObject(nested)) for (const [key, value] of Object.entries(nested)) if (typeof value === 'string') pairs.push([key, value]);
  return pairs;
}

function isNullish(value: unknown): boolean {
  return value === undefined || value === null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}
