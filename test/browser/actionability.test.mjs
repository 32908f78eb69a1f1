// click's actionability against a real headless Chromium, through POST /repl: hidden duplicates,
// ambiguous selectors, overlays (temporary and permanent), disabled and moving targets, shadow
// DOM, same-origin and cross-site iframes, and the click options. No assertion depends on timing.
import t from 'tap';
import { interactionApi } from '../helpers/interaction-api.mjs';

const page = await interactionApi(t);
const { ok, value, failure, open } = page;

/** Viewport centre of an element, read in the page (through same-origin frames and open shadow roots). */
const centreOf = (path) => `(() => { const r = ${path}.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })()`;

t.test('click', async (t) => {
  t.beforeEach(() => open('interaction-actions.html'));

  t.test('clicks the one visible match among hidden responsive duplicates, once', async (t) => {
    await ok(`await click('.action')`);
    t.same(await value(`js('clicks')`), { 'action-desktop': 1 });
    const events = await value(`js('events.filter((e) => e.type === "click")')`);
    t.equal(events.length, 1);
    t.equal(events[0].trusted, true, 'physical input, not a synthetic click()');
  });

  t.test('several visible matches fail at once with the contract message', async (t) => {
    const caught = await failure(`await click('.twin', { timeoutSec: 5 })`);
    t.equal(caught.code, 'REPL_ERR_ACTION_FAILED');
    t.equal(caught.message, 'click: selector ".twin" matches 2 visible elements; use a more specific selector');
    t.same(await value(`js('clicks')`), {}, 'nothing was clicked');
  });

  t.test('waits for an overlay that disappears after 300 ms, then clicks the button', async (t) => {
    await ok(`await js('setupTimers()'); await click('#covered-briefly')`);
    t.same(await value(`js('clicks')`), { 'covered-briefly': 1 }, 'the cover never received the click');
  });

  t.test('an overlay that never disappears fails naming the covering element', async (t) => {
    const caught = await failure(`await click('#covered-forever', { timeoutSec: 0.5 })`);
    t.equal(caught.code, 'REPL_ERR_ACTION_FAILED');
    t.equal(caught.message, 'click: selector "#covered-forever" was not actionable within 0.5s (intercepted by <div id="forever-cover" class="cover">)');
    t.same(await value(`js('clicks')`), {});
  });

  t.test('waits for a disabled button to become enabled', async (t) => {
    await ok(`await js('setupTimers()'); await click('#late-enabled')`);
    t.same(await value(`js('clicks')`), { 'late-enabled': 1 });
    const caught = await failure(`await click('#aria-disabled', { timeoutSec: 0.2 })`);
    t.equal(caught.message, 'click: selector "#aria-disabled" was not actionable within 0.2s (disabled (aria-disabled))');
  });

  t.test('waits for a button moved by a CSS animation to stop, and clicks where it ends', async (t) => {
    await ok(`await js('setupTimers()'); await click('#moving')`);
    t.same(await value(`js('clicks')`), { moving: 1 });
    const [event] = await value(`js('events.filter((e) => e.type === "click")')`);
    const box = await value(`js(${JSON.stringify(centreOf('document.getElementById("moving")'))})`);
    t.ok(event.x >= box.left && event.x <= box.right && event.y >= box.top && event.y <= box.bottom, 'the click landed on the final position');
    t.equal(await value(`js('document.getAnimations().filter((a) => a.effect.target.id === "moving" && a.playState === "running").length')`), 0);
  });

  t.test('a button that never stops moving fails as moving', async (t) => {
    const caught = await failure(`await click('#spinner', { timeoutSec: 0.3 })`);
    t.equal(caught.message, 'click: selector "#spinner" was not actionable within 0.3s (moving)');
  });

  t.test('a target without pointer events, a missing one and a hidden one say why', async (t) => {
    t.equal((await failure(`await click('#no-pointer', { timeoutSec: 0 })`)).message,
      'click: selector "#no-pointer" was not actionable within 0s (not receiving pointer events (pointer-events: none))');
    t.equal((await failure(`await click('#missing', { timeoutSec: 0 })`)).message, 'click: selector "#missing" was not actionable within 0s (not found)');
    t.equal((await failure(`await click('#action-hidden', { timeoutSec: 0 })`)).message, 'click: selector "#action-hidden" was not actionable within 0s (not visible)');
    const invalid = await failure(`await click('##bad')`);
    t.equal(invalid.code, 'REPL_ERR_INVALID_ARGUMENT');
    t.match(invalid.message, /^click: invalid selector "##bad": /);
  });

  t.test('scrolls a target below the fold into view', async (t) => {
    await ok(`await click('#far')`);
    t.same(await value(`js('clicks')`), { far: 1 });
    t.ok(await value(`js('scrollY')`) > 0);
  });

  t.test('coordinates, buttons, click counts and modifiers are physical mouse input', async (t) => {
    const box = await value(`js(${JSON.stringify(centreOf('document.getElementById("action-desktop")'))})`);
    await ok(`await click({ x: ${box.x}, y: ${box.y} }, { clickCount: 2 })`);
    await ok(`await click('#action-desktop', { button: 'right' })`);
    await ok(`await click('#action-desktop', { modifiers: ['Shift'] })`);
    const events = await value(`js('events.filter((e) => e.id === "action-desktop")')`);
    const clicks = events.filter((e) => e.type === 'click');
    t.same(clicks.map((e) => e.detail), [1, 2, 1], 'a double click is clicks 1 and 2');
    t.equal(events.filter((e) => e.type === 'dblclick').length, 1);
    t.equal(events.filter((e) => e.type === 'contextmenu').length, 1);
    t.equal(clicks[2].shift, true, 'the modifier reaches the event');
  });

  t.test('trial checks without clicking; position clicks at an offset; force skips the checks', async (t) => {
    await ok(`await click('#action-desktop', { trial: true })`);
    t.same(await value(`js('clicks')`), {});
    const box = await value(`js(${JSON.stringify(centreOf('document.getElementById("action-desktop")'))})`);
    await ok(`await click('#action-desktop', { position: { x: 3, y: 4 } })`);
    const [event] = await value(`js('events.filter((e) => e.type === "click")')`);
    t.ok(Math.abs(event.x - (box.left + 3)) <= 1 && Math.abs(event.y - (box.top + 4)) <= 1, 'clicked 3,4 from the top-left corner');
    // Forced, the physical click lands on whatever is on top: the permanent cover.
    await ok(`await click('#covered-forever', { force: true })`);
    t.equal((await value(`js('clicks')`))['forever-cover'], 1);
  });
});

t.test('click inside shadow DOM and frames', async (t) => {
  t.beforeEach(() => open('interaction-frames.html'));

  t.test('a button inside an open shadow root is hit at its own coordinates', async (t) => {
    await ok(`await click('#shadow-button')`);
    const [clicked] = await value(`js('clicks')`);
    t.equal(clicked.id, 'shadow-button');
    const box = await value(`js(${JSON.stringify(centreOf('document.getElementById("card").shadowRoot.getElementById("shadow-button")'))})`);
    t.ok(Math.abs(clicked.x - box.x) <= 1 && Math.abs(clicked.y - box.y) <= 1, 'clicked at the centre');
  });

  t.test('a button inside a same-origin iframe is clicked in top-level coordinates', async (t) => {
    await ok(`await click('#frame-button')`);
    const [clicked] = await value(`js('document.getElementById("same").contentWindow.clicks')`);
    t.equal(clicked.id, 'frame-button');
    const box = await value(`js(${JSON.stringify(centreOf('document.getElementById("same").contentDocument.getElementById("frame-button")'))})`);
    t.ok(Math.abs(clicked.x - box.x) <= 1 && Math.abs(clicked.y - box.y) <= 1, 'clicked at the centre, in frame coordinates');
    t.same(await value(`js('clicks')`), [], 'the top page saw no click of its own');
  });

  t.test('a selector that matches nothing says which cross-origin frames it could not search', async (t) => {
    t.equal((await failure(`await click('#nowhere', { timeoutSec: 0 })`)).message,
      'click: selector "#nowhere" was not actionable within 0s (not found; 1 cross-origin iframe was not searched: reach one with iframeTarget() and switchTab())');
  });

  t.test('a button inside a cross-site iframe, after switchTab(frame.targetId)', async (t) => {
    const result = await value(`(async () => {
      let frame = null;
      for (let i = 0; i < 100 && frame === null; i++) {
        frame = await iframeTarget('localhost');
        if (frame === null) await waitMs(50);
      }
      if (frame === null) throw new Error('no cross-site frame target');
      const parent = await currentTab();
      try {
        await switchTab(frame.targetId);
        await click('#frame-button');
        await fillInput('#frame-input', 'cross-site');
        return { clicks: await js('clicks'), value: await js('document.getElementById("frame-input").value') };
      } finally {
        await switchTab(parent.targetId);
      }
    })()`);
    t.equal(result.clicks.length, 1);
    t.equal(result.clicks[0].id, 'frame-button');
    t.equal(result.value, 'cross-site');
  });
});
