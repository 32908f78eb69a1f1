/**
 * `scroll(x, y, dy = -300, dx = 0)`: exactly one `mouseWheel` event at viewport point (x, y).
 * Chromium sometimes never answers wheel events over content that cannot scroll, so the
 * command has its own 5 s timeout. It is never retried and never replaced by `window.scrollBy`:
 * a timeout reports an unknown outcome (docs/repl.md, `browser.scroll`).
 */
import { DialogGuard } from './dialog-guard.js';
import { readScrollRequest } from './interaction-options.js';
import { planWheel } from './mouse.js';

import type { HelperContext } from '../helper-context.js';

/** Timeout of the wheel command. */
export const WHEEL_TIMEOUT_MS = 5_000;

/** `scroll(x, y, dy?, dx?)`: one wheel event at (x, y). */
export async function scroll(context: HelperContext, x: unknown, y: unknown, dy: unknown, dx: unknown): Promise<void> {
  const request = readScrollRequest(x, y, dy, dx);
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  const guard = await DialogGuard.start(context, 'scroll', sessionId);
  try {
    const wheel = planWheel(request.x, request.y, request.dy, request.dx);
    await guard.guard(client.send('Input.dispatchMouseEvent', wheel, context.callOptions({ sessionId, timeoutMs: WHEEL_TIMEOUT_MS })));
  } finally {
    guard.dispose();
  }
}
