/**
 * HTTP requests made by the browser (docs/curl.md), in the paths and shapes of the Kernel SDK:
 * `POST /browsers/{id}/curl` (`client.browsers.curl`) answers `{status, headers, body,
 * duration_ms}`; `{base_url}/curl/raw?url=…` (`client.browsers.fetch`) answers the target's
 * response itself, its body streamed. The engine is lib/chromium/browser-curl.ts; the capability
 * that admits these routes without the bearer token is lib/http/middleware.ts's
 * `browserCapabilityAuth`.
 */
import express from 'express';
import type { NextFunction, Request, Response, Router } from 'express';
import { ReplError } from '../../../common/errors.js';
import type { components } from '../../client/openapi-types.js';
import { browserCurl, CURL_METHODS } from '../../chromium/browser-curl.js';
import type { CurlMethod, CurlRequest, CurlResponse } from '../../chromium/browser-curl.js';
import { browserPart, jsonBody, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

type CurlBody = components['schemas']['BrowserCurlRequest'];
type WireCurlResponse = components['schemas']['BrowserCurlResponse'];

/** Size limit of the JSON request (its `body` string included), and of a raw request's body. */
const REQUEST_BODY_BYTES = 10 * 1024 * 1024;
/** Largest response body the JSON answer carries (docs/curl.md#limits); `curl/raw` streams without one. */
export const CURL_RESPONSE_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 300_000;

/**
 * Request headers of a raw call that are not passed on: the connection's own, the credential
 * for this server, and the client's identity (the browser sends its own User-Agent and cookies).
 */
const RAW_REQUEST_DROPPED = /^(?:host|connection|keep-alive|content-length|transfer-encoding|te|trailer|upgrade|authorization|proxy-.*|cookie|user-agent|accept-encoding|x-stainless-.*|x-forwarded-.*|forwarded|sec-.*|origin|referer|expect)$/i;
/** Response headers of the target that would be wrong here: the body comes decoded and re-framed. */
const RAW_RESPONSE_DROPPED = /^(?:content-encoding|content-length|transfer-encoding|connection|keep-alive|trailer|upgrade|content-security-policy)$/i;

export function curlRoutes(browserOf: BrowserOf): Router {
  const router = express.Router();

  router.post('/curl', jsonBody(REQUEST_BODY_BYTES), async (req: Request, res: Response) => {
    requireBody(req.body);
    validateBody('BrowserCurlRequest', req.body);
    const body = req.body as CurlBody;
    const url = checkedUrl(body.url, 'url');
    const method = body.method ?? 'GET';
    checkHeaders(body.headers ?? {});
    if (body.body !== undefined && (method === 'GET' || method === 'HEAD')) throw new ReplError('REPL_ERR_INVALID_REQUEST', `body: a ${method} request carries none; use POST, PUT or PATCH`);
    const started = Date.now();
    const answer = await run(req, res, browserOf, {
      url, method, headers: body.headers ?? {},
      body: body.body === undefined ? undefined : Buffer.from(body.body, 'utf8'),
    }, body.timeout_ms, async (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body()) {
        size += chunk.length;
        if (size > CURL_RESPONSE_BODY_BYTES) {
          throw new ReplError('REPL_ERR_CURL_TOO_LARGE', `the response body of ${url} exceeds ${CURL_RESPONSE_BODY_BYTES} bytes; stream it with client.browsers.fetch (GET {base_url}/curl/raw)`);
        }
        chunks.push(chunk);
      }
      const bytes = Buffer.concat(chunks);
      const headers: Record<string, string[]> = {};
      for (const [name, value] of response.headers) (headers[name] ??= []).push(value);
      const wire: WireCurlResponse = {
        status: response.status,
        headers,
        body: bytes.toString(body.response_encoding === 'base64' ? 'base64' : 'utf8'),
        duration_ms: Date.now() - started,
      };
      return wire;
    });
    res.json(answer);
  });

  const rawBody = express.raw({ type: () => true, limit: REQUEST_BODY_BYTES });
  const readRaw = (req: Request, res: Response, next: NextFunction) => {
    rawBody(req, res, (error?: unknown) => {
      if (error === undefined || error === null) { next(); return; }
      if ((error as { type?: unknown }).type === 'entity.too.large') next(new ReplError('REPL_ERR_BODY_TOO_LARGE', `request body exceeds ${REQUEST_BODY_BYTES} bytes`));
      else next(new ReplError('REPL_ERR_INVALID_REQUEST', `invalid request body: ${error instanceof Error ? error.message : String(error)}`));
    });
  };
  const raw = async (req: Request, res: Response) => {
    const url = checkedUrl(req.query['url'], 'url');
    const method = req.method.toUpperCase();
    if (!(CURL_METHODS as readonly string[]).includes(method)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `method: ${method} is not one of ${CURL_METHODS.join(', ')}`);
    const timeout = req.query['timeout_ms'];
    let timeoutMs: number | undefined;
    if (timeout !== undefined) {
      timeoutMs = typeof timeout === 'string' && /^\d{1,9}$/.test(timeout) ? Number(timeout) : Number.NaN;
      if (!(timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `timeout_ms must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || RAW_REQUEST_DROPPED.test(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined;
    await run(req, res, browserOf, { url, method: method as CurlMethod, headers, body }, timeoutMs, async (response) => {
      res.status(response.status);
      for (const [name, value] of response.headers) if (!RAW_RESPONSE_DROPPED.test(name)) res.append(name, value);
      // The target's page answered from this server's origin: it must run nothing there.
      res.setHeader('content-security-policy', 'sandbox');
      for await (const chunk of response.body()) {
        if (!res.write(chunk)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
        if (res.destroyed) break;
      }
      res.end();
    }).catch((error: unknown) => {
      // Once the head is out, an error can only cut the body short.
      if (res.headersSent) { res.destroy(); return; }
      throw error;
    });
  };
  // The methods of the SDK's `browsers.fetch` (a HEAD is Express's GET without the body).
  router.route('/curl/raw').get(readRaw, raw).post(readRaw, raw).put(readRaw, raw).patch(readRaw, raw).delete(readRaw, raw);

  return router;
}

/**
 * Runs one request with its timeout (`REPL_ERR_CURL_TIMEOUT`) and the client's departure, and
 * always closes the request's tab.
 */
async function run<T>(req: Request, res: Response, browserOf: BrowserOf, request: Omit<CurlRequest, 'signal'>, timeoutMs: number | undefined,
  consume: (response: CurlResponse) => Promise<T>): Promise<T> {
  const browser = browserOf(req, res);
  const chromium = browserPart(browser.chromium, 'curl requests');
  const limit = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = AbortSignal.timeout(limit);
  const signal = AbortSignal.any([timer, requestSignal(req, res)]);
  const timedOut = () => timer.aborted ? new ReplError('REPL_ERR_CURL_TIMEOUT', `${request.url} gave no complete answer within timeout_ms (${limit} ms)`) : undefined;
  let response: CurlResponse;
  try {
    response = await browserCurl(chromium, { ...request, signal });
  } catch (error) {
    throw timedOut() ?? error;
  }
  try {
    return await consume(response);
  } catch (error) {
    throw timedOut() ?? error;
  } finally {
    await response.close();
  }
}

/** A header name is an RFC 9110 token; a value has no line break or NUL (the browser would refuse it later, as a 502). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;

function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `headers: ${JSON.stringify(name.slice(0, 100))} is not a header name`);
    if (!HEADER_VALUE.test(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `headers.${name}: a value must not contain CR, LF or NUL`);
  }
}

/** An absolute http(s) URL, or a 400 naming `field`. */
function checkedUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} is required: an absolute http or https URL`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an absolute http or https URL, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an http or https URL, not ${parsed.protocol}`);
  return parsed.href;
}
