/**
 * Tabs and frames: `listTabs`, `currentTab`, `switchTab`, `newTab`, `closeTab`, `ensureRealTab`,
 * `iframeTarget` (docs/browser-helpers.md, "Tabs and frames"). Listing is browser-level and never attaches.
 *
 * New tabs get the server's default viewport by joining or copying a window that has it: a plain
 * new tab joins the window of the attached tab, and a REPL with a tab of its own opens a window as
 * large as that tab's (lib/chromium/viewport.ts sizes the windows the host opens).
 */
import { ReplError } from '../../../common/errors.js';
import { isInternalUrl } from '../../cdp/page-attachment.js';
import { invalidArgument } from '../helper-options.js';
import { navigateAttached } from './navigation.js';
import { raceDialog } from './page-guard.js';
import { delay } from './timing.js';

import type { TargetSummary } from '../../cdp/cdp-client.js';
import type { HelperContext } from '../helper-context.js';
import type { NavigationTracker } from './navigation.js';
import type { ViewportMemory } from './viewport.js';

/** A row of `listTabs()`. */
export interface TabInfo {
  targetId: string;
  title: string;
  url: string;
}

/** A row of `iframeTarget()`. */
export interface FrameTargetInfo extends TabInfo {
  type: string;
}

/** How long `closeTab` waits for the target to leave the list, and `newTab` for the commit. */
const SETTLE_TIMEOUT_MS = 5_000;
const SETTLE_POLL_MS = 50;

/** URLs of a fresh tab that `newTab(url)` navigates instead of opening another tab. */
const BLANK_TAB_URL = /^(?:about:blank(?:#.*)?|chrome:\/\/newtab\/?|chrome:\/\/new-tab-page\/?|edge:\/\/newtab\/?|about:newtab)$/i;

function tabRow(target: TargetSummary): TabInfo {
  return { targetId: target.targetId, title: target.title, url: target.url };
}

function readTargetId(helper: string, target: unknown): string {
  if (typeof target === 'string' && target !== '') return target;
  if (target !== null && typeof target === 'object') {
    const id = (target as { targetId?: unknown }).targetId;
    if (typeof id === 'string' && id !== '') return id;
  }
  throw invalidArgument(`${helper}: expected a targetId string or a tab object returned by currentTab/listTabs`);
}

/** How long the attached tab may take to say whether it is visible (a dialog or a busy page may hold it). */
const VISIBILITY_PROBE_MS = 1_000;

/**
 * Activates `targetId`, the attached tab, when it is hidden behind another tab of its window (a
 * popup that opened there, a tab the user opened). A hidden tab renders no frames (so waits for an
 * animation frame fall back to timers) and Chromium dismisses its dialogs at once. Best effort:
 * a page that cannot answer right now stays as it is.
 */
export async function bringForwardIfHidden(context: HelperContext, targetId: string): Promise<void> {
  const { client } = context;
  const sessionId = client.sessionId;
  if (sessionId === undefined || client.targetId !== targetId || client.pendingDialog !== null) return;
  try {
    const { result } = await client.evaluate(sessionId, 'document.visibilityState', context.callOptions({ timeoutMs: VISIBILITY_PROBE_MS }));
    if (result.value === 'hidden') await client.browserCommand('Target.activateTarget', { targetId }, context.callOptions());
  } catch {
    // Navigating, frozen, or not a page (an iframe target): nothing to bring forward.
  }
}

export function createTabHelpers(context: HelperContext, tracker: NavigationTracker, viewports: ViewportMemory) {
  const { client } = context;

  /** Page targets, in Chromium's order; `includeChrome: false` drops internal and about: pages. */
  async function listTabs(includeChrome: unknown = true): Promise<TabInfo[]> {
    if (typeof includeChrome !== 'boolean') throw invalidArgument('listTabs: includeChrome must be a boolean');
    const targets = await client.listTargets(context.callOptions());
    return targets.filter((target) => target.type === 'page' && (includeChrome || !isInternalUrl(target.url))).map(tabRow);
  }

  async function attachedTarget(helper: string): Promise<TargetSummary> {
    await client.ensureAttached(context.callOptions());
    const targetId = client.targetId;
    const target = (await client.listTargets(context.callOptions())).find((entry) => entry.targetId === targetId);
    if (targetId === undefined || target === undefined) {
      throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `${helper}: attached target no longer exists`, { data: { targetId } });
    }
    return target;
  }

  /** The attached tab (attaching the first real page, or a new blank one, if none is). */
  async function currentTab(): Promise<TabInfo> {
    return tabRow(await attachedTarget('currentTab'));
  }

  /** Attaches `target` (id or tab/frame object); returns its session id. */
  async function switchTab(target: unknown): Promise<string> {
    const targetId = readTargetId('switchTab', target);
    // Another REPL's or executor's tab: attaching it would mix its dialogs and events with ours.
    const owner = await client.ownerOf(targetId);
    if (owner !== undefined) {
      throw invalidArgument(`switchTab: tab ${targetId} belongs to ${owner.replace(':', ' ')}; each REPL and executor keeps its own tab, so use that one, or open a tab of yours with newTab()`);
    }
    const sessionId = await client.attach(targetId, context.callOptions());
    // The viewport this REPL gave the tab ended with its previous session.
    await viewports.reapply(context, targetId, sessionId);
    // Tabs alone in their window are not activated on attach; one that a popup joined may be hidden.
    if (client.ownsTab) await bringForwardIfHidden(context, targetId);
    return sessionId;
  }

  /**
   * `Target.createTarget` params that give a new window the size of the REPL's own tab's window,
   * and so the default viewport; none when that size is unknown.
   */
  async function ownWindowSize(): Promise<{ width?: number; height?: number }> {
    // The own tab is known once it was attached (a first helper call may be this one).
    if (client.ownTargetId === undefined) await client.ensureAttached(context.callOptions());
    const source = client.ownTargetId ?? client.targetId;
    if (source === undefined) return {};
    try {
      const { bounds } = await client.browserCommand('Browser.getWindowForTarget', { targetId: source }, context.callOptions());
      return bounds.width === undefined || bounds.height === undefined ? {} : { width: bounds.width, height: bounds.height };
    } catch {
      return {}; // The own tab closed meanwhile: the window gets the browser's default size.
    }
  }

  /**
   * Waits until the attached page's renderer reports a URL other than about:blank (≤ 5 s, never
   * throws). A dialog means the new document is already running: no need to wait behind it.
   */
  async function waitForCommit(): Promise<void> {
    const until = Math.min(Date.now() + SETTLE_TIMEOUT_MS, context.waitDeadline(SETTLE_TIMEOUT_MS));
    for (;;) {
      try {
        const sessionId = await client.ensureAttached(context.callOptions());
        const outcome = await raceDialog(context, sessionId, () => client.evaluate(sessionId, 'location.href', context.callOptions({ timeoutMs: 1_000 })));
        if (outcome.dialog !== undefined) return;
        const { value } = outcome.value.result;
        if (typeof value === 'string' && value !== '' && value !== 'about:blank') return;
      } catch {
        // A navigation in progress may destroy the context mid-evaluation; poll again.
      }
      if (Date.now() >= until || !(await delay(SETTLE_POLL_MS, context.signal))) return;
    }
  }

  /**
   * Opens `url` in a tab and attaches it; returns its target id. A non-blank `url` reuses the
   * attached tab when that is still blank; navigation errors are reported, never retried in a
   * second tab.
   */
  async function newTab(url: unknown = 'about:blank'): Promise<string> {
    if (typeof url !== 'string' || url.trim() === '') throw invalidArgument('newTab: url must be a non-empty string');
    if (url !== 'about:blank') {
      const current = await attachedTarget('newTab');
      if (current.type === 'page' && BLANK_TAB_URL.test(current.url || 'about:blank')) {
        await navigateAttached(context, tracker, 'newTab', url);
        await waitForCommit();
        return current.targetId;
      }
    }
    // Created blank and attached before navigating, so dialogs and events of the first document
    // are observed from its start.
    // A REPL with a tab of its own opens its tabs in windows of their own as well: a plain new tab
    // joins the most recently activated window and would hide the tab already there.
    const ownWindow = client.ownsTab;
    if (!ownWindow && client.targetId !== undefined) {
      // That window may be another REPL's (a popup opening there activates it): make it ours first.
      await client.browserCommand('Target.activateTarget', { targetId: client.targetId }, context.callOptions()).catch(() => undefined);
    }
    const params = ownWindow ? { url: 'about:blank', newWindow: true, ...(await ownWindowSize()) } : { url: 'about:blank' };
    const { targetId } = await client.browserCommand('Target.createTarget', params, context.callOptions());
    if (ownWindow) client.markOwnWindow(targetId);
    await client.attach(targetId, context.callOptions());
    if (url !== 'about:blank') {
      await navigateAttached(context, tracker, 'newTab', url);
      await waitForCommit();
    }
    return targetId;
  }

  /** Closes `target` (default: the attached tab) and waits until Chromium no longer lists it. */
  async function closeTab(target?: unknown): Promise<void> {
    const targetId = target === undefined ? client.targetId : readTargetId('closeTab', target);
    if (targetId === undefined) {
      throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', 'closeTab: no tab is attached and no target id was provided');
    }
    try {
      await client.browserCommand('Target.closeTarget', { targetId }, context.callOptions());
    } catch (error) {
      if (/No target with given id/i.test((error as Error).message)) {
        throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `closeTab: no target with id ${targetId} (already closed?)`, { cause: error, data: { targetId } });
      }
      throw error;
    }
    viewports.remember(targetId, null);
    // closeTarget answers before the target is gone; an immediate listTabs() must not count it,
    // and the client must have dropped the session if it was the attached one.
    const until = Math.min(Date.now() + SETTLE_TIMEOUT_MS, context.waitDeadline(SETTLE_TIMEOUT_MS));
    for (;;) {
      let listed = false;
      try {
        listed = (await client.listTargets(context.callOptions())).some((entry) => entry.targetId === targetId);
      } catch {
        return; // A listing error counts as gone (the browser may be restarting).
      }
      if (!listed && client.targetId !== targetId) return;
      if (Date.now() >= until || !(await delay(SETTLE_POLL_MS, context.signal))) return;
    }
  }

  /**
   * The attached tab if it shows real content, else the first real tab (which it attaches), else
   * `null`; it never creates a tab.
   */
  async function ensureRealTab(): Promise<TabInfo | null> {
    const real = await listTabs(false);
    const first = real[0];
    if (first === undefined) return null;
    const current = await currentTab();
    if (!isInternalUrl(current.url)) return current;
    await client.attach(first.targetId, context.callOptions());
    return first;
  }

  /** The first cross-origin iframe target whose URL contains `urlSubstring`, or `null`. */
  async function iframeTarget(urlSubstring: unknown): Promise<FrameTargetInfo | null> {
    if (typeof urlSubstring !== 'string') throw invalidArgument('iframeTarget: urlSubstring must be a string');
    const frame = (await client.listTargets(context.callOptions())).find((target) => target.type === 'iframe' && target.url.includes(urlSubstring));
    return frame === undefined ? null : { targetId: frame.targetId, url: frame.url, title: frame.title, type: frame.type };
  }

  return { listTabs, currentTab, switchTab, newTab, closeTab, ensureRealTab, iframeTarget };
}
