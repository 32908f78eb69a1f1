/**
 * `gotoUrl` and the navigation record that lets `waitForLoad` tell the new document from the one
 * it replaces (the hosted `waitForLoad` can report the previous page: docs/browser-helpers.md, "Where we
 * differ from the hosted product").
 *
 * Each navigation started by a helper remembers the main frame's `loaderId` from *before* it was
 * sent. `waitForLoad` accepts `document.readyState === "complete"` only once the main frame's
 * loader differs from that one, which covers Chromium versions whose `Page.navigate` answers
 * before the commit and pages that redirect again at once. Same-document navigations (no
 * `loaderId`) and failed ones (`errorText`) leave no record: there is no new document to wait for.
 */
import { errorCode } from '../../../common/cdp/cdp-errors.js';
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';
import { dialogError, raceDialog } from './page-guard.js';

import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';

/** Budget of the best-effort `Page.getFrameTree` taken before a navigation. */
const LOADER_PROBE_TIMEOUT_MS = 1_000;

/** A navigation a helper started and `waitForLoad` has not seen loaded yet. */
export interface PendingNavigation {
  readonly targetId: string;
  readonly url: string;
  /** Main-frame loader of the document being replaced; undefined when it could not be read. */
  readonly previousLoaderId: string | undefined;
}

/** Remembers the last helper-started navigation, per REPL. */
export class NavigationTracker {
  #pending: PendingNavigation | undefined;
  #staleTarget: string | undefined;
  #staleRequests: ReadonlySet<string> = new Set();

  /**
   * Requests of a replaced document that were still in flight when the next one committed.
   * Chromium never reports them finished (no `loadingFailed`), so the client's in-flight set keeps
   * them forever; `waitForNetworkIdle` ignores them. Only known for helper-started navigations.
   */
  staleRequestsFor(targetId: string | undefined): ReadonlySet<string> {
    return targetId !== undefined && targetId === this.#staleTarget ? this.#staleRequests : new Set();
  }

  /**
   * Marks what is in flight on `targetId` right after a commit as stale, except the requests of
   * the new document (`isCurrent`): its own request, and subresources it may already have asked
   * for before the commit's answer was read.
   */
  markStale(targetId: string, inFlight: ReadonlySet<string>, isCurrent: (requestId: string) => boolean): void {
    this.#staleTarget = targetId;
    this.#staleRequests = new Set([...inFlight].filter((id) => !isCurrent(id)));
  }

  /** The pending navigation of `targetId`, if the last one started there. */
  pendingFor(targetId: string | undefined): PendingNavigation | undefined {
    return targetId !== undefined && this.#pending?.targetId === targetId ? this.#pending : undefined;
  }

  set(navigation: PendingNavigation | undefined): void {
    this.#pending = navigation;
  }
}

/** Loader id of the attached page's main frame (`Page.getFrameTree`). */
export async function mainFrameLoaderId(context: HelperContext, timeoutMs?: number): Promise<string> {
  const { frameTree } = await context.client.sessionCommand('Page.getFrameTree', undefined, context.callOptions({ timeoutMs }));
  return frameTree.frame.loaderId;
}

/**
 * Navigates the attached page, records the navigation for `waitForLoad`, and notes a failure on
 * stderr (the raw result, `errorText` included, is still returned, as in the hosted product).
 */
export async function navigateAttached(
  context: HelperContext,
  tracker: NavigationTracker,
  helper: string,
  url: string,
): Promise<Protocol.Page.NavigateResponse> {
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  const targetId = client.targetId;
  let previousLoaderId: string | undefined;
  // A frozen renderer would not answer; the navigation itself does not need it (it even closes
  // an open alert), so skip the probe rather than wait.
  if (client.pendingDialog === null && client.rendererResponsive) {
    previousLoaderId = await mainFrameLoaderId(context, LOADER_PROBE_TIMEOUT_MS).catch(() => undefined);
  }
  let result: Protocol.Page.NavigateResponse;
  try {
    result = await navigateThroughDialogs(context, helper, sessionId, url);
  } catch (error) {
    // Accepting the beforeunload dialog lets this navigation go on: a waitForLoad() after that
    // must wait for the new document, not report the one that asked to stay.
    if (targetId !== undefined && errorCode(error) === 'REPL_ERR_DIALOG_OPEN') tracker.set({ targetId, url, previousLoaderId });
    throw error;
  }
  if (result.errorText !== undefined && result.errorText !== '') {
    tracker.set(undefined);
    context.note(`${helper}: navigation to ${url} failed: ${result.errorText}`);
  } else if (result.loaderId !== undefined && targetId !== undefined) {
    tracker.set({ targetId, url, previousLoaderId });
    // Page.navigate answers at the commit; the document request's id is its loader id, and its
    // subresources carry that loader id too.
    const { loaderId } = result;
    if (client.targetId === targetId) {
      tracker.markStale(targetId, client.inFlightRequests, (requestId) => requestId === loaderId || client.requestLoader(requestId) === loaderId);
    }
  } else {
    tracker.set(undefined);
  }
  return result;
}

/**
 * Sends `Page.navigate`. Only a `beforeunload` dialog of the page being left holds it until the
 * dialog is answered: that one is reported at once instead of hanging. Any other dialog does not:
 * one already open is closed by navigating away, and one the new document opens (an `alert()`
 * while it loads) may be reported just before the commit's answer, which still arrives.
 */
async function navigateThroughDialogs(context: HelperContext, helper: string, sessionId: string, url: string): Promise<Protocol.Page.NavigateResponse> {
  const { client } = context;
  if (client.pendingDialog !== null) return client.sessionCommand('Page.navigate', { url }, context.callOptions());
  const navigation = client.sessionCommand('Page.navigate', { url }, context.callOptions());
  const outcome = await raceDialog(context, sessionId, () => navigation);
  if (outcome.dialog === undefined) return outcome.value;
  if (outcome.dialog.type === 'beforeunload') {
    navigation.catch(() => {}); // Answered (or failed) once the dialog is handled; nobody waits for it.
    throw dialogError(helper, outcome.dialog, true);
  }
  return navigation;
}

/** What `gotoUrl` waits for after the commit (Playwright's names). */
const WAIT_UNTIL = { commit: undefined, domcontentloaded: 'interactive', load: 'complete' } as const;
type WaitUntil = keyof typeof WAIT_UNTIL;

/** Default of `gotoUrl`'s `timeoutSec` when it waits for more than the commit. */
const GOTO_WAIT_SEC = 30;

/** How gotoUrl waits for a document state: `waitForDocument` of waits.ts, loaded with the wait helpers. */
export type DocumentWaiter = (helper: string, state: 'interactive' | 'complete', seconds: number, committedLoaderId: string) => Promise<boolean>;

export function createNavigationHelpers(context: HelperContext, tracker: NavigationTracker, waitForDocument: DocumentWaiter) {
  /**
   * Navigates the attached page; returns the raw `Page.navigate` result. By default it resolves at
   * the commit, as the hosted helper does; `waitUntil` waits for the new document's
   * DOMContentLoaded or load as well.
   */
  // `options` has a default so that gotoUrl.length stays 1, the hosted helper's.
  async function gotoUrl(url: unknown, options: unknown = undefined): Promise<Protocol.Page.NavigateResponse> {
    if (typeof url !== 'string' || url.trim() === '') throw invalidArgument('gotoUrl: url must be a non-empty string');
    const { waitUntil = 'commit', timeoutSec } = readOptions('gotoUrl', options, ['waitUntil', 'timeoutSec']);
    if (typeof waitUntil !== 'string' || !Object.hasOwn(WAIT_UNTIL, waitUntil)) {
      throw invalidArgument('gotoUrl: waitUntil must be "commit", "domcontentloaded" or "load"');
    }
    const seconds = nonNegativeSeconds('gotoUrl', timeoutSec, GOTO_WAIT_SEC);
    const result = await navigateAttached(context, tracker, 'gotoUrl', url);
    const state = WAIT_UNTIL[waitUntil as WaitUntil];
    // A failed navigation (errorText) or one within the document (no loaderId) has no new document to wait for.
    if (state === undefined || (result.errorText !== undefined && result.errorText !== '') || result.loaderId === undefined) return result;
    if (!(await waitForDocument('gotoUrl', state, seconds, result.loaderId))) {
      throw new ReplError('REPL_ERR_LOAD_TIMEOUT',
        `gotoUrl: ${url} committed, but its document did not reach "${waitUntil}" within ${seconds}s; the page may still be loading (raise timeoutSec, or wait for what you need with waitForElement)`,
        { data: { url, waitUntil, timeoutSec: seconds } });
    }
    return result;
  }
  return { gotoUrl };
}
