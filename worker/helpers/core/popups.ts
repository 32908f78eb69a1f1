/**
 * `waitForPopup(action, { timeoutSec })`: runs `action` and resolves the tab it opened
 * (`target=_blank`, `window.open`) as `{ targetId, url, title }`.
 *
 * - **Armed first.** The targets that exist are listed before `action` runs, so a popup that opens
 *   before the action's promise settles still counts.
 * - **Only this REPL's popups.** A popup counts when Chromium names the attached tab as its opener
 *   (`TargetInfo.openerId`, also for `noopener` links), so another REPL's popups never resolve it.
 *   The host then counts the popup as this REPL's tab too (lib/chromium/tab-registry.ts), if this
 *   REPL owns a tab: others never attach it, and it closes with the REPL.
 * - **Committed.** It resolves once the popup has committed its first document: its URL is the
 *   page's (never the `about:blank` of a tab still on its way to a URL), and its title is the
 *   page's once the page has set one (up to {@link TITLE_SETTLE_MS} after the commit; until then
 *   Chromium shows the address). A `window.open()` without a URL resolves with `about:blank`.
 * - **Not switched to.** The REPL stays on the opener, kept in the foreground: a popup that opens as
 *   a tab of the opener's window would otherwise hide it (no rendering, dialogs dismissed). The
 *   popup waits in the background until `switchTab(popup)` brings it forward.
 *
 * Chromium lists the popup with its opener from its creation on; one `Target.getTargets` every
 * {@link POLL_MS} follows it, without enabling target discovery (whose events would fill the
 * REPL's event buffer) on the REPL's connection.
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';
import { bringForwardIfHidden } from './tabs.js';
import { delay } from './timing.js';

import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';
import type { TabInfo } from './tabs.js';

const DEFAULT_TIMEOUT_SEC = 10;
/** A listing that times out this close to the wait's end counts as the wait running out. */
const LIST_DEADLINE_SLACK_MS = 100;
/** How often the target list is read while waiting. */
const POLL_MS = 25;
/** How long after its commit a popup may take to replace the address Chromium shows by its title. */
const TITLE_SETTLE_MS = 500;

type PageTarget = Protocol.Target.TargetInfo;

/** The action's outcome, read by the polling loop. */
interface ActionOutcome {
  readonly promise: Promise<unknown>;
  settled: boolean;
  failed: { error: unknown } | undefined;
}

/** Runs the action once; a synchronous throw counts as a rejection. */
function runAction(action: () => unknown): ActionOutcome {
  const outcome: ActionOutcome = { promise: (async () => action())(), settled: false, failed: undefined };
  // Observed at once, so a rejection after a timeout is never unhandled.
  outcome.promise.then(
    () => {
      outcome.settled = true;
    },
    (error: unknown) => {
      outcome.settled = true;
      outcome.failed = { error };
    },
  );
  return outcome;
}

/** True once the popup has committed a document: before that Chromium reports no title. */
function committed(popup: PageTarget): boolean {
  return popup.url !== '' && popup.title !== '';
}

/** Chromium shows a document without a title (or whose `<title>` is not parsed yet) by its address. */
function showsAddress(popup: PageTarget): boolean {
  if (popup.url === 'about:blank') return false;
  const address = popup.url.replace(/^https?:\/\//, '');
  return popup.title === popup.url || popup.title === address || popup.title === address.replace(/\/$/, '');
}

export function createPopupHelpers(context: HelperContext) {
  const { client } = context;

  async function pageTargets(): Promise<PageTarget[]> {
    const { targetInfos } = await client.browserCommand('Target.getTargets', undefined, context.callOptions());
    return targetInfos.filter((target) => target.type === 'page');
  }

  /** Runs `action` and resolves the popup the attached tab opened meanwhile; see the module comment. */
  async function waitForPopup(action: unknown, options?: unknown): Promise<TabInfo> {
    if (typeof action !== 'function') {
      throw invalidArgument('waitForPopup: action must be a function that opens the popup, e.g. () => click("a[target=_blank]")');
    }
    const timeoutSec = nonNegativeSeconds('waitForPopup', readOptions('waitForPopup', options, ['timeoutSec']).timeoutSec, DEFAULT_TIMEOUT_SEC);
    await client.ensureAttached(context.callOptions());
    const openerId = client.targetId;
    if (openerId === undefined) throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', 'waitForPopup: the attached tab closed before the action ran');
    const existing = new Set((await pageTargets()).map((target) => target.targetId));
    const started = Date.now();
    const until = context.waitDeadline(timeoutSec * 1000);
    const outcome = runAction(action as () => unknown);
    const popup = await committedPopup(openerId, existing, outcome, {
      until,
      waitedSec: (until - started) / 1000,
      cellDeadline: until < started + timeoutSec * 1000,
    });
    // The action decides too: its rejection is waitForPopup's (bounded by its own helpers' timeouts).
    await outcome.promise;
    await bringForwardIfHidden(context, openerId);
    return { targetId: popup.targetId, url: popup.url, title: popup.title };
  }

  /** Polls until a new page opened by `openerId` has committed and shows its title; see the module comment. */
  async function committedPopup(openerId: string, existing: ReadonlySet<string>, outcome: ActionOutcome, wait: Wait): Promise<PageTarget> {
    let committedAt: number | undefined;
    for (;;) {
      if (outcome.failed !== undefined) throw outcome.failed.error;
      const pages = await pageTargets().catch((error: unknown) => {
        // Out of time while listing (the command's share of the cell's time ran out, or the
        // deadline came first): the check below says what happened.
        const code = (error as { code?: unknown }).code;
        if (code === 'REPL_ERR_CDP_DEADLINE_REACHED' || (code === 'REPL_ERR_CDP_TIMEOUT' && Date.now() >= wait.until - LIST_DEADLINE_SLACK_MS)) return [];
        throw error;
      });
      // A popup that closed again is forgotten; a later one may still come.
      const popup = pages.find((target) => target.openerId === openerId && !existing.has(target.targetId));
      const now = Date.now();
      if (popup !== undefined && committed(popup)) {
        committedAt ??= now;
        if (!showsAddress(popup) || now - committedAt >= TITLE_SETTLE_MS) return popup;
      } else {
        committedAt = undefined;
      }
      if (now >= wait.until) {
        // Out of time while the title settles: the popup is there, with its address for a title.
        if (popup !== undefined && committed(popup)) return popup;
        throw timedOut(popup, wait, outcome);
      }
      if (!(await delay(Math.min(POLL_MS, wait.until - now), context.signal))) {
        throw new ReplError('REPL_ERR_ABORTED', 'waitForPopup: the cell that started it has ended');
      }
    }
  }

  return { waitForPopup };
}

/** The bound of one wait: when it ends, how long that is, and whether the cell's deadline set it. */
interface Wait {
  until: number;
  waitedSec: number;
  cellDeadline: boolean;
}

function timedOut(popup: PageTarget | undefined, wait: Wait, outcome: ActionOutcome): ReplError {
  const within = `within ${Number(wait.waitedSec.toFixed(3))}s${wait.cellDeadline ? " (the cell's deadline came first; raise timeout_sec)" : ''}`;
  if (popup !== undefined) {
    return new ReplError('REPL_ERR_TARGET_NOT_FOUND', `waitForPopup: a popup opened (${popup.targetId}) but did not show its first document ${within}`, {
      data: { targetId: popup.targetId },
    });
  }
  const running = outcome.settled ? '' : ' and the action is still running';
  return new ReplError('REPL_ERR_TARGET_NOT_FOUND',
    `waitForPopup: the attached tab opened no popup ${within}${running}; check that the action opens one (a link with target=_blank, window.open)`);
}
