/**
 * A browser: what `/browsers/{id}` and the top-level routes drive. It owns its Chromium (a process
 * it launches, or a remote CDP endpoint it attaches to; lib/chromium), its REPLs (`default` plus
 * named REPLs, each with its own worker, bindings, tab and `repl_id`, running concurrently with
 * each other, and the private REPLs of agent-tool sessions), its Playwright executors, the
 * environment its REPLs share, the registry of which tab belongs to whom (with its download
 * folders), and its WebMCP monitor. It also carries what the browsers API says about it (name,
 * tags, `timeout_seconds`, …) and its activity clock, which the registry of browsers
 * (`Browsers`, browsers.ts) reaps it by.
 */
import { BrowserManager } from '../chromium/browser-manager.js';
import type { BrowserManagerOptions } from '../chromium/browser-manager.js';
import { TabRegistry } from '../chromium/tab-registry.js';
import { checkViewport, resolveViewport } from '../chromium/viewport.js';
import type { Viewport } from '../chromium/viewport.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { LIMITS, NAME_PATTERN } from '../../common/limits.js';
import { Repl, replWorkerSettings } from '../repl/repl.js';
import { ReplWorkerSupply } from '../repl/repl-worker-supply.js';
import type { InterruptOptions, InterruptOutcome, ReplOptions } from '../repl/repl.js';
import type { TabOwner } from '../chromium/tab-registry.js';
import { PlaywrightExecutors } from '../executor/executor-registry.js';
import type { PlaywrightExecutorsOptions } from '../executor/executor-registry.js';
import { WebMcpMonitor } from '../webmcp/webmcp-monitor.js';
import type { WebMcpTools } from '../webmcp/types.js';
import type { WebMcpCallHandler } from '../threads/browser-calls.js';
import { webMcpCallHandler } from './webmcp-calls.js';
import { HumanRequests } from './hand-over.js';
import type { HumanRequestHandler } from '../threads/browser-calls.js';
import { BrowserTelemetry } from '../telemetry/telemetry.js';

/** Named REPLs per browser by default; `default` does not count. */
export const MAX_NAMED_REPLS = 16;

export interface BrowserOptions extends Omit<ReplOptions, 'env' | 'browser' | 'name' | 'tabs' | 'webmcp' | 'human'> {
  id?: string;
  env?: Record<string, string>;
  /**
   * The browser: launch options (default: find and launch Chromium on first use, or attach to
   * `CDP_ENDPOINT`), an existing `BrowserManager` (not closed by the browser), or `false` for
   * pure-JavaScript REPLs.
   */
  browser?: BrowserManagerOptions | BrowserManager | false;
  /** Options of the Playwright executors (the Chromium is this browser's). */
  playwright?: Omit<PlaywrightExecutorsOptions, 'browser' | 'tabs'>;
  /** Most named REPLs at once (default 16); one more is refused with `REPL_ERR_CONFLICT`. */
  maxNamedRepls?: number;
  /**
   * Page area, in CSS pixels, of the tabs this browser opens: the launched browser's first
   * window, every named REPL's and executor's tab, and so the tabs and popups that join those
   * windows (lib/chromium/viewport.ts). Default: the `BrowserManager`'s, i.e.
   * `BROWSER_REPL_VIEWPORT` or 1280×720. Ignored for the first window when `browser` is an existing
   * `BrowserManager` (set it there).
   */
  viewport?: Viewport;
}

export type Tags = Record<string, string>;

/** The SDK's `Profile` of a browser that started from one, plus whether it saves back when it ends. */
export interface BrowserProfileInfo {
  id: string;
  name: string | null;
  created_at: string;
  updated_at: string;
  last_used_at?: string;
  saveChanges: boolean;
}

/** What the browsers API says about a browser, and whether and when it is reaped ({@link Browser.enlist}). */
export interface BrowserListing {
  name?: string | undefined;
  tags?: Tags | undefined;
  /** The URL its first tab was asked to open (best effort). */
  startUrl?: string | undefined;
  /** Taken from the warm pool rather than launched for its request. */
  pooled?: boolean | undefined;
  /** Inactivity, in seconds, after which `onIdle` is called; 0: never (the server's own browser). */
  timeoutSeconds: number;
  /** The stored profile it started from (docs/browsers.md#profiles), as the API shows it, and whether it saves back. */
  profile?: BrowserProfileInfo | undefined;
  /** Called once the browser has been inactive for `timeoutSeconds` (the registry reaps it). */
  onIdle?: ((browser: Browser) => void) | undefined;
}

/** A row of {@link Browser.listRepls} (HTTP: `ReplInfo`). */
export interface ReplInfo {
  name: string;
  /** Id of the live worker, or null when the next call starts one. */
  replId: string | null;
  /** A call is running or queued. */
  busy: boolean;
  createdAt: Date;
  lastUsedAt: Date;
  /** The tab a named REPL owns, once it has one. */
  targetId?: string;
  /** Its current URL, when the browser reports it. */
  url?: string;
}

interface ReplEntry {
  readonly repl: Repl;
  readonly createdAt: Date;
  lastUsedAt: Date;
}

export class Browser extends Resource {
  /** Changes only when a pool hands the browser to its next user ({@link renew}). */
  #id: string;
  /** What `PATCH /browsers/{id}` changes. */
  name: string | undefined;
  tags: Tags | undefined;
  #createdAt = new Date();
  #timeoutSeconds = 0;
  #startUrl: string | undefined;
  #pooled = false;
  #profile: BrowserProfileInfo | undefined;
  #onIdle: ((browser: Browser) => void) | undefined;
  #holds = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #lastActiveAt = Date.now();
  readonly #options: BrowserOptions;
  readonly #repls = new Map<string, ReplEntry>();
  /** REPLs that are nobody's by name (agent-tool sessions): not listed, not counted, closed with the browser. */
  readonly #privateRepls = new Set<Repl>();
  readonly #chromium: BrowserManager | null;
  readonly #ownsChromium: boolean;
  readonly #tabs: TabRegistry | null;
  readonly #executors: PlaywrightExecutors | null;
  /** The page tools of this browser (lib/webmcp): one monitor connection, attached when the browser becomes available (`BrowserManager.onReady`), or on first use. */
  readonly #webmcp: WebMcpMonitor | null;
  /** The cells' and executors' `webmcp` calls (every tab but agent-tool sessions'); private REPLs get a scoped one. */
  readonly #webmcpCalls: WebMcpCallHandler | undefined;
  /** The hand-over requests pending for a person (docs/live-view.md#hand-over); the live view shows them. */
  readonly humanRequests = new HumanRequests();
  readonly #disposeReadyHook: () => void;
  readonly #maxNamedRepls: number;
  /** One warm spare for all REPLs of the browser, not one per REPL: an idle named REPL is one thread. */
  readonly #spares: ReplWorkerSupply;
  /** Its telemetry (docs/telemetry.md): off until `telemetry` of create or update turns a category on. */
  readonly telemetry: BrowserTelemetry;
  #env: Record<string, string>;
  /** What a pool's cleaning must undo besides the end hooks (files written through fs): see {@link onRecycle}. */
  readonly #recycleHooks = new Set<() => Promise<void>>();
  /** The pool (its id) that leased this browser to its current user, if any (docs/browsers.md#pools). */
  poolId: string | undefined;
  /** What must happen before the browser's parts end (a recording's last frames): see {@link onEnd}. */
  readonly #endHooks = new Set<() => Promise<void>>();

  constructor(options: BrowserOptions = {}) {
    super();
    // A browser nobody gave an id is the one its user drives, as a server's own is.
    this.#id = options.id ?? 'default';
    this.#options = options;
    this.#env = { ...options.env };
    this.#maxNamedRepls = options.maxNamedRepls ?? MAX_NAMED_REPLS;
    if (!Number.isInteger(this.#maxNamedRepls) || this.#maxNamedRepls < 0) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'maxNamedRepls must be a non-negative integer');
    }
    const viewport = options.viewport === undefined ? undefined : checkViewport(options.viewport);
    const browser = options.browser ?? {};
    this.#ownsChromium = browser !== false && !(browser instanceof BrowserManager);
    this.#chromium = browser === false ? null
      : browser instanceof BrowserManager ? browser
        : new BrowserManager(viewport === undefined ? browser : { ...browser, viewport });
    const manager = this.#chromium;
    this.#tabs = manager === null ? null : new TabRegistry({
      endpoint: () => manager.endpoint(),
      reachable: () => !manager.closed && (manager.mode === 'attach' || manager.launched),
      viewport: viewport ?? manager.viewport,
    });
    const webmcp = manager === null || this.#tabs === null ? null : new WebMcpMonitor({
      endpoint: () => manager.endpoint(),
      isolatedContexts: () => this.#tabs?.isolatedContextIds() ?? new Set(),
    });
    this.#webmcp = webmcp;
    this.telemetry = new BrowserTelemetry({ endpoint: manager === null ? null : () => manager.endpoint() });
    this.#webmcpCalls = webmcp === null ? undefined : webMcpCallHandler(webmcp);
    // Attached before the first worker learns the endpoint, so no page runs a script unobserved.
    this.#disposeReadyHook = webmcp === null || manager === null ? () => {} : manager.onReady((endpoint) => webmcp.start(endpoint));
    this.#spares = new ReplWorkerSupply({
      settings: replWorkerSettings(options, manager !== null),
      env: this.#env,
      enabled: options.warmSpare,
    });
    this.#executors = manager === null || this.#tabs === null
      ? null
      : new PlaywrightExecutors({ ...options.playwright, browser: manager, tabs: this.#tabs, webmcp: this.#webmcpCalls, human: this.#humanCalls('executor') });
  }

  /**
   * Lists the browser in the browsers API (the registry does, when the browser is created for a
   * request or taken from the warm pool): its name, tags and start URL, and its inactivity clock,
   * which starts now. Its age (`createdAt`) counts from here.
   */
  enlist(listing: BrowserListing): void {
    this.name = listing.name;
    this.tags = listing.tags;
    this.#startUrl = listing.startUrl;
    this.#pooled = listing.pooled ?? false;
    this.#profile = listing.profile;
    this.#timeoutSeconds = listing.timeoutSeconds;
    this.#onIdle = listing.onIdle;
    this.#createdAt = new Date();
    this.#lastActiveAt = Date.now();
    if (this.#holds === 0) this.#armIdleClock();
  }

  /** What the browsers API and every per-browser route address it by. */
  get id(): string {
    return this.#id;
  }

  /**
   * A new id for the next user of a pooled browser: every capability minted for the old one
   * (`cdp_ws_url`'s, live views') names an id that no longer resolves. Only the registry calls
   * this, between a release and the next lease, while the browser is not listed.
   */
  renew(id: string): void {
    this.#id = id;
  }

  /**
   * Ends what the last user of a pooled browser left in it, short of its pages (lib/browsers/browser-recycle.ts
   * cleans those): the end hooks run (recordings finish, background processes end, file watches
   * stop, computer controls disconnect), named REPLs, executors and agent-tool sessions are deleted
   * with their tabs, and the environment is the one it launched with. The inactivity clock stops
   * until the next `enlist`. `resetDefaultRepl()` comes after the pages are clean.
   */
  async endLease(): Promise<void> {
    this.#onIdle = undefined;
    this.#disarmIdleClock();
    await this.#runEndHooks();
    // These throw when they could not undo their part: the pool then retires the browser.
    const recycleHooks = [...this.#recycleHooks];
    this.#recycleHooks.clear();
    await Promise.all(recycleHooks.map((hook) => hook()));
    const named = [...this.#repls.entries()].filter(([name]) => name !== 'default');
    for (const [name] of named) this.#repls.delete(name);
    const privates = [...this.#privateRepls];
    this.#privateRepls.clear();
    await Promise.all([...named.map(([, entry]) => entry.repl.destroy()), ...privates.map((repl) => repl.destroy())]);
    if (this.#executors !== null) {
      for (const info of await this.#executors.list()) await this.#executors.delete(info.name, { closeTab: true }).catch(() => undefined);
    }
    this.#env = { ...this.#options.env };
    await this.#spares.setEnv(this.#env);
  }

  /** A fresh worker for the default REPL (its bindings are gone), with the launch environment. */
  async resetDefaultRepl(): Promise<void> {
    const entry = this.#repls.get('default');
    if (entry === undefined || entry.repl.closed) return;
    await entry.repl.setEnv(this.#env);
    await entry.repl.reset();
  }

  /** Names of the REPLs alive right now (a cleaned browser has at most `default`). */
  replNames(): string[] {
    return [...this.#repls.entries()].filter(([, entry]) => !entry.repl.closed).map(([name]) => name);
  }

  /** Since when the browser has been listed (or built, before that). */
  get createdAt(): Date {
    return this.#createdAt;
  }

  /** Inactivity, in seconds, before it is reaped; 0: never. */
  get timeoutSeconds(): number {
    return this.#timeoutSeconds;
  }

  get startUrl(): string | undefined {
    return this.#startUrl;
  }

  /** The stored profile it started from, if any (docs/browsers.md#profiles). */
  get profile(): BrowserProfileInfo | undefined {
    return this.#profile;
  }

  /** Taken from the warm pool rather than launched for its request. */
  get pooled(): boolean {
    return this.#pooled;
  }

  /** Headless unless its launch options say otherwise (an attached browser counts as headless). */
  get headless(): boolean {
    const launch = this.#options.browser;
    // A browser handed an existing BrowserManager reports what its owner launched: headless, as before.
    return launch === false || launch === undefined || launch instanceof BrowserManager ? true : launch.headless ?? true;
  }

  /** The page area of its tabs: its Chromium's, else what its options or the environment say. */
  get viewport(): Viewport {
    return this.#chromium?.viewport ?? resolveViewport(this.#options.viewport, process.env);
  }

  /** Open API calls and CDP connections right now. */
  get activeHolds(): number {
    return this.#holds;
  }

  /** When the last activity ended (or now, while one is open). */
  get lastActiveAt(): Date {
    return new Date(this.#holds > 0 ? Date.now() : this.#lastActiveAt);
  }

  /**
   * Marks the start of an activity (an API call, an open CDP connection); the returned function
   * ends it (idempotent). The inactivity clock stops while any activity is open.
   */
  hold(): () => void {
    this.#holds++;
    this.#disarmIdleClock();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      this.#lastActiveAt = Date.now();
      if (this.#holds === 0) this.#armIdleClock();
    };
  }

  #armIdleClock(): void {
    this.#disarmIdleClock();
    if (this.#timeoutSeconds === 0 || this.#onIdle === undefined || this.closed) return;
    const onIdle = this.#onIdle;
    this.#idleTimer = setTimeout(() => {
      // Work that outlived its request (a streamed cell whose client went away) is activity too.
      if (this.busy) this.#armIdleClock();
      else onIdle(this);
    }, this.#timeoutSeconds * 1000);
    // The clock must not keep a process alive that has nothing else to do.
    this.#idleTimer.unref();
  }

  #disarmIdleClock(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** The Playwright executors of this browser, or null for a pure-JavaScript browser. */
  get executors(): PlaywrightExecutors | null {
    return this.#executors;
  }

  /** The WebMCP page tools of this browser (docs/webmcp.md), or null for a pure-JavaScript browser. */
  get webmcp(): WebMcpTools | null {
    return this.#webmcp;
  }

  /** The Chromium this browser drives (launched or attached), or null for a pure-JavaScript browser. */
  get chromium(): BrowserManager | null {
    return this.#chromium;
  }

  /** Which tab belongs to which named REPL or executor; null for a pure-JavaScript browser. */
  get tabs(): TabRegistry | null {
    return this.#tabs;
  }

  /** A cell or an execute call runs (or waits) on this browser right now. */
  get busy(): boolean {
    for (const { repl } of this.#repls.values()) if (repl.busy) return true;
    return this.#executors?.busy ?? false;
  }

  /**
   * The REPL of that name, created on first use. `default` drives the tab the user sees (the
   * active one, as a single REPL always did); every other name gets a tab of its own.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (bad name), `REPL_ERR_CONFLICT` (limit;
   *   `data.repls` lists them), `REPL_ERR_CLOSED`.
   */
  repl(name = 'default'): Repl {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
    assertReplName(name);
    let entry = this.#repls.get(name);
    if (entry === undefined || entry.repl.closed) {
      if (entry === undefined && name !== 'default' && this.#namedCount() >= this.#maxNamedRepls) {
        throw new ReplError('REPL_ERR_CONFLICT',
          `named REPL limit (${this.#maxNamedRepls}) reached; delete one with DELETE /repls/{name}`,
          { data: { repls: this.#infos() } });
      }
      const replOptions = this.#replOptions();
      // The Chromium is shared by the browser's REPLs and outlives each of them.
      const repl = new Repl({
        ...replOptions,
        name,
        env: this.#env,
        browser: this.#chromium ?? false,
        spares: this.#spares,
        ...(this.#tabs === null ? {} : { tabs: this.#tabs }),
        ...(this.#webmcpCalls === undefined ? {} : { webmcp: this.#webmcpCalls }),
        ...(this.#chromium === null ? {} : { human: this.#humanCalls(`repl:${name}`) }),
      });
      const now = new Date();
      entry = { repl, createdAt: now, lastUsedAt: now };
      this.#repls.set(name, entry);
    }
    entry.lastUsedAt = new Date();
    return entry.repl;
  }

  /**
   * A REPL of this browser that has no name in it (`listRepls` does not show it, the named-REPL
   * limit does not count it): an agent-tool session's page (lib/tools). Its tab belongs to
   * `tabOwner`; `isolated` puts that tab in a browser context of its own. Closing it releases the
   * tab (and the context); the browser closes the ones still open.
   *
   * On a browser without Chromium (`browser: false`) it is a pure-JavaScript REPL (its page tools fail).
   *
   * @throws ReplError `REPL_ERR_CLOSED`
   */
  privateRepl(options: { tabOwner: TabOwner; isolated: boolean }): Repl {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
    const replOptions = this.#replOptions();
    const tabs = this.#tabs;
    // A browser without Chromium still runs a session's cells (pure JavaScript); its page tools fail.
    if (tabs === null || this.#chromium === null) return this.#keepPrivate(new Repl({ ...replOptions, name: options.tabOwner, env: this.#env, browser: false, spares: this.#spares }));
    if (options.isolated) tabs.isolate(options.tabOwner);
    const owner = options.tabOwner;
    // A session sees the page tools of its own tab and of the popups it adopted, never another owner's.
    const webmcp = this.#webmcp === null ? undefined : webMcpCallHandler(this.#webmcp, () => ({
      targetIds: [tabs.peek(owner), ...tabs.popupsOf(owner)].filter((targetId) => targetId !== undefined),
    }));
    const repl = new Repl({
      ...replOptions, name: owner, env: this.#env, browser: this.#chromium, spares: this.#spares, tabs, tabOwner: owner,
      ...(webmcp === undefined ? {} : { webmcp }),
      human: this.#humanCalls(owner),
    });
    return this.#keepPrivate(repl);
  }

  /** What every REPL of this browser starts from: the options that are not the browser's own. */
  #replOptions(): Omit<ReplOptions, 'env' | 'browser' | 'name' | 'tabs' | 'webmcp' | 'human'> {
    const { id: _id, env: _env, browser: _browser, playwright: _playwright, maxNamedRepls: _max, viewport: _viewport, ...replOptions } = this.#options;
    return replOptions;
  }

  /** Answers the `requestHuman()` of a worker (`from` names it to the viewers). */
  #humanCalls(from: string): HumanRequestHandler {
    return (call, signal) => this.humanRequests.request({ message: call.message, timeoutMs: call.timeoutSec * 1000, from, signal });
  }

  /** Records a private REPL, to close it with the browser. */
  #keepPrivate(repl: Repl): Repl {
    // Closed ones are forgotten here, so a long-lived browser does not keep every session it ever had.
    for (const known of this.#privateRepls) if (known.closed) this.#privateRepls.delete(known);
    this.#privateRepls.add(repl);
    return repl;
  }

  /** `default` first (once it exists), then named REPLs oldest first. */
  async listRepls(): Promise<ReplInfo[]> {
    const infos = this.#infos();
    if (this.#tabs !== null && infos.some((info) => info.targetId !== undefined)) {
      try {
        const urls = await this.#tabs.urls();
        for (const info of infos) {
          const url = info.targetId === undefined ? undefined : urls.get(info.targetId);
          if (url !== undefined) info.url = url;
        }
      } catch {
        // URLs are a courtesy; a browser that does not answer right now still gets its list.
      }
    }
    return infos;
  }

  /**
   * Deletes a named REPL: a running cell ends (`repl_terminated`), queued calls fail with
   * `REPL_ERR_CLOSED`, its worker ends and its tab is closed; the name is free at once.
   * `default` is reset instead (a fresh worker; bindings are gone; its tab stays open).
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_NOT_FOUND`.
   */
  async deleteRepl(name: string): Promise<void> {
    assertReplName(name);
    const entry = this.#repls.get(name);
    if (entry === undefined || entry.repl.closed) throw new ReplError('REPL_ERR_NOT_FOUND', `REPL "${name}" not found`);
    if (name === 'default') {
      await entry.repl.reset();
      return;
    }
    this.#repls.delete(name);
    await entry.repl.destroy();
  }

  /**
   * Interrupts the running cell of the REPL `name` (`Repl.interrupt`); with `cellId`, only that
   * cell, running or still waiting for its turn. A REPL that was never created runs nothing:
   * `{interrupted: false}` for `default`, `REPL_ERR_NOT_FOUND` for a named one (a typo).
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_NOT_FOUND`.
   */
  async interruptRepl(name: string, options: InterruptOptions = {}): Promise<InterruptOutcome> {
    assertReplName(name);
    const entry = this.#repls.get(name);
    if (entry === undefined || entry.repl.closed) {
      if (name === 'default') return { interrupted: false };
      throw new ReplError('REPL_ERR_NOT_FOUND', `REPL "${name}" not found`);
    }
    return entry.repl.interrupt(options);
  }

  /** Sorted names of the stored environment variables. */
  get envNames(): string[] {
    return Object.keys(this.#env).sort();
  }

  /** Replaces the stored environment and applies it to every REPL of this browser. */
  async setEnv(env: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<{ replTerminated: boolean }> {
    validateEnv(env);
    this.#env = { ...env };
    await this.#spares.setEnv(this.#env);
    const outcomes = await Promise.all([...this.#repls.values()]
      .filter(({ repl }) => !repl.closed)
      .map(({ repl }) => repl.setEnv(this.#env, options)));
    return { replTerminated: outcomes.some((outcome) => outcome.replTerminated) };
  }

  /**
   * Runs `hook` when the browser begins to end (close or destroy), before its REPLs, tabs and
   * Chromium go, and waits for it (the hook bounds its own time). Returns its disposer.
   */
  onEnd(hook: () => Promise<void>): () => void {
    this.#endHooks.add(hook);
    return () => this.#endHooks.delete(hook);
  }

  /**
   * Runs `hook` when a pool cleans this browser for its next user ({@link endLease}); a hook that
   * throws makes the pool retire the browser instead. Returns its disposer.
   */
  onRecycle(hook: () => Promise<void>): () => void {
    this.#recycleHooks.add(hook);
    return () => this.#recycleHooks.delete(hook);
  }

  async #runEndHooks(): Promise<void> {
    const hooks = [...this.#endHooks];
    this.#endHooks.clear();
    await Promise.all(hooks.map((hook) => hook().catch(() => undefined)));
  }

  protected async closeGracefully(): Promise<void> {
    this.#disarmIdleClock();
    await this.#runEndHooks();
    // REPLs and executors release their tabs, so they end before the registry and the browser do.
    await Promise.all([...this.#repls.values()].map(({ repl }) => repl.close()).concat([...this.#privateRepls].map((repl) => repl.close()), this.#executors?.close() ?? [], this.#spares.close()));
    await this.#release();
  }

  protected override async destroyNow(): Promise<void> {
    this.#disarmIdleClock();
    await this.#runEndHooks();
    await Promise.all([...this.#repls.values()].map(({ repl }) => repl.destroy()).concat([...this.#privateRepls].map((repl) => repl.destroy()), this.#executors?.close() ?? [], this.#spares.close()));
    await this.#release();
  }

  /** What outlives the REPLs and executors: the WebMCP monitor, the tabs, then Chromium. */
  async #release(): Promise<void> {
    this.#disposeReadyHook();
    // First: its connection must not relaunch the Chromium that is about to close.
    await this.telemetry.close();
    this.humanRequests.close();
    await this.#webmcp?.close();
    await this.#tabs?.close();
    if (this.#ownsChromium) await this.#chromium?.close();
  }

  /** Live REPLs (named, `default`, agent-tool sessions') and executors: for `/metrics`. */
  counts(): { repls: number; executors: number } {
    let repls = 0;
    for (const { repl } of this.#repls.values()) if (!repl.closed) repls++;
    for (const repl of this.#privateRepls) if (!repl.closed) repls++;
    return { repls, executors: this.#executors?.size ?? 0 };
  }

  #namedCount(): number {
    let count = 0;
    for (const [name, entry] of this.#repls) if (name !== 'default' && !entry.repl.closed) count++;
    return count;
  }

  #infos(): ReplInfo[] {
    const rows = [...this.#repls].filter(([, entry]) => !entry.repl.closed);
    rows.sort(([a], [b]) => (a === 'default' ? -1 : b === 'default' ? 1 : 0));
    return rows.map(([name, entry]) => {
      const info: ReplInfo = {
        name,
        replId: entry.repl.id,
        busy: entry.repl.busy,
        createdAt: entry.createdAt,
        lastUsedAt: entry.lastUsedAt,
      };
      const targetId = name === 'default' ? undefined : this.#tabs?.peek(`repl:${name}`);
      if (targetId !== undefined) info.targetId = targetId;
      return info;
    });
  }
}

function assertReplName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'repl name must match ^[A-Za-z0-9_-]{1,64}$');
  }
}

// ----- environment rules (docs/repl.md, "Environment"), shared by the HTTP route and the library

const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['CDP_ENDPOINT', 'KERNEL_API_ENDPOINT', 'PORT', 'NODE_OPTIONS']);

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_REQUEST', message);
}

/** Throws REPL_ERR_INVALID_REQUEST with the contract's message for the first offending entry. */
export function validateEnv(env: unknown): asserts env is Record<string, string> {
  if (env === undefined || env === null) throw invalid('env is required');
  if (typeof env !== 'object' || Array.isArray(env)) throw invalid('invalid request body: env must be object');
  const entries = Object.entries(env as Record<string, unknown>);
  if (entries.length > LIMITS.envMaxVariables) throw invalid(`env may contain at most ${LIMITS.envMaxVariables} variables`);
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!ENV_NAME_PATTERN.test(name) || Buffer.byteLength(name) > LIMITS.envNameBytes) throw invalid(`invalid env name ${JSON.stringify(name)}`);
    if (RESERVED.has(name) || name.startsWith('BROWSER_REPL_')) throw invalid(`env name ${JSON.stringify(name)} is reserved`);
    if (typeof value !== 'string') throw invalid(`invalid request body: env.${name} must be string`);
    if (Buffer.byteLength(value) > LIMITS.envValueBytes) throw invalid(`env value for ${JSON.stringify(name)} exceeds ${LIMITS.envValueBytes} bytes`);
    if (value.includes('\0')) throw invalid(`env value for ${JSON.stringify(name)} contains a NUL byte`);
  }
}
