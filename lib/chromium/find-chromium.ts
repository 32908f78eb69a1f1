/**
 * Finds a Chromium-family executable (Chromium, Chrome, Edge). A pure function of its inputs:
 * environment, platform, home directory and two file-system probes are injectable, so the
 * discovery order is unit-tested without touching the machine.
 */

import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { ReplError } from '../../common/errors.js';

/** Where {@link findChromium} found the executable. */
export type ChromiumSource =
  | 'option'
  | 'env:BROWSER_REPL_CHROME'
  | 'env:CHROME_PATH'
  | 'path'
  | 'playwright-cache'
  | 'puppeteer-cache'
  | 'platform';

/** Result of {@link findChromium}. */
export interface FoundChromium {
  readonly executable: string;
  readonly source: ChromiumSource;
}

/** Inputs of {@link findChromium}; everything defaults to the running machine. */
export interface FindChromiumOptions {
  /** Explicit executable (a path, or a bare name looked up on PATH). Wins over everything. */
  executable?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  platform?: NodeJS.Platform | undefined;
  homeDir?: string | undefined;
  /** True for an existing, executable regular file. */
  isExecutable?: ((file: string) => boolean) | undefined;
  /** Entries of a directory; `[]` when it does not exist. */
  listDir?: ((dir: string) => string[]) | undefined;
}

/** Names tried on PATH, most specific first. */
export const PATH_NAMES: readonly string[] = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'google-chrome-beta',
  'google-chrome-unstable',
  'chrome',
  'microsoft-edge',
  'microsoft-edge-stable',
  'msedge',
];

const WINDOWS_PATH_NAMES: readonly string[] = ['chrome.exe', 'msedge.exe', 'chromium.exe'];

/** Install hint shared by every "no browser" message. */
export const INSTALL_HINT = 'install one with `npx chromium-repl install-browser` (`npm run install-browser` in a checkout; on Debian/Ubuntu: `apt-get install chromium`)';

/**
 * Finds a browser, in this order: the `executable` option; `BROWSER_REPL_CHROME`, then
 * `CHROME_PATH`; common names on `PATH`; Playwright's cache; Puppeteer's cache; the platform's
 * install locations (macOS app bundles, Windows Program Files). Newest cached build first.
 *
 * An explicit choice (option or variable) that does not point at an executable is an error
 * rather than a silent fall-through to some other browser.
 *
 * @throws ReplError `REPL_ERR_BROWSER_NOT_FOUND`, naming the option, the variables and how to
 *   install a browser.
 */
export function findChromium(options: FindChromiumOptions = {}): FoundChromium {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  // The injected environment's home wins, so tests (and callers with a custom env) stay hermetic.
  const home = options.homeDir ?? nonEmpty(platform === 'win32' ? env.USERPROFILE : env.HOME) ?? homedir();
  const isExecutable = options.isExecutable ?? defaultIsExecutable;
  const listDir = options.listDir ?? defaultListDir;
  const searchPath = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':').filter((dir) => dir !== '');
  const lookup = (name: string): string | undefined => {
    for (const dir of searchPath) {
      const candidate = paths.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
    return undefined;
  };
  const explicit = (value: string, source: ChromiumSource, label: string): FoundChromium => {
    const resolved = value.includes('/') || value.includes('\\') ? (isExecutable(value) ? value : undefined) : lookup(value);
    if (resolved === undefined) {
      throw notFound(`${label} is ${JSON.stringify(value)}, which is not an executable file`, { [source]: value });
    }
    return { executable: resolved, source };
  };

  if (options.executable !== undefined && options.executable !== '') return explicit(options.executable, 'option', 'the `executable` option');
  const fromBrowserRepl = env.BROWSER_REPL_CHROME;
  if (fromBrowserRepl !== undefined && fromBrowserRepl !== '') return explicit(fromBrowserRepl, 'env:BROWSER_REPL_CHROME', 'BROWSER_REPL_CHROME');
  const fromChromePath = env.CHROME_PATH;
  if (fromChromePath !== undefined && fromChromePath !== '') return explicit(fromChromePath, 'env:CHROME_PATH', 'CHROME_PATH');

  for (const name of platform === 'win32' ? WINDOWS_PATH_NAMES : PATH_NAMES) {
    const found = lookup(name);
    if (found !== undefined) return { executable: found, source: 'path' };
  }

  const playwrightRoot = playwrightCacheDir(env, platform, home, paths);
  for (const candidate of cachedBuilds(playwrightRoot, /^chromium-\d+$/, playwrightLayouts(platform), listDir, paths)) {
    if (isExecutable(candidate)) return { executable: candidate, source: 'playwright-cache' };
  }
  const puppeteerRoot = env.PUPPETEER_CACHE_DIR !== undefined && env.PUPPETEER_CACHE_DIR !== '' ? env.PUPPETEER_CACHE_DIR : paths.join(home, '.cache', 'puppeteer');
  for (const candidate of [
    ...cachedBuilds(paths.join(puppeteerRoot, 'chrome'), /./, puppeteerLayouts(platform), listDir, paths),
    ...cachedBuilds(paths.join(puppeteerRoot, 'chromium'), /./, playwrightLayouts(platform), listDir, paths),
  ]) {
    if (isExecutable(candidate)) return { executable: candidate, source: 'puppeteer-cache' };
  }

  for (const candidate of platformLocations(platform, env, home, paths)) {
    if (isExecutable(candidate)) return { executable: candidate, source: 'platform' };
  }

  throw notFound(`searched ${platform === 'win32' ? WINDOWS_PATH_NAMES.join(', ') : PATH_NAMES.join(', ')} on PATH, ${playwrightRoot} and ${puppeteerRoot}${platform === 'darwin' || platform === 'win32' ? ' and the usual install locations' : ''}`, {
    playwrightCache: playwrightRoot,
    puppeteerCache: puppeteerRoot,
  });
}

function notFound(what: string, data: Record<string, unknown>): ReplError {
  return new ReplError(
    'REPL_ERR_BROWSER_NOT_FOUND',
    `No Chromium-based browser found (${what}). ` +
      'Pass the `executable` option, set BROWSER_REPL_CHROME (or CHROME_PATH) to a Chromium, Chrome or Edge binary, ' +
      'set CDP_ENDPOINT to attach to a running browser (ws://… or http://host:port), ' +
      `or ${INSTALL_HINT}.`,
    { data },
  );
}

/** Playwright's browser registry: `PLAYWRIGHT_BROWSERS_PATH`, else the per-OS cache directory. */
function playwrightCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string, paths: path.PlatformPath): string {
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  // "0" means "inside the playwright package"; not searched, fall back to the shared cache.
  if (configured !== undefined && configured !== '' && configured !== '0') return configured;
  if (platform === 'darwin') return paths.join(home, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return paths.join(env.LOCALAPPDATA ?? paths.join(home, 'AppData', 'Local'), 'ms-playwright');
  return paths.join(env.XDG_CACHE_HOME ?? paths.join(home, '.cache'), 'ms-playwright');
}

/** Executable paths inside one Playwright `chromium-<revision>` directory (new layout first). */
function playwrightLayouts(platform: NodeJS.Platform): string[][] {
  if (platform === 'darwin') {
    return [
      ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
      ['chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
      ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ];
  }
  if (platform === 'win32') return [['chrome-win64', 'chrome.exe'], ['chrome-win', 'chrome.exe']];
  return [['chrome-linux64', 'chrome'], ['chrome-linux-arm64', 'chrome'], ['chrome-linux', 'chrome']];
}

/** Executable paths inside one Puppeteer `<platform>-<buildId>` directory. */
function puppeteerLayouts(platform: NodeJS.Platform): string[][] {
  if (platform === 'darwin') {
    return [
      ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
      ['chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
    ];
  }
  if (platform === 'win32') return [['chrome-win64', 'chrome.exe'], ['chrome-win32', 'chrome.exe']];
  return [['chrome-linux64', 'chrome'], ['chrome-linux-arm64', 'chrome']];
}

/** Candidate executables under `root/<build>/…`, newest build first. */
function cachedBuilds(root: string, buildPattern: RegExp, layouts: string[][], listDir: (dir: string) => string[], paths: path.PlatformPath): string[] {
  const builds = listDir(root)
    .filter((name) => buildPattern.test(name))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return builds.flatMap((build) => layouts.map((layout) => paths.join(root, build, ...layout)));
}

function platformLocations(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string, paths: path.PlatformPath): string[] {
  if (platform === 'darwin') {
    const bundles = [
      ['Google Chrome.app', 'Google Chrome'],
      ['Chromium.app', 'Chromium'],
      ['Microsoft Edge.app', 'Microsoft Edge'],
      ['Google Chrome Canary.app', 'Google Chrome Canary'],
      ['Google Chrome for Testing.app', 'Google Chrome for Testing'],
      ['Brave Browser.app', 'Brave Browser'],
    ] as const;
    return ['/Applications', paths.join(home, 'Applications')].flatMap((apps) =>
      bundles.map(([bundle, binary]) => paths.join(apps, bundle, 'Contents', 'MacOS', binary)),
    );
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => root !== undefined && root !== '');
    const relative = [
      ['Google', 'Chrome', 'Application', 'chrome.exe'],
      ['Chromium', 'Application', 'chrome.exe'],
      ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
      ['Google', 'Chrome SxS', 'Application', 'chrome.exe'],
    ];
    return roots.flatMap((root) => relative.map((parts) => paths.join(root, ...parts)));
  }
  // Linux and the BSDs install into directories on PATH; nothing extra to guess.
  return [];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function defaultIsExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function defaultListDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
