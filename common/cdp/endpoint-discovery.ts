/**
 * Turns a configured DevTools endpoint into the browser WebSocket URL. Runs on every (re)connect,
 * because `/devtools/browser/<id>` changes whenever Chromium restarts.
 */

import { debuglog } from 'node:util';

import { ReplError } from '../errors.js';

const debug = debuglog('browser-repl:cdp-transport');

/** Options of {@link resolveWebSocketUrl}. */
export interface ResolveWebSocketUrlOptions {
  /** Bound for the `/json/version` request. Default 10 000 ms. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Resolves `endpoint` (`ws://`, `wss://`, `http://` or `https://`) to a WebSocket URL:
 * - a URL with a path (`ws://host:port/devtools/browser/<id>`) is used as is (http → ws);
 * - a URL without one (`http://127.0.0.1:9222`) is looked up through `GET /json/version`
 *   (`webSocketDebuggerUrl`), https when the endpoint is `wss:`/`https:`.
 *
 * A failed lookup falls back to the endpoint itself, as a ws URL: some DevTools proxies route any
 * WebSocket path to the browser but serve no `/json/version`.
 *
 * Throws `REPL_ERR_CDP_CONNECT_FAILED` only for a string that is not such a URL.
 */
export async function resolveWebSocketUrl(endpoint: string, options: ResolveWebSocketUrlOptions = {}): Promise<string> {
  const url = parseEndpoint(endpoint);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const asWebSocket = new URL(url.href);
  asWebSocket.protocol = secure ? 'wss:' : 'ws:';
  if (url.pathname !== '/' && url.pathname !== '') return asWebSocket.href;

  const versionUrl = new URL('/json/version', url.href);
  versionUrl.protocol = secure ? 'https:' : 'http:';
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  try {
    const response = await fetch(versionUrl, { signal, redirect: 'error' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { webSocketDebuggerUrl?: unknown };
    if (typeof body.webSocketDebuggerUrl !== 'string' || body.webSocketDebuggerUrl === '') {
      throw new Error('the answer has no webSocketDebuggerUrl');
    }
    return body.webSocketDebuggerUrl;
  } catch (error) {
    if (options.signal?.aborted === true) {
      throw new ReplError('REPL_ERR_ABORTED', `Resolving ${endpoint} was aborted`, { cause: options.signal.reason });
    }
    debug('GET %s failed (%s); using %s as is', versionUrl.href, (error as Error).message, asWebSocket.href);
    return asWebSocket.href;
  }
}

/** Parses a DevTools endpoint; throws `REPL_ERR_CDP_CONNECT_FAILED` naming what is accepted. */
export function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalidEndpoint(endpoint);
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) throw invalidEndpoint(endpoint);
  return url;
}

function invalidEndpoint(endpoint: string): ReplError {
  return new ReplError(
    'REPL_ERR_CDP_CONNECT_FAILED',
    `Invalid DevTools endpoint ${JSON.stringify(endpoint)}: expected ws://host:port/devtools/browser/<id> or http://host:port (check CDP_ENDPOINT)`,
  );
}
