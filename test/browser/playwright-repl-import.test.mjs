// Playwright inside the REPL (issue 5): the pinned playwright-core and patchright import without
// downloading a browser, connectOverCDP(process.env.CDP_ENDPOINT) reaches the REPL's Chromium,
// Playwright objects held in bindings persist across cells, and after a Chromium restart the old
// connection reports disconnected while reconnecting in a later cell works with all other state intact.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiServer, texts } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const FIXTURE = fixtures.url('playwright-executor.html');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

t.test('Playwright in REPL cells across a Chromium restart', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
  const host = api.server.app.browsers.primary;
  /** Runs a cell, asserting success, and returns its text output. */
  const cell = async (code) => {
    const result = await api.repl(code);
    t.equal(result.success, true, result.error ?? 'the cell ran');
    return { text: texts(result).join(''), replId: result.repl_id };
  };

  const versions = await cell(`
    const pw = await import('playwright-core');
    const pr = await import('patchright');
    const version = async (name) => (await import(name + '/package.json', { with: { type: 'json' } })).default.version;
    repl.write([await version('playwright-core'), await version('patchright'), typeof pw.chromium.connectOverCDP, typeof pr.chromium.connectOverCDP].join(' '));
  `);
  t.equal(versions.text, `${pkg.dependencies['playwright-core']} ${pkg.dependencies.patchright} function function`, 'the pinned versions');

  const connected = await cell(`
    let counter = 41;
    const browser = await pw.chromium.connectOverCDP(process.env.CDP_ENDPOINT);
    const context = browser.contexts()[0];
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(${JSON.stringify(FIXTURE)});
    repl.write(await page.title());
  `);
  t.equal(connected.text, 'Executor fixture');
  t.equal(host.chromium.launchCount, 1, 'the REPL launched its Chromium for the cell');
  t.match(readFileSync(`/proc/${host.chromium.pid}/cmdline`, 'utf8'), /chromium/i, 'the system Chromium, not a downloaded one');

  const persisted = await cell(`await page.click('#count'); repl.write(await page.textContent('#count') + ' ' + browser.isConnected());`);
  t.equal(persisted.text, '1 true', 'Playwright objects in bindings persist across cells');
  t.equal(persisted.replId, connected.replId);

  const viaPatchright = await cell(`
    const other = await pr.chromium.connectOverCDP(process.env.CDP_ENDPOINT);
    const titles = await Promise.all(other.contexts().flatMap((c) => c.pages()).map((p) => p.title()));
    await other.close();
    repl.write(String(titles.includes('Executor fixture')));
  `);
  t.equal(viaPatchright.text, 'true', 'patchright reaches the same Chromium');

  const pid = host.chromium.pid;
  process.kill(pid, 'SIGKILL');
  while (host.chromium.launched) await sleep(20);

  const disconnected = await cell(`
    await new Promise((resolve) => (browser.isConnected() ? browser.once('disconnected', resolve) : resolve()));
    repl.write(String(browser.isConnected()));
  `);
  t.equal(disconnected.text, 'false', 'the old connection reports disconnected');

  const reconnected = await cell(`
    const again = await pw.chromium.connectOverCDP(process.env.CDP_ENDPOINT);
    const fresh = again.contexts()[0].pages()[0] ?? await again.contexts()[0].newPage();
    await fresh.goto(${JSON.stringify(FIXTURE)});
    repl.write([again.isConnected(), await fresh.title(), counter + 1].join(' '));
  `);
  t.equal(reconnected.text, 'true Executor fixture 42', 'a later cell reconnects; other bindings are intact');
  t.equal(reconnected.replId, connected.replId, 'the same REPL');
  t.not(host.chromium.pid, pid, 'a relaunched Chromium');
  await cell('await again.close();');
});

t.test("a REPL's temporary folder goes with it: a Playwright connection never closed leaves nothing (docs/repl.md)", async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
  const ended = await api.repl(`
    const { chromium } = await import('playwright-core');
    const leftOpen = await chromium.connectOverCDP(process.env.CDP_ENDPOINT);
    const { readdirSync } = await import('node:fs');
    const os = await import('node:os');
    repl.write(JSON.stringify({ tmp: os.tmpdir(), env: process.env.TMPDIR, inside: readdirSync(os.tmpdir()) }));
  `);
  t.equal(ended.success, true, ended.error ?? 'the cell ran');
  const seen = JSON.parse(texts(ended).join(''));
  t.match(path.basename(seen.tmp), /^chromium-repl-tmp-\d+-[A-Za-z0-9]{6}$/, "the cell's os.tmpdir() is the REPL's own folder");
  t.equal(path.dirname(seen.tmp), tmpdir(), "inside the server's");
  t.equal(seen.env, seen.tmp, 'and TMPDIR says so to the commands it spawns');
  t.ok(seen.inside.some((name) => name.startsWith('playwright-artifacts-')), "Playwright's folder for the open connection is in it");
  const reset = await api.call('DELETE', '/repls/default');
  t.ok(reset.status < 300, `DELETE /repls/default: ${reset.status}`);
  // The folder goes once the old worker's exit has come, a moment after the reset answered.
  for (let tries = 0; tries < 100 && existsSync(seen.tmp); tries++) await sleep(50);
  t.notOk(existsSync(seen.tmp), 'the reset REPL took its folder, and the connection left open with it');
  const fresh = await api.repl('repl.write((await import("node:os")).tmpdir())');
  t.not(texts(fresh).join(''), seen.tmp, 'the next REPL has a folder of its own');
});
