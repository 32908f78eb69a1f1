/** Turns every failure into `{message, code}` with the registry's status; never lets a request crash the server. */
import { debuglog } from 'node:util';
import type { NextFunction, Request, Response } from 'express';
import { ReplError } from '../errors.js';

const debug = debuglog('browser-repl:http');

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
