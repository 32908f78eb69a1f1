// Issue 27: every URL the server returns keeps the path it is mounted at
// (`parent.use('/browser', createApp())`): cdp_ws_url, a streamed cell's result_url, the 202 of a
// running cell; X-Forwarded-Proto/-Host/-Prefix shape them only when trustProxy trusts the
// sender. Real HTTP on loopback, no browser (test/browser/mounted-app.test.mjs connects
// Playwright to the mounted cdp_ws_url).
import t from 'tap';
import { createServer } from 'node:http';
import { once } from 'node:events';
import express from 'express';
import { createApp } from '../../dist/lib/index.js';
import { openStream } from '../helpers/sse.mjs';

/** A parent app with ours mounted at `mount`; `appOptions` go to createApp. */
async function mounted(t, mount, appOptions = {}) {
  const app = createApp({ token: undefined, primaryBrowser: { browser: false }, ...appOptions });
  const parent = express();
  parent.get('/', (_req, res) => res.send('the parent app'));
  parent.use(mount, app);
  const server = createServer(parent);
  server.on('upgrade', app.handleUpgrade);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.destroy();
  });
  return { app, origin: `http://127.0.0.1:${server.address().port}` };
}

const get = async (url, headers = {}) => {
  const response = await fetch(url, { headers });
  return { status: response.status, json: await response.json() };
};

/** A URL without its query: `cdp_ws_url` always carries `?jwt=` (docs/security.md), the path is what these checks are about. */
const withoutQuery = (url) => url.split('?')[0];

t.test('mounted at /browser: cdp_ws_url, result_url and the running answer keep the mount path', async (t) => {
  const { origin } = await mounted(t, '/browser');
  const host = new URL(origin).host;
  const browser = await get(`${origin}/browser/browsers/default`);
  t.equal(browser.status, 200);
  t.equal(withoutQuery(browser.json.cdp_ws_url), `ws://${host}/browser/browsers/default/cdp`);
  t.match(browser.json.cdp_ws_url, /\?jwt=[\w-]+$/, 'cdp_ws_url carries its capability (docs/curl.md: the SDK reads base_url\'s from it)');
  t.ok(browser.json.browser_live_view_url.startsWith(`http://${host}/browser/browsers/default/live?jwt=lv1.0.w.`), 'browser_live_view_url keeps the mount path');
  const livePage = await fetch(browser.json.browser_live_view_url);
  t.equal(livePage.status, 200, 'and the mounted page opens');
  await livePage.body?.cancel();

  const stream = await openStream(origin, '/browser/repl', { code: 'repl.write("started"); await new Promise((r) => setTimeout(r, 300))' });
  const cell = await stream.next();
  t.match(cell.data.result_url, new RegExp(`^http://${host}/browser/repl/results/${cell.data.cell_id}$`));
  const running = await get(cell.data.result_url);
  t.equal(running.status, 202);
  t.same(running.json, { status: 'running', cell_id: cell.data.cell_id, result_url: cell.data.result_url });
  await stream.rest();
  const done = await get(cell.data.result_url);
  t.match(done.json, { success: true });

  const perBrowser = await openStream(origin, '/browser/browsers/default/repl', { code: '1' });
  const perBrowserCell = await perBrowser.next();
  t.equal(perBrowserCell.data.result_url, `http://${host}/browser/browsers/default/repl/results/${perBrowserCell.data.cell_id}`, 'below the same browser');
  await perBrowser.rest();
});

t.test('mounted at a pattern (/:tenant/api): the path the request came through', async (t) => {
  const { origin } = await mounted(t, '/:tenant/api');
  const browser = await get(`${origin}/acme/api/browsers/default`);
  t.equal(withoutQuery(browser.json.cdp_ws_url), `ws://${new URL(origin).host}/acme/api/browsers/default/cdp`);
});

t.test('X-Forwarded-* are ignored unless trustProxy trusts the sender', async (t) => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'repl.example.com', 'x-forwarded-prefix': '/edge' };
  const plain = await mounted(t, '/browser');
  t.equal(withoutQuery((await get(`${plain.origin}/browser/browsers/default`, forwarded)).json.cdp_ws_url),
    `ws://${new URL(plain.origin).host}/browser/browsers/default/cdp`, 'untrusted: the request as it arrived');

  const trusted = await mounted(t, '/browser', { trustProxy: 'loopback' });
  t.equal(withoutQuery((await get(`${trusted.origin}/browser/browsers/default`, forwarded)).json.cdp_ws_url),
    'wss://repl.example.com/edge/browser/browsers/default/cdp', 'a trusted proxy: its scheme, host and prefix');
  t.equal(withoutQuery((await get(`${trusted.origin}/browser/browsers/default`, { 'x-forwarded-prefix': '//evil.example/x', 'x-forwarded-host': 'a b' })).json.cdp_ws_url),
    `ws://${new URL(trusted.origin).host}/browser/browsers/default/cdp`, 'a prefix or host that is no plain path or host is not used');

  const elsewhere = await mounted(t, '/browser', { trustProxy: '10.0.0.0/8' });
  t.equal(withoutQuery((await get(`${elsewhere.origin}/browser/browsers/default`, forwarded)).json.cdp_ws_url),
    `ws://${new URL(elsewhere.origin).host}/browser/browsers/default/cdp`, 'a proxy of another subnet is not trusted');
});

t.test('metrics name the route without the mount path', async (t) => {
  const { origin } = await mounted(t, '/browser', { metricsPublic: true });
  await fetch(`${origin}/browser/browsers/default/repls`);
  const text = await (await fetch(`${origin}/browser/metrics`)).text();
  t.match(text, /route="\/browsers\/\{id_or_name\}\/repls"/);
  t.notMatch(text, /route="\/browser\//);
});

t.test('without trustProxy a mounted app follows its parent\'s trust proxy setting', async (t) => {
  const app = createApp({ token: undefined, primaryBrowser: { browser: false } });
  const parent = express();
  parent.set('trust proxy', 'loopback');
  parent.use('/browser', app);
  const server = createServer(parent);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.destroy();
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  t.equal(withoutQuery((await get(`${origin}/browser/browsers/default`, { 'x-forwarded-host': 'front.example:8443', 'x-forwarded-proto': 'https' })).json.cdp_ws_url),
    'wss://front.example:8443/browser/browsers/default/cdp');
});
