/**
 * `cdp_ws_url`: a WebSocket on the server's own port (`/browsers/{id_or_name}/cdp`) that relays
 * a DevTools client from outside (Playwright's `connectOverCDP`, Puppeteer's `connect`) to that
 * browser, so no Chromium port is ever exposed.
 *
 * - Before anything else, the Host and Origin checks every route has (docs/security.md): a web
 *   page must not open a browser's CDP, whether through DNS rebinding or a cross-site WebSocket
 *   (browsers send `Origin` on every WebSocket handshake; program clients send none).
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
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';

import { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import { createUpgradeAcceptor } from '../../common/cdp/transport.js';
import type { Transport, UpgradeAcceptor } from '../../common/cdp/transport.js';
import { httpStatusOf, ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import type { Browser } from '../browsers/browser.js';
import { redactUrl } from '../../common/redact.js';
import { admitRequest, bearerToken, endSocketWithJson, tokenMatches } from './middleware.js';
import type { AccessPolicy } from './middleware.js';

const debug = debuglog('browser-repl:cdp-proxy');

/** Path of a browser's CDP proxy; `{id}` is a session id, a session name or `default`. */
const CDP_PATH = /^\/browsers\/([^/]+)\/cdp\/?$/;
/** Owner name under which the proxy's clients get their download folder. */
const PROXY_OWNER = 'cdp:proxy';

export interface CdpProxyOptions {
  /** When set, connections need it (header, `?token=`) or the browser's capability (`?jwt=`). */
  token?: string | undefined;
  /** The Host and Origin policy of the server's routes; default: loopback only, no origins. */
  access?: AccessPolicy | undefined;
  /**
   * The browser named in the path; throws `REPL_ERR_NOT_FOUND` for an unknown one. Its id is what
   * the capability is bound to; a connection holds it (activity) while it is open.
   */
  resolve(idOrName: string): Browser;
}

/** The capability for one browser's CDP proxy, as `cdp_ws_url` carries it in `?jwt=`. */
export function cdpCapability(token: string, sessionId: string): string {
  return createHmac('sha256', token).update(`cdp:${sessionId}`).digest('base64url');
}

export class CdpProxy extends Resource {
  readonly #options: CdpProxyOptions;
  /** The relay of each browser that has proxied clients right now (dropped with its last client). */
  readonly #endpoints = new Map<Browser, ScopedEndpoint>();
  #acceptor: Promise<UpgradeAcceptor> | undefined;

  constructor(options: CdpProxyOptions) {
    super();
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
    socket.on('error', (error) => debug('client socket: %s', error.message));
    let target: Browser;
    try {
      if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
      // Host, then Origin, then the token: the order of the HTTP routes.
      admitRequest(request, this.#options.access ?? { hasToken: this.#hasToken, allowedHosts: undefined, allowedOrigins: [] });
      const url = requestUrl(request.url);
      const match = CDP_PATH.exec(url.pathname);
      if (match === null) {
        // Like the HTTP routes: without a credential, 401 comes before any 404.
        if (this.#hasToken && !this.#tokenPresented(request, url)) throw UNAUTHORIZED();
        throw new ReplError('REPL_ERR_NOT_FOUND', `no WebSocket route ${url.pathname}; a browser's CDP is at /browsers/{id}/cdp`);
      }
      target = this.#authorize(request, url, decodedSegment(match[1]!));
      checkHandshake(request);
      if (target.chromium === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this server runs without a browser (browser: false)');
    } catch (error) {
      // The URL may carry ?token= or ?jwt=: only its redacted form is ever logged.
      debug('refused upgrade %s: %s', redactUrl(request.url), error instanceof Error ? error.message : String(error));
      refuse(socket, error);
      return;
    }
    // `ws` and the transport name the connection by its URL in their logs; ?token= and ?jwt=
    // were checked above and must not travel further.
    request.url = redactUrl(request.url);
    const release = target.hold();
    let client: Transport;
    try {
      client = await (this.#acceptor ??= createUpgradeAcceptor()).then((acceptor) => acceptor.accept(request, socket, head));
    } catch (error) {
      release();
      refuse(socket, error);
      return;
    }
    const endpoint = this.#endpointFor(target);
    endpoint.accept(watchClose(client, () => {
      release();
      // An endpoint without clients is dropped, so deleted browsers leave nothing behind here.
      if (endpoint.clientCount === 0 && this.#endpoints.get(target) === endpoint) this.#endpoints.delete(target);
    }));
  }

  /**
   * `close()` closes every proxied connection; upgrades are refused from the call on. Every caller
   * waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    const endpoints = [...this.#endpoints.values()];
    this.#endpoints.clear();
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    (await this.#acceptor?.catch(() => undefined))?.close();
  }

  get #hasToken(): boolean {
    return this.#options.token !== undefined && this.#options.token !== '';
  }

  /**
   * The browser the path names, once the credential is checked. The token (header or `?token=`)
   * is checked before the name is looked up, and a capability whose browser does not exist is
   * refused like a wrong one: a client without a credential learns nothing about which browsers
   * exist.
   */
  #authorize(request: IncomingMessage, url: URL, idOrName: string): Browser {
    const token = this.#options.token;
    if (token === undefined || token === '' || this.#tokenPresented(request, url)) return this.#options.resolve(idOrName);
    const jwt = url.searchParams.get('jwt');
    if (jwt === null) throw UNAUTHORIZED();
    let target: Browser;
    try {
      target = this.#options.resolve(idOrName);
    } catch {
      throw UNAUTHORIZED();
    }
    if (!tokenMatches(jwt, cdpCapability(token, target.id))) throw UNAUTHORIZED();
    return target;
  }

  /** The request carries the server's token itself (header or `?token=`), compared in constant time. */
  #tokenPresented(request: IncomingMessage, url: URL): boolean {
    const token = this.#options.token;
    if (token === undefined || token === '') return false;
    const header = bearerToken(request.headers);
    const query = url.searchParams.get('token');
    return (header !== undefined && tokenMatches(header, token)) || (query !== null && tokenMatches(query, token));
  }

  #endpointFor(browser: Browser): ScopedEndpoint {
    let endpoint = this.#endpoints.get(browser);
    if (endpoint === undefined) {
      const tabs = browser.tabs!;
      const chromium = browser.chromium!;
      endpoint = new ScopedEndpoint({
        upstream: () => chromium.endpoint(),
        scope: async () => ({
          mode: 'shared',
          ownTargetIds: [],
          foreign: await tabs.settledOwnersExcept(),
          downloadsFolder: (await tabs.downloads.prepare(PROXY_OWNER)).incoming,
        }),
      });
      this.#endpoints.set(browser, endpoint);
    }
    return endpoint;
  }
}

/** The URL of an upgrade request; one that does not parse is the client's error (400), not ours. */
function requestUrl(url: string | undefined): URL {
  try {
    return new URL(url ?? '/', 'http://x');
  } catch {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'the request target is not a valid URL path');
  }
}

/** A token of RFC 9110 (what `Sec-WebSocket-Protocol` lists), and such a comma-separated list as `ws` parses it. */
const PROTOCOL_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:[ \t]*,[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/**
 * The checks `ws` makes of a handshake, made first so that a bad one gets the JSON error of every
 * route (`ws` would answer a text/html 400 of its own).
 */
export function checkHandshake(request: IncomingMessage): void {
  const invalid = (message: string) => new ReplError('REPL_ERR_INVALID_REQUEST', `invalid WebSocket handshake: ${message}`);
  if (request.method !== 'GET') throw invalid(`the method must be GET, not ${request.method ?? '?'}`);
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') throw invalid('the Upgrade header must be websocket');
  if (!/^[+/0-9A-Za-z]{22}==$/.test(request.headers['sec-websocket-key'] ?? '')) throw invalid('Sec-WebSocket-Key is missing or not 16 bytes of base64');
  const version = request.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') throw invalid('Sec-WebSocket-Version must be 13');
  const protocols = request.headers['sec-websocket-protocol'];
  if (protocols !== undefined) {
    const names = protocols.split(',').map((name) => name.trim());
    if (!PROTOCOL_LIST.test(protocols) || new Set(names).size !== names.length) throw invalid('Sec-WebSocket-Protocol is not a list of distinct tokens');
  }
}

/** A path segment decoded; a malformed escape (`%E0`) stays as it is and names no browser (404, not 500). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const UNAUTHORIZED = () => new ReplError('REPL_ERR_UNAUTHORIZED',
  'missing or invalid token: send Authorization: Bearer <token>, or use the cdp_ws_url the browser API returned (it carries ?jwt=)');

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
export function refuse(socket: Duplex, error: unknown): void {
  const replError = error instanceof ReplError ? error : new ReplError('REPL_ERR_INTERNAL', error instanceof Error ? error.message : String(error));
  if (!(error instanceof ReplError)) debug('unexpected upgrade failure: %s', error instanceof Error ? error.message : String(error));
  if (socket.destroyed) return;
  endSocketWithJson(socket, httpStatusOf(replError.code), { message: replError.message, code: replError.code });
}
