/**
 * `/proxies` with the routes and shapes of `@onkernel/sdk`'s `proxies` resource: create, retrieve,
 * rename (PATCH), list (paged as `GET /browsers`), delete and `check` (docs/browsers.md#proxies).
 * Only `custom` proxies; an answer never carries a password (`config.has_password` says whether
 * there is one). `check` asks the server's check target (`proxyCheckUrl`), or the body's `url`,
 * through the proxy; only a check of the default target changes the proxy's `status` and
 * `last_checked`, as the hosted product documents.
 */
import { Router } from 'express';
import type { Request, Response } from 'express';

import { pageOf, pageRequest, stringQuery } from '../paging.js';
import { ReplError } from '../../../common/errors.js';
import { checkName, checkProxyCreate, wireProxy } from '../../proxies/config.js';
import type { WireProxy } from '../../proxies/config.js';
import { checkProxy } from '../../proxies/check.js';
import type { ProxyStore } from '../../proxies/store.js';
import { jsonBody } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

const BODY_LIMIT_BYTES = 64 * 1024;

export interface ProxiesRoutesOptions {
  proxies: ProxyStore;
  /** What `check` asks through the proxy when the body names no `url`. */
  checkUrl: string;
}

export function proxiesRoutes(options: ProxiesRoutesOptions): Router {
  const { proxies } = options;
  const router = Router();

  router.post('/proxies', jsonBody(BODY_LIMIT_BYTES), (req: Request, res: Response) => {
    const body = objectBody(req.body);
    // The type first: a hosted-only type is refused for what it is, whatever its config says.
    if (typeof body['type'] === 'string' && body['type'] !== 'custom') checkProxyCreate(body);
    validateBody('ProxyCreateRequest', body);
    res.json(wireProxy(proxies.create(checkProxyCreate(body))));
  });

  router.get('/proxies', (req: Request, res: Response) => {
    const paging = pageRequest(req.query);
    const rows = proxies.list({ name: stringQuery(req.query['name'], 'name'), query: stringQuery(req.query['query'], 'query') });
    const page = pageOf(res, rows, paging);
    res.json(page.map(wireProxy));
  });

  router.get('/proxies/:id', (req: Request, res: Response) => {
    res.json(wireProxy(proxies.get(String(req.params['id']))));
  });

  router.patch('/proxies/:id', jsonBody(BODY_LIMIT_BYTES), (req: Request, res: Response) => {
    const body = objectBody(req.body);
    validateBody('ProxyUpdateRequest', body);
    res.json(wireProxy(proxies.rename(String(req.params['id']), checkName(body['name'], 'name'))));
  });

  router.delete('/proxies/:id', (req: Request, res: Response) => {
    proxies.delete(String(req.params['id']));
    res.status(204).end();
  });

  router.post('/proxies/:id/check', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = req.body === undefined ? {} : objectBody(req.body);
    validateBody('ProxyCheckRequest', body);
    const id = String(req.params['id']);
    const proxy = proxies.get(id);
    const given = body['url'] as string | undefined;
    const target = checkTarget(given ?? options.checkUrl, given === undefined ? 'proxyCheckUrl' : 'url');
    const controller = new AbortController();
    const onClose = () => { if (!res.writableFinished) controller.abort(); };
    res.once('close', onClose);
    const result = await checkProxy(proxy, target, { signal: controller.signal });
    res.off('close', onClose);
    const status = result.ok ? 'available' : 'unavailable';
    // A check of a URL of the caller's says nothing of the proxy's health (a target may be down).
    const stored = given === undefined ? proxies.setHealth(id, status) : proxies.get(id);
    const answer: WireProxy & { error?: string } = { ...wireProxy(stored), status };
    if (result.error !== undefined) answer.error = result.error;
    res.json(answer);
  });

  return router;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
  return body as Record<string, unknown>;
}

function checkTarget(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an absolute http: or https: URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an absolute http: or https: URL`);
  return url;
}

