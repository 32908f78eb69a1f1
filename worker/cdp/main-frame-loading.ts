/**
 * Whether the attached page's main frame is loading a new document, from the Page events of its
 * session. It lets `waitForLoad` see navigations it did not start (a link clicked, a form
 * submitted, `location.href = …` in page code): while one is under way, the old document's
 * `readyState === "complete"` must not count as loaded.
 *
 * Chromium pairs `Page.frameStartedLoading` with `Page.frameStoppedLoading` for every frame; the
 * stop comes after the load event, or when the navigation was cancelled, failed or turned into a
 * download. `Page.frameRequestedNavigation` is deliberately not used: a request can be dropped
 * before it starts loading, with no stop to end it, and waitForLoad would then wait for nothing.
 * (Chromium also holds an evaluation sent to a frame with a navigation under way until the new
 * document commits; this tracker does not rely on that.)
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpEvent } from '../../common/cdp/cdp-connection.js';

export class MainFrameLoading {
  #mainFrameId: string | undefined;
  #loading = false;

  /** True between a main-frame load's start and its stop. */
  get loading(): boolean {
    return this.#loading;
  }

  /** Starts over for a newly attached page target (whose main frame id is its target id). */
  reset(mainFrameId: string | undefined): void {
    this.#mainFrameId = mainFrameId;
    this.#loading = false;
  }

  /** Feeds one event of the attached session. */
  observe(event: CdpEvent): void {
    if (this.#mainFrameId === undefined) return;
    switch (event.method) {
      case 'Page.frameStartedLoading':
        if ((event.params as Partial<Protocol.Page.FrameStartedLoadingEvent>).frameId === this.#mainFrameId) this.#loading = true;
        break;
      case 'Page.frameStoppedLoading':
        if ((event.params as Partial<Protocol.Page.FrameStoppedLoadingEvent>).frameId === this.#mainFrameId) this.#loading = false;
        break;
      default:
        break;
    }
  }
}
