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
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import { ReplError } from '../../common/errors.js';
import { TIMEOUTS } from '../../common/limits.js';

const debug = debuglog('browser-repl:tabs');

/** How often `closeTab` looks whether a closed tab has left the target list. */
const CLOSE_POLL_MS = 50;
const NO_TARGET = /No target with given id/i;

/** An owner of a tab: `repl:<name>` or `executor:<name>`. */
export type TabOwner = `repl:${string}` | `executor:${string}`;

export interface TabRegistryOptions {
  /** The browser's current DevTools endpoint (it may launch the browser). */
  endpoint: () => Promise<string>;
  /**
   * Whether the browser is up without launching it: listing and closing never start a browser
   * just to find nothing there. Default: always.
   */
  reachable?: (() => boolean) | undefined;
}

/** A row of {@link TabRegistry.list}. */
export interface OwnedTab {
  owner: TabOwner;
  targetId: string;
}

/** The tabs of one browser and their owners; see the module comment. */
export class TabRegistry {
  readonly #link: BrowserLink;
  readonly #reachable: () => boolean;
  readonly #owned = new Map<TabOwner, string>();
  /** Opens in flight, so two first calls of one owner share one tab. */
  readonly #opening = new Map<TabOwner, Promise<string>>();
  #closed = false;

  constructor(options: TabRegistryOptions) {
    this.#link = new BrowserLink({ endpointProvider: () => options.endpoint() });
    this.#reachable = options.reachable ?? (() => true);
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The tab `owner` has now, without opening one. */
  peek(owner: TabOwner): string | undefined {
    return this.#owned.get(owner);
  }

  /** Every owned tab, in the order the owners got them. */
  list(): OwnedTab[] {
    return [...this.#owned].map(([owner, targetId]) => ({ owner, targetId }));
  }

  /** targetId → owner of every tab that `owner` does not own (all of them when omitted). */
  ownersExcept(owner?: TabOwner): Record<string, string> {
    const owners: Record<string, string> = {};
    for (const [key, targetId] of this.#owned) if (key !== owner) owners[targetId] = key;
    return owners;
  }

  /** Stops recording `owner`'s tab without closing it (an executor deleted with `close_tab=false`). */
  forget(owner: TabOwner): void {
    this.#owned.delete(owner);
    this.#opening.delete(owner);
  }

  /**
   * The tab of `owner`, opened in the background on first use. `gone` names a tab the owner found
   * closed (a user closed it, or the browser restarted): a new one replaces it.
   *
   * @throws ReplError `REPL_ERR_CLOSED`, or the CDP layer's connect and command errors.
   */
  tabFor(owner: TabOwner, options: { gone?: string | undefined } = {}): Promise<string> {
    if (this.#closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'the tab registry is closed'));
    const current = this.#owned.get(owner);
    if (current !== undefined && current !== options.gone) return Promise.resolve(current);
    if (current !== undefined) this.#owned.delete(owner);
    let opening = this.#opening.get(owner);
    if (opening === undefined) {
      opening = this.openTab().then((targetId) => {
        // Released or closed while it was opening: the tab belongs to nobody, so it goes.
        if (this.#closed || this.#opening.get(owner) !== opening) {
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
   * Forgets `owner`'s tab and closes it (waiting until Chromium no longer lists it). A tab that is
   * already gone, or a browser that is not running, counts as closed.
   */
  async release(owner: TabOwner): Promise<void> {
    const targetId = this.#owned.get(owner);
    this.#owned.delete(owner);
    this.#opening.delete(owner);
    if (targetId === undefined || !this.#reachable()) return;
    await this.closeTab(targetId);
  }

  /**
   * Opens `about:blank` in a new background tab of the default context, alone in a window of its
   * own; returns its target id. A tab that shares a window with the active one is hidden: headless
   * Chromium renders no frames for it, so every wait for an animation frame (a click's stability
   * check) falls back to its timer, about 6× slower (docs/benchmarks.md), and it cancels its
   * dialogs. The active tab of its own window is visible, at full speed, and keeps its dialogs.
   */
  async openTab(): Promise<string> {
    const { targetId } = await this.#link.send('Target.createTarget', { url: 'about:blank', newWindow: true, background: true });
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
  async releaseAll(owners: readonly TabOwner[] = [...this.#owned.keys()]): Promise<void> {
    const releasing = owners.filter((owner) => this.#owned.has(owner) || this.#opening.has(owner));
    if (releasing.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(releasing.map((owner) => this.release(owner).catch((error: unknown) => debug('closing the tab of %s failed: %o', owner, error)))),
      new Promise<void>((resolve) => { timer = setTimeout(resolve, TIMEOUTS.tabCloseBudgetMs); }),
    ]);
    clearTimeout(timer);
  }

  /** Releases every owned tab ({@link TabRegistry.releaseAll}) and closes the connection. Later calls fail with `REPL_ERR_CLOSED`. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.releaseAll();
    this.#opening.clear();
    await this.#link.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
