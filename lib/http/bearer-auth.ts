/** `Authorization: Bearer <token>` on every route when a token is configured; constant-time compare. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ReplError } from '../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function bearerAuth(token: string): RequestHandler {
  // Comparing fixed-size digests keeps the comparison constant-time even when lengths differ.
  const expected = digest(token);
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match === null || !timingSafeEqual(digest(match[1]!.trim()), expected)) {
      next(new ReplError('REPL_ERR_UNAUTHORIZED', 'missing or invalid bearer token (set Authorization: Bearer <BROWSER_REPL_TOKEN>)'));
      return;
    }
    next();
  };
}
