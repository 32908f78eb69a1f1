/**
 * The browser-level link: one CDP connection to "the browser", opened on first use and opened
 * again after it closed (the browser restarted, the socket dropped), asking the endpoint provider
 * before every attempt. Both threads use it: the REPL worker's `CdpClient` under its page
 * attachment, and the main thread for browser-level work such as opening and closing tabs.
 *
 * The exactly-once rule lives here, in {@link retryAfterDrop}: after the connection dropped, only
 * a command that was never written or a method in `SAFE_RETRY_METHODS` is sent again (once);
 * anything else may have run, and rejects with `REPL_ERR_CDP_OUTCOME_UNKNOWN` instead of running
 * twice (docs/browser-helpers.md, "Exactly once" and "Browser restarts").
 */

import { debuglog } from 'node:util';

import { ReplError } from '../errors.js';
import { Resource } from '../resource.js';
import { CdpConnection, DEFAULT_COMMAND_TIMEOUT_MS } from './cdp-connection.js';
import { deadlineReachedMessage, errorCode, isClosedBeforeResponse, outcomeUnknownError, wasNotSent } from './cdp-errors.js';
import { isSafeRetryMethod } from './safe-retry-methods.js';
import { CONNECT_TIMEOUT_MS, connectWebSocket } from './transport.js';

import type { CdpEvent, CdpMethod, CdpParams, CdpResult } from './cdp-session.js';
import type { Deadline } from './deadline.js';
import type { ConnectTransport, Transport } from './transport.js';

export type { ConnectTransport } from './transport.js';

const debug = debuglog('browser-repl:cdp-client');

/** Pause before a browser-level safe command is retried on a fresh connection. */
export const RECONNECT_RETRY_DELAY_MS = 150;
/** Pauses between connect attempts; the endpoint provider is asked again before each one. */
const CONNECT_RETRY_DELAYS_MS = [0, 150, 500] as const;

/** What the link tells its endpoint provider. */
export interface EndpointRequest {
  /**
   * The endpoint whose connection just closed or could not be opened; the provider may use it
   * to relaunch a dead browser rather than return the same endpoint again.
   */
  previous?: string | undefined;
}

/** Options of {@link BrowserLink}. */
export interface BrowserLinkOptions {
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
  /** Every event of whichever connection is current, synchronously, in arrival order. */
  onEvent?: ((event: CdpEvent) => void) | undefined;
  /** Called once per connection when it closes, after its pending commands and sessions ended. */
  onConnectionClose?: ((connection: CdpConnection) => void) | undefined;
}

/** Options of {@link BrowserLink.send}. */
export interface BrowserSendOptions {
  /** Own timeout; default 30 s, never past `deadline`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  deadline?: Deadline | undefined;
}

/** Options of {@link BrowserLink.connection}. */
export interface LinkConnectionOptions {
  /** Connecting gives up at it (`REPL_ERR_CDP_DEADLINE_REACHED`, naming `method`). */
  deadline?: Deadline | undefined;
  /** The command that needs the connection, for error messages. Default `Target.getTargets`. */
  method?: string | undefined;
}

/** A reconnecting browser-level CDP link; see the module comment. */
export class BrowserLink extends Resource {
  readonly #endpointProvider: (request: EndpointRequest) => Promise<string>;
  readonly #connect: ConnectTransport;
  readonly #defaultTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #onEvent: ((event: CdpEvent) => void) | undefined;
  readonly #onConnectionClose: ((connection: CdpConnection) => void) | undefined;
  #connection: CdpConnection | undefined;
  #connecting: Promise<CdpConnection> | undefined;
  /** Endpoint of the last connection that closed or failed, reported to the provider. */
  #deadEndpoint: string | undefined;
  #connections = 0;

  constructor(options: BrowserLinkOptions) {
    super();
    this.#endpointProvider = options.endpointProvider;
    this.#connect = options.connect ?? connectWebSocket;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#onEvent = options.onEvent;
    this.#onConnectionClose = options.onConnectionClose;
  }

  /** True while a connection is open. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** Number of connections opened so far (diagnostics and tests). */
  get connectionCount(): number {
    return this.#connections;
  }

  /** The open connection, without connecting; `undefined` when there is none (or after `close()`). */
  get current(): CdpConnection | undefined {
    const connection = this.#connection;
    return !this.closed && connection !== undefined && !connection.closed ? connection : undefined;
  }

  /**
   * The open connection, opening one if needed. Concurrent callers share one connect. With a
   * `deadline`, the wait for a connect ends there (the connect itself goes on for later callers).
   * Rejects with `REPL_ERR_CLOSED` after `close()`, the provider's own error, or
   * `REPL_ERR_CDP_CONNECT_FAILED` once every attempt failed.
   */
  connection(options: LinkConnectionOptions = {}): Promise<CdpConnection> {
    const method = options.method ?? 'Target.getTargets';
    if (this.closed) return Promise.reject(closedError(method));
    const current = this.#connection;
    if (current !== undefined && !current.closed) return Promise.resolve(current);
    if (this.#connecting === undefined) {
      const connecting = this.#open().finally(() => {
        if (this.#connecting === connecting) this.#connecting = undefined;
      });
      // Callers may stop waiting (deadline); a later failure must not become an unhandled rejection.
      connecting.catch(ignore);
      this.#connecting = connecting;
    }
    const { deadline } = options;
    if (deadline === undefined) return this.#connecting;
    if (deadline.reached) return Promise.reject(new ReplError('REPL_ERR_CDP_DEADLINE_REACHED', deadlineReachedMessage(method), { data: { method } }));
    return deadline.race(
      this.#connecting,
      () =>
        new ReplError('REPL_ERR_CDP_DEADLINE_REACHED', `CDP ${method} could not run: the execution deadline was reached while connecting to the browser`, {
          data: { method },
        }),
    );
  }

  /**
   * Browser-level command. After a dropped connection a method that is safe to repeat (or that
   * was never written) is sent once more on a fresh connection; any other rejects with
   * `REPL_ERR_CDP_OUTCOME_UNKNOWN`.
   */
  async send<M extends CdpMethod>(method: M, params?: CdpParams<M>, options: BrowserSendOptions = {}): Promise<CdpResult<M>> {
    const { deadline } = options;
    return await retryAfterDrop(
      method,
      {
        prepare: () => this.connection({ deadline, method }),
        send: (connection) => connection.send(method, params, { timeoutMs: options.timeoutMs, signal: options.signal, deadline }),
      },
      { closed: () => this.closed, pauseMs: RECONNECT_RETRY_DELAY_MS },
    );
  }

  /**
   * `close()` closes the connection: pending commands reject with `CDP connection closed`; later
   * calls reject with `REPL_ERR_CLOSED` (`closed` is true from the call on). Every caller waits for
   * the same end (common/resource.ts). Never touches the browser itself; a connect still in flight
   * notices and closes its own transport.
   */
  protected async closeGracefully(): Promise<void> {
    this.#connection?.close();
  }

  async #open(): Promise<CdpConnection> {
    // The connect budget counts from the first endpoint: waiting for it (a browser being
    // launched, or restarted after a crash) is the provider's time, not the handshake's. Counted
    // from the call, a slow launch on a busy machine left the handshake a sliver of its budget
    // ("Opening handshake has timed out" in CI).
    let started: number | undefined;
    let lastError: unknown;
    for (const delay of CONNECT_RETRY_DELAYS_MS) {
      if (delay > 0) {
        // A browser that just died may still be reported by the provider; give it a moment.
        const remaining = this.#connectTimeoutMs - (Date.now() - (started ?? Date.now()));
        if (remaining <= delay) break;
        await sleep(delay);
      }
      if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'The CDP client is closed');
      const endpoint = await this.#endpointProvider(this.#deadEndpoint === undefined ? {} : { previous: this.#deadEndpoint });
      started ??= Date.now();
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
      if (this.closed) {
        transport.close();
        throw new ReplError('REPL_ERR_CLOSED', 'The CDP client is closed');
      }
      this.#deadEndpoint = undefined;
      const connection: CdpConnection = new CdpConnection(transport, {
        defaultTimeoutMs: this.#defaultTimeoutMs,
        onEvent: (event) => this.#onEvent?.(event),
        onClose: () => {
          if (this.#connection !== connection) return;
          this.#deadEndpoint = endpoint;
          this.#connection = undefined;
          this.#onConnectionClose?.(connection);
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
}

/** The two steps of a command for {@link retryAfterDrop}. */
export interface RetrySteps<C, T> {
  /** Everything before the command is written: connecting, attaching. */
  prepare: () => Promise<C>;
  /** Writes the command and waits for its answer. */
  send: (prepared: C) => Promise<T>;
}

/**
 * The retry rule of every command that may meet a dropped connection, browser-level or on the
 * attached page:
 * - `prepare` failing with `REPL_ERR_CDP_DISCONNECTED` is retried once, for any method: the
 *   command itself was not sent yet;
 * - a command that lost its answer is sent once more when it was never written or `method` is
 *   safe to repeat (after `pauseMs`), and a second loss is reported as is;
 * - any other method that lost its answer rejects with `REPL_ERR_CDP_OUTCOME_UNKNOWN`.
 * Nothing is retried once `closed()` (the owner was closed on purpose).
 */
export async function retryAfterDrop<C, T>(method: string, steps: RetrySteps<C, T>, options: { closed: () => boolean; pauseMs: number }): Promise<T> {
  let retried = false;
  for (;;) {
    let prepared: C;
    try {
      prepared = await steps.prepare();
    } catch (error) {
      if (!retried && errorCode(error) === 'REPL_ERR_CDP_DISCONNECTED' && !options.closed()) {
        retried = true;
        continue;
      }
      throw error;
    }
    try {
      return await steps.send(prepared);
    } catch (error) {
      if (!isClosedBeforeResponse(error) || options.closed()) throw error;
      if (!wasNotSent(error) && !isSafeRetryMethod(method)) throw outcomeUnknownError(method, error);
      if (retried) throw error;
      retried = true;
      if (options.pauseMs > 0) await sleep(options.pauseMs);
    }
  }
}

function closedError(method: string): ReplError {
  return new ReplError('REPL_ERR_CLOSED', `CDP ${method} could not run: the CDP client is closed`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    // Not unref'd on purpose: a caller is awaiting this, and it is always short.
    setTimeout(resolve, ms);
  });
}

function ignore(): void {}
