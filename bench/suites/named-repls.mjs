// Issue 8: named REPLs (several REPLs on one browser, each with its own tab) against the
// child-process REPL (bench/baseline/child-repl.mjs), in the same run:
// - memory per idle named REPL: RSS growth over 16 REPLs that each ran one trivial cell, / 16;
// - a new named REPL's first cell (creation → first result) vs a new child process's first cell;
// - `await click("#btn")` in a background named REPL's tab vs the same click in the default
//   (foreground) tab, on a page with a cross-site iframe.
//
// Named REPLs are the product's: `host.repl(name)` of one `Browser`, whose tab registry opens
// each REPL's tab (the active tab of a window of its own). The hidden-tab row keeps a raw
// `background: true` tab in the launch window, driven by a plain `createRepl()`: it shows what
// the registry's own windows avoid.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Browser, BrowserManager, createRepl } from '../../dist/lib/index.js';
import { ChildRepl } from '../baseline/child-repl.mjs';
import { check, interleaved } from '../bench-page.mjs';
import { rawCdp } from '../raw-cdp.mjs';
import { summarize } from '../stats.mjs';

const CELL = 'repl.write("1")';
const IDLE_REPLS = 16;
/**
 * A plain `background: true` tab joins the launch window hidden, where no animation frames run
 * (the tab registry opens each owner's tab in a window of its own instead).
 */
const HIDDEN_TAB = { url: 'about:blank', background: true };

/** A button on the top page and a cross-site iframe (127.0.0.1 vs localhost are different sites). */
async function clickPageServer() {
  const server = createServer((request, response) => {
    const body = request.url === '/inner'
      ? '<!doctype html><meta charset="utf-8"><p>cross-site frame</p><button>inner</button>'
      : `<!doctype html><meta charset="utf-8"><title>named click bench</title>
<button id="btn" style="margin: 40px; padding: 10px 20px">Press</button>
<iframe src="http://localhost:${server.address().port}/inner" width="400" height="200"></iframe>
<script>window.presses = 0; document.getElementById('btn').addEventListener('click', () => window.presses++);</script>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/** Makes a plain REPL use `targetId` and loads `url` in it. */
async function useTab(repl, targetId, url) {
  check(await repl.run(`await switchTab(${JSON.stringify(targetId)}); await gotoUrl(${JSON.stringify(url)}); await waitForLoad();`));
}

function rssOfPid(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function idleMemory(host) {
  const before = process.memoryUsage().rss;
  const names = [];
  for (let i = 0; i < IDLE_REPLS; i++) {
    names.push(`idle${i}`);
    check(await host.repl(`idle${i}`).run(CELL));
  }
  // The host's warm spare refills after each first cell: let it finish starting.
  await sleep(3000);
  const ours = (process.memoryUsage().rss - before) / IDLE_REPLS;
  await Promise.all(names.map((name) => host.deleteRepl(name)));

  const parentBefore = process.memoryUsage().rss;
  const children = [];
  for (let i = 0; i < IDLE_REPLS; i++) {
    const child = new ChildRepl();
    await child.run(CELL);
    children.push(child);
  }
  await sleep(1000);
  let total = process.memoryUsage().rss - parentBefore;
  for (const child of children) total += rssOfPid(child.pid);
  await Promise.all(children.map((child) => child.close()));
  return { ours, baseline: total / IDLE_REPLS };
}

async function firstCells(host, iterations) {
  const ours = [];
  const baseline = [];
  for (let i = 0; i < iterations + 1; i++) {
    for (const kind of i % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours']) {
      // A pause between creations, as between an agent's calls; it also lets the previous
      // REPL's threads or process finish exiting.
      await sleep(300);
      const start = process.hrtime.bigint();
      if (kind === 'ours') {
        check(await host.repl(`first${i}`).run(CELL));
        const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        await host.deleteRepl(`first${i}`);
        if (i > 0) ours.push(elapsed);
      } else {
        const child = new ChildRepl();
        await child.run(CELL);
        const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        await child.close();
        if (i > 0) baseline.push(elapsed);
      }
    }
  }
  return { ours: summarize(ours), baseline: summarize(baseline) };
}

async function clicks(host, manager, iterations) {
  const server = await clickPageServer();
  const raw = await rawCdp(await manager.endpoint());
  const { targetInfos } = await raw.send('Target.getTargets');
  const launchTab = targetInfos.find((target) => target.type === 'page').targetId;
  // A tab created without newWindow joins the most recently activated window, which is the launch
  // window here: the registry's own-window tabs are never activated.
  const hiddenTab = (await raw.send('Target.createTarget', HIDDEN_TAB)).targetId;
  // Attach order matters: a plain REPL brings its tab to the front of its window when it attaches,
  // so the hidden one attaches first and the foreground one takes the launch window's front last.
  const ownWindow = host.repl('own');
  check(await ownWindow.run(`await gotoUrl(${JSON.stringify(server.url)}); await waitForLoad();`));
  const hidden = createRepl({ browser: manager });
  await useTab(hidden, hiddenTab, server.url);
  const foreground = createRepl({ browser: manager });
  await useTab(foreground, launchTab, server.url);
  const visibility = async (repl) => check(await repl.run('repl.write(await js("document.visibilityState"))')).content[0].text;
  const states = [await visibility(foreground), await visibility(ownWindow), await visibility(hidden)];
  if (states.join() !== 'visible,visible,hidden') throw new Error(`unexpected tab visibility (foreground, own window, hidden): ${states}`);
  // Two interleaved pairs, each against the foreground tab: a slow (hidden) click right before
  // another tab's click would change that tab's frame timing and so the comparison.
  const clickCell = (repl) => () => repl.run('await click("#btn")').then(check);
  const [fg, own] = await interleaved(iterations, 3, [clickCell(foreground), clickCell(ownWindow)]);
  const [fgAgain, hiddenClick] = await interleaved(Math.ceil(iterations / 3), 3, [clickCell(foreground), clickCell(hidden)]);
  const expected = { foreground: iterations + Math.ceil(iterations / 3) + 6, ownWindow: iterations + 3, hidden: Math.ceil(iterations / 3) + 3 };
  for (const [name, repl] of Object.entries({ foreground, ownWindow, hidden })) {
    const presses = Number(check(await repl.run('repl.write(String(await js("window.presses")))')).content[0].text);
    if (presses !== expected[name]) throw new Error(`expected ${expected[name]} clicks in the ${name} tab, the page counted ${presses}`);
  }
  await Promise.all([foreground.close(), host.deleteRepl('own'), hidden.close()]);
  raw.close();
  await server.close();
  return { fg, own, fgAgain, hiddenTab: hiddenClick };
}

export async function run({ quick }) {
  const manager = new BrowserManager();
  const host = new Browser({ browser: manager });
  try {
    const memory = await idleMemory(host);
    const first = await firstCells(host, quick ? 5 : 15);
    const click = await clicks(host, manager, quick ? 15 : 60);
    const MiB = 2 ** 20;
    return {
      title: 'Named REPLs (issue 8)',
      baselineName: 'child-process REPL (same runtime, `child_process.fork`, IPC) for the first two rows; the same click in the default REPL\'s foreground tab for the click rows',
      rows: [
        { name: `memory per idle named REPL (RSS growth over ${IDLE_REPLS}; the host's one warm spare included)`, unit: 'mean', format: 'MiB', ours: memory.ours / MiB, baseline: memory.baseline / MiB, target: { ratio: 0.4 } },
        { name: 'new named REPL, first cell (creation → first result)', unit: 'p50', ours: first.ours.p50, baseline: first.baseline.p50, target: { ratio: 0.6 } },
        { name: 'click("#btn") in a background named REPL\'s tab (own window), cross-site iframe on the page', unit: 'p50', ours: click.own.p50, baseline: click.fg.p50, target: { ratio: 1.3 } },
        { name: 'same, tab created `background: true` in the launch window (hidden)', unit: 'p50', ours: click.hiddenTab.p50, baseline: click.fgAgain.p50 },
      ],
      notes: [
        `Memory: ${IDLE_REPLS} named REPLs of one host each ran \`${CELL}\` and then stayed idle for 3 s; the row is the growth of this`,
        'process\'s RSS divided by the count, as the product ships: the host keeps one warm spare for all its REPLs (included).',
        `The baseline is ${IDLE_REPLS} child processes that ran the same cell: the sum of their RSS plus this process's growth, divided by the count.`,
        'Each named REPL\'s tab comes from the host\'s tab registry: the active tab of a window of its own, so it stays visible.',
        'A tab created `background: true` in the launch window is hidden: it produces no animation frames, and the',
        'click\'s stability check falls back to its 100 ms timer (last row). Each click row is interleaved call by call with the',
        'foreground tab\'s click, in two separate pairs: a 100 ms hidden-tab click right before the foreground one changes the',
        'foreground tab\'s frame timing (its next animation frame comes at once) and would flatter the baseline.',
      ],
    };
  } finally {
    await host.close();
    await manager.close();
  }
}
