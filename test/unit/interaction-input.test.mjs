// Unit tests for the input planners of the interaction helpers: worker/helpers/interaction/mouse.ts
// (click and wheel events) and keyboard.ts (how fillInput types a string). Expectations are
// written out by hand.
import t from 'tap';

import { BUTTON_MASK, planClick, planWheel } from '../../dist/worker/helpers/interaction/mouse.js';
import { LONG_TEXT_CODE_POINTS, batchesOf, planBackspace, planCharacterKeys, planTyping } from '../../dist/worker/helpers/interaction/keyboard.js';

const key = (params) => ({ method: 'Input.dispatchKeyEvent', params });
const insert = (text) => ({ method: 'Input.insertText', params: { text } });

t.test('planClick: move, then one press/release pair per click with a rising clickCount', async (t) => {
  const events = planClick({ x: 10.5, y: 20, button: 'left', clickCount: 2, modifiers: 0 }).map((command) => {
    t.equal(command.method, 'Input.dispatchMouseEvent');
    return command.params;
  });
  t.same(events, [
    { type: 'mouseMoved', x: 10.5, y: 20, button: 'none', buttons: 0, modifiers: 0 },
    { type: 'mousePressed', x: 10.5, y: 20, button: 'left', buttons: 1, clickCount: 1, modifiers: 0 },
    { type: 'mouseReleased', x: 10.5, y: 20, button: 'left', buttons: 0, clickCount: 1, modifiers: 0 },
    { type: 'mousePressed', x: 10.5, y: 20, button: 'left', buttons: 1, clickCount: 2, modifiers: 0 },
    { type: 'mouseReleased', x: 10.5, y: 20, button: 'left', buttons: 0, clickCount: 2, modifiers: 0 },
  ]);
  t.same(BUTTON_MASK, { left: 1, middle: 4, right: 2 });
  const right = planClick({ x: 1, y: 2, button: 'right', clickCount: 1, modifiers: 8 }).map((command) => command.params);
  t.match(right[1], { type: 'mousePressed', button: 'right', buttons: 2, modifiers: 8 });
  t.match(planClick({ x: 1, y: 2, button: 'middle', clickCount: 1, modifiers: 0 })[1].params, { buttons: 4 });
});

t.test('planWheel: exactly one mouseWheel event', async (t) => {
  t.same(planWheel(100, 200, 300, -20), { type: 'mouseWheel', x: 100, y: 200, deltaX: -20, deltaY: 300 });
});

t.test('planCharacterKeys: keyDown carrying the text, then keyUp', async (t) => {
  t.same(planCharacterKeys('a'), [
    { type: 'keyDown', code: 'KeyA', key: 'a', windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0, location: 0, isKeypad: false, unmodifiedText: 'a', text: 'a' },
    { type: 'keyUp', code: 'KeyA', key: 'a', windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0, location: 0, isKeypad: false, unmodifiedText: 'a' },
  ]);
  t.match(planCharacterKeys('!'), [{ type: 'keyDown', key: '!', code: 'Digit1', modifiers: 8, text: '!' }, { type: 'keyUp', key: '!' }], 'shifted characters carry Shift');
  t.match(planCharacterKeys('Q'), [{ key: 'Q', code: 'KeyQ', modifiers: 8, text: 'Q' }, { type: 'keyUp' }]);
  t.match(planCharacterKeys(' '), [{ key: ' ', code: 'Space', text: ' ' }, { type: 'keyUp' }]);
  for (const off of ['é', '😀', '中', '\t', '\n', '\r']) t.equal(planCharacterKeys(off), null, `${JSON.stringify(off)} has no key to press`);
});

t.test('planTyping', async (t) => {
  t.test('layout characters become key pairs, the rest is inserted in runs', async (t) => {
    const commands = planTyping('aé😀b');
    t.same(commands.map((command) => command.method), [
      'Input.dispatchKeyEvent', 'Input.dispatchKeyEvent', 'Input.insertText', 'Input.dispatchKeyEvent', 'Input.dispatchKeyEvent',
    ]);
    t.same(commands[2], insert('é😀'));
    t.equal(commands[3].params.key, 'b');
  });

  t.test('line breaks are inserted as \\n, never pressed as Enter', async (t) => {
    const commands = planTyping('a\r\nb\rc\n');
    t.same(commands.filter((command) => command.method === 'Input.insertText'), [insert('\n'), insert('\n'), insert('\n')]);
    t.notOk(commands.some((command) => command.params.key === 'Enter'));
  });

  t.test('empty text types nothing', async (t) => {
    t.same(planTyping(''), []);
  });

  t.test('long text is inserted at once except its last character, which is still a key press', async (t) => {
    const long = 'x'.repeat(LONG_TEXT_CODE_POINTS) + 'yz';
    const commands = planTyping(long);
    t.same(commands[0], insert(long.slice(0, -1)));
    t.same(commands.slice(1).map((command) => [command.params.type, command.params.key]), [['keyDown', 'z'], ['keyUp', 'z']]);
    const endsOffLayout = 'x'.repeat(LONG_TEXT_CODE_POINTS) + 'é';
    t.same(planTyping(endsOffLayout), [insert(endsOffLayout)]);
    t.equal(planTyping('x'.repeat(LONG_TEXT_CODE_POINTS)).length, LONG_TEXT_CODE_POINTS * 2, 'up to the limit every character is a key press');
  });
});

t.test('planBackspace and batchesOf', async (t) => {
  t.same(planBackspace().map((command) => [command.params.type, command.params.key, command.params.windowsVirtualKeyCode]), [['keyDown', 'Backspace', 8], ['keyUp', 'Backspace', 8]]);
  const a = key({ type: 'keyDown' });
  const b = key({ type: 'keyUp' });
  t.same(batchesOf([a, b, insert('x'), insert('y'), a]), [[a, b], [insert('x'), insert('y')], [a]]);
  t.same(batchesOf([]), []);
});
