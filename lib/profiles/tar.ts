/**
 * A tar writer for a profile's download (`GET /profiles/{id}/download`): POSIX ustar headers, with
 * a PAX `path` record for names longer than ustar holds (a Chromium profile has deep IndexedDB and
 * Service Worker paths). Regular files and folders only: links and sockets of a user-data folder
 * (the `Singleton*` entries) are left out. Streams file by file, so memory stays at one file.
 */
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

const BLOCK = 512;
/** What one read takes from a file. */
const CHUNK = 64 * 1024;

/** The entries of the archive, relative to `root`, `/`-separated, parents before children. */
/** Reads a whole file's content for the archive (a sealed profile's files are opened so). */
export type ReadContent = (file: string, relative: string) => Promise<Buffer>;

export async function* tarStream(root: string, prefix: string, read?: ReadContent): AsyncGenerator<Buffer> {
  const top = prefix.replace(/\/+$/, '');
  yield* entriesOf(root, top, top, read);
  yield Buffer.alloc(BLOCK * 2);
}

/** An archive of one empty folder (a profile never saved). */
export function* emptyFolderTar(prefix: string): Generator<Buffer> {
  yield* header(`${prefix.replace(/\/+$/, '')}/`, 0, '5', 0o755);
  yield Buffer.alloc(BLOCK * 2);
}

async function* entriesOf(dir: string, relative: string, top: string, read: ReadContent | undefined): AsyncGenerator<Buffer> {
  const names = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  yield* header(`${relative}/`, 0, '5', 0o755);
  for (const entry of names) {
    const child = path.join(dir, entry.name);
    const name = `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      yield* entriesOf(child, name, top, read);
    } else if (entry.isFile() && read !== undefined) {
      const content = await read(child, name.slice(top.length + 1));
      yield* header(name, content.length, '0', 0o644);
      yield content;
      const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
      if (pad > 0) yield Buffer.alloc(pad);
    } else if (entry.isFile()) {
      yield* fileEntry(child, name);
    }
  }
}

async function* fileEntry(file: string, name: string): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    yield* header(name, size, '0', 0o644);
    let left = size;
    while (left > 0) {
      const buffer = Buffer.alloc(Math.min(CHUNK, left));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, size - left);
      // A file that shrank while it was read is padded with zeros: the header already said its size.
      if (bytesRead === 0) {
        yield Buffer.alloc(left);
        left = 0;
        break;
      }
      left -= bytesRead;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad > 0) yield Buffer.alloc(pad);
  } finally {
    await handle.close();
  }
}

function* header(name: string, size: number, type: '0' | '5', mode: number): Generator<Buffer> {
  const bytes = Buffer.byteLength(name);
  if (bytes > 100) {
    // A PAX extended header carries the full path; the ustar name below is only a fallback.
    const record = paxRecord('path', name);
    yield ustar(`PaxHeader/${name.slice(-80).replace(/^\/+/, '')}`.slice(0, 100), record.length, 'x', 0o644);
    yield record;
    const pad = (BLOCK - (record.length % BLOCK)) % BLOCK;
    if (pad > 0) yield Buffer.alloc(pad);
  }
  yield ustar(bytes > 100 ? truncateUtf8(name, 100) : name, size, type, mode);
}

/** `"<len> key=value\n"`, where len counts the whole record, its own digits included. */
export function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = Buffer.byteLength(body);
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
  return Buffer.from(`${length}${body}`);
}

function ustar(name: string, size: number, type: '0' | '5' | 'x', mode: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  octal(block, mode, 100, 8);
  octal(block, 0, 108, 8);
  octal(block, 0, 116, 8);
  octal(block, size, 124, 12);
  octal(block, Math.floor(Date.now() / 1000), 136, 12);
  block.fill(0x20, 148, 156);
  block.write(type, 156, 1, 'ascii');
  block.write('ustar\u000000', 257, 8, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return block;
}

function octal(block: Buffer, value: number, offset: number, length: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'ascii');
}

function truncateUtf8(text: string, bytes: number): string {
  let out = text;
  while (Buffer.byteLength(out) > bytes) out = out.slice(1);
  return out;
}
