/**
 * The URLs the server hands out (`cdp_ws_url`, a streamed cell's `result_url`) as a client can
 * reach them: with the path the app is mounted at (`parent.use('/browser', createApp())`), and
 * behind a reverse proxy with what its `X-Forwarded-Proto`, `-Host` and `-Prefix` say, but only
 * when the `trustProxy` option trusts the proxy that sent them (docs/security.md). WebSocket
 * upgrades reach `handleUpgrade` with the full path; {@link MountPrefixes} strips what the app is
 * mounted at, so `cdp_ws_url` works there as given.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Key of `res.locals` holding the path the app is mounted at (`''` at the root). */
const MOUNT_LOCAL = 'chromiumReplMount';

/** Mount paths kept at most, so a parent mounted at `/:tenant` cannot grow the set without bound. */
const MAX_PREFIXES = 64;

/** A forwarded prefix must be a plain absolute path (`/browser`, `/a/b`), nothing a URL could be bent with. */
const PREFIX_PATTERN = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/** A host name or address with an optional port, as a Host header carries it. */
const HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Where the app is mounted: learned from each request, and from the parent's static mount paths. */
export class MountPrefixes {
  readonly #seen = new Set<string>();
  readonly #static: () => unknown;

  /** `mountpath` reads the app's `mountpath` (Express sets it when a parent mounts the app). */
  constructor(mountpath: () => unknown) {
    this.#static = mountpath;
  }

  /** First middleware of the app: records where this request found it mounted. */
  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      res.locals[MOUNT_LOCAL] = req.baseUrl;
      if (req.baseUrl !== '' && this.#seen.size < MAX_PREFIXES) this.#seen.add(req.baseUrl);
      next();
    };
  }

  /**
   * The path of an upgrade request as the app sees it: without the mount path in front of
   * `/browsers/…`, or unchanged when it has none of the known ones.
   */
  strip(path: string): string {
    const mounts = this.#static();
    const candidates = [...(Array.isArray(mounts) ? mounts : [mounts]).filter((mount): mount is string => typeof mount === 'string'), ...this.#seen];
    for (const prefix of candidates) {
      const trimmed = prefix.replace(/\/+$/, '');
      if (trimmed !== '' && path.startsWith(`${trimmed}/`)) return path.slice(trimmed.length);
    }
    return path;
  }
}

/** The path the app is mounted at, for this request (`''` at the root). */
export function mountPath(res: Response): string {
  const mount = res.locals[MOUNT_LOCAL];
  return typeof mount === 'string' ? mount : '';
}

/** The path of the router that handles `req`, as the app sees it (`/browsers/b1` for the per-browser routes). */
export function appBasePath(req: Request, res: Response): string {
  const mount = mountPath(res);
  return req.baseUrl.startsWith(mount) ? req.baseUrl.slice(mount.length) : req.baseUrl;
}

/** The forwarded prefix, when the proxy that sent it is trusted and it is a plain path. */
function forwardedPrefix(req: Request): string {
  const header = req.headers['x-forwarded-prefix'];
  const value = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().replace(/\/+$/, '');
  if (value === undefined || value === '' || !PREFIX_PATTERN.test(value)) return '';
  const trust = req.app.get('trust proxy fn') as ((address: string | undefined, hop: number) => boolean) | undefined;
  return trust?.(req.socket.remoteAddress, 0) === true ? value : '';
}

/**
 * The absolute URL of `path` (a path of the app, `/browsers/b1/cdp`) for the client of `req`.
 * Express's `req.protocol` and `req.host` follow `X-Forwarded-Proto` and `-Host` only under its
 * `trust proxy` setting (the `trustProxy` option), and so does the prefix here.
 */
export function publicUrl(req: Request, res: Response, path: string, options: { websocket?: boolean } = {}): URL {
  const secure = req.protocol === 'https';
  const scheme = options.websocket === true ? (secure ? 'wss' : 'ws') : (secure ? 'https' : 'http');
  // `req.host` keeps the port (Express 5); a forwarded host that is no plain host[:port] is not
  // used, nor is a missing one: the Host header, then the loopback address, instead.
  const forwarded = req.host as string | undefined;
  const host = forwarded !== undefined && HOST_PATTERN.test(forwarded) ? forwarded : (req.headers.host ?? '127.0.0.1');
  return new URL(`${scheme}://${host}${forwardedPrefix(req)}${mountPath(res)}${path}`);
}
