// The setting the browser suites share: one page served on loopback, a REPL that has loaded it,
// a raw CDP session on the same tab and Playwright connected to the same browser.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { createRepl } from '../dist/lib/index.js';
import { rawCdp } from './raw-cdp.mjs';
import { summarize } from './stats.mjs';

/** A REPL call that must succeed. */
export function check(result) {
  if (!result.success) throw new Error(`bench cell failed: ${result.error}`);
  return result;
}

/**
 * Samples every measure once per iteration, rotating which goes first so none profits from the
 * others' warm-up; `prepare[m]` runs untimed before measure m.
 */
export async function interleaved(iterations, warmup, measures, prepare = []) {
  const times = measures.map(() => []);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < measures.length; k++) {
      const m = (i + k) % measures.length;
      await prepare[m]?.();
      const start = process.hrtime.bigint();
      await measures[m]();
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= warmup) times[m].push(elapsed);
    }
  }
  return times.map(summarize);
}

/** Serves `html`, loads it in a new REPL, and attaches a raw session and Playwright to that tab. */
export async function openBenchPage(html) {
  const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${server.address().port}/`;
  const repl = createRepl();
  check(await repl.run(`await gotoUrl(${JSON.stringify(url)}); await waitForLoad();`));
  const targetId = check(await repl.run('repl.write((await currentTab()).targetId)')).content[0].text;
  const endpoint = await repl.browser.endpoint();
  const raw = await rawCdp(endpoint);
  const { sessionId } = await raw.send('Target.attachToTarget', { targetId, flatten: true });
  const browser = await chromium.connectOverCDP(endpoint);
  const page = browser.contexts().flatMap((context) => context.pages()).find((candidate) => candidate.url() === url);
  if (page === undefined) throw new Error('Playwright does not see the bench page');
  return {
    repl, raw, sessionId, page,
    async close() {
      await browser.close();
      raw.close();
      await repl.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
