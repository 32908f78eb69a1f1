/**
 * Runs one command on the server's machine, as the server's user, and collects its output:
 * the engine of `POST /process/exec` (docs/process-and-files.md). No shell is involved
 * (`command` is looked up on the child's PATH, `args` are passed as they are). The child leads a
 * process group of its own, so a timeout, an abort or the server's exit kills everything it
 * started, not only its first process.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { constants, userInfo } from 'node:os';
import { isAbsolute } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { tiedCommand, guardProcessGroup } from './child-lifetime.js';

export interface ExecOptions {
  /** Executable: a name looked up on the PATH of `env`, or a path. */
  command: string;
  args?: readonly string[];
  /** Absolute working directory. Default: the server's own. */
  cwd?: string | undefined;
  /** The child's complete environment. Default: the server's `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Deadline in milliseconds; past it the whole process group is killed (SIGKILL). */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. Default `LIMITS.processOutputBytes` (16 MiB). */
  maxOutputBytes?: number;
  /** Aborting kills the process group and rejects with `REPL_ERR_ABORTED`. */
  signal?: AbortSignal;
}

export interface ExecResult {
  /** The exit code, or 128 + the signal number when a signal ended the process (as `sh` reports it). */
  exitCode: number;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** True when more than `maxOutputBytes` were written; the first bytes are kept. */
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** True when the deadline passed and the group was killed. */
  timedOut: boolean;
  durationMs: number;
}

/**
 * After the group was killed, how long the pipes may stay open before they are closed from our
 * side: only a process that left the group (setsid) can still hold them then.
 */
const PIPE_CLOSE_GRACE_MS = 2_000;

/** Process groups of commands still running; killed if the server process exits first. */
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every member has exited already.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Detached children outlive the server by design of setsid; a server that exits must not
  // leave the commands it was still running behind. 'exit' listeners run synchronously, and
  // process.kill is synchronous.
  process.once('exit', () => {
    for (const pid of runningGroups) killGroup(pid);
  });
}

function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** Rejects values the kernel cannot pass to a process (a NUL ends a C string), naming the field. */
export function checkStrings(options: Pick<ExecOptions, 'command' | 'args' | 'env'>): void {
  if (options.command === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'command is required');
  if (hasNul(options.command)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'command must not contain NUL bytes');
  options.args?.forEach((arg, index) => {
    if (hasNul(arg)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `args.${index} must not contain NUL bytes`);
  });
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (name === '' || name.includes('=') || hasNul(name)) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `env has an invalid variable name ${JSON.stringify(name)} (it may not be empty or contain = or NUL)`);
    }
    if (value !== undefined && hasNul(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `env.${name} must not contain NUL bytes`);
  }
}

/** Rejects a `cwd` that is not an absolute path of an existing directory, naming it. */
export async function checkCwd(cwd: string | undefined): Promise<void> {
  if (cwd === undefined) return;
  if (!isAbsolute(cwd) || hasNul(cwd)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  // Checked here because spawn reports a missing cwd as ENOENT, the same error as a missing command.
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(cwd)).isDirectory();
  } catch {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `cwd ${JSON.stringify(cwd)} does not exist`);
  }
  if (!isDirectory) throw new ReplError('REPL_ERR_INVALID_REQUEST', `cwd ${JSON.stringify(cwd)} is not a directory`);
}

/**
 * Accepts the hosted API's identity fields only when they ask for the identity we already have:
 * the server never switches user. `as_user` may be a user name or a numeric uid, optionally
 * followed by `:<gid>` (the hosted API's forms).
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming `as_root` or `as_user`.
 */
export function checkIdentity(asUser: string | null | undefined, asRoot: boolean | null | undefined): void {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  const wantsUser = asUser !== undefined && asUser !== null && asUser !== '';
  if (asRoot === true && wantsUser) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'as_root and as_user cannot both be set');
  if (asRoot === true && uid !== 0) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST',
      `as_root is not available: the server runs as uid ${String(uid)} and runs commands as that user only (it never switches user)`);
  }
  if (!wantsUser) return;
  const separator = asUser.indexOf(':');
  const who = separator === -1 ? asUser : asUser.slice(0, separator);
  const group = separator === -1 ? undefined : asUser.slice(separator + 1);
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // A uid without a passwd entry (common in containers) has no name; the uid still matches.
    name = undefined;
  }
  const sameUser = (who === name) || (/^\d+$/.test(who) && Number(who) === uid);
  const sameGroup = group === undefined || (/^\d+$/.test(group) && Number(group) === gid);
  if (!sameUser || !sameGroup) {
    const current = `${name ?? 'uid'} (uid ${String(uid)}, gid ${String(gid)})`;
    throw new ReplError('REPL_ERR_INVALID_REQUEST',
      `as_user ${JSON.stringify(asUser)} is not available: commands run as the server's user, ${current}; omit as_user or name that user`);
  }
}

/** Keeps the first `limit` bytes of a stream and counts the rest. */
class BoundedSink {
  readonly #chunks: Buffer[] = [];
  readonly #limit: number;
  #kept = 0;
  truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    const room = this.#limit - this.#kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#kept);
  }
}

/** The registry error of a failed `spawn` of `command` (not found, not executable, too long). */
export function describeSpawnError(command: string, error: NodeJS.ErrnoException): ReplError {
  switch (error.code) {
    case 'ENOENT':
      return new ReplError('REPL_ERR_INVALID_REQUEST',
        `command ${JSON.stringify(command)} was not found (looked up on the PATH of the command's environment; a script's interpreter may be missing)`,
        { cause: error });
    case 'EACCES':
      return new ReplError('REPL_ERR_INVALID_REQUEST', `command ${JSON.stringify(command)} is not executable by the server's user`, { cause: error });
    case 'E2BIG':
      return new ReplError('REPL_ERR_INVALID_REQUEST', 'args and env together exceed the system limit on a command line', { cause: error });
    default:
      return new ReplError('REPL_ERR_INTERNAL', `command ${JSON.stringify(command)} could not be started: ${error.message}`, { cause: error });
  }
}

/**
 * Runs `command` to its end (the exit of its first process and the close of its stdout and
 * stderr) or to the deadline, whichever comes first. stdin is `/dev/null`.
 *
 * A process left running in the background keeps the answer waiting while it holds stdout or
 * stderr open; redirect its output to let it outlive the call.
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` (command not found or not executable, bad `cwd`,
 *   NUL bytes), `REPL_ERR_ABORTED` (the signal fired; the group was killed).
 */
export async function execProcess(options: ExecOptions): Promise<ExecResult> {
  checkStrings(options);
  await checkCwd(options.cwd);
  options.signal?.throwIfAborted();
  const maxOutputBytes = options.maxOutputBytes ?? LIMITS.processOutputBytes;
  const started = performance.now();
  const env = options.env ?? process.env;
  // Tied to the server's life: a SIGKILLed server leaves no command running (child-lifetime.ts).
  const tied = tiedCommand(options.command, options.args ?? [], { pathEnv: env['PATH'], cwd: options.cwd });
  const child = spawn(tied.command, tied.args, {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A new session and process group led by the child: killing -pid reaches its descendants.
    detached: true,
    windowsHide: true,
  });
  const stdout = new BoundedSink(maxOutputBytes);
  const stderr = new BoundedSink(maxOutputBytes);
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

  return new Promise<ExecResult>((resolve, reject) => {
    const pid = child.pid;
    let timedOut = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    if (pid !== undefined) {
      installExitHook();
      runningGroups.add(pid);
      const guard = guardProcessGroup(pid);
      child.once('exit', () => guard.release());
    }
    const kill = () => {
      if (pid !== undefined) killGroup(pid);
      // Only a process that escaped the group can keep the pipes open now; do not wait for it.
      graceTimer ??= setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_CLOSE_GRACE_MS);
      graceTimer.unref();
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      kill();
      // Nobody reads the output any more; closing our ends keeps nothing waiting on it.
      child.stdout.destroy();
      child.stderr.destroy();
      finish(() => reject(new ReplError('REPL_ERR_ABORTED', 'the command was killed: the caller went away', { cause: options.signal?.reason })));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) runningGroups.delete(pid);
      settle();
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      // Only spawn failures arrive here (kill errors are swallowed by killGroup); no process runs.
      finish(() => reject(describeSpawnError(options.command, error)));
    });
    // 'close' comes after 'exit' once stdout and stderr have ended, so the output is complete.
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (pid === undefined) return;
      finish(() => resolve({
        exitCode: code ?? 128 + (signal === null ? 0 : constants.signals[signal]),
        signal,
        stdout: stdout.bytes,
        stderr: stderr.bytes,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        durationMs: Math.round(performance.now() - started),
      }));
    });
  });
}
