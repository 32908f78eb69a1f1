/**
 * `/extensions` (the Kernel SDK's `client.extensions`) and `POST /browsers/{id}/extensions`
 * (`browsers.loadExtensions`), docs/browsers.md#extensions. The multipart forms are read as the
 * SDK sends them (`file` and `name`; `extensions[<i>][name]` and `extensions[<i>][zip_file]`), each
 * file staged by lib/system/file-upload.ts within the upload limits, then extracted with the
 * hostile-zip rules of lib/system/zip.ts. The store is this server's: behind several pods, each
 * keeps its own (a browser created on one pod finds only that pod's extensions).
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { pageOf, pageRequest, stringQuery } from '../paging.js';
import { ReplError } from '../../../common/errors.js';
import type { Browsers } from '../../browsers/browsers.js';
import { checkExtensionName, extensionWire } from '../../extensions/extension-store.js';
import type { ExtensionStore } from '../../extensions/extension-store.js';
import type { LiveExtensions } from '../../extensions/live-extensions.js';
import { receiveParts } from '../../system/file-upload.js';
import type { FileSettings } from '../../system/file-upload.js';
import { requestSignal } from '../middleware.js';

/** Extensions of one `loadExtensions` call. */
const MAX_LOAD = 20;

export interface ExtensionsRoutesOptions {
  browsers: Browsers;
  store: ExtensionStore;
  live: LiveExtensions;
  files: FileSettings;
}

/** A form that failed after the body was read in part: the connection closes with the answer (as /fs/upload). */
async function readingBody<T>(req: Request, res: Response, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!req.complete) res.setHeader('connection', 'close');
    throw error;
  }
}

/** `extensions[3][name]`, `extensions[3].name`, `extensions.3.name` → [3, 'name']. */
function loadField(name: string): [number, 'name' | 'zip_file'] | undefined {
  const match = /^extensions(?:\[(\d{1,3})\](?:\[(name|zip_file)\]|\.(name|zip_file))|\.(\d{1,3})\.(name|zip_file))$/.exec(name);
  if (match === null) return undefined;
  return [Number(match[1] ?? match[4]), (match[2] ?? match[3] ?? match[5]) as 'name' | 'zip_file'];
}

export function extensionsRoutes(options: ExtensionsRoutesOptions): Router {
  const { store, live, files, browsers } = options;
  const router = Router();

  router.post('/extensions', async (req: Request, res: Response) => {
    const record = await readingBody(req, res, async () => {
      const received = await receiveParts(req, { maxFiles: 1, maxBytes: files.uploadMaxBytes, fields: 'file (a zip) and name' });
      try {
        let zip: string | undefined;
        let name: string | undefined;
        for (const part of received.parts) {
          if (part.name === 'file' && part.staged !== undefined) zip = part.staged;
          else if (part.name === 'name' && part.value !== undefined) name = checkExtensionName(part.value, 'name');
          else throw new ReplError('REPL_ERR_INVALID_REQUEST', `invalid form field: ${JSON.stringify(part.name.slice(0, 200))}; upload takes file (a zip) and name`);
        }
        if (zip === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'file is required (a file part holding the zip)');
        return await store.upload(zip, name);
      } finally {
        await received.dispose();
      }
    });
    res.status(200).json(extensionWire(record));
  });

  router.get('/extensions', async (req: Request, res: Response) => {
    const paging = pageRequest(req.query);
    const name = stringQuery(req.query['name'], 'name');
    const query = stringQuery(req.query['query'], 'query');
    let rows = await store.list();
    if (name !== undefined && name !== '') rows = rows.filter((record) => record.name === name);
    if (query !== undefined && query !== '') {
      const needle = query.toLowerCase();
      rows = rows.filter((record) => record.id === query || (record.name?.toLowerCase().includes(needle) ?? false));
    }
    const page = pageOf(res, rows, paging);
    res.json(page.map(extensionWire));
  });

  // Before /extensions/:id_or_name, which would take it for a name.
  router.get('/extensions/from_chrome_store', (req: Request) => {
    const url = stringQuery(req.query['url'], 'url');
    if (url === undefined || url === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'url is required (the extension\'s Chrome Web Store URL)');
    const os = stringQuery(req.query['os'], 'os');
    if (os !== undefined && os !== 'win' && os !== 'mac' && os !== 'linux') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'os must be win, mac or linux');
    throw new ReplError('REPL_ERR_EXTENSION_STORE_OFFLINE',
      'this server runs offline and does not fetch from the Chrome Web Store: download and unpack the extension on a machine with internet access, zip the folder, and upload it (POST /extensions)');
  });

  router.get('/extensions/:id_or_name', async (req: Request, res: Response) => {
    const record = await store.get(String(req.params['id_or_name']));
    const stream = createReadStream(store.archivePath(record));
    // Opened before the status is sent, so that a missing file is an error answer, not a cut one.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    res.status(200).setHeader('content-type', 'application/zip');
    res.setHeader('content-length', String(record.size_bytes));
    res.setHeader('content-disposition', `attachment; filename="${(record.name ?? record.id).replace(/[^A-Za-z0-9._-]/g, '_')}.zip"`);
    try {
      await pipeline(stream, res);
    } catch (error) {
      if (!res.headersSent) throw error;
      res.destroy();
    }
  });

  router.get('/extensions/:id_or_name/metadata', async (req: Request, res: Response) => {
    res.json(extensionWire(await store.get(String(req.params['id_or_name']))));
  });

  router.delete('/extensions/:id_or_name', async (req: Request, res: Response) => {
    await store.delete(String(req.params['id_or_name']));
    res.status(204).end();
  });

  router.post('/browsers/:id_or_name/extensions', async (req: Request, res: Response) => {
    const browser = browsers.get(String(req.params['id_or_name']));
    // Activity: the browser is not reaped while its extensions load.
    const release = browser.hold();
    res.once('close', release);
    const signal = requestSignal(req, res);
    await readingBody(req, res, async () => {
      const received = await receiveParts(req, { maxFiles: MAX_LOAD, maxBytes: files.uploadMaxBytes, fields: 'extensions[<i>][name] and extensions[<i>][zip_file]' });
      try {
        const items = new Map<number, { name?: string; zip?: string }>();
        for (const part of received.parts) {
          const field = loadField(part.name);
          if (field === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `invalid form field: ${JSON.stringify(part.name.slice(0, 200))}; loadExtensions takes extensions[<i>][name] and extensions[<i>][zip_file]`);
          const [index, kind] = field;
          const item = items.get(index) ?? {};
          items.set(index, item);
          if (kind === 'zip_file') {
            if (part.staged === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `extensions[${index}].zip_file must be a file part (with a filename)`);
            item.zip = part.staged;
          } else {
            const name = checkExtensionName(part.value, `extensions[${index}].name`);
            // The name is a folder: `.`, `..` and hidden names would leave it or clash with staging.
            if (name.startsWith('.')) throw new ReplError('REPL_ERR_INVALID_REQUEST', `extensions[${index}].name must not start with "."`);
            item.name = name;
          }
        }
        if (items.size === 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'extensions is required: send extensions[0][name] and extensions[0][zip_file]');
        const ordered = [...items].sort(([a], [b]) => a - b).map(([index, item]) => {
          if (item.name === undefined || item.zip === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `extensions[${index}] needs both name and zip_file`);
          return { name: item.name, zip: item.zip };
        });
        const names = new Set(ordered.map(({ name }) => name));
        if (names.size !== ordered.length) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'extensions: each name may appear once');
        await live.load(browser, ordered, signal);
      } finally {
        await received.dispose();
      }
    });
    res.status(204).end();
  });

  return router;
}
