/**
 * The US keyboard layout used by `pressKey`, `fillInput` and `typeText`, and the planners that turn a
 * key press into `Input.dispatchKeyEvent` parameters. Pure logic: nothing here talks CDP.
 *
 * See docs/interaction.md, "Keyboard", and docs/repl.md, `browser.pressKey` and `browser.typeText`.
 * Guarded by `test/unit/us-keyboard-layout.test.mjs`.
 */
import { ReplError } from '../../common/errors.js';

import type { Protocol } from 'devtools-protocol';

/** CDP modifier bits (`Input.dispatchKeyEvent.modifiers`). */
export const Modifier = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;

/** A key as resolved against the layout and the active modifiers: everything a key event needs. */
export interface ResolvedKey {
  /** DOM `KeyboardEvent.key` after Shift, e.g. `!` for `Digit1` + Shift. */
  readonly key: string;
  /** DOM `KeyboardEvent.code`; `''` for characters that are not on the US layout. */
  readonly code: string;
  /** Windows virtual key code, also sent as the native key code; `0` off the layout. */
  readonly keyCode: number;
  /** Text the key produces with Shift applied; `''` when it produces none (Tab, ArrowLeft, …). */
  readonly text: string;
  /** `text` as if Alt, Control and Meta were up (the CDP meaning: Shift still applies). */
  readonly unmodifiedText: string;
  /** 0 standard, 1 left, 2 right, 3 numpad. */
  readonly location: number;
  /** The bitfield to send: the caller's modifiers, plus Shift for shifted characters typed without a shortcut. */
  readonly modifiers: number;
}

interface LayoutEntry {
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
  readonly shiftKey?: string;
  readonly shiftKeyCode?: number;
  readonly text?: string;
  readonly location?: number;
  /** A character that needs Shift on a US keyboard (`A`, `!`, `:`). */
  readonly needsShift?: boolean;
}

// Maps, not object literals: a user-supplied name such as `constructor` must not hit Object.prototype.
const MODIFIER_NAMES: ReadonlyMap<string, number> = new Map([
  ['alt', Modifier.Alt],
  ['ctrl', Modifier.Control],
  ['control', Modifier.Control],
  ['meta', Modifier.Meta],
  ['shift', Modifier.Shift],
]);

const SHORTCUT_BITS = Modifier.Alt | Modifier.Control | Modifier.Meta;

/** Single characters, matched exactly (so `A` and `a` differ). */
const CHARACTERS = new Map<string, LayoutEntry>();
/** Multi-character names, lower-cased: matched case-insensitively. */
const NAMES = new Map<string, LayoutEntry>();
/** Every multi-character name in its canonical spelling, in table order. */
const CANONICAL_NAMES: string[] = [];

function defineName(name: string, entry: LayoutEntry): void {
  NAMES.set(name.toLowerCase(), entry);
  CANONICAL_NAMES.push(name);
}

// Digits and their shifted symbols: Digit1 is `1`, and `!` with Shift.
const DIGIT_SHIFTED = ')!@#$%^&*(';
for (let n = 0; n <= 9; n++) {
  const code = `Digit${n}`;
  const shifted = DIGIT_SHIFTED.charAt(n);
  const entry: LayoutEntry = { key: String(n), code, keyCode: 48 + n, shiftKey: shifted };
  defineName(code, entry);
  CHARACTERS.set(String(n), entry);
  CHARACTERS.set(shifted, { key: shifted, code, keyCode: 48 + n, needsShift: true });
}

for (let i = 0; i < 26; i++) {
  const lower = String.fromCharCode(97 + i);
  const upper = lower.toUpperCase();
  const code = `Key${upper}`;
  const entry: LayoutEntry = { key: lower, code, keyCode: 65 + i, shiftKey: upper };
  defineName(code, entry);
  CHARACTERS.set(lower, entry);
  CHARACTERS.set(upper, { key: upper, code, keyCode: 65 + i, needsShift: true });
}

const PUNCTUATION: ReadonlyArray<readonly [code: string, keyCode: number, plain: string, shifted: string]> = [
  ['Semicolon', 186, ';', ':'],
  ['Equal', 187, '=', '+'],
  ['Comma', 188, ',', '<'],
  ['Minus', 189, '-', '_'],
  ['Period', 190, '.', '>'],
  ['Slash', 191, '/', '?'],
  ['Backquote', 192, '`', '~'],
  ['BracketLeft', 219, '[', '{'],
  ['Backslash', 220, '\\', '|'],
  ['BracketRight', 221, ']', '}'],
  ['Quote', 222, "'", '"'],
];
for (const [code, keyCode, plain, shifted] of PUNCTUATION) {
  const entry: LayoutEntry = { key: plain, code, keyCode, shiftKey: shifted };
  defineName(code, entry);
  CHARACTERS.set(plain, entry);
  CHARACTERS.set(shifted, { key: shifted, code, keyCode, needsShift: true });
}

/** `[code, keyCode, extra]`; `key` defaults to the code. */
const NAMED_KEYS: ReadonlyArray<readonly [code: string, keyCode: number, extra?: Partial<LayoutEntry>]> = [
  ['Abort', 3, { key: 'Cancel' }],
  ['Help', 6],
  ['Backspace', 8],
  ['Tab', 9],
  ['Enter', 13, { text: '\r' }],
  ['ShiftLeft', 16, { key: 'Shift', location: 1 }],
  ['ShiftRight', 16, { key: 'Shift', location: 2 }],
  ['ControlLeft', 17, { key: 'Control', location: 1 }],
  ['ControlRight', 17, { key: 'Control', location: 2 }],
  ['AltLeft', 18, { key: 'Alt', location: 1 }],
  ['AltRight', 18, { key: 'Alt', location: 2 }],
  ['Pause', 19],
  ['CapsLock', 20],
  ['Escape', 27],
  ['Convert', 28],
  ['NonConvert', 29],
  ['Space', 32, { key: ' ', text: ' ' }],
  ['PageUp', 33],
  ['PageDown', 34],
  ['End', 35],
  ['Home', 36],
  ['ArrowLeft', 37],
  ['ArrowUp', 38],
  ['ArrowRight', 39],
  ['ArrowDown', 40],
  ['Select', 41],
  ['Open', 43, { key: 'Execute' }],
  ['PrintScreen', 44],
  ['Insert', 45],
  ['Delete', 46],
  ['MetaLeft', 91, { key: 'Meta', location: 1 }],
  ['MetaRight', 92, { key: 'Meta', location: 2 }],
  ['ContextMenu', 93],
  ['NumLock', 144],
  ['ScrollLock', 145],
  ['AudioVolumeMute', 173],
  ['AudioVolumeDown', 174],
  ['AudioVolumeUp', 175],
  ['MediaTrackNext', 176],
  ['MediaTrackPrevious', 177],
  ['MediaStop', 178],
  ['MediaPlayPause', 179],
  ['AltGraph', 225],
  // Numpad digits behave as with NumLock off; Shift gives the digit (docs/interaction.md, "Keyboard").
  ['Numpad0', 45, { key: 'Insert', shiftKey: '0', shiftKeyCode: 96, location: 3 }],
  ['Numpad1', 35, { key: 'End', shiftKey: '1', shiftKeyCode: 97, location: 3 }],
  ['Numpad2', 40, { key: 'ArrowDown', shiftKey: '2', shiftKeyCode: 98, location: 3 }],
  ['Numpad3', 34, { key: 'PageDown', shiftKey: '3', shiftKeyCode: 99, location: 3 }],
  ['Numpad4', 37, { key: 'ArrowLeft', shiftKey: '4', shiftKeyCode: 100, location: 3 }],
  ['Numpad5', 12, { key: 'Clear', shiftKey: '5', shiftKeyCode: 101, location: 3 }],
  ['Numpad6', 39, { key: 'ArrowRight', shiftKey: '6', shiftKeyCode: 102, location: 3 }],
  ['Numpad7', 36, { key: 'Home', shiftKey: '7', shiftKeyCode: 103, location: 3 }],
  ['Numpad8', 38, { key: 'ArrowUp', shiftKey: '8', shiftKeyCode: 104, location: 3 }],
  ['Numpad9', 33, { key: 'PageUp', shiftKey: '9', shiftKeyCode: 105, location: 3 }],
  ['NumpadEnter', 13, { key: 'Enter', text: '\r', location: 3 }],
  ['NumpadMultiply', 106, { key: '*', location: 3 }],
  ['NumpadAdd', 107, { key: '+', location: 3 }],
  ['NumpadSubtract', 109, { key: '-', location: 3 }],
  ['NumpadDivide', 111, { key: '/', location: 3 }],
  ['NumpadEqual', 187, { key: '=', location: 3 }],
  ['NumpadDecimal', 46, { key: '\0', shiftKey: '.', shiftKeyCode: 110, location: 3 }],
];
for (const [code, keyCode, extra] of NAMED_KEYS) defineName(code, { key: code, code, keyCode, ...extra });
for (let i = 1; i <= 24; i++) defineName(`F${i}`, { key: `F${i}`, code: `F${i}`, keyCode: 111 + i });

// Bare modifier names press the left-hand key, as a physical keyboard's default would.
for (const [bare, left] of [['Shift', 'shiftleft'], ['Control', 'controlleft'], ['Alt', 'altleft'], ['Meta', 'metaleft']] as const) {
  defineName(bare, NAMES.get(left) as LayoutEntry);
}
CHARACTERS.set('\r', NAMES.get('enter') as LayoutEntry);
CHARACTERS.set('\n', NAMES.get('enter') as LayoutEntry);
CHARACTERS.set(' ', NAMES.get('space') as LayoutEntry);

/** Lower-case alias → canonical name. Checked before the names themselves. */
export const KEY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['esc', 'Escape'],
  ['return', 'Enter'],
  ['spacebar', 'Space'],
  ['del', 'Delete'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
  ['ctrl', 'Control'],
]);

/** Every multi-character key name the layout defines (aliases excluded), in canonical spelling. */
export const US_KEY_NAMES: readonly string[] = Object.freeze([...CANONICAL_NAMES]);

/** The names quoted by the unknown-key error: the keys people reach for most, not table order. */
const SUGGESTED_NAMES = [
  'Enter', 'Tab', 'Escape', 'Backspace', 'Delete', 'Space', 'ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown',
  'Home', 'End', 'PageUp', 'PageDown', 'Insert', 'F1', 'F12', 'KeyA', 'Digit1', 'Numpad0',
].join(', ');

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', message);
}

/**
 * Parses `pressKey` modifiers into the CDP bitfield (Alt 1, Control 2, Meta 4, Shift 8).
 *
 * Accepts `null`/`undefined` (none), an integer 0–15, an array of names, or an object of flags
 * (`{ctrl: true}`; falsy flags are ignored). Names are case-insensitive: alt, ctrl, control, meta,
 * shift. Throws `REPL_ERR_INVALID_ARGUMENT` with the spec's exact messages otherwise.
 */
export function parseModifiers(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 15) {
      throw invalid('pressKey: numeric modifiers must be a bitfield from 0 to 15');
    }
    return value;
  }
  let names: unknown[];
  if (Array.isArray(value)) {
    names = value;
  } else if (typeof value === 'object') {
    // Every key is validated, even falsy ones, so a typo such as {ctlr: false} is still reported.
    const flags = value as Record<string, unknown>;
    for (const name of Object.keys(flags)) modifierBit(name);
    names = Object.keys(flags).filter((name) => Boolean(flags[name]));
  } else {
    throw invalid('pressKey: modifiers must be an array drawn from Alt, Control, Meta, Shift (or an object like {ctrl: true})');
  }
  let bits = 0;
  for (const name of names) bits |= modifierBit(name);
  return bits;
}

function modifierBit(name: unknown): number {
  const bit = typeof name === 'string' ? MODIFIER_NAMES.get(name.toLowerCase()) : undefined;
  if (bit === undefined) {
    throw invalid(`pressKey: unknown modifier: ${String(name)} (expected Alt, Control, Meta, or Shift)`);
  }
  return bit;
}

function lookup(key: string): LayoutEntry {
  // One code point (not one UTF-16 unit): '😀' is a single character to type.
  if ([...key].length === 1) {
    return CHARACTERS.get(key) ?? { key, code: '', keyCode: 0, text: key };
  }
  const lower = key.toLowerCase();
  const entry = NAMES.get(KEY_ALIASES.get(lower)?.toLowerCase() ?? lower);
  if (entry === undefined) {
    throw invalid(`unknown key: ${key} (use one Unicode character or a supported US-layout key such as ${SUGGESTED_NAMES})`);
  }
  return entry;
}

function textOf(entry: LayoutEntry, key: string): string {
  if (entry.text !== undefined) return entry.text;
  return [...key].length === 1 ? key : '';
}

/**
 * Resolves a key name or character against the US layout under the given modifier bitfield.
 *
 * One code point is matched exactly (`A` ≠ `a`); a character off the layout (`é`, `😀`) resolves to
 * `{key: char, code: '', keyCode: 0, text: char}`. Longer names are case-insensitive and may be
 * aliases (`esc`, `return`, `spacebar`, `del`, `cmd`, `command`, `ctrl`). With Shift the shifted key
 * and key code apply (`Digit1` → `!`). A shifted character typed without Alt/Control/Meta (`A`, `!`)
 * gets the Shift bit added, as a real keyboard would report it.
 *
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT`: `unknown key: <k> (…)` or a modifiers error.
 */
export function resolveKey(key: string, modifiers: number): ResolvedKey {
  let bits = parseModifiers(modifiers);
  const entry = lookup(key);
  if (entry.needsShift === true && (bits & SHORTCUT_BITS) === 0) bits |= Modifier.Shift;
  const shifted = (bits & Modifier.Shift) !== 0;
  const resolvedKey = shifted ? entry.shiftKey ?? entry.key : entry.key;
  const text = textOf(entry, resolvedKey);
  return {
    key: resolvedKey,
    code: entry.code,
    keyCode: shifted ? entry.shiftKeyCode ?? entry.keyCode : entry.keyCode,
    text,
    unmodifiedText: text,
    location: entry.location ?? 0,
    modifiers: bits,
  };
}

/**
 * Plans the `Input.dispatchKeyEvent` calls for `pressKey(key, modifiers)`, in order.
 *
 * Sequence: `keyDown`, then a `char` carrying the text for printable keys (one code point, has text,
 * no Alt/Control/Meta), then `keyUp`. Keys with text that are not printable (Enter, NumpadEnter)
 * carry it on `keyDown` instead, so `\r` submits forms. Shortcuts send no text. Modifier keys are
 * not pressed themselves; only the bitfield is set. Control+A or Meta+A also carry
 * `commands: ['selectAll']`, so select-all works whatever platform the browser runs on.
 *
 * @param key A key name (`Enter`, `ArrowLeft`, `KeyA`, alias `esc`) or one Unicode character.
 * @param modifiers Anything `parseModifiers` accepts.
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT` for a non-string key, an unknown key or bad modifiers.
 */
export function planKeyPress(key: unknown, modifiers?: unknown): Protocol.Input.DispatchKeyEventRequest[] {
  if (typeof key !== 'string') throw invalid('pressKey: key must be a string');
  const resolved = resolveKey(key, parseModifiers(modifiers));
  const shortcut = (resolved.modifiers & SHORTCUT_BITS) !== 0;
  const printable = [...resolved.key].length === 1 && resolved.text !== '' && !shortcut;
  const base = {
    code: resolved.code,
    key: resolved.key,
    windowsVirtualKeyCode: resolved.keyCode,
    nativeVirtualKeyCode: resolved.keyCode,
    modifiers: resolved.modifiers,
    location: resolved.location,
    isKeypad: resolved.location === 3,
    unmodifiedText: resolved.unmodifiedText,
  };
  const down: Protocol.Input.DispatchKeyEventRequest = { type: 'keyDown', ...base };
  if (!printable && !shortcut && resolved.text !== '') down.text = resolved.text;
  if (resolved.code === 'KeyA' && (resolved.modifiers === Modifier.Control || resolved.modifiers === Modifier.Meta)) {
    // Chromium on macOS runs no editing shortcut for a CDP key event; the explicit command does.
    down.commands = ['selectAll'];
  }
  const events: Protocol.Input.DispatchKeyEventRequest[] = [down];
  if (printable) events.push({ type: 'char', ...base, text: resolved.text });
  events.push({ type: 'keyUp', ...base });
  return events;
}

/**
 * Plans the select-all that `fillInput` sends before clearing: `rawKeyDown` + `keyUp` of `a`
 * (`KeyA`, VK 65) with Control, carrying `commands: ['selectAll']`. The command makes the result
 * independent of the browser's platform, so Control is right even for a browser on macOS.
 */
export function planSelectAll(): Protocol.Input.DispatchKeyEventRequest[] {
  // Ctrl+A is a shortcut, so planKeyPress yields exactly keyDown (with the command) and keyUp.
  return planKeyPress('a', Modifier.Control).map((event) => (event.type === 'keyDown' ? { ...event, type: 'rawKeyDown' } : event));
}

/**
 * Plans `typeText(text)`: one `Input.insertText` into whatever has focus. No key events fire and
 * nothing is focused first (docs/repl.md, `browser.typeText`).
 *
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT` `typeText: text must be a string`.
 */
export function planTypeText(text: unknown): Protocol.Input.InsertTextRequest {
  if (typeof text !== 'string') throw invalid('typeText: text must be a string');
  return { text };
}
