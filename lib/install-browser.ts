/**
 * `chromium-repl install-browser`: report the browser discovery would use, or install one where
 * that is a single, well-known package-manager command. With `--ffmpeg`, the same for ffmpeg,
 * which recordings need (docs/recordings.md). It only ever runs something because a
 * person typed this command; nothing else in the package installs software.
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { ReplError } from '../common/errors.js';
import { findChromium } from './chromium/find-chromium.js';
import { findFfmpeg } from './recordings/ffmpeg.js';

import type { FoundChromium } from './chromium/find-chromium.js';

/** Options of {@link installBrowser}; everything defaults to the running machine. */
export interface InstallBrowserOptions {
  /** Print what would run instead of running it. */
  dryRun?: boolean | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  platform?: NodeJS.Platform | undefined;
  /** Effective uid 0. Default `process.getuid?.() === 0`. */
  isRoot?: boolean | undefined;
  /** Contents of `/etc/os-release`, or `undefined` when absent. */
  osRelease?: string | undefined;
  /** Progress output. Default: stdout. */
  write?: ((text: string) => void) | undefined;
  /** Runs a command with inherited stdio and resolves its exit code. */
  runCommand?: ((command: string, args: readonly string[]) => Promise<number>) | undefined;
  /** Browser discovery. Default `findChromium({ env, platform })`. */
  find?: (() => FoundChromium) | undefined;
}

/** Outcome of {@link installBrowser} (failures throw). */
export type InstallBrowserResult =
  | { readonly status: 'found'; readonly executable: string; readonly source: FoundChromium['source'] }
  | { readonly status: 'installed'; readonly executable: string; readonly source: FoundChromium['source'] }
  | { readonly status: 'dry-run'; readonly commands: readonly string[] };

/** The commands that install Chromium on Debian as root. */
export const DEBIAN_COMMANDS: readonly (readonly string[])[] = [
  ['apt-get', 'update'],
  ['apt-get', 'install', '-y', 'chromium'],
];

/** Browser-independent fallback: Chrome for Testing through the bundled playwright-core CLI. */
const PLAYWRIGHT_COMMAND = 'npx playwright-core install chromium';

/**
 * Finds a browser; if there is none:
 * - Debian (and derivatives other than Ubuntu), as root: runs `apt-get update` and
 *   `apt-get install -y chromium`, announcing each command first;
 * - Debian, not root: prints the `sudo` commands;
 * - Ubuntu: prints instructions (its `chromium` package is a snap, which does not work in
 *   containers), with Chrome for Testing via `npx playwright-core install chromium`;
 * - elsewhere: prints the same fallback and the manual options.
 *
 * @throws ReplError `REPL_ERR_BROWSER_NOT_FOUND` when no browser is available afterwards; its
 *   message carries the instructions.
 */
export async function installBrowser(options: InstallBrowserOptions = {}): Promise<InstallBrowserResult> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const find = options.find ?? (() => findChromium({ env, platform }));

  const existing = tryFind(find);
  if (existing !== undefined) {
    write(`chromium-repl: found ${existing.executable} (via ${existing.source}); nothing to install.\n`);
    return { status: 'found', ...existing };
  }

  const release = parseOsRelease(options.osRelease ?? (platform === 'linux' ? readOsRelease() : undefined));
  const family = distroFamily(release);
  if (family === 'debian') {
    const isRoot = options.isRoot ?? process.getuid?.() === 0;
    const commands = DEBIAN_COMMANDS.map((command) => command.join(' '));
    if (!isRoot) {
      throw notInstalled(`No Chromium found. On Debian, install it with:\n  sudo ${commands.join(' && sudo ')}\nthen run \`npx chromium-repl install-browser\` again to check.`);
    }
    if (options.dryRun === true) {
      write(`chromium-repl: no Chromium found; would run:\n  ${commands.join('\n  ')}\n`);
      return { status: 'dry-run', commands };
    }
    const run = options.runCommand ?? runInherited;
    for (const [command, ...args] of DEBIAN_COMMANDS) {
      if (command === undefined) continue;
      write(`chromium-repl: no Chromium found; running: ${[command, ...args].join(' ')}\n`);
      const code = await run(command, args);
      if (code !== 0) throw notInstalled(`\`${[command, ...args].join(' ')}\` exited with code ${code}; Chromium was not installed.`);
    }
    const installed = tryFind(find);
    if (installed === undefined) throw notInstalled('apt-get finished, but no Chromium executable was found afterwards.');
    write(`chromium-repl: installed ${installed.executable}.\n`);
    return { status: 'installed', ...installed };
  }

  const lines = ['No Chromium, Chrome or Edge found. Options:'];
  if (family === 'ubuntu') {
    lines.push(
      `  - Chrome for Testing (works in containers): ${PLAYWRIGHT_COMMAND}` + ' (system libraries: `npx playwright-core install-deps chromium` as root)',
      '  - Google Chrome: install the .deb from https://www.google.com/chrome/ (Ubuntu\'s own chromium package is a snap, which does not run in containers)',
    );
  } else {
    lines.push(`  - Chrome for Testing: ${PLAYWRIGHT_COMMAND}`, '  - Google Chrome, Chromium or Microsoft Edge from their usual installers');
  }
  lines.push(
    '  - or point chromium-repl at an executable (BROWSER_REPL_CHROME / CHROME_PATH / the `executable` option) or a running browser (CDP_ENDPOINT).',
  );
  throw notInstalled(lines.join('\n'));
}

/** The commands that install ffmpeg on Debian as root. */
export const DEBIAN_FFMPEG_COMMANDS: readonly (readonly string[])[] = [
  ['apt-get', 'update'],
  ['apt-get', 'install', '-y', 'ffmpeg'],
];

/** Options of {@link installFfmpeg}: those of {@link installBrowser}, with ffmpeg's discovery. */
export interface InstallFfmpegOptions extends Omit<InstallBrowserOptions, 'find'> {
  /** ffmpeg discovery. Default `findFfmpeg(env)`. */
  find?: (() => string | null) | undefined;
}

export type InstallFfmpegResult =
  | { readonly status: 'found' | 'installed'; readonly executable: string }
  | { readonly status: 'dry-run'; readonly commands: readonly string[] };

/**
 * Finds ffmpeg (BROWSER_REPL_FFMPEG, PATH, /usr/bin/ffmpeg); if there is none: on Debian or
 * Ubuntu as root, says it will run `apt-get update` and `apt-get install -y ffmpeg`, then runs
 * them; not root, prints the `sudo` commands; elsewhere, how to get it.
 *
 * @throws ReplError `REPL_ERR_FFMPEG_NOT_FOUND` when no ffmpeg is available afterwards; its
 *   message carries the instructions.
 */
export async function installFfmpeg(options: InstallFfmpegOptions = {}): Promise<InstallFfmpegResult> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const find = options.find ?? (() => findFfmpeg(env));
  const missing = (message: string) => new ReplError('REPL_ERR_FFMPEG_NOT_FOUND', message);

  const existing = find();
  if (existing !== null) {
    write(`chromium-repl: found ffmpeg at ${existing}; nothing to install.\n`);
    return { status: 'found', executable: existing };
  }
  const release = parseOsRelease(options.osRelease ?? (platform === 'linux' ? readOsRelease() : undefined));
  // Ubuntu's ffmpeg is a plain .deb (no snap), so both families take the same commands.
  if (distroFamily(release) === 'other') {
    throw missing('No ffmpeg found (recordings need it). Install it with your package manager (it is `ffmpeg` in most), or set BROWSER_REPL_FFMPEG to an ffmpeg executable.');
  }
  const commands = DEBIAN_FFMPEG_COMMANDS.map((command) => command.join(' '));
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  if (!isRoot) throw missing(`No ffmpeg found (recordings need it). Install it with:\n  sudo ${commands.join(' && sudo ')}\nthen run \`npx chromium-repl install-browser --ffmpeg\` again to check.`);
  if (options.dryRun === true) {
    write(`chromium-repl: no ffmpeg found; would run:\n  ${commands.join('\n  ')}\n`);
    return { status: 'dry-run', commands };
  }
  write(`chromium-repl: no ffmpeg found (recordings need it); installing Debian's ffmpeg package with:\n  ${commands.join('\n  ')}\n`);
  const run = options.runCommand ?? runInherited;
  for (const [command, ...args] of DEBIAN_FFMPEG_COMMANDS) {
    if (command === undefined) continue;
    write(`chromium-repl: running: ${[command, ...args].join(' ')}\n`);
    const code = await run(command, args);
    if (code !== 0) throw missing(`\`${[command, ...args].join(' ')}\` exited with code ${code}; ffmpeg was not installed.`);
  }
  const installed = find();
  if (installed === null) throw missing('apt-get finished, but no ffmpeg executable was found afterwards.');
  write(`chromium-repl: installed ${installed}.\n`);
  return { status: 'installed', executable: installed };
}

/** Parses `/etc/os-release` (`KEY=value` lines, optionally quoted). */
export function parseOsRelease(text: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (text === undefined) return result;
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] === undefined || match[2] === undefined) continue;
    result[match[1]] = match[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return result;
}

/** `'debian'` for Debian and its derivatives except Ubuntu's family, `'ubuntu'`, or `'other'`. */
export function distroFamily(release: Record<string, string>): 'debian' | 'ubuntu' | 'other' {
  const ids = [release.ID ?? '', ...(release.ID_LIKE ?? '').split(/\s+/)].map((id) => id.toLowerCase());
  if (ids.includes('ubuntu')) return 'ubuntu';
  if (ids.includes('debian')) return 'debian';
  return 'other';
}

function tryFind(find: () => FoundChromium): FoundChromium | undefined {
  try {
    return find();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'REPL_ERR_BROWSER_NOT_FOUND') return undefined;
    throw error;
  }
}

function notInstalled(message: string): ReplError {
  return new ReplError('REPL_ERR_BROWSER_NOT_FOUND', message);
}

function readOsRelease(): string | undefined {
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // Try the next location.
    }
  }
  return undefined;
}

function runInherited(command: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}
