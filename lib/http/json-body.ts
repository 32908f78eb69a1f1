/** JSON body parsing with the contract's size messages; everything else is schema validation. */
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ReplError } from '../errors.js';

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
export function requireBody(body: unknown): void {
  if (body === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'request body is required');
}
