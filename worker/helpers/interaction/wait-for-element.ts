/**
 * `waitForElement(target, {state = 'visible', timeoutSec = 10})` → boolean (docs/interaction.md,
 * "Waits"). Polls the state probe (at least once, every 50 ms) until the state holds (`true`) or the
 * time is up (`false`, clamped 500 ms before the cell's deadline). It throws only for contract
 * errors: bad arguments, an invalid selector, a dialog blocking the page, CDP failures.
 *
 * A snapshot node that no longer exists is detached and hidden; it can never become attached or
 * visible again, so those waits answer `false` at once.
 */
import { invalidSelectorError } from './action-errors.js';
import { POLL_INTERVAL_MS, PROBE_GRACE_MS, isDeadlineReached, pause, pollDeadline } from './action-loop.js';
import { describeForTrace } from './describe-target.js';
import { DialogGuard } from './dialog-guard.js';
import { STATE_PROBE } from './element-state-probe.js';
import { readWaitRequest } from './interaction-options.js';
import { TargetProbe } from './resolve-target.js';

import type { HelperContext } from '../helper-context.js';
import type { ProbeOutcome } from './resolve-target.js';

/** `waitForElement(target, options?)` → true when the state holds, false on timeout. */
export async function waitForElement(context: HelperContext, target: unknown, options: unknown): Promise<boolean> {
  const request = readWaitRequest(target, options);
  const deadline = pollDeadline(context, request.timeoutSec);
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  const guard = await DialogGuard.start(context, 'waitForElement', sessionId);
  const probe = new TargetProbe(context, sessionId, request.target, 'waitForElement', target);
  const goneMeans = request.state === 'detached' || request.state === 'hidden';
  try {
    for (let first = true; ; first = false) {
      // The first probe always runs (timeoutSec 0 means "check once").
      if (!first && Date.now() >= deadline) return false;
      const timeoutMs = Math.max(0, deadline - Date.now()) + PROBE_GRACE_MS;
      let outcome: ProbeOutcome;
      try {
        outcome = await guard.guard(probe.run(STATE_PROBE, [request.state], { awaitPromise: false, timeoutMs }));
      } catch (error) {
        if (isDeadlineReached(error)) return false;
        throw error;
      }
      if (outcome.kind === 'stale') return goneMeans;
      if (outcome.kind === 'value') {
        const { value } = outcome;
        if (value === true) {
          // The trace's description of what appeared (docs/trace.md): the exported assertion's locator.
          if (!goneMeans) await describeForTrace(context, probe);
          return true;
        }
        if (typeof value === 'object' && value !== null && request.target.kind === 'selector') {
          throw invalidSelectorError('waitForElement', request.target.selector, String((value as { invalid?: unknown }).invalid));
        }
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      await pause(Math.min(POLL_INTERVAL_MS, remaining), context.signal);
    }
  } finally {
    probe.release();
    guard.dispose();
  }
}
