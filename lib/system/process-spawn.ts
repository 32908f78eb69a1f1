/**
 * Processes that run in the background: the engine of `POST /process/spawn` and the routes that
 * follow one by its `process_id` (status, stdin, the output stream, kill, resize), in the shapes
 * of the Kernel SDK (docs/process-and-files.md#background-processes).
 *
 * A spawned process gets what `exec` gets (lib/system/process-exec.ts): no shell, a process group
 * of its own, tied to the server's life (lib/system/child-lifetime.ts: `setpriv --pdeathsig` and
 * the watchdog), killed with its browser and with the server. Its group is its lifetime: when its
 * first process exits, what it left running in the group is killed too. With `allocate_tty` it
 * runs on a terminal of `script` (lib/system/pty.ts).
 *
 * Bounds: running processes per browser and in all, a ring of the last output of each (a reader
 * that connects late, even after the exit, gets it and then the exit), unread stdin, and records
 * of exited processes, kept for `retentionSeconds` (and at most 64 per browser), then dropped.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import { debuglog } from 'node:util';

import { ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import { guardProcessGroup, resolvesToExecutable, tiedCommand } from './child-lifetime.js';
import { checkCwd, checkStrings, describeSpawnError } from './process-exec.js';
import { findTtySession, resizeTty, sessionMembers, statFields, ttyCommand } from './pty.js';
import type { TtySession } from './pty.js';

const debug = debuglog('browser-repl:process');

/** After the first process exited and the group was killed, how long the pipes may stay open (only an escaped process holds them). */
const PIPE_CLOSE_GRACE_MS = 2_000;
/** How long ending a browser (or the server) waits for its processes' exits after SIGKILL. */
const END_BUDGET_MS = 5_000;
/** Linux's USER_HZ, the unit of utime and stime in /proc: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The signals `kill` accepts, in the SDK's names. */
export const KILL_SIGNALS = { TERM: 'SIGTERM', KILL: 'SIGKILL', INT: 'SIGINT', HUP: 'SIGHUP' } as const;
export type KillSignal = keyof typeof KILL_SIGNALS;

// ----- settings -------------------------------------------------------------------------------

/** The limits of spawned processes (`AppOptions.processes`); every field has a variable and a default. */
export interface ProcessOptions {
  /** Spawned processes of one browser running at once (`BROWSER_REPL_PROCESSES_MAX_PER_BROWSER`). Default 32. */
  maxPerBrowser?: number | undefined;
  /** Spawned processes of the whole server running at once (`BROWSER_REPL_PROCESSES_MAX_TOTAL`). Default 128. */
  maxTotal?: number | undefined;
  /** How long the record of an exited process stays (`BROWSER_REPL_PROCESSES_RETENTION_SECONDS`). Default 600. */
  retentionSeconds?: number | undefined;
}

/** {@link ProcessOptions} checked, defaults applied. */
export interface ProcessSettings {
  readonly maxPerBrowser: number;
  readonly maxTotal: number;
  readonly retentionSeconds: number;
}

const DEFAULTS = { maxPerBrowser: 32, maxTotal: 128, retentionSeconds: 600 };
const VARIABLES = {
  maxPerBrowser: 'BROWSER_REPL_PROCESSES_MAX_PER_BROWSER',
  maxTotal: 'BROWSER_REPL_PROCESSES_MAX_TOTAL',
  retentionSeconds: 'BROWSER_REPL_PROCESSES_RETENTION_SECONDS',
} as const;

/** The settings of `options`, else of `env`, else the defaults; throws naming the option or variable. */
export function processSettings(options: ProcessOptions = {}, env: NodeJS.ProcessEnv = process.env): ProcessSettings {
  const read = (field: keyof typeof VARIABLES): number => {
    const given = options[field];
    const variable = env[VARIABLES[field]];
    const [value, source] = given !== undefined ? [given, `processes.${field}`]
      : variable !== undefined && variable !== '' ? [Number(variable), VARIABLES[field]]
        : [DEFAULTS[field], field];
    if (!Number.isSafeInteger(value) || value < 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${source} must be an integer of at least 0`);
    return value;
  };
  return Object.freeze({ maxPerBrowser: read('maxPerBrowser'), maxTotal: read('maxTotal'), retentionSeconds: read('retentionSeconds') });
}

// ----- one process ----------------------------------------------------------------------------

export interface SpawnOptions {
  /** Executable: a name looked up on the PATH of `env`, or a path. */
  command: string;
  args?: readonly string[];
  /** Absolute working directory. Default: the server's own. */
  cwd?: string | undefined;
  /** The child's complete environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** Deadline in milliseconds; past it everything the process started is killed (SIGKILL). None when undefined. */
  timeoutMs?: number | undefined;
  /** A terminal of this size instead of pipes: stdout and stderr are then one stream, `stdout`. */
  tty?: { cols: number; rows: number } | undefined;
}

/** One chunk of output, as the stream sends it. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly data: Buffer;
}

/** How a process ended. */
export interface ExitInfo {
  /** Its exit code, or 128 + the signal number when a signal ended it (as `sh` reports it). */
  readonly exitCode: number;
  /** The signal that ended it, if one did. */
  readonly signal: NodeJS.Signals | null;
  /** True when `timeout_sec` passed and it was killed. */
  readonly timedOut: boolean;
}

/** `ProcessStatusResponse` of the SDK, plus `signal` and `timed_out` when they apply. */
export interface ProcessStatus {
  state: 'running' | 'exited';
  exit_code: number | null;
  cpu_pct: number;
  mem_bytes: number;
  signal?: NodeJS.Signals;
  timed_out?: true;
}

/** What a reader of the output gets: every chunk kept and then each new one, and the exit at the end. */
export interface OutputReader {
  chunk(chunk: OutputChunk): void;
  exit(info: ExitInfo): void;
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]));

/** Processes still running; killed if the server process exits first (as process-exec.ts does for its commands). */
const liveProcesses = new Set<SpawnedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' listeners run synchronously, and process.kill is synchronous.
  process.once('exit', () => {
    for (const spawned of liveProcesses) spawned.killNow();
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group has no member left.
    return false;
  }
}

/** A process started by {@link SpawnedProcesses.spawn}. */
export class SpawnedProcess {
  /** The `process_id` of the API. */
  readonly id = randomUUID();
  readonly ownerId: string;
  readonly startedAt = new Date();
  /** True when it runs on a terminal. */
  readonly tty: boolean;
  /** Resolves once it ended and its output is complete (never rejects). */
  readonly ended: Promise<void>;
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** The leader's pid: the command's, or `script`'s on a terminal. Its process group's id too. */
  readonly #leader: number;
  #session: TtySession | undefined;
  readonly #ring: OutputChunk[] = [];
  #ringBytes = 0;
  readonly #readers = new Set<OutputReader>();
  #exit: ExitInfo | undefined;
  #exitedAt: number | undefined;
  #timedOut = false;
  /** Numbers of the signals sent to it: how an exit code of `script` above 128 is told from a plain one. */
  readonly #sent = new Set<number>();
  #deadline: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #releaseGuard: () => void;
  #lastSample: { ticks: number; at: number } | undefined;
  readonly #startedAtMs = performance.now();
  #resolveEnded: () => void = () => undefined;

  /** @internal Built by {@link SpawnedProcesses.spawn}, once the child has been spawned. */
  constructor(ownerId: string, child: ChildProcessByStdio<Writable, Readable, Readable>, tty: boolean, timeoutMs: number | undefined) {
    this.ownerId = ownerId;
    this.#child = child;
    this.tty = tty;
    this.#leader = child.pid!;
    this.ended = new Promise((resolve) => { this.#resolveEnded = resolve; });
    const guard = guardProcessGroup(this.#leader);
    this.#releaseGuard = () => guard.release();
    installExitHook();
    liveProcesses.add(this);
    child.stdout.on('data', (data: Buffer) => this.#push({ stream: 'stdout', data }));
    child.stderr.on('data', (data: Buffer) => this.#push({ stream: 'stderr', data }));
    // EPIPE once the process is gone: its stdin is closed, which `write` reports.
    child.stdin.on('error', (error) => debug('%s: stdin: %s', this.id, error.message));
    child.once('exit', () => this.#leaderExited());
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => this.#finish(code, signal));
    if (timeoutMs !== undefined) {
      this.#deadline = setTimeout(() => {
        this.#timedOut = true;
        this.#killEverything(true);
      }, timeoutMs);
      this.#deadline.unref();
    }
  }

  /** @internal The command inside `script`, once found (see lib/system/pty.ts). */
  attachSession(session: TtySession): void {
    this.#session = session;
    const guard = guardProcessGroup(session.pid);
    const previous = this.#releaseGuard;
    this.#releaseGuard = () => {
      previous();
      guard.release();
    };
    // It may have exited meanwhile; the group of the command must not outlive it.
    if (this.#exit !== undefined) this.#killEverything(false);
  }

  /** The OS pid of the command: on a terminal, the process inside `script`. */
  get pid(): number {
    return this.#session?.pid ?? this.#leader;
  }

  get running(): boolean {
    return this.#exit === undefined;
  }

  /** How it ended; undefined while it runs. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /** `performance.now()` at its end, for the retention of its record. */
  get exitedAt(): number | undefined {
    return this.#exitedAt;
  }

  /** The SDK's status, with CPU (since the previous status, or since the start) and memory of every process of its group. */
  status(): ProcessStatus {
    if (this.#exit !== undefined) {
      const status: ProcessStatus = { state: 'exited', exit_code: this.#exit.exitCode, cpu_pct: 0, mem_bytes: 0 };
      if (this.#exit.signal !== null) status.signal = this.#exit.signal;
      if (this.#exit.timedOut) status.timed_out = true;
      return status;
    }
    const { ticks, rssBytes } = this.#usage();
    const now = performance.now();
    const since = this.#lastSample ?? { ticks: 0, at: this.#startedAtMs };
    this.#lastSample = { ticks, at: now };
    const seconds = Math.max((now - since.at) / 1000, 0.001);
    const cpu = Math.max(0, (ticks - since.ticks) / CLOCK_TICKS_PER_SECOND / seconds * 100);
    return { state: 'running', exit_code: null, cpu_pct: Math.round(cpu * 10) / 10, mem_bytes: rssBytes };
  }

  /**
   * Writes to its stdin (a terminal's input with `allocate_tty`) and returns the bytes written.
   * @throws ReplError `REPL_ERR_PROCESS_EXITED`, `REPL_ERR_PROCESS_LIMIT` (it has not read 4 MiB already written).
   */
  write(data: Buffer): number {
    const stdin = this.#child.stdin;
    if (this.#exit !== undefined || stdin.destroyed || stdin.writableEnded) {
      throw new ReplError('REPL_ERR_PROCESS_EXITED', `process ${this.id} has exited: its stdin is closed`);
    }
    if (stdin.writableLength + data.length > LIMITS.processSpawnStdinBacklogBytes) {
      throw new ReplError('REPL_ERR_PROCESS_LIMIT',
        `process ${this.id} has not read the ${stdin.writableLength} bytes already written to its stdin (at most ${LIMITS.processSpawnStdinBacklogBytes} wait); write again once it has read them`);
    }
    // Queued in Node when the pipe is full; the bound above keeps that queue small.
    stdin.write(data);
    return data.length;
  }

  /**
   * Sends `signal` to its process group (on a terminal, the command's group inside `script`), as
   * a terminal's Ctrl-C reaches every process of the foreground job.
   * @throws ReplError `REPL_ERR_PROCESS_EXITED`
   */
  kill(signal: KillSignal): void {
    if (this.#exit !== undefined) throw new ReplError('REPL_ERR_PROCESS_EXITED', `process ${this.id} has exited (exit code ${this.#exit.exitCode}): no signal can reach it`);
    const name = KILL_SIGNALS[signal];
    this.#sent.add(constants.signals[name]);
    // Between the leader's exit and the close of its pipes the group may be empty: nothing to signal then.
    signalGroup(this.#session?.pid ?? this.#leader, name);
  }

  /**
   * Sets the size of its terminal (the command gets SIGWINCH).
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (no terminal), `REPL_ERR_PROCESS_EXITED`
   */
  async resize(size: { cols: number; rows: number }): Promise<void> {
    if (!this.tty) throw new ReplError('REPL_ERR_INVALID_REQUEST', `process ${this.id} has no terminal: only a process spawned with allocate_tty: true can be resized`);
    if (this.#exit !== undefined || this.#session === undefined) throw new ReplError('REPL_ERR_PROCESS_EXITED', `process ${this.id} has exited: its terminal is gone`);
    await resizeTty(this.#session.pts, size);
  }

  /**
   * Gives `reader` the output kept so far at once, then each new chunk, then the exit; returns its
   * disposer. A reader of a process that has exited gets the kept output and the exit at once.
   */
  follow(reader: OutputReader): () => void {
    for (const chunk of this.#ring) reader.chunk(chunk);
    if (this.#exit !== undefined) {
      reader.exit(this.#exit);
      return () => undefined;
    }
    this.#readers.add(reader);
    return () => this.#readers.delete(reader);
  }

  /** Kills everything it started (SIGKILL); it ends soon after. Idempotent. */
  killNow(): void {
    if (this.#exit === undefined) this.#killEverything(true);
  }

  #push(chunk: OutputChunk): void {
    this.#ring.push(chunk);
    this.#ringBytes += chunk.data.length;
    // The oldest output goes first; a chunk larger than the whole ring keeps its end.
    while (this.#ringBytes > LIMITS.processSpawnRingBytes) {
      const oldest = this.#ring[0]!;
      const excess = this.#ringBytes - LIMITS.processSpawnRingBytes;
      if (oldest.data.length <= excess) {
        this.#ring.shift();
        this.#ringBytes -= oldest.data.length;
      } else {
        this.#ring[0] = { stream: oldest.stream, data: oldest.data.subarray(excess) };
        this.#ringBytes -= excess;
      }
    }
    for (const reader of this.#readers) reader.chunk(chunk);
  }

  /** SIGKILL to its group and its terminal's session; `sent` when it is sent to end it (not to clean up after its exit). */
  #killEverything(sent: boolean): void {
    if (sent) this.#sent.add(constants.signals.SIGKILL);
    if (this.#session !== undefined) {
      // The command's session may hold groups of its own (job control); each member is killed.
      signalGroup(this.#session.pid, 'SIGKILL');
      for (const pid of sessionMembers(this.#session.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    }
    signalGroup(this.#leader, 'SIGKILL');
  }

  #leaderExited(): void {
    // Its group is its lifetime: what it left running goes with it, and then the pipes close.
    this.#killEverything(false);
    this.#graceTimer = setTimeout(() => {
      this.#child.stdout.destroy();
      this.#child.stderr.destroy();
    }, PIPE_CLOSE_GRACE_MS);
    this.#graceTimer.unref();
  }

  #finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exit !== undefined) return;
    clearTimeout(this.#deadline);
    clearTimeout(this.#graceTimer);
    this.#releaseGuard();
    liveProcesses.delete(this);
    this.#child.stdin.destroy();
    let exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
    let endedBy = signal;
    // `script -e` reports the command's death by a signal as 128 + its number; a code above 128
    // is read as a signal only when that signal was sent (a command may exit 130 on its own).
    if (this.tty && endedBy === null && exitCode > 128 && this.#sent.has(exitCode - 128)) endedBy = SIGNAL_NAMES.get(exitCode - 128) ?? null;
    if (endedBy !== null && code === null) exitCode = 128 + constants.signals[endedBy];
    this.#exit = { exitCode, signal: endedBy, timedOut: this.#timedOut };
    this.#exitedAt = performance.now();
    debug('%s (pid %d) exited: code %d, signal %s', this.id, this.pid, exitCode, endedBy ?? 'none');
    const readers = [...this.#readers];
    this.#readers.clear();
    for (const reader of readers) reader.exit(this.#exit);
    this.#resolveEnded();
  }

  /** CPU ticks and resident bytes of every live process of its group (and its terminal's session). */
  #usage(): { ticks: number; rssBytes: number } {
    const group = this.#leader;
    const session = this.#session?.pid;
    let ticks = 0;
    let rssBytes = 0;
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const fields = statFields(Number(name));
      if (fields === undefined || fields[0] === 'Z') continue;
      if (Number(fields[2]) !== group && (session === undefined || Number(fields[3]) !== session)) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      try {
        const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
        if (rss !== null) rssBytes += Number(rss[1]) * 1024;
      } catch {
        // Exited meanwhile.
      }
    }
    return { ticks, rssBytes };
  }
}

// ----- the registry -----------------------------------------------------------------------------

/**
 * Every spawned process of a server, by owner (the browser's id) and `process_id`. Closing it
 * (the server's end) kills them all; {@link endOwner} (a browser's end) kills one owner's.
 */
export class SpawnedProcesses extends Resource {
  readonly settings: ProcessSettings;
  readonly #byOwner = new Map<string, Map<string, SpawnedProcess>>();
  #running = 0;
  /** Slots taken by spawns between their admission and their start, by owner. */
  readonly #starting = new Map<string, number>();

  constructor(settings: ProcessSettings = processSettings({}, {})) {
    super();
    this.settings = settings;
  }

  /** Spawned processes running now, of `ownerId` or of every owner. */
  runningCount(ownerId?: string): number {
    if (ownerId === undefined) return this.#running;
    let count = 0;
    for (const spawned of this.#byOwner.get(ownerId)?.values() ?? []) if (spawned.running) count++;
    return count;
  }

  /**
   * Starts `options.command` for `ownerId` and resolves once it runs (on a terminal: once the
   * command inside `script` has its terminal).
   * @throws ReplError `REPL_ERR_INVALID_REQUEST` (command not found or not executable, bad `cwd`,
   *   NUL bytes), `REPL_ERR_PROCESS_LIMIT`, `REPL_ERR_CLOSED`.
   */
  async spawn(ownerId: string, options: SpawnOptions): Promise<SpawnedProcess> {
    checkStrings(options);
    await checkCwd(options.cwd);
    const args = options.args ?? [];
    if (options.tty !== undefined && !resolvesToExecutable(options.command, options.env['PATH'], options.cwd)) {
      // On a terminal the shell inside `script` would report it as exit code 127; say it now.
      throw new ReplError('REPL_ERR_INVALID_REQUEST',
        `command ${JSON.stringify(options.command)} was not found or is not executable (looked up on the PATH of the command's environment)`);
    }
    // Checked after the awaits, and the slot held until the process is counted: concurrent requests cannot overshoot.
    const releaseSlot = this.#admit(ownerId);
    try {
      return await this.#start(ownerId, options, args, releaseSlot);
    } finally {
      releaseSlot();
    }
  }

  async #start(ownerId: string, options: SpawnOptions, args: readonly string[], releaseSlot: () => void): Promise<SpawnedProcess> {
    const line = options.tty === undefined ? { command: options.command, args, env: options.env } : ttyCommand(options.command, args, options.tty, options.env);
    // Tied to the server's life: a SIGKILLed server leaves no process running (child-lifetime.ts).
    const tied = tiedCommand(line.command, line.args, { pathEnv: line.env['PATH'], cwd: options.cwd });
    const child = spawn(tied.command, tied.args, {
      cwd: options.cwd,
      env: line.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // A new session and process group led by the child: killing -pid reaches its descendants.
      detached: true,
      windowsHide: true,
    });
    const started = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    });
    if (started !== undefined || child.pid === undefined) throw describeSpawnError(options.command, started ?? new Error('no pid'));
    const spawned = new SpawnedProcess(ownerId, child, options.tty !== undefined, options.timeoutMs);
    this.#add(spawned);
    // Counted as running from here on.
    releaseSlot();
    if (this.closed) {
      // The registry began to close while this one started: its end did not see it.
      spawned.killNow();
      throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    }
    if (options.tty !== undefined) {
      const session = await findTtySession(child.pid, () => spawned.running);
      if (session !== undefined) spawned.attachSession(session);
      else if (spawned.running) {
        spawned.killNow();
        throw new ReplError('REPL_ERR_INTERNAL', `the terminal of ${JSON.stringify(options.command)} did not start (util-linux script ran, its command did not appear within 5 s)`);
      }
    }
    debug('%s: spawned %s (pid %d)%s', ownerId, spawned.id, spawned.pid, spawned.tty ? ' on a terminal' : '');
    return spawned;
  }

  /** @throws ReplError `REPL_ERR_PROCESS_NOT_FOUND` */
  get(ownerId: string, processId: string): SpawnedProcess {
    const spawned = this.#byOwner.get(ownerId)?.get(processId);
    if (spawned === undefined) throw new ReplError('REPL_ERR_PROCESS_NOT_FOUND', `this browser has no process ${JSON.stringify(processId)} (spawned elsewhere, or its record was dropped after it exited)`);
    return spawned;
  }

  /** Kills every process of `ownerId` (its browser ended), waits for their ends (at most 5 s), and forgets them. */
  async endOwner(ownerId: string): Promise<void> {
    const owned = [...this.#byOwner.get(ownerId)?.values() ?? []];
    this.#byOwner.delete(ownerId);
    for (const spawned of owned) spawned.killNow();
    await waitAtMost(Promise.all(owned.map((spawned) => spawned.ended)), END_BUDGET_MS);
  }

  protected async closeGracefully(): Promise<void> {
    await Promise.all([...this.#byOwner.keys()].map((ownerId) => this.endOwner(ownerId)));
  }

  /** Takes a slot for a process about to start, or throws; returns its release (once the process counts itself). */
  #admit(ownerId: string): () => void {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down');
    const mine = this.runningCount(ownerId) + (this.#starting.get(ownerId) ?? 0);
    if (mine >= this.settings.maxPerBrowser) {
      throw new ReplError('REPL_ERR_PROCESS_LIMIT',
        `this browser already runs ${mine} spawned processes, its limit (processes.maxPerBrowser, BROWSER_REPL_PROCESSES_MAX_PER_BROWSER); kill one or wait for one to exit`);
    }
    const all = this.#running + [...this.#starting.values()].reduce((sum, count) => sum + count, 0);
    if (all >= this.settings.maxTotal) {
      throw new ReplError('REPL_ERR_PROCESS_LIMIT',
        `this server already runs ${all} spawned processes, its limit (processes.maxTotal, BROWSER_REPL_PROCESSES_MAX_TOTAL); kill one or wait for one to exit`);
    }
    this.#starting.set(ownerId, (this.#starting.get(ownerId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#starting.get(ownerId) ?? 1) - 1;
      if (left === 0) this.#starting.delete(ownerId);
      else this.#starting.set(ownerId, left);
    };
  }

  #add(spawned: SpawnedProcess): void {
    let owned = this.#byOwner.get(spawned.ownerId);
    if (owned === undefined) {
      owned = new Map();
      this.#byOwner.set(spawned.ownerId, owned);
    }
    owned.set(spawned.id, spawned);
    this.#running++;
    void spawned.ended.then(() => {
      this.#running--;
      this.#keepRecord(spawned);
    });
  }

  /** Keeps the record of an exited process for the retention time, and at most 64 per owner. */
  #keepRecord(spawned: SpawnedProcess): void {
    const owned = this.#byOwner.get(spawned.ownerId);
    if (owned === undefined || this.closed) return;
    const exited = [...owned.values()].filter((other) => !other.running);
    // Oldest exits first: Map order is spawn order, so sort by the time of the exit.
    exited.sort((a, b) => (a.exitedAt ?? 0) - (b.exitedAt ?? 0));
    for (const old of exited.slice(0, Math.max(0, exited.length - LIMITS.processSpawnExitedKept))) owned.delete(old.id);
    const drop = setTimeout(() => {
      owned.delete(spawned.id);
      if (owned.size === 0 && this.#byOwner.get(spawned.ownerId) === owned) this.#byOwner.delete(spawned.ownerId);
    }, this.settings.retentionSeconds * 1000);
    drop.unref();
  }
}
