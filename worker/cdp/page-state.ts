/**
 * What the attached page's events say about it right now, for helpers to read without a round
 * trip: the open JavaScript dialog, the requests in flight (and the document each belongs to),
 * the time of the last network activity, and whether the main frame is loading a new document.
 * `PageAttachment` feeds it every event of the attached session and starts it over on each
 * attach, detach and dropped connection.
 *
 * Main-frame loading lets `waitForLoad` see navigations it did not start (a link clicked, a form
 * submitted, `location.href = …` in page code): while one is under way, the old document's
 * `readyState === "complete"` must not count as loaded. Chromium pairs `Page.frameStartedLoading`
 * with `Page.frameStoppedLoading` for every frame; the stop comes after the load event, or when
 * the navigation was cancelled, failed or turned into a download. `Page.frameRequestedNavigation`
 * is deliberately not used: a request can be dropped before it starts loading, with no stop to
 * end it, and waitForLoad would then wait for nothing. (Chromium also holds an evaluation sent to
 * a frame with a navigation under way until the new document commits; this state does not rely
 * on that.)
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpEvent } from '../../common/cdp/cdp-session.js';

/** How long a requested main-frame navigation that has not started loading still counts as under way. */
export const NAVIGATION_REQUEST_GRACE_MS = 2_000;

/** A download of the attached page, from its `Page.download*` events. */
export interface PageDownload {
  guid: string;
  url: string;
  suggestedFilename: string;
  frameId: string;
  state: 'inProgress' | 'completed' | 'canceled';
  receivedBytes: number;
  totalBytes: number;
  /** Unix ms of `Page.downloadWillBegin`. */
  since: number;
}

/** The JavaScript dialog open on the attached page. */
export interface PendingDialog {
  type: Protocol.Page.DialogType;
  message: string;
  /** Unix ms when the dialog was reported. */
  since: number;
}

/** State of the attached page, from its session's events; see the module comment. */
export class PageState {
  readonly #inFlight = new Set<string>();
  /** Loader (document) of each in-flight request, to forget requests of a replaced document. */
  readonly #requestLoaders = new Map<string, string>();
  #pendingDialog: PendingDialog | null = null;
  #lastNetworkActivity = Date.now();
  #mainFrameId: string | undefined;
  #mainFrameLoading = false;
  #navigationRequestedAt: number | undefined;
  /** Input was sent since the last `inputSettled()`: a navigation it causes may not be requested yet. */
  #inputPending = false;
  readonly #downloads = new Map<string, PageDownload>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  /** The main frame's URL as its last commit (or same-document navigation) reported it; '' before one. */
  #mainFrameUrl = '';
  /** Main-frame commits seen since the worker started (the trace tells documents apart by it). */
  #documents = 0;

  /** The main frame's URL as its last commit reported it ('' before one was seen). */
  get mainFrameUrl(): string {
    return this.#mainFrameUrl;
  }

  /** How many main-frame documents were committed while attached (never goes back). */
  get documents(): number {
    return this.#documents;
  }

  /** The dialog open on the page (from `Page.javascriptDialogOpening/Closed`), or null. */
  get pendingDialog(): PendingDialog | null {
    return this.#pendingDialog;
  }

  /** True between a main-frame load's start and its stop. */
  get mainFrameLoading(): boolean {
    return this.#mainFrameLoading;
  }

  /**
   * True while the main frame loads a new document, or asked for one less than
   * {@link NAVIGATION_REQUEST_GRACE_MS} ago without having started it yet.
   */
  mainFrameNavigating(now: number = Date.now()): boolean {
    if (this.#mainFrameLoading) return true;
    return this.#navigationRequestedAt !== undefined && now - this.#navigationRequestedAt < NAVIGATION_REQUEST_GRACE_MS;
  }

  /** Records that input went to the page (see {@link inputPending}). */
  inputSent(): void {
    this.#inputPending = true;
  }

  /** True when input was sent since the last {@link inputSettled}. */
  get inputPending(): boolean {
    return this.#inputPending;
  }

  /** The page had time to act on the input sent so far. */
  inputSettled(): void {
    this.#inputPending = false;
  }

  /** Downloads of the attached page since it was attached, oldest first. */
  get downloads(): ReadonlyMap<string, PageDownload> {
    return this.#downloads;
  }

  /** Calls `listener` after each event of the attached session is applied; returns the unsubscribe. */
  subscribe(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Request ids that have started and not finished or failed (live view). */
  get inFlightRequests(): ReadonlySet<string> {
    return this.#inFlight;
  }

  /** Loader (document) that an in-flight request belongs to, when Chromium named one. */
  requestLoader(requestId: string): string | undefined {
    return this.#requestLoaders.get(requestId);
  }

  /** Unix ms of the last `Network.*` event (or of the last attach). */
  get lastNetworkActivity(): number {
    return this.#lastNetworkActivity;
  }

  /**
   * Starts over for a newly attached page target, whose main frame id is its target id. Attaching
   * counts as network activity, so a first idle wait always observes one full quiet interval.
   */
  attached(mainFrameId: string, now: number = Date.now()): void {
    this.clear();
    this.#mainFrameId = mainFrameId;
    this.#lastNetworkActivity = now;
  }

  /** Forgets everything observed (the page detached or the connection dropped); keeps the last activity time. */
  clear(): void {
    this.#pendingDialog = null;
    this.#inFlight.clear();
    this.#requestLoaders.clear();
    this.#mainFrameId = undefined;
    this.#mainFrameLoading = false;
    this.#mainFrameUrl = '';
    this.#navigationRequestedAt = undefined;
    this.#inputPending = false;
    this.#downloads.clear();
  }

  /** The dialog was handled outside the event stream (dismissed on attach). */
  dialogHandled(): void {
    this.#pendingDialog = null;
  }

  /** Feeds one event of the attached session. */
  observe(event: CdpEvent): void {
    this.#apply(event);
    for (const listener of this.#listeners) listener(event);
  }

  #apply(event: CdpEvent): void {
    const { method } = event;
    switch (method) {
      case 'Page.frameRequestedNavigation':
        if (this.#isMainFrame((event.params as Partial<Protocol.Page.FrameRequestedNavigationEvent>).frameId)) this.#navigationRequestedAt = event.time;
        return;
      case 'Page.frameStartedLoading':
        if (this.#isMainFrame((event.params as Partial<Protocol.Page.FrameStartedLoadingEvent>).frameId)) {
          this.#mainFrameLoading = true;
          this.#navigationRequestedAt = undefined;
        }
        return;
      case 'Page.frameStoppedLoading':
        if (this.#isMainFrame((event.params as Partial<Protocol.Page.FrameStoppedLoadingEvent>).frameId)) {
          this.#mainFrameLoading = false;
          this.#navigationRequestedAt = undefined;
        }
        return;
      case 'Page.downloadWillBegin': {
        const params = event.params as Protocol.Page.DownloadWillBeginEvent;
        this.#downloads.set(params.guid, {
          guid: params.guid, url: params.url, suggestedFilename: params.suggestedFilename, frameId: params.frameId,
          state: 'inProgress', receivedBytes: 0, totalBytes: 0, since: event.time,
        });
        return;
      }
      case 'Page.downloadProgress': {
        const params = event.params as Protocol.Page.DownloadProgressEvent;
        const download = this.#downloads.get(params.guid);
        if (download === undefined) return;
        download.state = params.state;
        download.receivedBytes = params.receivedBytes;
        download.totalBytes = params.totalBytes;
        return;
      }
      case 'Page.javascriptDialogOpening': {
        const params = event.params as Partial<Protocol.Page.JavascriptDialogOpeningEvent>;
        this.#pendingDialog = { type: params.type ?? 'alert', message: params.message ?? '', since: event.time };
        return;
      }
      case 'Page.javascriptDialogClosed':
        this.#pendingDialog = null;
        return;
      case 'Page.frameNavigated': {
        // Chromium sends no loadingFailed for requests of a document that was navigated away, so
        // requests of other loaders are dropped when the main frame commits a new document.
        const { frame } = event.params as Protocol.Page.FrameNavigatedEvent;
        if (frame.parentId !== undefined) return;
        this.#navigationRequestedAt = undefined;
        this.#mainFrameUrl = frame.url + (frame.urlFragment ?? '');
        this.#documents++;
        for (const [requestId, loaderId] of this.#requestLoaders) {
          if (loaderId !== frame.loaderId) {
            this.#inFlight.delete(requestId);
            this.#requestLoaders.delete(requestId);
          }
        }
        return;
      }
      case 'Page.navigatedWithinDocument': {
        const params = event.params as Partial<Protocol.Page.NavigatedWithinDocumentEvent>;
        if (this.#isMainFrame(params.frameId) && typeof params.url === 'string') this.#mainFrameUrl = params.url;
        return;
      }
      default:
        if (method.startsWith('Network.')) this.#observeNetwork(event);
    }
  }

  #isMainFrame(frameId: string | undefined): boolean {
    return this.#mainFrameId !== undefined && frameId === this.#mainFrameId;
  }

  #observeNetwork(event: CdpEvent): void {
    this.#lastNetworkActivity = event.time;
    const { requestId, loaderId } = event.params as { requestId?: unknown; loaderId?: unknown };
    if (typeof requestId !== 'string') return;
    if (event.method === 'Network.requestWillBeSent') {
      this.#inFlight.add(requestId);
      if (typeof loaderId === 'string') this.#requestLoaders.set(requestId, loaderId);
    } else if (event.method === 'Network.loadingFinished' || event.method === 'Network.loadingFailed') {
      this.#inFlight.delete(requestId);
      this.#requestLoaders.delete(requestId);
    }
  }
}
