/**
 * Recordings over HTTP (docs/recordings.md), with the routes and shapes of `@onkernel/sdk` 0.84's
 * `browsers.replays`: `POST /browsers/{id}/replays` starts one, `…/replays/{replay_id}/stop` stops
 * it, `GET …/replays` lists them and `GET …/replays/{replay_id}` is the MP4. Plus the page of
 * `replay_view_url` (`…/replays/{replay_id}/view`) and the video it plays (`…/view/video.mp4`).
 *
 * The page is opened by a person's browser, which sends no bearer token: like the live view's, it
 * is admitted by a capability, minted with the live-view key over `replay:<browser id>:<replay id>`
 * (so it opens that one recording and nothing else, never the live view), after the Host check.
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';

import { ReplError } from '../../../common/errors.js';
import type { Browsers } from '../../browsers/browsers.js';
import type { LiveViewKeys } from '../../live-view/capability.js';
import type { Replay, Replays } from '../../recordings/replays.js';
import { jsonBody, admitRequest } from '../middleware.js';
import type { AccessPolicy } from '../middleware.js';
import { publicUrl } from '../public-url.js';
import { validateBody } from '../schema-validator.js';

const BODY_LIMIT_BYTES = 16 * 1024;
const DEFAULT_FRAMERATE = 10;

interface ReplaysRoutesOptions {
  browsers: Browsers;
  replays: Replays;
  keys: LiveViewKeys;
}

/** What a replay's capability is minted over: one recording of one browser. */
function capabilitySubject(browserId: string, replayId: string): string {
  return `replay:${browserId}:${replayId}`;
}

/**
 * The id of the browser `idOrName` names: a live one, else an ended one whose recordings are still
 * kept (by id only: names are free once a browser ended).
 */
function browserIdOf(options: ReplaysRoutesOptions, idOrName: string): string {
  try {
    return options.browsers.get(idOrName).id;
  } catch (error) {
    if (options.replays.has(idOrName)) return idOrName;
    throw error;
  }
}

function viewUrl(req: Request, res: Response, keys: LiveViewKeys, replay: Replay): string {
  const url = publicUrl(req, res, `/browsers/${encodeURIComponent(replay.browserId)}/replays/${encodeURIComponent(replay.id)}/view`);
  url.searchParams.set('jwt', keys.mint(capabilitySubject(replay.browserId, replay.id), { readOnly: true }));
  return url.href;
}

function wire(req: Request, res: Response, keys: LiveViewKeys, replay: Replay): Record<string, unknown> {
  return { ...replay.info(), replay_view_url: viewUrl(req, res, keys, replay) };
}

function sendVideo(res: Response, next: NextFunction, replay: Replay): void {
  const { file } = replay.video();
  res.sendFile(file, { headers: { 'content-type': 'video/mp4', 'cache-control': 'no-store' }, dotfiles: 'allow' }, (error) => {
    // A client that left mid-download is no error of ours.
    if (error !== undefined && !res.headersSent) next(error);
  });
}

/** The API routes (behind the token, like every per-browser route). */
export function replaysRoutes(options: ReplaysRoutesOptions): Router {
  const { replays, keys } = options;
  const router = Router();

  router.post('/browsers/:id_or_name/replays', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
    validateBody('ReplayStartRequest', body);
    const browser = options.browsers.get(String(req.params['id_or_name']));
    const replay = await replays.start(browser, {
      framerate: (body['framerate'] as number | undefined) ?? DEFAULT_FRAMERATE,
      maxDurationSeconds: body['max_duration_in_seconds'] as number | undefined,
    });
    res.json(wire(req, res, keys, replay));
  });

  router.get('/browsers/:id_or_name/replays', (req: Request, res: Response) => {
    const browserId = browserIdOf(options, String(req.params['id_or_name']));
    res.json(replays.list(browserId).map((replay) => wire(req, res, keys, replay)));
  });

  router.get('/browsers/:id_or_name/replays/:replay_id', (req: Request, res: Response, next: NextFunction) => {
    const browserId = browserIdOf(options, String(req.params['id_or_name']));
    sendVideo(res, next, replays.get(browserId, String(req.params['replay_id'])));
  });

  router.post('/browsers/:id_or_name/replays/:replay_id/stop', async (req: Request, res: Response) => {
    const browserId = browserIdOf(options, String(req.params['id_or_name']));
    await replays.get(browserId, String(req.params['replay_id'])).stop();
    res.status(204).end();
  });

  return router;
}

const UNAUTHORIZED_REPLAY = () => new ReplError('REPL_ERR_UNAUTHORIZED',
  'missing or invalid replay capability: use the replay_view_url of the recording (GET /browsers/{id}/replays)');

/** The recording a page request's capability admits; anything else (no such recording included) is 401, telling nobody what exists. */
function authorizedReplay(options: ReplaysRoutesOptions & { access: AccessPolicy }, req: Request): Replay {
  admitRequest({ headers: { host: req.headers.host }, httpVersion: req.httpVersion }, options.access);
  const browserId = String(req.params['id_or_name']);
  const replayId = String(req.params['replay_id']);
  const jwt = req.query['jwt'];
  if (options.keys.verify(typeof jwt === 'string' ? jwt : undefined, capabilitySubject(browserId, replayId)) === undefined) throw UNAUTHORIZED_REPLAY();
  try {
    return options.replays.get(browserId, replayId);
  } catch {
    throw UNAUTHORIZED_REPLAY();
  }
}

/** The page of `replay_view_url` and its video; mounted before the API's Origin and token checks (see the module comment). */
export function replayPageRoutes(options: ReplaysRoutesOptions & { access: AccessPolicy }): Router {
  const router = Router();
  router.get('/browsers/:id_or_name/replays/:replay_id/view', (req: Request, res: Response) => {
    const replay = authorizedReplay(options, req);
    const nonce = randomBytes(16).toString('base64');
    const jwt = encodeURIComponent(String(req.query['jwt']));
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-store');
    // The URL carries the capability: it must not leak through a Referer.
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('content-security-policy', [
      "default-src 'none'", `style-src 'nonce-${nonce}'`, "media-src 'self'", "base-uri 'none'", "form-action 'none'", 'frame-ancestors *',
    ].join('; '));
    const started = replay.startedAt.toISOString();
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Recording ${escapeHtml(replay.id)}</title>
<style nonce="${nonce}">body{margin:0;background:#111;color:#ddd;font:14px system-ui,sans-serif}main{display:flex;flex-direction:column;align-items:center;gap:8px;padding:12px}video{max-width:100%;max-height:85vh;background:#000}</style></head>
<body><main><video controls autoplay muted playsinline src="view/video.mp4?jwt=${jwt}"></video>
<p>Recording ${escapeHtml(replay.id)} of browser ${escapeHtml(replay.browserId)}, started ${escapeHtml(started)}${replay.finishedAt === null ? ' (still recording: reload once it is stopped)' : ''}.</p></main></body></html>
`);
  });
  router.get('/browsers/:id_or_name/replays/:replay_id/view/video.mp4', (req: Request, res: Response, next: NextFunction) => {
    const replay = authorizedReplay(options, req);
    res.setHeader('referrer-policy', 'no-referrer');
    sendVideo(res, next, replay);
  });
  return router;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
