/**
 * `POST /proxies/{id}/check`: the server itself asks a target through the proxy, with its
 * credentials, and says whether an answer came back. An `http:` target is asked in absolute form
 * (`GET http://target/ HTTP/1.1` to the proxy), an `https:` one through a `CONNECT` tunnel and TLS.
 * The proxy is "available" when the target answered; a 407 (credentials refused), a proxy's
 * 502/503/504 (it could not reach the target), a refused connection or a timeout is "unavailable",
 * and `error` says which.
 */
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';

import { proxyAuthorization } from './config.js';
import type { ProxyUpstream } from './config.js';
import { readHead } from './relay.js';

export interface ProxyCheckResult {
  ok: boolean;
  /** Why not, when not. */
  error?: string;
}

/** Answers a proxy gives when it could not reach the target itself. */
const PROXY_FAILURES = new Set([502, 503, 504]);
export const CHECK_TIMEOUT_MS = 10_000;

export async function checkProxy(upstream: ProxyUpstream, target: URL, options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {}): Promise<ProxyCheckResult> {
  const sockets: Duplex[] = [];
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    for (const socket of sockets) socket.destroy(new Error('the check was cancelled'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return await Promise.race([attempt(upstream, target, sockets), timeout]);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    for (const socket of sockets) socket.destroy();
  }
}

async function attempt(upstream: ProxyUpstream, target: URL, sockets: Duplex[]): Promise<ProxyCheckResult> {
  const socket = await open(upstream, sockets);
  const authorization = proxyAuthorization(upstream);
  const auth = authorization === undefined ? [] : [`Proxy-Authorization: ${authorization}`];
  const secure = target.protocol === 'https:';
  const port = target.port === '' ? (secure ? 443 : 80) : Number(target.port);
  if (!secure) {
    socket.write([`GET ${target.href} HTTP/1.1`, `Host: ${target.host}`, ...auth, 'Connection: close', '', ''].join('\r\n'));
    return verdict((await readHead(socket)).status);
  }
  const authority = `${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}:${port}`;
  socket.write([`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, ...auth, '', ''].join('\r\n'));
  const { status } = await readHead(socket);
  if (status !== 200) return status === 407 || PROXY_FAILURES.has(status) ? verdict(status) : { ok: false, error: `the proxy refused the tunnel (it answered CONNECT with ${status})` };
  const servername = /^[\d.]+$/.test(target.hostname) || target.hostname.includes(':') ? undefined : target.hostname;
  const tls = tlsConnect({ socket, servername });
  sockets.push(tls);
  await new Promise<void>((resolve, reject) => {
    tls.once('secureConnect', () => resolve());
    tls.once('error', (error: NodeJS.ErrnoException) => reject(new Error(`the tunnel opened, but TLS with the target failed: ${error.code ?? error.message}`)));
  });
  tls.write([`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, 'Connection: close', '', ''].join('\r\n'));
  const answer = await readHead(tls);
  // Through the tunnel, every status is the target's own: it answered.
  return answer.status > 0 ? { ok: true } : { ok: false, error: 'no answer from the target' };
}

function verdict(status: number): ProxyCheckResult {
  if (status === 407) return { ok: false, error: 'the proxy refused the credentials (407 Proxy Authentication Required)' };
  if (PROXY_FAILURES.has(status)) return { ok: false, error: `the proxy could not reach the target (it answered ${status})` };
  return { ok: true };
}

function open(upstream: ProxyUpstream, sockets: Duplex[]): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const secure = upstream.protocol === 'https';
    const socket = secure
      ? tlsConnect({ host: upstream.host, port: upstream.port, servername: /^[\d.]+$/.test(upstream.host) || upstream.host.includes(':') ? undefined : upstream.host })
      : netConnect({ host: upstream.host, port: upstream.port });
    sockets.push(socket);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.off('error', onError);
      // Later errors surface through readHead.
      socket.on('error', () => undefined);
      resolve(socket);
    });
    const onError = (error: Error) => reject(new Error(`the proxy ${upstream.host}:${upstream.port} could not be reached: ${error.message}`));
    socket.once('error', onError);
  });
}
