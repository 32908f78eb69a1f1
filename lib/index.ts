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
export { BrowserHost, MAX_NAMED_REPLS } from './host/browser-host.js';
export type { BrowserHostOptions, ReplInfo } from './host/browser-host.js';
export { TabRegistry } from './browser/tab-registry.js';
export type { OwnedTab, TabOwner, TabRegistryOptions } from './browser/tab-registry.js';
export { HostRegistry } from './host/host-registry.js';
export { BrowserSession, BrowserSessions, DEFAULT_TIMEOUT_SECONDS, defaultMaxBrowsers } from './host/browser-sessions.js';
export type { BrowserSessionInit, BrowserSessionsOptions, Tags } from './host/browser-sessions.js';
export { BrowserManager } from './browser/browser-manager.js';
export type { BrowserManagerOptions } from './browser/browser-manager.js';
export { findChromium } from './browser/find-chromium.js';
export { PlaywrightExecutors, MAX_NAMED_EXECUTORS } from './executor/executor-registry.js';
export type { PlaywrightExecuteRequest, PlaywrightExecutorsOptions } from './executor/executor-registry.js';
export { PlaywrightExecutor } from './executor/playwright-executor.js';
export type {
  PlaywrightExecuteResult, PlaywrightExecutorInfo, PlaywrightOutput, PlaywrightTab, WireExecuteResult, WireExecutor,
} from './executor/execute-result.js';
export type { PlaywrightEngine } from '../common/protocol/executor-messages.js';
export { liveExecutorThreads } from './executor/executor-worker.js';
export { createApp } from './http/create-app.js';
export type { AppOptions, BrowserReplApp } from './http/create-app.js';
export { startServer } from './http/server.js';
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
