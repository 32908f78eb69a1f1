/**
 * `click(target, options?)`: one visible, enabled, stable, unobscured target (docs/interaction.md,
 * "Actionability"), then physical mouse input through CDP, then proof that the click reached it. Coordinates
 * `{x, y}` are clicked at once, unchecked.
 *
 * Round trips for a ready target: one probe (`Runtime.evaluate`, or `Runtime.callFunctionOn`
 * after one `DOM.resolveNode` for a snapshot node), the move/press/release events in one
 * pipelined batch, and one read of the click's receipt. The probe arms the receipt (capture
 * listeners on the target's windows, `actionability-probe.ts`); the read after the input was
 * acknowledged tells whether the click's first event had the target in its path. A click that
 * landed elsewhere (something moved over the target at the last moment) was stopped before the
 * page saw it, so it is tried again until the timeout, and then fails saying what it hit; one that
 * reached nothing of the target's document (input routed past a frame) fails at once. Neither is
 * ever reported as a click that happened (issue 25). `force` skips the checks and the receipt.
 *
 * A dialog the click opens ends the wait for the input's acknowledgement (which Chromium holds
 * until the dialog closes): the click succeeded, and a stderr note says how to handle the dialog.
 * A click that navigates the page takes the receipt with the old document: that is a click that
 * did something, and counts as reached.
 */
import { ReplError } from '../../../common/errors.js';
import { pause, pollUntilReady } from './action-loop.js';
import { CLICK_PROBE, CLICK_RECEIPT } from './actionability-probe.js';
import { describeForTrace } from './describe-target.js';
import { DialogGuard, dialogOpenedNote } from './dialog-guard.js';
import { sendPipelined } from './input-pipeline.js';
import { readClickRequest } from './interaction-options.js';
import { planClick } from './mouse.js';
import { isContextGone, TargetProbe } from './resolve-target.js';

import type { HelperContext } from '../helper-context.js';
import type { ElementTarget } from './element-target.js';
import type { ClickRequest } from './interaction-options.js';
import type { MouseButton } from './mouse.js';

const READY = new Set(['ready']);
/** How often and how long the receipt is read after the input was acknowledged (events may trail the acknowledgement across processes). */
const RECEIPT_POLL_MS = 25;
const RECEIPT_TRIES = 12;
/** Pause before a click that was stopped on the wrong element is tried again. */
const RETRY_PAUSE_MS = 50;

/** `click(target, options?)`; throws the contract's errors (see the module comment). */
export async function click(context: HelperContext, target: unknown, options: unknown): Promise<void> {
  const request = readClickRequest(target, options);
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  if (request.target.kind === 'point') {
    await clickAt(context, sessionId, request, request.target);
    return;
  }
  await clickElement(context, {
    helper: 'click', sessionId, inputSessionId: sessionId, target: request.target, given: target, request,
  });
}

/** Where and how an element is clicked: {@link clickElement}'s options. */
export interface ElementClick {
  helper: string;
  /** The session the element lives in (the page's, or a cross-site frame's). */
  sessionId: string;
  /** The session input goes to: the page's, which routes it into its frames. */
  inputSessionId: string;
  target: ElementTarget;
  /** The target as the caller gave it (names a snapshot node in messages). */
  given: unknown;
  request: Pick<ClickRequest, 'button' | 'clickCount' | 'modifiers' | 'timeoutSec' | 'force' | 'trial' | 'position' | 'coveredTimeoutSec'>;
  /**
   * From a point in the element's frame to the page's viewport (a cross-site frame's content
   * origin added), after checking nothing in the page covers the frame there; absent: the same.
   */
  toPage?: ((point: { x: number; y: number }) => Promise<{ x: number; y: number }>) | undefined;
}

/**
 * Clicks an element once it is actionable and proves the click reached it (the module comment):
 * `click` for targets of the attached page, and the agent tools for elements of cross-site frames
 * (probe and receipt in the frame's session, input through the page's).
 */
export async function clickElement(context: HelperContext, click: ElementClick): Promise<void> {
  const { request } = click;
  const guard = await DialogGuard.start(context, click.helper, click.inputSessionId);
  const probe = new TargetProbe(context, click.sessionId, click.target, click.helper, click.given);
  const verify = !request.force && !request.trial;
  const until = Date.now() + request.timeoutSec * 1000;
  try {
    for (;;) {
      const ready = await pollUntilReady({
        context,
        helper: click.helper,
        verb: 'actionable',
        probe,
        guard,
        source: CLICK_PROBE,
        args: (last) => [{
          force: request.force,
          position: request.position ?? null,
          // After an interception (a sticky header, a banner) centring the target often frees it.
          recenter: last.startsWith('intercepted') || last === 'outside viewport',
          receipt: verify,
        }],
        awaitPromise: true,
        timeoutSec: request.timeoutSec,
        coveredTimeoutSec: request.coveredTimeoutSec,
        done: READY,
        until,
      });
      if (request.trial) return;
      // The trace's description of the target (docs/trace.md), once, while it is there.
      await describeForTrace(context, probe);
      const inFrame = { x: Number(ready['x']), y: Number(ready['y']) };
      const point = click.toPage === undefined ? inFrame : await click.toPage(inFrame);
      const dialog = await guard.settle(sendPipelined(context.client, click.inputSessionId, planClick({ ...point, button: request.button, clickCount: request.clickCount, modifiers: request.modifiers }), context.callOptions()));
      if (dialog !== null) {
        context.note(dialogOpenedNote(click.helper, dialog));
        return;
      }
      if (!verify) return;
      const missed = await confirmReceipt(context, click.helper, click.sessionId, probe.label, point);
      if (missed === null) return;
      // The miss was stopped before the page saw it: the next try is as safe as the first.
      if (Date.now() >= until) throw missed;
      await pause(RETRY_PAUSE_MS, context.signal);
    }
  } finally {
    probe.release();
    guard.dispose();
  }
}

/** A click at viewport coordinates: nothing to check before, no target to prove after. */
async function clickAt(context: HelperContext, sessionId: string, request: { button: MouseButton; clickCount: number; modifiers: number }, point: { x: number; y: number }): Promise<void> {
  const guard = await DialogGuard.start(context, 'click', sessionId);
  try {
    const dialog = await guard.settle(sendPipelined(context.client, sessionId, planClick({ ...point, button: request.button, clickCount: request.clickCount, modifiers: request.modifiers }), context.callOptions()));
    if (dialog !== null) context.note(dialogOpenedNote('click', dialog));
  } finally {
    guard.dispose();
  }
}

/**
 * Reads the receipt the probe armed until it says whether the click reached its target: null when
 * it did (or navigated), the `REPL_ERR_ACTION_FAILED` error (`data.status` `missed`) to throw when
 * it landed elsewhere and was stopped; throws `data.status` `unreached` when no event of the
 * click arrived in the target's document at all.
 */
async function confirmReceipt(context: HelperContext, helper: string, sessionId: string, label: string, point: { x: number; y: number }): Promise<ReplError | null> {
  const at = `(${Math.round(point.x)}, ${Math.round(point.y)})`;
  for (let attempt = 1; ; attempt++) {
    const final = attempt === RECEIPT_TRIES;
    let answer: { status?: unknown; hit?: unknown };
    try {
      const response = await context.client.send('Runtime.evaluate', { expression: `(${CLICK_RECEIPT})(${final})`, returnByValue: true }, context.callOptions({ sessionId }));
      answer = (response.result.value ?? {}) as typeof answer;
    } catch (error) {
      // The click replaced the document (a link, a submit): it did something, so it reached.
      if (isContextGone(error)) return null;
      throw error;
    }
    // `gone`: the document that held the receipt was replaced, by the click (a link, a submit).
    if (answer.status === 'reached' || answer.status === 'gone') return null;
    if (answer.status === 'missed') {
      return new ReplError('REPL_ERR_ACTION_FAILED', `${helper}: the click at ${at} landed on ${String(answer.hit)}, not on ${label} (something covered it when the click came; the click was stopped there)`, {
        data: { status: 'missed', hit: String(answer.hit) },
      });
    }
    if (final) {
      throw new ReplError('REPL_ERR_ACTION_FAILED', `${helper}: the click at ${at} never reached ${label}: no pointer event arrived in its document`, {
        data: { status: 'unreached' },
      });
    }
    await pause(RECEIPT_POLL_MS, context.signal);
  }
}
