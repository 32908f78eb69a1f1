/**
 * A browser's own forwarding proxy on 127.0.0.1 (docs/browsers.md#proxies). Chromium talks to it
 * (`--proxy-server=http://127.0.0.1:<port>`), and it forwards to the browser's upstream proxy with
 * `Proxy-Authorization` added, or straight to the target for a bypassed host or when the browser
 * has no proxy. So the server answers the proxy's authentication, for every target of the browser
 * (pages, workers, service workers, downloads), and Chromium never sees a 407 it could prompt for:
 * an upstream refusal becomes a 502 saying so.
 *
 * Two kinds of requests arrive: `CONNECT host:port` (HTTPS, WebSockets: a tunnel) and plain HTTP
 * in absolute form (`GET http://host/path`). The upstream can be switched while the browser runs
 * (`setUpstream`): every open connection is cut, so the next request goes the new way.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';

import { BypassList, proxyAuthorization } from './config.js';
import type { ProxyUpstream } from './config.js';

const debug = debuglog('browser-repl:proxy-relay');

/** Most time to reach the upstream (or a bypassed target) and get its answer to CONNECT. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Headers of one hop only (the connection-specific ones of HTTP/1.1), plus the client's own proxy credentials. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The relay's route: an upstream and its bypass rules, or direct for everything. */
interface Route {
  upstream: ProxyUpstream | null;
  bypass: BypassList;
  authorization: string | undefined;
}

export class ProxyRelay {
  readonly #server: Server;
  readonly #sockets = new Set<Duplex>();
  #route: Route;
  #port = 0;
  #closed = false;

  constructor(upstream: ProxyUpstream | null) {
    this.#route = routeOf(upstream);
    this.#server = createServer();
    this.#server.on('connection', (socket: Socket) => this.#track(socket));
    this.#server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#forward(req, res));
    this.#server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#tunnel(req, socket, head));
    this.#server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  }

  /** Listens on 127.0.0.1, a free port; resolves with it. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    return this.#port;
  }

  get port(): number {
    return this.#port;
  }

  /** The upstream now (null: direct). */
  get upstream(): ProxyUpstream | null {
    return this.#route.upstream;
  }

  /** Switches the upstream (null: direct); open connections are cut so that none keeps the old route. */
  setUpstream(upstream: ProxyUpstream | null): void {
    this.#route = routeOf(upstream);
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Stops listening and cuts every connection, both sides. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await closed;
  }

  #track(socket: Duplex): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    // An error on either side of a tunnel ends it; it must not become an uncaught exception.
    socket.on('error', (error: Error) => debug('socket: %s', error.message));
  }

  /** Plain HTTP: `GET http://host/path`, to the upstream as is (absolute form) or to the target. */
  #forward(req: IncomingMessage, res: ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('this is a forwarding proxy: send absolute http:// URLs or CONNECT');
      return;
    }
    const route = this.#route;
    const port = Number(target.port === '' ? 80 : target.port);
    const direct = route.upstream === null || route.bypass.bypasses(target.hostname, port);
    const headers: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
    if (!direct && route.authorization !== undefined) headers['proxy-authorization'] = route.authorization;
    const upstream = route.upstream;
    const options = direct || upstream === null
      ? { host: bareHost(target.hostname), port, path: `${target.pathname}${target.search}`, method: req.method, headers }
      : { host: upstream.host, port: upstream.port, path: target.href, method: req.method, headers, servername: upstreamServername(upstream.host) };
    const send = !direct && upstream?.protocol === 'https' ? httpsRequest : httpRequest;
    const outgoing = send({ ...options, agent: false, timeout: CONNECT_TIMEOUT_MS });
    outgoing.on('socket', (socket: Socket) => this.#track(socket));
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('response', (answer: IncomingMessage) => {
      if (!direct && answer.statusCode === 407) {
        answer.resume();
        refuse(res, 502, 'the upstream proxy refused the credentials of this browser\'s proxy (407): check its username and password');
        return;
      }
      const back: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(key)) back[key] = value;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, back);
      // A target or upstream that hangs up mid-answer ends this answer, never the server.
      answer.on('error', () => res.destroy());
      answer.pipe(res);
    });
    outgoing.on('error', (error: Error) => {
      debug('forward %s: %s', target.host, error.message);
      if (!res.headersSent) refuse(res, 502, `${direct ? 'the target' : 'the upstream proxy'} could not be reached: ${error.message}`);
      else res.destroy();
    });
    req.on('error', () => outgoing.destroy());
    res.on('error', () => outgoing.destroy());
    req.pipe(outgoing);
  }

  /** CONNECT host:port: a tunnel to the target, through the upstream unless bypassed. */
  #tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const authority = req.url ?? '';
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
    if (match === null) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const hostname = bareHost(match[1]!);
    const port = Number(match[2]);
    const route = this.#route;
    const upstream = route.upstream;
    if (upstream === null || route.bypass.bypasses(hostname, port)) {
      const target = netConnect({ host: hostname, port });
      this.#track(target);
      target.setTimeout(CONNECT_TIMEOUT_MS, () => target.destroy(new Error('timed out')));
      target.once('connect', () => {
        target.setTimeout(0);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        splice(client, target, head);
      });
      target.once('error', (error: Error) => failTunnel(client, `the target could not be reached: ${error.message}`));
      return;
    }
    const socket = upstream.protocol === 'https'
      ? tlsConnect({ host: upstream.host, port: upstream.port, servername: upstreamServername(upstream.host) })
      : netConnect({ host: upstream.host, port: upstream.port });
    this.#track(socket);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
    socket.once(upstream.protocol === 'https' ? 'secureConnect' : 'connect', () => {
      const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
      if (route.authorization !== undefined) lines.push(`Proxy-Authorization: ${route.authorization}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    readHead(socket).then(({ status, rest }) => {
      socket.setTimeout(0);
      if (status !== 200) {
        socket.destroy();
        failTunnel(client, status === 407
          ? 'the upstream proxy refused the credentials of this browser\'s proxy (407): check its username and password'
          : `the upstream proxy answered CONNECT with ${status}`);
        return;
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length > 0) client.write(rest);
      splice(client, socket, head);
    }, (error: unknown) => {
      socket.destroy();
      failTunnel(client, `the upstream proxy could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

function routeOf(upstream: ProxyUpstream | null): Route {
  return {
    upstream: upstream === null ? null : { ...upstream, bypassHosts: [...upstream.bypassHosts] },
    bypass: new BypassList(upstream?.bypassHosts ?? []),
    authorization: upstream === null ? undefined : proxyAuthorization(upstream),
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${message}\n`);
}

function failTunnel(client: Duplex, message: string): void {
  debug('tunnel: %s', message);
  const body = `${message}\n`;
  if (!client.destroyed) client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Both ways, each end closing the other. */
function splice(client: Duplex, target: Duplex, head: Buffer): void {
  if (head.length > 0) target.write(head);
  client.pipe(target);
  target.pipe(client);
  client.once('close', () => target.destroy());
  target.once('close', () => client.destroy());
}

/**
 * The status of an HTTP answer's head read off a raw socket (the answer to CONNECT), and what came
 * after the head. Rejects when the socket ends or fails first.
 */
export function readHead(socket: Duplex, limit = 16 * 1024): Promise<{ status: number; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > limit) {
          cleanup();
          reject(new Error('the answer\'s head is too large'));
        }
        return;
      }
      cleanup();
      // No more 'data' until the tunnel is spliced: the rest goes with it.
      socket.pause();
      const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (status === null) {
        reject(new Error(`not an HTTP answer: ${JSON.stringify(statusLine.slice(0, 80))}`));
        return;
      }
      resolve({ status: Number(status[1]), rest: buffered.subarray(end + 4) });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the connection closed before an answer'));
    };
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
  });
}

function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** TLS SNI takes a name, never an IP address. */
function upstreamServername(host: string): string | undefined {
  return /^[\d.]+$/.test(host) || host.includes(':') ? undefined : host;
}
