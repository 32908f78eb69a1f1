/**
 * The default viewport: the size, in CSS pixels, of the page area of every window this server
 * opens (the launched browser's first window, each owner's tab) and so of the tabs and popups that
 * join those windows. Default 1280×720; `viewport` option, `--viewport 1280x720`, or
 * `BROWSER_REPL_VIEWPORT`.
 *
 * Headless Chromium draws an invisible browser frame (tab strip, toolbar: about 87 px high), so a
 * window of 1280×720 (`--window-size`, `Target.createTarget {width, height}`) has a page area of
 * only 1280×633. `Browser.setContentsSize` sizes the page area itself, growing the window around
 * it; the renderer learns the new size a moment later, so {@link fitWindowToViewport} waits until
 * the page reports it. A helper's `setViewport()` is different: an emulation of its session
 * (docs/browser-helpers.md), gone when that session detaches.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import { ReplError } from '../../common/errors.js';

import type { BrowserLink } from '../../common/cdp/browser-link.js';

const debug = debuglog('browser-repl:viewport');

/** A page area in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

export const DEFAULT_VIEWPORT: Readonly<Viewport> = Object.freeze({ width: 1280, height: 720 });

/** Largest side accepted; the same bound as the `setViewport()` helper (worker/helpers/core/viewport.ts). */
export const MAX_VIEWPORT_SIDE = 10_000;

/** The environment variable of the server's default viewport. */
export const VIEWPORT_ENV = 'BROWSER_REPL_VIEWPORT';

/** How long a fitted window's page may take to report its new size. */
const FIT_SETTLE_MS = 2_000;
const FIT_POLL_MS = 20;

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', message);
}

function checkSide(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_VIEWPORT_SIDE) {
    throw invalid(`${field} must be an integer between 1 and ${MAX_VIEWPORT_SIDE}, got ${typeof value === 'number' ? value : JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

/**
 * `value` as a {@link Viewport}, or `REPL_ERR_INVALID_ARGUMENT` naming the field
 * (`viewport.width must be an integer between 1 and 10000, got 0`).
 */
export function checkViewport(value: unknown, field = 'viewport'): Viewport {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${field} must be an object { width, height } in CSS pixels`);
  }
  for (const key of Object.keys(value)) {
    if (key !== 'width' && key !== 'height') throw invalid(`${field} has an unknown field: ${key} (only width and height)`);
  }
  const { width, height } = value as Record<string, unknown>;
  return { width: checkSide(width, `${field}.width`), height: checkSide(height, `${field}.height`) };
}

/** Parses `1280x720` (`×` and `X` work too) from the command line or the environment; `source` names it in errors. */
export function parseViewport(text: string, source: string): Viewport {
  const match = /^\s*(\d+)\s*[x×X]\s*(\d+)\s*$/.exec(text);
  if (match === null) throw invalid(`${source} must be WIDTHxHEIGHT in CSS pixels, for example 1280x720; got ${JSON.stringify(text)}`);
  return { width: checkSide(Number(match[1]), `${source} width`), height: checkSide(Number(match[2]), `${source} height`) };
}

/**
 * The viewport to use: the `configured` option when given, else `BROWSER_REPL_VIEWPORT` from `env`
 * when set, else {@link DEFAULT_VIEWPORT}.
 */
export function resolveViewport(configured: unknown, env: NodeJS.ProcessEnv, field = 'viewport'): Viewport {
  if (configured !== undefined) return checkViewport(configured, field);
  const text = env[VIEWPORT_ENV];
  if (text !== undefined && text.trim() !== '') return parseViewport(text, VIEWPORT_ENV);
  return { ...DEFAULT_VIEWPORT };
}

/**
 * Makes the page area of `targetId`'s window `viewport` (`Browser.setContentsSize`), then waits
 * (≤ 2 s) until the page reports that size, so the first helper after it sees it. Best effort: a
 * browser without `setContentsSize` keeps the size the window was opened with; failures are only
 * logged (`NODE_DEBUG=browser-repl:viewport`), because the tab works either way.
 */
export async function fitWindowToViewport(link: BrowserLink, targetId: string, viewport: Viewport): Promise<void> {
  try {
    const { windowId } = await link.send('Browser.getWindowForTarget', { targetId });
    await link.send('Browser.setContentsSize', { windowId, width: viewport.width, height: viewport.height });
    await waitForPageSize(link, targetId, viewport);
  } catch (error) {
    debug('could not fit the window of %s to %dx%d: %s', targetId, viewport.width, viewport.height, (error as Error).message);
  }
}

/** Polls the page's `innerWidth`×`innerHeight` through a transient session until it is `viewport`. */
async function waitForPageSize(link: BrowserLink, targetId: string, viewport: Viewport): Promise<void> {
  const connection = await link.connection();
  const session = await connection.attachToTarget(targetId);
  const expected = `${viewport.width}x${viewport.height}`;
  try {
    const until = Date.now() + FIT_SETTLE_MS;
    for (;;) {
      const { result } = await session.send('Runtime.evaluate', { expression: 'innerWidth + "x" + innerHeight', returnByValue: true }, { timeoutMs: FIT_SETTLE_MS });
      if (result.value === expected) return;
      if (Date.now() >= until) {
        debug('the page of %s still reports %s, not %s', targetId, String(result.value), expected);
        return;
      }
      await sleep(FIT_POLL_MS);
    }
  } finally {
    if (!connection.closed) await session.detach().catch(() => undefined);
  }
}
