/**
 * What the server leaves on the machine when it dies without cleaning up (SIGKILL, the OOM killer,
 * a crash of Node itself): nothing that runs, and nothing on disk that the next start does not remove.
 *
 * - **Processes.** A child we spawn (Chromium, a `/process/exec` command) leads a process group of
 *   its own. It is started through util-linux `setpriv --pdeathsig KILL`, which asks Linux to SIGKILL
 *   it the moment the thread that spawned it ends; `setpriv` then execs the real program, so the pid
 *   is the child's own. The death signal reaches that one process only, so every group is also
 *   registered with one `/bin/sh` watchdog per server, which kills the registered groups when its
 *   stdin pipe from us closes: the kernel closes it when we die, however we die. Where `setpriv` is
 *   missing (macOS, Alpine without util-linux) the watchdog alone does the job.
 * - **Folders.** Temporary folders we create carry the creating process's pid in their name
 *   (`<kind>-<pid>-XXXXXX`). {@link sweepStaleTempFolders} removes those whose creator no longer runs,
 *   and nothing else: folders of a live server (another test file, another user's server) stay.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { debuglog } from 'node:util';

import type { ChildProcess } from 'node:child_process';

const debug = debuglog('browser-repl:lifetime');

/** How a child is tied to the server's life: see the module comment. */
export type ParentDeathMode = 'pdeathsig' | 'watchdog' | 'none';

/** A command line, possibly wrapped so that it dies with this process. */
export interface TiedCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly mode: ParentDeathMode;
}

let setprivPath: string | null | undefined;

/**
 * The `setpriv` executable when it exists and knows `--pdeathsig` (util-linux 2.33 and later), else
 * null. Looked up once per process: PATH first, then the places Debian and Fedora put it.
 */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform !== 'linux') return setprivPath;
  const dirs = [...(process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== ''), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'setpriv');
    if (!isExecutable(candidate)) continue;
    const help = spawnSync(candidate, ['--help'], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'pipe'] });
    if (help.status === 0 && help.stdout.includes('--pdeathsig')) setprivPath = candidate;
    break;
  }
  debug('setpriv: %s', setprivPath ?? 'not found, using the watchdog');
  return setprivPath;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The command line that starts `command` with `setpriv --pdeathsig KILL`, so Linux kills it the
 * moment this process dies. Only a command that resolves to an executable (a path, or a name found
 * on `pathEnv`) is wrapped: a missing one must fail the way callers expect (ENOENT from `spawn`),
 * not as an exit code of `setpriv`. Register the spawned group with {@link guardProcessGroup} in
 * every mode: the death signal reaches the child only, the watchdog its whole group.
 *
 * The death signal follows the *thread* that spawns (Linux semantics): spawn from the main thread,
 * or accept that the child ends with the worker thread that started it.
 */
export function tiedCommand(command: string, args: readonly string[], options: { enabled?: boolean; pathEnv?: string | undefined; cwd?: string | undefined } = {}): TiedCommand {
  if (options.enabled === false || process.platform === 'win32') return { command, args, mode: 'none' };
  const setpriv = findSetpriv();
  if (setpriv !== null && resolvesToExecutable(command, options.pathEnv ?? process.env['PATH'], options.cwd)) {
    return { command: setpriv, args: ['--pdeathsig', 'KILL', '--', command, ...args], mode: 'pdeathsig' };
  }
  return { command, args, mode: 'watchdog' };
}

/** Whether `command` is an executable path (relative to `cwd`) or a name found on `pathEnv`. */
export function resolvesToExecutable(command: string, pathEnv: string | undefined, cwd: string | undefined): boolean {
  if (command.includes('/')) return isExecutable(path.resolve(cwd ?? process.cwd(), command));
  return (pathEnv ?? '').split(path.delimiter).some((dir) => dir !== '' && isExecutable(path.join(dir, command)));
}

// Reads "+ <pgid>" and "- <pgid>" lines on stdin; at end of input (this process is gone: the kernel
// closed the pipe, or we closed it on exit) SIGKILLs every group still registered. `read` blocks,
// so the watchdog costs no CPU and no polling while the server lives.
const WATCHDOG_SCRIPT = [
  'groups=""',
  'while read -r op g; do',
  '  case "$op" in',
  '    +) groups="$groups $g" ;;',
  '    -) kept=""; for x in $groups; do [ "$x" = "$g" ] || kept="$kept $x"; done; groups="$kept" ;;',
  '  esac',
  'done',
  // No `--`: dash's kill builtin rejects it; a negative number after the signal is a group there too.
  'for g in $groups; do kill -KILL "-$g" 2>/dev/null; done',
].join('\n');

let watchdog: ChildProcess | undefined;

function watchdogProcess(): ChildProcess | undefined {
  if (watchdog !== undefined && watchdog.exitCode === null && watchdog.signalCode === null && watchdog.stdin?.writable === true) return watchdog;
  try {
    // Its own process group, so that killing a guarded group never takes the watchdog with it.
    const child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'browser-repl-watchdog'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', (error) => debug('watchdog failed: %s', error.message));
    // A watchdog that died (killed by someone) is replaced at the next registration.
    child.stdin?.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    watchdog = child;
    return child;
  } catch (error) {
    debug('watchdog could not start: %s', (error as Error).message);
    return undefined;
  }
}

/** A process group registered with the watchdog; `release()` once the group ended normally. */
export interface GroupGuard {
  release(): void;
}

/**
 * Kills process group `pgid` (every process in it, not only its leader) when this process dies
 * without ending it: one `/bin/sh` watchdog per process reads the groups from a pipe and kills
 * those still registered when the pipe closes. This complements `setpriv --pdeathsig`, which
 * reaches only the direct child (a shell's own children would survive it), and replaces it where
 * setpriv is missing. POSIX only; a no-op on Windows.
 */
export function guardProcessGroup(pgid: number): GroupGuard {
  if (process.platform === 'win32') return { release: () => undefined };
  watchdogProcess()?.stdin?.write(`+ ${pgid}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // A dead watchdog has nothing to forget; do not start one just for that.
      if (watchdog?.stdin?.writable === true) watchdog.stdin.write(`- ${pgid}\n`);
    },
  };
}

// ----- temporary folders ----------------------------------------------------------------------

/** Kinds of temporary folders the package creates; each folder is named `<kind>-<pid>-XXXXXX`. */
export const TEMP_FOLDER_KINDS = [
  'browser-repl-profile',
  'chromium-repl-downloads',
  'chromium-repl-executor',
  'chromium-repl-tmp',
  'chromium-repl-tools',
  'chromium-repl-recordings',
] as const;
export type TempFolderKind = (typeof TEMP_FOLDER_KINDS)[number];

/** The `mkdtemp` prefix of a folder of `kind` owned by this process. */
export function ownedTempPrefix(kind: TempFolderKind, parent: string = tmpdir()): string {
  return path.join(parent, `${kind}-${process.pid}-`);
}

const OWNED_NAME = new RegExp(`^(?:${TEMP_FOLDER_KINDS.join('|')})-(\\d+)-[A-Za-z0-9]{6}$`);

/** The pid in the name of a folder this package created, or undefined for any other name. */
export function ownerOfTempFolder(name: string): number | undefined {
  const match = OWNED_NAME.exec(name);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Whether `pid` runs (a zombie does not). EPERM means it runs as another user: it is alive, and
 * its folders are not ours to remove anyway.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Removes the temporary folders of this package under `parent` whose creating process no longer
 * runs (left by a server that was killed), together with what `beforeRemove` names for each (the
 * singleton-socket folder Chromium made for a profile). Returns the removed paths. Never throws.
 */
export async function sweepStaleTempFolders(
  parent: string = tmpdir(),
  beforeRemove: (folder: string) => string | undefined = () => undefined,
): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const owner = ownerOfTempFolder(name);
    if (owner === undefined || owner === process.pid || processRuns(owner)) continue;
    const folder = path.join(parent, name);
    const companion = beforeRemove(folder);
    try {
      if (companion !== undefined) await rm(companion, { recursive: true, force: true });
      await rm(folder, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      removed.push(folder);
    } catch (error) {
      debug('could not remove stale %s: %s', folder, (error as Error).message);
    }
  }
  if (removed.length > 0) debug('removed %d stale folder(s): %s', removed.length, removed.join(', '));
  return removed;
}
