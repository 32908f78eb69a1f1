/**
 * Plans the mouse input of `click` and `scroll` (pure; test/unit/interaction-input.test.mjs).
 *
 * A click is `mouseMoved` to the point (hover, enter and over events fire as for a person),
 * then for n = 1…clickCount a `mousePressed`/`mouseReleased` pair with `clickCount: n`, so a
 * double click is two pairs with counts 1 and 2 (docs/repl.md, `browser.click`).
 */
import type { Protocol } from 'devtools-protocol';
import type { InputCommand } from './input-pipeline.js';

/** The buttons `click` can press. */
export type MouseButton = 'left' | 'right' | 'middle';

/** `buttons` bitmask of a pressed button (DOM `MouseEvent.buttons`). */
export const BUTTON_MASK: Readonly<Record<MouseButton, number>> = { left: 1, middle: 4, right: 2 };

/** Where and how {@link planClick} clicks. */
export interface ClickPlan {
  x: number;
  y: number;
  button: MouseButton;
  clickCount: number;
  /** CDP modifier bitfield (Alt 1, Control 2, Meta 4, Shift 8). */
  modifiers: number;
}

/** The `Input.dispatchMouseEvent` commands of one click, in order. */
export function planClick(plan: ClickPlan): InputCommand[] {
  const { x, y, button, clickCount, modifiers } = plan;
  const event = (params: Protocol.Input.DispatchMouseEventRequest): InputCommand => ({ method: 'Input.dispatchMouseEvent', params });
  const commands = [event({ type: 'mouseMoved', x, y, button: 'none', buttons: 0, modifiers })];
  for (let count = 1; count <= clickCount; count++) {
    commands.push(event({ type: 'mousePressed', x, y, button, buttons: BUTTON_MASK[button], clickCount: count, modifiers }));
    commands.push(event({ type: 'mouseReleased', x, y, button, buttons: 0, clickCount: count, modifiers }));
  }
  return commands;
}

/** The one `mouseWheel` event of `scroll`. */
export function planWheel(x: number, y: number, deltaY: number, deltaX: number): Protocol.Input.DispatchMouseEventRequest {
  return { type: 'mouseWheel', x, y, deltaX, deltaY };
}
