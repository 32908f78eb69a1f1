/**
 * The `/fs/*` routes for one browser host, with the methods, query parameters and bodies the
 * Kernel SDK sends (`client.browsers.fs.*`) and the hosted API's statuses: 201 for
 * `write_file` and `create_directory`, 200 for the rest, empty bodies where the SDK expects
 * nothing. docs/process-and-files.md has the rules.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createId } from '@paralleldrive/cuid2';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import {
  absolutePath, createDirectory, deleteDirectory, deleteFile, fileInfo, listFiles, movePath, openFileForReading, parseMode, setFilePermissions, writeFileFrom,
} from '../../system/file-system.js';
import { receiveZipUpload, uploadFiles } from '../../system/file-upload.js';
import type { FileSettings } from '../../system/file-upload.js';
import { FileWatches } from '../../system/file-watch.js';
import { extractZip, zipDirectory, zipName } from '../../system/zip.js';
import { jsonBody, noRetry, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import type { Browser } from '../../browsers/browser.js';
import { validateBody } from '../schema-validator.js';
import { EventStream } from '../sse.js';

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

/** A multipart route's failure: a body left unread would be read to its end by Node to keep the connection; close it instead. */
async function readingBody(req: Request, res: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!req.complete) res.setHeader('connection', 'close');
    throw error;
  }
}

/**
 * The routes act on the server's machine whichever browser the path names: every browser of a
 * server shares one file system. `browserOf` still resolves the host, so that `/browsers/{id}/fs/*`
 * answers 404 for a browser that does not exist. Watches are the exception: each belongs to the
 * browser it was started on, is served on its routes only, and stops when that browser ends.
 */
export function fsRoutes(browserOf: BrowserOf, settings: FileSettings): Router {
  const router = Router();
  const small = jsonBody(LIMITS.fsBodyBytes);
  const watches = new FileWatches(settings, createId);
  /** Browsers whose end stops their watches: the disposer of each one's hook. */
  const endHooks = new Map<string, () => void>();
  /**
   * Paths a pool's lease created (they did not exist before): removed when the pool cleans the
   * browser for its next user (docs/browsers.md#pools). Only leased browsers are tracked, so the
   * files of an ordinary browser stay where they were written, as before.
   */
  const created = new WeakMap<Browser, Set<string>>();
  const noteCreated = (browser: Browser, path: string, existed: boolean): void => {
    if (browser.poolId === undefined || existed) return;
    let paths = created.get(browser);
    if (paths === undefined) {
      const own = new Set<string>();
      paths = own;
      created.set(browser, own);
      browser.onRecycle(async () => {
        created.delete(browser);
        await Promise.all([...own].map((one) => rm(one, { recursive: true, force: true })));
        const left = [...own].filter((one) => existsSync(one));
        if (left.length > 0) throw new Error(`could not remove ${left.join(', ')}`);
      });
    }
    paths.add(path);
  };

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
      const browser = browserOf(req, res);
      const path = absolutePath(queryValue(req, 'path'), 'path');
      noteCreated(browser, path, existsSync(path));
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
    const browser = browserOf(req, res);
    const body = fsBody<{ path: string; mode?: string }>(req, 'FsCreateDirectoryRequest');
    const path = absolutePath(body.path, 'path');
    noteCreated(browser, path, existsSync(path));
    await createDirectory(path, parseMode(body.mode));
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
    const browser = browserOf(req, res);
    const body = fsBody<{ src_path: string; dest_path: string }>(req, 'FsMoveRequest');
    const dest = absolutePath(body.dest_path, 'dest_path');
    noteCreated(browser, dest, existsSync(dest));
    await movePath(absolutePath(body.src_path, 'src_path'), dest);
    res.status(200).end();
  });

  router.post('/fs/upload', async (req: Request, res: Response) => {
    browserOf(req, res);
    await readingBody(req, res, () => uploadFiles(req, settings));
    res.status(201).end();
  });

  router.post('/fs/upload_zip', async (req: Request, res: Response) => {
    browserOf(req, res);
    await readingBody(req, res, async () => {
      const { zip, dest, dispose } = await receiveZipUpload(req, settings);
      try {
        await extractZip(zip, dest, settings);
      } finally {
        await dispose();
      }
    });
    res.status(201).end();
  });

  router.get('/fs/download_dir_zip', async (req: Request, res: Response) => {
    browserOf(req, res);
    const path = absolutePath(queryValue(req, 'path'), 'path');
    const stream = await zipDirectory(path, settings);
    res.status(200).setHeader('content-type', 'application/zip');
    res.setHeader('content-disposition', `attachment; filename="${zipName(path).replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
    try {
      await pipeline(stream, res);
    } catch (error) {
      if (!res.headersSent) throw error;
      res.destroy();
    }
  });

  router.put('/fs/set_file_permissions', small, async (req: Request, res: Response) => {
    browserOf(req, res);
    const body = fsBody<{ path: string; mode: string; owner?: string; group?: string }>(req, 'FsSetFilePermissionsRequest');
    const path = absolutePath(body.path, 'path');
    const mode = parseMode(body.mode);
    if (mode === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'mode is required');
    await setFilePermissions(path, mode, body.owner, body.group);
    res.status(200).end();
  });

  router.post('/fs/watch', small, async (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    const body = fsBody<{ path: string; recursive?: boolean }>(req, 'FsWatchStartRequest');
    const path = absolutePath(body.path, 'path');
    const info = await fileInfo(path);
    if (!info.is_dir) throw new ReplError('REPL_ERR_INVALID_REQUEST', `path ${JSON.stringify(path)} is not a directory; watch the directory that holds it`);
    let watch;
    try {
      watch = await watches.start(path, body.recursive ?? false, browser.id);
    } catch (error) {
      // The SDK retries a 409; a limit is still there a moment later.
      noRetry(res);
      throw error;
    }
    if (!endHooks.has(browser.id)) {
      endHooks.set(browser.id, browser.onEnd(async () => {
        endHooks.delete(browser.id);
        watches.stopOwnedBy(browser.id);
      }));
    }
    res.status(201).json({ watch_id: watch.id });
  });

  router.get('/fs/watch/:watch_id/events', (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    const watch = watches.get(String(req.params['watch_id']), browser.id);
    // The hosted API's framing: `data: <event JSON>` and a blank line, no event names.
    const stream = new EventStream(res, { headers: { 'x-sse-content-type': 'application/json' } });
    const detach = watch.attach({
      send: (event) => stream.sendData(undefined, event),
      get backlog() {
        return stream.backlog;
      },
      end: () => stream.end(),
    });
    res.once('close', detach);
  });

  router.delete('/fs/watch/:watch_id', (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    watches.stop(String(req.params['watch_id']), browser.id);
    if (!watches.owns(browser.id)) {
      endHooks.get(browser.id)?.();
      endHooks.delete(browser.id);
    }
    res.status(204).end();
  });

  return router;
}
