// The Kernel-compatible /browsers API against real headless Chromiums, driven by the official
// @onkernel/sdk pointed at our server with baseURL: create → list (paged) → retrieve → execute →
// repl → delete; isolation between browsers; inactivity reaping; cdp_ws_url with and without the
// token; limits, the pool, and the fields we refuse. Deleted and reaped browsers leave nothing:
// no Chromium process (any process whose command line names the profile), no profile folder, no
// worker thread.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { chromium } from 'playwright-core';
import { liveExecutorThreads } from '../../dist/lib/executor/executor-worker.js';
import { liveWorkerThreads } from '../../dist/lib/repl/repl-worker.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-browsers';
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 4 });
const auth = { authorization: `Bearer ${TOKEN}` };
// No automatic retries: a test must see each answer as it is.
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });

/** Pids of every process whose command line names `profile` (Chromium and all its children). */
function processesUsing(profile) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(profile)) pids.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return pids;
}

/** Waits (≤ 20 s, for a loaded CI machine) until `check()` holds; Chromium's children exit a moment after the browser. */
async function eventually(check) {
  const until = Date.now() + 20_000;
  while (!check() && Date.now() < until) await sleep(50);
  return check();
}

function sessionOf(id) {
  return api.server.app.browsers.get(id);
}

/** Waits until no browser of the server is alive or still ending, so thread counts start from rest. */
async function atRest(t) {
  t.ok(await eventually(() => api.server.app.browsers.liveBrowsers === 0), 'no browser is alive or ending before counting');
}

async function assertGone(t, footprint, label) {
  t.ok(await eventually(() => processesUsing(footprint.profile).length === 0), `${label}: no process of its Chromium is left`);
  t.ok(await eventually(() => !existsSync(footprint.profile)), `${label}: its profile folder is gone`);
  t.ok(await eventually(() => liveWorkerThreads() === footprint.workersBefore), `${label}: its REPL workers exited`);
  t.ok(await eventually(() => liveExecutorThreads() === footprint.executorsBefore), `${label}: its executor workers exited`);
  t.throws(() => sessionOf(footprint.id), { code: 'REPL_ERR_NOT_FOUND' }, `${label}: the server forgot it`);
}

t.test('the SDK drives create → list (paged) → retrieve → execute → repl → delete', async (t) => {
  await atRest(t);
  const workersBefore = liveWorkerThreads();
  const executorsBefore = liveExecutorThreads();
  const first = await kernel.browsers.create({ name: 'sdk-first', timeout_seconds: 120, viewport: { width: 900, height: 700 }, tags: { team: 'search' } });
  const second = await kernel.browsers.create({ start_url: fixtures.url('basic.html') });
  t.match(first, {
    session_id: /^[a-z0-9]{24}$/, headless: true, stealth: false, timeout_seconds: 120, name: 'sdk-first',
    viewport: { width: 900, height: 700 }, tags: { team: 'search' }, webdriver_ws_url: '',
  }, 'the browser object has the SDK\'s fields');
  t.equal(first.base_url, `${api.url}/browsers/${first.session_id}`, 'base_url is this server\'s prefix of the browser (docs/curl.md)');
  t.match(first.cdp_ws_url, new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/browsers/${first.session_id}/cdp\\?jwt=`), 'cdp_ws_url is on our port and carries the capability');
  t.equal(second.timeout_seconds, 60, 'timeout_seconds defaults to 60');

  // Paged one at a time: the SDK follows X-Has-More / X-Next-Offset.
  const seen = [];
  for await (const browser of kernel.browsers.list({ limit: 1 })) seen.push(browser.session_id);
  t.same(seen, [first.session_id, second.session_id], 'the pager walks both pages, oldest first');
  const page = await api.call('GET', '/browsers?limit=1', undefined, { headers: auth });
  t.equal(page.headers['x-has-more'], 'true');
  t.equal(page.headers['x-next-offset'], '1');
  const last = await api.call('GET', '/browsers?offset=1&limit=1', undefined, { headers: auth });
  t.same([last.headers['x-has-more'], last.headers['x-next-offset']], ['false', '0'], 'the last page says so');

  t.equal((await kernel.browsers.retrieve('sdk-first')).session_id, first.session_id, 'retrieve by name');
  const renamed = await kernel.browsers.update(first.session_id, { name: 'sdk-renamed', tags: { team: 'ads' } });
  t.match(renamed, { name: 'sdk-renamed', tags: { team: 'ads' } }, 'PATCH renames and retags');

  const executed = await kernel.browsers.playwright.execute(first.session_id, {
    code: `await page.goto(${JSON.stringify(fixtures.url('basic.html'))}); return { title: await page.title(), size: await page.evaluate(() => ({ width: innerWidth, height: innerHeight })) }`,
  });
  t.match(executed, { success: true, result: { title: 'Basic fixture', size: { width: 900, height: 700 } } }, 'playwright.execute runs in that browser, at its viewport');
  const cell = await kernel.post(`/browsers/${first.session_id}/repl`, { body: { code: 'var here = await js("document.title"); repl.write(here)' } });
  t.match(cell, { success: true, content: [{ type: 'text', channel: 'write', text: 'Basic fixture' }] }, 'POST /browsers/{id}/repl drives the same browser');

  // start_url is not awaited by create (as in the hosted product): poll for it.
  const started = await kernel.post(`/browsers/${second.session_id}/repl`, {
    body: { code: 'for (let i = 0; i < 200 && (await js("location.pathname")) !== "/basic.html"; i++) await waitMs(50); repl.write(await js("location.pathname"))', timeout_sec: 20 },
  });
  t.equal(started.content?.[0]?.text, '/basic.html', 'start_url was opened in the first tab');

  // process.exec and the fs routes, as a user adds packages: through the SDK, per browser.
  const exec = await kernel.browsers.process.exec(first.session_id, { command: process.execPath, args: ['-e', 'console.log(process.env.CDP_ENDPOINT ? "endpoint" : "none")'] });
  t.equal(exec.exit_code, 0, 'process.exec ran');
  t.equal(Buffer.from(exec.stdout_b64, 'base64').toString().trim(), 'endpoint', 'the command sees its browser as CDP_ENDPOINT');
  const scratch = mkdtempSync(join(tmpdir(), 'chromium-repl-test-fs-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  await kernel.browsers.fs.writeFile(first.session_id, Buffer.from('hello from the SDK'), { path: join(scratch, 'note.txt') });
  const read = await kernel.browsers.fs.readFile(first.session_id, { path: join(scratch, 'note.txt') });
  t.equal(await read.text(), 'hello from the SDK', 'fs.writeFile then fs.readFile round-trips');
  const info = await kernel.browsers.fs.fileInfo(first.session_id, { path: join(scratch, 'note.txt') });
  t.match(info, { name: 'note.txt', size_bytes: 18, is_dir: false }, 'fs.fileInfo');

  const footprints = [first, second].map((browser) => ({
    id: browser.session_id,
    profile: sessionOf(browser.session_id).chromium.userDataDir,
    workersBefore,
    executorsBefore,
  }));
  t.ok(processesUsing(footprints[0].profile).length > 1, 'a browser runs several processes (the count is meaningful)');
  await kernel.browsers.deleteByID('sdk-renamed');
  await kernel.browsers.deleteByID(second.session_id);
  for (const footprint of footprints) await assertGone(t, footprint, `deleted ${footprint.id}`);
  await t.rejects(kernel.browsers.retrieve(first.session_id), { status: 404 }, 'a deleted browser is 404');
});

t.test('two browsers share neither cookies nor REPL bindings', async (t) => {
  const a = await kernel.browsers.create({});
  const b = await kernel.browsers.create({});
  t.teardown(() => Promise.all([a, b].map((browser) => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined))));
  const page = JSON.stringify(fixtures.url('basic.html'));
  const cell = (browser, code) => kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code, timeout_sec: 30 } });
  const setCookie = await cell(a, `await gotoUrl(${page}); await waitForLoad(); await js("document.cookie = 'flavour=oat; max-age=3600'"); var secret = 42; repl.write(await js("document.cookie"))`);
  t.equal(setCookie.content?.[0]?.text, 'flavour=oat', 'browser A has its cookie');
  const readCookie = await cell(b, `await gotoUrl(${page}); await waitForLoad(); repl.write(JSON.stringify({ cookie: await js("document.cookie"), secret: typeof secret }))`);
  t.same(JSON.parse(readCookie.content?.[0]?.text ?? '{}'), { cookie: '', secret: 'undefined' }, 'browser B sees neither the cookie nor the binding');
  const topLevel = await api.call('POST', '/repl', { code: 'repl.write(typeof secret)' }, { headers: auth });
  t.equal(topLevel.json.content[0].text, 'undefined', 'nor does the default browser\'s REPL');
});

t.test('an idle browser is reaped after timeout_seconds; activity postpones it', async (t) => {
  await atRest(t);
  const workersBefore = liveWorkerThreads();
  const browser = await kernel.browsers.create({ timeout_seconds: 2 });
  const session = sessionOf(browser.session_id);
  const footprint = { id: browser.session_id, profile: session.chromium.userDataDir, workersBefore, executorsBefore: liveExecutorThreads() };
  // A cell longer than the timeout is activity all along: the browser survives it.
  const long = await kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code: 'await waitMs(3000); repl.write("still here")', timeout_sec: 20 } });
  t.equal(long.content?.[0]?.text, 'still here', 'a call longer than timeout_seconds keeps its browser');
  t.equal(sessionOf(browser.session_id), session, 'the same session after the call');
  // An open CDP connection is activity too.
  const cdp = await chromium.connectOverCDP(browser.cdp_ws_url);
  await sleep(3000);
  t.equal(sessionOf(browser.session_id), session, 'an open CDP connection keeps the browser');
  await cdp.close();
  t.ok(await eventually(() => { try { sessionOf(browser.session_id); return false; } catch { return true; } }), 'reaped once idle');
  await assertGone(t, footprint, 'reaped browser');
});

t.test('cdp_ws_url: Playwright connects from outside with the capability or the token, and is refused without', async (t) => {
  const browser = await kernel.browsers.create({});
  t.teardown(() => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined));
  const viaCapability = await chromium.connectOverCDP(browser.cdp_ws_url);
  const page = viaCapability.contexts()[0].pages()[0] ?? await viaCapability.contexts()[0].newPage();
  await page.goto(fixtures.url('basic.html'));
  t.equal(await page.title(), 'Basic fixture', 'Playwright drives the browser through the proxy');
  await viaCapability.close();

  const bare = browser.cdp_ws_url.replace(/\?.*$/, '');
  const viaHeader = await chromium.connectOverCDP(bare, { headers: auth });
  t.ok(viaHeader.isConnected(), 'the token as a header works');
  await viaHeader.close();
  const viaQuery = await chromium.connectOverCDP(`${bare}?token=${TOKEN}`);
  t.ok(viaQuery.isConnected(), 'the token as a query parameter works');
  await viaQuery.close();

  await t.rejects(chromium.connectOverCDP(bare, { timeout: 10_000 }), /401/, 'no token: 401');
  await t.rejects(chromium.connectOverCDP(`${bare}?jwt=forged`, { timeout: 10_000 }), /401/, 'a forged capability: 401');
  const other = await kernel.browsers.create({});
  t.teardown(() => kernel.browsers.deleteByID(other.session_id).catch(() => undefined));
  const capability = new URL(browser.cdp_ws_url).searchParams.get('jwt');
  await t.rejects(chromium.connectOverCDP(`${other.cdp_ws_url.replace(/\?.*$/, '')}?jwt=${capability}`, { timeout: 10_000 }), /401/,
    'one browser\'s capability does not open another');
  await t.rejects(chromium.connectOverCDP(bare.replace(browser.session_id, 'nosuchbrowser'), { headers: auth, timeout: 10_000 }), /404/, 'unknown browser: 404');

  // A broken handshake (no Sec-WebSocket-Key) is refused and leaves no activity behind.
  const badHandshake = await new Promise((resolve, reject) => {
    const request = httpRequest(bare.replace(/^ws/, 'http'), { headers: { ...auth, connection: 'Upgrade', upgrade: 'websocket' } });
    request.once('response', (response) => { response.resume(); resolve(response.statusCode); });
    request.once('error', reject);
    request.end();
  });
  t.equal(badHandshake, 400, 'an invalid WebSocket handshake: 400');
  t.ok(await eventually(() => sessionOf(browser.session_id).activeHolds === 0), 'and the browser is not held by it');

  // The default browser has a cdp_ws_url too, and a named REPL's tab stays out of it.
  const named = await api.call('POST', '/repl', { code: 'repl.write((await currentTab()).targetId)', repl: 'hidden-from-cdp' }, { headers: auth });
  t.equal(named.status, 200);
  const hiddenTarget = named.json.content[0].text;
  const defaultBrowser = (await api.call('GET', '/browsers/default', undefined, { headers: auth })).json;
  const viaDefault = await chromium.connectOverCDP(defaultBrowser.cdp_ws_url);
  const targetIds = [];
  for (const context of viaDefault.contexts()) {
    for (const page of context.pages()) {
      const session = await context.newCDPSession(page);
      targetIds.push((await session.send('Target.getTargetInfo')).targetInfo.targetId);
    }
  }
  t.ok(targetIds.length > 0, 'the default browser\'s tabs are visible through its cdp_ws_url');
  t.notOk(targetIds.includes(hiddenTarget), 'a named REPL\'s tab is not');
  await viaDefault.close();
  t.equal((await api.call('DELETE', '/repls/hidden-from-cdp', undefined, { headers: auth })).status, 204);
});

t.test('bad requests get a 400 naming the field, and the limits answer clearly', async (t) => {
  const call = (method, path, body) => api.call(method, path, body, { headers: auth });
  for (const [body, field] of [
    [{ extensions: [{ name: 'x', bogus: 1 }] }, 'extensions'],
    [{ stealth: true }, 'stealth'], [{ timeout_seconds: 0 }, 'timeout_seconds'], [{ timeout_seconds: 'x' }, 'timeout_seconds'],
    [{ viewport: { width: 0, height: 10 } }, 'viewport'], [{ start_url: 'file:///etc/passwd' }, 'start_url'],
    [{ tags: { a: 1 } }, 'tags'], ...(process.env.DISPLAY ? [] : [[{ headless: false }, 'headless']]), [{ name: '../x' }, 'name'], [{ nonsense: 1 }, 'nonsense'], [{ name: 'default' }, 'default'],
  ]) {
    const answer = await call('POST', '/browsers', body);
    t.equal(answer.status, 400, `${JSON.stringify(body)} → 400`);
    t.match(answer.json?.message, field, `the message names ${field}: ${answer.json?.message}`);
  }
  const harmless = await call('POST', '/browsers', { stealth: false, proxy_id: null, extensions: [], kiosk_mode: false, name: 'limits' });
  t.equal(harmless.status, 200, 'the "not asked for" values of unsupported fields are accepted');
  t.teardown(() => kernel.browsers.deleteByID(harmless.json.session_id).catch(() => undefined));
  t.equal((await call('POST', '/browsers', { name: 'limits' })).status, 409, 'a taken name is 409');
  t.equal((await call('PATCH', `/browsers/${harmless.json.session_id}`, { viewport: { width: 10, height: 10 } })).status, 400, 'PATCH viewport is refused');
  t.equal((await call('DELETE', '/browsers/default')).status, 400, 'the default browser cannot be deleted');
  // Found by the fuzzer (seed 1519646826): the refusal names the fields it refuses, and a
  // malformed field is reported as malformed first.
  const tagDefault = await call('PATCH', '/browsers/default', { name: 'renamed', tags: { team: 'a' } });
  t.equal(tagDefault.status, 400);
  t.equal(tagDefault.json?.message, 'name, tags: the default browser cannot be renamed or tagged');
  const badTags = await call('PATCH', '/browsers/default', { tags: false });
  t.equal(badTags.status, 400);
  t.match(badTags.json?.message, /tags/, `a malformed field is named: ${badTags.json?.message}`);
  t.equal((await call('GET', '/browsers/nosuch')).status, 404);
  t.equal((await call('POST', '/browsers/nosuch/repl', { code: '1' })).status, 404, 'per-browser routes of an unknown browser are 404');
  t.equal((await call('GET', '/browsers?limit=0')).status, 400, 'limit 0 → 400');
  const noToken = await api.call('GET', '/browsers');
  t.equal(noToken.status, 401, 'the API needs the token');

  const failed = await call('POST', `/browsers/${harmless.json.session_id}/repl`, { code: 'throw new Error("x")' });
  t.equal(failed.headers['x-should-retry'], 'false', 'a failed cell says x-should-retry: false');
  const ok = await call('POST', `/browsers/${harmless.json.session_id}/repl`, { code: '1' });
  t.equal(ok.headers['x-should-retry'], undefined, 'a successful one does not');

  // maxBrowsers is 4 for this server: fill it and ask for one more.
  const extra = [];
  while (api.server.app.browsers.liveBrowsers < 4) extra.push((await call('POST', '/browsers', {})).json.session_id);
  t.teardown(() => Promise.all(extra.map((id) => kernel.browsers.deleteByID(id).catch(() => undefined))));
  const refused = await call('POST', '/browsers', {});
  t.equal(refused.status, 429, 'beyond maxBrowsers: 429');
  t.match(refused.json, { code: 'REPL_ERR_BROWSER_LIMIT', message: /4 of its 4 browsers/ });
  t.equal((await call('GET', '/browsers/default')).json.timeout_seconds, 0, 'the default browser is addressable and never reaped');
});

t.test('a warm pool hands out launched browsers and refills', async (t) => {
  const pooled = await apiServer(t, { token: undefined, browserPool: 1, maxBrowsers: 3 });
  const sessions = pooled.server.app.browsers;
  t.ok(await eventually(() => sessions.pooled === 1), 'the pool warms one browser');
  const taken = await pooled.call('POST', '/browsers', {});
  t.equal(taken.status, 200);
  t.equal(sessions.get(taken.json.session_id).pooled, true, 'create took the warm browser');
  const [defaultRepl] = await sessions.get(taken.json.session_id).listRepls();
  t.match(defaultRepl, { name: 'default', replId: /^[a-z0-9]{24}$/ }, 'its default REPL already runs, before any cell');
  t.ok(await eventually(() => sessions.pooled === 1), 'and the pool refilled');
  const before = sessions.list().length;
  const custom = await pooled.call('POST', '/browsers', { viewport: { width: 500, height: 400 } });
  t.equal(sessions.get(custom.json.session_id).pooled, false, 'a browser unlike the pool\'s is launched for the request');
  t.equal(sessions.list().length, before + 1);
  const cell = await pooled.call('POST', `/browsers/${taken.json.session_id}/repl`, { code: 'repl.write(String(await js("innerWidth")))' });
  t.equal(cell.json.content?.[0]?.text, "1280", `the pooled browser works: ${JSON.stringify(cell.json)}`);
});
