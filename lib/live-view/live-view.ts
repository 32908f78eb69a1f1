/**
 * The live view of one browser: the viewers watching it, and while there is at least one, a CDP
 * connection of its own (on the main thread) attached to the tab they see, with
 * `Page.startScreencast` running. Frames (JPEG, base64) go to every viewer and are acknowledged
 * (`Page.screencastFrameAck`) as they are relayed; input messages of interactive viewers become
 * `Input.*` commands on that tab. The first viewer starts it; when the last one leaves the
 * screencast stops, the connection closes and nothing is left: a browser nobody watches pays
 * nothing. {@link LiveViews} keeps one per watched browser.
 *
 * Hand-over (docs/live-view.md#hand-over): the browser's pending `requestHuman()` requests
 * (lib/browsers/hand-over.ts) go to every viewer as they come and go (`human`), and an interactive
 * viewer's `humanDone` answers one; the first Done wins, a read-only viewer's is refused.
 *
 * Which tab: the one a viewer picked from the tab list, else the one the default REPL uses (the
 * first tab no named REPL, executor or agent session owns, preferring a web page, as the REPL
 * picks it), kept while it lasts. Every {@link TICK_MS} the tabs are listed again, so a new tab,
 * a closed one or a picked one is followed on the next look.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';

import type { Protocol } from 'devtools-protocol';

import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import type { Transport } from '../../common/cdp/transport.js';
import { createUpgradeAcceptor } from '../../common/cdp/transport.js';
import type { UpgradeAcceptor } from '../../common/cdp/transport.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import type { Browser } from '../browsers/browser.js';
import { HUMAN_REPLY_MAX_CHARS } from '../../common/protocol/human-messages.js';
import { INPUT_TYPES, inputCommands, LiveViewInputError } from './input.js';
import type { FrameGeometry, InputCommand } from './input.js';
import { AckPacer, MOTION_FPS, MOTION_MAX, STILL_AFTER_MS, StillFrames } from './frames.js';

const debug = debuglog('browser-repl:live-view');

/** How often the tabs are listed again (the view follows a tab change on the next look). */
export const TICK_MS = 500;
/** Largest message a viewer may send (a paste is at most 16 KiB of text). */
const MAX_VIEWER_MESSAGE = 96 * 1024;
/** JPEG quality of the frames (0–100). */
const JPEG_QUALITY = 70;
/** How long closing waits for Chromium to stop the screencast and detach. */
const CLOSE_BUDGET_MS = 2_000;

/** Screencasts running in this process right now (tests check that an unwatched browser has none). */
let runningScreencasts = 0;
export function liveScreencasts(): number {
  return runningScreencasts;
}

/** A row of the tab list the viewers get. */
export interface LiveViewTab {
  targetId: string;
  url: string;
  title: string;
  /** `repl:default` for the default REPL's tabs, else the owner (`repl:<name>`, `executor:<name>`, `tools:<id>`). */
  owner: string;
}

interface Viewer {
  readonly transport: Transport;
  readonly readOnly: boolean;
  /** What its URL called the person (`&name=`): the `by` of the answers it gives. */
  readonly name: string | undefined;
  readonly release: () => void;
}

/** The live view of one browser; see the module comment. */
export class BrowserLiveView extends Resource {
  readonly #browser: Browser;
  readonly #link: BrowserLink;
  readonly #viewers = new Set<Viewer>();
  readonly #onClosed: () => void;
  readonly #timer: NodeJS.Timeout;
  readonly #unsubscribeHuman: () => void;
  #session: CdpSession | undefined;
  #targetId: string | undefined;
  /** The tab a viewer picked, while it exists. */
  #picked: string | undefined;
  #tabsMessage = '';
  /** The last frame, for a viewer who joins while the page is still (Chromium sends frames on change only). */
  #lastFrame: string | undefined;
  #geometry: FrameGeometry | undefined;
  #ticking: Promise<void> | undefined;
  #screencasting = false;
  /** The shown tab's frame rule, and the pending still's timer (lib/live-view/frames.ts). */
  #stills: StillFrames | undefined;
  #stillTimer: NodeJS.Timeout | undefined;
  /** Paces the acknowledgements of the shown tab's screencast (lib/live-view/frames.ts). */
  #acks: AckPacer | undefined;
  /** Metadata of the last relayed screencast frame: a still shows the same geometry. */
  #lastMetadata: Protocol.Page.ScreencastFrameMetadata | undefined;

  constructor(browser: Browser, onClosed: () => void) {
    super();
    this.#browser = browser;
    this.#onClosed = onClosed;
    const chromium = browser.chromium;
    if (chromium === null) throw new Error('a live view needs a browser with Chromium');
    this.#link = new BrowserLink({ endpointProvider: () => chromium.endpoint() });
    this.#timer = setInterval(() => void this.#tick(), TICK_MS);
    this.#timer.unref();
    this.#unsubscribeHuman = browser.humanRequests.onChange(() => {
      const message = this.#humanMessage();
      for (const viewer of this.#viewers) this.#send(viewer, message);
    });
    void this.#tick();
  }

  get viewerCount(): number {
    return this.#viewers.size;
  }

  /** The tab being shown, once attached. */
  get targetId(): string | undefined {
    return this.#targetId;
  }

  /** Adds a viewer on its (accepted) WebSocket; it leaves when the socket closes. */
  add(transport: Transport, options: { readOnly: boolean; name?: string | undefined }): void {
    if (this.closed) {
      transport.close();
      return;
    }
    // A watched browser is in use: it is not reaped while someone looks at it.
    const viewer: Viewer = { transport, readOnly: options.readOnly, name: options.name, release: this.#browser.hold() };
    this.#viewers.add(viewer);
    transport.onmessage = (message) => this.#onMessage(viewer, message);
    transport.onclose = () => {
      this.#viewers.delete(viewer);
      viewer.release();
      if (this.#viewers.size === 0) void this.close();
      else this.#broadcastStatus();
    };
    this.#send(viewer, JSON.stringify({ type: 'hello', browserId: this.#browser.id, readOnly: viewer.readOnly }));
    this.#broadcastStatus();
    // A request pending before this viewer came is shown to it at once.
    this.#send(viewer, this.#humanMessage());
    if (this.#tabsMessage !== '') this.#send(viewer, this.#tabsMessage);
    if (this.#lastFrame !== undefined) this.#send(viewer, this.#lastFrame);
  }

  protected async closeGracefully(): Promise<void> {
    clearInterval(this.#timer);
    this.#unsubscribeHuman();
    const viewers = [...this.#viewers];
    this.#viewers.clear();
    for (const viewer of viewers) {
      this.#send(viewer, JSON.stringify({ type: 'ended', reason: this.#browser.closed ? 'the browser ended' : 'the live view closed' }));
      viewer.release();
      viewer.transport.close();
    }
    await waitAtMost(this.#ticking ?? Promise.resolve(), CLOSE_BUDGET_MS);
    await waitAtMost(this.#detach(), CLOSE_BUDGET_MS);
    await this.#link.close();
    this.#onClosed();
  }

  /** Lists the tabs, picks the one to show, and switches to it when it changed. */
  #tick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.#browser.closed) {
      void this.close();
      return Promise.resolve();
    }
    this.#ticking ??= this.#look().catch((error: unknown) => {
      debug('browser %s: %s', this.#browser.id, error instanceof Error ? error.message : String(error));
    }).finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #look(): Promise<void> {
    const { targetInfos } = await this.#link.send('Target.getTargets');
    if (this.closed) return;
    const owners = this.#browser.tabs?.ownersExcept() ?? {};
    const pages = targetInfos.filter((info) => info.type === 'page');
    const tabs: LiveViewTab[] = pages.map((page) => ({ targetId: page.targetId, url: page.url, title: page.title, owner: owners[page.targetId] ?? 'repl:default' }));
    if (this.#picked !== undefined && !pages.some((page) => page.targetId === this.#picked)) this.#picked = undefined;
    // While a hand-over request is pending, its asker's tab is shown (an MCP session's, a named REPL's), unless a viewer picked one.
    const asking = this.#browser.humanRequests.pending().map((request) => request.from).find((from) => from !== 'repl:default' && tabs.some((tab) => tab.owner === from));
    const want = this.#picked ?? tabs.find((tab) => tab.owner === asking)?.targetId ?? defaultTab(tabs, this.#targetId, this.#browser.tabs?.defaultAttached);
    if (want !== undefined && (want !== this.#targetId || this.#session === undefined || this.#session.closed)) await this.#show(want);
    const message = JSON.stringify({ type: 'tabs', tabs, current: this.#targetId ?? null, picked: this.#picked ?? null });
    if (message !== this.#tabsMessage) {
      this.#tabsMessage = message;
      for (const viewer of this.#viewers) this.#send(viewer, message);
    }
  }

  /** Attaches `targetId` on the live view's own connection and starts its screencast. */
  async #show(targetId: string): Promise<void> {
    await this.#detach();
    const connection = await this.#link.connection({ method: 'Target.attachToTarget' });
    const session = await connection.attachToTarget(targetId);
    if (this.closed) {
      await session.detach().catch(() => undefined);
      return;
    }
    this.#session = session;
    this.#targetId = targetId;
    this.#lastFrame = undefined;
    this.#lastMetadata = undefined;
    const stills = new StillFrames();
    this.#stills = stills;
    const acks = new AckPacer(MOTION_FPS);
    this.#acks = acks;
    session.on('Page.screencastFrame', (event) => {
      const { data, metadata, sessionId } = event.params;
      // Chromium sends the next frame only once this one is acknowledged: at most MOTION_FPS a second.
      acks.schedule(() => void session.send('Page.screencastFrameAck', { sessionId }).catch(() => undefined));
      if (!stills.onFrame(data, metadata)) return;
      this.#geometry = {
        deviceWidth: metadata.deviceWidth, deviceHeight: metadata.deviceHeight,
        pageScaleFactor: metadata.pageScaleFactor, offsetTop: metadata.offsetTop,
      };
      this.#relay(JSON.stringify({ type: 'frame', targetId, data, metadata }));
      this.#lastMetadata = metadata;
      // Every changed frame pushes the still back: it is taken once the page stays still.
      clearTimeout(this.#stillTimer);
      this.#stillTimer = setTimeout(() => void this.#takeStill(session, targetId, stills), STILL_AFTER_MS);
      this.#stillTimer.unref();
    });
    session.onClose(() => {
      if (this.#session !== session) return;
      this.#session = undefined;
      this.#stopped();
    });
    // Counted from the request on: whoever detaches the session (a switch, the close) uncounts it.
    if (!this.#screencasting) {
      this.#screencasting = true;
      runningScreencasts++;
    }
    // Reduced frames while the page changes (what they cost the page: lib/live-view/frames.ts), a full-size still once it is still.
    await session.send('Page.startScreencast', { format: 'jpeg', quality: JPEG_QUALITY, maxWidth: MOTION_MAX.width, maxHeight: MOTION_MAX.height, everyNthFrame: 1 });
    // Closed while it started (the last viewer left at once): nothing may outlive the close.
    if (this.closed && this.#session === session) await this.#detach();
    debug('browser %s: showing %s to %d viewer(s)', this.#browser.id, targetId, this.#viewers.size);
  }

  /** Relays a frame to every viewer and keeps it for the ones who join later. */
  #relay(frame: string): void {
    this.#lastFrame = frame;
    for (const viewer of this.#viewers) this.#send(viewer, frame);
  }

  /** The page stayed still: its full-size still replaces the last reduced frame, unless a newer frame overtook it. */
  async #takeStill(session: CdpSession, targetId: string, stills: StillFrames): Promise<void> {
    const request = stills.stillDue();
    const metadata = this.#lastMetadata;
    if (request === undefined || metadata === undefined || this.closed || this.#session !== session || session.closed) return;
    try {
      const { data } = await session.send('Page.captureScreenshot', { format: 'jpeg', quality: JPEG_QUALITY });
      if (this.closed || this.#session !== session || this.#stills !== stills || !stills.accept(request)) return;
      this.#relay(JSON.stringify({ type: 'frame', targetId, data, metadata, still: true }));
    } catch (error) {
      // The tab closed or navigated away meanwhile: the reduced frame stays shown.
      debug('browser %s: no still: %s', this.#browser.id, error instanceof Error ? error.message : String(error));
    }
  }

  async #detach(): Promise<void> {
    clearTimeout(this.#stillTimer);
    this.#acks?.cancel();
    this.#stills = undefined;
    const session = this.#session;
    this.#session = undefined;
    this.#stopped();
    if (session === undefined || session.closed) return;
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach().catch(() => undefined);
  }

  #stopped(): void {
    if (!this.#screencasting) return;
    this.#screencasting = false;
    runningScreencasts--;
  }

  #onMessage(viewer: Viewer, text: string): void {
    if (text.length > MAX_VIEWER_MESSAGE) {
      this.#error(viewer, `a message may have at most ${MAX_VIEWER_MESSAGE} characters`);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#error(viewer, 'a message must be a JSON object');
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.#error(viewer, 'a message must be a JSON object');
      return;
    }
    const body = message as Record<string, unknown>;
    const type = body['type'];
    if (type === 'ping') return;
    if (type === 'humanDone') return this.#humanDone(viewer, body);
    if (type === 'selectTab') {
      if (viewer.readOnly) return this.#refuse(viewer, 'selectTab');
      const targetId = body['targetId'];
      if (typeof targetId !== 'string' || !/^[0-9A-Za-z]{1,64}$/.test(targetId)) return this.#error(viewer, 'targetId must be a tab id of the tab list');
      this.#picked = targetId;
      void this.#tick();
      return;
    }
    if (typeof type !== 'string' || !INPUT_TYPES.has(type)) return this.#error(viewer, `type must be one of ping, selectTab, humanDone, ${[...INPUT_TYPES].join(', ')}`);
    // Enforced here, whatever the page shows: a read-only viewer drives nothing.
    if (viewer.readOnly) return this.#refuse(viewer, type);
    let commands: InputCommand[];
    try {
      commands = inputCommands(body);
    } catch (error) {
      if (error instanceof LiveViewInputError) return this.#error(viewer, `${type}: ${error.message}`);
      throw error;
    }
    const session = this.#session;
    if (session === undefined || session.closed) return this.#error(viewer, 'no tab is shown yet');
    for (const command of commands) {
      session.send(command.method, command.params).catch((error: unknown) => this.#error(viewer, `${command.method} failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** The pending hand-over requests, as every viewer gets them. */
  #humanMessage(): string {
    return JSON.stringify({ type: 'human', requests: this.#browser.humanRequests.pending() });
  }

  /** A viewer pressed Done: the first one answers the request; a read-only viewer is refused. */
  #humanDone(viewer: Viewer, body: Record<string, unknown>): void {
    if (viewer.readOnly) return this.#refuse(viewer, 'humanDone');
    const { id, reply } = body;
    if (typeof id !== 'string' || id.length > 64) return this.#error(viewer, 'humanDone: id must be the id of a pending request');
    if (reply !== undefined && (typeof reply !== 'string' || reply.length > HUMAN_REPLY_MAX_CHARS)) {
      return this.#error(viewer, `humanDone: reply must be a string of at most ${HUMAN_REPLY_MAX_CHARS} characters`);
    }
    const answer = { reply: reply ?? '', ...(viewer.name === undefined ? {} : { by: viewer.name }) };
    const accepted = this.#browser.humanRequests.complete(id, answer);
    if (!accepted) {
      this.#send(viewer, JSON.stringify({ type: 'humanDone', id, accepted: false, message: 'this request is no longer pending: another viewer answered it, it timed out or its cell ended' }));
      return;
    }
    // Every viewer learns that it was answered, and by whom (`mine`: by this viewer).
    for (const other of this.#viewers) {
      this.#send(other, JSON.stringify({ type: 'humanDone', id, accepted: true, mine: other === viewer, ...(viewer.name === undefined ? {} : { by: viewer.name }) }));
    }
  }

  /** Geometry of the last frame (what the page maps its coordinates with). */
  get geometry(): FrameGeometry | undefined {
    return this.#geometry;
  }

  #refuse(viewer: Viewer, type: string): void {
    this.#send(viewer, JSON.stringify({ type: 'refused', input: type, message: 'this live view is read-only: input is not forwarded' }));
  }

  #error(viewer: Viewer, message: string): void {
    this.#send(viewer, JSON.stringify({ type: 'error', message }));
  }

  #broadcastStatus(): void {
    let interactive = 0;
    for (const viewer of this.#viewers) if (!viewer.readOnly) interactive++;
    for (const viewer of this.#viewers) {
      this.#send(viewer, JSON.stringify({ type: 'status', viewers: this.#viewers.size, interactiveViewers: interactive, readOnly: viewer.readOnly }));
    }
  }

  #send(viewer: Viewer, message: string): void {
    try {
      viewer.transport.send(message);
    } catch {
      // Closing: its onclose removes it.
    }
  }
}

/**
 * The tab the default REPL uses: the one its worker reported attaching last (`attached`, so a
 * cell's switchTab moves the view) while that tab is there and unowned; else the current one
 * while it stays unowned; else the first unowned web page.
 */
export function defaultTab(tabs: readonly LiveViewTab[], current: string | undefined, attached?: string): string | undefined {
  const unowned = tabs.filter((tab) => tab.owner === 'repl:default');
  if (attached !== undefined && unowned.some((tab) => tab.targetId === attached)) return attached;
  if (current !== undefined && unowned.some((tab) => tab.targetId === current)) return current;
  return (unowned.find((tab) => !isInternalUrl(tab.url)) ?? unowned[0] ?? tabs[0])?.targetId;
}

function isInternalUrl(url: string): boolean {
  return /^(?:chrome|chrome-untrusted|devtools|chrome-extension|edge):/i.test(url);
}

/**
 * The live views of every watched browser (one per browser, made by its first viewer, dropped
 * with its last), and the WebSocket acceptor of their viewers.
 */
export class LiveViews extends Resource {
  readonly #views = new Map<Browser, BrowserLiveView>();
  #acceptor: Promise<UpgradeAcceptor> | undefined;

  /** Live views open right now. */
  get size(): number {
    return this.#views.size;
  }

  /** The live view of `browser`, while someone watches it. */
  viewOf(browser: Browser): BrowserLiveView | undefined {
    return this.#views.get(browser);
  }

  /**
   * Completes a checked upgrade (capability, Host, Origin, handshake) and adds the viewer to the
   * browser's live view. Rejects when the handshake fails; the caller answers it.
   */
  async accept(browser: Browser, upgrade: { request: IncomingMessage; socket: Duplex; head: Buffer }, options: { readOnly: boolean; name?: string | undefined }): Promise<void> {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the live view is closed: the server is shutting down');
    const transport = await (this.#acceptor ??= createUpgradeAcceptor()).then((acceptor) => acceptor.accept(upgrade.request, upgrade.socket, upgrade.head));
    if (this.closed || browser.closed) {
      transport.close();
      return;
    }
    let view = this.#views.get(browser);
    if (view === undefined || view.closed) {
      const created: BrowserLiveView = new BrowserLiveView(browser, () => {
        if (this.#views.get(browser) === created) this.#views.delete(browser);
      });
      view = created;
      this.#views.set(browser, view);
    }
    view.add(transport, options);
  }

  protected async closeGracefully(): Promise<void> {
    const views = [...this.#views.values()];
    this.#views.clear();
    await Promise.all(views.map((view) => view.close()));
    (await this.#acceptor?.catch(() => undefined))?.close();
  }
}
