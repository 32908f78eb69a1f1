// Issue 27: the server mounted inside an existing Express app (`app.use('/browser', createApp())`),
// as the user embedded it: the cdp_ws_url it returns carries the mount path, the parent
// hands only the upgrades below that path to the app, and Playwright connects through it and
// drives the browser; a parent's own upgrade paths are not taken. Real Chromium, real sockets.
import t from 'tap';
import { createServer } from 'node:http';
import { once } from 'node:events';
import express from 'express';
import { chromium } from 'playwright-core';
import { WebSocket } from 'ws';
import { createApp } from '../../dist/lib/index.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'mounted-secret';
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());

const app = createApp({ token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } } });
const parent = express();
parent.get('/', (_req, res) => res.send('the parent app'));
parent.use('/browser', app);
const server = createServer(parent);
// The parent routes upgrades by path, as an app with WebSocket routes of its own does.
server.on('upgrade', (request, socket, head) => {
  if (request.url?.startsWith('/browser/')) app.handleUpgrade(request, socket, head);
  else socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const origin = `http://127.0.0.1:${server.address().port}`;
t.teardown(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.destroy();
});
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

t.test('a browser of POST /browser/browsers: Playwright connects with its cdp_ws_url', async (t) => {
  const created = await fetch(`${origin}/browser/browsers`, { method: 'POST', headers: auth, body: '{}' });
  t.equal(created.status, 200);
  const browser = await created.json();
  t.teardown(() => fetch(`${origin}/browser/browsers/${browser.session_id}`, { method: 'DELETE', headers: auth }));
  const url = new URL(browser.cdp_ws_url);
  t.equal(url.pathname, `/browser/browsers/${browser.session_id}/cdp`, 'the mount path is in the URL');
  t.ok(url.searchParams.get('jwt'), 'with its capability');

  const connected = await chromium.connectOverCDP(browser.cdp_ws_url);
  t.teardown(() => connected.close());
  const page = connected.contexts()[0].pages()[0] ?? await connected.contexts()[0].newPage();
  await page.goto(fixtures.url('basic.html'));
  t.equal(await page.title(), 'Basic fixture', 'Playwright drives the mounted server\'s browser');

  const cell = await fetch(`${origin}/browser/browsers/${browser.session_id}/repl`, {
    method: 'POST', headers: auth, body: JSON.stringify({ code: 'repl.write((await listTabs()).map((tab) => tab.title).join())' }),
  });
  t.match((await cell.json()).content[0].text, /Basic fixture/, 'the REPL of that browser sees the page Playwright opened');
});

t.test('the default browser through /browser/browsers/default', async (t) => {
  const answer = await fetch(`${origin}/browser/browsers/default`, { headers: auth });
  const { cdp_ws_url: cdpUrl } = await answer.json();
  t.match(cdpUrl, new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/browser/browsers/default/cdp\\?jwt=`));
  const connected = await chromium.connectOverCDP(cdpUrl);
  t.ok(connected.isConnected());
  await connected.close();
});

t.test('the unmounted path is no route of the parent: the upgrade is refused there', async (t) => {
  const answer = await fetch(`${origin}/browser/browsers/default`, { headers: auth });
  const bare = new URL((await answer.json()).cdp_ws_url);
  bare.pathname = bare.pathname.replace(/^\/browser/, '');
  const refused = await new Promise((resolve) => {
    const socket = new WebSocket(bare.href);
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
    socket.on('error', () => resolve('error'));
  });
  t.equal(refused, 404);
});
