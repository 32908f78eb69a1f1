/**
 * The uploaded extensions of a server (`/extensions`, docs/browsers.md#extensions), kept under
 * `<dataDir>/extensions/<id>/`: the archive exactly as uploaded (`extension.zip`, what a download
 * answers and the checksum is of), its unpacked tree (`unpacked/`, what Chromium loads) and the
 * record (`extension.json`). The folder is created on first use, so a server that never stores an
 * extension writes nothing there.
 *
 * An upload is extracted with the project's hostile-zip rules (lib/system/zip.ts: no entry outside
 * the destination, no links, the size, entry and ratio limits) into a private folder of the
 * store, its manifest checked, and renamed into place only once all of that passed: a refused
 * upload leaves nothing behind. Changes run one at a time (names are unique), in this process;
 * two servers must not share one data directory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createId } from '@paralleldrive/cuid2';
import { ReplError } from '../../common/errors.js';
import { extractZip } from '../system/zip.js';
import type { ZipLimits } from '../system/zip.js';
import { checkManifest, MANIFEST_MAX_BYTES } from './manifest.js';
import type { ManifestSummary } from './manifest.js';

/** The hosted product's rule for names: 1 to 255 letters, digits, `.`, `_` or `-`. */
export const EXTENSION_NAME_PATTERN = /^[A-Za-z0-9._-]{1,255}$/;
const ID_PATTERN = /^[a-z0-9]{1,64}$/;
const RECORD = 'extension.json';
const ARCHIVE = 'extension.zip';
const UNPACKED = 'unpacked';
/** Folders zip tools add beside the real content (macOS resource forks). */
const IGNORED_TOP_LEVEL = new Set(['__MACOSX']);

/** One uploaded extension: the SDK's `ExtensionGetResponse` fields, and where it lies. */
export interface ExtensionRecord {
  readonly id: string;
  readonly name: string | null;
  readonly created_at: string;
  readonly size_bytes: number;
  readonly checksum: string;
  last_used_at: string | null;
  /** The folder of `unpacked/` that holds manifest.json, relative to it ('' for its top). */
  readonly root: string;
  readonly manifest: ManifestSummary;
}

/** The answer fields of a record (openapi.json `Extension`). */
export function extensionWire(record: ExtensionRecord): { id: string; name: string | null; created_at: string; size_bytes: number; checksum: string; last_used_at: string | null } {
  return { id: record.id, name: record.name, created_at: record.created_at, size_bytes: record.size_bytes, checksum: record.checksum, last_used_at: record.last_used_at };
}

/**
 * Checks a `name` field.
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming `field`.
 */
export function checkExtensionName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !EXTENSION_NAME_PATTERN.test(value)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be 1 to 255 letters, digits, ".", "_" or "-"`);
  }
  // `.` and `..` cannot be addressed in a URL path (clients resolve them away).
  if (/^\.+$/.test(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must not be only dots`);
  return value;
}

/**
 * Extracts the extension zip at `zipPath` into `dest` (which must not exist) and checks it: the
 * folder of `dest` holding manifest.json (its top, or its one top-level folder) and the manifest.
 * A refusal removes `dest`.
 *
 * @throws ReplError `REPL_ERR_EXTENSION_INVALID`, and the zip errors of {@link extractZip}.
 */
export async function unpackExtension(zipPath: string, dest: string, limits: ZipLimits): Promise<{ root: string; manifest: ManifestSummary }> {
  try {
    await extractZip(zipPath, dest, limits);
    let root = '';
    if (await regularFile(join(dest, 'manifest.json')) === undefined) {
      const top = (await readdir(dest, { withFileTypes: true })).filter((entry) => !IGNORED_TOP_LEVEL.has(entry.name));
      const only = top.length === 1 && top[0]!.isDirectory() ? top[0]!.name : undefined;
      if (only === undefined || await regularFile(join(dest, only, 'manifest.json')) === undefined) {
        throw new ReplError('REPL_ERR_EXTENSION_INVALID', 'the zip has no manifest.json at its top (nor in its one top-level folder): zip the folder that holds manifest.json; nothing was stored');
      }
      root = only;
    }
    const path = join(dest, root, 'manifest.json');
    const size = (await stat(path)).size;
    if (size > MANIFEST_MAX_BYTES) throw new ReplError('REPL_ERR_EXTENSION_INVALID', `manifest.json is larger than ${MANIFEST_MAX_BYTES} bytes; nothing was stored`);
    const manifest = checkManifest(await readFile(path, 'utf8'));
    return { root, manifest };
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw error;
  }
}

async function regularFile(path: string): Promise<true | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() === true ? true : undefined;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

export interface ExtensionStoreOptions {
  /** The server's data directory; the store keeps `<dataDir>/extensions`. */
  dataDir: string;
  /** The extraction limits (the server's `files` settings). */
  limits: ZipLimits;
}

export class ExtensionStore {
  readonly root: string;
  readonly #limits: ZipLimits;
  /** The records by id, read from disk on first use. */
  #records: Map<string, ExtensionRecord> | undefined;
  /** Changes, one at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ExtensionStoreOptions) {
    this.root = join(options.dataDir, 'extensions');
    this.#limits = options.limits;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #index(): Promise<Map<string, ExtensionRecord>> {
    if (this.#records !== undefined) return this.#records;
    const records = new Map<string, ExtensionRecord>();
    const entries = await readdir(this.root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      // Private folders (`.incoming-*`, `.deleted-*`) of an upload or delete a crash cut short.
      if (!entry.isDirectory() || !ID_PATTERN.test(entry.name)) continue;
      try {
        const record = JSON.parse(await readFile(join(this.root, entry.name, RECORD), 'utf8')) as ExtensionRecord;
        if (record.id === entry.name) records.set(record.id, record);
      } catch {
        // A folder without a readable record is not an extension (an upload cut short).
      }
    }
    this.#records ??= records;
    return this.#records;
  }

  /** Every extension, oldest first. */
  async list(): Promise<ExtensionRecord[]> {
    return [...(await this.#index()).values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /**
   * The extension with that id, else with that name.
   * @throws ReplError `REPL_ERR_EXTENSION_NOT_FOUND`
   */
  async get(idOrName: string): Promise<ExtensionRecord> {
    const records = await this.#index();
    const byId = records.get(idOrName);
    if (byId !== undefined) return byId;
    for (const record of records.values()) if (record.name === idOrName) return record;
    throw new ReplError('REPL_ERR_EXTENSION_NOT_FOUND', `no extension with id or name ${JSON.stringify(idOrName.slice(0, 300))}`);
  }

  /** The archive as uploaded. */
  archivePath(record: ExtensionRecord): string {
    return join(this.root, record.id, ARCHIVE);
  }

  /** The folder Chromium loads (the one holding manifest.json). */
  unpackedPath(record: ExtensionRecord): string {
    return join(this.root, record.id, UNPACKED, record.root);
  }

  /**
   * Stores the zip at `zipPath` (left in place) as a new extension.
   * @throws ReplError `REPL_ERR_EXTENSION_INVALID`, `REPL_ERR_EXTENSION_NAME_TAKEN`, the zip errors.
   */
  upload(zipPath: string, name: string | undefined): Promise<ExtensionRecord> {
    return this.#serial(async () => {
      const records = await this.#index();
      const taken = () => {
        if (name !== undefined && [...records.values()].some((record) => record.name === name || record.id === name)) {
          throw new ReplError('REPL_ERR_EXTENSION_NAME_TAKEN', `an extension named ${JSON.stringify(name)} already exists`);
        }
      };
      taken();
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      const incoming = await mkdtemp(join(this.root, '.incoming-'));
      try {
        const { root, manifest } = await unpackExtension(zipPath, join(incoming, UNPACKED), this.#limits);
        await copyFile(zipPath, join(incoming, ARCHIVE));
        const record: ExtensionRecord = {
          id: createId(),
          name: name ?? null,
          created_at: new Date().toISOString(),
          size_bytes: (await stat(zipPath)).size,
          checksum: await sha256(zipPath),
          last_used_at: null,
          root,
          manifest,
        };
        await writeFile(join(incoming, RECORD), JSON.stringify(record, null, 2));
        await rename(incoming, join(this.root, record.id));
        records.set(record.id, record);
        return record;
      } finally {
        await rm(incoming, { recursive: true, force: true });
      }
    });
  }

  /**
   * Deletes an extension. Browsers that loaded it keep it until they end (Chromium read it at
   * load), but a relaunch after a crash no longer finds it.
   * @throws ReplError `REPL_ERR_EXTENSION_NOT_FOUND`
   */
  delete(idOrName: string): Promise<void> {
    return this.#serial(async () => {
      const record = await this.get(idOrName);
      const records = await this.#index();
      // Renamed away first, so the extension is gone at once even if removing its files is slow or fails.
      const gone = join(this.root, `.deleted-${record.id}`);
      // One left by a delete a crash cut short would make the rename fail.
      await rm(gone, { recursive: true, force: true });
      await rename(join(this.root, record.id), gone);
      records.delete(record.id);
      await rm(gone, { recursive: true, force: true });
    });
  }

  /**
   * The folders to load for a browser's `extensions` field (each `{id}` or `{name}`), in order,
   * and notes them used now.
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (an entry names neither), `REPL_ERR_EXTENSION_NOT_FOUND`,
   *   `REPL_ERR_EXTENSION_INVALID` (a Manifest V2 extension)
   */
  resolve(references: ReadonlyArray<{ id?: string | undefined; name?: string | undefined }>, field: string): Promise<string[]> {
    return this.#serial(async () => {
      const used: ExtensionRecord[] = [];
      for (const [index, reference] of references.entries()) {
        const key = reference.id ?? reference.name;
        if (typeof key !== 'string' || key === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field}[${index}] needs an id or a name`);
        const record = await this.get(key);
        if (reference.id !== undefined && record.id !== reference.id) {
          throw new ReplError('REPL_ERR_EXTENSION_NOT_FOUND', `${field}[${index}].id: no extension with id ${JSON.stringify(reference.id.slice(0, 300))}`);
        }
        // Chromium 138 and later (this server's is 156) refuse Manifest V2 without a word when
        // launched with it: a browser would start without the extension, so the create is refused.
        if (record.manifest.manifestVersion !== 3) {
          throw new ReplError('REPL_ERR_EXTENSION_INVALID', `${field}[${index}]: ${JSON.stringify(key.slice(0, 300))} is a Manifest V${record.manifest.manifestVersion} extension, and Chromium loads only Manifest V3 ones`);
        }
        if (!used.includes(record)) used.push(record);
      }
      const now = new Date().toISOString();
      for (const record of used) {
        record.last_used_at = now;
        // Best effort: a record that cannot be rewritten keeps its old last_used_at on disk.
        await writeFile(join(this.root, record.id, RECORD), JSON.stringify(record, null, 2)).catch(() => undefined);
      }
      return used.map((record) => this.unpackedPath(record));
    });
  }
}
