#!/usr/bin/env node
// Issue 8 experiment: why is a click in a background tab slow on a page with a cross-site iframe,
// and what fixes it? Raw CDP on our own WebSocket, the same steps as the REPL's click helper
// (worker/helpers/interaction/click.ts): the actionability probe (CLICK_PROBE, awaitPromise),
// then mouseMoved/mousePressed/mouseReleased pipelined and all acknowledged, then a check that
// the page saw the click. Each variant is measured against the foreground tab of the same browser,
// interleaved click by click.
//
//   node bench/experiments/background-tab-click.mjs [--iterations 15] [--flags "--a --b"]
//
// Prints, per variant: p50 of the whole click, of the probe and of the input phase, and the
// ratio to the foreground tab.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { BrowserManager } from '../../dist/lib/index.js';
import { CLICK_PROBE } from '../../dist/worker/helpers/interaction/actionability-probe.js';
import { rawCdp } from '../raw-cdp.mjs';
import { summarize } from '../stats.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const iterations = Number(option('--iterations', 15));
const flags = option('--flags', '').split(' ').filter((flag) => flag !== '');
const only = option('--variants', '').split(',').filter((name) => name !== '');

/** A button on the top page and a cross-site iframe (127.0.0.1 vs localhost: another site). */
export function pageHtml(framePort) {
  return `<!doctype html><meta charset="utf-8"><title>bench click</title>
<button id="btn" style="margin: 40px; padding: 10px 20px">Click</button>
<iframe src="http://localhost:${framePort}/inner" width="400" height="200"></iframe>
<script>window.clicks = 0; document.getElementById('btn').addEventListener('click', () => { window.clicks++; });</script>`;
}

export async function startPageServer() {
  const server = createServer((request, response) => {
    const { port } = server.address();
    const body = request.url === '/inner'
      ? '<!doctype html><meta charset="utf-8"><p>cross-site frame</p><button>inner</button>'
      : pageHtml(port);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/** One real click on #btn in `sessionId`, timed by phase. */
export async function clickOnce(raw, sessionId) {
  const start = performance.now();
  const before = (await raw.send('Runtime.evaluate', { expression: 'window.clicks', returnByValue: true }, sessionId)).result.value;
  const probed = performance.now();
  const { result } = await raw.send('Runtime.evaluate', {
    expression: `(${CLICK_PROBE})("#btn", { force: false, position: null, recenter: false })`,
    awaitPromise: true,
    returnByValue: true,
  }, sessionId);
  if (result.value?.status !== 'ready') throw new Error(`probe: ${JSON.stringify(result.value)}`);
  const afterProbe = performance.now();
  const { x, y } = result.value;
  await Promise.all([
    raw.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none', buttons: 0, modifiers: 0 }, sessionId),
    raw.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1, modifiers: 0 }, sessionId),
    raw.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1, modifiers: 0 }, sessionId),
  ]);
  const afterInput = performance.now();
  const after = (await raw.send('Runtime.evaluate', { expression: 'window.clicks', returnByValue: true }, sessionId)).result.value;
  if (after !== before + 1) throw new Error(`the click did not register (${before} → ${after})`);
  return { total: performance.now() - start, probe: afterProbe - probed, input: afterInput - afterProbe };
}

/** Attaches to a tab the way the REPL's client does (flat session, the four domains) and loads the page. */
export async function openTab(raw, targetId, url) {
  const { sessionId } = await raw.send('Target.attachToTarget', { targetId, flatten: true });
  await Promise.all(['Page.enable', 'DOM.enable', 'Runtime.enable', 'Network.enable'].map((method) => raw.send(method, {}, sessionId)));
  await raw.send('Page.navigate', { url }, sessionId);
  for (let i = 0; i < 100; i++) {
    const { result } = await raw.send('Runtime.evaluate', { expression: 'document.readyState === "complete" && typeof window.clicks === "number" && document.querySelector("iframe").contentWindow !== null', returnByValue: true }, sessionId);
    if (result.value === true) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return sessionId;
}

const VARIANTS = {
  'background tab (createTarget background: true)': async (raw) => (await raw.send('Target.createTarget', { url: 'about:blank', background: true })).targetId,
  'background tab + Emulation.setFocusEmulationEnabled': async (raw) => (await raw.send('Target.createTarget', { url: 'about:blank', background: true })).targetId,
  'background tab + Page.setWebLifecycleState active': async (raw) => (await raw.send('Target.createTarget', { url: 'about:blank', background: true })).targetId,
  'own window (createTarget newWindow: true, background: true)': async (raw) => (await raw.send('Target.createTarget', { url: 'about:blank', newWindow: true, background: true })).targetId,
};
const AFTER_ATTACH = {
  'background tab + Emulation.setFocusEmulationEnabled': (raw, sessionId) => raw.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId),
  'background tab + Page.setWebLifecycleState active': (raw, sessionId) => raw.send('Page.setWebLifecycleState', { state: 'active' }, sessionId),
};

async function main() {
  const server = await startPageServer();
  const manager = new BrowserManager({ args: flags });
  const endpoint = await manager.endpoint();
  const raw = await rawCdp(endpoint);
  try {
    const { targetInfos } = await raw.send('Target.getTargets');
    const first = targetInfos.find((target) => target.type === 'page');
    const foreground = await openTab(raw, first.targetId, server.url);
    const tabs = [];
    for (const [name, create] of Object.entries(VARIANTS)) {
      if (only.length > 0 && !only.some((part) => name.includes(part))) continue;
      const sessionId = await openTab(raw, await create(raw), server.url);
      await AFTER_ATTACH[name]?.(raw, sessionId);
      tabs.push({ name, sessionId });
    }
    const visibility = async (sessionId) => (await raw.send('Runtime.evaluate', { expression: 'document.visibilityState + "/" + document.hasFocus()', returnByValue: true }, sessionId)).result.value;
    process.stdout.write(`flags: ${flags.join(' ') || '(none beyond the project\'s)'}\nforeground tab: ${await visibility(foreground)}\n`);
    const all = [{ name: 'foreground tab (the launch tab)', sessionId: foreground }, ...tabs];
    const times = all.map(() => ({ total: [], probe: [], input: [] }));
    for (let i = 0; i < iterations + 2; i++) {
      for (let k = 0; k < all.length; k++) {
        const m = (i + k) % all.length;
        const t = await clickOnce(raw, all[m].sessionId);
        if (i >= 2) for (const key of ['total', 'probe', 'input']) times[m][key].push(t[key]);
      }
    }
    const base = summarize(times[0].total).p50;
    for (let k = 0; k < all.length; k++) {
      const total = summarize(times[k].total).p50;
      process.stdout.write(`${all[k].name.padEnd(62)} [${await visibility(all[k].sessionId)}] click p50 ${total.toFixed(1)} ms `
        + `(probe ${summarize(times[k].probe).p50.toFixed(1)}, input ${summarize(times[k].input).p50.toFixed(1)}), ${(total / base).toFixed(2)}× foreground\n`);
    }
  } finally {
    raw.close();
    await manager.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
