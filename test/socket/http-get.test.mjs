// httpGet against a local HTTP server, in a REPL without a browser: text, compression, redirects,
// status errors, the 32 MiB body cap and the deadline that covers the body.
import t from 'tap';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createRepl } from '../../dist/lib/index.js';

const MiB = 1024 * 1024;
const server = createServer((request, response) => {
  const { pathname } = new URL(request.url, 'http://local.invalid');
  switch (pathname) {
    case '/text':
      return response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello – ünïcode');
    case '/echo':
      return response.writeHead(200).end(JSON.stringify({ ua: request.headers['user-agent'], custom: request.headers['x-custom'], encoding: request.headers['accept-encoding'] }));
    case '/gzip':
      return response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('gzipped body'));
    case '/br':
      return response.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli body'));
    case '/redirect':
      return response.writeHead(302, { location: '/text' }).end();
    case '/missing':
      return response.writeHead(404).end('nope');
    case '/big': {
      // 33 MiB in chunks, without content-length.
      response.writeHead(200);
      const chunk = Buffer.alloc(MiB, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 33 && !response.destroyed) {
          sent++;
          if (!response.write(chunk)) return response.once('drain', pump);
        }
        response.end();
      };
      return pump();
    }
    case '/big-declared':
      response.writeHead(200, { 'content-length': String(40 * MiB) });
      return response.write('x');
    case '/bomb':
      // 40 MiB of zeros compress to ~40 KiB: the cap counts decoded bytes.
      return response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(40 * MiB)));
    case '/slow-body':
      response.writeHead(200);
      response.write('start');
      return; // never ends
    default:
      return response.writeHead(500).end();
  }
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const origin = `http://127.0.0.1:${server.address().port}`;
t.teardown(() => new Promise((resolve) => {
  server.closeAllConnections();
  server.close(resolve);
}));

const repl = createRepl({ browser: false });
t.teardown(() => repl.close());
const run = (code, timeoutSec = 30) => repl.run(`{\n${code}\n}`, { timeoutSec });
const written = (result) => result.content.filter((item) => item.channel === 'write').map((item) => item.text);

t.test('bodies, headers, compression and redirects', async (t) => {
  const result = await run(`
    repl.write(JSON.stringify([
      await httpGet("${origin}/text"),
      JSON.parse(await httpGet("${origin}/echo")),
      JSON.parse(await httpGet("${origin}/echo", { "User-Agent": "custom-agent", "x-custom": "1" })),
      await httpGet("${origin}/gzip"),
      await httpGet("${origin}/br"),
      await httpGet("${origin}/redirect"),
      await httpGet(new URL("${origin}/text")),
    ]));
  `);
  t.equal(result.success, true, result.error);
  t.same(JSON.parse(written(result)[0]), [
    'hello – ünïcode',
    { ua: 'Mozilla/5.0', encoding: 'gzip, deflate, br' },
    { ua: 'custom-agent', custom: '1', encoding: 'gzip, deflate, br' },
    'gzipped body',
    'brotli body',
    'hello – ünïcode',
    'hello – ünïcode',
  ]);
});

t.test('errors', async (t) => {
  const cases = [
    [`await httpGet("${origin}/missing")`, `GET ${origin}/missing failed with status 404`],
    [`await httpGet("${origin}/status")`, `GET ${origin}/status failed with status 500`],
    [`await httpGet("${origin}/big")`, `GET ${origin}/big failed: the response body exceeds 33554432 bytes (32 MiB)`],
    [`await httpGet("${origin}/big-declared")`, `GET ${origin}/big-declared failed: the response body exceeds 33554432 bytes (32 MiB)`],
    [`await httpGet("${origin}/bomb")`, `GET ${origin}/bomb failed: the response body exceeds 33554432 bytes (32 MiB)`],
    [`await httpGet("${origin}/slow-body", undefined, 0.3)`, `GET ${origin}/slow-body timed out after 300ms`],
    ['await httpGet("http://127.0.0.1:9/")', /^GET http:\/\/127\.0\.0\.1:9\/ failed: /],
    ['await httpGet("ftp://example.com/")', 'httpGet: url must be an absolute http(s) URL'],
    ['await httpGet("/relative")', 'httpGet: url must be an absolute http(s) URL'],
    [`await httpGet("${origin}/text", { a: 1 })`, 'httpGet: headers must be an object of string values'],
    [`await httpGet("${origin}/text", undefined, -1)`, 'httpGet: timeoutSec must be a non-negative finite number'],
  ];
  for (const [code, expected] of cases) {
    const result = await run(code);
    t.equal(result.success, false, code);
    if (typeof expected === 'string') t.equal(result.error, expected);
    else t.match(result.error, expected);
  }
});

t.test('the timeout is clamped to the cell deadline and covers the body', async (t) => {
  const result = await run(`var before = "kept"; await httpGet("${origin}/slow-body", undefined, 20)`, 2);
  t.equal(result.success, false);
  t.match(result.error, new RegExp(`^GET ${origin}/slow-body timed out after 1\\d{3}ms$`));
  t.notOk(result.repl_terminated, 'failed cleanly before the destructive timeout');
  const after = await run('repl.write(before)');
  t.same(written(after), ['kept']);
  t.equal(after.replId, result.replId);
});
