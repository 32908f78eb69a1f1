/**
 * `/profiles`: the hosted product's stored browser profiles (shapes of `@onkernel/sdk`'s
 * `client.profiles`), kept by a `ProfileStore` under the server's data folder
 * (docs/browsers.md#profiles). A browser uses one through `profile` of `POST /browsers`.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { Router } from 'express';
import type { Request, Response } from 'express';

import { pageOf, pageRequest, stringQuery } from '../paging.js';
import { ReplError } from '../../../common/errors.js';
import type { ProfileStore } from '../../profiles/profile-store.js';
import { jsonBody } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

const BODY_LIMIT_BYTES = 16 * 1024;

/** node:zlib's zstd compressor where this Node.js has one (22.15 and later). */
type ZstdCompress = () => NodeJS.ReadWriteStream;
function zstdCompressor(): ZstdCompress | undefined {
  const candidate = (zlib as unknown as { createZstdCompress?: unknown }).createZstdCompress;
  return typeof candidate === 'function' ? candidate as ZstdCompress : undefined;
}

export function profilesRoutes(options: { profiles: ProfileStore }): Router {
  const { profiles } = options;
  const router = Router();

  router.post('/profiles', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = objectBody(req);
    validateBody('ProfileCreateRequest', body);
    res.json(await profiles.create({ name: body['name'] as string | null | undefined }));
  });

  router.get('/profiles', async (req: Request, res: Response) => {
    const paging = pageRequest(req.query);
    const rows = await profiles.list({ name: stringQuery(req.query['name'], 'name'), query: stringQuery(req.query['query'], 'query') });
    const page = pageOf(res, rows, paging);
    res.json(page);
  });

  router.get('/profiles/:id_or_name', async (req: Request, res: Response) => {
    res.json(await profiles.get(String(req.params['id_or_name'])));
  });

  router.patch('/profiles/:id_or_name', jsonBody(BODY_LIMIT_BYTES), async (req: Request, res: Response) => {
    const body = objectBody(req);
    validateBody('ProfileUpdateRequest', body);
    res.json(await profiles.rename(String(req.params['id_or_name']), body['name']));
  });

  router.delete('/profiles/:id_or_name', async (req: Request, res: Response) => {
    await profiles.delete(String(req.params['id_or_name']));
    res.status(204).end();
  });

  router.get('/profiles/:id_or_name/download', async (req: Request, res: Response) => {
    const asked = req.query['format'];
    if (asked !== undefined && asked !== 'tar' && asked !== 'tar.zst') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'format must be tar.zst or tar');
    const zstd = zstdCompressor();
    if (asked === 'tar.zst' && zstd === undefined) {
      throw new ReplError('REPL_ERR_PROFILE_FORMAT_UNSUPPORTED',
        `format tar.zst needs zstd in node:zlib, which this server's Node.js ${process.version} lacks (22.15 or later has it): ask for format=tar`);
    }
    // The hosted product's default is its stored format, tar.zst; without zstd here, plain tar.
    const format = asked ?? (zstd === undefined ? 'tar' : 'tar.zst');
    const { profile, stream } = await profiles.archive(String(req.params['id_or_name']));
    const file = `${(profile.name ?? profile.id).replace(/[^\w.-]/g, '_')}.${format}`;
    res.setHeader('content-type', format === 'tar' ? 'application/x-tar' : 'application/zstd');
    res.setHeader('content-disposition', `attachment; filename="${file}"`);
    const source = Readable.from(stream);
    try {
      if (format === 'tar.zst' && zstd !== undefined) await pipeline(source, zstd(), res);
      else await pipeline(source, res);
    } catch (error) {
      // A client that went away mid-download is not an error of the server; the stream's end releases the profile.
      if (!res.headersSent) throw error;
      res.destroy();
    }
  });

  return router;
}

function objectBody(req: Request): Record<string, unknown> {
  const body = (req.body ?? {}) as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'invalid request body: body must be object');
  return body as Record<string, unknown>;
}

