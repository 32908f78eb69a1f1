// xdotool key names as CDP key fields (lib/live-view/computer-keys.ts, docs/computer.md#keys):
// names, aliases, case, combinations, the plus key, characters of `type`, and refusals that name
// the field.
import t from 'tap';
import { characterKey, keyOf, KeyNameError, parseCombo } from '../../dist/lib/live-view/computer-keys.js';

t.test('named keys, aliases and case', async (t) => {
  t.match(keyOf('Return'), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
  t.same(keyOf('enter'), keyOf('Return'));
  t.same(keyOf('KP_Enter'), keyOf('Return'));
  t.match(keyOf('BackSpace'), { key: 'Backspace', keyCode: 8 });
  t.match(keyOf('Page_Down'), { key: 'PageDown' });
  t.same(keyOf('Next'), keyOf('Page_Down'));
  t.match(keyOf('F5'), { key: 'F5', keyCode: 116 });
  t.match(keyOf('ctrl'), { key: 'Control', modifier: 2 });
  t.same(keyOf('Control_L'), keyOf('CTRL'));
  t.match(keyOf('super'), { key: 'Meta', modifier: 4 });
  t.match(keyOf('minus'), { key: '-', code: 'Minus' });
  t.equal(keyOf('NoSuchKey'), undefined);
});

t.test('single characters are themselves', async (t) => {
  t.match(keyOf('a'), { key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
  t.match(keyOf('A'), { key: 'A', code: 'KeyA', text: 'A' });
  t.match(keyOf('5'), { key: '5', code: 'Digit5', keyCode: 53 });
  t.match(keyOf('é'), { key: 'é', text: 'é', keyCode: 0 });
});

t.test('combinations', async (t) => {
  t.same(parseCombo('Ctrl+Shift+Tab', 'keys[0]').map((info) => info.key), ['Control', 'Shift', 'Tab']);
  t.same(parseCombo('ctrl+a', 'keys[0]').map((info) => info.code), ['ControlLeft', 'KeyA']);
  t.same(parseCombo('+', 'keys[0]').map((info) => info.key), ['+']);
  t.same(parseCombo('ctrl++', 'keys[0]').map((info) => info.key), ['Control', '+']);
  t.same(parseCombo('ctrl+plus', 'keys[0]').map((info) => info.key), ['Control', '+']);
});

t.test('refusals name the field', async (t) => {
  t.throws(() => parseCombo('ctrl+NoSuchKey', 'keys[2]'), KeyNameError);
  t.throws(() => parseCombo('ctrl+NoSuchKey', 'keys[2]'), /^keys\[2\]: unknown key "NoSuchKey"/);
  t.throws(() => parseCombo('', 'keys[0]'), /keys\[0\] must be a key name/);
  t.throws(() => parseCombo('ctrl+', 'keys[1]'), /keys\[1\] must be a key name/);
  t.throws(() => parseCombo('a++b', 'keys[0]'), /keys\[0\] must be a key name/);
});

t.test('characters of type: the key, and Shift where a US keyboard needs it', async (t) => {
  t.match(characterKey('a'), { info: { code: 'KeyA' }, shift: false });
  t.match(characterKey('A'), { info: { code: 'KeyA' }, shift: true });
  t.match(characterKey('!'), { info: { code: 'Digit1' }, shift: true });
  t.match(characterKey('/'), { info: { code: 'Slash' }, shift: false });
  t.match(characterKey('?'), { info: { code: 'Slash' }, shift: true });
  t.match(characterKey('\n'), { info: { key: 'Enter' }, shift: false });
  t.match(characterKey('\t'), { info: { key: 'Tab' }, shift: false });
  t.equal(characterKey('é'), undefined, 'no US key: inserted instead');
});
