// Issue 29: the live view (docs/live-view.md) measured on loopback, through the real server:
// - input → frame: a viewer's click (one `mouse` message on the live view's WebSocket) until the
//   first frame that shows its effect arrives at the viewer (the page swaps its colour and text on
//   every click, and Chromium sends screencast frames only on change, so the next frame after the
//   click is the changed one; its bytes are checked to differ from the frame before). Target: p50
//   ≤ 100 ms. Shown beside it, as the floor: the same two `Input.dispatchMouseEvent` commands sent
//   by a raw CDP client of the same tab, until the page's own handler ran (a `Runtime.evaluate`
//   reading its counter), with no frame in the loop.
// - the REPL's `await click("#btn")` over HTTP (`POST /browsers/{id}/repl`) while one viewer
//   watches vs while nobody does: blocks of samples alternate between the two, so drift hits both
//   alike. Target: watched ≤ 1.15× unwatched.
import { createServer } from 'node:http';
import { once } from 'node:events';
import WebSocket from 'ws';
import { request } from 'undici';
import { startServer } from '../../dist/lib/index.js';
import { rawCdp } from '../raw-cdp.mjs';
import { summarize } from '../stats.mjs';

const PAGE = `<!doctype html><html><head><title>live view bench</title></head>
<body style="margin:0;font:24px sans-serif">
<div id="panel" style="position:fixed;inset:0;background:#1565c0;color:#fff;padding:40px">clicks: <span id="count">0</span></div>
<button id="btn" style="position:fixed;left:40px;top:120px;width:200px;height:60px">Press</button>
<script>
  window.clicks = 0;
  const colours = ['#1565c0', '#c62828'];
  document.getElementById('btn').addEventListener('click', () => {
    window.clicks++;
    document.getElementById('count').textContent = String(window.clicks);
    document.getElementById('panel').style.background = colours[window.clicks % 2];
  });
</script>
</body></html>`;
/** The button's centre, in the page's CSS pixels (what the viewer's input messages carry). */
const BUTTON = { x: 140, y: 150 };

/** A viewer on the live view's WebSocket: the frames it got, and a way to wait for the next one. */
async function openViewer(liveViewUrl) {
  const url = new URL(liveViewUrl);
  url.protocol = 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/ws`;
  const socket = new WebSocket(url.href);
  let lastFrame;
  let waiting;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.type !== 'frame') return;
    lastFrame = message.data;
    if (waiting !== undefined && message.data !== waiting.after) {
      const { resolve } = waiting;
      waiting = undefined;
      resolve(message.data);
    }
  });
  await once(socket, 'open');
  return {
    get lastFrame() { return lastFrame; },
    /** The next frame whose bytes differ from `after`. */
    nextFrame(after) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no changed frame within 10 s')), 10_000);
        waiting = { after, resolve: (data) => { clearTimeout(timer); resolve(data); } };
      });
    },
    send(message) { socket.send(JSON.stringify(message)); },
    async close() {
      socket.close();
      await once(socket, 'close');
    },
  };
}

async function until(check, what) {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function run({ quick }) {
  const inputIterations = quick ? 20 : 150;
  const clickBlocks = quick ? 4 : 10;
  const clickBlock = quick ? 10 : 30;
  const pages = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  const pageUrl = `http://127.0.0.1:${pages.address().port}/`;
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined });
  const call = async (method, path, body) => {
    const response = await request(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await response.body.json();
    if (response.statusCode !== 200) throw new Error(`${method} ${path} answered ${response.statusCode}: ${JSON.stringify(json)}`);
    return json;
  };
  const browser = await call('POST', '/browsers', { start_url: pageUrl, viewport: { width: 800, height: 600 } });
  const cell = async (code) => {
    const result = await call('POST', `/browsers/${browser.session_id}/repl`, { code, timeout_sec: 30 });
    if (result.success !== true) throw new Error(`bench cell failed: ${result.error}`);
    return result;
  };
  // The default REPL's tab (the one the live view shows) loads the page.
  await cell(`await gotoUrl(${JSON.stringify(pageUrl)}); await waitForLoad();`);
  const clicks = async () => Number((await cell('repl.write(String(await js("window.clicks")))')).content.find((item) => item.channel === 'write').text);

  // --- input → frame -----------------------------------------------------------------------
  const viewer = await openViewer(browser.browser_live_view_url);
  await until(() => viewer.lastFrame !== undefined, 'the first frame');
  const inputTimes = [];
  for (let i = 0; i < inputIterations + 10; i++) {
    const before = viewer.lastFrame;
    const changed = viewer.nextFrame(before);
    const start = process.hrtime.bigint();
    viewer.send({ type: 'mouse', event: 'click', x: BUTTON.x, y: BUTTON.y });
    await changed;
    if (i >= 10) inputTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
    // Let the screencast settle (a repaint may follow the first changed frame).
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  const viewedClicks = await clicks();
  if (viewedClicks !== inputIterations + 10) throw new Error(`the viewer sent ${inputIterations + 10} clicks, the page counted ${viewedClicks}`);

  // The floor: the same click from a raw CDP client of the same tab, until the handler ran.
  const endpoint = (await call('GET', `/browsers/${browser.session_id}`)).cdp_ws_url;
  const raw = await rawCdp(endpoint);
  const { targetInfos } = await raw.send('Target.getTargets');
  const tab = targetInfos.find((info) => info.type === 'page' && info.url === pageUrl);
  const { sessionId } = await raw.send('Target.attachToTarget', { targetId: tab.targetId, flatten: true });
  const floorTimes = [];
  for (let i = 0; i < inputIterations + 10; i++) {
    const base = { x: BUTTON.x, y: BUTTON.y, button: 'left', clickCount: 1 };
    const expected = viewedClicks + i + 1;
    const start = process.hrtime.bigint();
    await raw.send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed' }, sessionId);
    await raw.send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased' }, sessionId);
    const { result } = await raw.send('Runtime.evaluate', { expression: 'window.clicks', returnByValue: true }, sessionId);
    if (result.value !== expected) throw new Error(`raw click ${i}: the page counted ${result.value}, expected ${expected}`);
    if (i >= 10) floorTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  raw.close();
  await viewer.close();

  // --- click watched vs unwatched ------------------------------------------------------------
  const watched = [];
  const unwatched = [];
  const clickCell = 'await click("#btn")';
  for (let i = 0; i < 5; i++) await cell(clickCell);
  for (let block = 0; block < clickBlocks; block++) {
    const watching = block % 2 === 1;
    let blockViewer;
    if (watching) {
      blockViewer = await openViewer(browser.browser_live_view_url);
      await until(() => blockViewer.lastFrame !== undefined, 'the viewer\'s first frame');
    }
    for (let i = 0; i < clickBlock; i++) {
      const start = process.hrtime.bigint();
      await cell(clickCell);
      (watching ? watched : unwatched).push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    await blockViewer?.close();
  }

  await call('DELETE', `/browsers/${browser.session_id}`).catch(() => undefined);
  await server.close();
  await new Promise((resolve) => pages.close(resolve));
  const input = summarize(inputTimes);
  const floor = summarize(floorTimes);
  const watchedStats = summarize(watched);
  const unwatchedStats = summarize(unwatched);
  return [
    {
      title: 'Live view (issue 29): a viewer\'s click until the frame showing it',
      baselineName: 'the same click from a raw CDP client of the same tab (`Input.dispatchMouseEvent` pressed + released, then `Runtime.evaluate` reading the page\'s counter), no frame in the loop',
      rows: [
        { name: 'viewer click → changed frame at the viewer (WebSocket, loopback)', unit: 'p50', ours: input.p50, baseline: floor.p50, target: { absoluteMs: 100 } },
        { name: 'viewer click → changed frame at the viewer (WebSocket, loopback)', unit: 'p99', ours: input.p99, baseline: floor.p99 },
      ],
    },
    {
      title: 'Live view (issue 29): the REPL\'s click while a viewer watches',
      baselineName: 'the same `await click("#btn")` cell over HTTP (`POST /browsers/{id}/repl`) while nobody watches, blocks of samples alternating',
      rows: [
        { name: 'click("#btn") over HTTP, one viewer watching', unit: 'p50', ours: watchedStats.p50, baseline: unwatchedStats.p50, target: { ratio: 1.15 } },
        { name: 'click("#btn") over HTTP, one viewer watching', unit: 'p99', ours: watchedStats.p99, baseline: unwatchedStats.p99 },
      ],
    },
  ];
}
