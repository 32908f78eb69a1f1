/**
 * `/mcp`: the MCP streamable HTTP endpoint (docs/mcp.md), behind the bearer token like every
 * route. POST carries JSON-RPC messages, parsed here (a body that is not JSON answers a JSON-RPC
 * parse error, 400); GET opens the session's event stream; DELETE ends the session. The Host and
 * Origin checks of every route (docs/security.md) apply here too, answered as JSON-RPC errors,
 * so that an embedder mounting this router alone keeps the DNS-rebinding protection.
 *
 * `/mcp/workspace` is plain REST beside it, for the client program rather than its model: the
 * files of an MCP session's workspace (the session named by the same `mcp-session-id` header),
 * listed, read, written and deleted, so a client can hand the page a file it has
 * (`browser_file_upload` with `paths`) or fetch a download without MCP resources.
 */
import { pipeline } from 'node:stream/promises';
import express, { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '../../../common/limits.js';
import { httpStatusOf, ReplError } from '../../../common/errors.js';
import { deleteFile, openFileForReading, writeFileFrom } from '../../system/file-system.js';
import { Workspace } from '../../tools/workspace.js';
import { listWorkspace } from '../../mcp/workspace-files.js';
import { accessPolicy, admitRequest } from '../middleware.js';
import type { AccessPolicy } from '../middleware.js';
import { sendRpcError } from '../../mcp/http-sessions.js';
import type { McpHttpSessions } from '../../mcp/http-sessions.js';

export interface McpRoutesOptions {
  sessions: McpHttpSessions;
  /** The server's token; without one, requests must name a loopback host. */
  token: string | undefined;
  /**
   * The Host and Origin policy (`createApp` passes its own, from its settings). Default: loopback
   * hosts only when there is no token, no allowed origins.
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

  const access = options.access ?? accessPolicy({ token: options.token });
  const restGuard = (req: Request, _res: Response, next: NextFunction) => {
    admitRequest(req, access);
    next();
  };
  router.get('/mcp/workspace', restGuard, async (req: Request, res: Response) => {
    const workspace = workspaceOf(sessions, req);
    const files = await listWorkspace(workspace.root);
    res.json({ files: files.map((file) => ({ path: file.name, bytes: file.size ?? 0, mime_type: file.mimeType, modified_at: file.annotations?.lastModified ?? null })) });
  });
  router.get('/mcp/workspace/file', restGuard, async (req: Request, res: Response) => {
    const file = workspaceOf(sessions, req).resolve(pathQuery(req), 'path');
    const { stream, size } = await openFileForReading(file);
    res.status(200).setHeader('content-type', 'application/octet-stream');
    res.setHeader('content-length', String(size));
    try {
      await pipeline(stream, res);
    } catch (error) {
      if (!res.headersSent) throw error;
      res.destroy();
    }
  });
  router.put('/mcp/workspace/file', restGuard, async (req: Request, res: Response) => {
    try {
      const workspace = workspaceOf(sessions, req);
      const given = pathQuery(req);
      const file = workspace.resolve(given, 'path');
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > LIMITS.workspaceFileBytes) {
        throw new ReplError('REPL_ERR_BODY_TOO_LARGE', `request body exceeds ${LIMITS.workspaceFileBytes} bytes`);
      }
      const bytes = await writeFileFrom(file, req, { limitBytes: LIMITS.workspaceFileBytes });
      res.status(201).json({ path: workspace.relative(file), bytes });
    } catch (error) {
      // A body left unread would be read to its end by Node to keep the connection; close it instead.
      if (!req.complete) res.setHeader('connection', 'close');
      throw error;
    }
  });
  router.delete('/mcp/workspace/file', restGuard, async (req: Request, res: Response) => {
    await deleteFile(workspaceOf(sessions, req).resolve(pathQuery(req), 'path'));
    res.status(204).end();
  });
  return router;
}

/** The workspace of the MCP session the request's `mcp-session-id` names. @throws ReplError 400 or 404 */
function workspaceOf(sessions: McpHttpSessions, req: Request): Workspace {
  const header = req.headers['mcp-session-id'];
  const id = Array.isArray(header) ? header[0] : header;
  if (id === undefined || id === '') {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'mcp-session-id: the header is required: the id of the MCP session whose workspace this is (the initialize answer has it)');
  }
  const folder = sessions.workspaceOf(id);
  if (folder === undefined) throw new ReplError('REPL_ERR_NOT_FOUND', 'mcp-session-id: no such MCP session (it ended or never existed)');
  return new Workspace(folder);
}

/**
 * The `path` query parameter: a path relative to the workspace, checked by `Workspace.resolve`
 * (`REPL_ERR_PATH_OUTSIDE_WORKSPACE`, 400, for one that leads out).
 */
function pathQuery(req: Request): string {
  const value = req.query['path'];
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'path: a path inside the session\'s workspace is required, such as uploads/receipt.pdf');
  }
  return value;
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
      sendRpcError(res, httpStatusOf(error.code), -32000, `Forbidden: ${error.message}`);
      return;
    }
    next();
  };
}
