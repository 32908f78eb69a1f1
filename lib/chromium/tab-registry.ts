/**
 * Who owns which tab of one browser. Every named REPL and every named Playwright executor gets a
 * tab of its own, opened lazily in the background of the default browser context, so that its
 * page, its events and its dialogs are nobody else's; the default REPL and the default executor
 * keep using the tab the user sees (the active one) and never pick a tab that has an owner.
 *
 * Tabs are opened and closed here, on the main thread, never inside a worker: an owner that is
 * reset, deleted or shut down always gets its tab closed, even when the worker that used it is
 * gone. The registry talks to the browser through the shared CDP layer (`common/cdp`), over one
 * browser-level connection opened on first use and reopened after the browser restarts.
 *
 * Popups belong to the owner of the tab that opened them (`target=_blank`, `window.open`; Chromium
 * names the opener in `TargetInfo.openerId`), and so do the popups those open: once adopted they
 * are another owner's tabs for everyone else, and they are closed with the owner's tab. Adoption
 * is done on demand ({@link TabRegistry.adoptPopups}) from one target listing, before the host
 * tells a worker who owns what, so a popup that exists when a worker asks is never missed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import { TIMEOUTS } from '../../common/limits.js';
import { DEFAULT_VIEWPORT, checkViewport, fitWindowToViewport } from './viewport.js';
import { BrowserDownloads } from './downloads.js';

import type { Viewport } from './viewport.js';

const debug = debuglog('browser-repl:tabs');

/** How often `closeTab` looks whether a closed tab has left the target list. */
const CLOSE_POLL_MS = 50;
const NO_TARGET = /No target with given id/i;

/** An owner of a tab: `repl:<name>`, `executor:<name>`, or an agent-tool session `tools:<id>`. */
export type TabOwner = `repl:${string}` | `executor:${string}` | `tools:${string}`;

const NO_CONTEXT = /Failed to find browser context|browserContextId/i;

export interface TabRegistryOptions {
  /** The browser's current DevTools endpoint (it may launch the browser). */
  endpoint: () => Promise<string>;
  /**
   * Whether the browser is up without launching it: listing and closing never start a browser
   * just to find nothing there. Default: always.
   */
  reachable?: (() => boolean) | undefined;
  /** Page area of every tab it opens (lib/chromium/viewport.ts). Default 1280×720. */
  viewport?: Viewport | undefined;
}

/** A row of {@link TabRegistry.list}. */
export interface OwnedTab {
  owner: TabOwner;
  targetId: string;
}

/** The tabs of one browser and their owners; see the module comment. */
export class TabRegistry extends Resource {
  readonly #link: BrowserLink;
  readonly #reachable: () => boolean;
  readonly #owned = new Map<TabOwner, string>();
  /** Popups each owner adopted (see the module comment), besides its own tab. */
  readonly #popups = new Map<TabOwner, Set<string>>();
  /** Opens in flight, so two first calls of one owner share one tab. */
  readonly #opening = new Map<TabOwner, Promise<string>>();
  readonly #viewport: Viewport;
  /** Owners whose tabs open in a browser context of their own (agent-tool sessions), and that context once made. */
  readonly #isolated = new Map<TabOwner, string | undefined>();
  /** The browser context of every tab, as of the last listing (adoptPopups): isolated owners see only their own context's. */
  #pageContexts = new Map<string, string | undefined>();
  #downloads: BrowserDownloads | undefined;
  #defaultAttached: string | undefined;

  constructor(options: TabRegistryOptions) {
    super();
    this.#link = new BrowserLink({ endpointProvider: () => options.endpoint() });
    this.#reachable = options.reachable ?? (() => true);
    this.#viewport = options.viewport === undefined ? { ...DEFAULT_VIEWPORT } : checkViewport(options.viewport);
  }

  /**
   * The tab the default REPL's worker attached last (its `switchTab`, `newTab`, or its first
   * page), as the worker reports it. The live view, recordings and computer controls show this
   * one while it is there and nobody else's (`defaultTab` in lib/live-view/live-view.ts).
   */
  get defaultAttached(): string | undefined {
    return this.#defaultAttached;
  }

  /** The default REPL's worker attached `targetId` (common/protocol/repl-messages.ts, `attached`). */
  noteDefaultAttached(targetId: string): void {
    this.#defaultAttached = targetId;
  }

  /** The tab `owner` has now, without opening one. */
  peek(owner: TabOwner): string | undefined {
    return this.#owned.get(owner);
  }

  /** Every owned tab, in the order the owners got them. */
  list(): OwnedTab[] {
    return [...this.#owned].map(([owner, targetId]) => ({ owner, targetId }));
  }

  /** The browser contexts made so far for isolated owners (agent-tool sessions). */
  isolatedContextIds(): Set<string> {
    const ids = new Set<string>();
    for (const context of this.#isolated.values()) if (context !== undefined) ids.add(context);
    return ids;
  }

  /** The browser context of `owner`'s own tab when the owner is isolated ({@link isolate}) and its tab is open. */
  contextOf(owner: TabOwner): string | undefined {
    return this.#isolated.get(owner);
  }

  /** The popups `owner` adopted so far, oldest first (see {@link TabRegistry.adoptPopups}). */
  popupsOf(owner: TabOwner): string[] {
    return [...(this.#popups.get(owner) ?? [])];
  }

  /**
   * targetId → owner of every tab that `owner` does not own (all of them when omitted), with the
   * popups adopted as of the last {@link TabRegistry.adoptPopups}.
   */
  ownersExcept(owner?: TabOwner): Record<string, string> {
    const owners: Record<string, string> = {};
    for (const [key, targetId] of this.#owned) if (key !== owner) owners[targetId] = key;
    for (const [key, popups] of this.#popups) {
      if (key === owner) continue;
      for (const targetId of popups) owners[targetId] = key;
    }
    // An isolated owner (an agent-tool session) is apart from every tab of other contexts too,
    // the unowned ones (the default REPL's) included: it must not list or select them.
    const context = owner === undefined ? undefined : this.#isolated.get(owner);
    if (context !== undefined) {
      for (const [targetId, tabContext] of this.#pageContexts) {
        if (tabContext !== context && owners[targetId] === undefined) owners[targetId] = 'another browser context';
      }
    }
    return owners;
  }

  /**
   * Like {@link ownersExcept}, once the tabs being opened right now are recorded and the popups
   * that exist now are adopted: a worker that asks about a tab that just appeared must not miss
   * its owner. A listing that fails (the browser is restarting) leaves the popups as they were.
   */
  async settledOwnersExcept(owner?: TabOwner): Promise<Record<string, string>> {
    await Promise.allSettled([...this.#opening.values()]);
    await this.adoptPopups().catch((error: unknown) => debug('listing popups failed: %o', error));
    return this.ownersExcept(owner);
  }

  /**
   * Adopts the popups of owned tabs: every page whose opener is an owner's tab, or a popup it
   * adopted, becomes that owner's (transitively); popups that closed are forgotten. One
   * `Target.getTargets`; nothing to do while no owner has a tab or the browser is not running.
   * Never shared between callers: each must see the targets that exist when it asks.
   */
  async adoptPopups(): Promise<void> {
    if (this.#owned.size === 0 || !this.#reachable()) return;
    const { targetInfos } = await this.#link.send('Target.getTargets');
    const pages = targetInfos.filter((info) => info.type === 'page');
    this.#pageContexts = new Map(pages.map((page) => [page.targetId, page.browserContextId]));
    const open = new Set(pages.map((page) => page.targetId));
    const ownerOf = new Map<string, TabOwner>();
    for (const [owner, targetId] of this.#owned) ownerOf.set(targetId, owner);
    for (const [owner, popups] of this.#popups) {
      for (const targetId of popups) {
        if (open.has(targetId)) ownerOf.set(targetId, owner);
        else popups.delete(targetId);
      }
      if (popups.size === 0) this.#popups.delete(owner);
    }
    // A popup may open a popup of its own; chains are short, so one pass per link is cheap.
    for (let adopted = true; adopted;) {
      adopted = false;
      for (const page of pages) {
        if (page.openerId === undefined || ownerOf.has(page.targetId)) continue;
        const owner = ownerOf.get(page.openerId);
        if (owner === undefined) continue;
        ownerOf.set(page.targetId, owner);
        let popups = this.#popups.get(owner);
        if (popups === undefined) this.#popups.set(owner, popups = new Set());
        popups.add(page.targetId);
        debug('%s adopted popup %s (opened by %s)', owner, page.targetId, page.openerId);
        adopted = true;
      }
    }
  }

  /** Where this browser's downloads go (lib/chromium/downloads.ts); created on first use. */
  get downloads(): BrowserDownloads {
    this.#downloads ??= new BrowserDownloads(this.#link);
    return this.#downloads;
  }

  /**
   * Makes `owner`'s tab open in a browser context of its own (cookies, storage and cache apart
   * from every other tab), created with the tab and disposed when the owner is released. Call it
   * before the owner's first tab.
   */
  isolate(owner: TabOwner): void {
    if (!this.#isolated.has(owner)) this.#isolated.set(owner, undefined);
  }

  /** Stops recording `owner`'s tab and popups without closing them (an executor deleted with `close_tab=false`). */
  forget(owner: TabOwner): void {
    this.#owned.delete(owner);
    this.#popups.delete(owner);
    this.#opening.delete(owner);
  }

  /**
   * The tab of `owner`, opened in the background on first use. `gone` names a tab the owner found
   * closed (a user closed it, or the browser restarted): a new one replaces it.
   *
   * @throws ReplError `REPL_ERR_CLOSED`, or the CDP layer's connect and command errors.
   */
  tabFor(owner: TabOwner, options: { gone?: string | undefined } = {}): Promise<string> {
    if (this.closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'the tab registry is closed'));
    const current = this.#owned.get(owner);
    if (current !== undefined && current !== options.gone) return Promise.resolve(current);
    if (current !== undefined) this.#owned.delete(owner);
    let opening = this.#opening.get(owner);
    if (opening === undefined) {
      opening = (this.#isolated.has(owner) ? this.#openIsolatedTab(owner) : this.openTab()).then((targetId) => {
        // Released or closed while it was opening: the tab belongs to nobody, so it goes.
        if (this.closed || this.#opening.get(owner) !== opening) {
          void this.closeTab(targetId).catch(() => {});
          throw new ReplError('REPL_ERR_CLOSED', `the tab of ${owner} was released while it was opening`);
        }
        this.#owned.set(owner, targetId);
        return targetId;
      }).finally(() => {
        if (this.#opening.get(owner) === opening) this.#opening.delete(owner);
      });
      this.#opening.set(owner, opening);
    }
    return opening;
  }

  /**
   * Forgets `owner`'s tab and popups and closes them (waiting until Chromium no longer lists
   * them). A tab that is already gone, or a browser that is not running, counts as closed.
   */
  async release(owner: TabOwner): Promise<void> {
    // Popups opened since the last look go with the tab too.
    if (this.#owned.has(owner)) await this.adoptPopups().catch((error: unknown) => debug('listing popups of %s failed: %o', owner, error));
    const targetId = this.#owned.get(owner);
    const popups = this.popupsOf(owner);
    this.#owned.delete(owner);
    this.#popups.delete(owner);
    this.#opening.delete(owner);
    const context = this.#isolated.get(owner);
    this.#isolated.delete(owner);
    if (!this.#reachable()) return;
    if (targetId !== undefined) await Promise.all([targetId, ...popups].map((id) => this.closeTab(id)));
    // Disposing the context also closes whatever else it still holds, and deletes its data.
    if (context !== undefined) await this.#link.send('Target.disposeBrowserContext', { browserContextId: context }).catch((error: unknown) => debug('disposing the context of %s failed: %o', owner, error));
  }

  /** A tab in `owner`'s own browser context, made (and given the host's download folder) on first use or after a browser restart. */
  async #openIsolatedTab(owner: TabOwner): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      let context = this.#isolated.get(owner);
      if (context === undefined) {
        ({ browserContextId: context } = await this.#link.send('Target.createBrowserContext', { disposeOnDetach: false }));
        this.#isolated.set(owner, context);
        const { incoming } = await this.downloads.prepare(owner);
        await this.#link.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: incoming, browserContextId: context, eventsEnabled: false });
      }
      try {
        return await this.openTab(context);
      } catch (error) {
        // The context died with a browser that restarted: make a new one, once.
        if (attempt > 0 || !NO_CONTEXT.test((error as Error).message)) throw error;
        this.#isolated.set(owner, undefined);
      }
    }
  }

  /**
   * Opens `about:blank` in a new background tab of the default context (or of `browserContextId`), alone in a window of its
   * own whose page area is the viewport; returns its target id. A tab that shares a window with
   * the active one is hidden: headless Chromium renders no frames for it, so every wait for an
   * animation frame (a click's stability check) falls back to its timer, about 6× slower
   * (docs/benchmarks.md), and it cancels its dialogs. The active tab of its own window is
   * visible, at full speed, and keeps its dialogs.
   */
  async openTab(browserContextId?: string): Promise<string> {
    const { width, height } = this.#viewport;
    // The size given here is the window's; the fit then makes it the page area's (viewport.ts).
    const { targetId } = await this.#link.send('Target.createTarget', {
      url: 'about:blank', newWindow: true, background: true, width, height, ...(browserContextId === undefined ? {} : { browserContextId }),
    });
    await fitWindowToViewport(this.#link, targetId, this.#viewport);
    debug('opened tab %s', targetId);
    return targetId;
  }

  /**
   * Closes a tab and waits (≤ 5 s) until Chromium no longer lists it: `Target.closeTarget`
   * answers before the target is gone, and a listing right after must not show it. A tab that
   * is already gone counts as closed.
   */
  async closeTab(targetId: string): Promise<void> {
    try {
      await this.#link.send('Target.closeTarget', { targetId });
    } catch (error) {
      if (NO_TARGET.test((error as Error).message)) return;
      throw error;
    }
    const until = Date.now() + TIMEOUTS.tabCloseSettleMs;
    while ((await this.urls()).has(targetId) && Date.now() < until) await sleep(CLOSE_POLL_MS);
  }

  /**
   * Starts loading `url` in the browser's first tab that nobody owns (the one a fresh browser
   * opens); resolves once the navigation was accepted, not when the page has loaded.
   */
  async navigateFirstTab(url: string): Promise<void> {
    const connection = await this.#link.connection({ method: 'Page.navigate' });
    const { targetInfos } = await connection.send('Target.getTargets');
    const owned = new Set(Object.keys(this.ownersExcept()));
    const first = targetInfos.find((info) => info.type === 'page' && !owned.has(info.targetId));
    if (first === undefined) throw new Error('the browser has no tab to open start_url in');
    const session = await connection.attachToTarget(first.targetId);
    try {
      await session.send('Page.navigate', { url });
    } finally {
      await connection.send('Target.detachFromTarget', { sessionId: session.sessionId }).catch(() => undefined);
    }
  }

  /** targetId → URL of every page target (empty when the browser is not running). */
  async urls(): Promise<Map<string, string>> {
    if (!this.#reachable()) return new Map();
    const { targetInfos } = await this.#link.send('Target.getTargets');
    return new Map(targetInfos.filter((info) => info.type === 'page').map((info) => [info.targetId, info.url]));
  }

  /**
   * Releases the tabs of `owners` (default: every owner) at once, within
   * {@link TIMEOUTS.tabCloseBudgetMs}: shutdown must not wait on a browser that does not answer. A
   * tab that fails to close is logged, not thrown.
   */
  async releaseAll(owners: readonly TabOwner[] = [...new Set([...this.#owned.keys(), ...this.#isolated.keys()])]): Promise<void> {
    const releasing = owners.filter((owner) => this.#owned.has(owner) || this.#opening.has(owner) || this.#popups.has(owner) || this.#isolated.get(owner) !== undefined);
    if (releasing.length === 0) return;
    await waitAtMost(
      Promise.all(releasing.map((owner) => this.release(owner).catch((error: unknown) => debug('closing the tab of %s failed: %o', owner, error)))),
      TIMEOUTS.tabCloseBudgetMs,
    );
  }

  /**
   * `close()` releases every owned tab ({@link TabRegistry.releaseAll}) and closes the connection;
   * later calls fail with `REPL_ERR_CLOSED`. Every caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    await this.releaseAll();
    this.#opening.clear();
    this.#downloads?.close();
    await this.#link.close();
  }
}
