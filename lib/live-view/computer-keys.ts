/**
 * xdotool key names (X11 keysyms, as the Kernel SDK's `press_key` takes them: `Return`, `ctrl+a`,
 * `Ctrl+Shift+Tab`) as the fields of the live view's `key` message (lib/live-view/input.ts), for
 * a US layout. Named keys match case-insensitively (`return`, `CTRL`), a single character is
 * itself. docs/computer.md#keys lists what is known.
 */

/** One key of a combination: what `Input.dispatchKeyEvent` needs of it. */
export interface KeyInfo {
  key: string;
  code: string;
  keyCode: number;
  /** What it types without modifiers (none for Shift, Return types `\r`). */
  text?: string;
  /** CDP modifier bit when it is one (Alt 1, Ctrl 2, Meta 4, Shift 8). */
  modifier?: number;
  /** 1 left, 2 right (`location` of the DOM event), for modifiers. */
  location?: number;
}

/** A key name that is not one: its message names the field. */
export class KeyNameError extends Error {
  override name = 'KeyNameError';
}

const NAMED: Record<string, KeyInfo> = {};
function named(names: string[], info: KeyInfo): void {
  for (const name of names) NAMED[name.toLowerCase()] = info;
}

named(['Shift', 'Shift_L'], { key: 'Shift', code: 'ShiftLeft', keyCode: 16, modifier: 8, location: 1 });
named(['Shift_R'], { key: 'Shift', code: 'ShiftRight', keyCode: 16, modifier: 8, location: 2 });
named(['Ctrl', 'Control', 'Control_L', 'Ctrl_L'], { key: 'Control', code: 'ControlLeft', keyCode: 17, modifier: 2, location: 1 });
named(['Control_R', 'Ctrl_R'], { key: 'Control', code: 'ControlRight', keyCode: 17, modifier: 2, location: 2 });
named(['Alt', 'Alt_L', 'Meta_L'], { key: 'Alt', code: 'AltLeft', keyCode: 18, modifier: 1, location: 1 });
named(['Alt_R', 'Meta_R', 'ISO_Level3_Shift'], { key: 'Alt', code: 'AltRight', keyCode: 18, modifier: 1, location: 2 });
named(['Super', 'Super_L', 'Meta', 'Cmd', 'Command', 'Win'], { key: 'Meta', code: 'MetaLeft', keyCode: 91, modifier: 4, location: 1 });
named(['Super_R'], { key: 'Meta', code: 'MetaRight', keyCode: 92, modifier: 4, location: 2 });
named(['Return', 'Enter', 'KP_Enter'], { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
named(['Tab'], { key: 'Tab', code: 'Tab', keyCode: 9 });
named(['BackSpace', 'Backspace'], { key: 'Backspace', code: 'Backspace', keyCode: 8 });
named(['Escape', 'Esc'], { key: 'Escape', code: 'Escape', keyCode: 27 });
named(['Delete', 'Del'], { key: 'Delete', code: 'Delete', keyCode: 46 });
named(['Insert'], { key: 'Insert', code: 'Insert', keyCode: 45 });
named(['Home'], { key: 'Home', code: 'Home', keyCode: 36 });
named(['End'], { key: 'End', code: 'End', keyCode: 35 });
named(['Page_Up', 'Prior', 'PageUp'], { key: 'PageUp', code: 'PageUp', keyCode: 33 });
named(['Page_Down', 'Next', 'PageDown'], { key: 'PageDown', code: 'PageDown', keyCode: 34 });
named(['Left'], { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 });
named(['Up'], { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 });
named(['Right'], { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 });
named(['Down'], { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
named(['space'], { key: ' ', code: 'Space', keyCode: 32, text: ' ' });
named(['Caps_Lock'], { key: 'CapsLock', code: 'CapsLock', keyCode: 20 });
for (let n = 1; n <= 12; n++) named([`F${n}`], { key: `F${n}`, code: `F${n}`, keyCode: 111 + n });

/** Printable characters of a US keyboard: [unshifted, shifted, code, keyCode]. */
const PRINTABLE: Array<[string, string, string, number]> = [
  ['`', '~', 'Backquote', 192], ['-', '_', 'Minus', 189], ['=', '+', 'Equal', 187], ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221], ['\\', '|', 'Backslash', 220], [';', ':', 'Semicolon', 186], ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188], ['.', '>', 'Period', 190], ['/', '?', 'Slash', 191],
  ['1', '!', 'Digit1', 49], ['2', '@', 'Digit2', 50], ['3', '#', 'Digit3', 51], ['4', '$', 'Digit4', 52], ['5', '%', 'Digit5', 53],
  ['6', '^', 'Digit6', 54], ['7', '&', 'Digit7', 55], ['8', '*', 'Digit8', 56], ['9', '(', 'Digit9', 57], ['0', ')', 'Digit0', 48],
];
const CHARACTERS = new Map<string, KeyInfo>();
for (const [plain, shifted, code, keyCode] of PRINTABLE) {
  CHARACTERS.set(plain, { key: plain, code, keyCode, text: plain });
  CHARACTERS.set(shifted, { key: shifted, code, keyCode, text: shifted });
}
for (let c = 65; c <= 90; c++) {
  const upper = String.fromCharCode(c);
  const lower = upper.toLowerCase();
  CHARACTERS.set(lower, { key: lower, code: `Key${upper}`, keyCode: c, text: lower });
  CHARACTERS.set(upper, { key: upper, code: `Key${upper}`, keyCode: c, text: upper });
}
CHARACTERS.set(' ', NAMED['space'] as KeyInfo);
// The keysym names of punctuation (`minus`, `slash`, `plus`), as xdotool spells them.
const PUNCTUATION_NAMES: Record<string, string> = {
  grave: '`', asciitilde: '~', minus: '-', underscore: '_', equal: '=', plus: '+', bracketleft: '[', braceleft: '{',
  bracketright: ']', braceright: '}', backslash: '\\', bar: '|', semicolon: ';', colon: ':', apostrophe: "'", quotedbl: '"',
  comma: ',', less: '<', period: '.', greater: '>', slash: '/', question: '?', exclam: '!', at: '@', numbersign: '#',
  dollar: '$', percent: '%', asciicircum: '^', ampersand: '&', asterisk: '*', parenleft: '(', parenright: ')',
};
for (const [name, character] of Object.entries(PUNCTUATION_NAMES)) NAMED[name] = CHARACTERS.get(character) as KeyInfo;

/** The key of one name (`Return`, `a`, `F5`, `ctrl`), or undefined when there is none. */
export function keyOf(name: string): KeyInfo | undefined {
  if (name.length === 1) return CHARACTERS.get(name) ?? { key: name, code: '', keyCode: 0, text: name };
  return NAMED[name.toLowerCase()];
}

/** The keys of one combination (`Ctrl+Shift+Tab`), in press order. @throws KeyNameError naming `field` */
export function parseCombo(combo: string, field: string): KeyInfo[] {
  // `+` alone, or a combination ending in it (`ctrl++`), means the plus key.
  const parts = combo === '+' ? ['+'] : combo.endsWith('++') ? [...combo.slice(0, -2).split('+'), '+'] : combo.split('+');
  if (combo === '' || parts.some((part) => part === '')) throw new KeyNameError(`${field} must be a key name or a combination such as ctrl+a (got ${JSON.stringify(combo)})`);
  return parts.map((part) => {
    const info = keyOf(part);
    if (info === undefined) throw new KeyNameError(`${field}: unknown key ${JSON.stringify(part)} (xdotool names such as Return, Tab, BackSpace, ctrl, shift, alt, super, F5, Page_Down, a, 1; see docs/computer.md#keys)`);
    return info;
  });
}

/** The key that types one character of `type`, with Shift when a US keyboard needs it. */
export function characterKey(character: string): { info: KeyInfo; shift: boolean } | undefined {
  if (character === '\n' || character === '\r') return { info: NAMED['return'] as KeyInfo, shift: false };
  if (character === '\t') return { info: NAMED['tab'] as KeyInfo, shift: false };
  const info = CHARACTERS.get(character);
  if (info === undefined) return undefined;
  const shift = /[A-Z~_+{}|:"<>?!@#$%^&*()]/.test(character);
  return { info, shift };
}
