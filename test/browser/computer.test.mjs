// Computer controls (docs/computer.md) through @onkernel/sdk unchanged, on a real headless
// Chromium: each call's effect is checked in the page by a cell (POST /repl), never by timing.
// Clicks, moves, typing, key combinations, the wheel, a drag, the clipboard (write → read, paste,
// copy), screenshots (viewport and region, the cursor drawn when shown), a batch that stops at its
// first failure, and bad input answered 400 naming the field.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-computer';
const auth = { authorization: `Bearer ${TOKEN}` };
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } } });
// No automatic retries: a test must see each answer as it is.
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });
const VIEWPORT = { width: 900, height: 640 };
const created = await kernel.browsers.create({ viewport: VIEWPORT });
const id = created.session_id;
const computer = kernel.browsers.computer;

/** Runs a cell in the browser; returns the JSON it wrote. */
async function cell(code) {
  const answer = await api.call('POST', `/browsers/${id}/repl`, { code, timeout_sec: 30 }, { headers: auth });
  if (answer.status !== 200 || answer.json?.success !== true) throw new Error(`cell failed (${answer.status}): ${answer.text}`);
  const written = answer.json.content.find((item) => item.channel === 'write');
  return written === undefined ? undefined : JSON.parse(written.text);
}
const page = (expression) => cell(`repl.write(JSON.stringify(await js(${JSON.stringify(expression)})))`);

/** Polls `check` (≤ 30 s, for a loaded machine) until it returns something truthy; returns the last value. */
async function until(check) {
  const deadline = Date.now() + 30_000;
  let value = await check();
  while (!value && Date.now() < deadline) {
    await sleep(50);
    value = await check();
  }
  return value;
}

/** The centre of the element `selector`, in viewport CSS pixels. */
async function centreOf(selector) {
  return page(`(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; })()`);
}

/** A fresh copy of the fixture page, scrolled to the top, nothing focused. */
async function freshPage() {
  await cell(`await gotoUrl(${JSON.stringify(fixtures.url("computer.html"))}, { waitUntil: "load" }); repl.write("true")`);
  t.equal(await page('document.title'), 'Order a coffee');
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes) {
  const buffer = Buffer.from(bytes);
  if (buffer.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

/** Rejects with the SDK's error; returns it. */
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

await freshPage();

t.test('click_mouse at a button clicks it, where it was asked', async (t) => {
  const at = await centreOf('#order-button');
  await computer.clickMouse(id, { x: at.x, y: at.y });
  t.equal(await page('document.getElementById("status").textContent'), 'Order placed (1).');
  t.same(await page('window.lastClick'), { x: at.x, y: at.y, detail: 1, shiftKey: false, trusted: true });
  // A double click: two clicks, the second with detail 2.
  await computer.clickMouse(id, { x: at.x, y: at.y, num_clicks: 2 });
  t.same(await page('[window.orders, window.lastClick.detail]'), [3, 2]);
  // Held keys reach the click as modifiers, and are released after it.
  await computer.clickMouse(id, { x: at.x, y: at.y, hold_keys: ['shift'] });
  t.same(await page('[window.orders, window.lastClick.shiftKey]'), [4, true]);
  await computer.clickMouse(id, { x: at.x, y: at.y });
  t.same(await page('[window.orders, window.lastClick.shiftKey]'), [5, false], 'shift was released');
  // Down and up apart: the click happens on the release.
  await computer.clickMouse(id, { x: at.x, y: at.y, click_type: 'down' });
  t.equal(await page('window.orders'), 5, 'a press alone is no click');
  await computer.clickMouse(id, { x: at.x, y: at.y, click_type: 'up' });
  t.equal(await page('window.orders'), 6, 'the release completes it');
  t.same(await computer.getMousePosition(id), at, 'a click leaves the mouse where it clicked');
});

t.test('move_mouse moves the mouse; get_mouse_position answers where it went', async (t) => {
  await computer.moveMouse(id, { x: 123, y: 234 });
  t.same(await computer.getMousePosition(id), { x: 123, y: 234 });
  t.same(await page('window.lastMove'), { x: 123, y: 234 });
  await computer.moveMouse(id, { x: 300, y: 100, smooth: true, duration_ms: 50 });
  t.same(await computer.getMousePosition(id), { x: 300, y: 100 });
  t.same(await page('window.lastMove'), { x: 300, y: 100 }, 'a smooth move ends where it was sent');
});

t.test('type lands in the focused field; press_key combinations edit it', async (t) => {
  const at = await centreOf('#note');
  await computer.clickMouse(id, { x: at.x, y: at.y });
  t.equal(await page('document.activeElement.id'), 'note');
  await computer.typeText(id, { text: 'Oat milk, 2 sugars! Café' });
  t.equal(await page('document.getElementById("note").value'), 'Oat milk, 2 sugars! Café');
  await computer.pressKey(id, { keys: ['ctrl+a', 'BackSpace'] });
  t.equal(await page('document.getElementById("note").value'), '', 'ctrl+a then BackSpace cleared the field');
  await computer.typeText(id, { text: 'ab', delay: 5 });
  await computer.pressKey(id, { keys: ['Left', 'shift+x', 'End', 'Return'] });
  t.equal(await page('document.getElementById("note").value'), 'aXb');
  const error = await failure(computer.pressKey(id, { keys: ['Return', 'ctrl+NoSuchKey'] }));
  t.equal(error.status, 400);
  t.match(error.message, /keys\[1\].*NoSuchKey/, 'the message names the field and the key');
});

t.test('scroll turns the wheel: the page moves', async (t) => {
  t.equal(await page('scrollY'), 0);
  await computer.scroll(id, { x: 400, y: 300, delta_y: 3 });
  t.ok(await until(async () => (await page('scrollY')) > 0), 'the page scrolled down');
  await computer.scroll(id, { x: 400, y: 300, delta_y: -10 });
  t.ok(await until(async () => (await page('scrollY')) === 0), 'and back up');
});

t.test('drag_mouse moves a draggable', async (t) => {
  const before = await page('(() => { const r = document.getElementById("cup").getBoundingClientRect(); return { x: r.x, y: r.y }; })()');
  const at = await centreOf('#cup');
  await computer.dragMouse(id, { path: [[at.x, at.y], [at.x + 100, at.y + 10], [at.x + 200, at.y + 20]] });
  const after = await page('(() => { const r = document.getElementById("cup").getBoundingClientRect(); return { x: r.x, y: r.y }; })()');
  t.same(after, { x: before.x + 200, y: before.y + 20 }, 'the cup moved by the drag');
  t.same(await computer.getMousePosition(id), { x: at.x + 200, y: at.y + 20 });
});

t.test('clipboard: write → read, paste with ctrl+v, copy with ctrl+c', async (t) => {
  await computer.writeClipboard(id, { text: 'Table 7' });
  t.same(await computer.readClipboard(id), { text: 'Table 7' });
  const at = await centreOf('#note');
  await computer.clickMouse(id, { x: at.x, y: at.y });
  await computer.pressKey(id, { keys: ['ctrl+a', 'Delete', 'ctrl+v'] });
  t.equal(await page('document.getElementById("note").value'), 'Table 7', 'ctrl+v typed the clipboard');
  const name = await centreOf('#name');
  await computer.clickMouse(id, { x: name.x, y: name.y });
  await computer.pressKey(id, { keys: ['ctrl+a', 'ctrl+c'] });
  t.same(await computer.readClipboard(id), { text: 'Ada Lovelace' }, 'ctrl+c copied the selection');
});

t.test('screenshot: a PNG of the viewport, or of a region; the cursor is drawn when shown', async (t) => {
  const full = await (await computer.captureScreenshot(id)).arrayBuffer();
  const viewport = await page('({ width: innerWidth, height: innerHeight })');
  t.same(pngSize(full), viewport, 'the viewport size');
  t.same(viewport, VIEWPORT);
  const region = await (await computer.captureScreenshot(id, { region: { x: 10, y: 20, width: 120, height: 80 } })).arrayBuffer();
  t.same(pngSize(region), { width: 120, height: 80 }, 'the region size');

  // The same blank corner of the page, without and with the cursor over it.
  await computer.moveMouse(id, { x: 820, y: 560 });
  const box = { region: { x: 810, y: 550, width: 40, height: 40 } };
  const hidden = Buffer.from(await (await computer.captureScreenshot(id, box)).arrayBuffer());
  t.same(await computer.setCursorVisibility(id, { hidden: false }), { ok: true });
  const shown = Buffer.from(await (await computer.captureScreenshot(id, box)).arrayBuffer());
  await computer.setCursorVisibility(id, { hidden: true });
  const hiddenAgain = Buffer.from(await (await computer.captureScreenshot(id, box)).arrayBuffer());
  t.notOk(shown.equals(hidden), 'the cursor changed the picture');
  t.ok(hiddenAgain.equals(hidden), 'hidden again: the same picture as before');
  t.equal(await page('document.getElementById("__browser_repl_computer_cursor__")'), null, 'the drawn cursor is removed after the capture');
});

t.test('batch runs in order and stops at its first failure', async (t) => {
  await freshPage();
  const at = await centreOf('#note');
  await computer.batch(id, { actions: [
    { type: 'click_mouse', click_mouse: { x: at.x, y: at.y } },
    { type: 'type_text', type_text: { text: 'one' } },
    { type: 'sleep', sleep: { duration_ms: 1 } },
    { type: 'press_key', press_key: { keys: ['space'] } },
    { type: 'type_text', type_text: { text: 'two' } },
  ] });
  t.equal(await page('document.getElementById("note").value'), 'one two');
  const error = await failure(computer.batch(id, { actions: [
    { type: 'type_text', type_text: { text: '!' } },
    { type: 'press_key', press_key: { keys: ['NoSuchKey'] } },
    { type: 'type_text', type_text: { text: 'never' } },
  ] }));
  t.equal(error.status, 400);
  t.match(error.message, /actions\[1\] \(press_key\)/, 'the answer names the action that failed');
  t.equal(await page('document.getElementById("note").value'), 'one two!', 'actions after the failure were not run');
  const missing = await failure(computer.batch(id, { actions: [{ type: 'click_mouse' }] }));
  t.equal(missing.status, 400);
  t.match(missing.message, /actions\[0\].*click_mouse/);
});

t.test('the input lock: a call sent during a batch waits for the whole batch', async (t) => {
  await freshPage();
  const at = await centreOf('#note');
  const batch = computer.batch(id, { actions: [
    { type: 'click_mouse', click_mouse: { x: at.x, y: at.y } },
    { type: 'type_text', type_text: { text: 'one' } },
    { type: 'sleep', sleep: { duration_ms: 2000 } },
    { type: 'type_text', type_text: { text: 'two' } },
  ] });
  // The batch is in its sleep once the first text is there: a call now must not land in between.
  t.ok(await until(async () => (await page('document.getElementById("note").value')) === 'one'));
  await computer.typeText(id, { text: 'Z' });
  await batch;
  t.equal(await page('document.getElementById("note").value'), 'onetwoZ', 'not interleaved');
});

t.test('bad input: 400 naming the field, and the server lives on', async (t) => {
  await computer.moveMouse(id, { x: 820, y: 560 });
  const cases = [
    [computer.clickMouse(id, { x: -1, y: 10 }), /\bx must be >= 0/],
    [computer.clickMouse(id, { x: 1, y: 10, button: 'thumb' }), /button must/],
    [computer.moveMouse(id, { x: 1 }), /\by is required/],
    [computer.dragMouse(id, { path: [[1, 2]] }), /path must/],
    [computer.typeText(id, { text: 5 }), /text must/],
    [computer.pressKey(id, { keys: [] }), /keys must/],
    [computer.scroll(id, { x: 1, y: 1, delta_y: 'down' }), /delta_y must/],
    [computer.captureScreenshot(id, { region: { x: 0, y: 0, width: 0, height: 5 } }), /region\.width must/],
    [computer.setCursorVisibility(id, { hidden: 'yes' }), /hidden must/],
    [computer.writeClipboard(id, {}), /text is required/],
  ];
  for (const [promise, field] of cases) {
    const error = await failure(promise);
    t.equal(error.status, 400, String(field));
    t.match(error.message, field);
  }
  t.same(await computer.getMousePosition(id), { x: 820, y: 560 }, 'refused moves left the mouse where it was');
  t.equal(await page('1 + 1'), 2, 'the browser still answers');
});

t.test('an unknown browser is 404', async (t) => {
  const error = await failure(computer.clickMouse('no-such-browser', { x: 1, y: 1 }));
  t.equal(error.status, 404);
});

t.teardown(() => kernel.browsers.deleteByID(id).catch(() => undefined));
