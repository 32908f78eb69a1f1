/**
 * Binds the app to a port, refuses unsafe bindings, answers what Node's HTTP parser rejects with
 * the JSON errors every route gives, and shuts down gracefully.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { debuglog } from 'node:util';
import { httpStatusOf, ReplError } from '../../common/errors.js';
import type { ErrorCode } from '../../common/errors.js';
import { sweepStaleProfiles } from '../chromium/launch-chromium.js';
import { appOf } from './create-app.js';
import { endSocketWithJson } from './middleware.js';
import type { BrowserReplApp } from './create-app.js';
import { positiveMs, serverSettings } from './settings.js';
import type { ServerOptions } from './settings.js';

const debug = debuglog('browser-repl:http');

/**
 * How long an idle keep-alive connection stays open. Longer than the 60 s idle timeout of
 * common load balancers and proxies in front (nginx, cloud load balancers), so that the server
 * is never the side that closes a connection a proxy is about to reuse.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long a graceful shutdown waits for running requests by default (`BROWSER_REPL_DRAIN_SEC`). */
export const DEFAULT_DRAIN_MS = 30_000;

export type { ServerOptions } from './settings.js';

export interface BrowserReplServer extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  readonly app: BrowserReplApp;
  readonly server: Server;
  /** Stops accepting connections, ends every REPL, then resolves. Idempotent. */
  close(): Promise<void>;
  /**
   * Graceful shutdown (SIGTERM in a pod): drains first (no new browsers, `/readyz` 503, while it
   * still answers everything else, so running cells finish and their answers arrive), for at most
   * `graceMs` (default 30 000), then `close()`. Resolves once closed.
   */
  shutdown(options?: { graceMs?: number | undefined }): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startServer(options: ServerOptions = {}): Promise<BrowserReplServer> {
  // Every option and variable is read and checked here, once, before anything starts.
  const settings = serverSettings(options);
  const { host, port, token, headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout } = settings;
  if (!isLoopback(host) && (token === undefined || token === '')) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST',
      `refusing to listen on ${host} without a token: anyone who can reach it could run code on this machine. `
      + 'Set BROWSER_REPL_TOKEN (clients then send Authorization: Bearer <token>), or listen on 127.0.0.1.');
  }
  // What a server killed earlier left in the temp folder (profiles, downloads, workspaces) goes
  // now, not only at the first browser launch (docs/reliability.md).
  await sweepStaleProfiles();
  const app = appOf(settings);
  const server = createServer({
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks the two timeouts on this interval (default 30 s); a tenth keeps them honest.
    connectionsCheckingInterval: Math.min(Math.max(Math.floor(headersTimeout / 10), 50), 30_000),
    // The Host check answers a missing Host as JSON (403, or 400 when it does not apply).
    requireHostHeader: false,
  }, app);
  server.on('clientError', answerClientError);
  server.on('upgrade', app.handleUpgrade);
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    // The port was taken (or the address is not ours): nothing may stay behind.
    await app.destroy();
    throw listenError(error, host, port);
  }
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Shutdown cancels active work rather than waiting for it (docs/lifecycle.md, "Outcomes").
      await app.destroy();
      server.closeAllConnections();
      await closed;
    })();
    return closing;
  };
  const shutdown = async (shutdownOptions: { graceMs?: number | undefined } = {}) => {
    const graceMs = positiveMs(shutdownOptions.graceMs, 'graceMs') ?? DEFAULT_DRAIN_MS;
    if (closing === null) await app.drain({ timeoutMs: graceMs });
    await close();
  };
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    app,
    server,
    close,
    shutdown,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Node's `listen EADDRINUSE: address already in use 127.0.0.1:10001` says nothing of how to pick
 * another port: this says what is in the way and both ways out. `code` stays Node's.
 */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  let message: string;
  if (code === 'EADDRINUSE') {
    message = `cannot listen on ${where}: the port is already in use (another chromium-repl serve, or another program). `
      + 'Stop that one, or choose another port: --port N or PORT=N (the library\'s port option); 0 picks a free one';
  } else if (code === 'EACCES') {
    message = `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Choose another port: --port N or PORT=N`;
  } else if (code === 'EADDRNOTAVAIL') {
    message = `cannot listen on ${where}: the address is not one of this machine's. Choose another: --host ADDRESS or HOST=ADDRESS`;
  } else {
    return error;
  }
  return Object.assign(new Error(message, { cause: error }), { code });
}

/** The registry code of an error of Node's HTTP parser (`clientError`). */
function clientErrorCode(code: string | undefined): ErrorCode {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW': return 'REPL_ERR_HEADERS_TOO_LARGE';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW': return 'REPL_ERR_BODY_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT': return 'REPL_ERR_REQUEST_TIMEOUT';
    default: return 'REPL_ERR_INVALID_REQUEST';
  }
}

function clientErrorMessage(code: ErrorCode, error: NodeJS.ErrnoException): string {
  switch (code) {
    case 'REPL_ERR_HEADERS_TOO_LARGE': return 'the request line and headers are too large (the limit is Node\'s --max-http-header-size, 16 KiB by default)';
    case 'REPL_ERR_BODY_TOO_LARGE': return 'the chunk extensions of the request body are too large';
    case 'REPL_ERR_REQUEST_TIMEOUT': return 'the request was not received in time: send the headers and body promptly';
    // Node's parser names what it found wrong ("Invalid method encountered"); the raw bytes
    // (error.rawPacket, which may hold an Authorization header) are never echoed nor logged.
    default: return `malformed HTTP request: ${error.message} (${error.code ?? 'unknown'})`;
  }
}

/**
 * Answers a request Node's HTTP parser refused (oversized headers, a malformed request line,
 * a client too slow) with a small JSON response, then closes the connection. Nothing is written
 * when the socket is gone, or when a response on it has already begun (a second one would
 * corrupt it): that is Node's own rule for its default answer.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  debug('client error %s', error.code ?? error.message);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  if (inFlight?.req.complete === true) {
    // A request on this connection was received whole and is still being answered; what is
    // malformed is what came after it (bytes past its Content-Length, or after `Connection:
    // close`). That request gets its own answer, then the connection closes: an error written now
    // would take its place. (A request still arriving, a slow body, gets the error: 408 or 400.)
    const close = () => socket.destroy();
    inFlight.once('finish', close);
    inFlight.once('close', close);
    return;
  }
  const code = clientErrorCode(error.code);
  endSocketWithJson(socket, httpStatusOf(code), { message: clientErrorMessage(code, error), code });
  // end() flushes, then closes; a client that never reads must not keep the socket forever.
  socket.once('finish', () => socket.destroy());
  socket.setTimeout(5_000, () => socket.destroy());
}
