/**
 * What the rest of the main thread sees of WebMCP (lib/webmcp): the tools of one browser, listed
 * and invoked in Kernel's shapes. A `Browser` owns one `WebMcpMonitor` (its own CDP
 * connection, started with the browser); the REPL and executor workers reach it through
 * `webmcp-call` messages, the HTTP routes and the MCP server call it directly.
 */
import type { WebMcpInvocation, WebMcpTool } from '../../common/protocol/webmcp-messages.js';

export type { WebMcpAnnotations, WebMcpInvocation, WebMcpStatus, WebMcpTool } from '../../common/protocol/webmcp-messages.js';

/** Which tabs a listing or an invocation may see. */
export interface WebMcpScope {
  /**
   * Only tabs of this browser context (an agent-tool session's isolated context). Absent: every
   * tab except those of contexts isolated for agent-tool sessions.
   */
  browserContextId?: string | undefined;
  /** Only these tabs (target ids), e.g. an agent-tool session of a host of its own. */
  targetIds?: readonly string[] | undefined;
}

export interface WebMcpListOptions {
  scope?: WebMcpScope | undefined;
  signal?: AbortSignal | undefined;
}

export interface WebMcpInvokeOptions {
  /** 1..120 seconds, default 60 (`REPL_ERR_INVALID_REQUEST` naming `timeout_sec` otherwise). */
  timeoutSec?: number | undefined;
  scope?: WebMcpScope | undefined;
  /** Aborting stops the wait, cancels the page's invocation (best effort) and rejects with `REPL_ERR_WEBMCP_OUTCOME_UNKNOWN`. */
  signal?: AbortSignal | undefined;
}

/**
 * The WebMCP tools of one browser.
 *
 * Errors (all `ReplError`): `REPL_ERR_INVALID_REQUEST` (bad `tool_ref`, `input`, `timeout_sec`;
 * nothing was sent to the browser), `REPL_ERR_WEBMCP_NO_TABS` (listing with no tab),
 * `REPL_ERR_WEBMCP_TOOL_NOT_FOUND` (stale ref), `REPL_ERR_WEBMCP_OUTCOME_UNKNOWN` (`data.invocationId`
 * when known), `REPL_ERR_CLOSED`, and the browser's own launch and connect errors.
 */
export interface WebMcpTools {
  /** Every live tool of the tabs in scope, sorted by window, tab, frame (top first), name. */
  listTools(options?: WebMcpListOptions): Promise<WebMcpTool[]>;
  /** Invokes one tool; `input` must be a plain object whose JSON is at most 1 MiB. */
  invokeTool(toolRef: string, input: unknown, options?: WebMcpInvokeOptions): Promise<WebMcpInvocation>;
  /**
   * How many tools the tab `targetId` declares right now (its frames included), from what the
   * monitor already knows: no waiting, no browser round trip. 0 while the monitor is not running.
   */
  countTools(targetId: string): number;
}
