// A small site for the real-world flow tests (issue 9), on 127.0.0.1 port 0: the flows-*.html
// fixtures, /echo (answers GET and multipart POST forms with what it received, after a short
// delay like a real backend), and /download/<name>?bytes=N (an attachment of N deterministic bytes).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/** Byte `i` of every download: a pattern a test can check without storing the file. */
export const downloadByte = (index) => (index * 31 + 7) & 0xff;

export function downloadBody(bytes) {
  const body = Buffer.allocUnsafe(bytes);
  for (let index = 0; index < bytes; index++) body[index] = downloadByte(index);
  return body;
}

export async function startFlowSite() {
  const requests = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://flow.invalid');
    requests.push(`${request.method} ${url.pathname}`);
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString('utf8');
    if (url.pathname === '/echo') {
      // The answer comes late, so a stale read of the old document would show.
      setTimeout(() => {
        const fields = request.method === 'GET' ? url.search : (/name="q"\r\n\r\n([^\r]*)/.exec(body)?.[1] ?? '');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(`<!doctype html><title>echo</title><p id="echo">${request.method} ${fields}</p>`);
      }, 40);
      return;
    }
    const download = /^\/download\/([\w.-]+)$/.exec(url.pathname);
    if (download !== null) {
      const bytes = Number(url.searchParams.get('bytes') ?? 1024);
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${download[1]}"`,
        'content-length': String(bytes),
      }).end(downloadBody(bytes));
      return;
    }
    const name = url.pathname.slice(1);
    if (!/^flows-[\w.-]+\.html$/.test(name) && name !== 'named-confirm.html') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      const page = await readFile(new URL(name, FIXTURES));
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    url: (path) => `${origin}/${path.replace(/^\//, '')}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
