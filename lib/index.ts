/**
 * chromium-repl's public API. Everything importable from the package is exported here; nothing
 * else is reachable (package.json `exports`).
 */
export { Repl } from './repl/repl.js';
export type { ReplOptions, ReplState, RunOptions } from './repl/repl.js';
export { toWireResult } from './repl/cell-result.js';
export type {
  CellContent, CellResult, ImageContent, TextContent, WireCellResult, WireImageContent, WireTextContent,
} from './repl/cell-result.js';
export { Browser, MAX_NAMED_REPLS } from './browsers/browser.js';
export type { BrowserListing, BrowserOptions, ReplInfo, Tags } from './browsers/browser.js';
export { TabRegistry } from './chromium/tab-registry.js';
export type { OwnedTab, TabOwner, TabRegistryOptions } from './chromium/tab-registry.js';
export { Browsers, DEFAULT_TIMEOUT_SECONDS, defaultMaxBrowsers } from './browsers/browsers.js';
export type { BrowserInit, BrowsersOptions } from './browsers/browsers.js';
export { BrowserManager } from './chromium/browser-manager.js';
export type { BrowserManagerOptions } from './chromium/browser-manager.js';
export { findChromium } from './chromium/find-chromium.js';
export { PlaywrightExecutors, MAX_NAMED_EXECUTORS } from './executor/executor-registry.js';
export type { PlaywrightExecuteRequest, PlaywrightExecutorsOptions } from './executor/executor-registry.js';
export { PlaywrightExecutor } from './executor/playwright-executor.js';
export type {
  PlaywrightExecuteResult, PlaywrightExecutorInfo, PlaywrightOutput, PlaywrightTab, WireExecuteResult, WireExecutor,
} from './executor/execute-result.js';
export type { PlaywrightEngine } from '../common/protocol/executor-messages.js';
export { liveExecutorThreads } from './executor/executor-worker.js';
export { createApp } from './http/create-app.js';
export type { AppOptions, BrowserReplApp, Readiness } from './http/create-app.js';
export { ServerMetrics } from './http/metrics.js';
export type { MetricsSources } from './http/metrics.js';
export { channels as diagnosticsChannels } from '../common/diagnostics.js';
export type {
  CellFinishMessage, ChromiumExitMessage, ChromiumLaunchMessage, ExecuteFinishMessage, ExecuteOutcome, WorkerExitMessage,
} from '../common/diagnostics.js';
export { defaultHeapMb, derivedMaxBrowsers, memoryLimit } from '../common/memory-budget.js';
export type { MemoryLimit } from '../common/memory-budget.js';
export { DEFAULT_DRAIN_MS, startServer } from './http/server.js';
export type { BrowserReplServer, ServerOptions } from './http/server.js';
export { ERROR_CODES, ReplError } from '../common/errors.js';
export type { ErrorCode, ErrorDefinition } from '../common/errors.js';
export { LIMITS } from '../common/limits.js';
export { liveWorkerThreads } from './repl/repl-worker.js';
export { HELP_ENTRIES } from '../common/help/help-registry.js';
export type { HelpEntry } from '../common/help/help-registry.js';

import { Repl } from './repl/repl.js';
import type { ReplOptions } from './repl/repl.js';

/** Creates a REPL without HTTP. Its worker starts on the first `run()`. */
export function createRepl(options: ReplOptions = {}): Repl {
  return new Repl(options);
}

// ----- agent browser tools (lib/tools; docs/agent-tools.md) ----------------------------------
export { BrowserTools, ToolPage, TOOL_DEFAULTS, createBrowserTools } from './tools/tool-service.js';
export { UrlPolicy } from './tools/policy.js';
export { renderAction, renderElement, renderFind, renderSnapshot } from './tools/render.js';
export type {
  ActionEffects, ActionOptions, ActionResult, BrowserToolsOptions, DownloadInfo, ElementState, FindMatch, InlineFile, Isolation, OpenApprovalRequest,
  OpenApprover, OpenDialog, PageOverlay, PageSnapshot, Ref, ScreenshotOptions, ScreenshotResult, SessionStatus, SnapshotDiff, SnapshotElement,
  SnapshotMode, StartedDownload, ToolPageApi, ToolSnapshot, ToolTab, UploadSource,
} from './tools/types.js';

// ----- MCP server (lib/mcp; docs/mcp.md) -----------------------------------------------------
export { createMcpServer, MCP_SERVER_NAME, MCP_SERVER_VERSION } from './mcp/mcp-server.js';
export type { CreateMcpServerOptions, McpToolService } from './mcp/mcp-server.js';
export { McpHttpSessions } from './mcp/http-sessions.js';
export type { McpHttpSessionsOptions } from './mcp/http-sessions.js';
export { mcpRoutes } from './http/routes/mcp-routes.js';
export type { McpRoutesOptions } from './http/routes/mcp-routes.js';
export { TOOLS as MCP_TOOLS } from './mcp/tools.js';
export type { McpTool, ToolContext as McpToolContext, ToolKind as McpToolKind } from './mcp/tools.js';
export type { McpCapability } from './mcp/capabilities.js';
export { WORKSPACE_URI_TEMPLATE } from './mcp/workspace-files.js';
export { WebMcpMonitor } from './webmcp/webmcp-monitor.js';
export type { WebMcpMonitorOptions } from './webmcp/webmcp-monitor.js';
export type { WebMcpAnnotations, WebMcpInvocation, WebMcpInvokeOptions, WebMcpListOptions, WebMcpScope, WebMcpStatus, WebMcpTool, WebMcpTools } from './webmcp/types.js';
export type { WebMcpCallHandler } from './threads/worker-handle.js';
export type { WebMcpCallMessage } from '../common/protocol/webmcp-messages.js';
