/**
 * An HTTP request made by the browser itself (docs/curl.md): with its cookies, its proxy, its TLS
 * settings and its certificate store, as if a person had opened the URL. The request is a
 * navigation of a temporary background tab of the default context, paused by the `Fetch` domain
 * twice: at the request, to give it the caller's method, headers and body, and at the response,
 * to read status, headers and body before anything renders. The tab is closed afterwards.
 *
 * Why a navigation: the network stack then attaches every cookie of the target site, SameSite
 * ones included, as for a URL typed in the address bar; a `fetch()` from a page would need a page
 * of the target's origin (CORS) and sends no SameSite=Strict cookie across sites.
 * `Network.loadNetworkResource` only knows GET.
 */
import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpConnection, CdpEvent } from '../../common/cdp/cdp-connection.js';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import { ReplError } from '../../common/errors.js';
import type { BrowserManager } from './browser-manager.js';

export const CURL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type CurlMethod = (typeof CURL_METHODS)[number];

/** Statuses whose `Location` the browser follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Bytes read from the body's stream per `IO.read`. */
const READ_CHUNK_BYTES = 256 * 1024;

export interface CurlRequest {
  url: string;
  method: CurlMethod;
  /** Merged over the browser's own request headers (a name given here replaces the browser's). */
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /** Fires on the caller's timeout or when its client went away. */
  signal: AbortSignal;
}

/** The answer's head, then its body as a stream of chunks; `close()` ends the tab (idempotent). */
export interface CurlResponse {
  status: number;
  /** In the order the server sent them; a name may repeat (Set-Cookie). */
  headers: Array<[string, string]>;
  body(): AsyncGenerator<Buffer>;
  close(): Promise<void>;
}

interface Paused {
  requestId: string;
  request: { url: string; headers: Record<string, string> };
  resourceType: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: Array<{ name: string; value: string }>;
}

/** Sends `request` through the browser of `chromium`; resolves at the response's head. */
export async function browserCurl(chromium: BrowserManager, request: CurlRequest): Promise<CurlResponse> {
  const link = new BrowserLink({ endpointProvider: () => chromium.endpoint() });
  let targetId: string | undefined;
  let connection: CdpConnection | undefined;
  const close = async () => {
    if (targetId !== undefined && connection !== undefined && !connection.closed) {
      await connection.send('Target.closeTarget', { targetId }).catch(() => undefined);
    }
    targetId = undefined;
    await link.close();
  };
  const onAbort = () => void close();
  request.signal.addEventListener('abort', onAbort, { once: true });
  try {
    connection = await link.connection();
    ({ targetId } = await connection.send('Target.createTarget', { url: 'about:blank', background: true }));
    const session = await connection.attachToTarget(targetId);
    const head = await navigateAndPause(session, request);
    const { requestId } = head;
    const headers = (head.responseHeaders ?? []).map(({ name, value }): [string, string] => [name, value]);
    const status = head.responseStatusCode ?? 0;
    return {
      status,
      headers,
      close: async () => {
        request.signal.removeEventListener('abort', onAbort);
        await close();
      },
      body: () => readBody(session, requestId, request),
    };
  } catch (error) {
    request.signal.removeEventListener('abort', onAbort);
    await close();
    if (request.signal.aborted) throw abortError(request.signal);
    throw error;
  }
}

/** Navigates the tab and resolves at the document's response (the caller's method, headers and body given at its request). */
async function navigateAndPause(session: CdpSession, request: CurlRequest): Promise<Paused> {
  return await new Promise<Paused>((resolve, reject) => {
    let first = true;
    const done = (error: Error | undefined, paused?: Paused) => {
      off();
      offClose();
      request.signal.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve(paused!);
    };
    const onAbort = () => done(abortError(request.signal));
    request.signal.addEventListener('abort', onAbort, { once: true });
    const offClose = session.onClose(() => done(new ReplError('REPL_ERR_CURL_FAILED', 'the browser closed the request\'s tab before the response came')));
    const off = session.on('Fetch.requestPaused', (event: CdpEvent) => {
      const paused = event.params as Paused;
      if (paused.resourceType !== 'Document') {
        void session.send('Fetch.continueRequest', { requestId: paused.requestId }).catch(() => undefined);
        return;
      }
      if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) {
        if (paused.responseErrorReason !== undefined) {
          done(new ReplError('REPL_ERR_CURL_FAILED', `the browser could not load ${request.url}: ${paused.responseErrorReason}`));
          void session.send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' }).catch(() => undefined);
          return;
        }
        const location = paused.responseHeaders?.some(({ name }) => name.toLowerCase() === 'location') === true;
        if (REDIRECTS.has(paused.responseStatusCode ?? 0) && location) {
          // Followed as the browser follows a navigation's redirect (the next request is paused again).
          void session.send('Fetch.continueRequest', { requestId: paused.requestId }).catch((error: unknown) => done(curlFailed(request.url, error)));
          return;
        }
        done(undefined, paused);
        return;
      }
      if (!first) {
        // A redirect the browser follows: as it would (a 303 turns a POST into a GET).
        void session.send('Fetch.continueRequest', { requestId: paused.requestId }).catch(() => undefined);
        return;
      }
      first = false;
      const headers = { ...paused.request.headers };
      for (const [name, value] of Object.entries(request.headers)) {
        for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
        headers[name] = value;
      }
      void session.send('Fetch.continueRequest', {
        requestId: paused.requestId,
        method: request.method,
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        ...(request.body === undefined ? {} : { postData: request.body.toString('base64') }),
      }).catch((error: unknown) => done(curlFailed(request.url, error)));
    });
    (async () => {
      await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }, { urlPattern: '*', requestStage: 'Response' }] });
      const { errorText } = await session.send('Page.navigate', { url: request.url });
      // An error of the paused navigation itself is ours (we end it after its response): only a
      // failure before any response counts.
      if (errorText !== undefined && errorText !== '' && first) done(new ReplError('REPL_ERR_CURL_FAILED', `the browser could not load ${request.url}: ${errorText}`));
    })().catch((error: unknown) => done(curlFailed(request.url, error)));
  });
}

/** The paused response's body, chunk by chunk; the response is then failed so the tab renders nothing. */
async function* readBody(session: CdpSession, requestId: string, request: CurlRequest): AsyncGenerator<Buffer> {
  try {
    if (request.method === 'HEAD') return;
    let stream: string;
    try {
      ({ stream } = await session.send('Fetch.takeResponseBodyAsStream', { requestId }));
    } catch {
      // A response without a body to stream (204, 304): read what there is, if anything.
      const body = await session.send('Fetch.getResponseBody', { requestId }).catch(() => undefined);
      if (body !== undefined && body.body !== '') yield Buffer.from(body.body, body.base64Encoded ? 'base64' : 'utf8');
      return;
    }
    for (;;) {
      if (request.signal.aborted) throw abortError(request.signal);
      const chunk = await session.send('IO.read', { handle: stream, size: READ_CHUNK_BYTES });
      if (chunk.data !== '') yield Buffer.from(chunk.data, chunk.base64Encoded === true ? 'base64' : 'utf8');
      if (chunk.eof) break;
    }
    await session.send('IO.close', { handle: stream }).catch(() => undefined);
  } catch (error) {
    if (request.signal.aborted) throw abortError(request.signal);
    throw curlFailed(request.url, error);
  } finally {
    void session.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new ReplError('REPL_ERR_ABORTED', 'the request was aborted');
}

function curlFailed(url: string, error: unknown): Error {
  if (error instanceof ReplError && error.code === 'REPL_ERR_CURL_FAILED') return error;
  return new ReplError('REPL_ERR_CURL_FAILED', `the browser could not load ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
