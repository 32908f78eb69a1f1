/**
 * Launches one Chromium process with a throw-away profile and reads its DevTools endpoint from
 * stderr. The process runs in its own process group so that closing it also ends the renderer,
 * GPU and zygote children, and it is killed if the Node process exits without closing it.
 */

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { debuglog } from 'node:util';

import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { valueWithin } from '../../common/wait.js';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import { ownedTempPrefix, processRuns, sweepStaleTempFolders, tiedCommand, guardProcessGroup } from '../system/child-lifetime.js';

import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

const debug = debuglog('browser-repl:launch');

/**
 * Always passed. The machine may have no internet: without these Chromium keeps retrying
 * component updates, sync, QUIC probes and first-run pings against a closed network.
 */
export const OFFLINE_ARGS: readonly string[] = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--no-default-browser-check',
];

/** Also always passed: behaviour an automated, unattended browser needs. */
export const AUTOMATION_ARGS: readonly string[] = [
  // No crash-report uploads, phishing-model downloads or reliability beacons (more network noise).
  '--disable-breakpad',
  '--disable-client-side-phishing-detection',
  '--disable-domain-reliability',
  '--metrics-recording-only',
  '--disable-default-apps',
  // Never block on the OS keyring (a Keychain or GNOME Keyring prompt nobody will answer).
  '--password-store=basic',
  '--use-mock-keychain',
  // A tab in the background keeps full-speed timers and rendering, so waits stay accurate.
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  // No "page unresponsive" or "resubmit form" browser dialogs while code drives the page.
  '--disable-hang-monitor',
  '--disable-prompt-on-repost',
  // window.open() works without a user gesture, as scripts expect.
  '--disable-popup-blocking',
  // No "unsupported command-line flag" bar (for --no-sandbox) over the first tab: it would take
  // 56 px from that tab's viewport alone, so tabs of one window would differ in size.
  '--test-type',
];

/**
 * Features every launch enables: WebMCP's page API (`document.modelContext`) is behind
 * `WebMCPTesting` in Chromium 149–156; `DevToolsWebMCPSupport` is what older builds need for the
 * CDP `WebMCP` domain (docs/webmcp.md). Merged with the caller's own `--enable-features`, since
 * Chromium reads only one of several such switches.
 */
export const ENABLED_FEATURES: readonly string[] = ['WebMCPTesting', 'DevToolsWebMCPSupport'];
const ENABLE_FEATURES = '--enable-features=';

/** Default time to wait for `DevTools listening on ws://…` (docs/architecture.md, "Limits of the CDP layer"). */
export const STARTUP_TIMEOUT_MS = 15_000;
/** Time between SIGTERM and SIGKILL in `close()` (docs/architecture.md, "Limits of the CDP layer"). */
export const KILL_GRACE_MS = 3_000;
const STDERR_TAIL_LINES = 30;
const ENDPOINT_PATTERN = /DevTools listening on (ws:\/\/\S+)/;

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  executable: string;
  /** Default true (`--headless=new`). `false` needs a display. */
  headless?: boolean | undefined;
  /** Adds `--no-sandbox`. Default false; `BrowserManager` decides automatically. */
  noSandbox?: boolean | undefined;
  /** Extra flags, appended after ours (so they win where Chromium takes the last value). */
  args?: readonly string[] | undefined;
  /**
   * `--window-size` of the windows the browser opens by itself (the first one, and new windows
   * opened without a size). This is the window, not its page area: headless Chromium keeps
   * about 87 px of it for an invisible tab strip and toolbar (lib/chromium/viewport.ts).
   */
  windowSize?: { width: number; height: number } | undefined;
  startupTimeoutMs?: number | undefined;
  killGraceMs?: number | undefined;
  /** Environment of the browser process. Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Parent directory of the temporary profile. Default `os.tmpdir()`. */
  tmpDir?: string | undefined;
  /**
   * Ties the browser to this process's life, so a SIGKILLed server leaves no browser running
   * (`setpriv --pdeathsig KILL`, or a watchdog where setpriv is missing; lib/system/child-lifetime.ts).
   * Default true. Spawn from the main thread: the signal follows the thread that launched.
   */
  parentDeathSignal?: boolean | undefined;
  /**
   * Fills the fresh user-data folder before Chromium starts (a stored profile's copy,
   * docs/browsers.md#profiles). A failure fails the launch.
   */
  seedUserData?: ((userDataDir: string) => Promise<void>) | undefined;
  /**
   * Called once the browser that started (it printed its endpoint) has exited, its whole process
   * group gone, so its files are flushed, and before its user-data folder is removed: where a
   * profile is saved. Its failure is logged; the folder is removed all the same.
   */
  beforeRemoveUserData?: ((userDataDir: string) => Promise<void>) | undefined;
  signal?: AbortSignal | undefined;
}

/** How a launched Chromium ended. */
export interface ChromiumExit {
  readonly pid: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when `close()` asked for it. */
  readonly expected: boolean;
}

/** Command-line flags for a launch (exported for tests and diagnostics). */
export function chromiumArgs(options: Pick<LaunchChromiumOptions, 'headless' | 'noSandbox' | 'args' | 'windowSize'> & { userDataDir: string }): string[] {
  const given = options.args ?? [];
  const features = new Set(ENABLED_FEATURES);
  for (const arg of given) {
    if (arg.startsWith(ENABLE_FEATURES)) for (const feature of arg.slice(ENABLE_FEATURES.length).split(',')) if (feature !== '') features.add(feature);
  }
  const extra = given.filter((arg) => !arg.startsWith(ENABLE_FEATURES));
  const result = ['--remote-debugging-port=0', `--user-data-dir=${options.userDataDir}`, ...OFFLINE_ARGS, ...AUTOMATION_ARGS, `${ENABLE_FEATURES}${[...features].join(',')}`];
  if (options.headless ?? true) result.push('--headless=new');
  if (options.noSandbox === true) result.push('--no-sandbox');
  if (options.windowSize !== undefined) result.push(`--window-size=${options.windowSize.width},${options.windowSize.height}`);
  // Open a blank page rather than the new-tab page (which is internal and may try the network),
  // unless the caller passed a URL of their own.
  if (!extra.some((arg) => !arg.startsWith('-'))) result.push('about:blank');
  result.push(...extra);
  return result;
}

interface LiveBrowser {
  readonly pid: number;
  readonly userDataDir: string;
  kill(signal: NodeJS.Signals): void;
}

// Browsers still running; killed synchronously if Node exits without closing them.
const liveBrowsers = new Set<LiveBrowser>();
let exitHookInstalled = false;

/**
 * Kills every browser launched by this module (SIGKILL to its process group) and removes its
 * profile, synchronously. Runs on `process.on('exit')`; signal handlers of a CLI may call it too.
 */
export function killLaunchedBrowsersSync(): void {
  for (const browser of liveBrowsers) browser.kill('SIGKILL');
  for (const browser of liveBrowsers) {
    // A killed group takes a moment to go: a process still alive may write into the profile after
    // it was removed (seen under load). So wait (synchronously: this runs in 'exit') until the
    // browser process is gone, at most EXIT_KILL_WAIT_MS, then remove the profile.
    // The whole group, not only the browser process: a renderer or the zygote may outlive it by a
    // moment and write into the profile (a flake of launch-chromium.test.mjs).
    const until = Date.now() + EXIT_KILL_WAIT_MS;
    while (groupAlive(browser.pid) && Date.now() < until) sleepSync(10);
    const singleton = singletonSocketDir(browser.userDataDir);
    if (singleton !== undefined) rmSync(singleton, { recursive: true, force: true });
    // A write that raced the removal recreates a folder: remove again until it stays gone.
    for (;;) {
      try {
        rmSync(browser.userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      } catch {
        // Best effort while the processes exit.
      }
      if (!existsSync(browser.userDataDir) || Date.now() >= until) break;
      sleepSync(10);
    }
  }
  liveBrowsers.clear();
}

/** How long the exit hook waits for a killed browser to be gone before removing its profile. */
const EXIT_KILL_WAIT_MS = 1_000;

/**
 * Whether any process of the process group `pgid` still runs (zombies do not count). Linux reads
 * /proc; elsewhere only the group leader is looked at.
 */
export function groupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') return processRuns(pgid);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return processRuns(pgid);
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Gone meanwhile.
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

/**
 * The folder Chromium made in the OS temp folder for its singleton socket
 * (`/tmp/org.chromium.Chromium.XXXXXX`), named by the profile's `SingletonSocket` link. Chromium
 * leaves it behind when it is killed, and even after a SIGTERM, so it goes with the profile. Only
 * a folder of exactly that shape directly in the temp folder is named, whatever the link says.
 */
export function singletonSocketDir(userDataDir: string): string | undefined {
  let target: string;
  try {
    target = readlinkSync(path.join(userDataDir, 'SingletonSocket'));
  } catch {
    return undefined;
  }
  const dir = path.dirname(target);
  return path.dirname(dir) === tmpdir() && /^org\.chromium\.Chromium\.[A-Za-z0-9]{6,}$/.test(path.basename(dir)) ? dir : undefined;
}

const sweptParents = new Set<string>();

/**
 * Before the first launch into a folder, removes the profiles (with their singleton-socket folders)
 * and the other temporary folders that servers killed earlier left there: their creating process
 * no longer runs (lib/system/child-lifetime.ts). Once per folder and process. Returns what it removed.
 */
export async function sweepStaleProfiles(parentDir: string = tmpdir()): Promise<string[]> {
  if (sweptParents.has(parentDir)) return [];
  sweptParents.add(parentDir);
  return sweepStaleTempFolders(parentDir, singletonSocketDir);
}

/** How long a closed browser's group may take to go before its stragglers are killed. */
const GROUP_EXIT_WAIT_MS = 2_000;

/**
 * Removes a profile once every process of the browser's group is gone: the browser process exits
 * first, its renderers and zygote a moment later, and one that still writes would leave files
 * behind (or recreate the folder). Stragglers past {@link GROUP_EXIT_WAIT_MS} are killed.
 */
async function removeProfileAfterGroup(pgid: number, userDataDir: string, beforeRemove?: (userDataDir: string) => Promise<void>): Promise<void> {
  const until = Date.now() + GROUP_EXIT_WAIT_MS;
  while (process.platform !== 'win32' && groupAlive(pgid)) {
    if (Date.now() >= until) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
      await sleep(50);
      break;
    }
    await sleep(20);
  }
  if (beforeRemove !== undefined) {
    await beforeRemove(userDataDir).catch((error: unknown) => debug('saving %s before its removal failed: %o', userDataDir, error));
  }
  const singleton = singletonSocketDir(userDataDir);
  if (singleton !== undefined) await rm(singleton, { recursive: true, force: true }).catch(() => undefined);
  for (let attempt = 0; attempt < 3; attempt++) {
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch((error: unknown) =>
      debug('could not remove %s: %s', userDataDir, (error as Error).message),
    );
    if (!existsSync(userDataDir)) return;
    await sleep(50);
  }
}

/** Blocks the thread for `ms` (only in the synchronous exit hook, where nothing else can run). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function track(browser: LiveBrowser): void {
  liveBrowsers.add(browser);
  if (!exitHookInstalled) {
    process.on('exit', killLaunchedBrowsersSync);
    exitHookInstalled = true;
  }
}

function untrack(browser: LiveBrowser): void {
  liveBrowsers.delete(browser);
  if (liveBrowsers.size === 0 && exitHookInstalled) {
    process.off('exit', killLaunchedBrowsersSync);
    exitHookInstalled = false;
  }
}

/**
 * One running Chromium. Create with {@link launchChromium}. `close()` ends it (SIGTERM, SIGKILL
 * after a grace) and removes the profile; `exited` settles once that cleanup is done, whether
 * the browser was closed or died on its own.
 */
export class ChromiumProcess extends Resource {
  readonly #child: ChildProcess;
  readonly #pid: number;
  readonly #executable: string;
  readonly #userDataDir: string;
  readonly #killGraceMs: number;
  readonly #stderrTail: string[] = [];
  readonly #exited: Promise<ChromiumExit>;
  readonly #live: LiveBrowser;
  #wsEndpoint = '';
  #partialLine = '';
  #exitInfo: ChromiumExit | undefined;
  #closeRequested = false;
  #onEndpoint: ((endpoint: string) => void) | undefined;
  #onEarlyExit: ((reason: string) => void) | undefined;
  readonly #beforeRemove: ((userDataDir: string) => Promise<void>) | undefined;

  private constructor(child: ChildProcess, pid: number, executable: string, userDataDir: string, killGraceMs: number, beforeRemove?: (userDataDir: string) => Promise<void>) {
    super();
    this.#beforeRemove = beforeRemove;
    this.#child = child;
    this.#pid = pid;
    this.#executable = executable;
    this.#userDataDir = userDataDir;
    this.#killGraceMs = killGraceMs;
    this.#live = { pid, userDataDir, kill: (signal) => killGroup(child, pid, signal) };
    track(this.#live);
    this.#exited = new Promise<ChromiumExit>((resolve) => {
      child.once('exit', (code, signal) => {
        const info: ChromiumExit = { pid, code, signal, expected: this.#closeRequested };
        this.#exitInfo = info;
        debug('chromium %d exited (code %s, signal %s)', pid, code, signal);
        // Renderer and GPU children may outlive a killed browser process; end the whole group.
        killGroup(child, pid, 'SIGKILL');
        untrack(this.#live);
        void this.#afterExit(info).finally(() => resolve(info));
      });
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.#onStderr(chunk));
  }

  /** Launches Chromium; see {@link launchChromium}. */
  static async launch(options: LaunchChromiumOptions): Promise<ChromiumProcess> {
    const { executable } = options;
    if (options.signal?.aborted === true) throw aborted(options.signal);
    const parentDir = options.tmpDir ?? tmpdir();
    await sweepStaleProfiles(parentDir);
    const userDataDir = await mkdtemp(ownedTempPrefix('browser-repl-profile', parentDir));
    if (options.seedUserData !== undefined) {
      try {
        await options.seedUserData(userDataDir);
      } catch (error) {
        await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
        throw error;
      }
    }
    const args = chromiumArgs({ userDataDir, headless: options.headless, noSandbox: options.noSandbox, args: options.args, windowSize: options.windowSize });
    const tied = tiedCommand(executable, args, { enabled: options.parentDeathSignal ?? true, pathEnv: (options.env ?? process.env)['PATH'] });
    debug('spawn %s %s', tied.command, tied.args.join(' '));
    let child: ChildProcess;
    try {
      child = spawn(tied.command, tied.args, {
        // Own process group (POSIX), so the whole browser tree can be signalled at once.
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'ignore', 'pipe'],
        env: options.env ?? process.env,
        windowsHide: true,
      });
    } catch (error) {
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw new ReplError('REPL_ERR_BROWSER_LAUNCH_FAILED', `Could not start ${executable}: ${(error as Error).message}`, { cause: error, data: { executable } });
    }
    const pid = child.pid;
    if (pid === undefined) {
      // Spawning failed synchronously enough that there is no pid (ENOENT, EACCES): 'error' follows.
      const cause = await new Promise<Error>((resolve) => child.once('error', resolve));
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw new ReplError('REPL_ERR_BROWSER_LAUNCH_FAILED', `Could not start ${executable}: ${cause.message}`, { cause, data: { executable } });
    }
    child.on('error', (error) => debug('chromium %d error: %s', pid, error.message));
    // The death signal ends the browser process; the watchdog its renderers, GPU and zygote too.
    if (tied.mode !== 'none') {
      const guard = guardProcessGroup(pid);
      child.once('exit', () => guard.release());
    }
    const browser = new ChromiumProcess(child, pid, executable, userDataDir, options.killGraceMs ?? KILL_GRACE_MS, options.beforeRemoveUserData);
    try {
      await browser.#waitForEndpoint(options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS, options.signal, options.headless ?? true, options.env ?? process.env);
    } catch (error) {
      await browser.close();
      throw error;
    }
    // Running browsers must not keep Node alive on their own; the exit hook kills them.
    child.unref();
    (child.stderr as Socket | null)?.unref();
    return browser;
  }

  /** Process id of the browser (also its process group id on POSIX). */
  get pid(): number {
    return this.#pid;
  }

  /** The executable that was started. */
  get executable(): string {
    return this.#executable;
  }

  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  get wsEndpoint(): string {
    return this.#wsEndpoint;
  }

  /** The temporary profile directory (removed once the browser has exited). */
  get userDataDir(): string {
    return this.#userDataDir;
  }

  /** True until the browser process has exited. */
  get running(): boolean {
    return this.#exitInfo === undefined;
  }

  /** Settles once the browser has exited and its profile is removed. Never rejects. */
  get exited(): Promise<ChromiumExit> {
    return this.#exited;
  }

  /** The last lines Chromium wrote to stderr (for error messages). */
  stderrTail(): string {
    return this.#stderrTail.join('\n');
  }

  /**
   * `close()` sends SIGTERM to the process group, SIGKILL after the grace period, then removes the
   * profile; every caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    this.#closeRequested = true;
    if (this.#exitInfo === undefined && this.#beforeRemove !== undefined && this.#wsEndpoint !== '') {
      // A browser whose user data is kept is asked to quit over CDP first: a SIGTERMed headless
      // Chromium exits without flushing its cookie store, so the saved profile would miss the
      // latest cookies. SIGTERM follows if it has not gone within the grace.
      await requestBrowserClose(this.#wsEndpoint);
      await valueWithin(this.#exited.then(() => true), this.#killGraceMs);
    }
    if (this.#exitInfo === undefined) {
      killGroup(this.#child, this.#pid, 'SIGTERM');
      const exited = await valueWithin(this.#exited.then(() => true), this.#killGraceMs);
      if (exited === undefined) killGroup(this.#child, this.#pid, 'SIGKILL');
    }
    await this.#exited;
  }

  async #afterExit(info: ChromiumExit): Promise<void> {
    if (this.#onEarlyExit !== undefined) {
      // The reason for an early exit is usually in the last stderr lines, which may still be in
      // the pipe: wait briefly for it to drain before reporting.
      const stderr = this.#child.stderr;
      if (stderr !== null && !stderr.readableEnded) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, 500);
          function done(): void {
            clearTimeout(timer);
            stderr?.off('close', done);
            resolve();
          }
          stderr.once('close', done);
        });
      }
      this.#onEarlyExit?.(`it exited (code ${info.code}, signal ${info.signal}) before printing its DevTools endpoint`);
    }
    // A browser that never started has nothing worth keeping.
    const beforeRemove = this.#wsEndpoint === '' ? undefined : this.#beforeRemove;
    await removeProfileAfterGroup(this.#pid, this.#userDataDir, beforeRemove);
  }

  #onStderr(chunk: string): void {
    const lines = (this.#partialLine + chunk).split('\n');
    this.#partialLine = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      debug('chromium %d: %s', this.#pid, line);
      this.#stderrTail.push(line);
      if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
      if (this.#wsEndpoint === '') {
        const match = ENDPOINT_PATTERN.exec(line);
        if (match?.[1] !== undefined) {
          this.#wsEndpoint = match[1];
          this.#onEndpoint?.(match[1]);
        }
      }
    }
  }

  #waitForEndpoint(timeoutMs: number, signal: AbortSignal | undefined, headless: boolean, env: NodeJS.ProcessEnv): Promise<void> {
    if (this.#wsEndpoint !== '') return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#onEndpoint = undefined;
        this.#onEarlyExit = undefined;
      };
      const fail = (reason: string, cause?: unknown): void => {
        cleanup();
        reject(this.#launchFailed(reason, headless, env, cause));
      };
      const onAbort = (): void => {
        cleanup();
        reject(aborted(signal as AbortSignal));
      };
      const timer = setTimeout(() => fail(`it did not print its DevTools endpoint within ${timeoutMs}ms`), timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#onEndpoint = () => {
        cleanup();
        resolve();
      };
      this.#onEarlyExit = (reason) => fail(reason);
    });
  }

  #launchFailed(reason: string, headless: boolean, env: NodeJS.ProcessEnv, cause?: unknown): ReplError {
    const tail = [...this.#stderrTail, this.#partialLine].filter((line) => line !== '').join('\n');
    let hint = '';
    // Chromium keeps its singleton socket in a folder of TMPDIR; a Unix socket's path may not be
    // longer than 107 bytes, and a deep TMPDIR (a test runner's, a CI job's) aborts the browser.
    if (/Socket path too long/.test(tail)) {
      hint = ` Hint: Chromium's singleton socket lives in TMPDIR (${env['TMPDIR'] ?? tmpdir()}), and that path is too long for a Unix socket (107 bytes at most): start the server with a shorter TMPDIR.`;
    } else if (/no-sandbox|sandbox/i.test(tail)) hint = ' Hint: the sandbox could not start; pass noSandbox: true (or run outside a restricted container).';
    else if (!headless && process.platform === 'linux' && (env.DISPLAY ?? '') === '' && (env.WAYLAND_DISPLAY ?? '') === '') {
      hint = ' Hint: headless: false needs a display (DISPLAY or WAYLAND_DISPLAY is not set).';
    }
    return new ReplError(
      'REPL_ERR_BROWSER_LAUNCH_FAILED',
      `Chromium (${this.#executable}) failed to start: ${reason}.${hint}${tail === '' ? ' It wrote nothing to stderr.' : `\nLast browser output:\n${tail}`}`,
      { cause, data: { executable: this.#executable, pid: this.#pid, stderr: tail } },
    );
  }
}

/** Launches Chromium and resolves once its DevTools endpoint is known. */
export function launchChromium(options: LaunchChromiumOptions): Promise<ChromiumProcess> {
  return ChromiumProcess.launch(options);
}

/** Sends `Browser.close` (best effort: a browser that does not answer is signalled after). */
async function requestBrowserClose(endpoint: string): Promise<void> {
  const link = new BrowserLink({ endpointProvider: () => Promise.resolve(endpoint) });
  try {
    await valueWithin(link.send('Browser.close').catch((error: unknown) => debug('Browser.close: %s', (error as Error).message)), 1_000);
  } finally {
    await link.close().catch(() => undefined);
  }
}

function killGroup(child: ChildProcess, pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function aborted(signal: AbortSignal): ReplError {
  return new ReplError('REPL_ERR_ABORTED', 'Launching Chromium was aborted', { cause: signal.reason });
}
