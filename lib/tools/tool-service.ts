/**
 * The agent browser tools as a library (docs/agent-tools.md, "Using the library"):
 * `tools.page(sessionId)` is one session's page with open, snapshot, click, type, scroll, waitFor,
 * back, screenshot, status and close, plus what the reference plugin left out (tabs, downloads,
 * uploads, dialogs, keys, select options, find).
 *
 * A session's page is a private REPL of a browser host (`Browser.privateRepl`): its worker
 * runs the operations with the REPL's own browser helpers (worker/tools/tool-runner.ts), and its
 * tab lives in a browser context of its own (`isolation: "context"`, the default) or in a browser
 * process of its own with a temporary profile (`"process"`). Either is deleted on close, so
 * sessions never share cookies, storage or refs. Pages are created on first use and closed after
 * `idleMs` without a call; the next call opens a fresh one.
 *
 * Policy, approval, workspace paths, caps, diffs and rendering are decided here, on the main
 * thread; the worker only reads and acts.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { lifecycleOf } from '../../common/resource.js';
import { CELL_TIMEOUT } from '../../common/timeout-sec.js';
import { Operation } from '../../common/operation.js';
import { ownedTempPrefix } from '../system/child-lifetime.js';
import { Browser } from '../browsers/browser.js';
import { SerialQueue } from '../threads/serial-queue.js';
import { UrlPolicy } from './policy.js';
import { renderEffects, renderFind, renderSnapshot } from './render.js';
import { toolError } from './tool-wording.js';
import { diffSnapshot, findInRead, fullSnapshot, nextBaseline } from './snapshot.js';
import { Workspace } from './workspace.js';

import type { PageRead, ToolOperation, ToolOutcome } from '../../common/protocol/tool-messages.js';
import type { PlaywrightExecuteResult } from '../executor/execute-result.js';
import type { PlaywrightExecutor } from '../executor/playwright-executor.js';
import type { CellResult } from '../repl/cell-result.js';
import type { Repl } from '../repl/repl.js';
import type { WebMcpInvocation, WebMcpScope, WebMcpTool, WebMcpTools } from '../webmcp/types.js';
import type { SnapshotBaseline } from './snapshot.js';
import type {
  ActionOptions, ActionResult, BrowserToolsOptions, DownloadInfo, FindMatch, InlineFile, Isolation, OpenApprover, Ref, ScreenshotOptions,
  ScreenshotResult, SessionStatus, SessionTrace, SnapshotMode, ToolPageApi, ToolSnapshot, ToolTab, UploadSource,
} from './types.js';

/** The reference plugin's defaults (docs/agent-tools.md, "Configuration"). */
export const TOOL_DEFAULTS = Object.freeze({
  permission: 'ask' as const,
  timeoutMs: 30_000,
  /** How long one element may cover a click's or a type's target before the action fails, naming it. */
  coveredTimeoutMs: 2_000,
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
  coveredTimeoutMs: number;
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
  if (isolation !== 'context' && isolation !== 'process' && isolation !== 'none') {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `isolation must be "context", "process" or "none", got ${JSON.stringify(isolation)}`);
  }
  return {
    permission,
    approve: options.approve,
    timeoutMs: nonNegativeInteger(options.timeoutMs, 'timeoutMs', TOOL_DEFAULTS.timeoutMs, 1),
    coveredTimeoutMs: nonNegativeInteger(options.coveredTimeoutMs, 'coveredTimeoutMs', TOOL_DEFAULTS.coveredTimeoutMs),
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

/** An inline file checked and decoded: a plain file name, and its bytes. */
function decodeInline(file: InlineFile, field: string): { name: string; bytes: Buffer } {
  if (file === null || typeof file !== 'object') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field} must be a path or { name, content, encoding? }`);
  const { name, content, encoding = 'utf8' } = file;
  if (typeof name !== 'string' || name === '' || name !== path.basename(name) || name === '.' || name === '..' || name.includes('\0')) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}.name must be a plain file name (no folders), such as receipt.pdf`);
  }
  if (encoding !== 'utf8' && encoding !== 'base64') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}.encoding must be "utf8" or "base64"`);
  if (content instanceof Uint8Array) return { name, bytes: Buffer.from(content.buffer, content.byteOffset, content.byteLength) };
  if (typeof content !== 'string') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}.content must be a string (or bytes)`);
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(content.replace(/\s+/g, ''))) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}.content is not valid base64`);
  }
  return { name, bytes: Buffer.from(content, encoding) };
}

/** `name`, or `name (1).ext`, … : the first that does not exist in `folder` yet. */
function uniqueName(folder: string, name: string): string {
  const extension = path.extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let index = 0; ; index++) {
    const candidate = index === 0 ? name : `${stem} (${index})${extension}`;
    if (!existsSync(path.join(folder, candidate))) return candidate;
  }
}

function readMode(value: unknown): SnapshotMode {
  if (value === undefined) return 'full';
  if (value !== 'full' && value !== 'diff' && value !== 'none') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `snapshot must be "full", "diff" or "none", got ${JSON.stringify(value)}`);
  return value;
}

/** Where a session's page lives: which host, and whether that host is the session's own (process isolation). */
interface PageBackend {
  /** The session's private REPL: it runs the tool operations, and the session's cells. */
  repl: Repl;
  /** The session's Playwright executor, made on the first `executePlaywright`. */
  executor?: PlaywrightExecutor | undefined;
  /** The host it lives in; `ownHost` too when that host is the session's own (process isolation). */
  host: Browser;
  ownHost: Browser | undefined;
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
  /**
   * What the next diff of each tab compares with, by target id: a diff after switching back to a
   * tab compares with that tab as it was last read, not with the other tab.
   */
  readonly #baselines = new Map<string, SnapshotBaseline>();
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
    return this.#serial(() => this.#act({ op: 'click', ref: readRef(ref), doubleClick: options.doubleClick === true, ...this.#timing(), coveredMs: this.#config.coveredTimeoutMs }, options), options.signal);
  }

  type(ref: Ref, text: string, options: ActionOptions & { submit?: boolean } = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (typeof text !== 'string') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'text must be a string');
      return this.#act({ op: 'type', ref: readRef(ref), text, submit: options.submit === true, ...this.#timing(), coveredMs: this.#config.coveredTimeoutMs }, options);
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

  uploadFile(ref: Ref, files: UploadSource[], options: ActionOptions = {}): Promise<ActionResult> {
    return this.#serial(async () => {
      if (!Array.isArray(files) || files.length === 0) {
        throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'files must be a non-empty array of paths in the workspace or of { name, content } files');
      }
      const target = readRef(ref);
      return this.#act({ op: 'upload', ref: target, paths: this.#uploadPaths(files), ...this.#timing() }, options);
    }, options.signal);
  }

  /** The workspace paths of `files`: given paths checked, inline files written to `uploads/` (under a name not taken yet). */
  #uploadPaths(files: UploadSource[]): string[] {
    const decoded = files.map((file, index) => (typeof file === 'string' ? file : decodeInline(file, `files[${index}]`)));
    const total = decoded.reduce((sum, file) => sum + (typeof file === 'string' ? 0 : file.bytes.length), 0);
    if (total > LIMITS.inlineUploadBytes) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `files: the inline files hold ${total} bytes, more than the ${LIMITS.inlineUploadBytes} a call may hand over; put bigger files into the workspace first and give their paths`);
    }
    return decoded.map((file, index) => {
      if (typeof file === 'string') return this.workspace.resolve(file, `files[${index}]`);
      const folder = this.workspace.ensure('uploads');
      const name = uniqueName(folder, file.name);
      const destination = this.workspace.resolve(`uploads/${name}`, `files[${index}].name`);
      writeFileSync(destination, file.bytes);
      return destination;
    });
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

  /** The session's downloads, saved ones first; one started a moment ago is waited for briefly, then listed as running. */
  downloads(): Promise<DownloadInfo[]> {
    return this.#serial(async () => {
      const outcome = await this.#call({ op: 'downloads' }, false, undefined);
      const saved: DownloadInfo[] = (outcome.downloads ?? []).map((file) => ({ state: 'completed', ...file }));
      const running: DownloadInfo[] = (outcome.pendingDownloads ?? []).map((download) => ({
        state: 'in progress', path: '', suggestedFilename: download.suggestedFilename, url: download.url, bytes: 0,
      }));
      return [...saved, ...running];
    }, undefined);
  }

  /** The session's trace of actions (docs/trace.md); empty while the session has no page. */
  trace(options: { secrets?: boolean; clear?: boolean } = {}): Promise<SessionTrace> {
    return this.#serial(async () => {
      if (this.#backend === undefined) return { entries: [], dropped: 0 };
      const operation: ToolOperation = { op: 'trace' };
      if (options.secrets === true) operation.secrets = true;
      if (options.clear === true) operation.clear = true;
      const outcome = await this.#call(operation, false, undefined);
      return outcome.trace ?? { entries: [], dropped: 0 };
    }, undefined);
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
      try {
        return await tools.invokeTool(toolRef, input, { scope, timeoutSec: options.timeoutSec, signal: options.signal });
      } catch (error) {
        // The monitor words a stale ref for cells (webmcp.listTools()); the tools have their own.
        if ((error as { code?: unknown }).code !== 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND') throw error;
        throw new ReplError('REPL_ERR_WEBMCP_TOOL_NOT_FOUND',
          `webmcp_invoke_tool: tool_ref ${JSON.stringify(toolRef)} names no page tool of this session (it was unregistered, or its page navigated or closed); list them again with webmcp_list_tools`,
          { cause: error });
      }
    }, options.signal);
  }

  /**
   * Runs a cell of JavaScript in the session's own REPL (docs/mcp.md "Code tools"): the worker
   * that runs the tools, attached to the session's active tab, in its browser context (cookies),
   * with bindings nobody else sees. Serialised with the tools' calls.
   */
  runCell(code: string, options: { timeoutSec?: number; signal?: AbortSignal } = {}): Promise<CellResult> {
    return this.#serial(async () => {
      if (typeof code !== 'string' || code === '') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'code must be a non-empty string');
      const operation = Operation.fromTimeoutSec(options.timeoutSec, CELL_TIMEOUT, { signal: options.signal, code: 'REPL_ERR_INVALID_ARGUMENT' });
      const { repl } = await this.#backendOf();
      return repl.run(code, { operation });
    }, options.signal);
  }

  /**
   * Runs Playwright code (an async function body of `page`, `context`, `browser`) on the session's
   * active tab with an executor of the session's own: its Playwright sees the session's tabs only,
   * and the session's browser context as `context` (docs/mcp.md "Code tools").
   */
  executePlaywright(code: string, options: { timeoutSec?: number; signal?: AbortSignal } = {}): Promise<PlaywrightExecuteResult> {
    return this.#serial(async () => {
      if (typeof code !== 'string' || code === '') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'code must be a non-empty string');
      const operation = Operation.fromTimeoutSec(options.timeoutSec, CELL_TIMEOUT, { signal: options.signal, code: 'REPL_ERR_INVALID_ARGUMENT' });
      const backend = await this.#backendOf();
      const executors = backend.host.executors;
      if (executors === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this host runs without a browser, so without Playwright executors');
      const owner = `tools:${this.sessionId}` as const;
      backend.executor ??= executors.privateExecutor(owner, async () => {
        const registry = backend.host.tabs;
        await registry?.adoptPopups().catch(() => undefined);
        const own = registry?.peek(owner);
        const active = this.#lastRead?.tabs.find((tab) => tab.active)?.targetId;
        return {
          activeTargetId: active ?? own,
          ownTargetIds: [own, ...(registry?.popupsOf(owner) ?? [])].filter((targetId): targetId is string => targetId !== undefined),
          browserContextId: registry?.contextOf(owner),
        };
      });
      return backend.executor.execute(code, operation);
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
    // The action's own wait and settle, and a margin for the round trip: the budget of the call.
    const budget = ('timeoutMs' in operation ? operation.timeoutMs : this.#config.timeoutMs) + ('settleMs' in operation ? operation.settleMs : 0) + CALL_SLACK_MS;
    let outcome: ToolOutcome;
    try {
      outcome = await repl.tool(operation, { read: read || operation.op === 'read', operation: new Operation({ timeoutMs: budget, signal }) });
    } catch (error) {
      throw this.#reworded(operation, error);
    }
    if (outcome.read !== undefined) this.#lastRead = outcome.read;
    return outcome;
  }

  /**
   * A failure of `operation` in the tools' words (tool-wording.ts): the target and the cover's
   * controls as the latest snapshot shows them. Errors without a registry code (a bug) pass as they are.
   */
  #reworded(operation: ToolOperation, error: unknown): unknown {
    const code = (error as { code?: unknown } | null)?.code;
    if (!(error instanceof Error) || typeof code !== 'string' || code === 'REPL_ERR_ABORTED' || code === 'REPL_ERR_CLOSED') return error;
    const elements = new Map((this.#lastRead?.elements ?? []).map((element) => [element.ref, element]));
    const describe = (ref: number) => elements.get(ref) ?? { ref, tag: 'element', label: '' };
    const data = (error as { data?: Record<string, unknown> }).data;
    const cover = data?.['cover'] as { description: string; label: string; refs: number[] } | undefined;
    return toolError({ code, message: error.message, data }, {
      operation,
      target: 'ref' in operation && operation.ref !== undefined ? describe(operation.ref) : undefined,
      cover: cover === undefined ? undefined : { description: cover.description, label: cover.label, controls: cover.refs.map(describe) },
      timeoutMs: 'timeoutMs' in operation ? operation.timeoutMs : undefined,
    });
  }

  async #act(operation: ToolOperation, options: ActionOptions): Promise<ActionResult> {
    const mode = readMode(options.snapshot);
    const outcome = await this.#call(operation, mode !== 'none', options.signal);
    const effects = outcome.effects === undefined ? [] : renderEffects(outcome.effects, (file) => this.workspace.relative(file));
    const result: ActionResult = { message: [outcome.message, ...effects].join('\n') };
    if (outcome.effects !== undefined) result.effects = outcome.effects;
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
    const tab = read.tabs.find((candidate) => candidate.active)?.targetId ?? '';
    const baseline = this.#baselines.get(tab);
    let snapshot: ToolSnapshot;
    if (mode === 'diff') {
      snapshot = diffSnapshot(baseline, read, caps);
    } else {
      snapshot = fullSnapshot(read, caps);
      if (snapshot.textTruncated) {
        // The whole text stays readable (an MCP resource), so a cap never hides the page for good.
        const file = path.join(this.workspace.ensure('snapshots'), `snapshot-${++this.#snapshots}.txt`);
        writeFileSync(file, read.text);
        snapshot.fullTextPath = this.workspace.relative(file);
      }
    }
    const next = nextBaseline(baseline, read);
    if (next !== undefined) this.#baselines.set(tab, next);
    // Tabs that closed take their baseline with them.
    for (const targetId of this.#baselines.keys()) if (targetId !== tab && !read.tabs.some((candidate) => candidate.targetId === targetId)) this.#baselines.delete(targetId);
    if (pageTools > 0) snapshot.pageTools = pageTools;
    snapshot.chars = renderSnapshot(snapshot).length;
    return snapshot;
  }

  async #closePage(): Promise<void> {
    clearTimeout(this.#idleTimer);
    const opening = this.#opening;
    const backend = this.#backend ?? (opening === undefined ? undefined : await opening.catch(() => undefined));
    this.#backend = undefined;
    this.#baselines.clear();
    this.#lastRead = undefined;
    if (backend === undefined) return;
    if (backend.executor !== undefined) await backend.host.executors?.releasePrivate(backend.executor);
    await backend.repl.close();
    backend.host.tabs?.downloads.setFolder(`tools:${this.sessionId}`, undefined);
    await backend.ownHost?.close();
  }
}

/** The tool service; see the module comment. `close()` ends every session. */
export class BrowserTools {
  readonly #options: BrowserToolsOptions & { host?: Browser | undefined };
  readonly #config: ResolvedConfig;
  readonly #pages = new Map<string, ToolPage>();
  readonly #workspaceRoot: string;
  readonly #ownsWorkspace: boolean;
  /** The host whose browser context-isolated sessions share: the given one, or one launched on first use. */
  #sharedHost: Browser | undefined;
  readonly #ownsSharedHost: boolean;
  /** close() of the service, run once for all callers (common/resource.ts). */
  readonly #lifecycle = lifecycleOf({ closeGracefully: () => this.#closeService() });

  constructor(options: BrowserToolsOptions & { host?: Browser | undefined } = {}) {
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
    return this.#lifecycle.closed;
  }

  /** Ids of the sessions that exist (open or not). */
  get sessionIds(): string[] {
    return [...this.#pages.keys()];
  }

  /** The page of `sessionId`, created on first use (its browser page opens on its first call). */
  page(sessionId: string): ToolPage {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the browser tools are closed');
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

  /**
   * Closes the session's page and forgets the session; its workspace stays until `close()` (which
   * removes a temporary one). `close()` without a session ends the service: concurrent callers
   * share one promise (common/resource.ts).
   */
  close(sessionId?: string): Promise<void> {
    if (sessionId === undefined) return this.#lifecycle.close();
    const page = this.#pages.get(sessionId);
    this.#pages.delete(sessionId);
    return page?.dispose() ?? Promise.resolve();
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const pages = [...this.#pages.values()];
    this.#pages.clear();
    await Promise.all(pages.map((page) => page.dispose()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#lifecycle.close();
  }

  /** @internal A session's page: a private REPL in the shared browser, or in a browser of its own. */
  async openBackend(sessionId: string): Promise<PageBackend> {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the browser tools are closed');
    const page = this.#pages.get(sessionId);
    const owner = `tools:${sessionId}` as const;
    const host = this.#config.isolation === 'process' ? this.#newHost(sessionId) : (this.#sharedHost ??= this.#newHost('shared'));
    const repl = host.privateRepl({ tabOwner: owner, isolated: this.#config.isolation === 'context' });
    if (page !== undefined) host.tabs?.downloads.setFolder(owner, page.workspace.ensure('downloads'));
    return { repl, host, ownHost: this.#config.isolation === 'process' ? host : undefined, createdAt: new Date() };
  }

  #newHost(id: string): Browser {
    const { executable, args, headless, noSandbox } = this.#options;
    const base = this.#options.host?.chromium;
    // A session browser is launched like the shared one: the given host's launch options, or the
    // reference plugin's table.
    const launch = {
      ...(executable === undefined ? {} : { executable }),
      ...(args === undefined ? {} : { args }),
      ...(headless === undefined ? {} : { headless }),
      ...(noSandbox === undefined ? {} : { noSandbox }),
    };
    return new Browser({ id: `tools-${id}`, browser: base !== undefined && base !== null && Object.keys(launch).length === 0 ? base.options : launch, warmSpare: false });
  }

  async #closeService(): Promise<void> {
    await this.closeAll();
    if (this.#ownsSharedHost) await this.#sharedHost?.close();
    if (this.#ownsWorkspace) new Workspace(this.#workspaceRoot).remove();
  }
}

/** Creates a tool service (docs/agent-tools.md, "Using the library"). */
export function createBrowserTools(options: BrowserToolsOptions & { host?: Browser } = {}): BrowserTools {
  return new BrowserTools(options);
}
