/**
 * `/mcp`: the MCP streamable HTTP endpoint (docs/mcp.md), behind the bearer token like every
 * route. POST carries JSON-RPC messages, parsed here (a body that is not JSON answers a JSON-RPC
 * parse error, 400); GET opens the session's event stream; DELETE ends the session. The Host and
 * Origin checks of every route (docs/security.md) apply here too, answered as JSON-RPC errors,
 * so that an embedder mounting this router alone keeps the DNS-rebinding protection.
 */
import express, { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '../../../common/limits.js';
import { ReplError } from '../../../common/errors.js';
import { accessPolicy, admitRequest } from '../middleware.js';
import type { AccessPolicy } from '../middleware.js';
import { sendRpcError } from '../../mcp/http-sessions.js';
import type { McpHttpSessions } from '../../mcp/http-sessions.js';

export interface McpRoutesOptions {
  sessions: McpHttpSessions;
  /** The server's token; without one, requests must name a loopback host. */
  token: string | undefined;
  /**
   * The Host and Origin policy (`createApp` passes its own). Default: loopback hosts only when
   * there is no token, no allowed origins (`BROWSER_REPL_ALLOWED_HOSTS`/`_ORIGINS` apply).
   */
  access?: AccessPolicy | undefined;
}

export function mcpRoutes(options: McpRoutesOptions): Router {
  const { sessions } = options;
  const router = Router();
  const guard = [admitted(options.access ?? accessPolicy({ token: options.token }))];
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

/** `admitRequest` as a JSON-RPC error (403, -32000) naming the refused Host or Origin. */
function admitted(policy: AccessPolicy) {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      admitRequest(req, policy);
    } catch (error) {
      if (!(error instanceof ReplError)) throw error;
      sendRpcError(res, error.status, -32000, `Forbidden: ${error.message}`);
      return;
    }
    next();
  };
}
