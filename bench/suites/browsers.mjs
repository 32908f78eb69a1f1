// Issue 10: browser sessions. (1) POST /browsers → first cell → DELETE, with a warm pool of 2 and
// without, beside a bare Chromium launch (spawn until DevTools listens, then kill) in the same
// run. (2) The four stages of the public browserbench (create, CDP connect, goto, release)
// through the Kernel SDK and Playwright against this server, beside the hosted product's
// published figures (which are measured over the internet against google.com: not comparable
// one to one, see the note).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Kernel from '@onkernel/sdk';
import { chromium } from 'playwright-core';
import { request } from 'undici';
import { findChromium, startServer } from '../../dist/lib/index.js';
import { chromiumArgs } from '../../dist/lib/chromium/launch-chromium.js';
import { summarize } from '../stats.mjs';

/** The hosted product's published browserbench medians (docs/benchmarks.md, "Browser sessions"). */
const KERNEL_PUBLISHED = { create: 36.6, connect: 288.3, goto: 434.2, release: 34.8, total: 776 };

async function bareLaunch(executable) {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-repl-bench-profile-'));
  // Its own process group, so the kill reaches the zygote and GPU processes too, not only the browser.
  const child = spawn(executable, chromiumArgs({ headless: true, noSandbox: true, args: [], userDataDir: profile }), { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  child.stderr.setEncoding('utf8');
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (/DevTools listening on ws:\/\//.test(output)) {
        child.stderr.off('data', onData);
        resolve();
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${output.slice(-500)}`)));
  });
  const exited = once(child, 'exit');
  process.kill(-child.pid, 'SIGKILL');
  await exited;
  // A child of the group may still be writing for a moment after the browser's exit.
  for (let attempt = 0; attempt < 20 && existsSync(profile); attempt++) {
    rmSync(profile, { recursive: true, force: true });
    if (existsSync(profile)) await sleep(50);
  }
}

async function call(url, method, path, body) {
  const response = await request(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** create → first cell → delete through the HTTP API; the cell needs the browser (a js() round trip). */
async function lifecycle(url) {
  const browser = await call(url, 'POST', '/browsers', {});
  const cell = await call(url, 'POST', `/browsers/${browser.session_id}/repl`, { code: 'repl.write(String(await js("1 + 1")))' });
  if (cell.success !== true || cell.content[0]?.text !== '2') throw new Error(`first cell failed: ${JSON.stringify(cell)}`);
  await call(url, 'DELETE', `/browsers/${browser.session_id}`);
}

/** Waits until `server` runs exactly `pooled` browsers, all in its pool: no launch or teardown in flight. */
async function atRest(server, pooled) {
  const until = Date.now() + 30_000;
  const sessions = server.app.browsers;
  while (sessions.pooled !== pooled || sessions.liveBrowsers !== pooled) {
    if (Date.now() > until) throw new Error('the server did not come to rest within 30 s');
    await sleep(20);
  }
}

export async function run({ quick }) {
  const executable = (await findChromium()).executable;
  const iterations = quick ? 5 : 20;
  const pooledServer = await startServer({ port: 0, token: undefined, browserPool: 2, primaryBrowser: { browser: false } });
  const plainServer = await startServer({ port: 0, token: undefined, primaryBrowser: { browser: false } });
  const page = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>bench</title><h1>browserbench</h1>'));
  page.listen(0, '127.0.0.1');
  await once(page, 'listening');
  const pageUrl = `http://127.0.0.1:${page.address().port}/`;
  const pooled = [];
  const plain = [];
  const launches = [];
  const stages = { create: [], connect: [], goto: [], release: [], total: [] };
  try {
    // Every measure starts with both servers at rest (the pool full again, every teardown done), so
    // no background launch or kill of one measure competes with the next for the CPU.
    const rest = () => Promise.all([atRest(pooledServer, 2), atRest(plainServer, 0)]);
    // Warm-up: one of each, so first-use costs (module loading, the first worker) are not measured.
    await rest();
    await lifecycle(pooledServer.url);
    await rest();
    await lifecycle(plainServer.url);
    await rest();
    await bareLaunch(executable);
    const time = async (samples, fn) => {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    };
    for (let i = 0; i < iterations; i++) {
      // The pool is sized for the arrival rate: each request finds a warm browser, as a pool of 2 does for calls spaced by a refill.
      await rest();
      await time(pooled, () => lifecycle(pooledServer.url));
      await rest();
      await time(plain, () => lifecycle(plainServer.url));
      await rest();
      await time(launches, () => bareLaunch(executable));
    }

    // browserbench's stages, through the SDK and Playwright, against the pooled server.
    const kernel = new Kernel({ apiKey: 'unused', baseURL: pooledServer.url, maxRetries: 0 });
    for (let i = 0; i < iterations; i++) {
      await rest();
      const t0 = performance.now();
      const browser = await kernel.browsers.create({});
      const t1 = performance.now();
      const connected = await chromium.connectOverCDP(browser.cdp_ws_url);
      const context = connected.contexts()[0];
      const tab = context.pages()[0] ?? await context.newPage();
      const t2 = performance.now();
      await tab.goto(pageUrl);
      const t3 = performance.now();
      await connected.close();
      await kernel.browsers.deleteByID(browser.session_id);
      const t4 = performance.now();
      stages.create.push(t1 - t0);
      stages.connect.push(t2 - t1);
      stages.goto.push(t3 - t2);
      stages.release.push(t4 - t3);
      stages.total.push(t4 - t0);
    }
  } finally {
    await Promise.all([pooledServer.close(), plainServer.close(), new Promise((resolve) => page.close(resolve))]);
  }
  const withPool = summarize(pooled);
  const withoutPool = summarize(plain);
  const launch = summarize(launches);
  const stage = Object.fromEntries(Object.entries(stages).map(([name, samples]) => [name, summarize(samples)]));
  return [
    {
      title: 'Browser sessions (issue 10): create → first cell → delete',
      baselineName: `a bare Chromium launch in the same run: spawn with the server's flags until "DevTools listening", then SIGKILL (p50 ${launch.p50.toFixed(1)} ms)`,
      rows: [
        { name: 'create → first cell (js round trip) → delete, pool of 2', unit: 'p50', ours: withPool.p50, baseline: launch.p50, target: { ratio: 0.3 } },
        { name: 'create → first cell (js round trip) → delete, pool of 2', unit: 'p50 (absolute)', ours: withPool.p50, baseline: launch.p50, target: { absoluteMs: 50 } },
        { name: 'create → first cell (js round trip) → delete, no pool', unit: 'p50', ours: withoutPool.p50, baseline: launch.p50 },
        { name: 'create → first cell (js round trip) → delete, pool of 2', unit: 'p99', ours: withPool.p99, baseline: launch.p99 },
      ],
      notes: [
        'Each measure starts with both servers at rest: the pool holds 2 browsers again (a pool sized for its arrival rate) and every earlier teardown is done; the refill runs in the background and is not measured. ' +
          'DELETE answers once the browser is gone from the API; its workers, Chromium and profile end in the background (and are waited for before the next measure). ' +
          'Without the pool, create includes the launch and the warm-up (the default REPL\'s worker started, connected, page attached).',
      ],
    },
    {
      title: 'Browser sessions (issue 10): the browserbench stages through @onkernel/sdk and Playwright',
      baselineName: 'the hosted product\'s published browserbench medians (kernel/browserbench: 5,000 runs from EC2 us-east-1 against google.com, total 776 ms)',
      rows: ['create', 'connect', 'goto', 'release', 'total'].map((name) => ({
        name: `${name}${name === 'connect' ? ' (connectOverCDP(cdp_ws_url))' : name === 'goto' ? ' (a local page)' : name === 'release' ? ' (browser.close + deleteByID)' : name === 'create' ? ' (browsers.create, pool of 2)' : ''}`,
        unit: 'p50',
        ours: stage[name].p50,
        baseline: KERNEL_PUBLISHED[name],
      })),
      notes: [
        'Not a like-for-like race: the published figures cross the internet and load google.com; ours run on loopback against a local page, on this machine. ' +
          'What carries over is the shape: create and release are API calls, connect is the CDP handshake through the authenticated proxy, goto is Chromium itself.',
      ],
    },
  ];
}
