/**
 * The executor's one warm `connectOverCDP` connection. The engine module is imported in the
 * background at startup, but the browser is attached only on the first call: a Playwright-attached
 * page without a `dialog` listener auto-dismisses JavaScript dialogs, so attaching before anyone
 * asked for Playwright would change the browser for its other users.
 *
 * The connection is forgotten on `disconnected` (for example after a Chromium restart) and
 * reopened on the next call. `drop()` closes it on purpose (after a timeout), so code abandoned by
 * that call can no longer drive the browser: its pending Playwright calls reject.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import type { Browser, BrowserType } from 'playwright-core';
import type { PlaywrightEngine } from '../../common/protocol/executor-messages.js';
import { TargetIdCache } from './target-id-cache.js';

const debug = debuglog('browser-repl:executor');

/** Upper bound of one connect attempt; the call's own deadline usually ends it sooner. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Pause before the single retry (the host may be relaunching a crashed browser meanwhile). */
const RETRY_DELAY_MS = 250;

export interface BrowserConnectionOptions {
  engine: PlaywrightEngine;
  /** Asks the host for the browser's current DevTools endpoint (launching it if needed). */
  endpoint: () => Promise<string>;
}

export class BrowserConnection {
  readonly #engineName: PlaywrightEngine;
  readonly #endpoint: () => Promise<string>;
  readonly targetIds = new TargetIdCache();
  #engine: Promise<BrowserType> | undefined;
  #browser: Browser | null = null;
  #connecting: Promise<Browser> | null = null;
  /** Bumped by drop(): a connect that finishes after it belongs to nobody and is closed. */
  #generation = 0;

  constructor(options: BrowserConnectionOptions) {
    this.#engineName = options.engine;
    this.#endpoint = options.endpoint;
  }

  /** Starts importing the engine without attaching to the browser. */
  preload(): void {
    this.#loadEngine().catch(() => {});
  }

  /** The connected browser, connecting first when there is none. */
  async get(signal: AbortSignal): Promise<Browser> {
    if (this.#browser?.isConnected() === true) return this.#browser;
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return abortable(this.#connecting, signal);
  }

  /** Closes the connection (never the browser) and forgets every page → target mapping. */
  drop(): void {
    this.#generation++;
    const browser = this.#browser;
    this.#browser = null;
    this.targetIds.reset();
    // For a connectOverCDP browser, close() only disconnects (and closes contexts it created).
    if (browser !== null) browser.close().catch((error: unknown) => debug('closing the connection failed: %o', error));
  }

  #loadEngine(): Promise<BrowserType> {
    // Literal specifiers, so only the chosen engine is ever loaded and dependency checks see both.
    this.#engine ??= (this.#engineName === 'patchright'
      ? import('patchright').then((module) => module.chromium as unknown as BrowserType)
      : import('playwright-core').then((module) => module.chromium));
    return this.#engine;
  }

  async #connect(): Promise<Browser> {
    const chromium = await this.#loadEngine();
    const generation = this.#generation;
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) await sleep(RETRY_DELAY_MS);
      try {
        const browser = await chromium.connectOverCDP(await this.#endpoint(), { timeout: CONNECT_TIMEOUT_MS });
        if (generation !== this.#generation) {
          browser.close().catch(() => {});
          throw new Error('the connection was dropped while it was being opened');
        }
        browser.on('disconnected', () => {
          if (this.#browser !== browser) return;
          debug('browser connection lost');
          this.#browser = null;
          this.targetIds.reset();
        });
        this.#browser = browser;
        this.targetIds.reset();
        debug('CDP connection established (%s)', this.#engineName);
        return browser;
      } catch (error) {
        lastError = error;
        debug('connect attempt %d failed: %o', attempt + 1, error);
      }
    }
    const message = lastError instanceof Error ? lastError.message : String(lastError);
    throw new Error(`Failed to connect to browser: ${message}`, { cause: lastError });
  }
}

/** Resolves or rejects with `promise`, or rejects with the signal's reason once it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error as Error); });
  });
}
