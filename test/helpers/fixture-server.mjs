// Serves test/fixtures/ on 127.0.0.1 (port 0) for browser tests. No test reaches the internet.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Starts the server. Only plain file names directly under `root` are served.
 * @returns {Promise<{ origin: string, port: number, url: (name: string) => string, requests: string[], close: () => Promise<void> }>}
 */
export async function startFixtureServer({ root = new URL('../fixtures/', import.meta.url) } = {}) {
  const requests = [];
  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://fixture.invalid');
    requests.push(pathname);
    // Routes for curl tests (test/browser/curl.test.mjs): the request reflected as JSON, fixed
    // bytes, and an answer that never comes.
    if (pathname === '/__echo') {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-echo': 'yes' })
        .end(JSON.stringify({ method: request.method, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') }));
      return;
    }
    if (pathname === '/__bytes') {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' }).end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
      return;
    }
    if (pathname === '/__hang') return;
    // A cookie login for the profile tests (test/browser/profiles.test.mjs): the form of
    // profile-login.html posts here, the answer sets a persistent session cookie, and /__account
    // says who is signed in.
    if (pathname === '/__login' && request.method === 'POST') {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      const user = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('user') ?? '';
      response.writeHead(303, { location: '/__account', 'set-cookie': `session=${encodeURIComponent(user)}; Max-Age=86400; Path=/; HttpOnly; SameSite=Lax`, 'cache-control': 'no-store' }).end();
      return;
    }
    if (pathname === '/__account') {
      const session = /(?:^|;\s*)session=([^;]*)/.exec(request.headers.cookie ?? '')?.[1];
      const text = session === undefined || session === '' ? 'signed out' : `signed in as ${decodeURIComponent(session)}`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(`<!doctype html><title>Account</title><p id="who">${text.replace(/[<&]/g, '')}</p>`);
      return;
    }
    if (pathname === '/__big') {
      // One byte more than the JSON answer of curl carries (10 MiB), in chunks.
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (let i = 0; i < 10; i++) if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      response.end('b');
      return;
    }
    if (pathname === '/__redirect') {
      const status = new URL(request.url ?? '/', 'http://fixture.invalid').searchParams.get('status') === '307' ? 307 : 302;
      response.writeHead(status, { location: '/__echo', 'cache-control': 'no-store' }).end();
      return;
    }
    const name = decodeURIComponent(pathname.slice(1));
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      const body = await readFile(new URL(name, root));
      response.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    url: (name) => `${origin}/${name}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
