/**
 * Where a `POST /browsers` goes (docs/deploy.md#waiting-for-room): this server when it has room,
 * else a peer with room (by their `/pressure`), else the wait in this server's create queue, during
 * which the peers are asked again, so that room freed on any server ends the wait. A named create
 * goes to the name's owner (rendezvous hashing, lib/http/peer-directory.ts), which checks the name
 * and places it. Refusals carry `Retry-After` and `x-should-retry`, which the Kernel SDK obeys.
 */
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import type { Request, Response } from 'express';
import { ReplError, httpStatusOf } from '../../common/errors.js';
import type { Browser } from '../browsers/browser.js';
import type { BrowserInit, Browsers } from '../browsers/browsers.js';
import type { PeerDirectory } from './peer-directory.js';
import { FORWARDED_HEADER } from './peers.js';

const debug = debuglog('browser-repl:peers');

/** The header a request shortens its wait with, in seconds (the body's `wait_timeout_seconds` says the same). */
export const WAIT_HEADER = 'x-wait-timeout';
/** How often a waiting create asks the peers whether one has room now. */
const PEER_POLL_MS = 500;
/** What a refusal for want of room suggests as the pause before a retry, in seconds. */
export const RETRY_AFTER_SECONDS = 2;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/**
 * The wait the request asks for, in ms: the body's `wait_timeout_seconds`, else the
 * `x-wait-timeout` header; undefined when neither (the server's own bound then applies). Removes
 * the body field, which is this server's, not the Kernel SDK's.
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming the header
 */
export function requestedWaitMs(req: Request, body: Record<string, unknown>): number | undefined {
  const field = body['wait_timeout_seconds'];
  delete body['wait_timeout_seconds'];
  if (typeof field === 'number') return Math.round(field * 1000);
  const header = req.headers[WAIT_HEADER];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^\d+(\.\d+)?$/.test(header.trim()) || Number(header) > 3600) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${WAIT_HEADER} must be a number of seconds from 0 to 3600, got ${JSON.stringify(header)}`);
  }
  return Math.round(Number(header) * 1000);
}

/**
 * Tells the Kernel SDK what to do with a refusal of a create: retry (`x-should-retry: true`) what
 * room or another server may cure (429, 502, 503), after `Retry-After` seconds for want of room;
 * never what the same request cannot cure (a name taken, a bad field), which it would retry by
 * default for a 409.
 */
export function refusalHeaders(res: Response, error: unknown): void {
  if (res.headersSent) return;
  const code = error instanceof ReplError ? error.code : 'REPL_ERR_INTERNAL';
  const status = httpStatusOf(code);
  const retry = status === 429 || status === 502 || status === 503;
  res.setHeader('x-should-retry', String(retry));
  if (status === 429) res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
}

export interface CreatePlacementOptions {
  browsers: Browsers;
  /** The deployment's servers; undefined: this server alone. */
  directory?: PeerDirectory | undefined;
}

export class CreatePlacement {
  readonly #browsers: Browsers;
  readonly #directory: PeerDirectory | undefined;

  constructor(options: CreatePlacementOptions) {
    this.#browsers = options.browsers;
    this.#directory = options.directory;
  }

  /**
   * Creates the browser here, or has a peer answer the request: resolves the browser created
   * here, or undefined when a peer's answer was relayed on `res`. `body` is the request's, without
   * the wait field.
   */
  async place(req: Request, res: Response, init: BrowserInit, body: Record<string, unknown>): Promise<Browser | undefined> {
    const directory = this.#directory;
    if (directory === undefined) return this.#browsers.create(init);
    if (req.headers[FORWARDED_HEADER] !== undefined) {
      // A peer sent it: this server answers alone. A named one was sent to its owner, which makes
      // sure no other server has a browser of that name (a rename may have given it one).
      if (init.name !== undefined) await directory.assertNameFree(init.name);
      return this.#browsers.create(init);
    }
    if (init.name !== undefined) {
      const owner = directory.ownerOf(init.name);
      if (owner !== directory.nodeId) {
        const url = directory.urlOf(owner);
        if (url === undefined) throw new ReplError('REPL_ERR_PEER_UNAVAILABLE', `the server ${owner}, which owns the name "${init.name}", has no known address`);
        const relayed = await this.#relay(req, res, { node: owner, url }, body, init.signal, { passRefusals: true, waitMs: init.waitMs });
        if (!relayed) throw new ReplError('REPL_ERR_PEER_UNAVAILABLE', `the server ${owner}, which owns the name "${init.name}", cannot be reached: it may have ended`);
        return undefined;
      }
      // Named here: the owner holds it, waiting for room here if need be.
      await directory.assertNameFree(init.name);
      return this.#browsers.create(init);
    }
    const waitMs = Math.min(init.waitMs ?? this.#browsers.createWaitMs, this.#browsers.createWaitMs);
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (!this.#browsers.hasRoom) {
        for (const peer of await directory.withRoom()) {
          if (await this.#relay(req, res, peer, body, init.signal, { passRefusals: false, waitMs: 0 })) return undefined;
        }
      }
      const leave = new AbortController();
      const stop = new AbortController();
      void this.#watchPeers(directory, leave, stop.signal);
      try {
        return await this.#browsers.create({ ...init, waitMs: Math.max(0, deadline - Date.now()), leaveQueue: leave.signal });
      } catch (error) {
        // A peer has room now: this create left the queue for it, unless it went away itself.
        if (!leave.signal.aborted || init.signal?.aborted === true || !(error instanceof ReplError && error.code === 'REPL_ERR_ABORTED')) throw error;
      } finally {
        stop.abort();
      }
    }
  }

  /** While a create waits here, asks the peers now and then; one with room makes it leave the queue. */
  async #watchPeers(directory: PeerDirectory, leave: AbortController, stop: AbortSignal): Promise<void> {
    try {
      while (!stop.aborted) {
        await sleep(PEER_POLL_MS, undefined, { signal: stop });
        // Only while it waits: once it is launching here, nothing else may take its turn.
        if (this.#browsers.queued === 0) continue;
        if ((await directory.withRoom()).length > 0 && !stop.aborted) {
          leave.abort();
          return;
        }
      }
    } catch {
      // Stopped: the create was placed or refused.
    }
  }

  /**
   * Sends the create to `peer` and relays its answer; false (nothing sent on `res`) when the peer
   * cannot be reached or, unless `passRefusals`, has no room after all (429, 503).
   */
  async #relay(req: Request, res: Response, peer: { node: string; url: URL }, body: Record<string, unknown>,
    signal: AbortSignal | undefined, options: { passRefusals: boolean; waitMs: number | undefined }): Promise<boolean> {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    if (options.waitMs === undefined) delete headers[WAIT_HEADER];
    else headers[WAIT_HEADER] = String(options.waitMs / 1000);
    let answer;
    try {
      answer = await this.#directory!.send(peer.url, req.originalUrl, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (error) {
      if (signal?.aborted === true) throw new ReplError('REPL_ERR_ABORTED', 'the client went away');
      debug('create on %s failed: %s', peer.node, (error as Error).message);
      return false;
    }
    if (!options.passRefusals && (answer.status === 429 || answer.status === 503)) {
      await answer.body.dump();
      return false;
    }
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
    }
    try {
      await pipeline(answer.body, res);
    } catch (error) {
      debug('create answer from %s ended early: %s', peer.node, (error as Error).message);
    }
    return true;
  }
}
