/**
 * The seam between the CDP connection and the wire. `CdpConnection` only ever sees a `Transport`,
 * so unit tests drive it with an in-memory fake and production uses `WebSocketTransport` (`ws`).
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';
import type WebSocket from 'ws';

import { ReplError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { resolveWebSocketUrl } from './endpoint-discovery.js';

const debug = debuglog('browser-repl:cdp-transport');

/** Why a transport closed. `code`/`reason` are the WebSocket close code and reason when known. */
export interface TransportCloseInfo {
  readonly code: number;
  readonly reason: string;
  readonly error?: Error | undefined;
}

/**
 * A message pipe to a DevTools endpoint. Implementations call `onclose` exactly once, whether the
 * peer went away or `close()` was called, and never call `onmessage` after it.
 */
export interface Transport {
  /** Sends one text frame. Throws when the transport is not open (the frame was not written). */
  send(message: string): void;
  /** Starts closing; `onclose` follows. Idempotent. */
  close(): void;
  onmessage?: ((message: string) => void) | undefined;
  onclose?: ((info: TransportCloseInfo) => void) | undefined;
}

/** Opens a transport to a DevTools endpoint (`ws://…` or `http://host:port`). */
export type ConnectTransport = (endpoint: string, options: { timeoutMs: number }) => Promise<Transport>;

/** Options of {@link WebSocketTransport.connect}. */
export interface WebSocketConnectOptions {
  /** Time allowed for the TCP connect plus the WebSocket handshake. Default 10 000 ms. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Default connect timeout (docs/architecture.md, "Limits of the CDP layer"). */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Largest accepted frame. Full-page screenshots are base64 in JSON: an 8 MiB PNG is ~11 MiB of
 * text, and `Accessibility.getFullAXTree` of a large page can exceed that; 256 MiB leaves room
 * without letting a broken peer exhaust memory.
 */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
/** A polite close frame first; a peer that does not answer within this is cut off. */
const CLOSE_GRACE_MS = 1_000;
/** `ws` (and the http/https/tls/net modules it requires) loads on the first connect, not at import: a REPL worker that never touches the browser never pays for it (issue 8). */
let loadWs: Promise<typeof WebSocket> | undefined;

/** `Transport` over a `ws` WebSocket. Create with {@link WebSocketTransport.connect}. */
export class WebSocketTransport implements Transport {
  onmessage: ((message: string) => void) | undefined;
  onclose: ((info: TransportCloseInfo) => void) | undefined;
  readonly #ws: WebSocket;
  readonly #url: string;
  #closedEmitted = false;
  #lastError: Error | undefined;

  /** Wraps an open socket (an outgoing one from `connect`, or one `listenLoopback` accepted). */
  private constructor(ws: WebSocket, url: string) {
    this.#ws = ws;
    // Printed in debug lines: a proxied or remote endpoint may carry a credential in its query.
    this.#url = redactUrl(url);
    ws.on('message', (data, isBinary) => {
      // CDP only sends text frames; anything binary is not ours to interpret.
      if (isBinary || this.#closedEmitted) return;
      this.onmessage?.(rawDataToString(data));
    });
    ws.on('error', (error) => {
      this.#lastError = error;
      debug('socket error on %s: %s', this.#url, error.message);
    });
    ws.on('close', (code, reason) => this.#emitClose(code, reason.toString('utf8')));
  }

  /** A transport over a socket a server accepted (see {@link listenLoopback}). */
  static accepted(ws: WebSocket, label: string): WebSocketTransport {
    return new WebSocketTransport(ws, label);
  }

  /**
   * Opens a WebSocket to `url` (a `ws://` or `wss://` DevTools URL with its path). Rejects with
   * `REPL_ERR_CDP_CONNECT_FAILED` on refusal, a non-101 answer, timeout or abort.
   */
  static connect(url: string, options: WebSocketConnectOptions = {}): Promise<WebSocketTransport> {
    const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS;
    const { signal } = options;
    loadWs ??= import('ws').then((module) => module.default);
    return loadWs.then((WebSocket) => new Promise<WebSocketTransport>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ReplError('REPL_ERR_ABORTED', `Connecting to ${url} was aborted`, { cause: signal.reason }));
        return;
      }
      const ws = new WebSocket(url, {
        // CDP frames are mostly small JSON; compression costs CPU on big screenshots for no gain on loopback.
        perMessageDeflate: false,
        maxPayload: MAX_PAYLOAD_BYTES,
        handshakeTimeout: timeoutMs,
        followRedirects: false,
      });
      let settled = false;
      const finish = (error: Error | undefined): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        ws.off('open', onOpen);
        ws.off('error', onError);
        ws.off('close', onEarlyClose);
        if (error === undefined) {
          resolve(new WebSocketTransport(ws, url));
          return;
        }
        // Swallow the late 'error' a terminated handshake may still emit.
        ws.on('error', () => {});
        ws.terminate();
        reject(error);
      };
      const fail = (reason: string, cause?: unknown): void =>
        finish(new ReplError('REPL_ERR_CDP_CONNECT_FAILED', `Could not open the DevTools WebSocket ${url}: ${reason}`, cause === undefined ? {} : { cause }));
      const onOpen = (): void => finish(undefined);
      const onError = (error: Error): void => fail(error.message, error);
      const onEarlyClose = (code: number): void => fail(`the socket closed during the handshake (code ${code})`);
      const onAbort = (): void =>
        finish(new ReplError('REPL_ERR_ABORTED', `Connecting to ${url} was aborted`, { cause: signal?.reason }));
      const timer = setTimeout(() => fail(`timed out after ${timeoutMs}ms`), timeoutMs);
      timer.unref();
      ws.once('open', onOpen);
      ws.once('error', onError);
      ws.once('close', onEarlyClose);
      signal?.addEventListener('abort', onAbort, { once: true });
    }));
  }

  send(message: string): void {
    if (this.#ws.readyState !== this.#ws.OPEN) {
      throw new Error(`WebSocket is not open (readyState ${this.#ws.readyState})`);
    }
    this.#ws.send(message);
  }

  close(): void {
    if (this.#ws.readyState === this.#ws.CLOSED) return;
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.close(1000);
    // A peer that never answers the close frame (frozen or gone) must not hold the socket open.
    const timer = setTimeout(() => this.#ws.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    this.#ws.once('close', () => clearTimeout(timer));
  }

  #emitClose(code: number, reason: string): void {
    if (this.#closedEmitted) return;
    this.#closedEmitted = true;
    debug('closed %s (code %d%s)', this.#url, code, reason === '' ? '' : `, ${reason}`);
    const onclose = this.onclose;
    this.onmessage = undefined;
    this.onclose = undefined;
    onclose?.({ code, reason, error: this.#lastError });
  }
}

/** A loopback DevTools-like endpoint that hands each accepted client socket to `onClient`. */
export interface LoopbackEndpoint {
  /** `ws://127.0.0.1:<port>/devtools/browser/<token>`: what `connectOverCDP` is given. */
  readonly url: string;
  /** Stops accepting and closes every client socket. Idempotent. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (port 0) for WebSocket clients on one unguessable path; every accepted
 * socket becomes a {@link Transport}, exactly like an outgoing one. Used by the scoped endpoint
 * (`scoped-endpoint.ts`), which relays a Playwright client to the browser. Kept here so the one
 * module that imports `ws` stays this one.
 */
export async function listenLoopback(onClient: (transport: Transport) => void): Promise<LoopbackEndpoint> {
  const { WebSocketServer } = await import('ws');
  const { randomUUID } = await import('node:crypto');
  const path = `/devtools/browser/${randomUUID()}`;
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    path,
    perMessageDeflate: false,
    maxPayload: MAX_PAYLOAD_BYTES,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `ws://127.0.0.1:${port}${path}`;
  server.on('connection', (ws) => onClient(WebSocketTransport.accepted(ws, `client of ${url}`)));
  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

/**
 * Accepts WebSocket upgrades that an HTTP server hands over (its `upgrade` event), each as a
 * {@link Transport}: the server's own port serves the authenticated CDP proxy (`cdp_ws_url`), so
 * it needs no port of its own. The caller decides (auth, routing) before calling `accept`.
 */
export interface UpgradeAcceptor {
  /**
   * Completes the handshake on `socket`; resolves with the client's transport, or rejects
   * (`REPL_ERR_INVALID_REQUEST`) when the handshake is refused or the socket closes first.
   */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<Transport>;
  /** Terminates every accepted socket. Idempotent. */
  close(): void;
}

export async function createUpgradeAcceptor(): Promise<UpgradeAcceptor> {
  const { WebSocketServer } = await import('ws');
  const server = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_PAYLOAD_BYTES });
  return {
    accept(request, socket, head) {
      return new Promise<Transport>((resolve, reject) => {
        // `ws` answers an invalid handshake (no Sec-WebSocket-Key, a wrong version) with a 400 and
        // destroys the socket without calling back: without this the promise would never settle.
        const onClose = () => reject(new ReplError('REPL_ERR_INVALID_REQUEST', 'the WebSocket handshake was invalid or the client went away'));
        socket.once('close', onClose);
        server.handleUpgrade(request, socket, head, (ws) => {
          socket.off('close', onClose);
          resolve(WebSocketTransport.accepted(ws, `client ${request.socket.remoteAddress ?? '?'} of ${request.url ?? '?'}`));
        });
      });
    },
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

/** Default {@link ConnectTransport}: `/json/version` discovery, then a `ws` WebSocket. */
export async function connectWebSocket(endpoint: string, options: { timeoutMs: number }): Promise<Transport> {
  const started = Date.now();
  const url = await resolveWebSocketUrl(endpoint, { timeoutMs: options.timeoutMs });
  return WebSocketTransport.connect(url, { timeoutMs: Math.max(1, options.timeoutMs - (Date.now() - started)) });
}

function rawDataToString(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
