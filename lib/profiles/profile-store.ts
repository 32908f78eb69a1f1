/**
 * The stored browser profiles of `/profiles` (docs/browsers.md#profiles): one folder per profile
 * under the server's data folder, `<dir>/<id>/`, holding `profile.json` (its metadata, and which
 * generation of user data is current) and that generation, `data-<token>/`, a Chromium user-data
 * folder without its caches (profile-rules.ts).
 *
 * A save never changes the current generation: it copies the browser's folder into a temporary
 * sibling (`.tmp-<token>`), fsyncs every file and folder, renames it to a new generation, and then
 * replaces `profile.json` (written aside, fsynced, renamed over): that rename is the one moment the
 * profile changes, so a process killed at any point leaves the previous profile whole. Whatever a
 * killed save left (temporary folders, a generation `profile.json` never named) is removed when a
 * store first opens the folder.
 *
 * Two browsers saving one profile: the save that finishes last wins, whole (the hosted product's
 * rule: a save replaces the complete stored state, nothing is merged). Saves, renames and deletes
 * of one profile run one after the other; a browser that still reads a generation (a launch
 * copying it, a download) keeps it until it is done.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { cp, mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { debuglog } from 'node:util';

import { createId } from '@paralleldrive/cuid2';

import { ReplError } from '../../common/errors.js';
import { checkProfileName, isExcludedPath } from './profile-rules.js';
import { emptyFolderTar, tarStream } from './tar.js';
import { seal, transformTree, unseal } from './encryption.js';

const debug = debuglog('browser-repl:profiles');

const META = 'profile.json';
const TEMP_PREFIX = '.tmp-';
const DELETED_PREFIX = '.deleted-';
const DATA_PREFIX = 'data-';

/** A profile as the API answers it (the SDK's `Profile`). */
export interface StoredProfile {
  id: string;
  name: string | null;
  created_at: string;
  updated_at: string;
  last_used_at?: string;
}

interface ProfileRecord extends StoredProfile {
  /** The current generation's folder name, or null before the first save. */
  data: string | null;
  /** Which key sealed the current generation's files (encryption.ts), or absent: stored plain. */
  key_id?: string;
}

export interface ProfileStoreOptions {
  /** The folder of the profiles (`<dataDir>/profiles`); created, mode 0700, on the first write. */
  dir: string;
  /**
   * 32 bytes: saves seal every file with AES-256-GCM (encryption.ts). Profiles saved without a key
   * stay readable and are sealed at their next save; sealed ones need this key to be read.
   */
  key?: Buffer | undefined;
}

export class ProfileStore {
  readonly dir: string;
  readonly #key: Buffer | undefined;
  readonly #keyId: string | undefined;
  #records: Map<string, ProfileRecord> | undefined;
  #opening: Promise<Map<string, ProfileRecord>> | undefined;
  /** One chain per profile id: its saves, renames and deletes run one at a time. */
  readonly #chains = new Map<string, Promise<unknown>>();
  /** Readers of a generation folder (`<id>/<data>`) right now; a replaced one is removed by its last reader. */
  readonly #readers = new Map<string, number>();
  readonly #retired = new Set<string>();
  /** Called with the profile's id after each save that changed it (the pools' refresh_on_profile_update). */
  readonly #onSaved = new Set<(id: string) => void>();

  constructor(options: ProfileStoreOptions) {
    this.dir = path.resolve(options.dir);
    if (options.key !== undefined && options.key.length !== 32) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'key must be 32 bytes');
    this.#key = options.key;
    this.#keyId = options.key === undefined ? undefined : keyIdOf(options.key);
  }

  /** Calls `listener` with a profile's id after each save of it commits; returns the unsubscribe. */
  onSaved(listener: (id: string) => void): () => void {
    this.#onSaved.add(listener);
    return () => this.#onSaved.delete(listener);
  }

  /** Whether saves are sealed with a key (docs/browsers.md#profiles). */
  get encrypted(): boolean {
    return this.#key !== undefined;
  }

  /** Every profile, oldest first, filtered as `GET /profiles` asks (`name` exact, `query` a substring of id or name; both case-insensitive). */
  async list(filter: { name?: string | undefined; query?: string | undefined } = {}): Promise<StoredProfile[]> {
    const records = [...(await this.#open()).values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    const name = filter.name?.toLowerCase();
    const query = filter.query?.toLowerCase();
    return records
      .filter((record) => name === undefined || name === '' || record.name?.toLowerCase() === name)
      .filter((record) => query === undefined || query === '' || record.id.toLowerCase().includes(query) || (record.name?.toLowerCase().includes(query) ?? false))
      .map(publicOf);
  }

  /** @throws ReplError `REPL_ERR_PROFILE_NOT_FOUND` */
  async get(idOrName: string): Promise<StoredProfile> {
    return publicOf(await this.#find(idOrName));
  }

  /** @throws ReplError `REPL_ERR_INVALID_REQUEST` (name), `REPL_ERR_PROFILE_NAME_TAKEN` */
  async create(init: { name?: string | null | undefined } = {}): Promise<StoredProfile> {
    const name = init.name === undefined || init.name === null ? null : checkProfileName(init.name);
    const records = await this.#open();
    if (name !== null) this.#assertNameFree(records, name, undefined);
    const now = new Date().toISOString();
    const record: ProfileRecord = { id: createId(), name, created_at: now, updated_at: now, data: null };
    await this.#ensureRoot();
    // Built aside and renamed into place: a profile folder exists whole or not at all.
    const temp = path.join(this.dir, `${TEMP_PREFIX}${record.id}`);
    await mkdir(temp, { mode: 0o700 });
    await writeMeta(temp, record);
    await rename(temp, path.join(this.dir, record.id));
    await fsyncDir(this.dir);
    records.set(record.id, record);
    return publicOf(record);
  }

  /** @throws ReplError `REPL_ERR_PROFILE_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_PROFILE_NAME_TAKEN` */
  async rename(idOrName: string, newName: unknown): Promise<StoredProfile> {
    const name = checkProfileName(newName);
    const found = await this.#find(idOrName);
    return this.#serial(found.id, async () => {
      const record = await this.#find(found.id);
      this.#assertNameFree(await this.#open(), name, record.id);
      const next = { ...record, name, updated_at: new Date().toISOString() };
      await writeMeta(path.join(this.dir, record.id), next);
      (await this.#open()).set(record.id, next);
      return publicOf(next);
    });
  }

  /** Removes the profile; a browser running on it keeps its copy, and its save is then dropped. @throws ReplError `REPL_ERR_PROFILE_NOT_FOUND` */
  async delete(idOrName: string): Promise<void> {
    const found = await this.#find(idOrName);
    await this.#serial(found.id, async () => {
      const records = await this.#open();
      if (!records.has(found.id)) return;
      records.delete(found.id);
      // Renamed away first, so that no reader finds half a profile; removed after.
      const gone = path.join(this.dir, `${DELETED_PREFIX}${found.id}`);
      await rename(path.join(this.dir, found.id), gone);
      await fsyncDir(this.dir);
      await rm(gone, { recursive: true, force: true });
    });
  }

  /**
   * Copies the profile's current user data into `target` (an empty folder: a browser's fresh
   * user-data folder), and marks the profile used. A profile never saved copies nothing.
   *
   * @throws ReplError `REPL_ERR_PROFILE_NOT_FOUND`
   */
  async copyInto(id: string, target: string): Promise<void> {
    await this.#read(id, async (dataDir, record) => {
      if (dataDir === undefined) return;
      if (record.key_id !== undefined) {
        const key = this.#keyFor(record);
        await transformTree(dataDir, target, (content, relative) => unseal(content, key, relative));
      } else {
        await cp(dataDir, target, { recursive: true, force: true, verbatimSymlinks: true, filter: (source) => !isExcludedPath(path.relative(dataDir, source)) });
      }
    });
    await this.#serial(id, async () => {
      const record = (await this.#open()).get(id);
      if (record === undefined) return;
      const next = { ...record, last_used_at: new Date().toISOString() };
      await writeMeta(path.join(this.dir, id), next).catch((error: unknown) => debug('%s: could not record its use: %o', id, error));
      (await this.#open()).set(id, next);
    });
  }

  /**
   * Saves `userDataDir` (a browser's, after its Chromium exited) as the profile's new user data,
   * atomically (see the module comment). A profile deleted meanwhile is not recreated: false.
   */
  async save(id: string, userDataDir: string): Promise<boolean> {
    return this.#serial(id, async () => {
      const record = (await this.#open()).get(id);
      if (record === undefined) {
        debug('%s: deleted while a browser used it; its changes are dropped', id);
        return false;
      }
      const folder = path.join(this.dir, id);
      const token = randomBytes(6).toString('hex');
      const temp = path.join(folder, `${TEMP_PREFIX}${token}`);
      try {
        const key = this.#key;
        if (key !== undefined) {
          await transformTree(userDataDir, temp, (content, relative) => seal(content, key, relative), isExcludedPath);
        } else {
          await cp(userDataDir, temp, {
            recursive: true,
            verbatimSymlinks: true,
            filter: (source) => !isExcludedPath(path.relative(userDataDir, source)),
          });
        }
        await fsyncTree(temp);
        const data = `${DATA_PREFIX}${token}`;
        await rename(temp, path.join(folder, data));
        await fsyncDir(folder);
        const now = new Date().toISOString();
        const { key_id: _previousKey, ...rest } = record;
        const next: ProfileRecord = { ...rest, data, updated_at: now, last_used_at: now, ...(this.#keyId === undefined ? {} : { key_id: this.#keyId }) };
        // The commit point: until this rename, the previous generation is the profile.
        await writeMeta(folder, next);
        (await this.#open()).set(id, next);
        if (record.data !== null) await this.#retire(id, record.data);
        for (const listener of this.#onSaved) {
          try {
            listener(id);
          } catch (error) {
            debug('%s: a save listener failed: %o', id, error);
          }
        }
        return true;
      } catch (error) {
        await rm(temp, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * The profile's user data as a tar stream (`<name or id>/…`), read from the generation current
   * when the stream starts. A profile never saved is an archive of one empty folder.
   *
   * @throws ReplError `REPL_ERR_PROFILE_NOT_FOUND`
   */
  async archive(idOrName: string): Promise<{ profile: StoredProfile; stream: AsyncGenerator<Buffer> }> {
    const record = await this.#find(idOrName);
    // Refused before any byte is sent: a missing or wrong key is a clear error, not a cut stream.
    const sealedWith = record.data !== null && record.key_id !== undefined ? this.#keyFor(record) : undefined;
    const key = record.data === null ? undefined : `${record.id}/${record.data}`;
    if (key !== undefined) this.#readers.set(key, (this.#readers.get(key) ?? 0) + 1);
    const release = () => {
      if (key !== undefined) this.#release(key);
    };
    const store = this;
    async function* stream(): AsyncGenerator<Buffer> {
      try {
        if (record.data === null) {
          yield* emptyFolderTar(record.name ?? record.id);
        } else {
          const read = sealedWith === undefined ? undefined : async (file: string, relative: string) => unseal(await readFile(file), sealedWith, relative);
          yield* tarStream(path.join(store.dir, record.id, record.data), record.name ?? record.id, read);
        }
      } finally {
        release();
      }
    }
    return { profile: publicOf(record), stream: stream() };
  }

  /** The key a sealed generation opens with. @throws ReplError `REPL_ERR_PROFILE_KEY` */
  #keyFor(record: ProfileRecord): Buffer {
    if (this.#key === undefined) {
      throw new ReplError('REPL_ERR_PROFILE_KEY', `profile "${record.name ?? record.id}" is encrypted and this server has no profile key (BROWSER_REPL_PROFILE_KEY)`);
    }
    if (record.key_id !== this.#keyId) {
      throw new ReplError('REPL_ERR_PROFILE_KEY', `profile "${record.name ?? record.id}" was saved with another profile key than this server's (BROWSER_REPL_PROFILE_KEY)`);
    }
    return this.#key;
  }

  async #read(id: string, use: (dataDir: string | undefined, record: ProfileRecord) => Promise<void>): Promise<void> {
    const record = (await this.#open()).get(id);
    if (record === undefined) throw notFound(id);
    if (record.data === null) return use(undefined, record);
    const key = `${id}/${record.data}`;
    this.#readers.set(key, (this.#readers.get(key) ?? 0) + 1);
    try {
      await use(path.join(this.dir, id, record.data), record);
    } finally {
      this.#release(key);
    }
  }

  /** Removes a replaced generation now, or when its last reader is done. */
  async #retire(id: string, data: string): Promise<void> {
    const key = `${id}/${data}`;
    if ((this.#readers.get(key) ?? 0) > 0) this.#retired.add(key);
    else await rm(path.join(this.dir, key), { recursive: true, force: true }).catch(() => undefined);
  }

  #release(key: string): void {
    const left = (this.#readers.get(key) ?? 1) - 1;
    if (left > 0) {
      this.#readers.set(key, left);
      return;
    }
    this.#readers.delete(key);
    if (this.#retired.delete(key)) void rm(path.join(this.dir, key), { recursive: true, force: true }).catch(() => undefined);
  }

  #serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(id) ?? Promise.resolve();
    const running = previous.then(work, work);
    const settled = running.then(() => undefined, () => undefined);
    this.#chains.set(id, settled);
    void settled.then(() => {
      if (this.#chains.get(id) === settled) this.#chains.delete(id);
    });
    return running;
  }

  async #find(idOrName: string): Promise<ProfileRecord> {
    const records = await this.#open();
    const byId = records.get(idOrName);
    if (byId !== undefined) return byId;
    const lower = idOrName.toLowerCase();
    for (const record of records.values()) if (record.name?.toLowerCase() === lower) return record;
    throw notFound(idOrName);
  }

  #assertNameFree(records: Map<string, ProfileRecord>, name: string, self: string | undefined): void {
    const lower = name.toLowerCase();
    for (const record of records.values()) {
      if (record.id !== self && (record.name?.toLowerCase() === lower || record.id === name)) {
        throw new ReplError('REPL_ERR_PROFILE_NAME_TAKEN', `a profile named "${name}" already exists (${record.id})`, { data: { id: record.id } });
      }
    }
  }

  async #ensureRoot(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  #open(): Promise<Map<string, ProfileRecord>> {
    if (this.#records !== undefined) return Promise.resolve(this.#records);
    this.#opening ??= this.#load().then((records) => {
      this.#records = records;
      return records;
    }, (error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  /** Reads every profile, and removes what killed saves, creates and deletes left behind. */
  async #load(): Promise<Map<string, ProfileRecord>> {
    const records = new Map<string, ProfileRecord>();
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return records;
      throw error;
    }
    for (const name of names) {
      const folder = path.join(this.dir, name);
      if (name.startsWith(TEMP_PREFIX) || name.startsWith(DELETED_PREFIX)) {
        await rm(folder, { recursive: true, force: true });
        continue;
      }
      let record: ProfileRecord;
      try {
        record = JSON.parse(await readFile(path.join(folder, META), 'utf8')) as ProfileRecord;
      } catch (error) {
        debug('%s is not a profile (%s): left alone', folder, (error as Error).message);
        continue;
      }
      if (record.id !== name) continue;
      records.set(record.id, record);
      for (const entry of await readdir(folder)) {
        const stale = entry.startsWith(TEMP_PREFIX) || (entry.startsWith(DATA_PREFIX) && entry !== record.data) || (entry.startsWith(`${META}.`) && entry !== META);
        if (stale) await rm(path.join(folder, entry), { recursive: true, force: true });
      }
    }
    return records;
  }
}

/** Names a key without revealing it: a keyed hash, so a profile says which key sealed it. */
function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('chromium-repl profile key id').digest('hex').slice(0, 16);
}

function publicOf(record: ProfileRecord): StoredProfile {
  const profile: StoredProfile = { id: record.id, name: record.name, created_at: record.created_at, updated_at: record.updated_at };
  if (record.last_used_at !== undefined) profile.last_used_at = record.last_used_at;
  return profile;
}

function notFound(idOrName: string): ReplError {
  return new ReplError('REPL_ERR_PROFILE_NOT_FOUND', `no profile with id or name "${idOrName}"`, { data: { profile: idOrName } });
}

/** `profile.json`, replaced atomically: written aside, fsynced, renamed over, the folder fsynced. */
async function writeMeta(folder: string, record: ProfileRecord): Promise<void> {
  const temp = path.join(folder, `${META}.${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path.join(folder, META));
  await fsyncDir(folder);
}

async function fsyncDir(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** How many fsyncs run at once: one by one, a save of hundreds of small files waits on each. */
const FSYNC_CONCURRENCY = 32;

/** fsyncs every regular file and folder under `root` (so a rename of it publishes flushed data). */
async function fsyncTree(root: string): Promise<void> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    dirs.push(dir);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk(root);
  const queue = [...files, ...dirs.reverse()];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const handle = await open(next, constants.O_RDONLY);
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: FSYNC_CONCURRENCY }, worker));
}
