/**
 * `click(target, options?)`: one visible, enabled, stable, unobscured target (browser-helpers.md
 * §6), then physical mouse input through CDP. Coordinates `{x, y}` are clicked at once.
 *
 * Round trips for a ready target: one probe (`Runtime.evaluate`, or `Runtime.callFunctionOn`
 * after one `DOM.resolveNode` for a snapshot node), then the move/press/release events in one
 * pipelined batch. A dialog the click opens ends the wait for the input's acknowledgement (which
 * Chromium holds until the dialog closes): the click succeeded, and a stderr note says how to
 * handle the dialog.
 */
import { pollUntilReady } from './action-loop.js';
import { CLICK_PROBE } from './actionability-probe.js';
import { DialogGuard, dialogOpenedNote } from './dialog-guard.js';
import { sendPipelined } from './input-pipeline.js';
import { readClickRequest } from './interaction-options.js';
import { planClick } from './mouse.js';
import { TargetProbe } from './resolve-target.js';

import type { HelperContext } from '../helper-context.js';
import type { ClickRequest } from './interaction-options.js';

const READY = new Set(['ready']);

/** `click(target, options?)`; throws the contract's errors (see the module comment). */
export async function click(context: HelperContext, target: unknown, options: unknown): Promise<void> {
  const request = readClickRequest(target, options);
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  const guard = await DialogGuard.start(context, 'click', sessionId);
  try {
    const point = request.target.kind === 'point' ? request.target : await locate(context, sessionId, guard, request, target);
    if (request.trial) return;
    const commands = planClick({ x: point.x, y: point.y, button: request.button, clickCount: request.clickCount, modifiers: request.modifiers });
    const dialog = await guard.settle(sendPipelined(client, sessionId, commands, context.callOptions()));
    if (dialog !== null) context.note(dialogOpenedNote('click', dialog));
  } finally {
    guard.dispose();
  }
}

async function locate(context: HelperContext, sessionId: string, guard: DialogGuard, request: ClickRequest, given: unknown): Promise<{ x: number; y: number }> {
  if (request.target.kind === 'point') return request.target;
  const probe = new TargetProbe(context, sessionId, request.target, 'click', given);
  try {
    const ready = await pollUntilReady({
      context,
      helper: 'click',
      verb: 'actionable',
      probe,
      guard,
      source: CLICK_PROBE,
      args: (last) => [{
        force: request.force,
        position: request.position ?? null,
        // After an interception (a sticky header, a banner) centring the target often frees it.
        recenter: last.startsWith('intercepted') || last === 'outside viewport',
      }],
      awaitPromise: true,
      timeoutSec: request.timeoutSec,
      done: READY,
    });
    return { x: Number(ready['x']), y: Number(ready['y']) };
  } finally {
    probe.release();
  }
}
