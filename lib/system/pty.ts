/**
 * Terminals for `process/spawn` with `allocate_tty` (docs/process-and-files.md#terminals), without
 * a native module: util-linux `script` (Debian's essential bsdutils package) opens the
 * pseudo-terminal and copies between it and pipes of ours.
 *
 *   our pipes ──▶ script (leads the spawned process group) ──▶ PTY master
 *                   └─ fork, setsid: sh -c 'stty rows R cols C; exec command args'  (PTY slave)
 *
 * The command runs in a session of its own, led by the child of `script` (its pid is that session's
 * and its process group's id), so signals for the command go to that group, not to `script`.
 * A resize sets the window size on the slave (`stty -F /dev/pts/N`), which makes the kernel send
 * SIGWINCH to the terminal's foreground process group, as a terminal emulator's resize does.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ReplError } from '../../common/errors.js';

const execFileAsync = promisify(execFile);

/** How long the command inside `script` may take to appear (fork, setsid, exec of sh). */
const CHILD_APPEAR_MS = 5_000;

let scriptPath: string | null | undefined;
let sttyPath: string | null | undefined;

function findExecutable(name: string): string | null {
  const dirs = [...(process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== ''), '/usr/bin', '/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next folder.
    }
  }
  return null;
}

/**
 * The `script` and `stty` executables, looked up once.
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` when either is missing (not Linux with util-linux).
 */
function ttyTools(): { script: string; stty: string } {
  scriptPath ??= process.platform === 'linux' ? findExecutable('script') : null;
  sttyPath ??= findExecutable('stty');
  if (scriptPath === null || sttyPath === null) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST',
      'allocate_tty needs util-linux `script` and `stty` on Linux (Debian: the bsdutils and coreutils packages), and this server has none; spawn without allocate_tty');
  }
  return { script: scriptPath, stty: sttyPath };
}

/** `value` as one word of a POSIX shell command line. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** The command line of `script` that runs `command args` on a new terminal of `cols` × `rows`. */
export interface TtyCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** The environment of `script` (its shell must be `sh`), with the command's `SHELL` restored inside. */
  readonly env: Record<string, string | undefined>;
}

/**
 * `script -q -f -e -c '<inner>' /dev/null`: quiet, flushed at once, the command's exit status as
 * its own (128 + the signal number when a signal ended the command), no typescript file. `script`
 * runs `-c` with `$SHELL`, so it gets `/bin/sh`, and the inner line puts the caller's `SHELL` back
 * before `exec` (the command sees the environment it was given). The size is set before the
 * command runs, so its first `stty size` or TIOCGWINSZ already reads it.
 */
export function ttyCommand(command: string, args: readonly string[], size: { cols: number; rows: number }, env: Readonly<Record<string, string | undefined>>): TtyCommand {
  const { script } = ttyTools();
  const shell = env['SHELL'];
  const inner = [
    `stty rows ${size.rows} cols ${size.cols} 2>/dev/null`,
    shell === undefined ? 'unset SHELL' : `export SHELL=${shellQuote(shell)}`,
    `exec ${[command, ...args].map(shellQuote).join(' ')}`,
  ].join('; ');
  return { command: script, args: ['-q', '-f', '-e', '-c', inner, '/dev/null'], env: { ...env, SHELL: '/bin/sh' } };
}

/**
 * Fields of /proc/<pid>/stat after `(comm)`, or undefined once it is gone: index 0 is the state,
 * 1 ppid, 2 pgrp, 3 session, 4 tty_nr, 11 utime, 12 stime (clock ticks) (proc(5), field n at n − 3).
 */
export function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The pid of a child of `parent` (the first found in /proc), or undefined. */
function childOf(parent: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (fields !== undefined && Number(fields[1]) === parent) return Number(name);
  }
  return undefined;
}

/**
 * The terminal `pid` runs on, as `/dev/pts/N`, from its controlling terminal (`tty_nr` of its stat:
 * Unix98 PTY slaves have majors 136–143, N = (major − 136) × 256 + minor), or undefined.
 */
export function ptsOf(pid: number): string | undefined {
  const fields = statFields(pid);
  if (fields === undefined) return undefined;
  const ttyNr = Number(fields[4]);
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major < 136 || major > 143) return undefined;
  return `/dev/pts/${(major - 136) * 256 + minor}`;
}

/** The command inside `script`: its pid (its session's and group's id) and its terminal. */
export interface TtySession {
  readonly pid: number;
  readonly pts: string;
}

/**
 * Waits for the child of `script` (pid `scriptPid`) to have its terminal. Undefined when `script`
 * ended first or the child did not appear within 5 s (callers fall back to signalling `script`).
 */
export async function findTtySession(scriptPid: number, stillRunning: () => boolean): Promise<TtySession | undefined> {
  const until = Date.now() + CHILD_APPEAR_MS;
  while (stillRunning() && Date.now() < until) {
    const child = childOf(scriptPid);
    // The child has its terminal once it called setsid and opened the slave: then it leads its session.
    if (child !== undefined) {
      const fields = statFields(child);
      const pts = ptsOf(child);
      if (fields !== undefined && Number(fields[3]) === child && pts !== undefined) return { pid: child, pts };
    }
    await sleep(10);
  }
  return undefined;
}

/** Sets the window size of terminal `pts`; the kernel sends SIGWINCH to its foreground process group. */
export async function resizeTty(pts: string, size: { cols: number; rows: number }): Promise<void> {
  const { stty } = ttyTools();
  try {
    await execFileAsync(stty, ['-F', pts, 'rows', String(size.rows), 'cols', String(size.cols)], { timeout: 5_000 });
  } catch (error) {
    throw new ReplError('REPL_ERR_INTERNAL', `the terminal ${pts} could not be resized: ${(error as Error).message}`, { cause: error });
  }
}

/** Pids of the live processes of session `sid` (the command inside `script` and what it started). */
export function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (fields !== undefined && Number(fields[3]) === sid && fields[0] !== 'Z') members.push(Number(name));
  }
  return members;
}
