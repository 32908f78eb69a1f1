/**
 * `cdp_ws_url`: a WebSocket on the server's own port (`/browsers/{id_or_name}/cdp`) that relays
 * a DevTools client from outside (Playwright's `connectOverCDP`, Puppeteer's `connect`) to that
 * browser, so no Chromium port is ever exposed.
 *
 * - Authentication, when the server has a token: `Authorization: Bearer <token>`, or the token
 *   as `?token=`, or `?jwt=<capability>`: an HMAC of the token and the session id that opens this
 *   one browser's CDP and nothing else (the form `cdp_ws_url` carries, as the hosted product's
 *   does). docs/security.md weighs the header against the query.
 * - The relay is the scoped endpoint the executors use (common/cdp/scoped-endpoint.ts) in
 *   `shared` mode: the client sees every tab except those a named REPL or executor owns, and
 *   its download settings do not reset the REPLs' downloads when it disconnects.
 * - An open connection is activity: the session is not reaped while it lasts.
 */
import { createHmac } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';

import { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import { createUpgradeAcceptor } from '../../common/cdp/transport.js';
import type { Transport, UpgradeAcceptor } from '../../common/cdp/transport.js';
import { ERROR_CODES, ReplError } from '../../common/errors.js';
import type { BrowserHost } from '../host/browser-host.js';
import { bearerToken, tokenMatches } from './middleware.js';

const debug = debuglog('browser-repl:cdp-proxy');

/** Path of a browser's CDP proxy; `{id}` is a session id, a session name or `default`. */
const CDP_PATH = /^\/browsers\/([^/]+)\/cdp\/?$/;
/** Owner name under which the proxy's clients get their download folder. */
const PROXY_OWNER = 'cdp:proxy';

/** The browser a proxy connection addresses, and how its activity is counted. */
export interface ProxyTarget {
  /** The session id (the capability is bound to it), or `default`. */
  id: string;
  host: BrowserHost;
  /** Starts an activity; the returned function ends it. */
  hold(): () => void;
}

export interface CdpProxyOptions {
  /** When set, connections need it (header, `?token=`) or the browser's capability (`?jwt=`). */
  token?: string | undefined;
  /** The browser named in the path; throws `REPL_ERR_NOT_FOUND` for an unknown one. */
  resolve(idOrName: string): ProxyTarget;
}

/** The capability for one browser's CDP proxy, as `cdp_ws_url` carries it in `?jwt=`. */
export function cdpCapability(token: string, sessionId: string): string {
  return createHmac('sha256', token).update(`cdp:${sessionId}`).digest('base64url');
}

export class CdpProxy {
  readonly #options: CdpProxyOptions;
  /** The relay of each browser that has proxied clients right now (dropped with its last client). */
  readonly #endpoints = new Map<BrowserHost, ScopedEndpoint>();
  #acceptor: Promise<UpgradeAcceptor> | undefined;
  #closed = false;

  constructor(options: CdpProxyOptions) {
    this.#options = options;
  }

  /** Whether `url` is a CDP proxy path (the server hands other upgrades elsewhere or refuses them). */
  static matches(url: string | undefined): boolean {
    return CDP_PATH.test(new URL(url ?? '/', 'http://x').pathname);
  }

  /**
   * Handles an HTTP upgrade of the server. Refusals are plain HTTP answers with the JSON error
   * body every other route gives; nothing here throws.
   */
  async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', (error) => debug('client socket: %o', error));
    let target: ProxyTarget;
    try {
      if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
      const url = new URL(request.url ?? '/', 'http://x');
      const match = CDP_PATH.exec(url.pathname);
      if (match === null) throw new ReplError('REPL_ERR_NOT_FOUND', `no WebSocket route ${url.pathname}; a browser's CDP is at /browsers/{id}/cdp`);
      const idOrName = decodeURIComponent(match[1]!);
      target = this.#options.resolve(idOrName);
      this.#authorize(request, url, target.id);
      if (target.host.browser === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this server runs without a browser (browser: false)');
    } catch (error) {
      refuse(socket, error);
      return;
    }
    const release = target.hold();
    let client: Transport;
    try {
      client = await (this.#acceptor ??= createUpgradeAcceptor()).then((acceptor) => acceptor.accept(request, socket, head));
    } catch (error) {
      release();
      refuse(socket, error);
      return;
    }
    const { host } = target;
    const endpoint = this.#endpointFor(host);
    endpoint.accept(watchClose(client, () => {
      release();
      // An endpoint without clients is dropped, so deleted browsers leave nothing behind here.
      if (endpoint.clientCount === 0 && this.#endpoints.get(host) === endpoint) this.#endpoints.delete(host);
    }));
  }

  /** Closes every proxied connection. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const endpoints = [...this.#endpoints.values()];
    this.#endpoints.clear();
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    (await this.#acceptor?.catch(() => undefined))?.close();
  }

  #authorize(request: IncomingMessage, url: URL, sessionId: string): void {
    const token = this.#options.token;
    if (token === undefined || token === '') return;
    const header = bearerToken(request.headers);
    const query = url.searchParams.get('token');
    const jwt = url.searchParams.get('jwt');
    if ((header !== undefined && tokenMatches(header, token))
      || (query !== null && tokenMatches(query, token))
      || (jwt !== null && tokenMatches(jwt, cdpCapability(token, sessionId)))) return;
    throw new ReplError('REPL_ERR_UNAUTHORIZED',
      'missing or invalid token: send Authorization: Bearer <token>, or use the cdp_ws_url the browser API returned (it carries ?jwt=)');
  }

  #endpointFor(host: BrowserHost): ScopedEndpoint {
    let endpoint = this.#endpoints.get(host);
    if (endpoint === undefined) {
      const tabs = host.tabs!;
      const browser = host.browser!;
      endpoint = new ScopedEndpoint({
        upstream: () => browser.endpoint(),
        scope: async () => ({
          mode: 'shared',
          ownTargetIds: [],
          foreign: await tabs.settledOwnersExcept(),
          downloadsFolder: (await tabs.downloads.prepare(PROXY_OWNER)).incoming,
        }),
      });
      this.#endpoints.set(host, endpoint);
    }
    return endpoint;
  }
}

/** `transport`, calling `onClose` once when it has closed (after the relay heard of it). */
function watchClose(transport: Transport, onClose: () => void): Transport {
  const watched: Transport = {
    send: (message) => transport.send(message),
    close: () => transport.close(),
  };
  transport.onmessage = (message) => watched.onmessage?.(message);
  transport.onclose = (info) => {
    try {
      watched.onclose?.(info);
    } finally {
      onClose();
    }
  };
  return watched;
}

/** Answers an upgrade that will not happen with the status and JSON body of the error. */
function refuse(socket: Duplex, error: unknown): void {
  const replError = error instanceof ReplError ? error : new ReplError('REPL_ERR_INTERNAL', error instanceof Error ? error.message : String(error));
  if (!(error instanceof ReplError)) debug('unexpected upgrade failure: %o', error);
  if (socket.destroyed) return;
  const status = ERROR_CODES[replError.code].status === 200 ? 500 : ERROR_CODES[replError.code].status;
  const body = JSON.stringify({ message: replError.message, code: replError.code });
  socket.end([
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n'));
}
