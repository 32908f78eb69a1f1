/**
 * Owns the one browser of a REPL host on the main thread: either a Chromium it launched (lazily,
 * relaunched after it dies) or an existing browser reached through `CDP_ENDPOINT`, which it never
 * kills. Workers ask it for the current endpoint before every (re)connect.
 */

import { readFileSync } from 'node:fs';
import { debuglog } from 'node:util';

import { setTimeout as sleep } from 'node:timers/promises';
import { channels, publish } from '../../common/diagnostics.js';
import type { ChromiumExitMessage, ChromiumLaunchMessage } from '../../common/diagnostics.js';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import { findChromium } from './find-chromium.js';
import { launchChromium } from './launch-chromium.js';
import { detectContainer, detectNoSandbox, hasSmallDevShm } from './sandbox.js';
import { fitWindowToViewport, resolveViewport } from './viewport.js';

import type { ChromiumProcess, ChromiumExit } from './launch-chromium.js';
import type { ChromiumSource } from './find-chromium.js';
import type { Viewport } from './viewport.js';

const debug = debuglog('browser-repl:launch');

/** Options of {@link BrowserManager}. */
export interface BrowserManagerOptions {
  /** Browser executable (path or name on PATH); default: discovery (see `findChromium`). */
  executable?: string | undefined;
  /** Default true. `false` shows a window and needs a display. */
  headless?: boolean | undefined;
  /** `'auto'` (default): on Linux, on for root and for containers that deny user namespaces; see `detectNoSandbox`. */
  noSandbox?: boolean | 'auto' | undefined;
  /** Extra Chromium flags, appended last. */
  args?: readonly string[] | undefined;
  /**
   * Attach to this browser instead of launching one (`ws://…/devtools/browser/<id>` or
   * `http://host:port`). Default `env.CDP_ENDPOINT`; `null` forces launching even when set.
   */
  cdpEndpoint?: string | null | undefined;
  /** Environment consulted for discovery, `CDP_ENDPOINT` and sandbox detection. Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Startup timeout of each launch. Default 15 000 ms. */
  startupTimeoutMs?: number | undefined;
  /** SIGTERM → SIGKILL grace on close. Default 3 000 ms. */
  killGraceMs?: number | undefined;
  /**
   * Page area of the launched browser's first window, in CSS pixels (lib/chromium/viewport.ts).
   * Default `env.BROWSER_REPL_VIEWPORT` (`1280x720`), else 1280×720. Attach mode never resizes
   * the browser's own windows.
   */
  viewport?: Viewport | undefined;
  /**
   * A stored profile's part in each launch (docs/browsers.md#profiles): `seed` fills the fresh
   * user-data folder before Chromium starts, `save` gets it after Chromium exited and before it is
   * removed (lib/chromium/launch-chromium.ts).
   */
  userData?: { seed?: ((userDataDir: string) => Promise<void>) | undefined; save?: ((userDataDir: string) => Promise<void>) | undefined } | undefined;
}

/** Passed to {@link BrowserManager.onExit} listeners. */
export interface BrowserExitInfo extends ChromiumExit {
  /** The profile directory, already removed. */
  readonly userDataDir: string;
}

/** Options of {@link BrowserManager.endpoint}. */
export interface EndpointOptions {
  /** Stops this caller's wait; a launch shared with other callers continues. */
  signal?: AbortSignal | undefined;
  /**
   * An endpoint the caller saw stop answering. If it is the running browser's and that browser
   * is dead but its exit not yet processed, the manager waits for the exit and relaunches
   * instead of handing out the dead endpoint again. A live browser is never killed for this.
   */
  previous?: string | undefined;
}

/** Upper bound for noticing the exit of a browser that is already dead. */
const EXIT_NOTICE_LIMIT_MS = 5_000;
/** How long a fresh browser may take to list its first page, and how often it is asked. */
const FIRST_PAGE_WAIT_MS = 2_000;
const FIRST_PAGE_POLL_MS = 25;

/**
 * One browser, launched or attached. `endpoint()` is the whole interface for users of the
 * browser: it launches on first use, relaunches after a crash, and shares one launch among
 * concurrent callers.
 */
/** See {@link BrowserManager.onReady}. */
export type ReadyHook = (endpoint: string) => Promise<void>;

/** Longest a ready hook may hold up the first endpoint answer of a browser. */
export const READY_HOOK_TIMEOUT_MS = 5_000;

export class BrowserManager extends Resource {
  readonly #options: BrowserManagerOptions;
  readonly #env: NodeJS.ProcessEnv;
  readonly #attachEndpoint: string | undefined;
  readonly #viewport: Viewport;
  readonly #exitListeners = new Set<(info: BrowserExitInfo) => void>();
  readonly #readyHooks = new Set<ReadyHook>();
  /** Attach mode: the ready hooks' run for the configured endpoint (once). */
  #attachReady: Promise<void> | undefined;
  #process: ChromiumProcess | undefined;
  #launching: Promise<ChromiumProcess> | undefined;
  #lastSource: ChromiumSource | undefined;
  #launchCount = 0;

  constructor(options: BrowserManagerOptions = {}) {
    super();
    this.#options = { ...options, args: [...(options.args ?? [])] };
    this.#env = options.env ?? process.env;
    const endpoint = options.cdpEndpoint === undefined ? this.#env.CDP_ENDPOINT : options.cdpEndpoint;
    this.#attachEndpoint = endpoint === null || endpoint === undefined || endpoint.trim() === '' ? undefined : endpoint.trim();
    this.#viewport = resolveViewport(options.viewport, this.#env);
  }

  /** The options it was made with (a copy): another browser launched like this one uses them. */
  get options(): BrowserManagerOptions {
    return { ...this.#options, args: [...(this.#options.args ?? [])] };
  }

  /** The default viewport: the page area of the first window of every launch (and of the tabs a host opens). */
  get viewport(): Viewport {
    return { ...this.#viewport };
  }

  /** `'attach'` when a CDP endpoint was configured, else `'launch'`. */
  get mode(): 'attach' | 'launch' {
    return this.#attachEndpoint === undefined ? 'launch' : 'attach';
  }

  /** True while a browser launched by this manager is running. */
  get launched(): boolean {
    return this.#process?.running === true;
  }

  /** Pid of the running launched browser. */
  get pid(): number | undefined {
    return this.launched ? this.#process?.pid : undefined;
  }

  /** Profile directory of the running launched browser. */
  get userDataDir(): string | undefined {
    return this.launched ? this.#process?.userDataDir : undefined;
  }

  /** Executable of the last launch. */
  get executable(): string | undefined {
    return this.#process?.executable;
  }

  /** How the executable of the last launch was found. */
  get executableSource(): ChromiumSource | undefined {
    return this.#lastSource;
  }

  /** Number of launches so far (a relaunch after a crash counts). */
  get launchCount(): number {
    return this.#launchCount;
  }

  /**
   * The current DevTools endpoint. Attach mode: the configured endpoint, as given (the CDP
   * client resolves `http://host:port` through `/json/version`). Launch mode: the running
   * browser's `ws://` URL, launching one first if none runs (first use, or the last one died).
   *
   * @throws ReplError `REPL_ERR_BROWSER_NOT_FOUND`, `REPL_ERR_BROWSER_LAUNCH_FAILED`,
   *   `REPL_ERR_CLOSED`, `REPL_ERR_ABORTED`.
   */
  async endpoint(options: EndpointOptions = {}): Promise<string> {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'The browser manager is closed');
    if (this.#attachEndpoint !== undefined) {
      const attach = this.#attachEndpoint;
      await raceSignal(this.#attachReady ??= this.#runReadyHooks(attach), options.signal);
      return attach;
    }
    const current = this.#process;
    if (current?.running === true) {
      if (options.previous !== current.wsEndpoint || !looksDead(current.pid)) return current.wsEndpoint;
      // Killed but not yet reaped: the exit (and the profile cleanup) follow within moments.
      await raceSignal(withLimit(current.exited, EXIT_NOTICE_LIMIT_MS), options.signal);
      if (current.running) return current.wsEndpoint;
    }
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'The browser manager is closed');
    if (this.#launching === undefined) {
      const launching = this.#launch().finally(() => {
        if (this.#launching === launching) this.#launching = undefined;
      });
      // A caller that aborts stops waiting; the shared launch's failure must not go unhandled.
      launching.catch(() => {});
      this.#launching = launching;
    }
    const browser = await raceSignal(this.#launching, options.signal);
    return browser.wsEndpoint;
  }

  /**
   * Registers `hook` to run whenever a browser becomes available, before the first `endpoint()`
   * answer that names it: after each launch, and once for the endpoint of attach mode. Hooks get
   * the endpoint (they must not call `endpoint()` themselves: it waits for them); each is bounded
   * by {@link READY_HOOK_TIMEOUT_MS} and its failure only logged. Returns a disposer. The WebMCP
   * monitor uses it to be attached before any page of the browser runs a script (lib/webmcp).
   */
  onReady(hook: ReadyHook): () => void {
    this.#readyHooks.add(hook);
    return () => {
      this.#readyHooks.delete(hook);
    };
  }

  async #runReadyHooks(endpoint: string): Promise<void> {
    await Promise.all([...this.#readyHooks].map(async (hook) => {
      // A hook's failure (even a synchronous throw) is its own, and a slow hook holds the browser's
      // readiness for at most the limit.
      const running = (async () => hook(endpoint))().catch((error: unknown) => debug('ready hook failed: %s', (error as Error).stack ?? String(error)));
      await waitAtMost(running, READY_HOOK_TIMEOUT_MS);
    }));
  }

  /** Registers `listener` for every exit of a launched browser (crash or close); returns a disposer. */
  onExit(listener: (info: BrowserExitInfo) => void): () => void {
    this.#exitListeners.add(listener);
    return () => {
      this.#exitListeners.delete(listener);
    };
  }

  /**
   * `close()` closes a browser this manager launched (and waits for its profile to be removed). In
   * attach mode it only forgets the endpoint: a browser we did not start is never killed. Every
   * caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    // A launch in flight finishes first; #launch sees `closed` and closes what it started.
    await this.#launching?.catch(() => {});
    await this.#process?.close();
    this.#exitListeners.clear();
  }

  async #launch(): Promise<ChromiumProcess> {
    const found = findChromium({ executable: this.#options.executable, env: this.#env });
    const { noSandbox, reason } = this.#resolveNoSandbox();
    const args: string[] = [];
    if (process.platform === 'linux' && detectContainer({ env: this.#env }) !== undefined && hasSmallDevShm()) args.push('--disable-dev-shm-usage');
    args.push(...(this.#options.args ?? []));
    debug('launching %s (from %s)%s', found.executable, found.source, noSandbox ? `, no sandbox: ${reason}` : '');
    const browser = await launchChromium({
      executable: found.executable,
      headless: this.#options.headless ?? true,
      noSandbox,
      args,
      windowSize: this.#viewport,
      startupTimeoutMs: this.#options.startupTimeoutMs,
      killGraceMs: this.#options.killGraceMs,
      seedUserData: this.#options.userData?.seed,
      beforeRemoveUserData: this.#options.userData?.save,
    });
    await fitFirstWindow(browser.wsEndpoint, this.#viewport);
    await this.#runReadyHooks(browser.wsEndpoint);
    this.#launchCount++;
    this.#lastSource = found.source;
    if (this.closed) {
      await browser.close();
      throw new ReplError('REPL_ERR_CLOSED', 'The browser manager was closed while the browser was starting');
    }
    publish<ChromiumLaunchMessage>(channels.chromiumLaunch, { pid: browser.pid, relaunch: this.#process !== undefined });
    this.#process = browser;
    void browser.exited.then((exit) => this.#notifyExit({ ...exit, userDataDir: browser.userDataDir }));
    return browser;
  }

  #resolveNoSandbox(): { noSandbox: boolean; reason: string | undefined } {
    const configured = this.#options.noSandbox ?? 'auto';
    if (configured !== 'auto') return { noSandbox: configured, reason: configured ? 'noSandbox: true' : undefined };
    // An explicit flag in args means the caller already decided.
    if (this.#options.args?.includes('--no-sandbox') === true) return { noSandbox: false, reason: undefined };
    return detectNoSandbox({ env: this.#env });
  }

  #notifyExit(info: BrowserExitInfo): void {
    publish<ChromiumExitMessage>(channels.chromiumExit, { pid: info.pid, expected: info.expected });
    debug('browser %d exited (%s)', info.pid, info.expected ? 'closed' : `unexpectedly: code ${info.code}, signal ${info.signal}`);
    for (const listener of [...this.#exitListeners]) {
      try {
        listener(info);
      } catch (error) {
        debug('exit listener threw: %s', (error as Error).stack ?? String(error));
      }
    }
  }
}

/**
 * Gives the page area of a fresh browser's first window the default viewport. `--window-size`
 * sizes the window, and headless Chromium keeps part of it for its invisible frame, so the page
 * would be smaller (lib/chromium/viewport.ts). Best effort: a browser that cannot do it keeps its
 * window size, and the launch goes on.
 */
async function fitFirstWindow(endpoint: string, viewport: Viewport): Promise<void> {
  const link = new BrowserLink({ endpointProvider: () => Promise.resolve(endpoint) });
  try {
    // The endpoint is printed a moment before the first tab is listed.
    const until = Date.now() + FIRST_PAGE_WAIT_MS;
    for (;;) {
      const { targetInfos } = await link.send('Target.getTargets');
      const first = targetInfos.find((info) => info.type === 'page');
      if (first !== undefined) {
        await fitWindowToViewport(link, first.targetId, viewport);
        return;
      }
      if (Date.now() >= until) return;
      await sleep(FIRST_PAGE_POLL_MS);
    }
  } catch (error) {
    debug('could not fit the first window to %dx%d: %s', viewport.width, viewport.height, (error as Error).message);
  } finally {
    await link.close();
  }
}

/**
 * True when `pid` is gone or a zombie. Chromium killed by a signal stays a zombie until Node reaps
 * it, and a worker can see its socket close before the main thread has processed that.
 */
function looksDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  if (process.platform !== 'linux') return false;
  try {
    // Format: "pid (comm) state ...", where comm may itself contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

function withLimit<T>(promise: Promise<T>, limitMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), limitMs);
    timer.unref();
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new ReplError('REPL_ERR_ABORTED', 'Waiting for the browser was aborted', { cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ReplError('REPL_ERR_ABORTED', 'Waiting for the browser was aborted', { cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
