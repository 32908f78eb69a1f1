/** An AbortSignal that fires when the client goes away before the response was sent. */
import type { Request, Response } from 'express';

export function requestSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  req.once('aborted', () => controller.abort(new Error('client disconnected')));
  return controller.signal;
}
