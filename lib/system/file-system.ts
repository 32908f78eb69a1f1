/**
 * The file operations behind the `/fs/*` routes (docs/process-and-files.md), on the server's
 * machine and as the server's user. Shapes follow the hosted API, which is written in Go: `mode`
 * in answers is Go's `os.FileMode` string (`-rw-r--r--`, `drwxr-xr-x`, `Lrwxrwxrwx`), modes in
 * requests are octal strings (`644`, `0755`). Every path must be absolute; failures are registry
 * errors that name the path (`REPL_ERR_NOT_FOUND`, `REPL_ERR_INVALID_REQUEST`,
 * `REPL_ERR_PERMISSION_DENIED`).
 */
import { constants } from 'node:fs';
import type { ReadStream, Stats } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ReplError } from '../../common/errors.js';
import type { components } from '../client/openapi-types.js';

/**
 * One entry of `list_files`, and the answer of `file_info` (the SDK's `FFileInfoResponse`):
 * `FsFileInfo` of openapi.json, the generated type. `size_bytes` is 0 for directories, `mod_time`
 * ISO 8601 in UTC, `mode` Go's `os.FileMode.String()`.
 */
export type FileInfo = components['schemas']['FsFileInfo'];

const MODE_PATTERN = /^[0-7]{3,4}$/;
// POSIX values; Node's fs.constants does not carry them.
const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
const S_ISVTX = 0o1000;
const DEFAULT_FILE_MODE = 0o644;
const DEFAULT_DIRECTORY_MODE = 0o755;
/** lstat calls in flight while listing a directory. */
const LIST_CONCURRENCY = 32;

/** `path` as given, once it is a string holding an absolute path; `field` names it in the error. */
export function absolutePath(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} is required`);
  if (value.includes('\u0000')) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must not contain NUL bytes`);
  if (!isAbsolute(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an absolute path, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * An octal mode string (`644`, `0755`, `1777`: three or four digits, as the hosted API accepts)
 * as a number, or undefined when absent. Set-user-ID, set-group-ID and sticky bits are kept.
 */
export function parseMode(value: unknown, field = 'mode'): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !MODE_PATTERN.test(value)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be an octal string of 3 or 4 digits such as "644" or "0755", got ${JSON.stringify(value)}`);
  }
  return Number.parseInt(value, 8);
}

/** Go's `os.FileMode.String()` for a Unix `st_mode`: type letters in Go's order, then rwx. */
export function goFileMode(mode: number): string {
  const type = mode & constants.S_IFMT;
  let letters = '';
  // Go's order of letters is "dalTLDpSugct?"; a, l, T and ? have no Unix st_mode equivalent.
  if (type === constants.S_IFDIR) letters += 'd';
  if (type === constants.S_IFLNK) letters += 'L';
  if (type === constants.S_IFBLK || type === constants.S_IFCHR) letters += 'D';
  if (type === constants.S_IFIFO) letters += 'p';
  if (type === constants.S_IFSOCK) letters += 'S';
  if ((mode & S_ISUID) !== 0) letters += 'u';
  if ((mode & S_ISGID) !== 0) letters += 'g';
  if (type === constants.S_IFCHR) letters += 'c';
  if ((mode & S_ISVTX) !== 0) letters += 't';
  if (letters === '') letters = '-';
  const rwx = 'rwxrwxrwx';
  let permissions = '';
  for (let bit = 0; bit < 9; bit++) permissions += (mode & (1 << (8 - bit))) !== 0 ? rwx[bit] : '-';
  return letters + permissions;
}

function toFileInfo(path: string, stats: Stats): FileInfo {
  const isDir = stats.isDirectory();
  return {
    // Go's filepath.Base("/") is "/"; Node's basename gives "".
    name: basename(path) || '/',
    path,
    size_bytes: isDir ? 0 : stats.size,
    is_dir: isDir,
    mod_time: stats.mtime.toISOString(),
    mode: goFileMode(stats.mode),
  };
}

/** A registry error for a failed file operation on `path` (the path is named in the message). */
export function fsFailure(error: unknown, path: string): ReplError {
  if (error instanceof ReplError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const quoted = JSON.stringify(path);
  switch (code) {
    case 'ENOENT':
      return new ReplError('REPL_ERR_NOT_FOUND', `${quoted} does not exist`, { cause: error });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ReplError('REPL_ERR_PERMISSION_DENIED', `permission denied for ${quoted} (${code}): the server runs as uid ${String(process.getuid?.())}`, { cause: error });
    case 'ENOTDIR':
      return new ReplError('REPL_ERR_INVALID_REQUEST', `a parent of ${quoted} is not a directory`, { cause: error });
    case 'EISDIR':
      return new ReplError('REPL_ERR_INVALID_REQUEST', `${quoted} is a directory`, { cause: error });
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new ReplError('REPL_ERR_INVALID_REQUEST', `${quoted} already exists${code === 'ENOTEMPTY' ? ' and is not empty' : ''}`, { cause: error });
    case 'ENAMETOOLONG':
    case 'ELOOP':
    case 'EINVAL':
      return new ReplError('REPL_ERR_INVALID_REQUEST', `${quoted} cannot be used (${code})`, { cause: error });
    default:
      return new ReplError('REPL_ERR_INTERNAL', `file operation on ${quoted} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

async function attempt<T>(path: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw fsFailure(error, path);
  }
}

/** `file_info`: the entry at `path`, symbolic links followed (Go's `os.Stat`). */
export async function fileInfo(path: string): Promise<FileInfo> {
  return toFileInfo(path, await attempt(path, () => stat(path)));
}

/**
 * `list_files`: the entries of a directory, sorted by name, symbolic links not followed (Go's
 * `os.ReadDir` + `DirEntry.Info`). An entry removed while the listing runs is left out.
 */
export async function listFiles(path: string): Promise<FileInfo[]> {
  const info = await attempt(path, () => stat(path));
  if (!info.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is not a directory; use file_info for a file`);
  const names = (await attempt(path, () => readdir(path))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries: (FileInfo | undefined)[] = [];
  for (let start = 0; start < names.length; start += LIST_CONCURRENCY) {
    const batch = names.slice(start, start + LIST_CONCURRENCY).map(async (name) => {
      const child = join(path, name);
      try {
        return toFileInfo(child, await lstat(child));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw fsFailure(error, child);
      }
    });
    entries.push(...await Promise.all(batch));
  }
  return entries.filter((entry): entry is FileInfo => entry !== undefined);
}

/**
 * `read_file`: an open stream of a regular file and its size (0 for files such as those of
 * /proc, whose size is only known once read). Directories and special files
 * (FIFOs, devices, sockets) are refused: they have no size and may never end.
 */
export async function openFileForReading(path: string): Promise<{ stream: ReadStream; size: number }> {
  const handle = await attempt(path, () => open(path, constants.O_RDONLY | constants.O_NONBLOCK));
  let info: Stats;
  try {
    info = await attempt(path, () => handle.stat());
    if (info.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is a directory; use list_files`);
    if (!info.isFile()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is not a regular file`);
  } catch (error) {
    await handle.close();
    throw error;
  }
  // The stream owns the handle from here and closes it when it ends or is destroyed. It stops
  // at the size reported now, so a file that grows meanwhile still matches its Content-Length;
  // size 0 (files of /proc and /sys) reads to the end.
  const range = info.size > 0 ? { start: 0, end: info.size - 1 } : {};
  return { stream: handle.createReadStream({ autoClose: true, ...range }), size: info.size };
}

/** Writes all of `chunk` (a write may take fewer bytes than offered). */
async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Copies `source` into `handle`, at most `limitBytes`; never destroys `source` (the caller answers on it). */
function receive(source: Readable, handle: FileHandle, limitBytes: number): Promise<number> {
  return new Promise<number>((resolveWritten, reject) => {
    let total = 0;
    let writing: Promise<void> = Promise.resolve();
    let ended = false;
    let done = false;
    const stop = (settle: () => void) => {
      if (done) return;
      done = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limitBytes) {
        source.pause();
        stop(() => reject(new ReplError('REPL_ERR_BODY_TOO_LARGE', `request body exceeds ${limitBytes} bytes`)));
        return;
      }
      // Backpressure: one write at a time; reading resumes once the chunk is written.
      source.pause();
      writing = writing.then(() => writeAll(handle, chunk)).then(
        () => { if (!done) source.resume(); },
        (error: unknown) => stop(() => reject(error)),
      );
    };
    const onEnd = () => {
      ended = true;
      // `writing` never rejects: a failed write has already settled this promise.
      void writing.then(() => stop(() => resolveWritten(total)));
    };
    const onError = (error: Error) => stop(() => reject(new ReplError('REPL_ERR_ABORTED', `the upload failed: ${error.message}`, { cause: error })));
    // An IncomingMessage also emits 'close' after a complete body; only a close before 'end' is a loss.
    const onClose = () => {
      if (!ended) stop(() => reject(new ReplError('REPL_ERR_ABORTED', 'the client went away during the upload')));
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
    source.resume();
  });
}

/** The file a write to `path` lands in: a symbolic link is written through, as `open(2)` would. */
async function writeTarget(path: string): Promise<{ target: string; existing: Stats | undefined }> {
  let existing: Stats | undefined;
  try {
    existing = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fsFailure(error, path);
    return { target: path, existing: undefined };
  }
  let target = path;
  if (existing.isSymbolicLink()) {
    try {
      target = await realpath(path);
      existing = await stat(target);
    } catch {
      // A dangling link is replaced by the file.
      return { target: path, existing: undefined };
    }
  }
  if (existing.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is a directory`);
  return { target, existing };
}

/**
 * `write_file`: stores `source` at `path`, creating missing parent directories (0755) as the
 * hosted API does. The bytes go to a temporary file next to the target, renamed over it once
 * complete, so a failed or oversized upload never leaves a half-written file. Mode: `mode` when
 * given (exactly, no umask), else the replaced file's, else 0644 less the umask.
 *
 * @throws ReplError `REPL_ERR_BODY_TOO_LARGE` past `limitBytes`, `REPL_ERR_ABORTED` when the
 *   source fails or closes early, and the errors of `fsFailure`.
 */
export async function writeFileFrom(path: string, source: Readable, options: { mode?: number | undefined; limitBytes: number }): Promise<number> {
  const { target, existing } = await writeTarget(path);
  const directory = dirname(target);
  await attempt(directory, () => mkdir(directory, { recursive: true, mode: DEFAULT_DIRECTORY_MODE }));
  const temporary = join(directory, `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  const handle = await attempt(target, () => open(temporary, 'wx', DEFAULT_FILE_MODE));
  let renamed = false;
  try {
    const written = await receive(source, handle, options.limitBytes);
    const mode = options.mode ?? (existing === undefined ? undefined : existing.mode & 0o7777);
    if (mode !== undefined) await attempt(target, () => handle.chmod(mode));
    await handle.close();
    await attempt(target, () => rename(temporary, target));
    renamed = true;
    return written;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => {});
      await rm(temporary, { force: true }).catch(() => {});
    }
  }
}

/**
 * `create_directory`: `mkdir -p`. Existing directories are left as they are; `mode` (default
 * 0755) is applied exactly to the directory named by `path` when it is created here.
 */
export async function createDirectory(path: string, mode: number | undefined): Promise<void> {
  const created = await attempt(path, () => mkdir(path, { recursive: true, mode: mode ?? DEFAULT_DIRECTORY_MODE }));
  if (created !== undefined && mode !== undefined) await attempt(path, () => chmod(path, mode));
}

/** `delete_file`: removes a file or a symbolic link (never its target); refuses directories. */
export async function deleteFile(path: string): Promise<void> {
  const info = await attempt(path, () => lstat(path));
  if (info.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is a directory; use delete_directory`);
  await attempt(path, () => unlink(path));
}

/** `delete_directory`: removes a directory and everything in it; refuses files and `/`. */
export async function deleteDirectory(path: string): Promise<void> {
  const info = await attempt(path, () => lstat(path));
  if (!info.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(path)} is not a directory; use delete_file`);
  // resolve() first: "//", "/." and "/tmp/.." name the root too.
  const resolved = resolve(path);
  if (dirname(resolved) === resolved) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'refusing to delete the root directory');
  await attempt(path, () => rm(path, { recursive: true }));
}

/**
 * `move`: `rename(2)`, which replaces a file (or an empty directory) at `dest`. Across file
 * systems (EXDEV) it copies, then removes the source.
 */
export async function movePath(source: string, dest: string): Promise<void> {
  await attempt(source, () => lstat(source));
  try {
    await rename(source, dest);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The source exists, so a missing entry is the destination's directory.
    if (code === 'ENOENT') throw new ReplError('REPL_ERR_NOT_FOUND', `the directory of ${JSON.stringify(dest)} does not exist`, { cause: error });
    if (code !== 'EXDEV') throw fsFailure(error, dest);
    await attempt(dest, () => cp(source, dest, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true, force: true }));
    await attempt(source, () => rm(source, { recursive: true, force: true }));
  }
}

/**
 * A user's or group's id: digits as they are, else the name looked up in /etc/passwd or
 * /etc/group (the files Go's `os/user` reads without cgo). An unknown name answers 400 naming `field`.
 */
async function accountId(value: unknown, field: 'owner' | 'group'): Promise<number | undefined> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '' || value.includes('\u0000') || value.includes(':') || value.includes('\n')) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be a ${field === 'owner' ? 'user' : 'group'} name or a numeric id, got ${JSON.stringify(value)}`);
  }
  if (/^\d{1,10}$/.test(value)) {
    const id = Number(value);
    if (id > 0xfffffffe) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} ${value} is not a valid id`);
    return id;
  }
  const file = field === 'owner' ? '/etc/passwd' : '/etc/group';
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch {
    // No such file: every name is unknown.
  }
  for (const line of text.split('\n')) {
    const [name, , id] = line.split(':');
    if (name === value && id !== undefined && /^\d+$/.test(id)) return Number(id);
  }
  throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} ${JSON.stringify(value)} is not a ${field === 'owner' ? 'user' : 'group'} of ${file}; give a name listed there or a numeric id`);
}

/**
 * `set_file_permissions`: `chown` when `owner` or `group` is given (first, because a chown may
 * clear set-user-ID bits), then `chmod` to `mode` exactly. Symbolic links are followed, as Go's
 * `os.Chmod` and `os.Chown` do. Unlike the hosted API, a refused chown is an error (403), not
 * silently skipped: the answer says whether the ownership changed.
 */
export async function setFilePermissions(path: string, mode: number, owner: unknown, group: unknown): Promise<void> {
  const uid = await accountId(owner, 'owner');
  const gid = await accountId(group, 'group');
  await attempt(path, () => stat(path));
  if (uid !== undefined || gid !== undefined) {
    await attempt(path, () => chown(path, uid ?? -1, gid ?? -1));
  }
  await attempt(path, () => chmod(path, mode));
}
