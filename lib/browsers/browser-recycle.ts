/**
 * Cleans a pooled browser for its next user and checks the result (docs/browsers.md#pools). What
 * the browser's own parts hold (REPLs, executors, processes, watches, recordings, files written
 * through fs) is undone by `Browser.endLease()`; this module cleans its Chromium: one about:blank
 * tab left (a new one, so no back history), cookies cleared, the storage and caches of every
 * origin the tabs visited or a cookie named cleared, downloads removed. A pool that keeps a
 * profile keeps the cookies and the sites' storage (local storage, IndexedDB, service workers…:
 * the logins, the point of a profile) and clears only their caches. Then it looks again: a cookie
 * left (without a profile), a second tab or a named REPL makes it throw, and the pool retires the
 * browser and launches a fresh one instead.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { Browser } from './browser.js';

export interface CleanOptions {
  /** The pool keeps a profile: its logins (cookies and the sites' storage) stay; tabs, caches, REPLs and files are still cleaned. */
  keepProfile: boolean;
}

/** Cleans `browser` for its next user and verifies it; throws what is left over. */
export async function recycleBrowser(browser: Browser, options: CleanOptions): Promise<void> {
  await browser.endLease();
  const chromium = browser.chromium;
  const tabs = browser.tabs;
  if (chromium !== null && tabs !== null) {
    const link = new BrowserLink({ endpointProvider: () => chromium.endpoint() });
    try {
      await cleanPages(link, await tabs.openTab(), options);
      await verifyPages(link, options);
    } finally {
      await link.close();
    }
    const root = tabs.downloads.root;
    if (root !== undefined) {
      for (const entry of readdirSync(root)) rmSync(path.join(root, entry), { recursive: true, force: true });
      if (readdirSync(root).length > 0) throw new Error('the downloads folder is not empty');
      // Where Chromium saves downloads (lib/chromium/downloads.ts): it must exist for the next user.
      mkdirSync(path.join(root, '.incoming'));
    }
  }
  await browser.resetDefaultRepl();
  // As a launch leaves it (lib/browsers/browsers.ts): the fresh worker started, connected, its page
  // attached, so the next user's first cell does not pay for it.
  await browser.repl('default').warm();
  const repls = browser.replNames().filter((name) => name !== 'default');
  if (repls.length > 0) throw new Error(`named REPLs left: ${repls.join(', ')}`);
}

async function cleanPages(link: BrowserLink, keep: string, options: CleanOptions): Promise<void> {
  const connection = await link.connection();
  const { targetInfos } = await connection.send('Target.getTargets');
  const pages = targetInfos.filter((info) => info.type === 'page' && info.targetId !== keep);
  const origins = new Set<string>();
  for (const page of pages) {
    addOrigin(origins, page.url);
    // Every entry of its history, not only the page it shows now.
    const session = await connection.attachToTarget(page.targetId).catch(() => undefined);
    if (session === undefined) continue;
    try {
      const { entries } = await session.send('Page.getNavigationHistory');
      for (const entry of entries) addOrigin(origins, entry.url);
    } catch {
      // A page that does not answer is closed below all the same.
    } finally {
      await connection.send('Target.detachFromTarget', { sessionId: session.sessionId }).catch(() => undefined);
    }
  }
  await Promise.all(pages.map((page) => connection.send('Target.closeTarget', { targetId: page.targetId }).catch(() => undefined)));
  // A page's last local-storage writes reach the storage service as it closes: clearing before
  // it is gone would leave them behind (its renderer commits them after the clear).
  await untilOnlyBlank(connection);
  const { cookies } = await connection.send('Storage.getCookies', {});
  for (const cookie of cookies) {
    const host = cookie.domain.replace(/^\./, '');
    origins.add(`https://${host}`);
    origins.add(`http://${host}`);
    if (cookie.sourcePort > 0 && cookie.sourcePort !== 80 && cookie.sourcePort !== 443) origins.add(`http://${host}:${cookie.sourcePort}`);
  }
  if (!options.keepProfile) await connection.send('Storage.clearCookies', {});
  // With a profile, the sites' storage is the profile's (as its cookies): only caches go.
  const storageTypes = options.keepProfile ? 'shader_cache,cache_storage' : 'all';
  // Through a page: sent to the browser target, Storage.clearDataForOrigin answers "Internal
  // error" and clears nothing (a site's local storage survived it). The HTTP cache is the
  // browser's, cleared through any page as well.
  const session = await connection.attachToTarget(keep);
  try {
    await Promise.all([...origins].map((origin) => session.send('Storage.clearDataForOrigin', { origin, storageTypes })));
    await session.send('Network.clearBrowserCache');
  } finally {
    await connection.send('Target.detachFromTarget', { sessionId: session.sessionId }).catch(() => undefined);
  }
}

async function verifyPages(link: BrowserLink, options: CleanOptions): Promise<void> {
  const connection = await link.connection();
  await untilOnlyBlank(connection);
  if (!options.keepProfile) {
    const { cookies } = await connection.send('Storage.getCookies', {});
    if (cookies.length > 0) throw new Error(`${cookies.length} cookies left after cleaning`);
  }
}

/** Target.closeTarget answers before the target is gone: looks until only the one about:blank tab is left (a few hundred ms at most). */
async function untilOnlyBlank(connection: Awaited<ReturnType<BrowserLink['connection']>>): Promise<void> {
  const until = Date.now() + 5000;
  for (;;) {
    const { targetInfos } = await connection.send('Target.getTargets');
    const pages = targetInfos.filter((info) => info.type === 'page');
    if (pages.length === 1 && pages[0]!.url === 'about:blank') return;
    if (Date.now() > until) throw new Error(`${pages.length} tabs left after cleaning (${pages.map((page) => page.url).join(', ')})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function addOrigin(origins: Set<string>, url: string): void {
  try {
    const { origin } = new URL(url);
    if (origin !== 'null') origins.add(origin);
  } catch {
    // about:blank and friends have no origin to clear.
  }
}
