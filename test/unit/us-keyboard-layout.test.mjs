// Unit tests for worker/input/us-keyboard-layout.ts (docs/interaction.md, "Keyboard"; docs/repl.md,
// `browser.pressKey` and `browser.typeText`). Expectations are written out by hand, not derived
// from the module's table.
import t from 'tap';

import {
  KEY_ALIASES,
  Modifier,
  US_KEY_NAMES,
  parseModifiers,
  planKeyPress,
  planSelectAll,
  planTypeText,
  resolveKey,
} from '../../dist/worker/input/us-keyboard-layout.js';

const SUGGESTED =
  'Enter, Tab, Escape, Backspace, Delete, Space, ArrowLeft, ArrowUp, ArrowRight, ArrowDown, Home, End, PageUp, PageDown, Insert, F1, F12, KeyA, Digit1, Numpad0';
const unknownKey = (k) => `unknown key: ${k} (use one Unicode character or a supported US-layout key such as ${SUGGESTED})`;
const BAD_TYPE = 'pressKey: modifiers must be an array drawn from Alt, Control, Meta, Shift (or an object like {ctrl: true})';
const BAD_NUMBER = 'pressKey: numeric modifiers must be a bitfield from 0 to 15';
const unknownModifier = (m) => `pressKey: unknown modifier: ${m} (expected Alt, Control, Meta, or Shift)`;
// t.throws matches strings as substrings; an anchored RegExp makes the message check exact.
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const invalid = (message) => ({ code: 'REPL_ERR_INVALID_ARGUMENT', message: exactly(message) });

// [char, code, keyCode, needsShift] for every printable ASCII character except digits and letters,
// which follow below by formula.
const SYMBOLS = [
  [' ', 'Space', 32, false],
  ['!', 'Digit1', 49, true],
  ['"', 'Quote', 222, true],
  ['#', 'Digit3', 51, true],
  ['$', 'Digit4', 52, true],
  ['%', 'Digit5', 53, true],
  ['&', 'Digit7', 55, true],
  ["'", 'Quote', 222, false],
  ['(', 'Digit9', 57, true],
  [')', 'Digit0', 48, true],
  ['*', 'Digit8', 56, true],
  ['+', 'Equal', 187, true],
  [',', 'Comma', 188, false],
  ['-', 'Minus', 189, false],
  ['.', 'Period', 190, false],
  ['/', 'Slash', 191, false],
  [':', 'Semicolon', 186, true],
  [';', 'Semicolon', 186, false],
  ['<', 'Comma', 188, true],
  ['=', 'Equal', 187, false],
  ['>', 'Period', 190, true],
  ['?', 'Slash', 191, true],
  ['@', 'Digit2', 50, true],
  ['[', 'BracketLeft', 219, false],
  ['\\', 'Backslash', 220, false],
  [']', 'BracketRight', 221, false],
  ['^', 'Digit6', 54, true],
  ['_', 'Minus', 189, true],
  ['`', 'Backquote', 192, false],
  ['{', 'BracketLeft', 219, true],
  ['|', 'Backslash', 220, true],
  ['}', 'BracketRight', 221, true],
  ['~', 'Backquote', 192, true],
];
const PRINTABLE = [...SYMBOLS];
for (let n = 0; n <= 9; n++) PRINTABLE.push([String(n), `Digit${n}`, 48 + n, false]);
for (let i = 0; i < 26; i++) {
  const upper = String.fromCharCode(65 + i);
  PRINTABLE.push([upper.toLowerCase(), `Key${upper}`, 65 + i, false], [upper, `Key${upper}`, 65 + i, true]);
}

// [name, key, keyCode, location, text]; code === name.
const NAMED = [
  ['Abort', 'Cancel', 3, 0, ''],
  ['Help', 'Help', 6, 0, ''],
  ['Backspace', 'Backspace', 8, 0, ''],
  ['Tab', 'Tab', 9, 0, ''],
  ['Enter', 'Enter', 13, 0, '\r'],
  ['ShiftLeft', 'Shift', 16, 1, ''],
  ['ShiftRight', 'Shift', 16, 2, ''],
  ['ControlLeft', 'Control', 17, 1, ''],
  ['ControlRight', 'Control', 17, 2, ''],
  ['AltLeft', 'Alt', 18, 1, ''],
  ['AltRight', 'Alt', 18, 2, ''],
  ['Pause', 'Pause', 19, 0, ''],
  ['CapsLock', 'CapsLock', 20, 0, ''],
  ['Escape', 'Escape', 27, 0, ''],
  ['Convert', 'Convert', 28, 0, ''],
  ['NonConvert', 'NonConvert', 29, 0, ''],
  ['Space', ' ', 32, 0, ' '],
  ['PageUp', 'PageUp', 33, 0, ''],
  ['PageDown', 'PageDown', 34, 0, ''],
  ['End', 'End', 35, 0, ''],
  ['Home', 'Home', 36, 0, ''],
  ['ArrowLeft', 'ArrowLeft', 37, 0, ''],
  ['ArrowUp', 'ArrowUp', 38, 0, ''],
  ['ArrowRight', 'ArrowRight', 39, 0, ''],
  ['ArrowDown', 'ArrowDown', 40, 0, ''],
  ['Select', 'Select', 41, 0, ''],
  ['Open', 'Execute', 43, 0, ''],
  ['PrintScreen', 'PrintScreen', 44, 0, ''],
  ['Insert', 'Insert', 45, 0, ''],
  ['Delete', 'Delete', 46, 0, ''],
  ['MetaLeft', 'Meta', 91, 1, ''],
  ['MetaRight', 'Meta', 92, 2, ''],
  ['ContextMenu', 'ContextMenu', 93, 0, ''],
  ['NumLock', 'NumLock', 144, 0, ''],
  ['ScrollLock', 'ScrollLock', 145, 0, ''],
  ['AudioVolumeMute', 'AudioVolumeMute', 173, 0, ''],
  ['AudioVolumeDown', 'AudioVolumeDown', 174, 0, ''],
  ['AudioVolumeUp', 'AudioVolumeUp', 175, 0, ''],
  ['MediaTrackNext', 'MediaTrackNext', 176, 0, ''],
  ['MediaTrackPrevious', 'MediaTrackPrevious', 177, 0, ''],
  ['MediaStop', 'MediaStop', 178, 0, ''],
  ['MediaPlayPause', 'MediaPlayPause', 179, 0, ''],
  ['AltGraph', 'AltGraph', 225, 0, ''],
  ['Numpad0', 'Insert', 45, 3, ''],
  ['Numpad1', 'End', 35, 3, ''],
  ['Numpad2', 'ArrowDown', 40, 3, ''],
  ['Numpad3', 'PageDown', 34, 3, ''],
  ['Numpad4', 'ArrowLeft', 37, 3, ''],
  ['Numpad5', 'Clear', 12, 3, ''],
  ['Numpad6', 'ArrowRight', 39, 3, ''],
  ['Numpad7', 'Home', 36, 3, ''],
  ['Numpad8', 'ArrowUp', 38, 3, ''],
  ['Numpad9', 'PageUp', 33, 3, ''],
  ['NumpadEnter', 'Enter', 13, 3, '\r'],
  ['NumpadMultiply', '*', 106, 3, '*'],
  ['NumpadAdd', '+', 107, 3, '+'],
  ['NumpadSubtract', '-', 109, 3, '-'],
  ['NumpadDivide', '/', 111, 3, '/'],
  ['NumpadEqual', '=', 187, 3, '='],
  ['NumpadDecimal', '\0', 46, 3, '\0'],
];
for (let i = 1; i <= 24; i++) NAMED.push([`F${i}`, `F${i}`, 111 + i, 0, '']);

// [name, code, key, keyCode, location]
const BARE_MODIFIERS = [
  ['Shift', 'ShiftLeft', 'Shift', 16, 1],
  ['Control', 'ControlLeft', 'Control', 17, 1],
  ['Alt', 'AltLeft', 'Alt', 18, 1],
  ['Meta', 'MetaLeft', 'Meta', 91, 1],
];

// [alias, code, key]
const ALIASES = [
  ['esc', 'Escape', 'Escape'],
  ['return', 'Enter', 'Enter'],
  ['spacebar', 'Space', ' '],
  ['del', 'Delete', 'Delete'],
  ['cmd', 'MetaLeft', 'Meta'],
  ['command', 'MetaLeft', 'Meta'],
  ['ctrl', 'ControlLeft', 'Control'],
];

const flipCase = (s) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

t.test('resolveKey', async (t) => {
  t.test('every printable ASCII character', async (t) => {
    const chars = PRINTABLE.map(([c]) => c).sort();
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).sort();
    t.same(chars, ascii, 'the table covers exactly 0x20..0x7e');
    for (const [char, code, keyCode, needsShift] of PRINTABLE) {
      t.hasStrict(
        resolveKey(char, 0),
        { key: char, code, keyCode, text: char, unmodifiedText: char, location: 0, modifiers: needsShift ? 8 : 0 },
        `${JSON.stringify(char)} → ${code}${needsShift ? ' + Shift' : ''}`,
      );
    }
  });

  t.test('Shift gives the shifted character with the same code', async (t) => {
    const shiftedOf = new Map(PRINTABLE.filter(([, , , s]) => s).map(([char, code]) => [code, char]));
    for (const [char, code, keyCode, needsShift] of PRINTABLE) {
      if (needsShift || code === 'Space') continue;
      const expected = shiftedOf.get(code);
      t.hasStrict(resolveKey(char, Modifier.Shift), { key: expected, code, keyCode, text: expected, modifiers: 8 }, `Shift+${char} → ${expected}`);
      t.hasStrict(resolveKey(code, Modifier.Shift), { key: expected, code, keyCode }, `Shift+${code} → ${expected}`);
    }
    t.hasStrict(resolveKey('A', Modifier.Shift), { key: 'A', modifiers: 8 }, 'an already shifted character stays');
  });

  t.test('names of character keys (DigitN, KeyX, punctuation) are case-insensitive', async (t) => {
    for (const [char, code, keyCode, needsShift] of PRINTABLE) {
      if (needsShift || code === 'Space') continue;
      for (const spelling of [code, code.toLowerCase(), code.toUpperCase()]) {
        t.hasStrict(resolveKey(spelling, 0), { key: char, code, keyCode, modifiers: 0 }, spelling);
      }
    }
  });

  t.test('every named key, in three spellings', async (t) => {
    for (const [name, key, keyCode, location, text] of NAMED) {
      for (const spelling of [name, name.toLowerCase(), flipCase(name)]) {
        t.strictSame(
          resolveKey(spelling, 0),
          { key, code: name, keyCode, text, unmodifiedText: text, location, modifiers: 0 },
          `${spelling} → ${JSON.stringify(key)}`,
        );
      }
    }
  });

  t.test('numpad digits with Shift give the digit and keyCodes 96–105', async (t) => {
    for (let n = 0; n <= 9; n++) {
      t.hasStrict(resolveKey(`Numpad${n}`, 8), { key: String(n), code: `Numpad${n}`, keyCode: 96 + n, text: String(n), location: 3 });
    }
    t.hasStrict(resolveKey('NumpadDecimal', 8), { key: '.', keyCode: 110, text: '.' });
  });

  t.test('bare modifier names and aliases', async (t) => {
    for (const [name, code, key, keyCode, location] of BARE_MODIFIERS) {
      for (const spelling of [name, name.toLowerCase(), name.toUpperCase()]) {
        t.hasStrict(resolveKey(spelling, 0), { key, code, keyCode, location }, spelling);
      }
    }
    for (const [alias, code, key] of ALIASES) {
      for (const spelling of [alias, alias.toUpperCase(), alias[0].toUpperCase() + alias.slice(1)]) {
        t.hasStrict(resolveKey(spelling, 0), { key, code }, `${spelling} → ${code}`);
      }
    }
    t.strictSame([...KEY_ALIASES.keys()].sort(), ALIASES.map(([a]) => a).sort(), 'no other aliases');
    t.hasStrict(resolveKey('\r', 0), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    t.hasStrict(resolveKey('\n', 0), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    t.hasStrict(resolveKey(' ', 0), { key: ' ', code: 'Space', keyCode: 32, text: ' ' });
  });

  t.test('US_KEY_NAMES lists exactly the defined names', async (t) => {
    const expected = [
      ...NAMED.map(([name]) => name),
      ...BARE_MODIFIERS.map(([name]) => name),
      ...PRINTABLE.filter(([, code, , s]) => !s && code !== 'Space').map(([, code]) => code),
    ].sort();
    t.strictSame([...US_KEY_NAMES].sort(), expected);
    t.ok(Object.isFrozen(US_KEY_NAMES));
  });

  t.test('single characters off the layout are typed as text', async (t) => {
    for (const char of ['é', 'ß', '中', '😀', '€', '\t']) {
      t.strictSame(resolveKey(char, 0), { key: char, code: '', keyCode: 0, text: char, unmodifiedText: char, location: 0, modifiers: 0 }, char);
    }
  });

  t.test('a single character is case-sensitive', async (t) => {
    t.hasStrict(resolveKey('a', 0), { key: 'a', modifiers: 0 });
    t.hasStrict(resolveKey('A', 0), { key: 'A', modifiers: 8 });
  });

  t.test('shortcuts keep the caller modifiers exactly', async (t) => {
    t.hasStrict(resolveKey('A', Modifier.Control), { key: 'A', modifiers: 2 });
    t.hasStrict(resolveKey('!', Modifier.Alt), { key: '!', modifiers: 1 });
  });

  t.test('unknown names throw the exact message', async (t) => {
    for (const name of ['nope', 'F25', 'Key', 'Digit10', 'constructor', '__proto__', 'toString', 'ab', '']) {
      t.throws(() => resolveKey(name, 0), invalid(unknownKey(name)), JSON.stringify(name));
    }
  });
});

t.test('parseModifiers', async (t) => {
  t.test('numbers 0..15', async (t) => {
    for (let n = 0; n <= 15; n++) t.equal(parseModifiers(n), n);
    for (const bad of [-1, 16, 1.5, NaN, Infinity, -0.5]) t.throws(() => parseModifiers(bad), invalid(BAD_NUMBER), String(bad));
  });

  t.test('arrays of case-insensitive names', async (t) => {
    const cases = [
      [[], 0],
      [['alt'], 1],
      [['Alt'], 1],
      [['ctrl'], 2],
      [['CTRL'], 2],
      [['control'], 2],
      [['Control'], 2],
      [['meta'], 4],
      [['META'], 4],
      [['shift'], 8],
      [['Shift'], 8],
      [['ctrl', 'control', 'Control'], 2],
      [['alt', 'control', 'meta', 'shift'], 15],
    ];
    for (const [value, bits] of cases) t.equal(parseModifiers(value), bits, JSON.stringify(value));
    for (const [value, shown] of [[['cmd'], 'cmd'], [['command'], 'command'], [['super'], 'super'], [[1], '1'], [[null], 'null'], [['constructor'], 'constructor']]) {
      t.throws(() => parseModifiers(value), invalid(unknownModifier(shown)), JSON.stringify(value));
    }
  });

  t.test('objects of flags', async (t) => {
    t.equal(parseModifiers({}), 0);
    t.equal(parseModifiers({ ctrl: true }), 2);
    t.equal(parseModifiers({ Ctrl: true, SHIFT: 1 }), 10);
    t.equal(parseModifiers({ ctrl: true, control: true }), 2, 'de-duplicated');
    t.equal(parseModifiers({ alt: false, meta: 0, shift: '' }), 0, 'falsy flags are off');
    t.equal(parseModifiers({ alt: 1, control: 1, meta: 1, shift: 1 }), 15);
    t.throws(() => parseModifiers({ bogus: true }), invalid(unknownModifier('bogus')));
    t.throws(() => parseModifiers({ bogus: false }), invalid(unknownModifier('bogus')), 'typos are reported even when off');
    t.throws(() => parseModifiers({ constructor: true }), invalid(unknownModifier('constructor')));
  });

  t.test('null and undefined mean none; other types throw', async (t) => {
    t.equal(parseModifiers(undefined), 0);
    t.equal(parseModifiers(null), 0);
    for (const bad of ['Control', 'ctrl', '', true, 2n, Symbol('x'), () => 2]) {
      t.throws(() => parseModifiers(bad), invalid(BAD_TYPE), typeof bad);
    }
  });
});

const common = (key, code, keyCode, modifiers, unmodifiedText, location = 0) => ({
  code,
  key,
  windowsVirtualKeyCode: keyCode,
  nativeVirtualKeyCode: keyCode,
  modifiers,
  location,
  isKeypad: location === 3,
  unmodifiedText,
});

t.test('planKeyPress', async (t) => {
  t.test('a: keyDown, char, keyUp', async (t) => {
    const c = common('a', 'KeyA', 65, 0, 'a');
    t.strictSame(planKeyPress('a'), [{ type: 'keyDown', ...c }, { type: 'char', ...c, text: 'a' }, { type: 'keyUp', ...c }]);
  });

  t.test('A: typed with Shift', async (t) => {
    const c = common('A', 'KeyA', 65, 8, 'A');
    t.strictSame(planKeyPress('A'), [{ type: 'keyDown', ...c }, { type: 'char', ...c, text: 'A' }, { type: 'keyUp', ...c }]);
  });

  t.test('!: Digit1 with Shift', async (t) => {
    const c = common('!', 'Digit1', 49, 8, '!');
    t.strictSame(planKeyPress('!'), [{ type: 'keyDown', ...c }, { type: 'char', ...c, text: '!' }, { type: 'keyUp', ...c }]);
  });

  t.test('Enter: text \\r on keyDown, no char event', async (t) => {
    const c = common('Enter', 'Enter', 13, 0, '\r');
    const expected = [{ type: 'keyDown', ...c, text: '\r' }, { type: 'keyUp', ...c }];
    t.strictSame(planKeyPress('Enter'), expected);
    t.strictSame(planKeyPress('ENTER'), expected, 'case-insensitive');
    t.strictSame(planKeyPress('\n'), expected);
    t.strictSame(planKeyPress('return'), expected);
  });

  t.test('Digit1 + Shift: key ! code Digit1 modifiers 8', async (t) => {
    const c = common('!', 'Digit1', 49, 8, '!');
    const expected = [{ type: 'keyDown', ...c }, { type: 'char', ...c, text: '!' }, { type: 'keyUp', ...c }];
    t.strictSame(planKeyPress('Digit1', ['shift']), expected);
    t.strictSame(planKeyPress('Digit1', 8), expected);
    t.strictSame(planKeyPress('1', { shift: true }), expected);
  });

  t.test('Control+A: no text, selectAll command', async (t) => {
    const c = common('a', 'KeyA', 65, 2, 'a');
    const expected = [{ type: 'keyDown', ...c, commands: ['selectAll'] }, { type: 'keyUp', ...c }];
    t.strictSame(planKeyPress('a', { ctrl: true }), expected);
    t.strictSame(planKeyPress('KeyA', ['Control']), expected);
    t.strictSame(planKeyPress('A', 2), [
      { type: 'keyDown', ...common('A', 'KeyA', 65, 2, 'A'), commands: ['selectAll'] },
      { type: 'keyUp', ...common('A', 'KeyA', 65, 2, 'A') },
    ]);
    t.strictSame(planKeyPress('a', ['meta'])[0].commands, ['selectAll'], 'Meta+A too');
    t.equal(planKeyPress('a', ['control', 'shift'])[0].commands, undefined, 'Control+Shift+A is not select-all');
    t.equal(planKeyPress('b', ['control'])[0].commands, undefined);
  });

  t.test('Backspace: keyDown and keyUp only', async (t) => {
    const c = common('Backspace', 'Backspace', 8, 0, '');
    t.strictSame(planKeyPress('Backspace'), [{ type: 'keyDown', ...c }, { type: 'keyUp', ...c }]);
  });

  t.test('Esc → Escape', async (t) => {
    const c = common('Escape', 'Escape', 27, 0, '');
    t.strictSame(planKeyPress('Esc'), [{ type: 'keyDown', ...c }, { type: 'keyUp', ...c }]);
  });

  t.test('Space, numpad and characters off the layout', async (t) => {
    t.strictSame(planKeyPress(' ').map((e) => [e.type, e.text]), [['keyDown', undefined], ['char', ' '], ['keyUp', undefined]]);
    t.strictSame(planKeyPress('NumpadEnter').map((e) => [e.type, e.text, e.isKeypad, e.location]), [
      ['keyDown', '\r', true, 3],
      ['keyUp', undefined, true, 3],
    ]);
    const emoji = planKeyPress('😀');
    t.strictSame(emoji.map((e) => [e.type, e.key, e.code, e.windowsVirtualKeyCode, e.text]), [
      ['keyDown', '😀', '', 0, undefined],
      ['char', '😀', '', 0, '😀'],
      ['keyUp', '😀', '', 0, undefined],
    ]);
  });

  t.test('shortcuts send no text, even for Enter', async (t) => {
    for (const [key, mods] of [['Enter', ['control']], ['x', ['alt']], ['!', ['meta']]]) {
      const events = planKeyPress(key, mods);
      t.strictSame(events.map((e) => e.type), ['keyDown', 'keyUp'], `${key} + ${mods}`);
      t.notOk(events.some((e) => 'text' in e));
    }
  });

  t.test('validation', async (t) => {
    t.throws(() => planKeyPress('a', 'Control'), invalid(BAD_TYPE), 'a string is not a modifier list');
    t.throws(() => planKeyPress('a', { bogus: true }), invalid(unknownModifier('bogus')), 'an unknown flag is named');
    t.throws(() => planKeyPress('a', 99), invalid(BAD_NUMBER));
    t.throws(() => planKeyPress('NotAKey'), invalid(unknownKey('NotAKey')));
    t.throws(() => planKeyPress(13), invalid('pressKey: key must be a string'));
    t.throws(() => planKeyPress(undefined), invalid('pressKey: key must be a string'));
  });
});

t.test('planSelectAll: rawKeyDown + keyUp of Control+A with the selectAll command', async (t) => {
  const c = common('a', 'KeyA', 65, 2, 'a');
  t.strictSame(planSelectAll(), [{ type: 'rawKeyDown', ...c, commands: ['selectAll'] }, { type: 'keyUp', ...c }]);
});

t.test('planTypeText: one Input.insertText', async (t) => {
  t.strictSame(planTypeText('héllo\n😀'), { text: 'héllo\n😀' });
  t.strictSame(planTypeText(''), { text: '' });
  t.throws(() => planTypeText(42), invalid('typeText: text must be a string'));
});
