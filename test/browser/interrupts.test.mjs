// Issue 15, the page side, against a real headless Chromium: page functions carry no interrupt
// checks into the page (js(fn) and Playwright's evaluate send the source as written), and a cell
// that keeps a page busy past its timeout is interrupted with its REPL, its page and its CDP
// connection kept.
import t from 'tap';
import { createRepl } from '../../dist/lib/index.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
// cdpEndpoint: null, so a CDP_ENDPOINT in the developer's shell cannot turn this into attach mode.
const repl = createRepl({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => repl.close());
const textsOf = (result) => (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text);
const run = async (t, code, options) => {
  const result = await repl.run(code, options);
  t.equal(result.success, true, result.error ?? 'the cell ran');
  return result;
};

t.test('page functions with loops, calls and awaits run in the page as written', async (t) => {
  await run(t, `await gotoUrl(${JSON.stringify(fixtures.url('basic.html'))}); await waitForLoad()`);
  const counted = await run(t, `
    const countTags = () => { let n = 0; for (const element of document.querySelectorAll('*')) if (element.tagName) n++; return n };
    const later = async () => { await new Promise((resolve) => setTimeout(resolve, 10)); return document.title };
    repl.write(String((await js(countTags)) > 0) + " " + (await js(later)))`);
  t.same(textsOf(counted), ['true Basic fixture'], 'js(fn) ran both functions in the page');
  const playwright = await run(t, `
    const { chromium } = await import('playwright-core');
    const browser = await chromium.connectOverCDP(process.env.CDP_ENDPOINT);
    try {
      const page = browser.contexts()[0].pages().find((candidate) => candidate.url().includes('basic.html'));
      repl.write(String(await page.evaluate(() => { let sum = 0; for (let i = 0; i < 10; i++) sum += Math.max(i, 0); return sum })));
    } finally {
      await browser.close();
    }`);
  t.same(textsOf(playwright), ['45'], "Playwright's evaluate got the function as written");
});

t.test('a cell that retries a helper past its timeout is interrupted; the page and the REPL go on', async (t) => {
  const before = await run(t, 'let attempts = 0');
  const retrying = await repl.run('for (;;) { attempts++; try { await waitForElement("#never-there", { timeout: 100 }) } catch {} }', { timeoutSec: 2 });
  t.match(retrying, { success: false, interrupted: true, replId: before.replId, errorCode: 'REPL_ERR_CELL_TIMEOUT' });
  const busyPage = await repl.run('for (;;) { try { await js(() => new Promise(() => {})) } catch {} }', { timeoutSec: 2 });
  t.match(busyPage, { success: false, interrupted: true, replId: before.replId });
  const after = await run(t, 'repl.write(String(attempts > 1) + " " + (await pageInfo()).title)');
  t.same(textsOf(after), ['true Basic fixture'], 'the bindings, the page and the connection are all still there');
  t.equal(after.replId, before.replId);
});

t.test('issue 27: a cell waiting on waitForElement is interrupted on demand; the page and the REPL go on', async (t) => {
  const before = await run(t, 'let waitedBefore = "kept"');
  let started;
  const ready = new Promise((resolve) => { started = resolve; });
  const waiting = repl.run('repl.write("waiting"); await waitForElement("#never-there", { timeoutSec: 120 }); repl.write("found")', {
    timeoutSec: 150,
    onOutput: (item) => { if (item.type === 'text' && item.text === 'waiting') started(); },
  });
  await ready;
  t.same(await repl.interrupt(), { interrupted: true });
  const result = await waiting;
  t.match(result, { success: false, interrupted: true, replId: before.replId, errorCode: 'REPL_ERR_CELL_INTERRUPTED' });
  t.same(textsOf(result), ['waiting']);
  const after = await run(t, 'repl.write(waitedBefore + " " + (await pageInfo()).title)');
  t.same(textsOf(after), ['kept Basic fixture'], 'the binding, the page and the connection are all still there');
  t.equal(after.replId, before.replId);
});
