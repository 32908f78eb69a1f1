// Browser pools (docs/browsers.md#pools) through the official @onkernel/sdk, unchanged, against one
// server with real headless Chromiums: every client.browserPools method with its effect checked,
// 10 concurrent acquires on a pool of 2 (never one browser to two holders, the waiting ones served
// on release), a reused browser that carries nothing of its last user, 204 on timeout, bad input.
import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { until } from '../helpers/loopback.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const scratch = mkdtempSync(join(tmpdir(), 'chromium-repl-pools-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 4, browserPool: 1 });
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });

/** Runs a cell in browser `id` and returns the JSON it wrote last. */
async function cell(id, code) {
  const answer = await api.call('POST', `/browsers/${id}/repl`, { code });
  if (answer.status !== 200) throw new Error(`cell answered ${answer.status}: ${answer.text}`);
  if (answer.json.success !== true) throw new Error(`cell failed: ${answer.text}`);
  const writes = answer.json.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);
  return JSON.parse(writes.at(-1));
}

t.test('the server\'s warm pool is the pool "default"', async (t) => {
  await until(async () => (await kernel.browserPools.retrieve('default')).available_count === 1, 'the default pool to fill');
  const pool = await kernel.browserPools.retrieve('default');
  t.equal(pool.name, 'default');
  t.equal(pool.browser_pool_config.size, 1);
  const listed = [];
  for await (const each of kernel.browserPools.list()) listed.push(each.name);
  t.same(listed, ['default'], 'list shows it');
  // POST /browsers still takes from it, for good: the pool refills.
  const browser = await kernel.browsers.create({});
  t.equal((await kernel.browserPools.retrieve('default')).acquired_count, 0, 'POST /browsers takes it out of the pool, not as a lease');
  await kernel.browsers.deleteByID(browser.session_id);
  await until(async () => (await kernel.browserPools.retrieve('default')).available_count === 1, 'the default pool to refill');
  await t.rejects(kernel.browserPools.delete('default'), { status: 400 }, 'the default pool cannot be deleted');
});

t.test('bad input answers 4xx JSON naming the field', async (t) => {
  const cases = [
    [{ size: -1 }, /size/], [{ size: 1, chrome_policy: { a: 1 } }, /chrome_policy/], [{ size: 1, headless: 'yes' }, /headless/],
    [{ size: 1, fill_rate_per_minute: 0 }, /fill_rate_per_minute/], [{ size: 1, no_such: 1 }, /no_such/], [{}, /size/], [{ size: 99 }, /size/],
  ];
  for (const [body, field] of cases) {
    const answer = await api.call('POST', '/browser_pools', body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(answer.json?.message, field, `names ${field}`);
  }
  const acquire = await api.call('POST', '/browser_pools/default/acquire', { acquire_timeout_seconds: 'x' });
  t.equal(acquire.status, 400);
  t.match(acquire.json.message, /acquire_timeout_seconds/);
  const release = await api.call('POST', '/browser_pools/default/release', { reuse: true });
  t.equal(release.status, 400);
  t.match(release.json.message, /session_id/);
  t.equal((await api.call('GET', '/browser_pools/no-such')).status, 404);
});

t.test('a pool of 2: create, update, 10 concurrent acquires, release, reuse cleaned, flush, delete', async (t) => {
  const created = await kernel.browserPools.create({ name: 'pair', size: 2, timeout_seconds: 600, viewport: { width: 800, height: 600 } });
  t.equal(created.browser_pool_config.size, 2);
  t.same(created.browser_pool_config.viewport, { width: 800, height: 600 });
  await until(async () => (await kernel.browserPools.retrieve('pair')).available_count === 2, 'the pool to fill');
  const updated = await kernel.browserPools.update(created.id, { start_url: fixtures.url('agent-cookie.html') });
  t.equal(updated.browser_pool_config.start_url, fixtures.url('agent-cookie.html'), 'update changes the configuration');
  t.equal((await kernel.browserPools.update(created.id, { start_url: '' })).browser_pool_config.start_url, undefined, 'an empty start_url clears it');

  // 10 callers at once; only 2 hold a browser at any moment, and never the same one.
  const holding = new Set();
  const served = [];
  let overlap = false;
  let most = 0;
  const acquires = Array.from({ length: 10 }, () => kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 120 }).then((browser) => {
    if (holding.has(browser.session_id)) overlap = true;
    holding.add(browser.session_id);
    most = Math.max(most, holding.size);
    served.push(browser);
    return browser;
  }));
  let released = 0;
  while (released < 10) {
    await until(() => served.length > released, 'a waiting caller to be served');
    const browser = served[released];
    t.equal((await kernel.browsers.retrieve(browser.session_id)).session_id, browser.session_id, 'the acquired browser is listed under /browsers');
    holding.delete(browser.session_id);
    await kernel.browserPools.release('pair', { session_id: browser.session_id, reuse: true });
    released++;
  }
  await Promise.all(acquires);
  t.notOk(overlap, 'no browser was handed to two holders at once');
  t.ok(most <= 2, `at most 2 held at once (saw ${most})`);
  t.equal(served.length, 10, 'every waiting caller was served on release');
  await t.rejects(kernel.browsers.retrieve(served[0].session_id), { status: 404 }, 'a released browser is gone from /browsers');

  // The last user's traces: a cookie, a binding, a second tab, a file written through fs.
  const dirty = await kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 60 });
  const file = join(scratch, 'secret.txt');
  await cell(dirty.session_id, `await gotoUrl(${JSON.stringify(fixtures.url('agent-cookie.html'))}, { waitUntil: 'load' }); await js("document.cookie = 'who=last; path=/'"); repl.write(JSON.stringify(1))`);
  await cell(dirty.session_id, 'let secret = 1; repl.write(JSON.stringify(secret))');
  await cell(dirty.session_id, `await newTab(${JSON.stringify(fixtures.url('agent-form.html'))}); repl.write(JSON.stringify((await listTabs()).length))`);
  await kernel.browsers.fs.writeFile(dirty.session_id, Buffer.from('mine'), { path: file });
  t.ok(existsSync(file), 'the file was written');
  t.equal(await cell(dirty.session_id, 'repl.write(JSON.stringify((await listTabs()).length))'), 2, 'two tabs before release');
  await kernel.browserPools.release('pair', { session_id: dirty.session_id });
  t.notOk(existsSync(file), 'the file of the last user is gone');
  // Both pool browsers, one of them the cleaned one (under a new id), carry nothing.
  const next = [await kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 60 }), await kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 60 })];
  for (const browser of next) {
    t.not(browser.session_id, dirty.session_id, 'a reused browser has a new id');
    t.equal(await cell(browser.session_id, 'repl.write(JSON.stringify(typeof secret))'), 'undefined', 'no REPL binding');
    t.same(await cell(browser.session_id, 'repl.write(JSON.stringify((await listTabs()).map((tab) => tab.url)))'), ['about:blank'], 'one about:blank tab');
    t.equal(await cell(browser.session_id, `await gotoUrl(${JSON.stringify(fixtures.url('agent-cookie.html'))}, { waitUntil: 'load' }); repl.write(JSON.stringify(await js('document.cookie')))`), '', 'no cookie');
  }
  t.equal((await kernel.browserPools.retrieve('pair')).acquired_count, 2);
  // Nothing idle: the next caller times out with 204.
  const timedOut = await api.call('POST', '/browser_pools/pair/acquire', { acquire_timeout_seconds: 0.2 });
  t.equal(timedOut.status, 204, '204 when no browser came in time');
  // A waiting caller that hangs up leaves the line: the next release goes to the next caller.
  const gone = new AbortController();
  const abandoned = kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 60 }, { signal: gone.signal }).catch((error) => error);
  await sleep(200);
  gone.abort();
  await abandoned;
  const waiting = kernel.browserPools.acquire('pair', { acquire_timeout_seconds: 60 });
  await sleep(200);
  await kernel.browserPools.release('pair', { session_id: next[0].session_id, reuse: false });
  const replacement = await waiting;
  t.ok(replacement.session_id, 'after a release without reuse the pool launches a replacement for the waiting caller');
  t.equal((await kernel.browserPools.retrieve('pair')).acquired_count, 2, 'the caller that hung up holds nothing');
  await kernel.browserPools.release('pair', { session_id: replacement.session_id });
  await until(async () => (await kernel.browserPools.retrieve('pair')).available_count === 1, 'the released browser to be idle');

  await t.rejects(kernel.browserPools.delete('pair'), { status: 409 }, 'a pool with a lease is not deleted');
  await kernel.browserPools.flush('pair');
  t.equal((await kernel.browserPools.retrieve('pair')).available_count, 0, 'flush ends the idle browsers');
  await until(async () => (await kernel.browserPools.retrieve('pair')).available_count === 1, 'the pool to refill after flush');
  await kernel.browserPools.delete('pair', { force: true });
  await t.rejects(kernel.browserPools.retrieve('pair'), { status: 404 }, 'deleted');
  await t.rejects(kernel.browsers.retrieve(next[1].session_id), { status: 404 }, 'force ended the leased browser');
});
