/**
 * Decides what `page` is for one call.
 *
 * - `default` executor: the tab Chrome reports as active (`embedderData.tabActive` on `tab`
 *   targets, one per window), else the newest open page, else a new page (`created: true`);
 *   never a tab that a named REPL or another executor owns (`foreign`).
 * - Named executor: the tab the main thread opened for it, found by target id. A new tab may need
 *   a moment to attach, hence the longer retry when `tabCreated`; a tab that no longer exists is
 *   reported as missing so the main thread can reopen it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { ExecutorTab } from '../../common/protocol/executor-messages.js';
import type { TargetIdCache } from './target-id-cache.js';

export interface PageBinding {
  page: Page;
  /** Absent when the page's target id could not be read (for example it is crashing or closing). */
  tab?: ExecutorTab;
}

/** The named executor's tab does not exist any more; the code must not run. */
export class TabMissingError extends Error {
  constructor(targetId: string) {
    super(`executor tab ${targetId} is closed`);
    this.name = 'TabMissingError';
  }
}

/** The named executor's tab exists but Playwright has not attached to it; the connection must be dropped. */
export class TabNotAttachedError extends Error {
  constructor(targetId: string) {
    super(`executor tab ${targetId} is open but not available to Playwright yet; retry the call`);
    this.name = 'TabNotAttachedError';
  }
}

const ACTIVE_PASSES = 3;
const ACTIVE_PASS_DELAY_MS = 150;

// Playwright types CDP params strictly; the filters used here are newer than its protocol copy.
type LooseSession = {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, listener: (event: never) => void): unknown;
};
const loose = (session: CDPSession) => session as unknown as LooseSession;

interface TargetInfo {
  targetId: string;
  type: string;
  subtype?: string;
  embedderData?: { tabActive?: unknown };
}

/** Every open page across every context, oldest first within a context. */
export function livePages(browser: Browser): Page[] {
  return browser.contexts().flatMap((context) => context.pages()).filter((page) => !page.isClosed());
}

/**
 * `page` of the default executor: the active tab, else the newest page, else a new one; pages of
 * the `foreign` target ids (tabs others own) are never chosen.
 */
export async function bindDefaultPage(browser: Browser, cache: TargetIdCache, foreign: ReadonlySet<string> = new Set()): Promise<PageBinding> {
  const pages = await withoutForeign(livePages(browser), cache, foreign);
  if (pages.length === 0) {
    const context = browser.contexts()[0] ?? await browser.newContext();
    const page = await context.newPage();
    return withTab(page, cache, true);
  }
  // With one page there is nothing to choose, and no CDP round trip is needed.
  const page = pages.length === 1 ? pages[0]! : await activePage(browser, pages, cache) ?? pages.at(-1)!;
  return withTab(page, cache, false);
}

/**
 * `page` of a named executor: the page of `targetId`.
 *
 * @throws TabMissingError when the tab no longer exists; TabNotAttachedError when it exists but
 *   Playwright never saw it.
 */
export async function bindExecutorPage(
  browser: Browser, cache: TargetIdCache, targetId: string, tabCreated: boolean, signal: AbortSignal,
): Promise<PageBinding> {
  const attempts = tabCreated ? 50 : 3;
  const delayMs = tabCreated ? 100 : 150;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await sleep(delayMs, undefined, { signal });
    // Pages not seen before are discovered on every attempt; the second one also refreshes
    // memoised ids in case a page changed target.
    const page = (await cache.index(livePages(browser), { refresh: attempt === 1 })).get(targetId);
    if (page !== undefined) return { page, tab: { targetId, created: tabCreated } };
  }
  if (!await targetExists(browser, targetId)) throw new TabMissingError(targetId);
  throw new TabNotAttachedError(targetId);
}

/** `pages` without those whose target id is in `foreign` (ids that cannot be read are kept). */
async function withoutForeign(pages: Page[], cache: TargetIdCache, foreign: ReadonlySet<string>): Promise<Page[]> {
  if (foreign.size === 0 || pages.length === 0) return pages;
  const ids = await Promise.all(pages.map((page) => cache.get(page).catch(() => undefined)));
  return pages.filter((_, index) => !foreign.has(ids[index] ?? ''));
}

async function withTab(page: Page, cache: TargetIdCache, created: boolean): Promise<PageBinding> {
  const targetId = await cache.get(page).catch(() => undefined);
  return targetId === undefined ? { page } : { page, tab: { targetId, created } };
}

/**
 * The live page of an active tab. Tab targets and page targets have different ids; attaching
 * related page targets of each active tab yields the page target ids (the events arrive before
 * the command answers). A fresh browser session per pass, detached afterwards, keeps the
 * auto-attach from outliving the lookup.
 */
async function activePage(browser: Browser, pages: Page[], cache: TargetIdCache): Promise<Page | null> {
  for (let pass = 0; pass < ACTIVE_PASSES; pass++) {
    if (pass > 0) await sleep(ACTIVE_PASS_DELAY_MS);
    let session: CDPSession | undefined;
    try {
      session = await browser.newBrowserCDPSession();
      const cdp = loose(session);
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }, { exclude: true }] }) as { targetInfos: TargetInfo[] };
      const activeTabs = targetInfos.filter((info) => info.type === 'tab' && info.embedderData?.tabActive === true);
      const pageIds: string[] = [];
      cdp.on('Target.attachedToTarget', (event: { targetInfo: TargetInfo }) => {
        if (event.targetInfo.type === 'page' && event.targetInfo.subtype === undefined) pageIds.push(event.targetInfo.targetId);
      });
      for (const tab of activeTabs) {
        await cdp.send('Target.autoAttachRelated', { targetId: tab.targetId, waitForDebuggerOnStart: false, filter: [{ type: 'page' }] });
      }
      if (pageIds.length === 0) continue;
      const byId = await cache.index(pages, { refresh: pass > 0 });
      for (const id of pageIds) {
        const page = byId.get(id);
        if (page !== undefined) return page;
      }
    } catch {
      // A tab closing or crashing mid-lookup: try again, then fall back to the newest page.
    } finally {
      session?.detach().catch(() => {});
    }
  }
  return null;
}

async function targetExists(browser: Browser, targetId: string): Promise<boolean> {
  const session = await browser.newBrowserCDPSession();
  try {
    await loose(session).send('Target.getTargetInfo', { targetId });
    return true;
  } catch {
    return false;
  } finally {
    session.detach().catch(() => {});
  }
}
