/**
 * Normalises every input form `repl.emitImage` accepts into `{mimeType, bytes}` (docs/repl.md, `repl.emitImage`).
 * Checks are realm-safe: values built inside the cell context have that realm's prototypes, so
 * nothing here uses `instanceof`.
 */
import { readFile } from 'node:fs/promises';
import { LIMITS } from '../../common/limits.js';
import {
  ArrayBufferIsView, BufferFrom, ObjectHasOwn, ObjectPrototypeToString, RegExpPrototypeTest, StringPrototypeSlice,
} from './primordials.js';

export interface NormalizedImage {
  mimeType: string;
  bytes: Uint8Array;
}

const MIME_PATTERN = /^image\/[A-Za-z0-9.+-]+$/;
const MAX_MIME_LENGTH = 128;
const UNSUPPORTED = 'repl.emitImage: unsupported input (expected a data URL, Buffer, Uint8Array, ArrayBuffer, { bytes, mimeType? }, or { path, mimeType? })';

class EmitImageError extends TypeError {
  readonly code = 'REPL_ERR_INVALID_ARGUMENT';
}

function isValidMime(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_MIME_LENGTH && RegExpPrototypeTest(MIME_PATTERN, value);
}

function isArrayBufferLike(value: unknown): value is ArrayBuffer {
  const tag = ObjectPrototypeToString(value);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

/** Views any binary input as bytes without copying; `null` when it is not binary. */
export function asBytes(value: unknown): Uint8Array | null {
  if (ArrayBufferIsView(value)) {
    const view = value as ArrayBufferView;
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  if (isArrayBufferLike(value)) return new Uint8Array(value);
  return null;
}

/** PNG, JPEG or WebP from the magic bytes; `null` otherwise. */
export function sniffImageMime(bytes: Uint8Array): string | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length > 12 && bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x46
    && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return null;
}

function explicitMime(input: object): string | undefined {
  const record = input as Record<string, unknown>;
  const value = ObjectHasOwn(record, 'mimeType') ? record['mimeType'] : record['mime_type'];
  if (value === undefined) return undefined;
  if (!isValidMime(value)) throw new EmitImageError('repl.emitImage: MIME type must be a short image/* media type');
  return value;
}

function fromDataUrl(input: string): NormalizedImage {
  const comma = input.indexOf(',');
  const header = comma === -1 ? '' : StringPrototypeSlice(input, 0, comma);
  if (!header.startsWith('data:') || !header.endsWith(';base64')) {
    throw new EmitImageError('repl.emitImage: string input must be an image/* data URL');
  }
  const mimeType = StringPrototypeSlice(header, 5, header.length - ';base64'.length);
  if (!mimeType.startsWith('image/')) throw new EmitImageError('repl.emitImage: string input must be an image/* data URL');
  if (!isValidMime(mimeType)) throw new EmitImageError('repl.emitImage: data URL MIME type must be a short image/* media type');
  return { mimeType, bytes: BufferFrom(StringPrototypeSlice(input, comma + 1), 'base64') };
}

function sniffed(bytes: Uint8Array, message: string): NormalizedImage {
  const mimeType = sniffImageMime(bytes);
  if (mimeType === null) throw new EmitImageError(message);
  return { mimeType, bytes };
}

/**
 * A string that names a file rather than holding data: absolute, or relative with `./`/`../`.
 * `captureScreenshot()` resolves such a path, so `repl.emitImage(await captureScreenshot())`
 * works as written (the hosted product takes only data URLs as strings).
 */
const FILE_PATH = /^(?:\/|\.\.?\/)/;

async function normalize(input: unknown): Promise<NormalizedImage> {
  if (typeof input === 'string') {
    if (!RegExpPrototypeTest(FILE_PATH, input)) return fromDataUrl(input);
    return fromFile(input, undefined);
  }
  const direct = asBytes(input);
  if (direct !== null) return sniffed(direct, 'repl.emitImage: unrecognized image data (expected PNG, JPEG, or WebP)');
  if (input === null || typeof input !== 'object') throw new EmitImageError(UNSUPPORTED);
  const record = input as Record<string, unknown>;
  if (ObjectHasOwn(record, 'bytes')) {
    const bytes = asBytes(record['bytes']);
    if (bytes === null) throw new EmitImageError('repl.emitImage: bytes must be a Buffer, Uint8Array, or ArrayBuffer');
    const mimeType = explicitMime(record);
    return mimeType === undefined
      ? sniffed(bytes, 'repl.emitImage: unrecognized image data (expected PNG, JPEG, or WebP)')
      : { mimeType, bytes };
  }
  if (ObjectHasOwn(record, 'path')) {
    const path = record['path'];
    if (typeof path !== 'string' || path === '') throw new EmitImageError('repl.emitImage: path must be a non-empty string');
    return fromFile(path, explicitMime(record));
  }
  throw new EmitImageError(UNSUPPORTED);
}

async function fromFile(path: string, mimeType: string | undefined): Promise<NormalizedImage> {
  const bytes = await readFile(path);
  return mimeType === undefined
    ? sniffed(bytes, `repl.emitImage: ${path} is not a recognized image (expected PNG, JPEG, or WebP)`)
    : { mimeType, bytes };
}

/** Normalises and size-checks one `repl.emitImage` input. */
export async function normalizeImageInput(input: unknown): Promise<NormalizedImage> {
  const image = await normalize(input);
  if (image.bytes.byteLength > LIMITS.imageBytes) {
    const error = new RangeError(
      `repl.emitImage: image is ${image.bytes.byteLength} bytes, exceeding the ${LIMITS.imageBytes} byte per-image limit`);
    Object.defineProperty(error, 'code', { value: 'REPL_ERR_OUTPUT_LIMIT', enumerable: false });
    throw error;
  }
  return image;
}
