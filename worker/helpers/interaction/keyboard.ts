/**
 * Plans how `fillInput` types a string (pure; test/unit/interaction-input.test.mjs).
 *
 * Characters on the US layout are typed as real key presses: `keyDown` carrying the text (which
 * Chromium turns into keydown, keypress, beforeinput and input) and `keyUp`, with Shift set for
 * shifted characters, so `A` and `!` arrive exactly as from a keyboard. Everything else goes
 * through `Input.insertText`, which inserts without key events:
 * - characters off the layout (`é`, `😀`, CJK, tab), which have no key code;
 * - line breaks: as Enter they would submit a form from a single-line input (a weakness of the
 *   hosted product's fillInput, docs/interaction.md "Keyboard"); inserted, a textarea gets a newline and
 *   an input a space, as on paste.
 * Text longer than {@link LONG_TEXT_CODE_POINTS} is inserted in one go except its last
 * character, which is still typed as a key, so listeners waiting for a keystroke still run.
 */
import { planKeyPress } from '../../input/us-keyboard-layout.js';

import type { Protocol } from 'devtools-protocol';
import type { InputCommand } from './input-pipeline.js';

/** Above this many code points, typing key by key costs more than it is worth. */
export const LONG_TEXT_CODE_POINTS = 200;

const LINE_BREAK = /\r\n?|\n/g;

/** The two events that type one character on the US layout, or null when it has no key. */
export function planCharacterKeys(character: string): Protocol.Input.DispatchKeyEventRequest[] | null {
  if (character === '\r' || character === '\n') return null;
  const events = planKeyPress(character);
  const down = events[0];
  const char = events.find((event) => event.type === 'char');
  const up = events[events.length - 1];
  if (down === undefined || up === undefined || char === undefined || down.windowsVirtualKeyCode === 0) return null;
  // keyDown with text is keydown + keypress/char in one command: half the round trips of three events.
  return [{ ...down, text: char.text }, up];
}

/** The commands that type `text` into the focused element, in order. */
export function planTyping(text: string): InputCommand[] {
  const characters = [...text.replace(LINE_BREAK, '\n')];
  const commands: InputCommand[] = [];
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    commands.push({ method: 'Input.insertText', params: { text: pending } });
    pending = '';
  };
  let start = 0;
  if (characters.length > LONG_TEXT_CODE_POINTS) {
    const lastKeys = planCharacterKeys(characters[characters.length - 1] ?? '');
    pending = characters.slice(0, lastKeys === null ? characters.length : -1).join('');
    start = lastKeys === null ? characters.length : characters.length - 1;
  }
  for (let index = start; index < characters.length; index++) {
    const character = characters[index] ?? '';
    const keys = planCharacterKeys(character);
    if (keys === null) {
      pending += character;
      continue;
    }
    flush();
    for (const params of keys) commands.push({ method: 'Input.dispatchKeyEvent', params });
  }
  flush();
  return commands;
}

/** `Backspace` down and up: deletes the selection the fill probe made. */
export function planBackspace(): InputCommand[] {
  return planKeyPress('Backspace').map((params) => ({ method: 'Input.dispatchKeyEvent', params }));
}

/** Splits commands where key events and text insertion alternate, so each batch can be awaited. */
export function batchesOf(commands: readonly InputCommand[]): InputCommand[][] {
  const batches: InputCommand[][] = [];
  let current: InputCommand[] = [];
  for (const command of commands) {
    const previous = current[current.length - 1];
    if (previous !== undefined && (previous.method === 'Input.insertText') !== (command.method === 'Input.insertText')) {
      batches.push(current);
      current = [];
    }
    current.push(command);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
