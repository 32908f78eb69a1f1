/**
 * `chromium-repl/client`: a typed, fetch-based client of the HTTP API (docs/client.md). It
 * imports nothing else of this package, so it bundles for any runtime with `fetch`.
 */
export { ClientError, createClient } from './client.js';
export type {
  Browser,
  BrowserCreateParams,
  BrowserPage,
  BrowserUpdateParams,
  BrowserViewport,
  CallOptions,
  CellRunning,
  CellStarted,
  ChromiumReplClient,
  ClientErrorCode,
  ClientOptions,
  ErrorBody,
  ExecuteInterruptRequest,
  ExecuteInterruptResult,
  ExecuteOutput,
  ExecuteRequest,
  ExecuteResult,
  ExecuteStreamEvent,
  ReplContent,
  ReplInfo,
  ReplInterruptRequest,
  ReplInterruptResult,
  ReplRequest,
  ReplResult,
  ReplStreamEvent,
  WebMcpInvocation,
  WebMcpInvokeRequest,
  WebMcpOutcomeUnknown,
  WebMcpTool,
} from './client.js';
export { parseEventStream, SseParser } from './sse.js';
export type { SseEvent } from './sse.js';
export type { components, operations, paths } from './openapi-types.js';
