/**
 * The executor's one warm `connectOverCDP` connection. The engine module is imported in the
 * background at startup, but the browser is attached only on the first call: a Playwright-attached
 * page without a `dialog` listener auto-dismisses JavaScript dialogs, so attaching before anyone
 * asked for Playwright would change the browser for its other users.
 *
 * The connection is forgotten on `disconnected` (for example after a Chromium restart) and
 * reopened on the next call. Every Playwright call made from a call's code carries that call's
 * AbortSignal (`callSignal`, through the connection's send: Playwright's own `__abort__`), so a
 * stopped call's pending Playwright calls reject and later ones fail at once, while the
 * connection is kept (`cooperative`). Where the engine offers no such hook, `drop()` closes the
 * connection instead, as before issue 27.
 *
 * Dialogs: `connectOverCDP` attaches Playwright to every tab of the browser, and Playwright answers
 * every dialog nobody listens for (dismiss; accept for `beforeunload`). Left alone, an executor
 * would answer the dialogs of REPL tabs and of other executors' tabs, even between its calls. A
 * context-level listener takes that default over and applies it only where it belongs: to pages
 * this executor drives (bound to a call, or opened while one of its calls ran), while one of its
 * calls runs. Every other dialog stays pending for the owner of its tab to see and handle.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import type { Browser, BrowserContext, BrowserType, Dialog, Page } from 'playwright-core';
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
  /** Parent of Playwright's temporary folders, which the host removes (lib/executor/executor-worker.ts). */
  artifactsDir?: string | undefined;
  /** The AbortSignal of the call whose code runs now (call-interrupts.ts), given to its Playwright calls. */
  callSignal?: (() => AbortSignal | undefined) | undefined;
}

/** What the send of Playwright's client connection looks like (playwright-core and patchright 1.6x). */
type SendToServer = (object: unknown, method: string, params: unknown, options?: { signal?: AbortSignal } & Record<string, unknown>) => Promise<unknown>;

/**
 * Gives each Playwright call made in a call's code that call's signal, unless it has one of its
 * own: the client's `sendMessageToServer(object, method, params, options)` sends `__abort__` for a
 * call whose `options.signal` aborts, and refuses one whose signal already did. An internal of
 * Playwright, pinned by package.json; returns false when it is not there (the caller then drops
 * the connection on a stop). Guarded by test/browser/playwright-execute.test.mjs.
 */
function attachCallSignals(browser: Browser, callSignal: () => AbortSignal | undefined): boolean {
  const connection = (browser as unknown as { _connection?: { sendMessageToServer?: unknown } })._connection;
  const send = connection?.sendMessageToServer;
  if (connection === undefined || typeof send !== 'function') return false;
  const original = send as SendToServer;
  const wrapped: SendToServer = function (this: unknown, object, method, params, options) {
    const signal = method === '__waitInfo__' || options?.signal !== undefined ? undefined : callSignal();
    return Reflect.apply(original, this, [object, method, params, signal === undefined ? options : { ...options, signal }]) as Promise<unknown>;
  };
  connection.sendMessageToServer = wrapped;
  return true;
}

export class BrowserConnection {
  readonly #engineName: PlaywrightEngine;
  readonly #endpoint: () => Promise<string>;
  readonly #artifactsDir: string | undefined;
  readonly targetIds = new TargetIdCache();
  #engine: Promise<BrowserType> | undefined;
  #browser: Browser | null = null;
  #connecting: Promise<Browser> | null = null;
  /** Bumped by drop(): a connect that finishes after it belongs to nobody and is closed. */
  #generation = 0;
  /** Pages this executor drives: bound to one of its calls, or opened while one ran. */
  #ownPages = new WeakSet<Page>();
  #contextsWatched = new WeakSet<BrowserContext>();
  #callRunning = false;
  readonly #callSignal: (() => AbortSignal | undefined) | undefined;
  /** The connection passes each call's signal to its Playwright calls (see attachCallSignals). */
  #cooperative = false;

  constructor(options: BrowserConnectionOptions) {
    this.#engineName = options.engine;
    this.#endpoint = options.endpoint;
    this.#artifactsDir = options.artifactsDir;
    this.#callSignal = options.callSignal;
  }

  /** A stopped call's Playwright calls are aborted on this connection, so it can be kept. */
  get cooperative(): boolean {
    return this.#cooperative && this.#browser !== null;
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

  /** Marks the start and end of a call: dialogs are answered on this executor's pages only meanwhile. */
  callStarted(browser: Browser): void {
    this.#callRunning = true;
    // Contexts the previous call's code created are watched from now on.
    for (const context of browser.contexts()) this.#watch(context);
  }

  callEnded(): void {
    this.#callRunning = false;
  }

  /** Records that `page` is driven by this executor (the call's `page`). */
  adopt(page: Page): void {
    this.#ownPages.add(page);
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

  #watch(context: BrowserContext): void {
    if (this.#contextsWatched.has(context)) return;
    this.#contextsWatched.add(context);
    context.on('page', (page) => {
      if (this.#callRunning) this.#ownPages.add(page);
    });
    context.on('dialog', (dialog) => this.#onDialog(context, dialog));
  }

  #onDialog(context: BrowserContext, dialog: Dialog): void {
    const page = dialog.page();
    // Someone listens: user code on the page (emitted right after this) or on the context decides.
    if (page !== null && listenerCount(page, 'dialog') > 0) return;
    if (listenerCount(context, 'dialog') > 1) return;
    // Another owner's tab, or nobody's code is running: the dialog stays for its owner to handle.
    if (!this.#callRunning || (page !== null && !this.#ownPages.has(page))) {
      debug('left a %s dialog pending on a page this executor does not drive', dialog.type());
      return;
    }
    // Playwright's own default for a dialog nobody listens for.
    const answer = dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss();
    answer.catch(() => {});
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
        // One folder per connection inside the host's (patchright ignores the option and keeps its own).
        const artifactsDir = this.#artifactsDir === undefined ? undefined : await mkdtemp(path.join(this.#artifactsDir, 'connection-'));
        // `artifactsDir` is a connectOverCDP option of playwright-core 1.65 that its types do not list.
        const options = { timeout: CONNECT_TIMEOUT_MS, ...(artifactsDir === undefined ? {} : { artifactsDir }) };
        const browser = await chromium.connectOverCDP(await this.#endpoint(), options);
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
        this.#cooperative = this.#callSignal !== undefined && attachCallSignals(browser, this.#callSignal);
        if (!this.#cooperative) debug('this engine offers no way to abort a call\'s Playwright calls: a stopped call drops the connection');
        this.targetIds.reset();
        for (const context of browser.contexts()) this.#watch(context);
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

/** Playwright's client objects are event emitters, but its types do not say so. */
function listenerCount(emitter: Page | BrowserContext, event: string): number {
  return (emitter as unknown as { listenerCount(name: string): number }).listenerCount(event);
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
