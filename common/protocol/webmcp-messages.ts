/**
 * WebMCP's part of the worker protocols (REPL and executor alike): a worker's `webmcp` client asks
 * the main thread, which owns the one WebMCP monitor of the browser (lib/webmcp), to list or invoke
 * page tools. These are the only requests a worker starts besides `endpoint-request`; each carries
 * a `callId` of the worker's own, and `webmcp-abort` ends one early (its cell finished, its signal
 * aborted). The shapes of tools and invocations are Kernel's (docs/webmcp.md), snake_case included.
 */
import type { SerializedError } from '../errors.js';

/** The four annotation booleans a listed tool carries when the page declared any. */
export interface WebMcpAnnotations {
  readOnlyHint: boolean;
  untrustedContentHint: boolean;
  consequentialHint: boolean;
  autosubmit: boolean;
}

/** One page-declared tool as `webmcp.listTools()`, `GET /webmcp/tools` and MCP list it. */
export interface WebMcpTool {
  /** Opaque, stable while this registration lives (`wmcp_` + 24 characters); dies with the tool, its frame or its tab. */
  tool_ref: string;
  tool: {
    name: string;
    description: string;
    /** The tool's JSON Schema; `{}` when the page declared none (or Chromium did not report it). */
    inputSchema: unknown;
    annotations?: WebMcpAnnotations;
  };
  source: {
    window_id: number;
    tab_id: number;
    /** Title and URL (without fragment) of the top-level document of the tab, also for tools in frames. */
    page_title: string;
    page_url: string;
    /** Null for a tool of the top-level document. */
    frame: { frame_id: number; url: string } | null;
    /** CDP target id of the tab (an addition to Kernel's shape): `switchTab(target_id)` attaches it. */
    target_id: string;
  };
}

/** How an invocation ended (`outcome_unknown` is an error, never a status). */
export type WebMcpStatus = 'completed' | 'canceled' | 'error' | 'awaiting_submission';

export interface WebMcpInvocation {
  invocation_id: string;
  status: WebMcpStatus;
  /** The tool's JSON result (completed), or `{form_populated: true, submitted: false}` (awaiting_submission). Untrusted page data. */
  output?: unknown;
  /** Why it failed (error), when anything says so. */
  error_text?: string;
}

// ----- worker → main -------------------------------------------------------------------------

export interface WebMcpCallMessage {
  type: 'webmcp-call';
  /** The worker's own id of this call; the reply and an abort repeat it. */
  callId: number;
  operation: 'list' | 'invoke';
  /** invoke: the ref from a listing. */
  toolRef?: string;
  /** invoke: `JSON.stringify` of the input (the worker serialises, so JSON semantics and the size check apply before anything crosses). */
  inputJson?: string;
  /** invoke: 1..120, default 60. */
  timeoutSec?: number;
}

/** The call's cell ended or its signal aborted: stop waiting (and cancel the page's invocation, best effort). */
export interface WebMcpAbortMessage {
  type: 'webmcp-abort';
  callId: number;
}

// ----- main → worker -------------------------------------------------------------------------

export interface WebMcpReplyMessage {
  type: 'webmcp-reply';
  callId: number;
  tools?: WebMcpTool[];
  invocation?: WebMcpInvocation;
  /** Why the call failed; `data.statusCode` is the HTTP status the route would answer (404, 400, 504, …). */
  error?: SerializedError;
}
