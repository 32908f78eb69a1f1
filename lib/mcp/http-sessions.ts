/**
 * The streamable HTTP side of the MCP server: one `StreamableHTTPServerTransport` and one
 * {@link createMcpServer} object per MCP session, found by the `mcp-session-id` header. An
 * `initialize` request without a session id starts a session; `DELETE`, a closed transport, a
 * session unused past `sessionIdleMs` or {@link McpHttpSessions.close} ends it, and with it its
 * tool session (its page, context and profile).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { lifecycleOf } from '../../common/resource.js';
import { createMcpServer } from './mcp-server.js';
import type { McpToolService } from './mcp-server.js';
import type { McpCapability } from './capabilities.js';
import type { McpHandOver } from './tools.js';

export interface McpHttpSessionsOptions {
  tools: McpToolService;
  /** The capabilities of every session's server (`createMcpServer`'s `caps`); default none. */
  caps?: readonly McpCapability[] | undefined;
  /** The hand-over tools' live view, for the session an `initialize` request starts (its URL follows that request's Host). */
  handOver?: ((req: IncomingMessage, res: ServerResponse) => McpHandOver | undefined) | undefined;
  /**
   * An MCP session with no request open for this long is closed (default 3 600 000: one hour;
   * 0 disables). Clients that vanish without `DELETE` would otherwise keep their session forever.
   */
  sessionIdleMs?: number | undefined;
}

interface Session {
  readonly id: string;
  readonly toolSessionId: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Requests of this session still open (a GET stream stays open as long as the client listens). */
  open: number;
  lastUsedAt: number;
  closing: Promise<void> | undefined;
}

/** A JSON-RPC error answer without an id, the shape MCP clients read from a refused HTTP request. */
export function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const DEFAULT_SESSION_IDLE_MS = 3_600_000;

export class McpHttpSessions {
  readonly #options: McpHttpSessionsOptions;
  /** Initialized sessions, by MCP session id. */
  readonly #sessions = new Map<string, Session>();
  /** Every session not yet ended, initialized or not (close() ends them all). */
  readonly #live = new Set<Session>();
  readonly #sweep: NodeJS.Timeout | undefined;
  /** close(), run once for all callers (common/resource.ts). */
  readonly #lifecycle = lifecycleOf({ closeGracefully: () => this.#closeAll() });

  constructor(options: McpHttpSessionsOptions) {
    this.#options = options;
    const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    if (idleMs > 0) {
      this.#sweep = setInterval(() => this.#closeIdle(idleMs), Math.min(idleMs, 60_000));
      this.#sweep.unref();
    }
  }

  /** MCP sessions alive now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The tool session id of an MCP session, if it exists (for tests and diagnostics). */
  toolSessionOf(mcpSessionId: string): string | undefined {
    return this.#sessions.get(mcpSessionId)?.toolSessionId;
  }

  /**
   * The workspace folder of a live MCP session (created on first use), for the REST routes that
   * put files there (`/mcp/workspace`); undefined for an unknown or ended session.
   */
  workspaceOf(mcpSessionId: string): string | undefined {
    const session = this.#sessions.get(mcpSessionId);
    if (session === undefined || session.closing !== undefined) return undefined;
    session.lastUsedAt = Date.now();
    return this.#options.tools.workspaceOf(session.toolSessionId);
  }

  /** `POST /mcp`: a JSON-RPC message (or batch) already parsed from the body. */
  async handlePost(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const id = sessionIdOf(req);
    if (id !== undefined) {
      await this.#forward(id, req, res, body);
      return;
    }
    if (!isInitialize(body)) {
      sendRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; start a session with an initialize request');
      return;
    }
    if (this.#lifecycle.closed) {
      sendRpcError(res, 503, -32000, 'the server is shutting down');
      return;
    }
    const session = this.#open(this.#options.handOver?.(req, res));
    await this.#handle(session, req, res, body);
  }

  /** `GET /mcp` (the server's event stream) and `DELETE /mcp` (the end of the session). */
  async handleOther(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = sessionIdOf(req);
    if (id === undefined) {
      sendRpcError(res, 400, -32000, 'Bad Request: the mcp-session-id header is required');
      return;
    }
    await this.#forward(id, req, res, undefined);
  }

  /**
   * Ends every MCP session and its tool session; new sessions are refused from the call on.
   * Concurrent callers share one promise, so none is answered before the last session ended.
   */
  close(): Promise<void> {
    return this.#lifecycle.close();
  }

  async #closeAll(): Promise<void> {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    await Promise.all([...this.#live].map((session) => this.#end(session)));
  }

  #open(handOver: McpHandOver | undefined): Session {
    const id = randomUUID();
    const toolSessionId = `mcp-${id}`;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // The session is usable (and listed) once its initialize request succeeded.
      onsessioninitialized: () => {
        this.#sessions.set(id, session);
      },
    });
    const server = createMcpServer({ tools: this.#options.tools, sessionId: toolSessionId, caps: this.#options.caps, handOver });
    const session: Session = { id, toolSessionId, transport, server, open: 0, lastUsedAt: Date.now(), closing: undefined };
    this.#live.add(session);
    // Called once the protocol is closed, whichever way: DELETE, transport close, server close.
    server.server.onclose = () => {
      void this.#end(session);
    };
    return session;
  }

  async #forward(id: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const session = this.#sessions.get(id);
    if (session === undefined || session.closing !== undefined) {
      sendRpcError(res, 404, -32001, 'Session not found: it ended or never existed; start a new one with initialize');
      return;
    }
    await this.#handle(session, req, res, body);
  }

  async #handle(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    session.open += 1;
    session.lastUsedAt = Date.now();
    res.once('close', () => {
      session.open -= 1;
      session.lastUsedAt = Date.now();
    });
    if (!session.server.isConnected()) await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
    // An initialize that failed (bad protocol version, malformed) never registered the session.
    if (!this.#sessions.has(session.id) && session.closing === undefined) void this.#end(session);
  }

  #end(session: Session): Promise<void> {
    if (session.closing !== undefined) return session.closing;
    if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
    this.#live.delete(session);
    // Set before closing the server: its onclose calls back here and must find the session ending.
    session.closing = Promise.resolve().then(async () => {
      await session.server.close().catch(() => undefined);
      await this.#options.tools.close(session.toolSessionId).catch(() => undefined);
    });
    return session.closing;
  }

  #closeIdle(idleMs: number): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      if (session.open === 0 && now - session.lastUsedAt >= idleMs) void this.#end(session);
    }
  }
}

function sessionIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['mcp-session-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id === undefined || id === '' ? undefined : id;
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}
