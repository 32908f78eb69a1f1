/**
 * chromium-repl's public API (docs/api.md): the package's main entry exports this and nothing else
 * (package.json `exports` closes deep imports; `./testing` and `./client` are the other entries).
 * Internals the tests need (thread counts, the host registry, the routers) are imported from their
 * own modules. docs/api-report.md lists every export with its signature, and
 * test/unit/api-report.test.mjs fails when the two differ: a change of the surface is deliberate
 * (`npm run api-report` rewrites the report).
 */
export { Repl } from './repl/repl.js';
export type { ReplOptions, ReplState, RunOptions } from './repl/repl.js';
export { toWireResult } from './repl/cell-result.js';
export { Operation } from '../common/operation.js';
export type { OperationOptions, OperationStop } from '../common/operation.js';
export type { TimeoutRange } from '../common/timeout-sec.js';
export type { Deadline } from '../common/cdp/deadline.js';
export type {
  CellContent, CellResult, ImageContent, TextContent, WireCellResult, WireImageContent, WireTextContent,
} from './repl/cell-result.js';
export type { NotRestored, RestoreReport } from './repl/declaration-journal.js';
export { Browser, MAX_NAMED_REPLS } from './browsers/browser.js';
export type { BrowserListing, BrowserOptions, ReplInfo, Tags } from './browsers/browser.js';
export { TabRegistry } from './chromium/tab-registry.js';
export type { OwnedTab, TabOwner, TabRegistryOptions } from './chromium/tab-registry.js';
export { Browsers } from './browsers/browsers.js';
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
export { createApp } from './http/create-app.js';
export type { AppOptions, BrowserReplApp, Readiness } from './http/create-app.js';
export { channels as diagnosticsChannels } from '../common/diagnostics.js';
export type {
  CellFinishMessage, ChromiumExitMessage, ChromiumLaunchMessage, ExecuteFinishMessage, ExecuteOutcome, WorkerExitMessage,
} from '../common/diagnostics.js';
export { startServer } from './http/server.js';
export type { BrowserReplServer, ServerOptions } from './http/server.js';
export { ERROR_CODES, ReplError } from '../common/errors.js';
export type { ErrorCode, ErrorDefinition } from '../common/errors.js';
export { LIMITS } from '../common/limits.js';
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
export type { McpCapability } from './mcp/capabilities.js';
export { WORKSPACE_URI_TEMPLATE } from './mcp/workspace-files.js';
export type { WebMcpAnnotations, WebMcpInvocation, WebMcpInvokeOptions, WebMcpListOptions, WebMcpScope, WebMcpStatus, WebMcpTool, WebMcpTools } from './webmcp/types.js';
