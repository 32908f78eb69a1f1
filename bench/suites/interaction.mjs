// Issue 4: the interaction helpers against their baselines, on the same page of the same Chromium
// in the same run:
// - `await click("#btn")` as a whole REPL call over the library (createRepl().run) vs
//   playwright-core `page.locator("#btn").click()` over connectOverCDP, on the same button;
// - `await fillInput("#field", <20 characters>)` as a whole REPL call vs the raw key-event floor:
//   20 × Input.dispatchKeyEvent keyDown (with text) + keyUp, each awaited, sent over a WebSocket
//   and session the benchmark opens itself (the field is focused and emptied beforehand, untimed).
//   The same 40 events pipelined are shown too, as the absolute floor.
// Samples alternate between the measures, so drift in the machine's load hits all of them alike.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { createRepl } from '../../dist/lib/index.js';
import { rawCdp } from '../raw-cdp.mjs';
import { summarize } from '../stats.mjs';

const TEXT = 'abcdefghijklmnopqrst';
const PAGE = `<!doctype html><html><head><title>interaction bench</title></head>
<body style="margin:0;font:16px sans-serif">
<h1>Interaction benchmark</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(10)}
<button id="btn" style="padding:8px 16px">Press</button>
<input id="field" autocomplete="off" style="width:300px">
<script>window.presses = 0; document.getElementById('btn').addEventListener('click', () => window.presses++);</script>
</body></html>`;

async function pageServer() {
  const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The two events that type one lower-case letter, as a raw client would send them. */
function keyPair(character) {
  const code = `Key${character.toUpperCase()}`;
  const keyCode = character.toUpperCase().charCodeAt(0);
  const base = { key: character, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  return [{ type: 'keyDown', text: character, unmodifiedText: character, ...base }, { type: 'keyUp', ...base }];
}
const KEY_EVENTS = [...TEXT].flatMap(keyPair);

function check(result) {
  if (!result.success) throw new Error(`bench cell failed: ${result.error}`);
  return result;
}

/** Runs each measure in turn per iteration; `prepare[m]` runs untimed before measure m. */
async function interleaved(iterations, warmup, measures, prepare = []) {
  const times = measures.map(() => []);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let m = 0; m < measures.length; m++) {
      await prepare[m]?.();
      const start = process.hrtime.bigint();
      await measures[m]();
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= warmup) times[m].push(elapsed);
    }
  }
  return times.map(summarize);
}

export async function run({ quick }) {
  const clickIterations = quick ? 40 : 300;
  const fillIterations = quick ? 20 : 150;
  const site = await pageServer();
  const repl = createRepl();
  check(await repl.run(`await gotoUrl(${JSON.stringify(site.url)}); await waitForLoad();`));
  const targetId = check(await repl.run('repl.write((await currentTab()).targetId)')).content[0].text;
  const endpoint = await repl.browser.endpoint();

  const raw = await rawCdp(endpoint);
  const { sessionId } = await raw.send('Target.attachToTarget', { targetId, flatten: true });
  const browser = await chromium.connectOverCDP(endpoint);
  const page = browser.contexts().flatMap((context) => context.pages()).find((candidate) => candidate.url() === site.url);
  if (page === undefined) throw new Error('Playwright does not see the bench page');
  const button = page.locator('#btn');

  const [clickOurs, clickPlaywright] = await interleaved(clickIterations, 10, [
    () => repl.run('await click("#btn")').then(check),
    () => button.click(),
  ]);
  const presses = await page.evaluate('window.presses');
  if (presses !== (clickIterations + 10) * 2) throw new Error(`expected ${(clickIterations + 10) * 2} clicks, the page counted ${presses}`);

  const fillCell = `await fillInput("#field", ${JSON.stringify(TEXT)})`;
  const focusAndClear = () => raw.send('Runtime.evaluate', { expression: 'document.getElementById("field").value = ""; document.getElementById("field").focus()' }, sessionId);
  const [fillOurs, floor, pipelinedFloor] = await interleaved(fillIterations, 5, [
    () => repl.run(fillCell).then(check),
    async () => {
      for (const event of KEY_EVENTS) await raw.send('Input.dispatchKeyEvent', event, sessionId);
    },
    () => Promise.all(KEY_EVENTS.map((event) => raw.send('Input.dispatchKeyEvent', event, sessionId))),
  ], [undefined, focusAndClear, focusAndClear]);
  const typed = await page.evaluate('document.getElementById("field").value');
  if (typed !== TEXT) throw new Error(`the pipelined floor typed ${JSON.stringify(typed)}`);
  check(await repl.run(fillCell));
  if ((await page.evaluate('document.getElementById("field").value')) !== TEXT) throw new Error('fillInput did not type the text');

  await browser.close();
  raw.close();
  await repl.close();
  await site.close();
  return [
    {
      title: 'Interaction helpers (issue 4): click vs Playwright',
      baselineName: 'playwright-core `page.locator("#btn").click()` over `connectOverCDP`, same button of the same page',
      rows: [
        { name: 'click("#btn"), whole REPL call (library)', unit: 'p50', ours: clickOurs.p50, baseline: clickPlaywright.p50, target: { ratio: 0.6 } },
        { name: 'click("#btn"), whole REPL call (library)', unit: 'p99', ours: clickOurs.p99, baseline: clickPlaywright.p99 },
      ],
    },
    {
      title: 'Interaction helpers (issue 4): fillInput vs raw key events',
      baselineName: `raw CDP key-event floor: 20 × \`Input.dispatchKeyEvent\` keyDown (with text) + keyUp, each awaited, on the benchmark's own WebSocket and session, into the focused field`,
      rows: [
        { name: `fillInput("#field", 20 characters), whole REPL call (library)`, unit: 'p50', ours: fillOurs.p50, baseline: floor.p50, target: { ratio: 1.2 } },
        { name: `fillInput("#field", 20 characters), whole REPL call (library)`, unit: 'p99', ours: fillOurs.p99, baseline: floor.p99 },
        { name: 'fillInput vs the same 40 events pipelined (absolute floor)', unit: 'p50', ours: fillOurs.p50, baseline: pipelinedFloor.p50 },
      ],
      notes: [
        'fillInput does more than the floor in the same call: it finds, checks, focuses and clears the field (select all + Backspace),',
        'types the 20 key presses (pipelined: sent without waiting for each acknowledgement) and fires change.',
      ],
    },
  ];
}
