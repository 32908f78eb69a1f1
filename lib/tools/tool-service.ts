/**
 * The agent browser tools as a library (seed 004 "Programmatic use"; docs/agent-tools.md):
 * `tools.page(sessionId)` is one session's page with open, snapshot, click, type, scroll, waitFor,
 * back, screenshot, status and close, plus the limits the seed left out (tabs, downloads,
 * uploads, dialogs, keys, select options, find).
 *
 * A session's page is a private REPL of a browser host (`BrowserHost.privateRepl`): its worker
 * runs the operations with the REPL's own browser helpers (worker/tools/tool-runner.ts), and its
 * tab lives in a browser context of its own (`isolation: "context"`, the default) or in a browser
 * process of its own with a temporary profile (`"process"`). Either is deleted on close, so
 * sessions never share cookies, storage or refs. Pages are created on first use and closed after
 * `idleMs` without a call; the next call opens a fresh one.
 *
 * Policy, approval, workspace paths, caps, diffs and rendering are decided here, on the main
 * thread; the worker only reads and acts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ReplError } from '../../common/errors.js';
import { ownedTempPrefix } from '../system/child-lifetime.js';
import { BrowserHost } from '../host/browser-host.js';
import { SerialQueue } from '../threads/serial-queue.js';
import { UrlPolicy } from './policy.js';
import { renderFind, renderSnapshot } from './render.js';
import { baselineOf, diffSnapshot, findInRead, fullSnapshot } from './snapshot.js';
import { Workspace } from './workspace.js';

import type { PageRead, ToolOperation, ToolOutcome } from '../../common/protocol/tool-messages.js';
import type { Repl } from '../repl/repl.js';
import type { WebMcpInvocation, WebMcpScope, WebMcpTool, WebMcpTools } from '../webmcp/types.js';
import type { SnapshotBaseline } from './snapshot.js';
import type {
  ActionOptions, ActionResult, BrowserToolsOptions, DownloadInfo, FindMatch, Isolation, OpenApprover, Ref, ScreenshotOptions,
  ScreenshotResult, SessionStatus, SnapshotMode, ToolPageApi, ToolSnapshot, ToolTab,
} from './types.js';

/** The seed's defaults. */
export const TOOL_DEFAULTS = Object.freeze({
  permission: 'ask' as const,
  timeoutMs: 30_000,
  settleMs: 250,
  idleMs: 900_000,
  maxTextChars: 12_000,
  maxElements: 120,
  scrollPixels: 700,
});

/** Time a call may take beyond its own timeout and settle before its worker is given up. */
const CALL_SLACK_MS = 10_000;
const SESSION_ID = /^[\w.:@-]{1,128}$/;

interface ResolvedConfig {
  permission: 'ask' | 'allow' | 'deny';
  approve: OpenApprover | undefined;
  timeoutMs: number;
  settleMs: number;
  idleMs: number;
  maxTextChars: number;
  maxElements: number;
  isolation: Isolation;
  policy: UrlPolicy;
}

function nonNegativeInteger(value: unknown, field: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < min) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return value as number;
}

function resolveConfig(options: BrowserToolsOptions): ResolvedConfig {
  const permission = options.permission ?? TOOL_DEFAULTS.permission;
  if (permission !== 'ask' && permission !== 'allow' && permission !== 'deny') {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `permission must be "ask", "allow" or "deny", got ${JSON.stringify(permission)}`);
  }
  const isolation = options.isolation ?? 'context';
  if (isolation !== 'context' && isolation !== 'process') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `isolation must be "context" or "process", got ${JSON.stringify(isolation)}`);
  return {
    permission,
    approve: options.approve,
    timeoutMs: nonNegativeInteger(options.timeoutMs, 'timeoutMs', TOOL_DEFAULTS.timeoutMs, 1),
    settleMs: nonNegativeInteger(options.settleMs, 'settleMs', TOOL_DEFAULTS.settleMs),
    idleMs: nonNegativeInteger(options.idleMs, 'idleMs', TOOL_DEFAULTS.idleMs),
    maxTextChars: nonNegativeInteger(options.maxTextChars, 'maxTextChars', TOOL_DEFAULTS.maxTextChars),
    maxElements: nonNegativeInteger(options.maxElements, 'maxElements', TOOL_DEFAULTS.maxElements),
    isolation,
    policy: new UrlPolicy(options),
  };
}

function readRef(value: Ref): number {
  const ref = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(ref) || (ref as number) < 1) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `ref must be the number of an element in the latest snapshot (such as 12), got ${JSON.stringify(value)}`);
  }
  return ref as number;
}

function readMode(value: unknown): SnapshotMode {
  if (value === undefined) return 'full';
  if (value !== 'full' && value !== 'diff' && value !== 'none') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `snapshot must be "full", "diff" or "none", got ${JSON.stringify(value)}`);
  return value;
}

/** Where a session's page lives: which host, and whether that host is the session's own (process isolation). */
interface PageBackend {
  repl: Repl;
  /** The host it lives in; `ownHost` too when that host is the session's own (process isolation). */
  host: BrowserHost;
  ownHost: BrowserHost | undefined;
  createdAt: Date;
}

/** One session's page; see the module comment. Get it from {@link BrowserTools.page}. */
export class ToolPage implements ToolPageApi {
  readonly sessionId: string;
  readonly workspace: Workspace;
  readonly #service: BrowserTools;
  readonly #config: ResolvedConfig;
  readonly #queue = new SerialQueue();
  #backend: PageBackend | undefined;
  #opening: Promise<PageBackend> | undefined;
  #baseline: SnapshotBaseline | undefined;
  /** The latest read, for `find` and the saved full text. */
  #lastRead: PageRead | undefined;
  #lastUsedAt: Date | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #screenshots = 0;
  #snapshots = 0;
  #closed = false;

  /** @internal Created by {@link BrowserTools.page}. */
  constructor(service: BrowserTools, sessionId: string, workspace: Workspace, config: ResolvedConfig) {
    this.#service = service;
    this.sessionId = sessionId;
    this.workspace = workspace;
    this.#config = config;
  }

  get closed(): boolean {
    return this.#closed;
  }

  open(url: string, options: ActionOptions & { approve?: OpenApprover } = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      const target = this.#config.policy.check(url);
      await this.#approve(target.href, options);
      const { timeoutMs, settleMs } = this.#config;
      return this.#act({ op: 'navigate', url: target.href, timeoutMs, settleMs }, options);
    }, options.signal);
  }

  snapshot(options: { mode?: 'full' | 'diff'; signal?: AbortSignal } = {}): Promise<ToolSnapshot> {
    return this.#serial(async () => {
      const mode = options.mode ?? 'full';
      if (mode !== 'full' && mode !== 'diff') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `mode must be "full" or "diff", got ${JSON.stringify(mode)}`);
      const outcome = await this.#call({ op: 'read' }, false, options.signal);
      return this.#snapshotOf(outcome.read!, mode, this.#pageToolCount(outcome.read!));
    }, options.signal);
  }

  click(ref: Ref, options: ActionOptions & { doubleClick?: boolean } = {}): Promise<ActionResult> {
    return this.#serial(() => this.#act({ op: 'click', ref: readRef(ref), doubleClick: options.doubleClick === true, ...this.#timing() }, options), options.signal);
  }

  type(ref: Ref, text: string, options: ActionOptions & { submit?: boolean } = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (typeof text !== 'string') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'text must be a string');
      return this.#act({ op: 'type', ref: readRef(ref), text, submit: options.submit === true, ...this.#timing() }, options);
    }, options.signal);
  }

  scroll(options: ActionOptions & { pixels?: number; ref?: Ref } = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      const pixels = options.pixels ?? (options.ref === undefined ? TOOL_DEFAULTS.scrollPixels : 0);
      if (typeof pixels !== 'number' || !Number.isFinite(pixels) || Math.abs(pixels) > 100_000) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'pixels must be a number between -100000 and 100000 (positive scrolls down)');
      }
      const operation: ToolOperation = { op: 'scroll', pixels, settleMs: this.#config.settleMs };
      if (options.ref !== undefined) operation.ref = readRef(options.ref);
      return this.#act(operation, options);
    }, options.signal);
  }

  waitFor(condition: { text?: string; selector?: string; timeoutMs?: number }, options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      const { text, selector } = condition ?? {};
      if ((text === undefined) === (selector === undefined)) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'waitFor needs exactly one of text or selector');
      if ((text !== undefined && (typeof text !== 'string' || text === '')) || (selector !== undefined && (typeof selector !== 'string' || selector === ''))) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'text and selector must be non-empty strings');
      }
      const timeoutMs = nonNegativeInteger(condition.timeoutMs, 'timeoutMs', this.#config.timeoutMs, 0);
      const operation: ToolOperation = { op: 'wait', timeoutMs, settleMs: this.#config.settleMs };
      if (text !== undefined) operation.text = text;
      if (selector !== undefined) operation.selector = selector;
      return this.#act(operation, options);
    }, options.signal);
  }

  back(options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(() => this.#act({ op: 'back', ...this.#timing() }, options), options.signal);
  }

  pressKey(key: string, options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (typeof key !== 'string' || key === '') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'key must be a key name such as "Enter", "Tab", "ArrowDown" or "a"');
      return this.#act({ op: 'press', key, ...this.#timing() }, options);
    }, options.signal);
  }

  selectOption(ref: Ref, values: string[], options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (!Array.isArray(values) || values.length === 0 || values.some((value) => typeof value !== 'string')) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'values must be a non-empty array of option values or texts');
      }
      return this.#act({ op: 'select', ref: readRef(ref), values, ...this.#timing() }, options);
    }, options.signal);
  }

  uploadFile(ref: Ref, paths: string[], options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (!Array.isArray(paths) || paths.length === 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'paths must be a non-empty array of files in the workspace');
      const files = paths.map((given, index) => this.workspace.resolve(given, `paths[${index}]`));
      return this.#act({ op: 'upload', ref: readRef(ref), paths: files, ...this.#timing() }, options);
    }, options.signal);
  }

  handleDialog(answer: { accept: boolean; promptText?: string }, options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (typeof answer?.accept !== 'boolean') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'accept must be true or false');
      if (answer.promptText !== undefined && typeof answer.promptText !== 'string') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'promptText must be a string');
      const operation: ToolOperation = { op: 'dialog', accept: answer.accept, settleMs: this.#config.settleMs };
      if (answer.promptText !== undefined) operation.promptText = answer.promptText;
      return this.#act(operation, options);
    }, options.signal);
  }

  find(query: string | RegExp, options: { signal?: AbortSignal } = {}): Promise<FindMatch> {
    return this.#serial(async () => {
      if (!(query instanceof RegExp) && (typeof query !== 'string' || query === '')) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'query must be a non-empty string or a regular expression');
      }
      const outcome = await this.#call({ op: 'read' }, false, options.signal);
      this.#lastRead = outcome.read!;
      const match = findInRead(outcome.read!, query, this.#config);
      match.chars = renderFind(match, outcome.read!.url).length;
      return match;
    }, options.signal);
  }

  tabs(options: { signal?: AbortSignal } = {}): Promise<ToolTab[]> {
    return this.#serial(async () => {
      const outcome = await this.#call({ op: 'read' }, false, options.signal);
      this.#lastRead = outcome.read!;
      return outcome.read!.tabs.map((tab, index) => ({ index, ...tab }));
    }, options.signal);
  }

  selectTab(index: number, options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(() => this.#act({ op: 'select-tab', index: nonNegativeInteger(index, 'index', 0), settleMs: this.#config.settleMs }, options), options.signal);
  }

  closeTab(index: number, options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(() => this.#act({ op: 'close-tab', index: nonNegativeInteger(index, 'index', 0), settleMs: this.#config.settleMs }, options), options.signal);
  }

  downloads(): Promise<DownloadInfo[]> {
    return this.#serial(async () => (await this.#call({ op: 'downloads' }, false, undefined)).downloads ?? [], undefined);
  }

  screenshot(options: ScreenshotOptions = {}): Promise<ScreenshotResult> {
    return this.#serial(async () => {
      const format = options.format ?? (options.path !== undefined && /\.jpe?g$/i.test(options.path) ? 'jpeg' : 'png');
      if (format !== 'png' && format !== 'jpeg') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `format must be "png" or "jpeg", got ${JSON.stringify(format)}`);
      if (options.quality !== undefined && (!Number.isInteger(options.quality) || options.quality < 0 || options.quality > 100)) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'quality must be an integer from 0 to 100');
      }
      if (options.quality !== undefined && format !== 'jpeg') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'quality applies to format "jpeg" only');
      const given = options.path ?? `screenshots/screenshot-${++this.#screenshots}.${format === 'jpeg' ? 'jpg' : 'png'}`;
      const target = this.workspace.resolve(given);
      this.workspace.ensure(path.relative(this.workspace.root, path.dirname(target)));
      const operation: ToolOperation = { op: 'screenshot', path: target, format, fullPage: options.fullPage === true, includeImage: options.includeImage === true };
      if (options.quality !== undefined) operation.quality = options.quality;
      const { screenshot } = await this.#call(operation, false, options.signal);
      const result: ScreenshotResult = {
        path: screenshot!.path, bytes: screenshot!.bytes, mimeType: format === 'jpeg' ? 'image/jpeg' : 'image/png', width: screenshot!.width, height: screenshot!.height,
      };
      if (screenshot!.data !== undefined) result.data = Buffer.from(screenshot!.data);
      return result;
    }, options.signal);
  }

  listPageTools(options: { signal?: AbortSignal } = {}): Promise<WebMcpTool[]> {
    return this.#serial(async () => {
      const { tools, scope } = await this.#pageToolScope();
      return tools.listTools({ scope, signal: options.signal });
    }, options.signal);
  }

  invokePageTool(toolRef: string, input: unknown = {}, options: { timeoutSec?: number; signal?: AbortSignal } = {}): Promise<WebMcpInvocation> {
    // Serialised like every action: a page tool may change or navigate the page under a read.
    return this.#serial(async () => {
      const { tools, scope } = await this.#pageToolScope();
      return tools.invokeTool(toolRef, input, { scope, timeoutSec: options.timeoutSec, signal: options.signal });
    }, options.signal);
  }

  async status(): Promise<SessionStatus> {
    const status: SessionStatus = {
      sessionId: this.sessionId, open: this.#backend !== undefined, tabs: this.#lastRead?.tabs.length ?? 0, workspace: this.workspace.root, isolation: this.#config.isolation,
    };
    if (this.#backend !== undefined) status.createdAt = this.#backend.createdAt;
    if (this.#lastUsedAt !== undefined) status.lastUsedAt = this.#lastUsedAt;
    if (this.#backend !== undefined && this.#lastRead !== undefined) {
      status.url = this.#lastRead.url;
      status.title = this.#lastRead.title;
    }
    return status;
  }

  /** Closes the page and deletes its browser context or browser (and profile); a later call opens a new one. */
  close(): Promise<void> {
    return this.#queue.run(() => this.#closePage());
  }

  /** @internal The service closes it for good. */
  async dispose(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    await this.#queue.run(() => this.#closePage()).catch(() => this.#closePage());
  }

  // ----- internals -------------------------------------------------------------------------

  #timing(): { timeoutMs: number; settleMs: number } {
    return { timeoutMs: this.#config.timeoutMs, settleMs: this.#config.settleMs };
  }

  #serial<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (this.#closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', `tool session ${this.sessionId} is closed`));
    clearTimeout(this.#idleTimer);
    return this.#queue.run(async () => {
      try {
        return await task();
      } finally {
        this.#lastUsedAt = new Date();
        this.#armIdle();
      }
    }, signal);
  }

  #armIdle(): void {
    clearTimeout(this.#idleTimer);
    if (this.#config.idleMs === 0 || this.#closed || this.#backend === undefined) return;
    this.#idleTimer = setTimeout(() => {
      // A call that started meanwhile re-arms the timer when it ends.
      if (this.#queue.size > 0) return;
      void this.#queue.run(() => this.#closePage()).catch(() => undefined);
    }, this.#config.idleMs);
    this.#idleTimer.unref();
  }

  async #approve(url: string, options: { approve?: OpenApprover | undefined; signal?: AbortSignal | undefined }): Promise<void> {
    const { permission } = this.#config;
    if (permission === 'allow') return;
    if (permission === 'deny') throw new ReplError('REPL_ERR_OPEN_NOT_APPROVED', `opening ${url} is denied: the tool policy's permission is "deny"`);
    const approve = options.approve ?? this.#config.approve;
    if (approve === undefined) {
      throw new ReplError('REPL_ERR_OPEN_NOT_APPROVED',
        `opening ${url} needs approval (permission "ask") and this client cannot be asked; allow it with permission "allow" (--permission allow, BROWSER_REPL_TOOLS_PERMISSION=allow) or use a client that supports elicitation`);
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if ((await approve({ sessionId: this.sessionId, url, signal: controller.signal })) !== true) {
        throw new ReplError('REPL_ERR_OPEN_NOT_APPROVED', `opening ${url} was declined; the page was not opened`);
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async #backendOf(): Promise<PageBackend> {
    if (this.#backend !== undefined) return this.#backend;
    this.#opening ??= this.#service.openBackend(this.sessionId).finally(() => { this.#opening = undefined; });
    this.#backend = await this.#opening;
    return this.#backend;
  }

  async #call(operation: ToolOperation, read: boolean, signal: AbortSignal | undefined): Promise<ToolOutcome> {
    const { repl } = await this.#backendOf();
    const budget = ('timeoutMs' in operation ? operation.timeoutMs : this.#config.timeoutMs) + ('settleMs' in operation ? operation.settleMs : 0) + CALL_SLACK_MS;
    const outcome = await repl.tool(operation, { read: read || operation.op === 'read', timeoutMs: budget, signal });
    if (outcome.read !== undefined) this.#lastRead = outcome.read;
    return outcome;
  }

  async #act(operation: ToolOperation, options: ActionOptions): Promise<ActionResult> {
    const mode = readMode(options.snapshot);
    const outcome = await this.#call(operation, mode !== 'none', options.signal);
    let message = outcome.message;
    if (outcome.notes !== undefined && outcome.notes.length > 0) message += `\n${outcome.notes.map((note) => note.replace(/^browser-repl: /, 'note: ')).join('\n')}`;
    const result: ActionResult = { message };
    if (mode !== 'none' && outcome.read !== undefined) result.snapshot = this.#snapshotOf(outcome.read, mode, this.#pageToolCount(outcome.read));
    return result;
  }

  /**
   * The monitor of the session's browser and the tabs the session may see in it: its own tab and
   * the popups it opened (adopted now, so a popup opened by the last action counts). Never opens a
   * page just to find no tools on it.
   */
  async #pageToolScope(): Promise<{ tools: WebMcpTools; scope: WebMcpScope }> {
    const backend = this.#backend;
    const own = backend?.repl.targetId;
    if (backend === undefined || own === undefined) {
      throw new ReplError('REPL_ERR_WEBMCP_NO_TABS', `tool session ${this.sessionId} has no page yet: open one first (browser_open); page tools are declared by pages`);
    }
    const tools = backend.host.webmcp;
    if (tools === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this host has no browser, so no page tools');
    const registry = backend.host.tabs;
    // A failed listing (the browser restarting) leaves the popups known so far; the monitor reports what is gone.
    await registry?.adoptPopups().catch(() => undefined);
    return { tools, scope: { targetIds: [own, ...(registry?.popupsOf(`tools:${this.sessionId}`) ?? [])] } };
  }

  /** How many page tools the tab a read shows declares, from what the monitor knows already: 0 without a monitor. */
  #pageToolCount(read: PageRead): number {
    const tools = this.#backend?.host.webmcp;
    const active = read.tabs.find((tab) => tab.active);
    return tools === undefined || tools === null || active === undefined ? 0 : tools.countTools(active.targetId);
  }

  /** The snapshot of a read in `mode` (`pageTools`: the count its header notes); it becomes the baseline of the next diff. */
  #snapshotOf(read: PageRead, mode: 'full' | 'diff', pageTools: number): ToolSnapshot {
    const caps = this.#config;
    let snapshot: ToolSnapshot;
    if (mode === 'diff') {
      snapshot = diffSnapshot(this.#baseline, read, caps);
    } else {
      snapshot = fullSnapshot(read, caps);
      if (snapshot.textTruncated) {
        // The whole text stays readable (an MCP resource), so a cap never hides the page for good.
        const file = path.join(this.workspace.ensure('snapshots'), `snapshot-${++this.#snapshots}.txt`);
        writeFileSync(file, read.text);
        snapshot.fullTextPath = this.workspace.relative(file);
      }
    }
    this.#baseline = baselineOf(read);
    if (pageTools > 0) snapshot.pageTools = pageTools;
    snapshot.chars = renderSnapshot(snapshot).length;
    return snapshot;
  }

  async #closePage(): Promise<void> {
    clearTimeout(this.#idleTimer);
    const opening = this.#opening;
    const backend = this.#backend ?? (opening === undefined ? undefined : await opening.catch(() => undefined));
    this.#backend = undefined;
    this.#baseline = undefined;
    this.#lastRead = undefined;
    if (backend === undefined) return;
    await backend.repl.close();
    backend.host.tabs?.downloads.setFolder(`tools:${this.sessionId}`, undefined);
    await backend.ownHost?.close();
  }
}

/** The tool service; see the module comment. `close()` ends every session. */
export class BrowserTools {
  readonly #options: BrowserToolsOptions & { host?: BrowserHost | undefined };
  readonly #config: ResolvedConfig;
  readonly #pages = new Map<string, ToolPage>();
  readonly #workspaceRoot: string;
  readonly #ownsWorkspace: boolean;
  /** The host whose browser context-isolated sessions share: the given one, or one launched on first use. */
  #sharedHost: BrowserHost | undefined;
  readonly #ownsSharedHost: boolean;
  #closed = false;

  constructor(options: BrowserToolsOptions & { host?: BrowserHost | undefined } = {}) {
    this.#options = options;
    this.#config = resolveConfig(options);
    this.#ownsWorkspace = options.workspace === undefined;
    this.#workspaceRoot = options.workspace === undefined ? mkdtempSync(ownedTempPrefix('chromium-repl-tools')) : path.resolve(options.workspace);
    this.#sharedHost = options.host;
    this.#ownsSharedHost = options.host === undefined;
  }

  /** The folder under which every session has its workspace. */
  get workspace(): string {
    return this.#workspaceRoot;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Ids of the sessions that exist (open or not). */
  get sessionIds(): string[] {
    return [...this.#pages.keys()];
  }

  /** The page of `sessionId`, created on first use (its browser page opens on its first call). */
  page(sessionId: string): ToolPage {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'the browser tools are closed');
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'sessionId must be 1-128 characters of letters, digits and . _ : @ -');
    }
    let page = this.#pages.get(sessionId);
    if (page === undefined) {
      const workspace = new Workspace(path.join(this.#workspaceRoot, sessionId.replace(/[^\w.-]/g, '_')));
      page = new ToolPage(this, sessionId, workspace, this.#config);
      this.#pages.set(sessionId, page);
    }
    return page;
  }

  /** The workspace folder of `sessionId` (created on first use). */
  workspaceOf(sessionId: string): string {
    return this.page(sessionId).workspace.ensure();
  }

  async status(sessionId: string): Promise<SessionStatus> {
    return this.page(sessionId).status();
  }

  /** Closes the session's page and forgets the session; its workspace stays until `close()` (which removes a temporary one). */
  async close(sessionId?: string): Promise<void> {
    if (sessionId === undefined) return this.#closeService();
    const page = this.#pages.get(sessionId);
    this.#pages.delete(sessionId);
    await page?.dispose();
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const pages = [...this.#pages.values()];
    this.#pages.clear();
    await Promise.all(pages.map((page) => page.dispose()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#closeService();
  }

  /** @internal A session's page: a private REPL in the shared browser, or in a browser of its own. */
  async openBackend(sessionId: string): Promise<PageBackend> {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'the browser tools are closed');
    const page = this.#pages.get(sessionId);
    const owner = `tools:${sessionId}` as const;
    const host = this.#config.isolation === 'process' ? this.#newHost(sessionId) : (this.#sharedHost ??= this.#newHost('shared'));
    const repl = host.privateRepl({ tabOwner: owner, isolated: this.#config.isolation === 'context' });
    if (page !== undefined) host.tabs?.downloads.setFolder(owner, page.workspace.ensure('downloads'));
    return { repl, host, ownHost: this.#config.isolation === 'process' ? host : undefined, createdAt: new Date() };
  }

  #newHost(id: string): BrowserHost {
    const { executable, args, headless, noSandbox } = this.#options;
    const base = this.#options.host?.browser;
    // A session browser is launched like the shared one: the given host's launch options, or the seed's table.
    const launch = {
      ...(executable === undefined ? {} : { executable }),
      ...(args === undefined ? {} : { args }),
      ...(headless === undefined ? {} : { headless }),
      ...(noSandbox === undefined ? {} : { noSandbox }),
    };
    return new BrowserHost({ id: `tools-${id}`, browser: base !== undefined && base !== null && Object.keys(launch).length === 0 ? base.options : launch, warmSpare: false });
  }

  async #closeService(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.closeAll();
    if (this.#ownsSharedHost) await this.#sharedHost?.close();
    if (this.#ownsWorkspace) new Workspace(this.#workspaceRoot).remove();
  }
}

/** Creates a tool service (seed 004's browser service). */
export function createBrowserTools(options: BrowserToolsOptions & { host?: BrowserHost } = {}): BrowserTools {
  return new BrowserTools(options);
}
