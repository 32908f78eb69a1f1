/**
 * The Express middleware every route shares: the Host and Origin checks (DNS rebinding, CSRF,
 * CORS), bearer auth, JSON bodies with the contract's size messages, the request's AbortSignal,
 * and the error handler that turns every failure into `{message, code}` with the registry's
 * status, so no request can crash the server. docs/security.md explains the policy.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { httpStatusOf, ReplError } from '../../common/errors.js';
import { redactUrl } from '../../common/redact.js';
import type { Browser } from '../browsers/browser.js';

const debug = debuglog('browser-repl:http');

// ----- which browser ------------------------------------------------------------------------

/**
 * The browser a request addresses: the server's own for the top-level routes, the one named by
 * `/browsers/{id_or_name}/…` below it (resolved once, before the route runs).
 */
export type BrowserOf = (req: Request, res: Response) => Browser;

/** Key of `res.locals` under which the per-browser mount leaves the resolved browser. */
export const BROWSER_LOCAL = 'addressedBrowser';

export const browserFromLocals: BrowserOf = (_req, res) => res.locals[BROWSER_LOCAL] as Browser;

/**
 * Failed `repl` and `execute` answers carry `x-should-retry: false`: the Kernel SDK retries 408,
 * 409, 429 and 5xx answers by default, and a retried cell would run twice.
 */
export function noRetry(res: Response): void {
  res.setHeader('x-should-retry', 'false');
}

// ----- who may call: Host and Origin ----------------------------------------------------------

/**
 * Which requests get past the Host and Origin checks (docs/security.md). Built once per app by
 * `accessPolicy`; the Express routes, `/mcp` and the CDP proxy's upgrades all use the same one.
 */
export interface AccessPolicy {
  /** Whether the server has a token; without one the Host check always applies. */
  readonly hasToken: boolean;
  /** Host names beyond the loopback ones (`undefined`: none were configured). */
  readonly allowedHosts: readonly HostPattern[] | undefined;
  /** Web origins whose pages may call the server (CORS), exactly as browsers send `Origin`. */
  readonly allowedOrigins: readonly string[];
}

/** One entry of `allowedHosts`: a name (or `*.suffix`), with a port or any port. */
export interface HostPattern {
  /** Lowercase host name as URLs serialize it (IPv6 in brackets); for `*.x`, the `.x` suffix. */
  readonly hostname: string;
  readonly subdomains: boolean;
  /** The port it must come with, or undefined for any port. */
  readonly port: string | undefined;
}

export interface AccessPolicyOptions {
  token: string | undefined;
  /** Parsed entries of `allowedHosts` (`parseHostPattern`); undefined: none configured. */
  allowedHosts?: readonly HostPattern[] | undefined;
  /** Parsed entries of `allowedOrigins` (`parseOrigin`). Default none. */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * The policy of already parsed entries (lib/http/settings.ts parses and checks the options and
 * the environment once), frozen.
 */
export function accessPolicy(options: AccessPolicyOptions): AccessPolicy {
  return Object.freeze({
    hasToken: options.token !== undefined && options.token !== '',
    allowedHosts: options.allowedHosts === undefined ? undefined : Object.freeze([...options.allowedHosts]),
    allowedOrigins: Object.freeze([...options.allowedOrigins ?? []]),
  });
}

/** The entries of a comma-separated list (`--allowed-hosts`, the environment), blanks dropped. */
export function splitList(value: string): string[] {
  return value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/**
 * A Host header as browsers and HTTP clients send it: `name`, `name:port`, `[v6]:port`. Anything
 * else (user info, a path, spaces) is malformed; URLs would otherwise read `evil@127.0.0.1` as
 * the loopback host.
 */
const HOST_SHAPE = /^(?:\[[0-9A-Fa-f:.]+\]|[^\s[\]/\\@?#:]+)(?::\d{1,5})?$/;

/** Hostname and port of a Host header, normalized as URLs are (`127.1` → `127.0.0.1`), or undefined. */
function parseHostHeader(host: string): { hostname: string; port: string; host: string } | undefined {
  if (!HOST_SHAPE.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { hostname: url.hostname, port: url.port, host: url.host };
  } catch {
    return undefined;
  }
}

/** Parses one `allowedHosts` entry: `name`, `name:port`, `*.suffix`, `[v6]`, or throws naming it. */
export function parseHostPattern(entry: string, source: string): HostPattern {
  const subdomains = entry.startsWith('*.');
  const parsed = parseHostHeader(subdomains ? entry.slice(2) : entry);
  if (parsed === undefined || parsed.hostname === '' || entry === '*') {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${source}: ${JSON.stringify(entry)} is not a host name (name, name:port, *.domain or [v6]); allow every name by setting a token instead`);
  }
  const port = /:\d+$/.test(entry) && !entry.endsWith(']') ? entry.slice(entry.lastIndexOf(':') + 1) : undefined;
  return { hostname: subdomains ? `.${parsed.hostname}` : parsed.hostname, subdomains, port: port === undefined ? undefined : String(Number(port)) };
}

/** Parses one `allowedOrigins` entry into the form browsers send (`https://app.example:8443`). */
export function parseOrigin(entry: string, source: string): string {
  let origin: string | undefined;
  try {
    const url = new URL(entry);
    // A path, query or credentials would never match an Origin header: refuse rather than ignore.
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    if ((url.protocol === 'http:' || url.protocol === 'https:') && bare) origin = url.origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${source}: ${JSON.stringify(entry)} is not an origin (scheme://host[:port], such as https://app.example)`);
  }
  return origin;
}

/** 127.0.0.0/8, [::1], localhost and *.localhost (browsers resolve those to loopback themselves). */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function hostAllowed(parsed: { hostname: string; port: string }, patterns: readonly HostPattern[]): boolean {
  return patterns.some((pattern) => (pattern.subdomains ? parsed.hostname.endsWith(pattern.hostname) : parsed.hostname === pattern.hostname)
    && (pattern.port === undefined || pattern.port === (parsed.port === '' ? '80' : parsed.port)));
}

/**
 * The Host check against DNS rebinding: a page of evil.example whose name now resolves to
 * 127.0.0.1 reaches this server as its own origin, and only its Host header gives it away.
 * Without a token the check always applies; with one, only when `allowedHosts` was given (the
 * token is the boundary, and a server behind a load balancer or in a pod is reached by names
 * nobody lists).
 */
function checkHost(headers: IncomingHttpHeaders, httpVersion: string, policy: AccessPolicy): void {
  const host = headers.host;
  const applies = !policy.hasToken || policy.allowedHosts !== undefined;
  if (!applies) {
    if (host === undefined && httpVersion === '1.1') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'an HTTP/1.1 request needs a Host header');
    return;
  }
  if (host === undefined) {
    throw new ReplError('REPL_ERR_HOST_NOT_ALLOWED', 'the request has no Host header; this server answers only requests that name it (127.0.0.1, [::1], localhost or an allowed host)');
  }
  const parsed = parseHostHeader(host);
  if (parsed !== undefined && (isLoopbackHostname(parsed.hostname) || hostAllowed(parsed, policy.allowedHosts ?? []))) return;
  throw new ReplError('REPL_ERR_HOST_NOT_ALLOWED',
    `Host ${JSON.stringify(host)} is not allowed: this server answers to 127.0.0.1, [::1], localhost${policy.allowedHosts === undefined || policy.allowedHosts.length === 0 ? '' : ' and its allowed hosts'} (add a name with --allowed-hosts or BROWSER_REPL_ALLOWED_HOSTS)`);
}

/** `Origin` names the server itself (what the Host header says): a page the server served. */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === parseHostHeader(host)?.host;
  } catch {
    return false;
  }
}

/**
 * The Origin check against cross-site requests: a page of another site may send a "simple"
 * POST (text/plain, no preflight) with a JSON body, and body parsing accepts any content type,
 * so its code would run. Browsers mark such requests with `Origin` and `Sec-Fetch-Site`; program
 * clients (undici, the SDKs, Playwright) send neither. Returns the origin to answer with CORS
 * headers, if it is an allowed one.
 */
function checkOrigin(headers: IncomingHttpHeaders, policy: AccessPolicy): string | undefined {
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  const crossSite = site === 'cross-site' || site === 'same-site';
  if (origin !== undefined) {
    if (policy.allowedOrigins.includes(origin)) return origin;
    // `Origin: null` (sandboxed frames, file:// pages) is a page of unknown site: refused too.
    if (!crossSite && isSameOrigin(origin, headers.host)) return undefined;
    throw new ReplError('REPL_ERR_ORIGIN_NOT_ALLOWED',
      `Origin ${JSON.stringify(origin)} is not allowed: web pages of other origins may not call this server (allow one with --allowed-origins or BROWSER_REPL_ALLOWED_ORIGINS)`);
  }
  if (crossSite) {
    throw new ReplError('REPL_ERR_ORIGIN_NOT_ALLOWED', `Sec-Fetch-Site: ${site}: requests made by web pages of other sites are refused`);
  }
  return undefined;
}

/**
 * The Host check, then the Origin check, for any request (HTTP routes, `/mcp`, WebSocket
 * upgrades). Throws the `ReplError` to answer; returns the allowed CORS origin, if any.
 */
export function admitRequest(request: Pick<IncomingMessage, 'headers' | 'httpVersion'>, policy: AccessPolicy): string | undefined {
  checkHost(request.headers, request.httpVersion, policy);
  return checkOrigin(request.headers, policy);
}

/** Response headers a page of an allowed origin may read (the API's own ones). */
const EXPOSED_HEADERS = 'x-cell-id, x-should-retry, x-error-message, x-has-more, x-next-offset, mcp-session-id';
const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE';

/**
 * Express middleware of `admitRequest`: refusals go to the error handler (403 JSON, no CORS
 * headers, so the page can read nothing). An allowed origin gets CORS headers on every answer,
 * and its preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered here, before
 * the bearer check, because browsers never send credentials on a preflight.
 */
export function accessGuard(policy: AccessPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let corsOrigin: string | undefined;
    try {
      corsOrigin = admitRequest(req, policy);
    } catch (error) {
      debug('refused %s %s: %s', req.method, redactUrl(req.originalUrl), (error as Error).message);
      next(error);
      return;
    }
    if (policy.allowedOrigins.length > 0) res.vary('Origin');
    if (corsOrigin === undefined) {
      next();
      return;
    }
    res.setHeader('access-control-allow-origin', corsOrigin);
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    const preflightMethod = req.headers['access-control-request-method'];
    if (req.method !== 'OPTIONS' || preflightMethod === undefined) {
      next();
      return;
    }
    res.setHeader('access-control-allow-methods', CORS_METHODS);
    const requested = req.headers['access-control-request-headers'];
    // The origin is trusted: whatever headers its client needs (authorization, the SDK's own).
    if (requested !== undefined) res.setHeader('access-control-allow-headers', requested);
    res.setHeader('access-control-max-age', '600');
    res.vary('Access-Control-Request-Headers');
    res.status(204).end();
  };
}


// ----- auth ----------------------------------------------------------------------------------

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares a presented token with the expected one in constant time (fixed-size digests). */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
}

/**
 * Key of `res.locals` set when the request was admitted by a browser's capability
 * (lib/http/browser-capability.ts) instead of the token: the bearer check then lets it pass.
 */
export const CAPABILITY_LOCAL = 'admittedByCapability';

export function bearerAuth(token: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.locals[CAPABILITY_LOCAL] === true) {
      next();
      return;
    }
    const given = bearerToken(req.headers);
    if (given === undefined || !tokenMatches(given, token)) {
      debug('unauthorized %s %s', req.method, redactUrl(req.originalUrl));
      next(new ReplError('REPL_ERR_UNAUTHORIZED', 'missing or invalid bearer token (set Authorization: Bearer <BROWSER_REPL_TOKEN>)'));
      return;
    }
    next();
  };
}

// ----- bodies --------------------------------------------------------------------------------

export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined || error === null) {
        // body-parser turns an empty body into {}; the contract tells "no body" apart.
        if (isEmptyBody(req)) req.body = undefined;
        next();
        return;
      }
      const type = (error as { type?: unknown }).type;
      if (type === 'entity.too.large') {
        next(new ReplError('REPL_ERR_BODY_TOO_LARGE', `request body exceeds ${limitBytes} bytes`));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      next(new ReplError('REPL_ERR_INVALID_REQUEST', `invalid request body: ${message}`));
    });
  };
}

function isEmptyBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) === 0;
  return req.headers['transfer-encoding'] === undefined;
}

/** Express 5 leaves `req.body` undefined when nothing was sent. */
/**
 * The part of a host that needs a browser (its executors, its WebMCP monitor), or
 * `REPL_ERR_BROWSER_NOT_FOUND` naming what needed it when the server runs without one.
 */
export function browserPart<T>(part: T | null, what: string): T {
  if (part === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', `this server was started without a browser (browser: false); ${what} need one`);
  return part;
}

export function requireBody(body: unknown): void {
  if (body === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'request body is required');
}

// ----- cancellation --------------------------------------------------------------------------

/** An AbortSignal that fires when the client goes away before the response was sent. */
export function requestSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  req.once('aborted', () => controller.abort(new Error('client disconnected')));
  return controller.signal;
}

/**
 * Answers on a raw socket, where no Express response exists (the HTTP parser refused the request,
 * or a WebSocket upgrade is refused before it happens): one JSON error, then the connection closes.
 */
export function endSocketWithJson(socket: Duplex, status: number, body: { message: string; code: string }): void {
  const text = JSON.stringify(body);
  socket.end([
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    '',
    text,
  ].join('\r\n'));
}

// ----- errors --------------------------------------------------------------------------------

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new ReplError('REPL_ERR_NOT_FOUND', `no route for ${req.method} ${req.path}`));
}

export function errorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const replError = error instanceof ReplError ? error : clientFault(error)
    ?? new ReplError('REPL_ERR_INTERNAL', error instanceof Error ? error.message : String(error), { cause: error });
  if (replError.code === 'REPL_ERR_INTERNAL') debug('unexpected error: %s', error instanceof Error ? error.stack : String(error));
  // A client that went away gets nothing useful; closing is all that is left to do.
  if (replError.code === 'REPL_ERR_ABORTED' && res.socket?.destroyed !== false) {
    res.destroy();
    return;
  }
  res.status(httpStatusOf(replError.code)).json({ message: replError.message, code: replError.code });
}

/**
 * An error Express or its parsers raised for the request itself (a 4xx `status`, such as the
 * URIError of a malformed %-escape in a path parameter), as the registry's code for it.
 */
function clientFault(error: unknown): ReplError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  const message = error instanceof Error ? error.message : 'invalid request';
  if (code === 404) return new ReplError('REPL_ERR_NOT_FOUND', message, { cause: error });
  if (code === 413) return new ReplError('REPL_ERR_BODY_TOO_LARGE', message, { cause: error });
  return new ReplError('REPL_ERR_INVALID_REQUEST', `invalid request: ${message}`, { cause: error });
}
