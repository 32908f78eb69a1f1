// Proxies (docs/browsers.md#proxies) through @onkernel/sdk unchanged, against a real local
// authenticating proxy (test/helpers/auth-proxy.mjs: 407 without the right credentials, counts what
// it lets through) and a real headless Chromium: every client.proxies method with its effect; a
// browser created with proxy_id loads a fixture page through the proxy (counted), a bypassed host
// goes direct (not counted), a WebSocket goes through CONNECT, PATCH proxy_id switches live; check
// says available / unavailable (wrong credentials, dead port); bad input names the field; the
// password is stored 0600 and never answered; the relay closes with its browser.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { startAuthProxy } from '../helpers/auth-proxy.mjs';

const TOKEN = 'test-token-proxies';
const PASSWORD = 'proxy-secret-5x';
const dataDir = mkdtempSync(join(tmpdir(), 'chromium-repl-test-proxies-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
// A second fixture server, the bypassed one (by port: both are on 127.0.0.1).
const direct = await startFixtureServer();
t.teardown(() => direct.close());
const upstream = await startAuthProxy({ username: 'agent', password: PASSWORD });
t.teardown(() => upstream.close());
const deadPort = await freePort();
const api = await apiServer(t, {
  token: TOKEN, dataDir, maxBrowsers: 2, primaryBrowser: { browser: { cdpEndpoint: null } },
  // The check's default target: a loopback fixture, never the internet.
  proxyCheckUrl: fixtures.url('basic.html'),
});
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });
const config = (password = PASSWORD, port = upstream.port) => ({ host: '127.0.0.1', port, username: 'agent', password });
// `<-loopback>`: Chromium (and so the relay) bypasses loopback hosts unless told not to; the fixtures are on 127.0.0.1.
const bypass = ['<-loopback>', `127.0.0.1:${direct.port}`];

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const counted = (needle) => upstream.requests.filter((line) => line.includes(needle)).length;

t.test('client.proxies: create, retrieve, update, list, check, delete, each with its effect', async (t) => {
  // Every method of the SDK's resource is called below; a method added to the SDK shows here.
  t.same(Object.getOwnPropertyNames(Object.getPrototypeOf(kernel.proxies)).filter((name) => name !== 'constructor').sort(),
    ['check', 'create', 'delete', 'list', 'retrieve', 'update'], 'the methods of client.proxies this test covers');
  const created = await kernel.proxies.create({ type: 'custom', name: 'office', protocol: 'http', config: config(), bypass_hosts: bypass });
  t.match(created, { id: /^[a-z0-9]{20,}$/, type: 'custom', name: 'office', protocol: 'http', bypass_hosts: bypass, config: { host: '127.0.0.1', port: upstream.port, username: 'agent', has_password: true } });
  t.notOk(JSON.stringify(created).includes(PASSWORD), 'the answer never carries the password');
  const file = join(dataDir, 'proxies.json');
  t.equal(statSync(file).mode & 0o777, 0o600, 'the store is 0600');
  t.ok(readFileSync(file, 'utf8').includes(PASSWORD), 'the password is stored (the relay sends it)');

  const retrieved = await kernel.proxies.retrieve(created.id);
  t.same(retrieved, created, 'retrieve answers what create did');
  const renamed = await kernel.proxies.update(created.id, { name: '  office-2  ' });
  t.equal(renamed.name, 'office-2', 'update renames (trimmed)');
  t.equal((await kernel.proxies.retrieve(created.id)).name, 'office-2', 'and the new name is kept');

  const wrong = await kernel.proxies.create({ type: 'custom', name: 'wrong', protocol: 'http', config: config('not-the-password') });
  const dead = await kernel.proxies.create({ type: 'custom', name: 'dead', protocol: 'http', config: { host: '127.0.0.1', port: deadPort } });
  t.equal(dead.config.has_password, false, 'no password: has_password false');
  const paged = [];
  for await (const proxy of kernel.proxies.list({ limit: 1 })) paged.push(proxy.id);
  t.same(paged, [created.id, wrong.id, dead.id], 'list pages through every proxy, oldest first');
  t.same((await kernel.proxies.list({ name: 'WRONG' })).getPaginatedItems().map((proxy) => proxy.id), [wrong.id], 'name filters exactly, case-insensitively');
  t.same((await kernel.proxies.list({ query: 'office' })).getPaginatedItems().map((proxy) => proxy.id), [created.id], 'query matches a part of the name');

  const before = counted(fixtures.url('basic.html'));
  const good = await kernel.proxies.check(created.id);
  t.match(good, { id: created.id, status: 'available' }, 'check: the proxy works');
  t.equal(counted(fixtures.url('basic.html')), before + 1, 'the check went through the proxy to the check target');
  t.ok(Number.isFinite(Date.parse((await kernel.proxies.retrieve(created.id)).last_checked)), 'last_checked is recorded');
  t.equal((await kernel.proxies.retrieve(created.id)).status, 'available', 'and the status');
  const refusedBefore = upstream.refused.length;
  const badCredentials = await kernel.proxies.check(wrong.id);
  t.match(badCredentials, { status: 'unavailable', error: /407/ }, `wrong credentials: unavailable (${badCredentials.error})`);
  t.equal(upstream.refused.length, refusedBefore + 1, 'the proxy refused them');
  const unreachable = await kernel.proxies.check(dead.id);
  t.match(unreachable, { status: 'unavailable', error: /could not be reached/ }, `a dead port: unavailable (${unreachable.error})`);
  // A URL of the caller's: the answer says, the stored health does not change (the hosted product's rule).
  const ofUrl = await kernel.proxies.check(wrong.id, { url: fixtures.url('__echo') });
  t.equal(ofUrl.status, 'unavailable');
  const downUrl = await kernel.proxies.check(created.id, { url: `http://127.0.0.1:${deadPort}/` });
  t.equal(downUrl.status, 'unavailable', 'a target the proxy cannot reach: unavailable');
  t.equal((await kernel.proxies.retrieve(created.id)).status, 'available', 'a check of a given url does not change the stored status');

  await kernel.proxies.delete(dead.id);
  t.equal((await rejection(kernel.proxies.retrieve(dead.id))).status, 404, 'delete: retrieve answers 404');
  t.notOk((await kernel.proxies.list()).getPaginatedItems().some((proxy) => proxy.id === dead.id), 'and list no longer has it');
  t.equal((await rejection(kernel.proxies.delete(dead.id))).status, 404, 'a second delete is 404');
  t.notOk(readFileSync(file, 'utf8').includes(dead.id), 'and the store forgot it');
});

t.test('bad input: 4xx naming the field', async (t) => {
  const call = (method, path, body) => api.call(method, path, body, { headers: { authorization: `Bearer ${TOKEN}` } });
  for (const [body, field] of [
    [{ type: 'datacenter' }, /custom/], [{ type: 'residential', config: { country: 'US' } }, /proxy network/], [{ type: 'nope' }, /type/],
    [{ type: 'custom' }, /config/], [{ type: 'custom', config: { host: '127.0.0.1' } }, /config\.port/],
    [{ type: 'custom', config: { host: '127.0.0.1', port: 70000 } }, /config\.port/], [{ type: 'custom', config: { host: 'a b', port: 1 } }, /config\.host/],
    [{ type: 'custom', config: { host: 'h', port: 1, username: 'u', password: 'abc' } }, /config\.password/],
    [{ type: 'custom', config: { host: 'h', port: 1 }, bypass_hosts: ['ok.example', 'a b'] }, /bypass_hosts\[1\]/],
    [{ type: 'custom', config: { host: 'h', port: 1 }, protocol: 'socks5' }, /protocol/], [{ type: 'custom', config: { host: 'h', port: 1 }, extra: 1 }, /extra/],
  ]) {
    const answer = await call('POST', '/proxies', body);
    t.equal(answer.status, 400, `${JSON.stringify(body)} → 400`);
    t.match(answer.json?.message, field, `names it: ${answer.json?.message}`);
  }
  const hosted = await rejection(kernel.proxies.create({ type: 'mobile' }));
  t.match(hosted, { status: 400, error: { code: 'REPL_ERR_PROXY_TYPE_UNSUPPORTED' } }, 'the SDK sees the hosted-only type refused');
  const one = await kernel.proxies.create({ type: 'custom', protocol: 'http', config: { host: 'proxy.invalid', port: 3128 } });
  t.teardown(() => kernel.proxies.delete(one.id).catch(() => undefined));
  t.match((await call('PATCH', `/proxies/${one.id}`, { name: '   ' })).json?.message, /name/, 'a blank name is refused, named');
  t.match((await call('POST', `/proxies/${one.id}/check`, { url: 'ftp://x' })).json?.message, /url/, 'a check url that is not http(s) is refused, named');
  const missing = await call('GET', '/proxies/nosuch');
  t.match(missing, { status: 404, json: { code: 'REPL_ERR_PROXY_NOT_FOUND' } });
  const unknown = await rejection(kernel.browsers.create({ proxy_id: 'nosuch' }));
  t.equal(unknown.status, 404, 'an unknown proxy_id on create is 404');
  t.match(unknown.message, /proxy_id/, 'naming proxy_id');
  const ownBrowser = await call('PATCH', '/browsers/default', { proxy_id: one.id });
  t.equal(ownBrowser.status, 400, 'the default browser has no relay to switch');
  t.match(ownBrowser.json?.message, /proxy_id/);
});

t.test('a browser with proxy_id: through the proxy, bypass direct, live switch, relay closed with it', async (t) => {
  const proxy = await kernel.proxies.create({ type: 'custom', name: 'browsing', protocol: 'http', config: config(), bypass_hosts: bypass });
  // With `<-loopback>` too: without it the relay would bypass the loopback fixture (Chromium's rule).
  const wrong = await kernel.proxies.create({ type: 'custom', name: 'browsing-wrong', protocol: 'http', config: config('wrong-password'), bypass_hosts: ['<-loopback>'] });
  const browser = await kernel.browsers.create({ proxy_id: proxy.id, timeout_seconds: 120 });
  t.teardown(() => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined));
  t.equal(browser.proxy_id, proxy.id, 'the browser says its proxy_id');
  t.equal((await kernel.browsers.retrieve(browser.session_id)).proxy_id, proxy.id, 'and so does retrieve');
  t.same((await kernel.browsers.list({ query: proxy.id })).getPaginatedItems().map((listed) => listed.session_id), [browser.session_id], 'list finds browsers by proxy id (the SDK\'s query)');
  const cell = async (code) => {
    const answer = await kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code, timeout_sec: 30 } });
    return answer.content?.filter((item) => item.type === 'text').map((item) => item.text).join('');
  };
  // The page's marker once it loaded, else why not (a network error, the relay's 502).
  const load = (url) => cell(`try { const nav = await gotoUrl(${JSON.stringify(url)}, { waitUntil: "load" }); repl.write(nav.errorText ? "failed: " + nav.errorText : String(await js("window.fixtureMarker"))) } catch (error) { repl.write("failed: " + error.message) }`);

  const page = `${fixtures.url('basic.html')}?through=1`;
  t.equal(await load(page), 'basic-loaded', 'the page loaded (checked by a cell)');
  t.equal(counted(page), 1, 'and the proxy counted it: the relay answered the authentication');
  const directPage = `${direct.url('basic.html')}?direct=1`;
  t.equal(await load(directPage), 'basic-loaded', 'a bypassed host loads');
  t.equal(counted(`127.0.0.1:${direct.port}`), 0, 'without going through the proxy');
  t.ok(direct.requests.includes('/basic.html'), 'it reached its server directly');
  // Chromium tunnels WebSockets through CONNECT: the relay's tunnel, with the credentials.
  await cell(`await js(${JSON.stringify(`new Promise((resolve) => { const socket = new WebSocket("ws://127.0.0.1:${fixtures.port}/__ws"); socket.onerror = socket.onclose = () => resolve(1); })`)})`);
  t.ok(counted(`CONNECT 127.0.0.1:${fixtures.port}`) >= 1, 'a WebSocket went through a CONNECT tunnel of the proxy');

  // Live: the next connections go the new way, the browser is not restarted.
  t.equal((await kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code: 'var kept = "still-here"' } })).success, true);
  const switched = await kernel.browsers.update(browser.session_id, { proxy_id: wrong.id });
  t.equal(switched.proxy_id, wrong.id, 'PATCH proxy_id switches the proxy');
  const refusedBefore = upstream.refused.length;
  const refusedPage = `${fixtures.url('basic.html')}?wrong=1`;
  t.not(await load(refusedPage), 'basic-loaded', 'with the wrong credentials the page does not load');
  t.ok(upstream.refused.length > refusedBefore, 'because the proxy refused them');
  t.equal(counted(refusedPage), 0);
  const removed = await kernel.browsers.update(browser.session_id, { proxy_id: '' });
  t.equal(removed.proxy_id, undefined, 'proxy_id "" removes the proxy');
  const plainPage = `${fixtures.url('basic.html')}?plain=1`;
  t.equal(await load(plainPage), 'basic-loaded', 'and the browser goes direct');
  t.equal(counted(plainPage), 0, 'not through the proxy');
  t.equal(await cell('repl.write(kept)'), 'still-here', 'the same browser all along (its REPL kept its binding)');
  await kernel.browsers.update(browser.session_id, { proxy_id: proxy.id });
  const backPage = `${fixtures.url('basic.html')}?back=1`;
  t.equal(await load(backPage), 'basic-loaded');
  t.equal(counted(backPage), 1, 'switched back, through the proxy again');

  // The relay's port is on Chromium's command line; after the delete nothing listens there.
  const ports = relayPorts();
  t.ok(ports.length > 0, 'Chromium was told its relay');
  await kernel.browsers.deleteByID(browser.session_id);
  for (const port of ports) t.ok(await eventuallyRefused(port), `the relay on ${port} closed with its browser`);
});

/** Ports of `--proxy-server=http://127.0.0.1:N` of this server's Chromiums (their parent is this process). */
function relayPorts() {
  const ports = new Set();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const parent = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const match = /--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(cmdline);
      if (match !== null && isOurs(parent)) ports.add(Number(match[1]));
    } catch { /* exited meanwhile */ }
  }
  return [...ports];
}

/** Whether `pid` is this process or one of its descendants' ancestors up to it (setpriv, a shell). */
function isOurs(pid) {
  for (let hop = 0; hop < 4 && pid > 1; hop++) {
    if (pid === process.pid) return true;
    try {
      pid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    } catch {
      return false;
    }
  }
  return pid === process.pid;
}

async function eventuallyRefused(port) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const refused = await new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', () => resolve(true));
    });
    if (refused) return true;
    await sleep(50);
  }
  return false;
}
