// Playwright inside the REPL (issue 5): the pinned playwright-core and patchright import without
// downloading a browser, connectOverCDP(process.env.CDP_ENDPOINT) reaches the REPL's Chromium,
// Playwright objects held in bindings persist across cells, and after a Chromium restart the old
// connection reports disconnected while reconnecting in a later cell works with all other state intact.
import t from 'tap';
import { readFileSync } from 'node:fs';
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
