/**
 * The live view over HTTP (docs/live-view.md): `browser_live_view_url` on every browser object,
 * `POST /browsers/{id}/live_view` to mint another (read-only, short-lived), the page at
 * `GET /browsers/{id}/live?jwt=<capability>` and its WebSocket at `…/live/ws`.
 *
 * The page and its WebSocket are opened by a person's browser, which sends no bearer token: the
 * capability (lib/live-view/capability.ts) is what admits them, always, token or not. The page is
 * a navigation, often inside another site's iframe, so it gets the Host check but not the Origin
 * check of the API (`Sec-Fetch-Site: cross-site` is what an embedding sends); its WebSocket comes
 * from the page itself, same-origin, and gets both checks like every other upgrade.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';
import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';

import { ReplError } from '../../../common/errors.js';
import { redactUrl } from '../../../common/redact.js';
import type { Browser } from '../../browsers/browser.js';
import type { Browsers } from '../../browsers/browsers.js';
import type { LiveViewGrant, LiveViewKeys } from '../../live-view/capability.js';
import { livePageHtml } from '../../live-view/page.js';
import type { LiveViews } from '../../live-view/live-view.js';
import { checkHandshake, refuse } from '../cdp-proxy.js';
import { admitRequest } from '../middleware.js';
import type { AccessPolicy } from '../middleware.js';
import { publicUrl } from '../public-url.js';

const debug = debuglog('browser-repl:live-view');

/** Path of a live-view WebSocket. */
const LIVE_WS_PATH = /^\/browsers\/([^/]+)\/live\/ws\/?$/;

export const UNAUTHORIZED_LIVE_VIEW = () => new ReplError('REPL_ERR_UNAUTHORIZED',
  'missing, invalid or expired live-view capability: use the browser_live_view_url of the browser object, or mint one with POST /browsers/{id}/live_view');

/** `http://<host>/browsers/<id>/live?jwt=<capability>` (with the mount path and forwarded prefix, as `cdp_ws_url`). */
export function liveViewUrl(req: Request, res: Response, browserId: string, capability: string, options: { readOnly?: boolean } = {}): string {
  const url = publicUrl(req, res, `/browsers/${encodeURIComponent(browserId)}/live`);
  url.searchParams.set('jwt', capability);
  if (options.readOnly === true) url.searchParams.set('readOnly', 'true');
  return url.href;
}

/**
 * The browser `idOrName` names, with what `capability` grants for it; a browser that does not
 * exist is refused like a wrong capability (401), so the URL tells nobody which browsers exist.
 */
export function authorizeLiveView(browsers: Browsers, keys: LiveViewKeys, idOrName: string, capability: string | null | undefined): { browser: Browser; grant: LiveViewGrant } {
  let browser: Browser;
  try {
    browser = browsers.get(idOrName);
  } catch {
    throw UNAUTHORIZED_LIVE_VIEW();
  }
  const grant = keys.verify(capability, browser.id);
  if (grant === undefined) throw UNAUTHORIZED_LIVE_VIEW();
  return { browser, grant };
}

/** `?readOnly=true` (or `1`) makes any capability view-only; a read-only capability stays so whatever the query says. */
function readOnlyOf(grant: LiveViewGrant, query: unknown): boolean {
  return grant.readOnly || query === 'true' || query === '1';
}

/** `&name=`: what the viewer calls the person (the `by` of a hand-over answer); printable, at most 64 characters, else none. */
function viewerName(query: string | null): string | undefined {
  if (query === null) return undefined;
  const name = query.trim();
  return name !== '' && name.length <= 64 && /^[^\p{Cc}]+$/u.test(name) ? name : undefined;
}

/** `GET /browsers/{id_or_name}/live`: the page. Mounted before the API's Origin and token checks (see the module comment). */
export function livePageRoutes(options: { browsers: Browsers; keys: LiveViewKeys; access: AccessPolicy }): Router {
  const router = Router();
  router.get('/browsers/:id_or_name/live', (req: Request, res: Response, next: NextFunction) => {
    try {
      // The Host check (DNS rebinding) of every route; no Origin check for a navigation.
      admitRequest({ headers: { host: req.headers.host }, httpVersion: req.httpVersion }, options.access);
      const jwt = req.query['jwt'];
      authorizeLiveView(options.browsers, options.keys, String(req.params['id_or_name']), typeof jwt === 'string' ? jwt : undefined);
    } catch (error) {
      debug('refused page %s: %s', redactUrl(req.originalUrl), (error as Error).message);
      next(error);
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-store');
    // The URL carries the capability: it must not leak through a Referer.
    res.setHeader('referrer-policy', 'no-referrer');
    // Embeddable anywhere (no frame-ancestors limit, no X-Frame-Options); it loads nothing from elsewhere.
    res.setHeader('content-security-policy', [
      "default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`, 'img-src data:', "connect-src 'self'",
      "base-uri 'none'", "form-action 'none'", 'frame-ancestors *',
    ].join('; '));
    res.end(livePageHtml(nonce));
  });
  return router;
}

/** The live-view WebSocket upgrades of the app (`handleUpgrade` hands over the paths {@link matches} takes). */
export class LiveViewUpgrades {
  readonly #options: { browsers: Browsers; keys: LiveViewKeys; access: AccessPolicy; views: LiveViews };

  constructor(options: { browsers: Browsers; keys: LiveViewKeys; access: AccessPolicy; views: LiveViews }) {
    this.#options = options;
  }

  static matches(url: string | undefined): boolean {
    try {
      return LIVE_WS_PATH.test(new URL(url ?? '/', 'http://x').pathname);
    } catch {
      return false;
    }
  }

  /** Checks Host, Origin, the capability and the handshake, then hands the viewer to its browser's live view. Never throws. */
  async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', (error) => debug('viewer socket: %s', error.message));
    let browser: Browser;
    let readOnly: boolean;
    let name: string | undefined;
    try {
      if (this.#options.views.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
      admitRequest(request, this.#options.access);
      const url = new URL(request.url ?? '/', 'http://x');
      const match = LIVE_WS_PATH.exec(url.pathname);
      if (match === null) throw new ReplError('REPL_ERR_NOT_FOUND', `no WebSocket route ${url.pathname}`);
      let idOrName = match[1]!;
      try {
        idOrName = decodeURIComponent(idOrName);
      } catch {
        // A malformed escape names no browser: refused below like any unknown one.
      }
      const authorized = authorizeLiveView(this.#options.browsers, this.#options.keys, idOrName, url.searchParams.get('jwt'));
      browser = authorized.browser;
      readOnly = readOnlyOf(authorized.grant, url.searchParams.get('readOnly') ?? undefined);
      name = viewerName(url.searchParams.get('name'));
      checkHandshake(request);
      if (browser.chromium === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this server runs without a browser (browser: false): there is nothing to show');
    } catch (error) {
      debug('refused live view %s: %s', redactUrl(request.url), error instanceof Error ? error.message : String(error));
      refuse(socket, error);
      return;
    }
    request.url = redactUrl(request.url);
    try {
      await this.#options.views.accept(browser, { request, socket, head }, { readOnly, name });
    } catch (error) {
      refuse(socket, error);
    }
  }
}

/** `POST /browsers/{id_or_name}/live_view` body: `{ttl_seconds?, read_only?}`, already validated. */
export function mintLiveView(req: Request, res: Response, browser: Browser, keys: LiveViewKeys, body: { ttl_seconds?: number; read_only?: boolean }): { browser_live_view_url: string; expires_at: string | null } {
  const expiresAt = body.ttl_seconds === undefined ? null : new Date(Date.now() + body.ttl_seconds * 1000);
  const readOnly = body.read_only === true;
  const capability = keys.mint(browser.id, { expiresAt, readOnly });
  // The capability's expiry is whole seconds, rounded up: that is the moment it stops working.
  const grant = keys.verify(capability, browser.id);
  return {
    browser_live_view_url: liveViewUrl(req, res, browser.id, capability, { readOnly }),
    expires_at: grant?.expiresAt?.toISOString() ?? null,
  };
}
