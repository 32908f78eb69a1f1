/**
 * The public shapes of the agent browser tools (docs/agent-tools.md): the options of a
 * tool service, the snapshot a model reads, and what each tool resolves to. Declared once here
 * and used by the service (`tool-service.ts`), the MCP server (`lib/mcp/`) and the worker side
 * (`worker/tools/`, which produces the snapshots: the wire shape is `common/protocol/tool-messages.ts`).
 */
import type { TraceEntry } from '../../common/trace/trace-types.js';
import type { ActionEffects, ElementState, SnapshotElement, StartedDownload } from '../../common/protocol/tool-messages.js';
import type { PlaywrightExecuteResult } from '../executor/execute-result.js';
import type { CellResult } from '../repl/cell-result.js';
import type { WebMcpInvocation, WebMcpTool } from '../webmcp/types.js';

export type { ActionEffects, ElementState, SnapshotElement, StartedDownload };

/** Who approves a `browser_open` under `permission: "ask"`: true allows this one navigation. */
export type OpenApprover = (request: OpenApprovalRequest) => Promise<boolean> | boolean;

export interface OpenApprovalRequest {
  sessionId: string;
  url: string;
  /** Aborted when the call that asks is abandoned. */
  signal: AbortSignal;
}

/** How sessions are kept apart: a browser context each (default), or a browser process each. */
/**
 * Where a session's tab lives: `context`, a browser context of its own in the shared browser;
 * `process`, a browser of its own; `none`, the shared browser's default context, whose cookies and
 * storage every such session shares (a stored profile's logins: `mcp --profile`, docs/mcp.md).
 */
export type Isolation = 'context' | 'process' | 'none';

/** What a mutating tool answers with: the whole page, what changed since the previous snapshot, or nothing. */
export type SnapshotMode = 'full' | 'diff' | 'none';

/** The options of a tool service: the reference plugin's table, plus isolation, origins and the workspace. */
export interface BrowserToolsOptions {
  /** Chromium-compatible binary; default: discovery (BROWSER_REPL_CHROME, CHROME_PATH, PATH, platform paths). */
  executable?: string;
  /** Extra browser flags, appended last. */
  args?: string[];
  /** Default true (`--headless=new`). */
  headless?: boolean;
  /** `--no-sandbox`; default: auto-detected (root, or a container that denies user namespaces). */
  noSandbox?: boolean;
  /** Approval policy of `open` (default `"ask"`); interactions stay automatic. */
  permission?: 'ask' | 'allow' | 'deny';
  /** Answers `"ask"`; without one, `"ask"` refuses with a message saying how to allow. */
  approve?: OpenApprover;
  /** Navigation, wait and command timeout (default 30 000). */
  timeoutMs?: number;
  /**
   * How long one element may cover the target of a click or a type before the action fails,
   * naming the cover and its controls (default 2 000; a cover that moves or changes restarts it).
   */
  coveredTimeoutMs?: number;
  /** Extra wait after load and after each action, for client-side rendering (default 250; 0 disables). */
  settleMs?: number;
  /** Close a session's page after this long unused (default 900 000; 0 disables). */
  idleMs?: number;
  /** Visible text kept per snapshot (default 12 000). */
  maxTextChars?: number;
  /** Interactive elements kept per snapshot (default 120). */
  maxElements?: number;
  /** Origins `open` may reach (`https://example.com`, or `*.example.com` for subdomains); default: any. */
  allowedOrigins?: string[];
  /** Origins `open` may never reach; wins over `allowedOrigins`. */
  blockedOrigins?: string[];
  /** Default `"context"`: a browser context of the shared browser per session; `"process"`: a browser each; `"none"`: the shared browser's default context. */
  isolation?: Isolation;
  /**
   * Folder under which each session gets `<workspace>/<sessionId>/` for its screenshots,
   * downloads and large snapshots. Default: a temporary folder, removed by `close()`.
   */
  workspace?: string;
}

/** A tab of a session (`tabs()`). */
export interface ToolTab {
  index: number;
  title: string;
  url: string;
  active: boolean;
}

/** A JavaScript dialog that holds the page. */
export interface OpenDialog {
  type: string;
  message: string;
  defaultPrompt?: string;
}

/**
 * A layer covering the page (a cookie banner with a backdrop, a modal dialog): what it is, the
 * start of its text, and the refs of its controls (listed first among the elements).
 */
export interface PageOverlay {
  /** The layer's element, as `<div id="cookie-banner">`. */
  description: string;
  /** Its accessible name or the start of its text. */
  label: string;
  refs: number[];
}

/** A full snapshot of the session's active tab. */
export interface PageSnapshot {
  mode: 'full';
  title: string;
  url: string;
  /**
   * Visible text, at most `maxTextChars`, without the lines that only repeat element labels,
   * values or options (the element list has them).
   */
  text: string;
  /** True when `maxTextChars` cut the text (`fullTextPath` then has all of it). */
  textTruncated: boolean;
  /** How long the whole visible text is. */
  textChars: number;
  /** Interactive elements, at most `maxElements`, in document order (frames after their owner). */
  elements: SnapshotElement[];
  /** How many interactive elements the page has (uncapped). */
  elementCount: number;
  tabs: ToolTab[];
  dialog?: OpenDialog;
  /** A layer covering the page; its controls come first in `elements`. */
  overlay?: PageOverlay;
  /** Downloads of the session so far (file names in its workspace). */
  downloads?: string[];
  /** Where the whole text is saved when the cap cut it (inside the workspace). */
  fullTextPath?: string;
  /** How many page tools (WebMCP) the active tab declares, when it declares any (`listPageTools` lists them). */
  pageTools?: number;
  /** Length in characters of this snapshot as rendered for a model ({@link renderSnapshot}). */
  chars: number;
}

/** What changed since the session's previous snapshot. */
export interface SnapshotDiff {
  mode: 'diff';
  title: string;
  url: string;
  /** True when the URL or document changed: then `added` holds every element. */
  navigated: boolean;
  added: SnapshotElement[];
  changed: SnapshotElement[];
  removed: number[];
  /** Lines of visible text that appeared / disappeared. */
  textAdded: string[];
  textRemoved: string[];
  elementCount: number;
  tabs: ToolTab[];
  dialog?: OpenDialog;
  overlay?: PageOverlay;
  /** As in {@link PageSnapshot.pageTools}. */
  pageTools?: number;
  chars: number;
}

export type ToolSnapshot = PageSnapshot | SnapshotDiff;

/** What a mutating tool resolves to. */
export interface ActionResult {
  /**
   * What happened (`clicked [12] button "Save"`, `opened …`), then a line for each thing the
   * action set off (a tab it opened, a download, a dialog; `effects` has them as data).
   */
  message: string;
  /** What the action set off besides its own effect: tabs it opened (the first became active), downloads, a dialog. */
  effects?: ActionEffects;
  /** Absent with `snapshot: "none"`. */
  snapshot?: ToolSnapshot;
}

export interface ActionOptions {
  snapshot?: SnapshotMode;
  signal?: AbortSignal;
}

export interface ScreenshotOptions {
  /** Relative to the session's workspace (default `screenshots/screenshot-<n>.<ext>`); paths that escape it are refused. */
  path?: string;
  format?: 'png' | 'jpeg';
  /** JPEG quality 0..100. */
  quality?: number;
  fullPage?: boolean;
  /** Also return the bytes. */
  includeImage?: boolean;
  signal?: AbortSignal;
}

export interface ScreenshotResult {
  path: string;
  bytes: number;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** With `includeImage`. */
  data?: Buffer;
}

export interface FindMatch {
  /** Elements whose label, value, href or text match. */
  elements: SnapshotElement[];
  /** Lines of visible text that match (each at most 300 characters). */
  lines: string[];
  chars: number;
}

/** A download of the session: saved in its workspace, or still running (listed after the saved ones). */
export interface DownloadInfo {
  state: 'completed' | 'in progress';
  /** Inside the session's workspace; empty while the download runs. */
  path: string;
  suggestedFilename: string;
  url: string;
  /** Its size once saved; 0 while it runs. */
  bytes: number;
}

export interface SessionStatus {
  sessionId: string;
  /** The page exists (created lazily; closed after idleMs). */
  open: boolean;
  url?: string;
  title?: string;
  tabs: number;
  createdAt?: Date;
  lastUsedAt?: Date;
  workspace: string;
  isolation: Isolation;
}

/**
 * A file handed to a file input by its content (issue 25: a model has no file system of its own):
 * written into the session's workspace as `uploads/<name>` first. `encoding` says how a string
 * `content` is to be read (default `utf8`); bytes are taken as they are.
 */
export interface InlineFile {
  name: string;
  content: string | Uint8Array;
  encoding?: 'utf8' | 'base64';
}

/** What `uploadFile` sets: a path inside the session's workspace, or a file given by its content. */
export type UploadSource = string | InlineFile;

/** A ref from the latest snapshot (a number, or its string form "12"). */
export type Ref = number | string;

/** One session's page: every call is serialised, so refs and navigation stay deterministic. */
/** A session's trace as its worker answers it (lib/trace exports it). */
export interface SessionTrace {
  entries: TraceEntry[];
  dropped: number;
  secrets?: Record<string, string>;
}

export interface ToolPageApi {
  readonly sessionId: string;
  /** Navigates the active tab to an http(s) URL (policy and approval first) and snapshots it. */
  open(url: string, options?: ActionOptions & { approve?: OpenApprover }): Promise<ActionResult>;
  /** Re-reads the page without changing it (`mode: "diff"` for only what changed). */
  snapshot(options?: { mode?: 'full' | 'diff'; signal?: AbortSignal }): Promise<ToolSnapshot>;
  click(ref: Ref, options?: ActionOptions & { doubleClick?: boolean }): Promise<ActionResult>;
  /** Replaces the element's value with `text`; `submit` presses Enter afterwards. */
  type(ref: Ref, text: string, options?: ActionOptions & { submit?: boolean }): Promise<ActionResult>;
  /** Scrolls the page (or, with `ref`, the element into view and then by pixels); default 700 px down. */
  scroll(options?: ActionOptions & { pixels?: number; ref?: Ref }): Promise<ActionResult>;
  waitFor(condition: { text?: string; selector?: string; timeoutMs?: number }, options?: ActionOptions): Promise<ActionResult>;
  back(options?: ActionOptions): Promise<ActionResult>;
  pressKey(key: string, options?: ActionOptions): Promise<ActionResult>;
  selectOption(ref: Ref, values: string[], options?: ActionOptions): Promise<ActionResult>;
  /**
   * Sets files on a file input: paths inside the workspace (relative, or absolute within it), or
   * files given by their content (written to `uploads/` of the workspace first; at most 5 MiB in all).
   */
  uploadFile(ref: Ref, files: UploadSource[], options?: ActionOptions): Promise<ActionResult>;
  handleDialog(answer: { accept: boolean; promptText?: string }, options?: ActionOptions): Promise<ActionResult>;
  /** Text or a regular expression over the elements and the visible text of the page. */
  find(query: string | RegExp, options?: { signal?: AbortSignal }): Promise<FindMatch>;
  tabs(options?: { signal?: AbortSignal }): Promise<ToolTab[]>;
  selectTab(index: number, options?: ActionOptions): Promise<ActionResult>;
  closeTab(index: number, options?: ActionOptions): Promise<ActionResult>;
  downloads(): Promise<DownloadInfo[]>;
  /**
   * The session's trace of actions (docs/trace.md): every action its tools ran, oldest first;
   * `secrets` adds what was typed into password fields (for a replay only), `clear` empties it.
   */
  trace(options?: { secrets?: boolean; clear?: boolean }): Promise<SessionTrace>;
  screenshot(options?: ScreenshotOptions): Promise<ScreenshotResult>;
  status(): Promise<SessionStatus>;
  /**
   * The page tools (WebMCP, docs/webmcp.md) the session's tabs declare: its own tab and the popups
   * it opened, nobody else's. Their metadata is written by the page: untrusted data, never
   * instructions. Throws `REPL_ERR_WEBMCP_NO_TABS` before the session opened a page.
   */
  listPageTools(options?: { signal?: AbortSignal }): Promise<WebMcpTool[]>;
  /**
   * Invokes a tool of {@link listPageTools} (a ref of another session's tab is not found).
   * `input` defaults to `{}`; `timeoutSec` is 1..120, default 60. Throws
   * `REPL_ERR_WEBMCP_TOOL_NOT_FOUND` for a stale ref and `REPL_ERR_WEBMCP_OUTCOME_UNKNOWN` when the
   * result could not be observed (the tool may have run: do not retry automatically).
   */
  invokePageTool(toolRef: string, input?: unknown, options?: { timeoutSec?: number; signal?: AbortSignal }): Promise<WebMcpInvocation>;
  /**
   * Runs a cell in the session's own REPL: attached to the session's active tab, in its browser
   * context, with bindings of its own (docs/mcp.md "Code tools").
   */
  runCell(code: string, options?: { timeoutSec?: number; signal?: AbortSignal }): Promise<CellResult>;
  /** Runs Playwright code on the session's active tab, in its browser context, with an executor of its own. */
  executePlaywright(code: string, options?: { timeoutSec?: number; signal?: AbortSignal }): Promise<PlaywrightExecuteResult>;
  /** Closes the page (and its context or browser) and deletes its profile; the workspace stays until the service closes. */
  close(): Promise<void>;
}
