// Issue 31 part 4: what a proxy costs a browser (docs/browsers.md#proxies), on loopback, through
// the real server and the Kernel SDK unchanged. Two browsers load the same page and fetch the same
// 4 MiB file: one created with proxy_id (Chromium → its relay on 127.0.0.1 → a local authenticating
// proxy, test/helpers/auth-proxy.mjs → the page server), one without (Chromium → the page server).
// Samples alternate between the two, so drift in the machine's load hits both. The proxy's count
// is checked, so the proxied measure cannot silently go direct.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel from '@onkernel/sdk';
import { startServer } from '../../dist/lib/index.js';
import { startAuthProxy } from '../../test/helpers/auth-proxy.mjs';
import { interleaved } from '../bench-page.mjs';

const PAGE = '<!doctype html><html><head><title>proxy bench</title><link rel="stylesheet" href="/style.css"></head><body><h1>proxied</h1><script src="/app.js"></script></body></html>';
const FILE = Buffer.alloc(4 * 1024 * 1024, 7);

export async function run({ quick }) {
  const loads = quick ? 10 : 60;
  const fetches = quick ? 5 : 30;
  const pages = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path === '/big') return response.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' }).end(FILE);
    if (path === '/style.css') return response.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'no-store' }).end('h1 { color: teal }');
    if (path === '/app.js') return response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end('window.ready = true;');
    return response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(PAGE);
  });
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  const origin = `http://127.0.0.1:${pages.address().port}`;
  const upstream = await startAuthProxy({ username: 'bench', password: 'bench-pass' });
  const dataDir = mkdtempSync(join(tmpdir(), 'chromium-repl-bench-proxies-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, dataDir });
  const kernel = new Kernel({ apiKey: 'unused', baseURL: server.url, maxRetries: 0 });
  const ids = [];
  try {
    const proxy = await kernel.proxies.create({ type: 'custom', protocol: 'http', config: { host: '127.0.0.1', port: upstream.port, username: 'bench', password: 'bench-pass' }, bypass_hosts: ['<-loopback>'] });
    const proxied = (await kernel.browsers.create({ proxy_id: proxy.id, timeout_seconds: 600 })).session_id;
    ids.push(proxied);
    const plain = (await kernel.browsers.create({ timeout_seconds: 600 })).session_id;
    ids.push(plain);
    const cell = async (id, code) => {
      const result = await kernel.post(`/browsers/${id}/repl`, { body: { code, timeout_sec: 60 } });
      if (result.success !== true) throw new Error(`bench cell failed: ${result.error}`);
      return result;
    };
    const load = (id) => cell(id, `{ const nav = await gotoUrl(${JSON.stringify(`${origin}/`)}, { waitUntil: "load" }); if (nav.errorText || !(await js("window.ready"))) throw new Error("not loaded: " + nav.errorText) }`);
    const fetchBig = (id) => cell(id, `{ const size = await js(async () => (await (await fetch("/big")).arrayBuffer()).byteLength); if (size !== ${FILE.length}) throw new Error("got " + size) }`);
    await load(proxied);
    await load(plain);

    const before = upstream.requests.length;
    const [loadProxied, loadPlain] = await interleaved(loads, 3, [() => load(proxied), () => load(plain)]);
    // Three requests per proxied load (page, style, script).
    if (upstream.requests.length - before < (loads + 3) * 3) throw new Error(`the proxy saw ${upstream.requests.length - before} requests, expected ${(loads + 3) * 3}`);
    const [fetchProxied, fetchPlain] = await interleaved(fetches, 2, [() => fetchBig(proxied), () => fetchBig(plain)]);

    return {
      title: 'Proxies (issue 31): a browser behind its relay and an authenticating proxy vs a direct one',
      baselineName: 'the same cell in a browser without proxy_id (direct to the page server), samples alternating',
      rows: [
        { name: '`gotoUrl` of a page with a stylesheet and a script, waitUntil load (a cell over HTTP)', unit: 'p50', ours: loadProxied.p50, baseline: loadPlain.p50 },
        { name: '`gotoUrl` of a page with a stylesheet and a script, waitUntil load (a cell over HTTP)', unit: 'p99', ours: loadProxied.p99, baseline: loadPlain.p99 },
        { name: '`fetch` of 4 MiB in the page (a cell over HTTP)', unit: 'p50', ours: fetchProxied.p50, baseline: fetchPlain.p50 },
      ],
      notes: [
        'Proxied: Chromium → the browser\'s relay (lib/proxies/relay.ts, adds Proxy-Authorization) → a Node authenticating proxy (test/helpers/auth-proxy.mjs) → the page server, all on loopback: two extra hops, both in Node.',
      ],
    };
  } finally {
    for (const id of ids) await kernel.browsers.deleteByID(id).catch(() => undefined);
    await server.close();
    await upstream.close();
    await new Promise((resolve) => pages.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
