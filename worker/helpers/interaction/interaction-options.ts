/**
 * Argument validation of the interaction helpers (pure; test/unit/interaction-options.test.mjs).
 * The messages are the contract's (docs/browser-helpers.md "Shared rules", docs/interaction.md); tests match
 * them verbatim. Everything is validated before the first CDP command is sent.
 */
import { ReplError } from '../../../common/errors.js';
import { parseModifiers } from '../../input/us-keyboard-layout.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';
import { readTarget } from './element-target.js';

import type { ElementTarget } from './element-target.js';
import type { MouseButton } from './mouse.js';

/** Default of `timeoutSec` for click, fillInput and waitForElement. */
export const DEFAULT_TIMEOUT_SEC = 10;
/** Default wheel delta of `scroll`: positive scrolls down, which is what "scroll" usually means. */
/** The contract's default (scrolls up), kept so code written for the hosted product behaves the same. */
export const DEFAULT_SCROLL_DY = -300;
/** Default node cap of a snapshot: large pages stay readable in an agent's context. */
export const DEFAULT_MAX_NODES = 2000;

const ELEMENT_ONLY = 'is only supported for selector targets or accessibility-node targets';

/** Where a click goes: an element, or viewport coordinates. */
export type ClickTarget = ElementTarget | { kind: 'point'; x: number; y: number };

/** A parsed `click` call. */
export interface ClickRequest {
  target: ClickTarget;
  button: MouseButton;
  clickCount: number;
  modifiers: number;
  timeoutSec: number;
  force: boolean;
  trial: boolean;
  position: { x: number; y: number } | undefined;
  /** Fail once the same element has covered the target this long (default: wait out `timeoutSec`). */
  coveredTimeoutSec?: number;
}

/** A parsed `fillInput` call. */
export interface FillRequest {
  target: ElementTarget;
  text: string;
  clearFirst: boolean;
  timeoutSec: number;
  /** Skip the hit test (a field under an overlay is typed into anyway); present when given. */
  force?: boolean;
  /** Type the text as one insertion (beforeinput/input, no key events), as Playwright's fill does. */
  insert?: boolean;
  /** As {@link ClickRequest.coveredTimeoutSec}. */
  coveredTimeoutSec?: number;
}

/** The states `waitForElement` waits for. */
export type ElementState = 'attached' | 'detached' | 'visible' | 'hidden';

/** A parsed `waitForElement` call. */
export interface WaitRequest {
  target: ElementTarget;
  state: ElementState;
  timeoutSec: number;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function readBoolean(helper: string, options: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidArgument(`${helper}: ${name} must be a boolean`);
  return value;
}

/** Modifiers as pressKey reads them, with the helper's own name in the message. */
export function readModifiers(helper: string, value: unknown): number {
  try {
    return parseModifiers(value);
  } catch (error) {
    if (error instanceof ReplError) throw invalidArgument(error.message.replace(/^pressKey:/, `${helper}:`));
    throw error;
  }
}

/** `click(target, options?)`. */
export function readClickRequest(target: unknown, rawOptions: unknown): ClickRequest {
  let parsed: ClickTarget;
  if (typeof target === 'string' && target.trim() === '') throw invalidArgument('click: selector must not be empty');
  const element = readTarget('click', target);
  if (element !== null) {
    parsed = element;
  } else if (target !== null && typeof target === 'object' && isFiniteNumber((target as { x?: unknown }).x) && isFiniteNumber((target as { y?: unknown }).y)) {
    parsed = { kind: 'point', x: (target as { x: number }).x, y: (target as { y: number }).y };
  } else {
    throw invalidArgument('click: target must be a selector, accessibility node, or finite {x, y} coordinates');
  }
  const options = readOptions('click', rawOptions, ['button', 'clickCount', 'timeoutSec', 'modifiers', 'position', 'force', 'trial', 'coveredTimeoutSec']);
  const button = options['button'] ?? 'left';
  if (button !== 'left' && button !== 'right' && button !== 'middle') throw invalidArgument('click: button must be left, right, or middle');
  const clickCount = options['clickCount'] ?? 1;
  if (typeof clickCount !== 'number' || !Number.isInteger(clickCount) || clickCount < 1) {
    throw invalidArgument('click: clickCount must be a positive integer');
  }
  if (parsed.kind === 'point') {
    for (const name of ['timeoutSec', 'position', 'force', 'trial', 'coveredTimeoutSec']) {
      if (options[name] !== undefined) throw invalidArgument(`click: ${name} ${ELEMENT_ONLY}`);
    }
  }
  const timeoutSec = nonNegativeSeconds('click', options['timeoutSec'], DEFAULT_TIMEOUT_SEC);
  const modifiers = readModifiers('click', options['modifiers']);
  let position: ClickRequest['position'];
  const rawPosition = options['position'];
  if (rawPosition !== undefined) {
    const { x, y } = (rawPosition ?? {}) as { x?: unknown; y?: unknown };
    if (typeof rawPosition !== 'object' || !isFiniteNumber(x) || !isFiniteNumber(y)) {
      throw invalidArgument('click: position must be {x, y} with finite numbers (CSS pixels from the element\'s top-left corner)');
    }
    position = { x, y };
  }
  const request: ClickRequest = {
    target: parsed,
    button,
    clickCount,
    modifiers,
    timeoutSec,
    position,
    force: readBoolean('click', options, 'force', false),
    trial: readBoolean('click', options, 'trial', false),
  };
  if (options['coveredTimeoutSec'] !== undefined) request.coveredTimeoutSec = nonNegativeSeconds('click', options['coveredTimeoutSec'], 0, 'coveredTimeoutSec');
  return request;
}

/** `fillInput(target, text, options?)`. */
export function readFillRequest(target: unknown, text: unknown, rawOptions: unknown): FillRequest {
  const element = readTarget('fillInput', target);
  if (element === null) throw invalidArgument('fillInput: target must be a selector or accessibility node');
  if (typeof text !== 'string') throw invalidArgument('fillInput: text must be a string');
  const options = readOptions('fillInput', rawOptions, ['clearFirst', 'timeoutSec', 'force', 'insert', 'coveredTimeoutSec']);
  const clearFirst = readBoolean('fillInput', options, 'clearFirst', true);
  const timeoutSec = nonNegativeSeconds('fillInput', options['timeoutSec'], DEFAULT_TIMEOUT_SEC);
  const request: FillRequest = { target: element, text, clearFirst, timeoutSec };
  if (options['force'] !== undefined) request.force = readBoolean('fillInput', options, 'force', false);
  if (options['insert'] !== undefined) request.insert = readBoolean('fillInput', options, 'insert', false);
  if (options['coveredTimeoutSec'] !== undefined) request.coveredTimeoutSec = nonNegativeSeconds('fillInput', options['coveredTimeoutSec'], 0, 'coveredTimeoutSec');
  return request;
}

/** `waitForElement(target, options?)`. */
export function readWaitRequest(target: unknown, rawOptions: unknown): WaitRequest {
  const element = readTarget('waitForElement', target);
  if (element === null) throw invalidArgument('waitForElement: target must be a selector or accessibility node');
  const options = readOptions('waitForElement', rawOptions, ['state', 'timeoutSec']);
  const state = options['state'] ?? 'visible';
  if (state !== 'attached' && state !== 'detached' && state !== 'visible' && state !== 'hidden') {
    throw invalidArgument('waitForElement: state must be attached, detached, visible, or hidden');
  }
  const timeoutSec = nonNegativeSeconds('waitForElement', options['timeoutSec'], DEFAULT_TIMEOUT_SEC);
  return { target: element, state, timeoutSec };
}

/** `scroll(x, y, dy?, dx?)`; dy defaults to -300 (up), as in the contract. */
export function readScrollRequest(x: unknown, y: unknown, dy: unknown, dx: unknown): { x: number; y: number; dy: number; dx: number } {
  if (!isFiniteNumber(x) || !isFiniteNumber(y)) throw invalidArgument('scroll: x and y must be finite numbers (viewport CSS pixels)');
  const deltaY = dy === undefined ? DEFAULT_SCROLL_DY : dy;
  const deltaX = dx === undefined ? 0 : dx;
  if (!isFiniteNumber(deltaY) || !isFiniteNumber(deltaX)) throw invalidArgument('scroll: dy and dx must be finite numbers');
  return { x, y, dy: deltaY, dx: deltaX };
}

/** `accessibilitySnapshot(options?)`. */
export function readSnapshotRequest(rawOptions: unknown): { maxNodes: number; interactiveOnly: boolean } {
  const options = readOptions('accessibilitySnapshot', rawOptions, ['maxNodes', 'interactiveOnly']);
  const maxNodes = options['maxNodes'] ?? DEFAULT_MAX_NODES;
  if (typeof maxNodes !== 'number' || !(Number.isInteger(maxNodes) || maxNodes === Number.POSITIVE_INFINITY) || maxNodes < 1) {
    throw invalidArgument('accessibilitySnapshot: maxNodes must be a positive integer (or Infinity)');
  }
  return { maxNodes, interactiveOnly: readBoolean('accessibilitySnapshot', options, 'interactiveOnly', false) };
}
