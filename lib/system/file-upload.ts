/**
 * The multipart routes `POST /fs/upload` and `POST /fs/upload_zip` (docs/process-and-files.md),
 * and the limits of every file transfer and watch (the `files` options). The form fields are the
 * Kernel SDK's: `files[<i>][file]` with `files[<i>][dest_path]` (also `files[<i>].file`,
 * `files.<i>.file`, and `file` with `dest_path` for one file, as the hosted API accepts), and
 * `zip_file` with `dest_path`. Parts arrive in any order (the SDK appends a streamed file after
 * the fields), so every file is first received into a private folder of the system's temporary
 * folder, counted against the limits as it arrives, and only written to its destination once the
 * whole request was read and checked.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ReplError } from '../../common/errors.js';
import { absolutePath, writeFileFrom } from './file-system.js';
import type { FileWatchLimits } from './file-watch.js';

/** Limits of the file transfers and watches (`files` of the server options). Each field has a `BROWSER_REPL_*` variable. */
export interface FileOptions {
  /** Bytes of one `upload` or `upload_zip` request's files together, in MiB (`BROWSER_REPL_UPLOAD_MAX_MB`). Default 256. */
  uploadMaxMb?: number | undefined;
  /** Files of one `upload` request (`BROWSER_REPL_UPLOAD_MAX_FILES`). Default 100. */
  uploadMaxFiles?: number | undefined;
  /** Bytes a zip of `upload_zip` may inflate to, all entries together, in MiB (`BROWSER_REPL_ZIP_MAX_MB`). Default 1024. */
  zipMaxMb?: number | undefined;
  /** Entries of one zip, in `upload_zip` and `download_dir_zip` (`BROWSER_REPL_ZIP_MAX_ENTRIES`). Default 10 000. */
  zipMaxEntries?: number | undefined;
  /** Largest inflated-to-compressed ratio of one entry past its first MiB (`BROWSER_REPL_ZIP_MAX_RATIO`). Default 1000. */
  zipMaxRatio?: number | undefined;
  /** Watches running at once on the server (`BROWSER_REPL_MAX_WATCHES`). Default 32. */
  maxWatches?: number | undefined;
  /** Directories one recursive watch may cover (`BROWSER_REPL_WATCH_MAX_DIRECTORIES`). Default 4096. */
  maxWatchDirectories?: number | undefined;
  /** Events kept for a watch nobody reads (`BROWSER_REPL_WATCH_MAX_QUEUED_EVENTS`). Default 1000. */
  maxQueuedEvents?: number | undefined;
}

/** {@link FileOptions} checked, defaults applied. */
export interface FileSettings extends FileWatchLimits {
  readonly uploadMaxBytes: number;
  readonly uploadMaxFiles: number;
  readonly zipMaxBytes: number;
  readonly zipMaxEntries: number;
  readonly zipMaxRatio: number;
}

const MIB = 1024 * 1024;
const DEFAULTS = {
  uploadMaxMb: 256, uploadMaxFiles: 100, zipMaxMb: 1024, zipMaxEntries: 10_000, zipMaxRatio: 1000,
  maxWatches: 32, maxWatchDirectories: 4096, maxQueuedEvents: 1000,
};
const VARIABLES: Record<keyof typeof DEFAULTS, string> = {
  uploadMaxMb: 'BROWSER_REPL_UPLOAD_MAX_MB',
  uploadMaxFiles: 'BROWSER_REPL_UPLOAD_MAX_FILES',
  zipMaxMb: 'BROWSER_REPL_ZIP_MAX_MB',
  zipMaxEntries: 'BROWSER_REPL_ZIP_MAX_ENTRIES',
  zipMaxRatio: 'BROWSER_REPL_ZIP_MAX_RATIO',
  maxWatches: 'BROWSER_REPL_MAX_WATCHES',
  maxWatchDirectories: 'BROWSER_REPL_WATCH_MAX_DIRECTORIES',
  maxQueuedEvents: 'BROWSER_REPL_WATCH_MAX_QUEUED_EVENTS',
};

/** The settings of `options`, else of `env`, else the defaults; throws naming the option or variable. */
export function fileSettings(options: FileOptions = {}, env: NodeJS.ProcessEnv = process.env): FileSettings {
  const read = (field: keyof typeof DEFAULTS): number => {
    const given = options[field];
    const variable = env[VARIABLES[field]];
    const [value, source] = given !== undefined ? [given, `files.${field}`]
      : variable !== undefined && variable !== '' ? [Number(variable), VARIABLES[field]]
        : [DEFAULTS[field], field];
    if (!Number.isSafeInteger(value) || value < 1) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${source} must be an integer of at least 1`);
    return value;
  };
  return Object.freeze({
    uploadMaxBytes: read('uploadMaxMb') * MIB,
    uploadMaxFiles: read('uploadMaxFiles'),
    zipMaxBytes: read('zipMaxMb') * MIB,
    zipMaxEntries: read('zipMaxEntries'),
    zipMaxRatio: read('zipMaxRatio'),
    maxWatches: read('maxWatches'),
    maxWatchDirectories: read('maxWatchDirectories'),
    maxQueuedEvents: read('maxQueuedEvents'),
  });
}

/** Longest text field (a path); Linux's PATH_MAX. */
const FIELD_BYTES = 4096;
/** Room for the multipart framing beyond the files' bytes, when judging a declared Content-Length. */
const FRAMING_BYTES = MIB;

/** One received part: a file staged at `staged`, or a text field. */
interface Part {
  name: string;
  value?: string;
  staged?: string;
}

/** A request's parts, with its private folder; `dispose()` removes the folder (always call it). */
export interface ReceivedParts {
  readonly parts: readonly Part[];
  dispose(): Promise<void>;
}

const tooLarge = (what: string, limit: string) => new ReplError('REPL_ERR_BODY_TOO_LARGE', `${what} exceeds ${limit}`);

/**
 * Reads a multipart/form-data body: text fields kept, files staged in a private temporary folder
 * (mode 700), at most `maxFiles` files and `maxBytes` of them together. Rejects with
 * `REPL_ERR_INVALID_REQUEST` for a body that is not multipart or is malformed, and
 * `REPL_ERR_BODY_TOO_LARGE` past a limit (at once, without reading the rest); the folder is then
 * already removed.
 */
export async function receiveParts(req: IncomingMessage, limits: { maxFiles: number; maxBytes: number; fields: string }): Promise<ReceivedParts> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + FRAMING_BYTES) throw tooLarge('the upload', `${limits.maxBytes} bytes`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: limits.maxFiles, fields: limits.maxFiles * 2 + 8, fieldSize: FIELD_BYTES, fieldNameSize: 200, parts: limits.maxFiles * 3 + 8 },
    });
  } catch (error) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `the body must be multipart/form-data with the fields ${limits.fields} (${error instanceof Error ? error.message : String(error)})`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'browser-repl-upload-'));
  const dispose = () => rm(folder, { recursive: true, force: true });
  const parts: Part[] = [];
  const writing: Promise<void>[] = [];
  /** The counting stage of each file being written: destroying it ends that file's pipeline. */
  const stages = new Set<Transform>();
  let total = 0;
  let failure: unknown;
  /** Removes the listeners finished() added to the request (it does not on its own). */
  let stopWatchingRequest = (): void => {};
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        if (failure !== undefined) return;
        failure = error;
        req.unpipe(parser);
        // The file parts being written stop; their promises settle before the folder goes. (The
        // middle stage is destroyed: a busboy file stream destroyed from inside its own parse
        // step never emits 'close', and its pipeline would never settle.)
        for (const stage of stages) stage.destroy(error instanceof Error ? error : new Error(String(error)));
        void Promise.allSettled(writing).then(() => reject(error));
      };
      parser.on('field', (name, value, info) => {
        if (info.nameTruncated || info.valueTruncated) {
          fail(new ReplError('REPL_ERR_INVALID_REQUEST', `the form field ${JSON.stringify(name.slice(0, 200))} is longer than ${FIELD_BYTES} bytes`));
          return;
        }
        parts.push({ name, value });
      });
      parser.on('file', (name, stream) => {
        if (failure !== undefined) {
          stream.resume();
          return;
        }
        const staged = join(folder, `part-${parts.length}`);
        parts.push({ name, staged });
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            total += chunk.length;
            if (total > limits.maxBytes) callback(tooLarge('the upload', `${limits.maxBytes} bytes`));
            else callback(null, chunk);
          },
        });
        stages.add(counter);
        writing.push(pipeline(stream, counter, createWriteStream(staged, { flags: 'wx', mode: 0o600 })).then(
          () => { stages.delete(counter); },
          (error: unknown) => {
            stages.delete(counter);
            fail(error instanceof ReplError ? error : new ReplError('REPL_ERR_ABORTED', `the upload failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
          },
        ));
      });
      parser.on('filesLimit', () => fail(tooLarge('the upload', `${limits.maxFiles} files`)));
      parser.on('fieldsLimit', () => fail(new ReplError('REPL_ERR_INVALID_REQUEST', `the form has too many fields; it takes ${limits.fields}`)));
      parser.on('partsLimit', () => fail(new ReplError('REPL_ERR_INVALID_REQUEST', `the form has too many parts; it takes ${limits.fields}`)));
      parser.on('error', (error: unknown) => fail(new ReplError('REPL_ERR_INVALID_REQUEST', `malformed multipart body: ${error instanceof Error ? error.message : String(error)}`, { cause: error })));
      parser.on('close', () => {
        void Promise.allSettled(writing).then(() => {
          if (failure === undefined) resolve();
        });
      });
      // finished() also reports a request that ended before this listener existed (the client went
      // away while the folder was being made): an 'aborted' listener added now would never fire,
      // the parser would wait for a body that never comes, and the folder would stay.
      stopWatchingRequest = finished(req, { writable: false }, (error) => {
        if (error !== undefined && error !== null) fail(new ReplError('REPL_ERR_ABORTED', 'the client went away during the upload', { cause: error }));
      });
      req.pipe(parser);
    });
  } catch (error) {
    await dispose();
    throw error;
  } finally {
    stopWatchingRequest();
  }
  return { parts, dispose };
}

/** `files[3][dest_path]`, `files[3].dest_path`, `files.3.dest_path` → [3, 'dest_path']; `file`, `dest_path` → index 0. */
function uploadField(name: string): [number, string] | undefined {
  if (name === 'file' || name === 'dest_path') return [0, name];
  const match = /^files(?:\[(\d{1,6})\](?:\[(file|dest_path)\]|\.(file|dest_path))|\.(\d{1,6})\.(file|dest_path))$/.exec(name);
  if (match === null) return undefined;
  return [Number(match[1] ?? match[4]), (match[2] ?? match[3] ?? match[5])!];
}

/**
 * `upload`: writes each file to its `dest_path` as `write_file` does (parents created, a
 * temporary file renamed over the target, the replaced file's mode kept). Everything is checked
 * before the first file is written; files are then written in the order of their index.
 */
export async function uploadFiles(req: IncomingMessage, settings: FileSettings): Promise<void> {
  const received = await receiveParts(req, {
    maxFiles: settings.uploadMaxFiles, maxBytes: settings.uploadMaxBytes, fields: 'files[<i>][file] and files[<i>][dest_path]',
  });
  try {
    const items = new Map<number, { staged?: string; dest?: string }>();
    for (const part of received.parts) {
      const field = uploadField(part.name);
      if (field === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `invalid form field: ${JSON.stringify(part.name.slice(0, 200))}; upload takes files[<i>][file] and files[<i>][dest_path]`);
      const [index, kind] = field;
      const item = items.get(index) ?? {};
      items.set(index, item);
      if (kind === 'file') {
        if (part.staged === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${part.name} must be a file part (with a filename)`);
        item.staged = part.staged;
      } else {
        item.dest = absolutePath(part.value, part.name);
      }
    }
    if (items.size === 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'files is required: send files[0][file] and files[0][dest_path]');
    const ordered = [...items].sort(([a], [b]) => a - b);
    for (const [index, item] of ordered) {
      if (item.staged === undefined || item.dest === undefined) {
        throw new ReplError('REPL_ERR_INVALID_REQUEST', `files[${index}] needs both file and dest_path`);
      }
      // A directory in the way is refused before anything is written.
      const existing = await stat(item.dest).catch(() => undefined);
      if (existing?.isDirectory() === true) throw new ReplError('REPL_ERR_INVALID_REQUEST', `files[${index}].dest_path ${JSON.stringify(item.dest)} is a directory`);
    }
    for (const [, item] of ordered) {
      await writeFileFrom(item.dest!, createReadStream(item.staged!), { limitBytes: Number.MAX_SAFE_INTEGER });
    }
  } finally {
    await received.dispose();
  }
}

/**
 * `upload_zip`'s form: the staged `zip_file` and its `dest_path`. The caller extracts it, then
 * calls `dispose()`.
 */
export async function receiveZipUpload(req: IncomingMessage, settings: FileSettings): Promise<{ zip: string; dest: string; dispose: () => Promise<void> }> {
  const received = await receiveParts(req, { maxFiles: 1, maxBytes: settings.uploadMaxBytes, fields: 'zip_file and dest_path' });
  try {
    let zip: string | undefined;
    let dest: string | undefined;
    for (const part of received.parts) {
      if (part.name === 'zip_file' && part.staged !== undefined) zip = part.staged;
      else if (part.name === 'dest_path' && part.value !== undefined) dest = absolutePath(part.value, 'dest_path');
      else throw new ReplError('REPL_ERR_INVALID_REQUEST', `invalid form field: ${JSON.stringify(part.name.slice(0, 200))}; upload_zip takes zip_file (a file) and dest_path`);
    }
    if (zip === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'zip_file is required (a file part)');
    if (dest === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'dest_path is required');
    return { zip, dest, dispose: received.dispose };
  } catch (error) {
    await received.dispose();
    throw error;
  }
}
