/**
 * Maps Playwright pages to their CDP target ids. Playwright does not expose the id, so each page
 * is asked once through its own CDP session (`Target.getTargetInfo`); answers are memoised per
 * page, concurrent lookups of one page share one discovery, and failures are not cached.
 * `reset()` (on every disconnect) discards everything; a discovery started before a reset still
 * answers its caller but does not write into the new memo.
 */
import type { Page } from 'playwright-core';

/** Page → CDP target id, per browser connection. */
export class TargetIdCache {
  #memo = new WeakMap<Page, string>();
  #inFlight = new WeakMap<Page, Promise<string>>();
  #generation = 0;

  /** The page's target id; `refresh` forgets the memoised one first. */
  get(page: Page, options: { refresh?: boolean } = {}): Promise<string> {
    if (options.refresh === true) {
      this.#memo.delete(page);
      this.#inFlight.delete(page);
    }
    const known = this.#memo.get(page);
    if (known !== undefined) return Promise.resolve(known);
    const pending = this.#inFlight.get(page);
    if (pending !== undefined) return pending;
    const generation = this.#generation;
    const discovery = discover(page).then(
      (targetId) => {
        if (generation === this.#generation) {
          this.#memo.set(page, targetId);
          this.#inFlight.delete(page);
        }
        return targetId;
      },
      (error: unknown) => {
        if (generation === this.#generation) this.#inFlight.delete(page);
        throw error;
      });
    this.#inFlight.set(page, discovery);
    return discovery;
  }

  /** targetId → page for the pages whose discovery succeeds, in input order. */
  async index(pages: readonly Page[], options: { refresh?: boolean } = {}): Promise<Map<string, Page>> {
    const ids = await Promise.all(pages.map((page) => this.get(page, options).catch(() => undefined)));
    const byId = new Map<string, Page>();
    pages.forEach((page, index) => {
      const id = ids[index];
      if (id !== undefined) byId.set(id, page);
    });
    return byId;
  }

  reset(): void {
    this.#generation++;
    this.#memo = new WeakMap();
    this.#inFlight = new WeakMap();
  }
}

async function discover(page: Page): Promise<string> {
  const session = await page.context().newCDPSession(page);
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } finally {
    session.detach().catch(() => {});
  }
}
