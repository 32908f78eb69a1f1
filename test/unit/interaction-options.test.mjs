// Unit tests for worker/helpers/interaction/interaction-options.ts: argument validation of click,
// fillInput, waitForElement, scroll and accessibilitySnapshot, with the contract's exact messages
// (docs/browser-helpers.md "Shared rules", docs/interaction.md).
import t from 'tap';

import {
  DEFAULT_MAX_NODES,
  DEFAULT_SCROLL_DY,
  readClickRequest,
  readFillRequest,
  readModifiers,
  readScrollRequest,
  readSnapshotRequest,
  readWaitRequest,
} from '../../dist/worker/helpers/interaction/interaction-options.js';

// t.throws matches strings as substrings; an anchored RegExp makes the message check exact.
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const invalid = (message) => ({ code: 'REPL_ERR_INVALID_ARGUMENT', message: exactly(message) });

t.test('readClickRequest', async (t) => {
  t.test('defaults for a selector, a node and coordinates', async (t) => {
    t.same(readClickRequest('#go'), {
      target: { kind: 'selector', selector: '#go' }, button: 'left', clickCount: 1, modifiers: 0, timeoutSec: 10,
      position: undefined, force: false, trial: false,
    });
    t.same(readClickRequest({ backendNodeId: 7, role: 'button', name: 'Go' }).target, { kind: 'node', backendNodeId: 7 }, 'a snapshot node works as is');
    t.same(readClickRequest({ x: 10, y: 20.5 }, { clickCount: 2 }).target, { kind: 'point', x: 10, y: 20.5 });
  });

  t.test('options', async (t) => {
    const request = readClickRequest('#go', { button: 'right', clickCount: 3, timeoutSec: 0, modifiers: { ctrl: true, shift: true }, position: { x: 1, y: 2 }, force: true, trial: true });
    t.match(request, { button: 'right', clickCount: 3, timeoutSec: 0, modifiers: 10, position: { x: 1, y: 2 }, force: true, trial: true });
    t.equal(readClickRequest({ x: 1, y: 1 }, { modifiers: ['Alt'] }).modifiers, 1, 'modifiers work with coordinates');
  });

  t.test('contract messages', async (t) => {
    t.throws(() => readClickRequest(''), invalid('click: selector must not be empty'));
    t.throws(() => readClickRequest('   '), invalid('click: selector must not be empty'));
    for (const bad of [42, null, undefined, {}, { x: 1 }, { x: 1, y: Number.NaN }, { x: '1', y: 2 }, [1, 2]]) {
      t.throws(() => readClickRequest(bad), invalid('click: target must be a selector, accessibility node, or finite {x, y} coordinates'), String(bad));
    }
    t.throws(() => readClickRequest({ backendNodeId: 0 }), invalid('click: backendNodeId must be a positive integer'));
    t.throws(() => readClickRequest({ x: 1, y: 2 }, { timeoutSec: 1 }),
      invalid('click: timeoutSec is only supported for selector targets or accessibility-node targets'));
    for (const name of ['position', 'force', 'trial']) {
      t.throws(() => readClickRequest({ x: 1, y: 2 }, { [name]: name === 'position' ? { x: 0, y: 0 } : true }),
        invalid(`click: ${name} is only supported for selector targets or accessibility-node targets`));
    }
    t.throws(() => readClickRequest('#q', { bogus: true }), invalid('click: unknown option: bogus'));
    t.throws(() => readClickRequest('#q', null), invalid('click: options must be an object'));
    t.throws(() => readClickRequest('#q', []), invalid('click: options must be an object'));
    t.throws(() => readClickRequest('#q', { button: 'back' }), invalid('click: button must be left, right, or middle'));
    for (const count of [0, -1, 1.5, '2']) t.throws(() => readClickRequest('#q', { clickCount: count }), invalid('click: clickCount must be a positive integer'));
    t.throws(() => readClickRequest('#q', { timeoutSec: -1 }), invalid('click: timeoutSec must be a non-negative finite number'));
    t.throws(() => readClickRequest('#q', { timeoutSec: Number.POSITIVE_INFINITY }), invalid('click: timeoutSec must be a non-negative finite number'));
    t.throws(() => readClickRequest('#q', { modifiers: 'Control' }),
      invalid('click: modifiers must be an array drawn from Alt, Control, Meta, Shift (or an object like {ctrl: true})'));
    t.throws(() => readClickRequest('#q', { modifiers: ['Hyper'] }), invalid('click: unknown modifier: Hyper (expected Alt, Control, Meta, or Shift)'));
    t.throws(() => readClickRequest('#q', { position: { x: 1 } }),
      invalid("click: position must be {x, y} with finite numbers (CSS pixels from the element's top-left corner)"));
    t.throws(() => readClickRequest('#q', { force: 1 }), invalid('click: force must be a boolean'));
  });
});

t.test('readModifiers names the helper in messages', async (t) => {
  t.equal(readModifiers('click', undefined), 0);
  t.equal(readModifiers('click', 15), 15);
  t.throws(() => readModifiers('click', 16), invalid('click: numeric modifiers must be a bitfield from 0 to 15'));
});

t.test('readFillRequest', async (t) => {
  t.same(readFillRequest('#q', 'hi'), { target: { kind: 'selector', selector: '#q' }, text: 'hi', clearFirst: true, timeoutSec: 10 });
  t.same(readFillRequest({ backendNodeId: 3 }, '', { clearFirst: false, timeoutSec: 2 }), { target: { kind: 'node', backendNodeId: 3 }, text: '', clearFirst: false, timeoutSec: 2 });
  // Validation order of the contract: target, text, options, clearFirst.
  t.throws(() => readFillRequest('', 5, { bogus: 1 }), invalid('fillInput: selector must be a non-empty string'));
  t.throws(() => readFillRequest(42, 5), invalid('fillInput: target must be a selector or accessibility node'));
  t.throws(() => readFillRequest({ x: 1, y: 2 }, 'a'), invalid('fillInput: target must be a selector or accessibility node'));
  t.throws(() => readFillRequest('#q', 5, { bogus: 1 }), invalid('fillInput: text must be a string'));
  t.throws(() => readFillRequest('#q', 'a', { bogus: 1 }), invalid('fillInput: unknown option: bogus'));
  t.throws(() => readFillRequest('#q', 'a', { clearFirst: 'no' }), invalid('fillInput: clearFirst must be a boolean'));
  t.throws(() => readFillRequest('#q', 'a', { timeoutSec: 'x' }), invalid('fillInput: timeoutSec must be a non-negative finite number'));
});

t.test('readWaitRequest', async (t) => {
  t.same(readWaitRequest('#q'), { target: { kind: 'selector', selector: '#q' }, state: 'visible', timeoutSec: 10 });
  for (const state of ['attached', 'detached', 'visible', 'hidden']) t.equal(readWaitRequest('#q', { state }).state, state);
  t.throws(() => readWaitRequest('#q', { state: 'ready' }), invalid('waitForElement: state must be attached, detached, visible, or hidden'));
  t.throws(() => readWaitRequest('', {}), invalid('waitForElement: selector must be a non-empty string'));
  t.throws(() => readWaitRequest(7), invalid('waitForElement: target must be a selector or accessibility node'));
  t.throws(() => readWaitRequest('#q', { timeoutSec: Number.NaN }), invalid('waitForElement: timeoutSec must be a non-negative finite number'));
  t.throws(() => readWaitRequest('#q', { visible: true }), invalid('waitForElement: unknown option: visible'));
});

t.test('readScrollRequest', async (t) => {
  t.same(readScrollRequest(1, 2), { x: 1, y: 2, dy: DEFAULT_SCROLL_DY, dx: 0 });
  t.equal(DEFAULT_SCROLL_DY, -300, 'the contract default: scroll(x, y, dy = -300)');
  t.same(readScrollRequest(1, 2, 240, -5), { x: 1, y: 2, dy: 240, dx: -5 });
  t.throws(() => readScrollRequest('1', 2), invalid('scroll: x and y must be finite numbers (viewport CSS pixels)'));
  t.throws(() => readScrollRequest(1, 2, Number.POSITIVE_INFINITY), invalid('scroll: dy and dx must be finite numbers'));
  t.throws(() => readScrollRequest(1, 2, 0, null), invalid('scroll: dy and dx must be finite numbers'));
});

t.test('readSnapshotRequest', async (t) => {
  t.same(readSnapshotRequest(), { maxNodes: DEFAULT_MAX_NODES, interactiveOnly: false });
  t.same(readSnapshotRequest({ maxNodes: Number.POSITIVE_INFINITY, interactiveOnly: true }), { maxNodes: Number.POSITIVE_INFINITY, interactiveOnly: true });
  for (const bad of [0, -1, 1.5, '10']) t.throws(() => readSnapshotRequest({ maxNodes: bad }), invalid('accessibilitySnapshot: maxNodes must be a positive integer (or Infinity)'));
  t.throws(() => readSnapshotRequest({ interactiveOnly: 'yes' }), invalid('accessibilitySnapshot: interactiveOnly must be a boolean'));
  t.throws(() => readSnapshotRequest({ depth: 2 }), invalid('accessibilitySnapshot: unknown option: depth'));
});
