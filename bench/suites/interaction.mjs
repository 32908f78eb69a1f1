// Issue 4: the interaction helpers against their baselines, on the same page of the same Chromium
// in the same run:
// - `await click("#btn")` as a whole REPL call over the library (createRepl().run) vs
//   playwright-core `page.locator("#btn").click()` over connectOverCDP, on the same button;
// - `await click({role: "button", name: "Press"})` (issue 9: the role and name are computed in
//   the page, inside the one probe call) vs `await click("#btn")`, the same button again, as a
//   pair interleaved on its own: whichever REPL click follows Playwright's is about 2 ms slower
//   (measured both ways round), which would bias a three-way rotation;
// - `await fillInput("#field", <20 characters>)` as a whole REPL call vs the raw key-event floor:
//   20 × Input.dispatchKeyEvent keyDown (with text) + keyUp, each awaited, sent over a WebSocket
//   and session the benchmark opens itself (the field is focused and emptied beforehand, untimed).
//   The same 40 events pipelined are shown too, as the absolute floor.
// Samples alternate between the measures, so drift in the machine's load hits all of them alike.
import { check, interleaved, openBenchPage } from '../bench-page.mjs';

const TEXT = 'abcdefghijklmnopqrst';
const PAGE = `<!doctype html><html><head><title>interaction bench</title></head>
<body style="margin:0;font:16px sans-serif">
<h1>Interaction benchmark</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(10)}
<button id="btn" style="padding:8px 16px">Press</button>
<input id="field" autocomplete="off" style="width:300px">
<script>window.presses = 0; document.getElementById('btn').addEventListener('click', () => window.presses++);</script>
</body></html>`;

/** The two events that type one lower-case letter, as a raw client would send them. */
function keyPair(character) {
  const code = `Key${character.toUpperCase()}`;
  const keyCode = character.toUpperCase().charCodeAt(0);
  const base = { key: character, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  return [{ type: 'keyDown', text: character, unmodifiedText: character, ...base }, { type: 'keyUp', ...base }];
}
const KEY_EVENTS = [...TEXT].flatMap(keyPair);

export async function run({ quick }) {
  const clickIterations = quick ? 40 : 300;
  const fillIterations = quick ? 20 : 150;
  const bench = await openBenchPage(PAGE);
  const { repl, raw, sessionId, page } = bench;
  const button = page.locator('#btn');

  const clickBySelector = () => repl.run('await click("#btn")').then(check);
  const [clickOurs, clickPlaywright] = await interleaved(clickIterations, 10, [clickBySelector, () => button.click()]);
  const [clickCss, clickByRole] = await interleaved(clickIterations, 10, [
    clickBySelector,
    () => repl.run('await click({ role: "button", name: "Press" })').then(check),
  ]);
  const presses = await page.evaluate('window.presses');
  if (presses !== (clickIterations + 10) * 4) throw new Error(`expected ${(clickIterations + 10) * 4} clicks, the page counted ${presses}`);

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

  await bench.close();
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
      title: 'Interaction helpers (issue 9): click by role and name vs by selector',
      baselineName: '`click("#btn")` as a whole REPL call (library), same button of the same page, the two interleaved with each other',
      rows: [
        { name: 'click({role: "button", name: "Press"}), whole REPL call (library)', unit: 'p50', ours: clickByRole.p50, baseline: clickCss.p50, target: { ratio: 1.2 } },
        { name: 'click({role: "button", name: "Press"}), whole REPL call (library)', unit: 'p99', ours: clickByRole.p99, baseline: clickCss.p99 },
      ],
      notes: [
        'The role and accessible name are computed page-side inside the same single probe call as a selector\'s match',
        '(`Accessibility.queryAXTree` would add a call of its own, about 17 ms on a small page).',
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
