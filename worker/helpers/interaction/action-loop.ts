/**
 * The polling loop of element actions (docs/interaction.md, "Actionability"): run the probe, and until it
 * answers a ready status, wait a little and run it again, remembering the last status for the
 * error. A target that can never become ready (several visible matches, an invalid selector, a
 * stale snapshot node) fails at once instead of waiting out the timeout; one that matches nothing
 * yet (a selector or a semantic target) is waited for.
 */
import { ReplError } from '../../../common/errors.js';
import { ambiguousTargetError, coveredError, invalidSelectorError, multipleMatchesError, notReadyError, staleNodeError } from './action-errors.js';

import type { HelperContext } from '../helper-context.js';
import type { DialogGuard } from './dialog-guard.js';
import type { ProbeOutcome, TargetProbe } from './resolve-target.js';

/** Pause between probes that did not find the target ready. */
export const POLL_INTERVAL_MS = 50;
/** A probe answers within a frame; past the wait's own deadline it gets this long before its command times out. */
export const PROBE_GRACE_MS = 2_000;
/**
 * Time kept for the last probe before the cell's command deadline (which is 500 ms before the
 * cell's own): a wait clamped by the cell ends early enough for its last probe to answer, so it
 * reports its own outcome (false, "not actionable") rather than a deadline error.
 */
export const LAST_PROBE_MS = 250;

/** What a probe answers. */
export interface ProbeStatus {
  status: string;
  [key: string]: unknown;
}

/** What {@link pollUntilReady} needs. */
export interface PollOptions {
  context: HelperContext;
  helper: string;
  verb: 'actionable' | 'editable';
  probe: TargetProbe;
  guard: DialogGuard;
  /** Probe source (`actionability-probe.ts`). */
  source: string;
  /** Arguments after the selector; `lastStatus` lets a retry change tactics (re-centre after an interception). */
  args: (lastStatus: string) => unknown[];
  awaitPromise: boolean;
  timeoutSec: number;
  /** Statuses that end the loop. */
  done: ReadonlySet<string>;
  /**
   * Fail once one element has covered the target this long without a break (a cookie banner that
   * stays until dismissed), rather than wait out `timeoutSec`; absent: wait it out.
   */
  coveredTimeoutSec?: number | undefined;
  /** Stop polling by this time (epoch ms) even if `timeoutSec` leaves more: a retry keeps its first try's deadline. */
  until?: number | undefined;
}

function isStatus(value: unknown): value is ProbeStatus {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string';
}

/** Sleeps `ms`, or rejects with `REPL_ERR_ABORTED` when the cell ends first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** When a wait of `timeoutSec` must stop polling: its own timeout, clamped for the cell (see LAST_PROBE_MS). */
export function pollDeadline(context: HelperContext, timeoutSec: number): number {
  const own = context.waitDeadline(timeoutSec * 1000);
  const cell = context.deadline;
  return cell === undefined ? own : Math.min(own, cell.at - LAST_PROBE_MS);
}

/** True for the error of a command that could not start because the cell's time is up. */
export function isDeadlineReached(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'REPL_ERR_CDP_DEADLINE_REACHED';
}

function abortedError(): ReplError {
  return new ReplError('REPL_ERR_ABORTED', 'the cell that started this browser action has ended');
}

/** Polls until the probe answers one of `done`; throws the contract's error otherwise. */
export async function pollUntilReady(options: PollOptions): Promise<ProbeStatus> {
  const { context, helper, probe, guard } = options;
  const { target } = probe;
  const deadline = Math.min(pollDeadline(context, options.timeoutSec), options.until ?? Number.POSITIVE_INFINITY);
  let last = 'not found';
  // Since when the same cover has been in the way (performance.now()), while it has been.
  let coveredSince: number | undefined;
  for (let first = true; ; first = false) {
    if (context.signal.aborted) throw abortedError();
    // The first probe always runs (timeoutSec 0 means "check once").
    if (!first && Date.now() >= deadline) throw notReadyError(helper, probe.label, options.verb, options.timeoutSec, last);
    const timeoutMs = Math.max(0, deadline - Date.now()) + PROBE_GRACE_MS;
    let outcome: ProbeOutcome;
    try {
      outcome = await guard.guard(probe.run(options.source, options.args(last), { awaitPromise: options.awaitPromise, timeoutMs }));
    } catch (error) {
      if (isDeadlineReached(error)) throw notReadyError(helper, probe.label, options.verb, options.timeoutSec, last);
      throw error;
    }
    if (outcome.kind === 'stale' && target.kind === 'node') throw staleNodeError(helper, probe.label, target.backendNodeId);
    if (outcome.kind === 'transient') last = outcome.reason;
    if (outcome.kind === 'value') {
      const result = outcome.value;
      if (!isStatus(result)) throw new ReplError('REPL_ERR_PAGE_EVALUATION', `${helper}: the page-side check returned ${JSON.stringify(result)}`);
      if (options.done.has(result.status)) return result;
      if (result.status === 'stale' && target.kind === 'node') throw staleNodeError(helper, probe.label, target.backendNodeId);
      if (target.kind === 'semantic' && result.status === 'multiple') {
        const candidates = Array.isArray(result['candidates']) ? result['candidates'].map(String) : [];
        throw ambiguousTargetError(helper, target.description, Number(result['count']), candidates);
      }
      if (target.kind === 'selector') {
        if (result.status === 'multiple') throw multipleMatchesError(helper, target.selector, Number(result['count']));
        if (result.status === 'invalid selector') throw invalidSelectorError(helper, target.selector, String(result['message']));
      }
      if (!result.status.startsWith('intercepted by')) coveredSince = undefined;
      else if (result.status !== last || coveredSince === undefined) coveredSince = performance.now();
      last = result.status;
      if (coveredSince !== undefined && options.coveredTimeoutSec !== undefined && performance.now() - coveredSince >= options.coveredTimeoutSec * 1000) {
        throw coveredError(helper, probe.label, options.verb, options.coveredTimeoutSec, last);
      }
    } else {
      coveredSince = undefined;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw notReadyError(helper, probe.label, options.verb, options.timeoutSec, last);
    // A moving target already spent a frame in the probe; look again at once.
    if (last !== 'moving') await pause(Math.min(POLL_INTERVAL_MS, remaining), context.signal);
  }
}
