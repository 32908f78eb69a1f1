/** Binds the app to a port, refuses unsafe bindings, and shuts down gracefully. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ReplError } from '../../common/errors.js';
import { createApp } from './create-app.js';
import type { AppOptions, BrowserReplApp } from './create-app.js';

export interface ServerOptions extends AppOptions {
  /** Default `PORT` or 10001; 0 picks a free port. */
  port?: number;
  /** Default `HOST` or 127.0.0.1. Anything beyond loopback requires a token. */
  host?: string;
}

export interface BrowserReplServer extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  readonly app: BrowserReplApp;
  readonly server: Server;
  /** Stops accepting connections, ends every REPL, then resolves. Idempotent. */
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startServer(options: ServerOptions = {}): Promise<BrowserReplServer> {
  const host = options.host ?? process.env['HOST'] ?? '127.0.0.1';
  const port = options.port ?? (process.env['PORT'] === undefined ? 10001 : Number(process.env['PORT']));
  const token = 'token' in options ? options.token : process.env['BROWSER_REPL_TOKEN'];
  if (!isLoopback(host) && (token === undefined || token === '')) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST',
      `refusing to listen on ${host} without a token: anyone who can reach it could run code on this machine. `
      + 'Set BROWSER_REPL_TOKEN (clients then send Authorization: Bearer <token>), or listen on 127.0.0.1.');
  }
  const app = createApp({ ...options, token });
  const server = app.listen(port, host);
  server.on('upgrade', app.handleUpgrade);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Contract §1.2: shutdown cancels active work rather than waiting for it.
      await app.destroy();
      server.closeAllConnections();
      await closed;
    })();
    return closing;
  };
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    app,
    server,
    close,
    [Symbol.asyncDispose]: close,
  };
}
