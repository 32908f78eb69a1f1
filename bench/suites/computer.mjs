// Issue 30 part 1: the computer controls (docs/computer.md) measured on loopback, through the real
// server and the Kernel SDK unchanged:
// - `client.browsers.computer.clickMouse` at a button's centre (one HTTP request: lock, tab
//   lookup, move + press + release, each acknowledged by the renderer) vs the REPL's
//   `await click("#btn")` cell over HTTP (`POST /browsers/{id}/repl`) on the same button;
// - one `batch` of 100 `move_mouse` actions vs the same 100 moves as 100 `moveMouse` calls.
// Samples alternate between the two measures of a pair, so drift in the machine's load hits both.
// The page counts the clicks and moves, and the totals are checked, so no measure can be a no-op.
import { createServer } from 'node:http';
import { once } from 'node:events';
import Kernel from '@onkernel/sdk';
import { startServer } from '../../dist/lib/index.js';
import { interleaved } from '../bench-page.mjs';

const PAGE = `<!doctype html><html><head><title>computer bench</title></head>
<body style="margin:0;font:16px sans-serif">
<button id="btn" style="position:fixed;left:40px;top:40px;width:200px;height:60px">Press</button>
<script>
  window.clicks = 0; window.moves = 0;
  document.getElementById('btn').addEventListener('click', () => window.clicks++);
  document.addEventListener('mousemove', () => window.moves++);
</script>
</body></html>`;
const BUTTON = { x: 140, y: 70 };
const MOVES = 100;

export async function run({ quick }) {
  const clickIterations = quick ? 20 : 200;
  const batchIterations = quick ? 5 : 40;
  const pages = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  const pageUrl = `http://127.0.0.1:${pages.address().port}/`;
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined });
  const kernel = new Kernel({ apiKey: 'unused', baseURL: server.url, maxRetries: 0 });
  const computer = kernel.browsers.computer;
  const { session_id: id } = await kernel.browsers.create({ viewport: { width: 800, height: 600 } });
  const cell = async (code) => {
    const response = await fetch(`${server.url}/browsers/${id}/repl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, timeout_sec: 30 }) });
    const result = await response.json();
    if (result.success !== true) throw new Error(`bench cell failed: ${result.error}`);
    return result;
  };
  const counter = async (name) => Number((await cell(`repl.write(String(await js("window.${name}")))`)).content.find((item) => item.channel === 'write').text);
  try {
    await cell(`await gotoUrl(${JSON.stringify(pageUrl)}, { waitUntil: "load" })`);

    const [sdkClick, replClick] = await interleaved(clickIterations, 5, [
      () => computer.clickMouse(id, BUTTON),
      () => cell('await click("#btn")'),
    ]);
    const clicks = await counter('clicks');
    if (clicks !== (clickIterations + 5) * 2) throw new Error(`expected ${(clickIterations + 5) * 2} clicks, the page counted ${clicks}`);

    // 100 distinct points (each a real move), the same for both measures.
    const points = Array.from({ length: MOVES }, (_, i) => ({ x: 300 + (i % 20) * 10, y: 200 + Math.floor(i / 20) * 10 }));
    const movesBefore = await counter('moves');
    const [batch, singles] = await interleaved(batchIterations, 2, [
      () => computer.batch(id, { actions: points.map((point) => ({ type: 'move_mouse', move_mouse: point })) }),
      async () => {
        for (const point of points) await computer.moveMouse(id, point);
      },
    ]);
    const moves = (await counter('moves')) - movesBefore;
    if (moves < (batchIterations + 2) * 2 * MOVES) throw new Error(`expected at least ${(batchIterations + 2) * 2 * MOVES} mouse moves, the page counted ${moves}`);

    return [
      {
        title: 'Computer controls (issue 30): clickMouse vs the REPL\'s click',
        baselineName: 'the REPL\'s `await click("#btn")` cell over HTTP (`POST /browsers/{id}/repl`), same button, samples alternating',
        rows: [
          { name: '`computer.clickMouse` at the button (Kernel SDK, loopback)', unit: 'p50', ours: sdkClick.p50, baseline: replClick.p50 },
          { name: '`computer.clickMouse` at the button (Kernel SDK, loopback)', unit: 'p99', ours: sdkClick.p99, baseline: replClick.p99 },
        ],
        notes: [
          'clickMouse sends coordinates only; click("#btn") also finds the element and checks that it is actionable.',
        ],
      },
      {
        title: 'Computer controls (issue 30): a 100-action batch vs 100 calls',
        baselineName: '100 `computer.moveMouse` calls, one after another (Kernel SDK, loopback), samples alternating',
        rows: [
          { name: '`computer.batch` of 100 `move_mouse` actions', unit: 'p50', ours: batch.p50, baseline: singles.p50 },
          { name: '`computer.batch` of 100 `move_mouse` actions', unit: 'p99', ours: batch.p99, baseline: singles.p99 },
        ],
      },
    ];
  } finally {
    await kernel.browsers.deleteByID(id).catch(() => undefined);
    await server.close();
    await new Promise((resolve) => pages.close(resolve));
  }
}
