/**
 * The viewer's input messages, checked field by field, and the CDP commands they become
 * (`Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`, `Input.insertText`). Coordinates arrive
 * already mapped to CSS pixels of the tab's viewport (the page does it with the frame's metadata,
 * {@link imageToPage}); here they are only checked. Pure, so unit tests cover every refusal.
 */
import type { Protocol } from 'devtools-protocol';

/** Longest text one `insertText` message may carry (a paste), in UTF-16 units. */
export const MAX_INSERT_TEXT = 16 * 1024;
/** Largest coordinate or wheel delta accepted (CSS pixels). */
const MAX_COORDINATE = 100_000;

export type InputCommand =
  | { method: 'Input.dispatchMouseEvent'; params: Protocol.Input.DispatchMouseEventRequest }
  | { method: 'Input.dispatchKeyEvent'; params: Protocol.Input.DispatchKeyEventRequest }
  | { method: 'Input.insertText'; params: Protocol.Input.InsertTextRequest };

/** An input message that is not one: its message names the field. */
export class LiveViewInputError extends Error {
  override name = 'LiveViewInputError';
}

const MOUSE_EVENTS = new Set(['mouseMoved', 'mousePressed', 'mouseReleased', 'click']);
const BUTTONS = new Set(['none', 'left', 'middle', 'right', 'back', 'forward']);

/** The message types that drive the tab (refused on a read-only view). */
export const INPUT_TYPES: ReadonlySet<string> = new Set(['mouse', 'wheel', 'key', 'insertText']);

/** The CDP commands of one input message, in order. @throws LiveViewInputError */
export function inputCommands(message: Record<string, unknown>): InputCommand[] {
  switch (message['type']) {
    case 'mouse': return mouse(message);
    case 'wheel': return [{
      method: 'Input.dispatchMouseEvent',
      params: {
        type: 'mouseWheel', x: coordinate(message, 'x'), y: coordinate(message, 'y'),
        deltaX: delta(message, 'deltaX'), deltaY: delta(message, 'deltaY'), modifiers: modifiers(message),
      },
    }];
    case 'key': return [key(message)];
    case 'insertText': {
      const text = message['text'];
      if (typeof text !== 'string' || text.length === 0 || text.length > MAX_INSERT_TEXT) throw new LiveViewInputError(`text must be a string of 1 to ${MAX_INSERT_TEXT} characters`);
      return [{ method: 'Input.insertText', params: { text } }];
    }
    default: throw new LiveViewInputError(`type must be one of ${[...INPUT_TYPES].join(', ')}`);
  }
}

function mouse(message: Record<string, unknown>): InputCommand[] {
  const event = message['event'];
  if (typeof event !== 'string' || !MOUSE_EVENTS.has(event)) throw new LiveViewInputError(`event must be one of ${[...MOUSE_EVENTS].join(', ')}`);
  const x = coordinate(message, 'x');
  const y = coordinate(message, 'y');
  const pressing = event !== 'mouseMoved';
  const button = optional(message, 'button', (value): value is Protocol.Input.MouseButton => typeof value === 'string' && BUTTONS.has(value), 'one of none, left, middle, right, back, forward') ?? (pressing ? 'left' : 'none');
  const clickCount = integer(message, 'clickCount', 0, 3) ?? (pressing ? 1 : 0);
  const buttons = integer(message, 'buttons', 0, 31);
  const base = { x, y, button, clickCount, modifiers: modifiers(message), ...(buttons === undefined ? {} : { buttons }) };
  if (event === 'click') {
    return [
      { method: 'Input.dispatchMouseEvent', params: { ...base, type: 'mousePressed' } },
      { method: 'Input.dispatchMouseEvent', params: { ...base, type: 'mouseReleased' } },
    ];
  }
  return [{ method: 'Input.dispatchMouseEvent', params: { ...base, type: event as 'mouseMoved' | 'mousePressed' | 'mouseReleased' } }];
}

function key(message: Record<string, unknown>): InputCommand {
  const event = message['event'];
  if (event !== 'keyDown' && event !== 'keyUp') throw new LiveViewInputError('event must be keyDown or keyUp');
  const isShortString = (max: number) => (value: unknown): value is string => typeof value === 'string' && value.length <= max;
  const keyName = optional(message, 'key', isShortString(64), 'a string of at most 64 characters');
  const code = optional(message, 'code', isShortString(64), 'a string of at most 64 characters');
  const text = optional(message, 'text', isShortString(16), 'a string of at most 16 characters');
  const keyCode = integer(message, 'keyCode', 0, 255);
  const location = integer(message, 'location', 0, 3);
  // A keyDown with text types it (Chromium's `keyDown` = rawKeyDown + char); without, it only presses.
  const type = event === 'keyUp' ? 'keyUp' : text === undefined || text === '' ? 'rawKeyDown' : 'keyDown';
  const params: Protocol.Input.DispatchKeyEventRequest = { type, modifiers: modifiers(message) };
  if (keyName !== undefined) params.key = keyName;
  if (code !== undefined) params.code = code;
  if (type === 'keyDown' && text !== undefined) {
    params.text = text;
    params.unmodifiedText = text;
  }
  if (keyCode !== undefined) {
    params.windowsVirtualKeyCode = keyCode;
    params.nativeVirtualKeyCode = keyCode;
  }
  if (location !== undefined) params.location = location;
  return { method: 'Input.dispatchKeyEvent', params };
}

function coordinate(message: Record<string, unknown>, field: string): number {
  const value = message[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_COORDINATE) throw new LiveViewInputError(`${field} must be a number from 0 to ${MAX_COORDINATE} (CSS pixels)`);
  return value;
}

function delta(message: Record<string, unknown>, field: string): number {
  const value = message[field] ?? 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_COORDINATE) throw new LiveViewInputError(`${field} must be a number from -${MAX_COORDINATE} to ${MAX_COORDINATE}`);
  return value;
}

function modifiers(message: Record<string, unknown>): number {
  return integer(message, 'modifiers', 0, 15) ?? 0;
}

function integer(message: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const value = message[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new LiveViewInputError(`${field} must be an integer from ${min} to ${max}`);
  return value;
}

function optional<T>(message: Record<string, unknown>, field: string, check: (value: unknown) => value is T, what: string): T | undefined {
  const value = message[field];
  if (value === undefined) return undefined;
  if (!check(value)) throw new LiveViewInputError(`${field} must be ${what}`);
  return value;
}

/** What `Page.screencastFrame` says about the frame, as far as mapping needs it. */
export interface FrameGeometry {
  deviceWidth: number;
  deviceHeight: number;
  pageScaleFactor: number;
  offsetTop: number;
}

/**
 * A point of the frame's image, as a fraction of its drawn width and height (0…1), in CSS pixels
 * of the tab's viewport, which `Input.dispatchMouseEvent` takes: the image shows the device area
 * (`deviceWidth` × `deviceHeight` DIP, the content starting `offsetTop` DIP down), and pinch zoom
 * (`pageScaleFactor`) makes a DIP fewer CSS pixels. The live-view page embeds this function.
 */
export function imageToPage(fx: number, fy: number, frame: FrameGeometry): { x: number; y: number } {
  const scale = frame.pageScaleFactor > 0 ? frame.pageScaleFactor : 1;
  const x = (fx * frame.deviceWidth) / scale;
  const y = (fy * frame.deviceHeight - frame.offsetTop) / scale;
  return { x: Math.max(0, Math.round(x * 100) / 100), y: Math.max(0, Math.round(y * 100) / 100) };
}
