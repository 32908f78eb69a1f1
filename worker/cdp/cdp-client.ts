/**
 * The REPL's CDP client: the facade browser helpers use. It lives in the worker, so its state dies
 * with the REPL. Underneath are the reconnecting browser-level link (`common/cdp/browser-link.ts`,
 * shared with the main thread), the attached page session and the policy that picks it
 * (`page-attachment.ts`), what the page's events say about it (`page-state.ts`), the event ring
 * (`event-ring.ts`) and the one-shot event waiters (`event-waiters.ts`).
 *
 * Deadlines are passed per call (`options.deadline`, the running cell's, made by `HelperContext`);
 * nothing here knows which cell is running.
 *
 * Exactly-once rule: after the connection drops, only the methods in `SAFE_RETRY_METHODS` are
 * sent again. Evaluation, navigation and input report an unknown outcome instead of running twice
 * (docs/browser-helpers.md, "Browser restarts"; `retryAfterDrop`).
 */

import { ReplError } from '../../common/errors.js';
import { BrowserLink, retryAfterDrop } from '../../common/cdp/browser-link.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../common/cdp/cdp-connection.js';
import { captureCallSite, errorAtCallSite, errorCode } from '../../common/cdp/cdp-errors.js';
import { EVENT_RING_CAPACITY, EventRing } from './event-ring.js';
import { EventWaiters } from './event-waiters.js';
import { PageAttachment, targetNotFound } from './page-attachment.js';
import { PageState } from './page-state.js';

import type { Protocol } from 'devtools-protocol';
import type { EndpointRequest } from '../../common/cdp/browser-link.js';
import type { CdpEvent, CdpEventParams, CdpMethod, CdpParams, CdpResult, CdpSession } from '../../common/cdp/cdp-session.js';
import type { Deadline, DeadlineOptions } from '../../common/cdp/deadline.js';
import type { ConnectTransport } from '../../common/cdp/transport.js';
import type { ForeignTabsProvider, OwnTabProvider } from './page-attachment.js';
import type { PageDownload, PendingDialog } from './page-state.js';

export type { EndpointRequest } from '../../common/cdp/browser-link.js';
export type { ConnectTransport } from '../../common/cdp/transport.js';
export type { PageDownload, PendingDialog } from './page-state.js';

/** Options of {@link CdpClient}. */
export interface CdpClientOptions {
  /**
   * Returns the current DevTools endpoint (`ws://…` or `http://host:port`). Called before every
   * connect attempt, so it may (re)launch the browser; errors it throws reach the caller as is.
   */
  endpointProvider: (request: EndpointRequest) => Promise<string>;
  /** Transport factory; default: `/json/version` discovery, then a `ws` WebSocket. */
  connect?: ConnectTransport | undefined;
  /** Default per-command timeout. Default 30 000 ms. */
  defaultTimeoutMs?: number | undefined;
  /** Budget for one connect (all attempts). Default 10 000 ms. */
  connectTimeoutMs?: number | undefined;
  /** Event ring capacity. Default 500. */
  eventCapacity?: number | undefined;
  /** Receives notes meant for the cell's stderr (for example an auto-dismissed dialog). */
  onNote?: ((message: string) => void) | undefined;
  /**
   * The REPL's own tab ("a tab per REPL"): automatic attach then always attaches the target id
   * this returns, never "the first real page". When that target no longer exists it is called
   * once more with `{ gone: thatTargetId }` for a replacement.
   */
  ownTab?: OwnTabProvider | undefined;
  /**
   * Tabs that others own (named REPLs, executors), asked for whenever a page is chosen
   * automatically: they are never chosen. Absent: every tab may be.
   */
  foreignTabs?: ForeignTabsProvider | undefined;
  /** Told each time another tab becomes the attached one (switchTab, newTab, a replacement after a close). */
  onAttached?: ((targetId: string) => void) | undefined;
}

/** Per-command options. */
export interface CdpCommandOptions extends DeadlineOptions {
  /** Own timeout; default 30 s. Never runs past `deadline`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Options of {@link CdpClient.send}. */
export interface CdpRawSendOptions extends CdpCommandOptions {
  /** Session to send on; omitted means browser-level. An explicit session is never retried. */
  sessionId?: string | undefined;
}

/** Options of {@link CdpClient.waitForEvent}. */
export interface WaitForEventOptions<P> extends DeadlineOptions {
  /** Session whose event to wait for; `undefined`/`null` match browser-level events only. */
  sessionId?: string | null | undefined;
  /** Default 30 000 ms; clamped to `deadline`. On timeout the waiter resolves `null`. */
  timeoutMs?: number | undefined;
  /** Skips events for which it returns false; if it throws, the waiter rejects with that error. */
  predicate?: ((event: CdpEvent<P>) => boolean) | undefined;
  signal?: AbortSignal | undefined;
}

/** A row of {@link CdpClient.listTargets}. */
export interface TargetSummary {
  targetId: string;
  type: string;
  title: string;
  url: string;
  attached: boolean;
}

/** The CDP client of one REPL. */
export class CdpClient {
  /** Receives notes for the cell's stderr. */
  onNote: ((message: string) => void) | undefined;

  readonly #link: BrowserLink;
  readonly #state = new PageState();
  readonly #attachment: PageAttachment;
  readonly #defaultTimeoutMs: number;
  readonly #ring: EventRing;
  readonly #waiters = new EventWaiters();

  constructor(options: CdpClientOptions) {
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#ring = new EventRing(options.eventCapacity ?? EVENT_RING_CAPACITY);
    this.onNote = options.onNote;
    this.#link = new BrowserLink({
      endpointProvider: options.endpointProvider,
      connect: options.connect,
      defaultTimeoutMs: this.#defaultTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      onEvent: (event) => this.#handleEvent(event),
      onConnectionClose: () => this.#waiters.rejectAll(),
    });
    this.#attachment = new PageAttachment({
      link: this.#link,
      state: this.#state,
      ownTab: options.ownTab,
      foreignTabs: options.foreignTabs,
      note: (message) => this.onNote?.(message),
      onAttached: options.onAttached,
    });
  }

  /** True while a connection is open. */
  get connected(): boolean {
    return this.#link.connected;
  }

  /** Number of connections opened so far (diagnostics and tests). */
  get connectionCount(): number {
    return this.#link.connectionCount;
  }

  /** True after `close()`. */
  get closed(): boolean {
    return this.#link.closed;
  }

  /** The attached page session, if any. */
  get session(): CdpSession | undefined {
    return this.#attachment.session;
  }

  /** Session id of the attached target, if any. */
  get sessionId(): string | undefined {
    return this.#attachment.session?.sessionId;
  }

  /** The attached target, if any. */
  get targetId(): string | undefined {
    return this.#attachment.session?.targetId;
  }

  /**
   * The REPL's own tab, as last returned by the `ownTab` option (known after the first automatic
   * attach); undefined without `ownTab`.
   */
  get ownTargetId(): string | undefined {
    return this.#attachment.ownTargetId;
  }

  /** True for a REPL with a tab of its own (`ownTab`). */
  get ownsTab(): boolean {
    return this.#attachment.ownsTab;
  }

  /** targetId → owner (`repl:<name>`, `executor:<name>`, …) of every tab another REPL or executor owns. */
  foreignOwners(): Promise<ReadonlyMap<string, string>> {
    return this.#attachment.foreignOwners();
  }

  /** Who owns `targetId`, when someone other than this REPL does. */
  ownerOf(targetId: string): Promise<string | undefined> {
    return this.#attachment.ownerOf(targetId);
  }

  /** Records a tab this REPL opened in a window of its own: attaching it never activates it. */
  markOwnWindow(targetId: string): void {
    this.#attachment.markOwnWindow(targetId);
  }

  /** False after the attached page did not answer its domain enables in time. */
  get rendererResponsive(): boolean {
    return this.#attachment.rendererResponsive;
  }

  /** The dialog open on the attached page (from `Page.javascriptDialogOpening/Closed`), or null. */
  get pendingDialog(): PendingDialog | null {
    return this.#state.pendingDialog;
  }

  /**
   * True while the attached page's main frame is loading a new document, whoever started the
   * navigation (see page-state.ts).
   */
  get mainFrameLoading(): boolean {
    return this.#state.mainFrameLoading;
  }

  /**
   * How this REPL answers JavaScript dialogs as they open (`onDialog`): null leaves them pending
   * for the next cell to see and handle.
   */
  dialogPolicy: { accept: boolean; promptText?: string | undefined } | null = null;

  /** The attached page's URL as its last main-frame commit reported it ('' before one); the trace's page. */
  get mainFrameUrl(): string {
    return this.#state.mainFrameUrl;
  }

  /** Main-frame documents committed while attached, ever increasing (the trace tells documents apart by it). */
  get documents(): number {
    return this.#state.documents;
  }

  /** Loading a new document, or asked for one a moment ago (see `PageState.mainFrameNavigating`). */
  get mainFrameNavigating(): boolean {
    return this.#state.mainFrameNavigating();
  }

  /** Input helpers call this after sending input, so the next `waitForLoad` lets the page act on it first. */
  noteInput(): void {
    this.#state.inputSent();
  }

  /** Input was sent since the last `inputSettled()`. */
  get inputPending(): boolean {
    return this.#state.inputPending;
  }

  inputSettled(): void {
    this.#state.inputSettled();
  }

  /** Downloads of the attached page since it was attached (guid → state). */
  get pageDownloads(): ReadonlyMap<string, PageDownload> {
    return this.#state.downloads;
  }

  /** Calls `listener` after every event of the attached page session; returns the unsubscribe. */
  onPageEvent(listener: (event: CdpEvent) => void): () => void {
    return this.#state.subscribe(listener);
  }

  /** Request ids of the attached page that have started and not finished or failed (live view). */
  get inFlightRequests(): ReadonlySet<string> {
    return this.#state.inFlightRequests;
  }

  /** Loader (document) that an in-flight request of the attached page belongs to, when Chromium named one. */
  requestLoader(requestId: string): string | undefined {
    return this.#state.requestLoader(requestId);
  }

  /** Unix ms of the last `Network.*` event of the attached page (or of the last attach). */
  get lastNetworkActivity(): number {
    return this.#state.lastNetworkActivity;
  }

  /** Events dropped from the full ring since the last `drainEvents()`. */
  get droppedEvents(): number {
    return this.#ring.dropped;
  }

  /** Opens the connection if needed. */
  async ensureConnected(options: DeadlineOptions = {}): Promise<void> {
    await this.#link.connection({ deadline: options.deadline, method: 'Target.getTargets' });
  }

  /** Browser-level command: `send` without a session (safe methods retried once after a drop). */
  browserCommand<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpCommandOptions = {}): Promise<CdpResult<M>> {
    return this.#link.send(method, params, options);
  }

  /**
   * Command on the attached target: attaches first when needed (`ensureAttached`), re-runs the
   * domain enables if the renderer was frozen, and after a dropped connection either re-runs a
   * safe method once (reconnecting and reattaching) or rejects with `REPL_ERR_CDP_OUTCOME_UNKNOWN`.
   */
  async sessionCommand<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpCommandOptions = {}): Promise<CdpResult<M>> {
    this.#assertOpen(method);
    const { deadline } = options;
    return await retryAfterDrop(
      method,
      {
        prepare: () => this.#attachment.attached({ deadline, method }),
        send: (session) => {
          if (!this.#attachment.rendererResponsive) this.#attachment.reenableInBackground(session, deadline);
          return session.send(method, params, {
            timeoutMs: options.timeoutMs,
            signal: options.signal,
            deadline,
            timeoutHint: () => this.#attachment.rendererHint(session.sessionId),
          });
        },
      },
      { closed: () => this.closed, pauseMs: 0 },
    );
  }

  /**
   * Raw send. With a `sessionId` the command goes to that session as is and is never retried
   * (`evaluate` relies on this for exactly-once). Without one it is a browser-level command.
   */
  send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpRawSendOptions = {}): Promise<CdpResult<M>> {
    const { sessionId, deadline } = options;
    if (sessionId === undefined) return this.#link.send(method, params, options);
    const sendOptions = {
      sessionId,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      deadline,
      timeoutHint: () => this.#attachment.rendererHint(sessionId),
    };
    // Hot path of js(): an open connection takes the command synchronously, without a hop.
    // A closed client takes the slow path, which rejects with REPL_ERR_CLOSED.
    const current = this.#link.current;
    if (current !== undefined) return current.send(method, params, sendOptions);
    return this.#link.connection({ deadline, method }).then((connection) => connection.send(method, params, sendOptions));
  }

  /**
   * Makes sure a target is attached and returns its session id. See page-attachment.ts for the
   * choice (own tab; else previous target, first real page, any page, new `about:blank` tab). A
   * target that vanished between listing and attaching is retried once.
   */
  async ensureAttached(options: DeadlineOptions = {}): Promise<string> {
    this.#assertOpen('Target.attachToTarget');
    // Hot path of js(): an attached page answers at once.
    const attached = this.#attachment.session;
    if (attached !== undefined) return attached.sessionId;
    const { deadline } = options;
    return await retryAfterDrop(
      'Target.attachToTarget',
      { prepare: () => this.#attachment.attached({ deadline }), send: (session) => Promise.resolve(session.sessionId) },
      { closed: () => this.closed, pauseMs: 0 },
    );
  }

  /**
   * Attaches `targetId` (flattened session), brings it to the foreground, enables
   * Page/DOM/Runtime/Network (5 s each; a timeout marks the renderer unresponsive), dismisses a
   * dialog left open before attach, and detaches the previous session. Attaching the target that
   * is already attached returns its session without re-attaching.
   */
  async attach(targetId: string, options: DeadlineOptions = {}): Promise<string> {
    this.#assertOpen('Target.attachToTarget');
    return (await this.#attachment.attach(targetId, options)).sessionId;
  }

  /**
   * Attaches `targetId` (flattened, no domains enabled) on this client's connection without making
   * it the attached page: the agent tools read cross-site frames through such sessions. The caller
   * detaches it; a dropped connection ends it.
   */
  async attachAuxiliary(targetId: string, options: CdpCommandOptions = {}): Promise<CdpSession> {
    this.#assertOpen('Target.attachToTarget');
    const { deadline, signal } = options;
    const connection = await this.#link.connection({ deadline, method: 'Target.attachToTarget' });
    try {
      return await connection.attachToTarget(targetId, { deadline, signal });
    } catch (error) {
      throw targetNotFound(error, targetId);
    }
  }

  /** Lists targets (`Target.getTargets`). */
  async listTargets(options: CdpCommandOptions = {}): Promise<TargetSummary[]> {
    const { targetInfos } = await this.#link.send('Target.getTargets', undefined, options);
    return targetInfos.map(toSummary);
  }

  /**
   * `Runtime.evaluate {expression, awaitPromise, returnByValue}` on `sessionId`, exactly once
   * (never retried). Returns the raw result; decoding belongs to the caller. With a deadline the
   * default timeout is the time left rather than 30 s, so a long page promise is bounded by the
   * cell's own timeout_sec.
   */
  evaluate(sessionId: string, expression: string, options: CdpCommandOptions = {}): Promise<Protocol.Runtime.EvaluateResponse> {
    return this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, {
      sessionId,
      timeoutMs: options.timeoutMs ?? evaluationTimeout(options.deadline, this.#defaultTimeoutMs),
      signal: options.signal,
      deadline: options.deadline,
    });
  }

  /**
   * Evaluates on `targetId` through a transient flattened session (no domains enabled), detached
   * afterwards. Nothing is retried. Useful for cross-origin iframes.
   */
  async evaluateOnTarget(targetId: string, expression: string, options: CdpCommandOptions = {}): Promise<Protocol.Runtime.EvaluateResponse> {
    this.#assertOpen('Target.attachToTarget');
    const { deadline, signal } = options;
    const connection = await this.#link.connection({ deadline, method: 'Target.attachToTarget' });
    let session: CdpSession;
    try {
      session = await connection.attachToTarget(targetId, { deadline, signal });
    } catch (error) {
      throw targetNotFound(error, targetId);
    }
    try {
      return await session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, {
        deadline,
        signal,
        timeoutMs: options.timeoutMs ?? evaluationTimeout(deadline, this.#defaultTimeoutMs),
      });
    } finally {
      if (!connection.closed) await session.detach().catch(ignore);
    }
  }

  /**
   * Resolves with the next event `method` on `sessionId` (strict match: no session means
   * browser-level only) that passes `predicate`, or `null` on timeout. Only events that arrive
   * after arming count; the ring is not replayed. Rejects when the connection closes, the
   * predicate throws, `signal` aborts, or connecting fails. Arming opens the connection.
   */
  waitForEvent<E extends string>(method: E, options: WaitForEventOptions<CdpEventParams<E>> = {}): Promise<CdpEvent<CdpEventParams<E>> | null> {
    const site = captureCallSite(this.waitForEvent);
    if (this.closed) return Promise.reject(errorAtCallSite(site, 'REPL_ERR_CLOSED', 'The CDP client is closed'));
    const { signal, deadline } = options;
    if (signal?.aborted === true) {
      return Promise.reject(errorAtCallSite(site, 'REPL_ERR_ABORTED', `waitForEvent(${method}) was aborted`, { cause: signal.reason }));
    }
    let timeoutMs = options.timeoutMs ?? this.#defaultTimeoutMs;
    if (!(timeoutMs >= 0)) timeoutMs = this.#defaultTimeoutMs; // NaN and negatives must not wait forever.
    if (deadline !== undefined) timeoutMs = Math.min(timeoutMs, deadline.remaining());
    if (timeoutMs <= 0) return Promise.resolve(null);
    const waiter = this.#waiters.arm({
      method,
      sessionId: options.sessionId ?? undefined,
      predicate: options.predicate as ((event: CdpEvent) => boolean) | undefined,
      timeoutMs,
      signal,
      site,
    });
    this.#link.connection({ deadline, method: 'Target.getTargets' }).catch((error: unknown) => {
      // Running out of time while connecting is the waiter's own timeout: it resolves null.
      if (errorCode(error) !== 'REPL_ERR_CDP_DEADLINE_REACHED') waiter.fail(error as Error);
    });
    return waiter.promise as Promise<CdpEvent<CdpEventParams<E>> | null>;
  }

  /** Returns every buffered event (oldest first, at most 500) and empties the ring. */
  drainEvents(): CdpEvent[] {
    return this.#ring.drain();
  }

  /**
   * Closes the connection. Pending commands and waiters reject with `CDP connection closed`
   * (`REPL_ERR_CDP_DISCONNECTED`); later calls reject with `REPL_ERR_CLOSED`. Idempotent. Never
   * touches the browser itself.
   */
  async close(): Promise<void> {
    await this.#link.close();
    this.#waiters.rejectAll();
  }

  /** Same as {@link CdpClient.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #assertOpen(method: string): void {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', `CDP ${method} could not run: the CDP client is closed`);
  }

  #handleEvent(event: CdpEvent): void {
    // The page state was updated by the session's own listeners already, so a waiter that wakes
    // up sees the current dialog/network state.
    this.#ring.push(event);
    this.#waiters.dispatch(event);
  }
}

/** A page evaluation with a deadline waits until it (the connection's default without one). */
function evaluationTimeout(deadline: Deadline | undefined, defaultTimeoutMs: number): number {
  return deadline === undefined ? defaultTimeoutMs : Number.POSITIVE_INFINITY;
}

function toSummary(info: Protocol.Target.TargetInfo): TargetSummary {
  return { targetId: info.targetId, type: info.type, title: info.title ?? '', url: info.url ?? '', attached: info.attached };
}

function ignore(): void {}
