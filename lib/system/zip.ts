/**
 * Zips in and out: `upload_zip` extracts one into a directory, `download_dir_zip` streams a
 * directory as one (docs/process-and-files.md#zips). yauzl reads, yazl writes.
 *
 * Extraction treats the zip as hostile. Before a byte is written, every entry of the central
 * directory is checked: its name must stay inside the destination (no absolute paths, no `..`,
 * no backslashes), it must be a file or a directory (symbolic links and special files are
 * refused), and the entries, their declared sizes and ratios must be within the limits. The
 * entries are then inflated into a private folder inside the destination, counting the bytes
 * that actually come out (headers can lie), and moved into place only when all of them passed;
 * a failure removes the folder, so the destination is left as it was. Moving in never follows a
 * symbolic link: one where the zip has a directory is refused, one where it has a file is
 * replaced (rename(2) replaces the link, not its target).
 */
import { createWriteStream } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, sep } from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { ReplError } from '../../common/errors.js';
import { fsFailure } from './file-system.js';

/** Limits of one extraction (from the `files` settings). */
export interface ZipLimits {
  /** Bytes all entries may inflate to together. */
  readonly zipMaxBytes: number;
  readonly zipMaxEntries: number;
  /** Largest inflated-to-compressed ratio of one entry, once it is past {@link RATIO_FREE_BYTES}. */
  readonly zipMaxRatio: number;
}

/** Bytes of an entry not held to the ratio: small files of zeros compress beyond any ratio and harm nobody. */
const RATIO_FREE_BYTES = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** Made by Unix: the high half of `external file attributes` is its st_mode. */
const MADE_BY_UNIX = 3;

const unsafe = (name: string, why: string) => new ReplError('REPL_ERR_ZIP_UNSAFE_ENTRY', `zip entry ${JSON.stringify(name.slice(0, 300))} ${why}; nothing was extracted`);
const tooLarge = (why: string) => new ReplError('REPL_ERR_ZIP_TOO_LARGE', `${why}; nothing was extracted`);
const invalidZip = (error: unknown) => new ReplError('REPL_ERR_INVALID_REQUEST',
  `zip_file is not a zip this server can extract: ${error instanceof Error ? error.message : String(error)}`, { cause: error });

/** One entry as checked: its normalized relative path, kind and Unix permission bits. */
interface CheckedEntry {
  entry: yauzl.Entry;
  path: string;
  directory: boolean;
  mode: number;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // lazyEntries: the central directory is read one entry at a time, when asked, so that a zip
    // claiming millions of entries is refused from its header. decodeStrings stays on: yauzl then
    // refuses absolute, `..` and backslash names itself, and the check below repeats it.
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true }, (error, zip) => {
      if (error !== null || zip === undefined) reject(invalidZip(error));
      else resolve(zip);
    });
  });
}

/** The central directory's entries, each checked; throws before anything is extracted. */
function readEntries(zip: yauzl.ZipFile, limits: ZipLimits): Promise<CheckedEntry[]> {
  if (zip.entryCount > limits.zipMaxEntries) return Promise.reject(tooLarge(`the zip has ${zip.entryCount} entries, more than ${limits.zipMaxEntries} (files.zipMaxEntries)`));
  return new Promise((resolve, reject) => {
    const checked: CheckedEntry[] = [];
    const seen = new Set<string>();
    let declared = 0;
    const stop = (error: unknown) => {
      zip.removeAllListeners('entry');
      reject(error);
    };
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        const result = checkEntry(entry);
        if (seen.has(result.path)) throw unsafe(entry.fileName, 'appears twice');
        seen.add(result.path);
        declared += entry.uncompressedSize;
        if (declared > limits.zipMaxBytes) throw tooLarge(`the zip's entries declare more than ${limits.zipMaxBytes} bytes (files.zipMaxMb)`);
        if (!result.directory && entry.uncompressedSize > RATIO_FREE_BYTES && entry.uncompressedSize > limits.zipMaxRatio * Math.max(1, entry.compressedSize)) {
          throw tooLarge(`zip entry ${JSON.stringify(entry.fileName.slice(0, 300))} declares a compression ratio above ${limits.zipMaxRatio} (files.zipMaxRatio)`);
        }
        checked.push(result);
        zip.readEntry();
      } catch (error) {
        stop(error);
      }
    });
    zip.once('end', () => resolve(checked));
    // yauzl's own refusals of a name ("invalid relative path", "absolute path") are unsafe entries too.
    zip.once('error', (error: Error) => stop(/path|characters in fileName/i.test(error.message)
      ? new ReplError('REPL_ERR_ZIP_UNSAFE_ENTRY', `zip entry refused: ${error.message}; nothing was extracted`, { cause: error })
      : invalidZip(error)));
    zip.readEntry();
  });
}

function checkEntry(entry: yauzl.Entry): CheckedEntry {
  const name = entry.fileName;
  if (name.includes('\u0000')) throw unsafe(name, 'has a NUL byte in its name');
  if (name.includes('\\')) throw unsafe(name, 'has a backslash in its name');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw unsafe(name, 'is an absolute path');
  if (name.split('/').includes('..')) throw unsafe(name, 'leaves the destination (a .. segment)');
  const path = posix.normalize(name).replace(/\/+$/, '');
  if (path === '' || path === '.' || path.startsWith('../')) throw unsafe(name, 'names no file inside the destination');
  if (entry.isEncrypted()) throw invalidZip(new Error(`entry ${JSON.stringify(name)} is encrypted`));
  const unixMode = (entry.versionMadeBy >> 8) === MADE_BY_UNIX ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
  const type = unixMode & S_IFMT;
  if (type === S_IFLNK) throw unsafe(name, 'is a symbolic link (links are not extracted)');
  const directory = name.endsWith('/') || type === S_IFDIR;
  if (type !== 0 && type !== S_IFDIR && type !== S_IFREG) throw unsafe(name, 'is a special file (device, FIFO or socket)');
  // Permission bits only: set-user-ID, set-group-ID and sticky bits from a zip are dropped.
  const permissions = unixMode & 0o777;
  return { entry, path, directory, mode: permissions !== 0 ? permissions : directory ? 0o755 : 0o644 };
}

/** Counts the bytes an entry really inflates to, against the total and the ratio. */
function counter(checked: CheckedEntry, totals: { bytes: number }, limits: ZipLimits): Transform {
  let bytes = 0;
  const ratioLimit = limits.zipMaxRatio * Math.max(1, checked.entry.compressedSize);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      totals.bytes += chunk.length;
      if (totals.bytes > limits.zipMaxBytes) callback(tooLarge(`the zip inflates to more than ${limits.zipMaxBytes} bytes (files.zipMaxMb)`));
      else if (bytes > RATIO_FREE_BYTES && bytes > ratioLimit) callback(tooLarge(`zip entry ${JSON.stringify(checked.path)} inflates beyond a compression ratio of ${limits.zipMaxRatio} (files.zipMaxRatio)`));
      else callback(null, chunk);
    },
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error !== null || stream === undefined) reject(invalidZip(error));
      else resolve(stream);
    });
  });
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fsFailure(error, path);
  }
}

/**
 * Checks (`apply: false`) or performs (`apply: true`) the move of the staged tree `from` into
 * `to`: a missing directory is moved in whole, an existing one is merged into, files replace
 * files. `relative` names entries in errors.
 */
async function moveInto(from: string, to: string, relative: string, apply: boolean): Promise<void> {
  for (const name of await readdir(from)) {
    const source = join(from, name);
    const target = join(to, name);
    const entryName = relative === '' ? name : `${relative}/${name}`;
    const sourceInfo = await lstat(source);
    const targetInfo = await lstatOrUndefined(target);
    if (sourceInfo.isDirectory()) {
      if (targetInfo === undefined) {
        if (apply) await rename(source, target);
      } else if (targetInfo.isSymbolicLink()) {
        throw unsafe(entryName, `would be written through the symbolic link ${JSON.stringify(target)}`);
      } else if (!targetInfo.isDirectory()) {
        throw new ReplError('REPL_ERR_INVALID_REQUEST', `zip entry ${JSON.stringify(entryName)} is a directory, and ${JSON.stringify(target)} is a file; nothing was extracted`);
      } else {
        await moveInto(source, target, entryName, apply);
      }
    } else {
      if (targetInfo?.isDirectory() === true) {
        throw new ReplError('REPL_ERR_INVALID_REQUEST', `zip entry ${JSON.stringify(entryName)} is a file, and ${JSON.stringify(target)} is a directory; nothing was extracted`);
      }
      if (apply) await rename(source, target);
    }
  }
}

/**
 * `upload_zip`: extracts the zip at `zipPath` into the directory `dest` (created with its
 * parents when missing, 755), all or nothing.
 *
 * @throws ReplError `REPL_ERR_ZIP_UNSAFE_ENTRY` (an entry leaves `dest`, is a link or a special
 *   file, appears twice, or would be written through a link), `REPL_ERR_ZIP_TOO_LARGE` (entries,
 *   bytes or ratio past the limits, declared or real), `REPL_ERR_INVALID_REQUEST` (not a zip,
 *   encrypted, an unsupported compression, a file where the zip has a directory or the reverse),
 *   and the errors of `fsFailure`.
 */
export async function extractZip(zipPath: string, dest: string, limits: ZipLimits): Promise<void> {
  const zip = await openZip(zipPath);
  let created: string | undefined;
  let staging: string | undefined;
  let done = false;
  try {
    const entries = await readEntries(zip, limits);
    const existing = await stat(dest).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `dest_path ${JSON.stringify(dest)} is not a directory`);
    try {
      created = await mkdir(dest, { recursive: true, mode: 0o755 });
    } catch (error) {
      throw fsFailure(error, dest);
    }
    const root = await realpath(dest);
    // Inside the destination, so that moving in is a rename on the same file system.
    staging = await mkdtemp(join(root, '.upload-zip-'));
    const totals = { bytes: 0 };
    for (const checked of entries) {
      const target = join(staging, ...checked.path.split('/'));
      // The names were checked; this holds the line even if that check had a gap.
      if (!target.startsWith(`${staging}${sep}`)) throw unsafe(checked.entry.fileName, 'leaves the destination');
      if (checked.directory) {
        await mkdir(target, { recursive: true, mode: checked.mode }).catch((error: unknown) => { throw conflictOrFailure(error, checked); });
        continue;
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o755 }).catch((error: unknown) => { throw conflictOrFailure(error, checked); });
      const stream = await openEntry(zip, checked.entry);
      try {
        await pipeline(stream, counter(checked, totals, limits), createWriteStream(target, { flags: 'wx', mode: checked.mode }));
      } catch (error) {
        if (error instanceof ReplError) throw error;
        // yauzl's validateEntrySizes: the entry inflates past the size its headers declare, the
        // bomb that lies about itself (the message is yauzl's; the "sizes that lie" test guards it).
        if (error instanceof Error && /too many bytes in the stream/.test(error.message)) {
          throw tooLarge(`zip entry ${JSON.stringify(checked.path)} inflates to more bytes than its header declares (${checked.entry.uncompressedSize})`);
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') throw conflictOrFailure(error, checked);
        // yauzl's complaints while inflating (a bad deflate stream, sizes that do not match the headers).
        if (code === undefined || code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') throw invalidZip(error);
        throw fsFailure(error, dest);
      }
    }
    await moveInto(staging, root, '', false);
    await moveInto(staging, root, '', true);
    done = true;
  } catch (error) {
    // The folder could not be made or read, a rename was refused: the registry's error for it.
    throw fsFailure(error, dest);
  } finally {
    zip.close();
    if (staging !== undefined) await rm(staging, { recursive: true, force: true }).catch(() => {});
    // A destination this call made goes again with a failed extraction.
    if (!done && created !== undefined) await rm(created, { recursive: true, force: true }).catch(() => {});
  }
}

function conflictOrFailure(error: unknown, checked: CheckedEntry): ReplError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new ReplError('REPL_ERR_INVALID_REQUEST', `zip entry ${JSON.stringify(checked.path)} conflicts with another entry (a file and a directory of the same name); nothing was extracted`, { cause: error });
  }
  return fsFailure(error, checked.path);
}

/**
 * `download_dir_zip`: the directory `root` as a zip stream. Directories become directory entries
 * (empty ones survive), symbolic links link entries (their target as data, not followed), and
 * special files are left out. The tree is walked before the first byte, so that a directory that
 * cannot be read answers an error rather than a cut zip.
 */
export async function zipDirectory(root: string, limits: Pick<ZipLimits, 'zipMaxEntries'>): Promise<Readable> {
  let info: Stats;
  try {
    info = await stat(root);
  } catch (error) {
    throw fsFailure(error, root);
  }
  if (!info.isDirectory()) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${JSON.stringify(root)} is not a directory`);
  const entries: { path: string; name: string; info: Stats; link?: string }[] = [];
  const pending = [{ path: root, name: '' }];
  while (pending.length > 0) {
    const { path, name } = pending.shift()!;
    let names: string[];
    try {
      names = (await readdir(path)).sort();
    } catch (error) {
      throw fsFailure(error, path);
    }
    for (const child of names) {
      const childPath = join(path, child);
      const childName = name === '' ? child : `${name}/${child}`;
      let childInfo: Stats;
      try {
        childInfo = await lstat(childPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw fsFailure(error, childPath);
      }
      if (!childInfo.isDirectory() && !childInfo.isFile() && !childInfo.isSymbolicLink()) continue;
      if (entries.length >= limits.zipMaxEntries) {
        throw new ReplError('REPL_ERR_ZIP_TOO_LARGE', `${JSON.stringify(root)} has more than ${limits.zipMaxEntries} entries (files.zipMaxEntries); zip a smaller directory`);
      }
      const link = childInfo.isSymbolicLink() ? await readlink(childPath).catch(() => undefined) : undefined;
      if (childInfo.isSymbolicLink() && link === undefined) continue;
      entries.push({ path: childPath, name: childName, info: childInfo, ...(link === undefined ? {} : { link }) });
      if (childInfo.isDirectory()) pending.push({ path: childPath, name: childName });
    }
  }
  const zip = new yazl.ZipFile();
  const output = new PassThrough();
  // A file that vanished or cannot be read after the walk: the stream fails, and the route cuts the answer.
  zip.on('error', (error: Error) => output.destroy(fsFailure(error, root)));
  zip.outputStream.on('error', (error: Error) => output.destroy(error));
  zip.outputStream.pipe(output);
  for (const entry of entries) {
    const options = { mtime: entry.info.mtime, mode: entry.info.mode };
    if (entry.info.isDirectory()) zip.addEmptyDirectory(entry.name, options);
    else if (entry.link !== undefined) zip.addBuffer(Buffer.from(entry.link), entry.name, { ...options, compress: false });
    else zip.addFile(entry.path, entry.name, options);
  }
  zip.end();
  return output;
}

/** The file name a downloaded zip of `root` is offered as. */
export function zipName(root: string): string {
  return `${basename(root) || 'root'}.zip`;
}
