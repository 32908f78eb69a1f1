/**
 * Argument parsing and geometry of `captureScreenshot` (pure; unit-tested in
 * test/unit/screenshot-options.test.mjs). Accepted forms:
 * `captureScreenshot(path?, fullPage?, maxDim?)` (the contract), `captureScreenshot(options)` and
 * `captureScreenshot(path, options)`, where options are
 * `{path, fullPage, maxDim, format, quality, clip, selector}`.
 */
import { invalidArgument, readOptions } from '../helper-options.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** A region in CSS pixels, relative to the top-left corner of the document. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A validated screenshot request. */
export interface ScreenshotRequest {
  path: string;
  format: ImageFormat;
  /** 0–100, jpeg and webp only. */
  quality: number | undefined;
  /** Largest output side in device pixels; the image is scaled down (never up) to fit. */
  maxDim: number | undefined;
  region: { kind: 'viewport' } | { kind: 'fullPage' } | { kind: 'clip'; clip: Rect } | { kind: 'selector'; selector: string };
}

export const DEFAULT_SCREENSHOT_PATH = '/tmp/shot.png';

const OPTION_KEYS = ['path', 'fullPage', 'maxDim', 'format', 'quality', 'clip', 'selector'] as const;
const EXTENSION_FORMATS: Readonly<Record<string, ImageFormat>> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp' };

/** The format a file extension implies (`.png`, `.jpg`/`.jpeg`, `.webp`), if any. */
export function formatFromPath(path: string): ImageFormat | undefined {
  const match = /\.([A-Za-z]+)$/.exec(path);
  return match === null ? undefined : EXTENSION_FORMATS[match[1]!.toLowerCase()];
}

function readFormat(value: unknown): ImageFormat | undefined {
  if (value === undefined) return undefined;
  const format = typeof value === 'string' ? EXTENSION_FORMATS[value.toLowerCase()] : undefined;
  if (format === undefined) throw invalidArgument('captureScreenshot: format must be "png", "jpeg" or "webp"');
  return format;
}

function readClip(value: unknown): Rect {
  const clip = value as Partial<Record<keyof Rect, unknown>> | null;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (
    clip === null || typeof clip !== 'object' ||
    !finite(clip.x) || !finite(clip.y) || !finite(clip.width) || !finite(clip.height) || clip.width <= 0 || clip.height <= 0
  ) {
    throw invalidArgument('captureScreenshot: clip must be {x, y, width, height} in CSS pixels, with a positive width and height');
  }
  return { x: clip.x, y: clip.y, width: clip.width, height: clip.height };
}

/** Parses the helper's arguments (any of the accepted forms) into a request. */
export function readScreenshotArguments(args: readonly unknown[]): ScreenshotRequest {
  const [first, second, third] = args;
  let options: Record<string, unknown>;
  if (first !== null && typeof first === 'object') {
    if (args.length > 1) throw invalidArgument('captureScreenshot: pass either an options object or (path, fullPage, maxDim)');
    options = readOptions('captureScreenshot', first, OPTION_KEYS);
  } else if (second !== null && typeof second === 'object') {
    if (args.length > 2) throw invalidArgument('captureScreenshot: pass either (path, options) or (path, fullPage, maxDim)');
    options = { ...readOptions('captureScreenshot', second, OPTION_KEYS.filter((key) => key !== 'path')), path: first };
  } else {
    options = { path: first, fullPage: second, maxDim: third };
  }

  const path = options['path'] ?? DEFAULT_SCREENSHOT_PATH;
  if (typeof path !== 'string' || path.trim() === '') throw invalidArgument('captureScreenshot: path must be a non-empty string');

  const fullPage = options['fullPage'] ?? false;
  if (typeof fullPage !== 'boolean') throw invalidArgument('captureScreenshot: fullPage must be a boolean');

  const rawMaxDim = options['maxDim'];
  if (rawMaxDim !== undefined && rawMaxDim !== null && (typeof rawMaxDim !== 'number' || !Number.isInteger(rawMaxDim) || rawMaxDim <= 0)) {
    throw invalidArgument('captureScreenshot: maxDim must be a positive integer');
  }
  const maxDim = typeof rawMaxDim === 'number' ? rawMaxDim : undefined;

  const fromPath = formatFromPath(path);
  const requested = readFormat(options['format']);
  if (requested !== undefined && fromPath !== undefined && requested !== fromPath) {
    throw invalidArgument(`captureScreenshot: format "${requested}" does not match the file extension of ${JSON.stringify(path)}`);
  }
  const format = requested ?? fromPath ?? 'png';

  const rawQuality = options['quality'];
  let quality: number | undefined;
  if (rawQuality !== undefined) {
    if (typeof rawQuality !== 'number' || !Number.isInteger(rawQuality) || rawQuality < 0 || rawQuality > 100) {
      throw invalidArgument('captureScreenshot: quality must be an integer from 0 to 100');
    }
    if (format === 'png') throw invalidArgument('captureScreenshot: quality applies to jpeg and webp only (png is lossless)');
    quality = rawQuality;
  }

  const clip = options['clip'] === undefined ? undefined : readClip(options['clip']);
  const selector = options['selector'];
  if (selector !== undefined && (typeof selector !== 'string' || selector.trim() === '')) {
    throw invalidArgument('captureScreenshot: selector must be a non-empty string');
  }
  if ([fullPage, clip !== undefined, selector !== undefined].filter(Boolean).length > 1) {
    throw invalidArgument('captureScreenshot: fullPage, clip and selector are mutually exclusive');
  }
  const region: ScreenshotRequest['region'] = fullPage
    ? { kind: 'fullPage' }
    : clip !== undefined
      ? { kind: 'clip', clip }
      : typeof selector === 'string'
        ? { kind: 'selector', selector }
        : { kind: 'viewport' };
  return { path, format, quality, maxDim, region };
}

/**
 * The `clip.scale` that makes a `width`×`height` CSS-pixel region at `devicePixelRatio` fit in
 * `maxDim` device pixels on its longer side; 1 when it already fits (never enlarges). Chromium
 * rounds the output size to the nearest pixel, so the longer side comes out as exactly `maxDim`.
 */
export function scaleToFit(width: number, height: number, devicePixelRatio: number, maxDim: number | undefined): number {
  if (maxDim === undefined) return 1;
  const longest = Math.max(width, height) * (devicePixelRatio > 0 ? devicePixelRatio : 1);
  return longest <= maxDim ? 1 : maxDim / longest;
}
