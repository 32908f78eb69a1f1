/**
 * The waiting helpers: `waitMs`, `waitForLoad`, `waitForNetworkIdle`. Unlike the hosted product
 * (docs/browser-helpers.md, "Waits") every number is validated and every wait fits inside the cell: waits
 * end 500 ms before the cell's deadline and return `false` there instead of letting the
 * destructive cell timeout fire, and `waitMs` refuses a sleep that cannot fit.
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds } from '../helper-options.js';
import { pageEvaluationError } from '../../page/page-value-codec.js';
import { mainFrameLoaderId } from './navigation.js';
import { assertPageResponsive, guardDialog, retryIfDisconnected } from './page-guard.js';
import { delay, remainingMs } from './timing.js';

import type { HelperContext } from '../helper-context.js';
import type { NavigationTracker } from './navigation.js';

/** Poll interval of `waitForLoad` (the hosted product polls every 300 ms). */
export const LOAD_POLL_MS = 100;
/** Poll interval of `waitForNetworkIdle`. */
export const NETWORK_IDLE_POLL_MS = 50;

function isDeadlineError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'REPL_ERR_CDP_DEADLINE_REACHED' || code === 'REPL_ERR_CDP_TIMEOUT';
}

/** Page events after which a waiting `waitForLoad` looks again at once. */
const LOAD_PROGRESS = new Set(['Page.loadEventFired', 'Page.frameStoppedLoading', 'Page.frameNavigated', 'Page.navigatedWithinDocument']);

/** What Chromium answers an evaluation whose document a navigation replaced meanwhile: not loaded yet, look again. */
const DOCUMENT_REPLACED = /Inspected target navigated or closed|Execution context was destroyed|Cannot find context with specified id/i;

/** What a document's `readyState` must have reached: `interactive` (DOMContentLoaded) or `complete` (load). */
export type DocumentState = 'interactive' | 'complete';

/**
 * Resolves `true` once the attached page's current document has reached `state` (after a
 * `gotoUrl`/`newTab`, the *new* document: the page being replaced never counts), `false` at the
 * deadline (`seconds`, clamped before the cell's). `helper` names the caller in its errors.
 * `committedLoaderId` (gotoUrl's own navigation) lets `interactive` count while that document
 * still loads its subresources: without it, a loading main frame may be the one being replaced.
 */
export async function waitForDocument(
  context: HelperContext, tracker: NavigationTracker, helper: string, state: DocumentState, seconds: number,
  committedLoaderId?: string,
): Promise<boolean> {
  const { client } = context;
  const deadline = context.waitDeadline(seconds * 1000);
  const { signal } = context;

  /** One check: has the attached page's current document (not the one a navigation replaced) reached `state`? */
  async function reached(): Promise<boolean> {
    const sessionId = await client.ensureAttached(context.callOptions());
    // Input sent since the last check (a click on a submit button, Enter in a form, a handler that
    // sets location in a zero-delay timer) may have scheduled a navigation that Chromium has not
    // been asked for yet: one turn of the page's task queue lets it be requested first.
    if (client.inputPending) {
      client.inputSettled();
      let settle: Awaited<ReturnType<typeof client.evaluate>>;
      try {
        settle = await guardDialog(helper, context, sessionId, () =>
          client.evaluate(sessionId, 'new Promise((resolve) => setTimeout(resolve, 0))', context.callOptions()));
      } catch (error) {
        // The document went away under the evaluation: the navigation the input started has begun.
        if (DOCUMENT_REPLACED.test((error as Error).message)) return false;
        throw error;
      }
      if (settle.exceptionDetails !== undefined) throw pageEvaluationError(settle.exceptionDetails);
    }
    const pending = tracker.pendingFor(client.targetId);
    if (client.mainFrameNavigating) {
      // A navigation under way, whoever started it (a click, page code): the document that still
      // answers may be the one being replaced, unless it is the very one gotoUrl committed.
      if (state !== 'interactive' || committedLoaderId === undefined) return false;
      const loaderId = await guardDialog(helper, context, sessionId, () => mainFrameLoaderId(context));
      if (loaderId !== committedLoaderId) return false;
    } else if (pending?.previousLoaderId !== undefined) {
      const loaderId = await guardDialog(helper, context, sessionId, () => mainFrameLoaderId(context));
      if (loaderId === pending.previousLoaderId) return false;
    }
    let response: Awaited<ReturnType<typeof client.evaluate>>;
    try {
      response = await guardDialog(helper, context, sessionId, () => client.evaluate(sessionId, 'document.readyState', context.callOptions()));
    } catch (error) {
      if (DOCUMENT_REPLACED.test((error as Error).message)) return false;
      throw error;
    }
    if (response.exceptionDetails !== undefined) throw pageEvaluationError(response.exceptionDetails);
    const readyState: unknown = response.result.value;
    const done = readyState === 'complete' || (state === 'interactive' && readyState === 'interactive');
    // Checked again: a navigation that started while the evaluation ran was reported before its answer.
    // (An interactive document gotoUrl committed is still loading: that is what it waits for.)
    if (!done || (client.mainFrameNavigating && (readyState === 'complete' || committedLoaderId === undefined))) return false;
    // A loaded document ends the record; one only interactive keeps it for a later waitForLoad.
    if (pending !== undefined && readyState === 'complete') tracker.set(undefined);
    return true;
  }

  /**
   * Sleeps until the next poll, or less: the page's load event, a frame that stopped loading or a
   * committed navigation wake it at once, so the answer follows the load by a round trip instead
   * of by up to a poll interval. Resolves false when `signal` aborts.
   */
  function untilLoadProgress(ms: number): Promise<boolean> {
    let unsubscribe: (() => void) | undefined;
    const woken = new Promise<boolean>((resolve) => {
      unsubscribe = client.onPageEvent((event) => {
        if (LOAD_PROGRESS.has(event.method)) resolve(true);
      });
    });
    return Promise.race([delay(ms, signal), woken]).finally(() => unsubscribe?.());
  }

  await client.ensureAttached(context.callOptions());
  await assertPageResponsive(helper, context);
  for (;;) {
    try {
      if (await retryIfDisconnected(reached)) return true;
    } catch (error) {
      // Commands end 500 ms before the cell deadline, exactly where a clamped wait ends: a
      // check that runs into that bound means the wait timed out.
      if (Date.now() >= deadline && isDeadlineError(error)) return false;
      throw error;
    }
    const left = remainingMs(deadline);
    if (left <= 0 || !(await untilLoadProgress(Math.min(LOAD_POLL_MS, left)))) return false;
  }
}

export function createWaitHelpers(context: HelperContext, tracker: NavigationTracker) {
  const { client } = context;

  /** Sleeps `milliseconds` (default 1000); throws at once if that would pass the cell's deadline. */
  async function waitMs(milliseconds: unknown = 1000): Promise<void> {
    if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 0) {
      throw invalidArgument('waitMs: milliseconds must be a non-negative finite number');
    }
    const start = Date.now();
    const limit = context.waitDeadline(milliseconds);
    if (limit < start + milliseconds) {
      throw new ReplError(
        'REPL_ERR_INVALID_ARGUMENT',
        `waitMs: ${milliseconds} ms does not fit in the ${Math.max(0, limit - start)} ms left before this cell's deadline (timeout_sec minus 500 ms); wait less or raise timeout_sec`,
        { data: { milliseconds, availableMs: Math.max(0, limit - start) } },
      );
    }
    await delay(milliseconds, context.signal);
  }

  /**
   * Resolves `true` once the attached page's document has `readyState === "complete"` — after a
   * `gotoUrl`/`newTab`, the *new* document — or `false` at the timeout (default 15 s).
   */
  async function waitForLoad(timeoutSec?: unknown): Promise<boolean> {
    const seconds = nonNegativeSeconds('waitForLoad', timeoutSec, 15);
    return waitForDocument(context, tracker, 'waitForLoad', 'complete', seconds);
  }

  /**
   * Resolves `true` once the attached page has had no request in flight for `idleSec` (default
   * 0.5), `false` at the timeout (default 30 s). Attaching counts as activity, so the first call
   * on a fresh REPL always observes one full quiet interval.
   */
  async function waitForNetworkIdle(idleSec?: unknown, timeoutSec?: unknown): Promise<boolean> {
    const idleMs = nonNegativeSeconds('waitForNetworkIdle', idleSec, 0.5, 'idleSec') * 1000;
    const seconds = nonNegativeSeconds('waitForNetworkIdle', timeoutSec, 30);
    const deadline = context.waitDeadline(seconds * 1000);
    const { signal } = context;
    await client.ensureAttached(context.callOptions());
    const stale = tracker.staleRequestsFor(client.targetId);
    const busy = (): boolean => {
      for (const id of client.inFlightRequests) if (!stale.has(id)) return true;
      return false;
    };
    for (;;) {
      const now = Date.now();
      const quietFor = now - client.lastNetworkActivity;
      const idle = !busy();
      if (idle && quietFor >= idleMs) return true;
      const left = deadline - now;
      if (left <= 0) return false;
      // Sleep exactly until the quiet interval would end when nothing is in flight.
      const step = idle ? Math.max(1, idleMs - quietFor) : NETWORK_IDLE_POLL_MS;
      if (!(await delay(Math.min(step, NETWORK_IDLE_POLL_MS * 4, left), signal))) return false;
    }
  }

  return { waitMs, waitForLoad, waitForNetworkIdle };
}
