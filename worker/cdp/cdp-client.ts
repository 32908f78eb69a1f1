/**
 * The REPL's CDP client. It lives in the worker, so its state dies with the REPL. It keeps one
 * browser-level connection (opened lazily, reopened after the browser restarts) and at most one
 * attached page session. It also keeps the event ring, the one-shot event waiters, and the dialog
 * and network state that helpers read.
 *
 * Exactly-once rule: after the connection drops, only the methods in `SAFE_RETRY_METHODS` are
 * sent again. Evaluation, navigation and input report an unknown outcome instead of running twice
 * (browser-helpers.md §2.2).
 */

import { debuglog } from 'node:util';

import { ReplError } from '../../common/errors.js';
import { CdpConnection, COMMAND_DEADLINE_MARGIN_MS, DEFAULT_COMMAND_TIMEOUT_MS } from '../../common/cdp/cdp-connection.js';
import {
  CONNECTION_CLOSED_MESSAGE,
  RENDERER_HINT,
  captureCallSite,
  deadlineReachedMessage,
  errorAtCallSite,
  errorCode,
  isClosedBeforeResponse,
  outcomeUnknownError,
  wasNotSent,
} from '../../common/cdp/cdp-errors.js';
import { resolveWebSocketUrl } from '../../common/cdp/endpoint-discovery.js';
import { EVENT_RING_CAPACITY, EventRing } from './event-ring.js';
import { EventWaiters } from './event-waiters.js';
import { isInternalUrl } from '../../common/cdp/internal-url.js';
import { MainFrameLoading } from './main-frame-loading.js';
import { isSafeRetryMethod } from '../../common/cdp/safe-retry-methods.js';
import { CONNECT_TIMEOUT_MS, WebSocketTransport } from '../../common/cdp/transport.js';

import type { Protocol } from 'devtools-protocol';
import type { CdpEvent, CdpEventParams, CdpMethod, CdpParams, CdpResult } from '../../common/cdp/cdp-connection.js';
import type { Transport } from '../../common/cdp/transport.js';

const debug = debuglog('browser-repl:cdp-client');

/** Domains enabled on every attach; their events feed dialogs, network tracking and waiters. */
const ATTACH_DOMAINS = ['Page.enable', 'DOM.enable', 'Runtime.enable', 'Network.enable'] as const;
/** Per-enable timeout on attach (repl-contract §3). */
export const ENABLE_TIMEOUT_MS = 5_000;
/** Time allowed to dismiss a dialog left open before attach. */
export const STALE_DIALOG_TIMEOUT_MS = 5_000;
/** Pause before a browser-level safe command is retried on a fresh connection. */
export const RECONNECT_RETRY_DELAY_MS = 150;
/** Pauses between connect attempts; the endpoint provider is asked again before each one. */
const CONNECT_RETRY_DELAYS_MS = [0, 150, 500] as const;
const NO_TARGET_PATTERN = /No target with given id/i;

/** What the client tells its endpoint provider. */
export interface EndpointRequest {
  /**
   * The endpoint whose connection just closed or could not be opened; the provider may use it
   * to relaunch a dead browser rather than return the same endpoint again.
   */
  previous?: string | undefined;
}

/** Opens a transport to a DevTools endpoint (as returned by the endpoint provider). */
export type ConnectTransport = (endpoint: string, options: { timeoutMs: number }) => Promise<Transport>;

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
}

/** Per-command options. */
export interface CdpCommandOptions {
  /** Own timeout; default 30 s. Always clamped to 500 ms before `executionDeadlineMs`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Options of {@link CdpClient.send}. */
export interface CdpRawSendOptions extends CdpCommandOptions {
  /** Session to send on; omitted means browser-level. An explicit session is never retried. */
  sessionId?: string | undefined;
}

/** Options of {@link CdpClient.waitForEvent}. */
export interface WaitForEventOptions<P> {
  /** Session whose event to wait for; `undefined`/`null` match browser-level events only. */
  sessionId?: string | null | undefined;
  /** Default 30 000 ms; clamped to the execution deadline. On timeout the waiter resolves `null`. */
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

/** The JavaScript dialog open on the attached page. */
export interface PendingDialog {
  type: Protocol.Page.DialogType;
  message: string;
  /** Unix ms when the dialog was reported. */
  since: number;
}

/** The CDP client of one REPL. */
export class CdpClient {
  /**
   * Absolute deadline (Unix ms) of the running cell, set by the runtime per cell and `undefined`
   * between cells. Every command and wait ends 500 ms before it.
   */
  executionDeadlineMs: number | undefined;
  /** Receives notes for the cell's stderr. */
  onNote: ((message: string) => void) | undefined;

  readonly #endpointProvider: (request: EndpointRequest) => Promise<string>;
  readonly #connect: ConnectTransport;
  readonly #defaultTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #ring: EventRing;
  readonly #waiters = new EventWaiters();
  readonly #inFlight = new Set<string>();
  /** Loader (document) of each in-flight request, to forget requests of a replaced document. */
  readonly #requestLoaders = new Map<string, string>();
  readonly #mainFrame = new MainFrameLoading();

  #connection: CdpConnection | undefined;
  #connecting: Promise<CdpConnection> | undefined;
  /** Endpoint of the last connection that closed or failed, reported to the provider. */
  #deadEndpoint: string | undefined;
  #sessionId: string | undefined;
  #targetId: string | undefined;
  /** Survives a reconnect: after a dropped socket (not a restart) the same tab is reattached. */
  #previousTargetId: string | undefined;
  #autoAttaching: Promise<string> | undefined;
  #attachQueue: Promise<unknown> = Promise.resolve();
  #reenabling: Promise<void> | undefined;
  #rendererResponsive = true;
  #pendingDialog: PendingDialog | null = null;
  #lastNetworkActivity = Date.now();
  #closed = false;
  #connections = 0;

  constructor(options: CdpClientOptions) {
    this.#endpointProvider = options.endpointProvider;
    this.#connect = options.connect ?? connectWebSocket;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#ring = new EventRing(options.eventCapacity ?? EVENT_RING_CAPACITY);
    this.onNote = options.onNote;
  }

  /** True while a connection is open. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** Number of connections opened so far (diagnostics and tests). */
  get connectionCount(): number {
    return this.#connections;
  }

  /** True after `close()`. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Session of the attached target, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The attached target, if any. */
  get targetId(): string | undefined {
    return this.#targetId;
  }

  /** False after the attached page did not answer its domain enables in time. */
  get rendererResponsive(): boolean {
    return this.#rendererResponsive;
  }

  /** The dialog open on the attached page (from `Page.javascriptDialogOpening/Closed`), or null. */
  get pendingDialog(): PendingDialog | null {
    return this.#pendingDialog;
  }

  /**
   * True while the attached page's main frame is loading a new document, whoever started the
   * navigation (see main-frame-loading.ts).
   */
  get mainFrameLoading(): boolean {
    return this.#mainFrame.loading;
  }

  /** Request ids of the attached page that have started and not finished or failed (live view). */
  get inFlightRequests(): ReadonlySet<string> {
    return this.#inFlight;
  }

  /** Loader (document) that an in-flight request of the attached page belongs to, when Chromium named one. */
  requestLoader(requestId: string): string | undefined {
    return this.#requestLoaders.get(requestId);
  }

  /** Unix ms of the last `Network.*` event of the attached page (or of the last attach). */
  get lastNetworkActivity(): number {
    return this.#lastNetworkActivity;
  }

  /** Events dropped from the full ring since the last `drainEvents()`. */
  get droppedEvents(): number {
    return this.#ring.dropped;
  }

  /** Opens the connection if needed. */
  async ensureConnected(): Promise<void> {
    await this.#ensureConnection('Target.getTargets');
  }

  /** Browser-level command: `send` without a session (safe methods retried once after a drop). */
  browserCommand<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpCommandOptions = {}): Promise<CdpResult<M>> {
    return this.#browserLevel(method, params, options);
  }

  /**
   * Command on the attached target: attaches first when needed (`ensureAttached`), re-runs the
   * domain enables if the renderer was frozen, and after a dropped connection either re-runs a
   * safe method once (reconnecting and reattaching) or rejects with `REPL_ERR_CDP_OUTCOME_UNKNOWN`.
   */
  async sessionCommand<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpCommandOptions = {}): Promise<CdpResult<M>> {
    this.#assertOpen(method);
    let retried = false;
    for (;;) {
      let connection: CdpConnection;
      let sessionId: string;
      try {
        connection = await this.#ensureConnection(method);
        sessionId = await this.#ensureAttachedOn(connection);
      } catch (error) {
        // The command itself was not sent yet, so one more try is safe for any method.
        if (!retried && errorCode(error) === 'REPL_ERR_CDP_DISCONNECTED' && !this.#closed) {
          retried = true;
          continue;
        }
        throw error;
      }
      if (!this.#rendererResponsive) this.#reenableInBackground(connection, sessionId);
      try {
        return await connection.send(method, params, {
          sessionId,
          timeoutMs: options.timeoutMs,
          signal: options.signal,
          deadlineMs: this.executionDeadlineMs,
          timeoutHint: () => this.#rendererHint(sessionId),
        });
      } catch (error) {
        if (!isClosedBeforeResponse(error) || this.#closed) throw error;
        if (!retried && (wasNotSent(error) || isSafeRetryMethod(method))) {
          retried = true;
          continue;
        }
        if (wasNotSent(error) || isSafeRetryMethod(method)) throw error;
        throw outcomeUnknownError(method, error);
      }
    }
  }

  /**
   * Raw send. With a `sessionId` the command goes to that session as is and is never retried
   * (`evaluate` relies on this for exactly-once). Without one it is a browser-level command.
   */
  send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: CdpRawSendOptions = {}): Promise<CdpResult<M>> {
    const { sessionId } = options;
    if (sessionId === undefined) return this.#browserLevel(method, params, options);
    const sendOptions = {
      sessionId,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      deadlineMs: this.executionDeadlineMs,
      timeoutHint: () => this.#rendererHint(sessionId),
    };
    // Hot path of js(): an open connection takes the command synchronously, without a hop.
    // A closed client takes the slow path, which rejects with REPL_ERR_CLOSED.
    const current = this.#connection;
    if (!this.#closed && current !== undefined && !current.closed) return current.send(method, params, sendOptions);
    return this.#ensureConnection(method).then((connection) => connection.send(method, params, sendOptions));
  }

  /**
   * Makes sure a target is attached and returns its session. Picks the previous target if it
   * still exists, else the first page with a non-internal URL, else any page, else a new
   * `about:blank` tab. A target that vanished between listing and attaching is retried once.
   */
  async ensureAttached(): Promise<string> {
    this.#assertOpen('Target.attachToTarget');
    for (let attempt = 0; ; attempt++) {
      const connection = await this.#ensureConnection('Target.attachToTarget');
      try {
        return await this.#ensureAttachedOn(connection);
      } catch (error) {
        if (attempt === 0 && errorCode(error) === 'REPL_ERR_CDP_DISCONNECTED' && !this.#closed) continue;
        throw error;
      }
    }
  }

  /**
   * Attaches `targetId` (flattened session), brings it to the foreground, enables
   * Page/DOM/Runtime/Network (5 s each; a timeout marks the renderer unresponsive), dismisses a
   * dialog left open before attach, and detaches the previous session. Attaching the target that
   * is already attached returns its session without re-attaching.
   */
  async attach(targetId: string): Promise<string> {
    this.#assertOpen('Target.attachToTarget');
    const connection = await this.#ensureConnection('Target.attachToTarget');
    try {
      return await this.#exclusive(() => this.#attachOn(connection, targetId));
    } catch (error) {
      throw targetNotFound(error, targetId);
    }
  }

  /** Lists targets (`Target.getTargets`). */
  async listTargets(options: CdpCommandOptions = {}): Promise<TargetSummary[]> {
    const { targetInfos } = await this.#browserLevel('Target.getTargets', undefined, options);
    return targetInfos.map(toSummary);
  }

  /**
   * `Runtime.evaluate {expression, awaitPromise, returnByValue}` on `sessionId`, exactly once
   * (never retried). Returns the raw result; decoding belongs to the caller. While a cell runs,
   * the default timeout is the cell's remaining time rather than 30 s, so a long page promise is
   * bounded by the cell's own timeout_sec.
   */
  evaluate(sessionId: string, expression: string, options: CdpCommandOptions = {}): Promise<Protocol.Runtime.EvaluateResponse> {
    return this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, {
      sessionId,
      timeoutMs: options.timeoutMs ?? this.#evaluationTimeout(),
      signal: options.signal,
    });
  }

  /**
   * Evaluates on `targetId` through a transient flattened session (no domains enabled), detached
   * afterwards. Nothing is retried. Useful for cross-origin iframes.
   */
  async evaluateOnTarget(targetId: string, expression: string, options: CdpCommandOptions = {}): Promise<Protocol.Runtime.EvaluateResponse> {
    this.#assertOpen('Target.attachToTarget');
    const connection = await this.#ensureConnection('Target.attachToTarget');
    const common = { deadlineMs: this.executionDeadlineMs, signal: options.signal };
    let sessionId: string;
    try {
      ({ sessionId } = await connection.send('Target.attachToTarget', { targetId, flatten: true }, common));
    } catch (error) {
      throw targetNotFound(error, targetId);
    }
    try {
      return await connection.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, {
        ...common,
        sessionId,
        timeoutMs: options.timeoutMs ?? this.#evaluationTimeout(),
      });
    } finally {
      if (!connection.closed) await connection.send('Target.detachFromTarget', { sessionId }).catch(ignore);
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
    if (this.#closed) return Promise.reject(errorAtCallSite(site, 'REPL_ERR_CLOSED', 'The CDP client is closed'));
    const { signal } = options;
    if (signal?.aborted === true) {
      return Promise.reject(errorAtCallSite(site, 'REPL_ERR_ABORTED', `waitForEvent(${method}) was aborted`, { cause: signal.reason }));
    }
    let timeoutMs = options.timeoutMs ?? this.#defaultTimeoutMs;
    if (!(timeoutMs >= 0)) timeoutMs = this.#defaultTimeoutMs; // NaN and negatives must not wait forever.
    if (this.executionDeadlineMs !== undefined) {
      timeoutMs = Math.min(timeoutMs, this.executionDeadlineMs - COMMAND_DEADLINE_MARGIN_MS - Date.now());
    }
    if (timeoutMs <= 0) return Promise.resolve(null);
    const waiter = this.#waiters.arm({
      method,
      sessionId: options.sessionId ?? undefined,
      predicate: options.predicate as ((event: CdpEvent) => boolean) | undefined,
      timeoutMs,
      signal,
      site,
    });
    this.#ensureConnection('Target.getTargets').catch((error: unknown) => {
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
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#resetAttachment();
    connection?.close();
    this.#waiters.rejectAll();
    // A connect still in flight (it may be waiting for a browser launch) notices #closed and
    // closes its own transport; close() does not wait for it.
    return Promise.resolve();
  }

  /** Same as {@link CdpClient.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- connection ---------------------------------------------------------------------------

  #assertOpen(method: string): void {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', `CDP ${method} could not run: the CDP client is closed`);
  }

  #ensureConnection(method: string): Promise<CdpConnection> {
    if (this.#closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', `CDP ${method} could not run: the CDP client is closed`));
    const current = this.#connection;
    if (current !== undefined && !current.closed) return Promise.resolve(current);
    if (this.#connecting === undefined) {
      const connecting = this.#openConnection().finally(() => {
        if (this.#connecting === connecting) this.#connecting = undefined;
      });
      // Callers may stop waiting (deadline); a later failure must not become an unhandled rejection.
      connecting.catch(ignore);
      this.#connecting = connecting;
    }
    const deadline = this.executionDeadlineMs;
    if (deadline === undefined) return this.#connecting;
    return raceDeadline(this.#connecting, deadline - COMMAND_DEADLINE_MARGIN_MS - Date.now(), method);
  }

  async #openConnection(): Promise<CdpConnection> {
    const started = Date.now();
    let lastError: unknown;
    for (const delay of CONNECT_RETRY_DELAYS_MS) {
      if (delay > 0) {
        // A browser that just died may still be reported by the provider; give it a moment.
        const remaining = this.#connectTimeoutMs - (Date.now() - started);
        if (remaining <= delay) break;
        await sleep(delay);
      }
      if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'The CDP client is closed');
      const endpoint = await this.#endpointProvider(this.#deadEndpoint === undefined ? {} : { previous: this.#deadEndpoint });
      let transport: Transport;
      try {
        transport = await this.#connect(endpoint, { timeoutMs: Math.max(1, this.#connectTimeoutMs - (Date.now() - started)) });
      } catch (error) {
        lastError = error;
        this.#deadEndpoint = endpoint;
        debug('connect to %s failed: %s', endpoint, (error as Error).message);
        if (errorCode(error) !== 'REPL_ERR_CDP_CONNECT_FAILED') throw error;
        continue;
      }
      if (this.#closed) {
        transport.close();
        throw new ReplError('REPL_ERR_CLOSED', 'The CDP client is closed');
      }
      this.#deadEndpoint = undefined;
      const connection: CdpConnection = new CdpConnection(transport, {
        defaultTimeoutMs: this.#defaultTimeoutMs,
        onEvent: (event) => this.#handleEvent(event),
        onClose: () => {
          if (this.#connection === connection) this.#deadEndpoint = endpoint;
          this.#handleConnectionClose(connection);
        },
      });
      this.#connection = connection;
      this.#connections++;
      debug('connected to %s', endpoint);
      return connection;
    }
    if (lastError instanceof ReplError) throw lastError;
    throw new ReplError('REPL_ERR_CDP_CONNECT_FAILED', `Could not connect to the browser: ${String(lastError)}`, { cause: lastError });
  }

  #handleConnectionClose(connection: CdpConnection): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    this.#resetAttachment();
    this.#waiters.rejectAll();
  }

  /** What a dropped connection invalidates: the session and everything observed through it. */
  #resetAttachment(): void {
    if (this.#targetId !== undefined) this.#previousTargetId = this.#targetId;
    this.#sessionId = undefined;
    this.#targetId = undefined;
    this.#pendingDialog = null;
    this.#inFlight.clear();
    this.#requestLoaders.clear();
    this.#mainFrame.reset(undefined);
    this.#rendererResponsive = true;
  }

  async #browserLevel<M extends CdpMethod>(method: M, params: CdpParams<M> | undefined, options: CdpCommandOptions): Promise<CdpResult<M>> {
    this.#assertOpen(method);
    let retried = false;
    for (;;) {
      const connection = await this.#ensureConnection(method);
      try {
        return await connection.send(method, params, {
          timeoutMs: options.timeoutMs,
          signal: options.signal,
          deadlineMs: this.executionDeadlineMs,
        });
      } catch (error) {
        if (!isClosedBeforeResponse(error) || this.#closed) throw error;
        if (!retried && (wasNotSent(error) || isSafeRetryMethod(method))) {
          retried = true;
          await sleep(RECONNECT_RETRY_DELAY_MS);
          continue;
        }
        if (wasNotSent(error) || isSafeRetryMethod(method)) throw error;
        throw outcomeUnknownError(method, error);
      }
    }
  }

  // --- attach -------------------------------------------------------------------------------

  /** Runs attach operations one at a time: they all rewrite the attached session. */
  #exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#attachQueue.then(operation);
    this.#attachQueue = result.catch(ignore);
    return result;
  }

  #ensureAttachedOn(connection: CdpConnection): Promise<string> {
    if (this.#sessionId !== undefined && this.#connection === connection) return Promise.resolve(this.#sessionId);
    if (this.#autoAttaching === undefined) {
      const attaching = this.#exclusive(() =>
        this.#sessionId !== undefined && this.#connection === connection ? Promise.resolve(this.#sessionId) : this.#autoAttach(connection),
      ).finally(() => {
        if (this.#autoAttaching === attaching) this.#autoAttaching = undefined;
      });
      this.#autoAttaching = attaching;
    }
    return this.#autoAttaching;
  }

  async #autoAttach(connection: CdpConnection): Promise<string> {
    const deadlineMs = this.executionDeadlineMs;
    for (let attempt = 0; ; attempt++) {
      const { targetInfos } = await connection.send('Target.getTargets', undefined, { deadlineMs });
      const pages = targetInfos.filter((target) => target.type === 'page');
      // The previous target may be any type: the user may have switched to an iframe target.
      const chosen =
        targetInfos.find((target) => target.targetId === this.#previousTargetId) ??
        pages.find((page) => !isInternalUrl(page.url)) ??
        pages[0];
      const targetId = chosen?.targetId ?? (await connection.send('Target.createTarget', { url: 'about:blank' }, { deadlineMs })).targetId;
      try {
        return await this.#attachOn(connection, targetId);
      } catch (error) {
        // The target closed between listing and attaching (typical right after a restart).
        if (attempt === 0 && errorCode(error) === 'REPL_ERR_CDP_COMMAND_FAILED' && NO_TARGET_PATTERN.test((error as Error).message)) continue;
        throw error;
      }
    }
  }

  async #attachOn(connection: CdpConnection, targetId: string): Promise<string> {
    if (this.#connection === connection && this.#targetId === targetId && this.#sessionId !== undefined) return this.#sessionId;
    const deadlineMs = this.executionDeadlineMs;
    const { sessionId } = await connection.send('Target.attachToTarget', { targetId, flatten: true }, { deadlineMs });
    if (this.#connection !== connection) throw connectionLost('Target.attachToTarget');
    const previous = this.#sessionId;
    this.#sessionId = sessionId;
    this.#targetId = targetId;
    this.#previousTargetId = targetId;
    this.#pendingDialog = null;
    this.#inFlight.clear();
    this.#requestLoaders.clear();
    this.#mainFrame.reset(targetId);
    this.#lastNetworkActivity = Date.now();
    this.#rendererResponsive = true;
    // Headless Chromium cancels dialogs of background tabs at once; the foreground keeps them open.
    await connection.send('Target.activateTarget', { targetId }, { deadlineMs }).catch(ignore);
    await this.#enableDomains(connection, sessionId);
    if (!this.#rendererResponsive || this.#pendingDialog !== null) await this.#dismissStaleDialog(connection, sessionId);
    if (previous !== undefined && previous !== sessionId) {
      await connection.send('Target.detachFromTarget', { sessionId: previous }, { deadlineMs }).catch(ignore);
    }
    return sessionId;
  }

  /**
   * Enables the attach domains. They are pipelined, so the 10 s total budget of the contract is
   * never the binding limit; each has 5 s. A timeout means the renderer is frozen (typically a
   * modal dialog); any other error means the domain does not exist on this target type.
   */
  async #enableDomains(connection: CdpConnection, sessionId: string): Promise<void> {
    const deadlineMs = this.executionDeadlineMs;
    const results = await Promise.allSettled(
      ATTACH_DOMAINS.map((method) => connection.send(method, {}, { sessionId, timeoutMs: ENABLE_TIMEOUT_MS, deadlineMs })),
    );
    let timedOut = false;
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      const code = errorCode(result.reason);
      if (code === 'REPL_ERR_CDP_DISCONNECTED' || code === 'REPL_ERR_CDP_DEADLINE_REACHED') throw result.reason;
      if (code === 'REPL_ERR_CDP_TIMEOUT') timedOut = true;
    }
    if (this.#sessionId === sessionId) this.#rendererResponsive = !timedOut;
  }

  /**
   * Re-runs the enables after a frozen attach without delaying the caller's command: both queue
   * on the same session, so Chromium still handles the enables first, while recovery commands
   * (`Page.handleJavaScriptDialog`, answered by the browser) are not held up.
   */
  #reenableInBackground(connection: CdpConnection, sessionId: string): void {
    if (this.#reenabling !== undefined) return;
    this.#reenabling = this.#enableDomains(connection, sessionId)
      .catch(ignore)
      .finally(() => {
        this.#reenabling = undefined;
      });
  }

  async #dismissStaleDialog(connection: CdpConnection, sessionId: string): Promise<void> {
    try {
      await connection.send('Page.handleJavaScriptDialog', { accept: true }, {
        sessionId,
        timeoutMs: STALE_DIALOG_TIMEOUT_MS,
        deadlineMs: this.executionDeadlineMs,
      });
    } catch {
      return; // No dialog after all, or the browser would not close it: leave the state as it is.
    }
    const dialog = this.#pendingDialog;
    if (this.#sessionId === sessionId) this.#pendingDialog = null;
    this.onNote?.(
      `browser-repl: dismissed a pre-existing JavaScript dialog (type: ${dialog?.type ?? 'unknown'}, message: ${JSON.stringify(dialog?.message ?? '')}) left open before attach`,
    );
    await this.#enableDomains(connection, sessionId);
  }

  #rendererHint(sessionId: string | undefined): string | undefined {
    if (sessionId === undefined || sessionId !== this.#sessionId) return undefined;
    return !this.#rendererResponsive || this.#pendingDialog !== null ? RENDERER_HINT : undefined;
  }

  #evaluationTimeout(): number {
    return this.executionDeadlineMs === undefined ? this.#defaultTimeoutMs : Number.POSITIVE_INFINITY;
  }

  // --- events -------------------------------------------------------------------------------

  #handleEvent(event: CdpEvent): void {
    this.#ring.push(event);
    // Side effects first, so a waiter that wakes up already sees the updated dialog/network state.
    this.#applySideEffects(event);
    this.#waiters.dispatch(event);
  }

  #applySideEffects(event: CdpEvent): void {
    const { method } = event;
    if (method === 'Target.detachedFromTarget') {
      const params = event.params as Protocol.Target.DetachedFromTargetEvent;
      if (params.sessionId === this.#sessionId && this.#sessionId !== undefined) {
        // The tab closed or crashed: the next session command attaches afresh.
        this.#previousTargetId = this.#targetId;
        this.#sessionId = undefined;
        this.#targetId = undefined;
        this.#pendingDialog = null;
        this.#mainFrame.reset(undefined);
      }
      return;
    }
    if (event.sessionId === undefined || event.sessionId !== this.#sessionId) return;
    this.#mainFrame.observe(event);
    if (method === 'Page.javascriptDialogOpening') {
      const params = event.params as Partial<Protocol.Page.JavascriptDialogOpeningEvent>;
      this.#pendingDialog = { type: params.type ?? 'alert', message: params.message ?? '', since: event.time };
    } else if (method === 'Page.javascriptDialogClosed') {
      this.#pendingDialog = null;
    } else if (method === 'Page.frameNavigated') {
      // Chromium sends no loadingFailed for requests of a document that was navigated away, so
      // requests of other loaders are dropped when the main frame commits a new document.
      const { frame } = event.params as Protocol.Page.FrameNavigatedEvent;
      if (frame.parentId !== undefined) return;
      for (const [requestId, loaderId] of this.#requestLoaders) {
        if (loaderId !== frame.loaderId) {
          this.#inFlight.delete(requestId);
          this.#requestLoaders.delete(requestId);
        }
      }
    } else if (method.startsWith('Network.')) {
      this.#lastNetworkActivity = event.time;
      const { requestId, loaderId } = event.params as { requestId?: unknown; loaderId?: unknown };
      if (typeof requestId !== 'string') return;
      if (method === 'Network.requestWillBeSent') {
        this.#inFlight.add(requestId);
        if (typeof loaderId === 'string') this.#requestLoaders.set(requestId, loaderId);
      } else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed') {
        this.#inFlight.delete(requestId);
        this.#requestLoaders.delete(requestId);
      }
    }
  }
}

/** Default {@link ConnectTransport}: `/json/version` discovery, then a `ws` WebSocket. */
export async function connectWebSocket(endpoint: string, options: { timeoutMs: number }): Promise<Transport> {
  const started = Date.now();
  const url = await resolveWebSocketUrl(endpoint, { timeoutMs: options.timeoutMs });
  return WebSocketTransport.connect(url, { timeoutMs: Math.max(1, options.timeoutMs - (Date.now() - started)) });
}

function toSummary(info: Protocol.Target.TargetInfo): TargetSummary {
  return { targetId: info.targetId, type: info.type, title: info.title ?? '', url: info.url ?? '', attached: info.attached };
}

/** Rewrites Chromium's "No target with given id found" into REPL_ERR_TARGET_NOT_FOUND. */
function targetNotFound(error: unknown, targetId: string): unknown {
  if (errorCode(error) !== 'REPL_ERR_CDP_COMMAND_FAILED' || !NO_TARGET_PATTERN.test((error as Error).message)) return error;
  return new ReplError('REPL_ERR_TARGET_NOT_FOUND', `No target with id ${targetId} (it was closed, or the browser restarted); list the targets again`, {
    cause: error,
    data: { targetId },
  });
}

function connectionLost(method: string): ReplError {
  return new ReplError('REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, { data: { method, connectionClosedBeforeResponse: true } });
}

function raceDeadline<T>(promise: Promise<T>, remainingMs: number, method: string): Promise<T> {
  if (remainingMs <= 0) return Promise.reject(new ReplError('REPL_ERR_CDP_DEADLINE_REACHED', deadlineReachedMessage(method), { data: { method } }));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new ReplError('REPL_ERR_CDP_DEADLINE_REACHED', `CDP ${method} could not run: the execution deadline was reached while connecting to the browser`, {
          data: { method },
        }),
      );
    }, remainingMs);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    // Not unref'd on purpose: a caller is awaiting this, and it is always short.
    setTimeout(resolve, ms);
  });
}

function ignore(): void {}
