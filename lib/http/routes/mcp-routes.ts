/**
 * `/mcp`: the MCP streamable HTTP endpoint (docs/mcp.md), behind the bearer token like every
 * route. POST carries JSON-RPC messages, parsed here (a body that is not JSON answers a JSON-RPC
 * parse error, 400); GET opens the session's event stream; DELETE ends the session. Without a
 * token, only loopback Host and Origin headers are served (DNS rebinding protection).
 */
import express, { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '../../../common/limits.js';
import { sendRpcError } from '../../mcp/http-sessions.js';
import type { McpHttpSessions } from '../../mcp/http-sessions.js';

export interface McpRoutesOptions {
  sessions: McpHttpSessions;
  /** The server's token; without one, requests must name a loopback host. */
  token: string | undefined;
}

export function mcpRoutes(options: McpRoutesOptions): Router {
  const { sessions } = options;
  const router = Router();
  const guard = options.token === undefined || options.token === '' ? [loopbackOnly] : [];
  const fail = (res: Response) => (error: unknown) => {
    if (!res.headersSent) sendRpcError(res, 500, -32603, `internal error: ${error instanceof Error ? error.message : String(error)}`);
    else res.end();
  };
  router.post('/mcp', ...guard, mcpJsonBody(LIMITS.replBodyBytes), (req: Request, res: Response) => {
    sessions.handlePost(req, res, req.body).catch(fail(res));
  });
  for (const method of ['get', 'delete'] as const) {
    router[method]('/mcp', ...guard, (req: Request, res: Response) => {
      sessions.handleOther(req, res).catch(fail(res));
    });
  }
  return router;
}

/** express.json for `application/json` bodies, with JSON-RPC errors for a malformed or oversized one. */
function mcpJsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined || error === null) {
        next();
        return;
      }
      if ((error as { type?: unknown }).type === 'entity.too.large') {
        sendRpcError(res, 413, -32600, `request body exceeds ${limitBytes} bytes`);
        return;
      }
      sendRpcError(res, 400, -32700, `Parse error: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The hostname of a Host header (`name`, `name:port`, `[v6]:port`), or undefined when malformed. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * A page on another site can make a browser send requests to 127.0.0.1 under its own name (DNS
 * rebinding); without a token nothing else stops it, so a Host or Origin that is not loopback is
 * refused (403).
 */
function loopbackOnly(req: Request, res: Response, next: NextFunction): void {
  const host = req.headers.host;
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (hostname === undefined || !isLoopbackName(hostname)) {
    sendRpcError(res, 403, -32000, `Forbidden: Host ${JSON.stringify(host ?? '')} is not a loopback name; a server without a token serves /mcp to localhost only (set a token to serve other names)`);
    return;
  }
  const origin = req.headers.origin;
  // `Origin: null` (a sandboxed frame, a file:// page) is a page of unknown site: refused too.
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !isLoopbackName(originHost)) {
      sendRpcError(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not a loopback origin`);
      return;
    }
  }
  next();
}
