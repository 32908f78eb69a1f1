/**
 * The page-side probes of `click` and `fillInput` (docs/interaction.md, "Actionability"), as JavaScript source.
 * Each poll is exactly one CDP call: `Runtime.evaluate` of `(<probe>)(target, options)` for a
 * selector (a string) or a semantic query (an object, `element-target.ts`), or
 * `Runtime.callFunctionOn` of the same function with `this` = the node and `target = null` for a
 * `{backendNodeId}` target. The probe answers everything at once: uniqueness, visibility,
 * enabled, scroll, stability, hit test and the click point.
 *
 * Results are `{status: 'ready', …}` or `{status: '<why not>'}`; the statuses are the words the
 * error messages show (`not found`, `not visible`, `disabled`, `moving`, `intercepted by <div
 * id="overlay">`, …), plus three the Node side acts on at once: `multiple` (`count`, and the
 * `candidates` of a semantic target), `invalid selector` (`message`) and `stale` (a node that
 * left the document).
 */
import { PAGE_LIBRARY } from './page-library.js';

/** Property of the top window that carries the element a selector- or semantic-target fill is typing into. */
const FILL_TARGET_KEY = "Symbol.for('browser-repl.fillTarget')";
/** Property of the element that remembers its value before the fill. */
const FILL_BEFORE_KEY = "Symbol.for('browser-repl.fillBefore')";

/** Resolves `el` from `this` (node mode) or the unique visible match (selector and semantic modes). */
export const RESOLVE_ELEMENT = String.raw`
  let el;
  if (target === null) {
    el = asElement(this);
    if (!el || !el.isConnected) return { status: 'stale' };
  } else {
    const picked = pickUnique(target);
    if (!picked.element) return picked;
    el = picked.element;
  }
`;

/** Property of the top window that holds the receipt of the click being made (see `ARM_RECEIPT`). */
const RECEIPT_KEY = "Symbol.for('browser-repl.clickReceipt')";

/**
 * Arms the receipt of a click on `el` (issue 25: a click reported as done must have reached its
 * target), in the manner of Playwright's hit-target interceptor: capture listeners on el's window
 * and on every same-origin window above it see each pointer and mouse event of the click first.
 * The first one decides: when its composed path holds el, the click reached it and every event
 * passes; when it does not (something moved over el at the last moment), that event and the rest
 * of the click are stopped before the page sees them, so the miss did nothing and the click can
 * be tried again. `CLICK_RECEIPT` reads and removes the listeners; a timer removes them anyway, so
 * an abandoned click leaves nothing behind. The record lives on the top window this realm
 * reaches, where the read looks.
 */
const ARM_RECEIPT = String.raw`
  function armReceipt(el) {
    const top = topDocument().defaultView;
    if (top[${RECEIPT_KEY}]) top[${RECEIPT_KEY}].stop();
    const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
    const windows = [];
    for (let win = el.ownerDocument.defaultView; win; win = frameElementOf(win) ? frameElementOf(win).ownerDocument.defaultView : null) windows.push(win);
    // Seen from a window, an event inside a closed shadow root is retargeted to its host: for a
    // target in one, the outermost closed host stands for it.
    let anchor = el;
    for (let root = el.getRootNode(); root && root.nodeType === FRAGMENT_NODE && root.mode === 'closed'; root = anchor.getRootNode()) anchor = root.host;
    const record = { events: [], verdict: null, stop: null };
    const listener = function (event) {
      if (record.verdict === null) {
        const path = event.composedPath();
        let reached = false;
        for (let i = 0; i < path.length && !reached; i++) reached = path[i] === el || path[i] === anchor || (path[i].localName === 'label' && path[i].control === el);
        record.verdict = reached ? 'reached' : 'missed';
        record.hit = describe(asElement(path[0]));
      }
      record.events.push(event.type);
      if (record.verdict === 'missed') {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    for (let w = 0; w < windows.length; w++) for (let i = 0; i < types.length; i++) windows[w].addEventListener(types[i], listener, true);
    const timer = setTimeout(function () { record.stop(); }, 30000);
    record.stop = function () {
      clearTimeout(timer);
      for (let w = 0; w < windows.length; w++) for (let i = 0; i < types.length; i++) windows[w].removeEventListener(types[i], listener, true);
      if (top[${RECEIPT_KEY}] === record) delete top[${RECEIPT_KEY}];
    };
    top[${RECEIPT_KEY}] = record;
  }
`;

/**
 * `clickReceipt(final)`, evaluated in the top document of the probe's realm after the click's
 * input was acknowledged: `{status: 'reached'}` when the click's first event reached the target,
 * `{status: 'missed', hit}` when it went elsewhere (and the click was stopped, `ARM_RECEIPT`),
 * `{status: 'none'}` when no event arrived yet (asked again, with `final` on the last try, which
 * also disarms), `{status: 'gone'}` when the document holding the receipt was replaced (the
 * click navigated).
 */
export const CLICK_RECEIPT = String.raw`function clickReceipt(final) {
  'use strict';
  const record = window[${RECEIPT_KEY}];
  if (!record) return { status: 'gone' };
  // A missed click is judged once its last event (the click) was stopped too.
  const ended = record.verdict === 'reached' || record.events.indexOf('click') !== -1 || record.events.indexOf('mouseup') !== -1;
  if (record.verdict !== null && (ended || final)) {
    record.stop();
    return record.verdict === 'reached' ? { status: 'reached' } : { status: 'missed', hit: record.hit };
  }
  if (final) record.stop();
  return { status: 'none' };
}`;

/**
 * `resolveClickTarget(target, options)`; options: `force` (skip enabled, stability and hit
 * test), `recenter` (scroll the target to the centre even if it is in view), `position`
 * (`{x, y}` from the element's top-left corner), `receipt` (arm the click's receipt when ready,
 * `ARM_RECEIPT`).
 */
export const CLICK_PROBE = String.raw`async function resolveClickTarget(target, options) {
  'use strict';
  ${PAGE_LIBRARY}
  ${ARM_RECEIPT}
  const FRAME_INTERVAL_MS = 15;
  // One animation frame, or 100 ms where frames are not produced (a background tab).
  function nextFrame() {
    return new Promise(function (resolve) {
      let done = false;
      const finish = function () { if (!done) { done = true; resolve(); } };
      requestAnimationFrame(finish);
      setTimeout(finish, 100);
    });
  }
  // Waits until el's animation clock has advanced by a frame interval. Counting frames is not
  // enough: when Chromium produces no frames for a while (right after a load, on a loaded
  // machine) the 100 ms timer stands in, and the clock may then have advanced by a fraction of a
  // millisecond only, so two samples would read as stable while the element moves. A hidden
  // document's clock does not run: there real time counts. Never longer than 500 ms.
  async function nextAnimationInterval(el) {
    const doc = el.ownerDocument;
    const timeline = doc.visibilityState === 'visible' ? doc.timeline : null;
    const clock = function () { return timeline && timeline.currentTime !== null ? Number(timeline.currentTime) : performance.now(); };
    const start = clock();
    const realStart = performance.now();
    do {
      await nextFrame();
    } while (clock() - start < FRAME_INTERVAL_MS && performance.now() - realStart < 500);
  }
  function hasPendingAnimation(el) {
    for (let n = el; n; n = composedParent(n)) {
      if (n.nodeType !== ELEMENT_NODE || typeof n.getAnimations !== 'function') continue;
      const animations = n.getAnimations();
      for (let i = 0; i < animations.length; i++) if (animations[i].pending) return true;
    }
    return false;
  }
  ${RESOLVE_ELEMENT}
  if (!isVisible(el)) return { status: 'not visible' };
  if (!options.force) {
    const reason = disabledReason(el);
    if (reason) return { status: reason };
  }
  revealElement(el, options.recenter === true);
  if (!options.force) {
    // An animation or transition that was just triggered has no start time yet and does not
    // move until the next frames; sampling it now would read as stable.
    for (let i = 0; i < 3 && hasPendingAnimation(el); i++) await nextFrame();
    if (hasPendingAnimation(el)) return { status: 'moving' };
    // Stable: the same box in two consecutive animation frames (a frame interval apart).
    const before = topBox(el);
    await nextAnimationInterval(el);
    if (!el.isConnected || !isVisible(el)) return { status: 'detached or hidden' };
    if (moved(before, topBox(el))) return { status: 'moving' };
    if (styleOf(el).pointerEvents === 'none') return { status: 'not receiving pointer events (pointer-events: none)' };
  }
  let points;
  if (options.position) {
    const r = el.getBoundingClientRect();
    const x = r.left + options.position.x, y = r.top + options.position.y;
    const at = mapToTop({ left: x, top: y, right: x, bottom: y }, el, false);
    const viewport = viewportBox(topDocument().defaultView);
    if (!(at.left >= 0 && at.top >= 0 && at.left < viewport.right && at.top < viewport.bottom)) return { status: 'outside viewport' };
    points = [{ x: at.left, y: at.top }];
  } else {
    points = clickPoints(el);
  }
  if (points.length === 0) return { status: 'outside viewport' };
  if (options.force) return { status: 'ready', x: round(points[0].x), y: round(points[0].y) };
  const reached = firstReachingPoint(el, points);
  if (reached.blocker !== undefined) return { status: 'intercepted by ' + describe(reached.blocker) };
  if (options.receipt) armReceipt(el);
  return { status: 'ready', x: round(reached.x), y: round(reached.y) };
}`;

/**
 * `resolveFillTarget(target, options)`; options: `clearFirst`, `text`, `force` (skip the hit
 * test), `recenter` (as click's). Focuses the editable target and prepares the selection
 * (everything selected to clear, caret at the end to append); date and time inputs, which cannot
 * be typed into reliably, get their value set directly. Before focusing, the field must be
 * reachable as click's hit test has it: a field under an overlay (a cookie banner) would get the
 * keys while a person could not reach it, so it reads `intercepted by <…>` like a click.
 * Ready results: `{status: 'ready', empty}` (type the text now) or `{status: 'done'}`.
 */
export const FILL_PROBE = String.raw`function resolveFillTarget(target, options) {
  'use strict';
  ${PAGE_LIBRARY}
  const NOT_TEXT = ['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit'];
  const DIRECT = ['date', 'datetime-local', 'month', 'time', 'week'];
  function editableKind(el) {
    if (el.localName === 'input') {
      const type = String(el.type || 'text').toLowerCase();
      if (NOT_TEXT.indexOf(type) !== -1) return null;
      if (el.readOnly) return 'readonly';
      return DIRECT.indexOf(type) !== -1 ? 'direct' : 'input';
    }
    if (el.localName === 'textarea') return el.readOnly ? 'readonly' : 'textarea';
    if (el.isContentEditable) return 'contenteditable';
    return null;
  }
  function valueOf(el) {
    return el.localName === 'input' || el.localName === 'textarea' ? el.value : el.textContent;
  }
  ${RESOLVE_ELEMENT}
  // A label stands for its control, as a click on it would.
  if (el.localName === 'label' && el.control) el = el.control;
  if (!isVisible(el)) return { status: 'not visible' };
  const reason = disabledReason(el);
  if (reason) return { status: reason };
  const kind = editableKind(el);
  if (kind === null) return { status: 'not editable' };
  if (kind === 'readonly') return { status: 'not editable (read-only)' };
  revealElement(el, options.recenter === true);
  if (!options.force) {
    const points = clickPoints(el);
    if (points.length === 0) return { status: 'outside viewport' };
    const reached = firstReachingPoint(el, points, true);
    if (reached.blocker !== undefined) return { status: 'intercepted by ' + describe(reached.blocker) };
  }
  let active = deepActiveElement();
  if (active !== el && !composedContains(el, active)) {
    el.focus({ preventScroll: true });
    active = deepActiveElement();
    if (active !== el && !composedContains(el, active)) return { status: 'could not focus' };
  }
  if (kind === 'direct') {
    const setter = Object.getOwnPropertyDescriptor(el.ownerDocument.defaultView.HTMLInputElement.prototype, 'value').set;
    setter.call(el, options.text);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    if (el.value !== options.text) return { status: 'rejected', type: el.type, value: el.value };
    return { status: 'done' };
  }
  const before = valueOf(el);
  el[${FILL_BEFORE_KEY}] = before;
  if (target !== null) window[${FILL_TARGET_KEY}] = el;
  const selection = el.ownerDocument.getSelection();
  if (kind === 'contenteditable') {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (!options.clearFirst) range.collapse(false);
    selection.removeAllRanges();
    selection.addRange(range);
  } else if (options.clearFirst) {
    el.select();
  } else {
    // email and number inputs have no selection API; focus leaves their caret at the end.
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) {}
  }
  return { status: 'ready', empty: before === '' };
}`;

/**
 * `finishFill(target)`: after the keys, dispatches `change` if the value changed (typing fires
 * `input` itself; `change` would only come on blur) and checks that focus stayed on the target.
 * Returns `{status: 'done' | 'focus lost' | 'detached', value?, focused?}`.
 */
export const FILL_FINISH = String.raw`function finishFill(target) {
  'use strict';
  ${PAGE_LIBRARY}
  let el = target === null ? asElement(this) : window[${FILL_TARGET_KEY}];
  if (target !== null) delete window[${FILL_TARGET_KEY}];
  if (el && el.localName === 'label' && el.control) el = el.control;
  if (!el || !el.isConnected) return { status: 'detached' };
  const before = el[${FILL_BEFORE_KEY}];
  delete el[${FILL_BEFORE_KEY}];
  const value = el.localName === 'input' || el.localName === 'textarea' ? el.value : el.textContent;
  if (value !== before) el.dispatchEvent(new Event('change', { bubbles: true }));
  const active = deepActiveElement();
  if (active === el || composedContains(el, active)) return { status: 'done' };
  return { status: 'focus lost', focused: describe(active) };
}`;
