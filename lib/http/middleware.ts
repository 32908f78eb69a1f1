/**
 * The Express middleware every route shares: bearer auth, JSON bodies with the contract's size
 * messages, the request's AbortSignal, and the error handler that turns every failure into
 * `{message, code}` with the registry's status, so no request can crash the server.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { debuglog } from 'node:util';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ReplError } from '../../common/errors.js';
import type { BrowserHost } from '../host/browser-host.js';

const debug = debuglog('browser-repl:http');

// ----- which browser ------------------------------------------------------------------------

/**
 * The browser host a request addresses: the default host for the top-level routes, the one named
 * by `/browsers/{id_or_name}/…` for the per-browser routes (resolved once, before the route runs).
 */
export type HostOf = (req: Request, res: Response) => BrowserHost;

/** Key of `res.locals` under which the per-browser mount leaves the resolved host. */
export const HOST_LOCAL = 'browserHost';

export const hostFromLocals: HostOf = (_req, res) => res.locals[HOST_LOCAL] as BrowserHost;

/**
 * Failed `repl` and `execute` answers carry `x-should-retry: false`: the Kernel SDK retries 408,
 * 409, 429 and 5xx answers by default, and a retried cell would run twice.
 */
export function noRetry(res: Response): void {
  res.setHeader('x-should-retry', 'false');
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

export function bearerAuth(token: string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = bearerToken(req.headers);
    if (given === undefined || !tokenMatches(given, token)) {
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

// ----- errors --------------------------------------------------------------------------------

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new ReplError('REPL_ERR_NOT_FOUND', `no route for ${req.method} ${req.path}`));
}

export function errorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const replError = error instanceof ReplError
    ? error
    : new ReplError('REPL_ERR_INTERNAL', error instanceof Error ? error.message : String(error), { cause: error });
  if (!(error instanceof ReplError)) debug('unexpected error: %o', error);
  // A client that went away gets nothing useful; closing is all that is left to do.
  if (replError.code === 'REPL_ERR_ABORTED' && res.socket?.destroyed !== false) {
    res.destroy();
    return;
  }
  res.status(replError.status).json({ message: replError.message, code: replError.code });
}
