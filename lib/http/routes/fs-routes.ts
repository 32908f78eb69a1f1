/**
 * The `/fs/*` routes for one browser host, with the methods, query parameters and bodies the
 * Kernel SDK sends (`client.browsers.fs.*`) and the hosted API's statuses: 201 for
 * `write_file` and `create_directory`, 200 for the rest, empty bodies where the SDK expects
 * nothing. docs/process-and-files.md has the rules.
 */
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import {
  absolutePath, createDirectory, deleteDirectory, deleteFile, fileInfo, listFiles, movePath, openFileForReading, parseMode, writeFileFrom,
} from '../../system/file-system.js';
import { jsonBody, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

/** One query parameter as a string (Express gives an array when it is repeated). */
function queryValue(req: Request, name: string): unknown {
  const value = req.query[name];
  if (Array.isArray(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be given once`);
  return value;
}

/** The JSON body of a small fs route, validated against `schema`. */
function fsBody<T>(req: Request, schema: string): T {
  requireBody(req.body);
  validateBody(schema, req.body);
  return req.body as T;
}

/**
 * The routes act on the server's machine whichever browser the path names: every browser of a
 * server shares one file system. `browserOf` still resolves the host, so that `/browsers/{id}/fs/*`
 * answers 404 for a browser that does not exist.
 */
export function fsRoutes(browserOf: BrowserOf): Router {
  const router = Router();
  const small = jsonBody(LIMITS.fsBodyBytes);

  router.get('/fs/read_file', async (req: Request, res: Response) => {
    browserOf(req, res);
    const path = absolutePath(queryValue(req, 'path'), 'path');
    const { stream, size } = await openFileForReading(path);
    res.status(200).setHeader('content-type', 'application/octet-stream');
    // Files of /proc and /sys report size 0 and still have content: those are sent chunked.
    if (size > 0) res.setHeader('content-length', String(size));
    try {
      await pipeline(stream, res);
    } catch (error) {
      // Once bytes went out, the only honest signal left is a cut connection.
      if (!res.headersSent) throw error;
      res.destroy();
    }
  });

  router.put('/fs/write_file', async (req: Request, res: Response) => {
    try {
      browserOf(req, res);
      const path = absolutePath(queryValue(req, 'path'), 'path');
      const mode = parseMode(queryValue(req, 'mode'));
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > LIMITS.fsWriteFileBytes) {
        throw new ReplError('REPL_ERR_BODY_TOO_LARGE', `request body exceeds ${LIMITS.fsWriteFileBytes} bytes`);
      }
      await writeFileFrom(path, req, { mode, limitBytes: LIMITS.fsWriteFileBytes });
    } catch (error) {
      // A body left unread would be read to its end by Node to keep the connection; close it instead.
      if (!req.complete) res.setHeader('connection', 'close');
      throw error;
    }
    res.status(201).end();
  });

  router.get('/fs/list_files', async (req: Request, res: Response) => {
    browserOf(req, res);
    res.json(await listFiles(absolutePath(queryValue(req, 'path'), 'path')));
  });

  router.get('/fs/file_info', async (req: Request, res: Response) => {
    browserOf(req, res);
    res.json(await fileInfo(absolutePath(queryValue(req, 'path'), 'path')));
  });

  router.put('/fs/create_directory', small, async (req: Request, res: Response) => {
    browserOf(req, res);
    const body = fsBody<{ path: string; mode?: string }>(req, 'FsCreateDirectoryRequest');
    await createDirectory(absolutePath(body.path, 'path'), parseMode(body.mode));
    res.status(201).end();
  });

  router.put('/fs/delete_file', small, async (req: Request, res: Response) => {
    browserOf(req, res);
    await deleteFile(absolutePath(fsBody<{ path: string }>(req, 'FsPathRequest').path, 'path'));
    res.status(200).end();
  });

  router.put('/fs/delete_directory', small, async (req: Request, res: Response) => {
    browserOf(req, res);
    await deleteDirectory(absolutePath(fsBody<{ path: string }>(req, 'FsPathRequest').path, 'path'));
    res.status(200).end();
  });

  router.put('/fs/move', small, async (req: Request, res: Response) => {
    browserOf(req, res);
    const body = fsBody<{ src_path: string; dest_path: string }>(req, 'FsMoveRequest');
    await movePath(absolutePath(body.src_path, 'src_path'), absolutePath(body.dest_path, 'dest_path'));
    res.status(200).end();
  });

  return router;
}
