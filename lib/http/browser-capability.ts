/**
 * The browser's capability on the routes the Kernel SDK sends straight to a browser's `base_url`
 * (docs/curl.md#the-capability, docs/security.md#curl-and-fetch): `curl`, `curl/raw` and
 * `telemetry/stream`. The SDK takes it from the `?jwt=` of `cdp_ws_url` and sends it as `?jwt=`,
 * without the bearer token. It is the CDP proxy's capability (an HMAC of the token and the session
 * id): whoever holds it drives that browser's CDP already, so these routes give them nothing
 * more. Any other route, or another browser's id, still needs the token.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { cdpCapability } from './cdp-proxy.js';
import { CAPABILITY_LOCAL, tokenMatches } from './middleware.js';

/** The per-browser paths a capability admits (a browser's id, never a name: the capability names the id). */
const CAPABILITY_PATH = /^\/browsers\/([^/]+)\/(?:curl|curl\/raw|telemetry\/stream)\/?$/;

/** Before `bearerAuth`: marks a request whose `?jwt=` is the capability of the browser its path names. */
export function browserCapabilityAuth(token: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const jwt = req.query['jwt'];
    const match = CAPABILITY_PATH.exec(req.path);
    if (typeof jwt === 'string' && match !== null) {
      let id: string | undefined;
      try {
        id = decodeURIComponent(match[1]!);
      } catch {
        id = undefined;
      }
      if (id !== undefined && tokenMatches(jwt, cdpCapability(token, id))) res.locals[CAPABILITY_LOCAL] = true;
    }
    next();
  };
}
