/**
 * The directory watches of `POST /fs/watch` (docs/process-and-files.md#watches): one `fs.watch`
 * (inotify) per directory, recursive watches included, so that the same code runs on Node 20 and
 * 24 (Node's own `recursive: true` on Linux walks the tree in JavaScript, and its behaviour
 * changed between those versions). Events are the hosted API's, which uses Go's fsnotify:
 * `CREATE`, `WRITE`, `DELETE`, `RENAME` (the old name of a moved entry; its new name comes as a
 * `CREATE`), with `path`, `name` and `is_dir`.
 *
 * `fs.watch` only says "rename" or "change" for a name. Which one happened is read from the file
 * system when the event arrives (a name that is there now was created; one that is gone was
 * deleted or moved away), and from what the watch knows of each directory's entries (inode,
 * size, mtime). A name that vanished and a name that appeared in the same turn of the event loop,
 * with the same inode when it is known, are one move: inotify hands both halves of a rename(2)
 * over in one read, and libuv dispatches them before any `setImmediate` runs.
 */
import { lstatSync, watch } from 'node:fs';
import type { FSWatcher, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ReplError } from '../../common/errors.js';
import { fsFailure } from './file-system.js';

/** One event of `GET /fs/watch/{watch_id}/events`: the SDK's `WatchEventsResponse`. */
export interface FileWatchEvent {
  type: 'CREATE' | 'WRITE' | 'DELETE' | 'RENAME';
  /** Absolute path of the entry. */
  path: string;
  /** Its base name. */
  name: string;
  /** Whether it is (or, once gone, was) a directory. */
  is_dir: boolean;
}

/** Limits of one server's watches (`files` options, docs/process-and-files.md#limits). */
export interface FileWatchLimits {
  /** Watches running at once, on all browsers of the server together. */
  readonly maxWatches: number;
  /** Directories one recursive watch may cover (each is one inotify watch). */
  readonly maxWatchDirectories: number;
  /** Events kept for a watch while nobody reads them; later ones are dropped. */
  readonly maxQueuedEvents: number;
}

/** What a watch remembers of an entry, to tell a write from a chmod and to pair a move's halves. */
interface Known {
  ino: number;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  /**
   * This content was there when the watch began, or a WRITE reported it: a change event that
   * finds it unchanged is a chmod or chown (fsnotify's CHMOD, which the hosted API leaves out).
   * A file just created is not settled: the write that created it may be over before its CREATE
   * is looked at, and still gets its WRITE.
   */
  settled: boolean;
}

/** Entries the watch remembers over all its directories; past this, moves are paired by timing alone. */
const MAX_KNOWN_ENTRIES = 100_000;
/** Bytes an event stream may have unsent before events are dropped for it (a reader that does not read). */
const MAX_STREAM_BACKLOG = 1024 * 1024;

let openWatchers = 0;

/** `fs.watch` handles open in this process for `/fs/watch` (the leak checks of the tests read it). */
export function liveFileWatchers(): number {
  return openWatchers;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

const knownOf = (info: Stats, settled: boolean): Known => ({ ino: info.ino, isDir: info.isDirectory(), size: info.size, mtimeMs: info.mtimeMs, settled });

/** A reader of a watch's events: an SSE stream, or a test. */
export interface FileWatchReader {
  /** Takes one event. */
  send(event: FileWatchEvent): void;
  /** Unsent bytes of the reader (events are dropped past a bound). */
  readonly backlog: number;
  /** The watch was stopped: no more events. */
  end(): void;
}

/** One running watch. Create it with {@link FileWatches.start}. */
export class FileWatch {
  readonly id: string;
  readonly path: string;
  readonly recursive: boolean;
  /** The browser whose routes started it (its events are served on that browser's routes only). */
  readonly owner: string;
  readonly #limits: FileWatchLimits;
  /** Per directory: its watcher, its entries, and whether they are all known (else an unknown name that vanishes is still reported). */
  readonly #directories = new Map<string, { watcher: FSWatcher; entries: Map<string, Known>; complete: boolean }>();
  readonly #queue: FileWatchEvent[] = [];
  readonly #readers = new Set<FileWatchReader>();
  /** Names gone in this turn of the event loop, a move's first half or a deletion. */
  #vanished: { path: string; known: Known | undefined }[] = [];
  #flush: NodeJS.Immediate | undefined;
  #knownCount = 0;
  #dropped = 0;
  #closed = false;

  constructor(id: string, path: string, recursive: boolean, owner: string, limits: FileWatchLimits) {
    this.id = id;
    this.path = path;
    this.recursive = recursive;
    this.owner = owner;
    this.#limits = limits;
  }

  /** Events dropped so far because nobody read them in time. */
  get dropped(): number {
    return this.#dropped;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Directories watched now. */
  get directories(): number {
    return this.#directories.size;
  }

  /** @internal Watches `this.path` (and its subdirectories when recursive); throws a registry error. */
  async begin(): Promise<void> {
    const directories = this.recursive ? await this.#tree(this.path) : [this.path];
    for (const directory of directories) this.#watchDirectory(directory);
    // The entries already there, so that their deletion says is_dir and their moves pair up.
    for (const directory of directories) await this.#remember(directory);
  }

  /** Adds a reader: the events kept while nobody read come first. Returns its disposer. */
  attach(reader: FileWatchReader): () => void {
    if (this.#closed) {
      reader.end();
      return () => {};
    }
    for (const event of this.#queue.splice(0)) reader.send(event);
    this.#readers.add(reader);
    return () => this.#readers.delete(reader);
  }

  /** Stops watching and ends every reader. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#flush !== undefined) clearImmediate(this.#flush);
    for (const directory of [...this.#directories.keys()]) this.#unwatch(directory);
    for (const reader of this.#readers) reader.end();
    this.#readers.clear();
    this.#queue.length = 0;
  }

  /** The directory and every directory below it, symbolic links not followed (as fsnotify's walk). */
  async #tree(root: string): Promise<string[]> {
    const found = [root];
    for (let index = 0; index < found.length; index++) {
      const directory = found[index]!;
      let entries;
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch (error) {
        // A directory removed meanwhile is simply not watched; the root's failure is the caller's.
        if (index === 0) throw error;
        continue;
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        found.push(join(directory, entry.name));
        if (found.length > this.#limits.maxWatchDirectories) {
          throw new ReplError('REPL_ERR_WATCH_LIMIT',
            `${JSON.stringify(root)} has more than ${this.#limits.maxWatchDirectories} directories to watch recursively (files.maxWatchDirectories); watch a smaller tree or set recursive: false`);
        }
      }
    }
    return found;
  }

  #watchDirectory(directory: string): void {
    if (this.#closed || this.#directories.has(directory)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(directory, { persistent: false, encoding: 'utf8' }, (kind, name) => this.#onEvent(directory, kind, name));
    } catch (error) {
      if (directory !== this.path) return;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC') {
        throw new ReplError('REPL_ERR_WATCH_LIMIT', 'the system\'s inotify watch limit is reached (fs.inotify.max_user_watches); stop other watches or raise the limit', { cause: error });
      }
      throw error;
    }
    openWatchers++;
    // An error (the directory went away, inotify overflowed) ends this directory's watcher only.
    watcher.on('error', () => this.#unwatch(directory));
    this.#directories.set(directory, { watcher, entries: new Map(), complete: false });
  }

  #unwatch(directory: string): void {
    const watched = this.#directories.get(directory);
    if (watched === undefined) return;
    this.#directories.delete(directory);
    this.#knownCount -= watched.entries.size;
    watched.watcher.close();
    openWatchers--;
  }

  async #remember(directory: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (this.#knownCount >= MAX_KNOWN_ENTRIES) return;
      const entries = this.#directories.get(directory)?.entries;
      if (entries === undefined) return;
      if (entries.has(name)) continue;
      try {
        const info = await lstat(join(directory, name));
        // An event may have recorded it while lstat ran.
        if (entries.has(name)) continue;
        entries.set(name, knownOf(info, true));
        this.#knownCount++;
      } catch {
        // Gone meanwhile.
      }
    }
    const watched = this.#directories.get(directory);
    if (watched !== undefined) watched.complete = true;
  }

  #forget(directory: string, name: string): Known | undefined {
    const entries = this.#directories.get(directory)?.entries;
    const known = entries?.get(name);
    if (known !== undefined) {
      entries!.delete(name);
      this.#knownCount--;
    }
    return known;
  }

  #record(directory: string, name: string, known: Known): void {
    const entries = this.#directories.get(directory)?.entries;
    if (entries === undefined) return;
    if (!entries.has(name)) {
      if (this.#knownCount >= MAX_KNOWN_ENTRIES) return;
      this.#knownCount++;
    }
    entries.set(name, known);
  }

  #onEvent(directory: string, kind: string, name: string | null): void {
    if (this.#closed || name === null) return;
    const path = join(directory, name);
    // Synchronous on purpose: the entry is looked at as close as possible to the moment it
    // changed, so that a file created and at once written is still there to be seen (a few
    // microseconds per event on a local file system).
    const directoryGone = lstatOrUndefined(directory) === undefined;
    if (directoryGone) {
      // The watched directory itself went away (libuv names it by its base name): its parent's
      // watcher reports it; for the root, this watcher is the only one that can.
      if (directory === this.path) this.#emit({ type: 'DELETE', path: directory, name: basename(directory), is_dir: true });
      this.#unwatch(directory);
      return;
    }
    const info = lstatOrUndefined(path);
    const watched = this.#directories.get(directory);
    const known = watched?.entries.get(name);
    if (kind === 'change') {
      if (info === undefined || info.isDirectory()) return;
      const unchanged = known !== undefined && known.ino === info.ino && known.size === info.size && known.mtimeMs === info.mtimeMs;
      if (unchanged && known.settled) return;
      this.#record(directory, name, knownOf(info, true));
      this.#emit({ type: 'WRITE', path, name, is_dir: false });
      return;
    }
    if (info === undefined) {
      // A name the watch never saw, in a directory whose entries it knows, came and went before
      // it could be looked at: nothing is reported for it.
      if (known === undefined && watched?.complete !== false) return;
      this.#forget(directory, name);
      if (known?.isDir === true) this.#unwatchTree(path);
      this.#vanished.push({ path, known });
      this.#flush ??= setImmediate(() => this.#flushVanished());
      return;
    }
    if (known !== undefined && known.ino === info.ino) return;
    const appeared = knownOf(info, false);
    this.#record(directory, name, appeared);
    // The first half of a move, in this same turn: that name was renamed to this one.
    const index = this.#vanished.findIndex((gone) => gone.known === undefined || gone.known.ino === appeared.ino);
    if (index !== -1) {
      const [gone] = this.#vanished.splice(index, 1);
      this.#emit({ type: 'RENAME', path: gone!.path, name: basename(gone!.path), is_dir: gone!.known?.isDir ?? appeared.isDir });
    }
    this.#emit({ type: 'CREATE', path, name, is_dir: appeared.isDir });
    if (appeared.isDir && this.recursive) void this.#watchNewTree(path);
  }

  #flushVanished(): void {
    this.#flush = undefined;
    for (const gone of this.#vanished.splice(0)) {
      this.#emit({ type: 'DELETE', path: gone.path, name: basename(gone.path), is_dir: gone.known?.isDir ?? false });
    }
  }

  /** A directory created (or moved in) under a recursive watch: it and its subdirectories are watched too. */
  async #watchNewTree(root: string): Promise<void> {
    let directories: string[];
    try {
      directories = await this.#tree(root);
    } catch {
      return;
    }
    for (const directory of directories) {
      if (this.#directories.size >= this.#limits.maxWatchDirectories) return;
      this.#watchDirectory(directory);
    }
    for (const directory of directories) await this.#remember(directory);
  }

  #unwatchTree(root: string): void {
    const prefix = `${root}/`;
    for (const directory of [...this.#directories.keys()]) if (directory === root || directory.startsWith(prefix)) this.#unwatch(directory);
  }

  #emit(event: FileWatchEvent): void {
    if (this.#closed) return;
    if (this.#readers.size === 0) {
      // Kept until a reader comes, as many as the limit; later ones are dropped (fsnotify's buffered channel does the same).
      if (this.#queue.length < this.#limits.maxQueuedEvents) this.#queue.push(event);
      else this.#dropped++;
      return;
    }
    for (const reader of this.#readers) {
      if (reader.backlog > MAX_STREAM_BACKLOG) this.#dropped++;
      else reader.send(event);
    }
  }
}

/**
 * Every watch of one server, by id. Watches belong to the browser whose routes started them; the
 * routes stop a browser's watches when it ends, and `close()` stops all.
 */
export class FileWatches {
  readonly #limits: FileWatchLimits;
  readonly #watches = new Map<string, FileWatch>();
  readonly #newId: () => string;

  constructor(limits: FileWatchLimits, newId: () => string) {
    this.#limits = limits;
    this.#newId = newId;
  }

  get size(): number {
    return this.#watches.size;
  }

  /**
   * Starts watching the directory `path` for `owner`.
   *
   * @throws ReplError `REPL_ERR_WATCH_LIMIT` when the server runs `maxWatches` already or the tree
   *   has too many directories; `REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST` (not a directory)
   *   and the other errors of file operations.
   */
  async start(path: string, recursive: boolean, owner: string): Promise<FileWatch> {
    if (this.#watches.size >= this.#limits.maxWatches) {
      throw new ReplError('REPL_ERR_WATCH_LIMIT', `the server already runs ${this.#limits.maxWatches} watches (files.maxWatches); stop one (DELETE /fs/watch/{watch_id}) first`);
    }
    const watch = new FileWatch(this.#newId(), path, recursive, owner, this.#limits);
    // Reserved before the first await, so concurrent starts cannot pass the limit together.
    this.#watches.set(watch.id, watch);
    try {
      await watch.begin();
    } catch (error) {
      this.#watches.delete(watch.id);
      watch.close();
      // A directory the server's user may not read is a 403, not a failure of the server.
      throw fsFailure(error, path);
    }
    return watch;
  }

  /** The watch `id` of `owner`, or `REPL_ERR_NOT_FOUND`. */
  get(id: string, owner: string): FileWatch {
    const watch = this.#watches.get(id);
    if (watch === undefined || watch.owner !== owner) throw new ReplError('REPL_ERR_NOT_FOUND', `no watch ${JSON.stringify(id)} on this browser (it was stopped, or never started)`);
    return watch;
  }

  /** Stops the watch `id` of `owner` (its event streams end), or `REPL_ERR_NOT_FOUND`. */
  stop(id: string, owner: string): void {
    const watch = this.get(id, owner);
    this.#watches.delete(id);
    watch.close();
  }

  /** Stops every watch of `owner` (its browser ended). */
  stopOwnedBy(owner: string): void {
    for (const watch of [...this.#watches.values()]) {
      if (watch.owner !== owner) continue;
      this.#watches.delete(watch.id);
      watch.close();
    }
  }

  /** Whether `owner` has watches. */
  owns(owner: string): boolean {
    for (const watch of this.#watches.values()) if (watch.owner === owner) return true;
    return false;
  }

  /** Stops every watch. Idempotent. */
  close(): void {
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
  }
}
