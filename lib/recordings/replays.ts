/**
 * The recordings (replays) of every browser of a server (docs/recordings.md): started and stopped
 * through `/browsers/{id}/replays`, several per browser at once, each an MP4 in one temporary
 * folder of the server (`chromium-repl-recordings-<pid>-XXXXXX`).
 *
 * Bounds: recordings running at once per browser, recordings kept per browser, the disk space of
 * all of them together (a running recording that reaches it is stopped and kept), and the length
 * of one. Lifetime: a recording is kept while its browser lives and for `retentionSeconds` after
 * it ended (its browser's id still lists and downloads them meanwhile), then its file is removed.
 * A browser that ends stops its running recordings first (they are finished and kept); `close()`
 * of the registry (the server's) removes the whole folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { debuglog } from 'node:util';

import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import type { Browser } from '../browsers/browser.js';
import { ownedTempPrefix } from '../system/child-lifetime.js';
import { requireFfmpeg } from './ffmpeg.js';
import { Recorder } from './recorder.js';

const debug = debuglog('browser-repl:recordings');

/** How often the disk use of running recordings is measured against the limit. */
const SIZE_CHECK_MS = 1_000;
/** How long a browser's end waits for its recordings to be finished. */
const BROWSER_END_BUDGET_MS = 10_000;

/** The limits of recordings (`AppOptions.recordings`); every field has a variable and a default. */
export interface RecordingOptions {
  /** Recordings of one browser running at once (`BROWSER_REPL_RECORDINGS_MAX_ACTIVE`). Default 4. */
  maxActivePerBrowser?: number | undefined;
  /** Recordings one browser keeps, running ones included (`BROWSER_REPL_RECORDINGS_MAX_PER_BROWSER`). Default 20. */
  maxPerBrowser?: number | undefined;
  /** Disk space of all recordings of the server, in MiB (`BROWSER_REPL_RECORDINGS_MAX_MB`). Default 2048. */
  maxTotalMb?: number | undefined;
  /** Longest recording, and the default of `max_duration_in_seconds` (`BROWSER_REPL_RECORDINGS_MAX_SECONDS`). Default 3600. */
  maxDurationSeconds?: number | undefined;
  /** How long recordings stay after their browser ended (`BROWSER_REPL_RECORDINGS_RETENTION_SECONDS`). Default 300. */
  retentionSeconds?: number | undefined;
  /** Where the recordings' folder is made. Default the system's temporary folder. */
  directory?: string | undefined;
}

/** {@link RecordingOptions} checked, defaults applied. */
export interface RecordingSettings {
  readonly maxActivePerBrowser: number;
  readonly maxPerBrowser: number;
  readonly maxTotalBytes: number;
  readonly maxDurationSeconds: number;
  readonly retentionSeconds: number;
  readonly directory: string | undefined;
}

const DEFAULTS = { maxActivePerBrowser: 4, maxPerBrowser: 20, maxTotalMb: 2048, maxDurationSeconds: 3600, retentionSeconds: 300 };
const VARIABLES = {
  maxActivePerBrowser: 'BROWSER_REPL_RECORDINGS_MAX_ACTIVE',
  maxPerBrowser: 'BROWSER_REPL_RECORDINGS_MAX_PER_BROWSER',
  maxTotalMb: 'BROWSER_REPL_RECORDINGS_MAX_MB',
  maxDurationSeconds: 'BROWSER_REPL_RECORDINGS_MAX_SECONDS',
  retentionSeconds: 'BROWSER_REPL_RECORDINGS_RETENTION_SECONDS',
} as const;

/** The settings of `options`, else of `env`, else the defaults; throws naming the option or variable. */
export function recordingSettings(options: RecordingOptions = {}, env: NodeJS.ProcessEnv = process.env): RecordingSettings {
  const read = (field: keyof typeof VARIABLES, min: number): number => {
    const given = options[field];
    const variable = env[VARIABLES[field]];
    const [value, source] = given !== undefined ? [given, `recordings.${field}`]
      : variable !== undefined && variable !== '' ? [Number(variable), VARIABLES[field]]
        : [DEFAULTS[field], field];
    if (!Number.isSafeInteger(value) || value < min) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${source} must be an integer of at least ${min}`);
    return value;
  };
  return Object.freeze({
    maxActivePerBrowser: read('maxActivePerBrowser', 0),
    maxPerBrowser: read('maxPerBrowser', 0),
    maxTotalBytes: read('maxTotalMb', 1) * 1024 * 1024,
    maxDurationSeconds: read('maxDurationSeconds', 1),
    retentionSeconds: read('retentionSeconds', 0),
    directory: options.directory,
  });
}

/** The SDK's `ReplayStartResponse` / a row of `ReplayListResponse` (without the URL, which the route adds). */
export interface ReplayInfo {
  replay_id: string;
  started_at: string;
  finished_at: string | null;
}

/** One recording. */
export class Replay {
  readonly id: string;
  readonly browserId: string;
  readonly file: string;
  readonly startedAt = new Date();
  finishedAt: Date | null = null;
  /** The bytes of the finished file (0 while it runs). */
  size = 0;
  readonly recorder: Recorder;
  #stopping: Promise<void> | undefined;

  constructor(browserId: string, file: string, recorder: Recorder, id: string) {
    this.browserId = browserId;
    this.file = file;
    this.recorder = recorder;
    this.id = id;
  }

  get running(): boolean {
    return this.#stopping === undefined;
  }

  /** Stops and finishes it (idempotent: every caller waits for the same finish). */
  stop(): Promise<void> {
    // It ends when asked, not when ffmpeg has written the last byte.
    const asked = new Date();
    this.#stopping ??= this.recorder.close().then(async () => {
      this.finishedAt = asked;
      this.size = await stat(this.file).then((info) => info.size, () => 0);
    });
    return this.#stopping;
  }

  info(): ReplayInfo {
    return { replay_id: this.id, started_at: this.startedAt.toISOString(), finished_at: this.finishedAt?.toISOString() ?? null };
  }

  /** The MP4, or the error that says why there is none. */
  video(): { file: string; size: number } {
    if (this.running || this.finishedAt === null) throw new ReplError('REPL_ERR_REPLAY_NOT_READY', `replay ${this.id} is still ${this.running ? 'recording' : 'being encoded'}: stop it first (POST /browsers/${this.browserId}/replays/${this.id}/stop)`);
    const outcome = this.recorder.outcome;
    if (outcome === undefined || !outcome.ok) throw outcome?.error ?? new ReplError('REPL_ERR_REPLAY_FAILED', `replay ${this.id} has no video`);
    return { file: this.file, size: this.size };
  }
}

interface BrowserRecordings {
  readonly replays: Map<string, Replay>;
  /** Set once the browser ended: when its recordings are removed. */
  expiry: NodeJS.Timeout | undefined;
  ended: boolean;
  disposeEndHook: () => void;
}

export class Replays extends Resource {
  readonly settings: RecordingSettings;
  readonly #env: NodeJS.ProcessEnv;
  readonly #byBrowser = new Map<string, BrowserRecordings>();
  #folder: string | undefined;
  #sizeTimer: NodeJS.Timeout | undefined;

  constructor(settings: RecordingSettings, env: NodeJS.ProcessEnv = process.env) {
    super();
    this.settings = settings;
    this.#env = env;
  }

  /** The folder of the recordings, once the first one started. */
  get folder(): string | undefined {
    return this.#folder;
  }

  /** Starts a recording of `browser`. Refuses (409, 507, 500) what the limits or the machine do not allow. */
  async start(browser: Browser, request: { framerate: number; maxDurationSeconds?: number | undefined }): Promise<Replay> {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'the server is shutting down: no new recording');
    if (browser.closed) throw new ReplError('REPL_ERR_CLOSED', 'the browser is ending: no new recording');
    if (browser.chromium === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this server runs without a browser (browser: false): there is nothing to record');
    const ffmpeg = requireFfmpeg(this.#env);
    const maxSeconds = this.settings.maxDurationSeconds;
    if (request.maxDurationSeconds !== undefined && request.maxDurationSeconds > maxSeconds) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `max_duration_in_seconds must be at most ${maxSeconds} on this server (recordings.maxDurationSeconds, ${VARIABLES.maxDurationSeconds})`);
    }
    const entry = this.#entryOf(browser);
    const kept = [...entry.replays.values()];
    const running = kept.filter((replay) => replay.running).length;
    if (running >= this.settings.maxActivePerBrowser) {
      throw new ReplError('REPL_ERR_REPLAY_LIMIT', `browser ${browser.id} already runs ${running} recording(s), the most it may run at once (${VARIABLES.maxActivePerBrowser}); stop one first`);
    }
    if (kept.length >= this.settings.maxPerBrowser) {
      throw new ReplError('REPL_ERR_REPLAY_LIMIT', `browser ${browser.id} already keeps ${kept.length} recording(s), the most it may keep (${VARIABLES.maxPerBrowser}); they go with the browser (DELETE /browsers/${browser.id})`);
    }
    const used = await this.#bytesUsed();
    if (used >= this.settings.maxTotalBytes) {
      throw new ReplError('REPL_ERR_REPLAY_STORAGE_FULL', `the recordings of this server use ${mib(used)} MiB of the ${mib(this.settings.maxTotalBytes)} MiB allowed (${VARIABLES.maxTotalMb}); delete browsers whose recordings you no longer need`);
    }
    this.#folder ??= mkdtempSync(ownedTempPrefix('chromium-repl-recordings', this.settings.directory));
    const id = `rp_${randomBytes(12).toString('base64url')}`;
    const file = path.join(this.#folder, `${id}.mp4`);
    // A recording is work on the browser: it is not reaped while one runs (each ends by its maximum length).
    const release = browser.hold();
    let replay: Replay | undefined;
    const recorder = new Recorder({
      browser, ffmpeg, file, framerate: request.framerate,
      maxDurationMs: (request.maxDurationSeconds ?? maxSeconds) * 1000,
      onSelfStop: () => void replay?.stop(),
    });
    replay = new Replay(browser.id, file, recorder, id);
    entry.replays.set(id, replay);
    // Released once it ended, whoever ended it.
    void recorder.ended.then(release);
    this.#armSizeCheck();
    debug('browser %s: recording %s at %d fps', browser.id, id, request.framerate);
    return replay;
  }

  /** The recordings of the browser `browserId` (a live one, or one that ended within the retention time). */
  list(browserId: string): Replay[] {
    return [...(this.#byBrowser.get(browserId)?.replays.values() ?? [])];
  }

  /** Whether `browserId` has recordings here (an ended browser's are found by its id during the retention time). */
  has(browserId: string): boolean {
    return this.#byBrowser.has(browserId);
  }

  get(browserId: string, replayId: string): Replay {
    const replay = this.#byBrowser.get(browserId)?.replays.get(replayId);
    if (replay === undefined) throw new ReplError('REPL_ERR_REPLAY_NOT_FOUND', `browser ${browserId} has no recording ${replayId}`);
    return replay;
  }

  #entryOf(browser: Browser): BrowserRecordings {
    let entry = this.#byBrowser.get(browser.id);
    if (entry === undefined) {
      const created: BrowserRecordings = { replays: new Map(), expiry: undefined, ended: false, disposeEndHook: () => undefined };
      // Before Chromium goes: the running recordings get their last frames and are finished.
      created.disposeEndHook = browser.onEnd(() => this.#browserEnded(browser.id, created));
      this.#byBrowser.set(browser.id, created);
      entry = created;
    }
    return entry;
  }

  async #browserEnded(browserId: string, entry: BrowserRecordings): Promise<void> {
    entry.ended = true;
    await waitAtMost(Promise.all([...entry.replays.values()].map((replay) => replay.stop())), BROWSER_END_BUDGET_MS);
    if (this.closed || this.#byBrowser.get(browserId) !== entry) return;
    const remove = (): void => {
      if (this.#byBrowser.get(browserId) !== entry) return;
      this.#byBrowser.delete(browserId);
      for (const replay of entry.replays.values()) void replay.recorder.destroy().then(() => rm(replay.file, { force: true }));
      debug('browser %s: its %d recording(s) removed', browserId, entry.replays.size);
    };
    if (this.settings.retentionSeconds === 0) {
      this.#byBrowser.delete(browserId);
      await Promise.all([...entry.replays.values()].map((replay) => rm(replay.file, { force: true })));
      return;
    }
    entry.expiry = setTimeout(remove, this.settings.retentionSeconds * 1000);
    entry.expiry.unref();
  }

  async #bytesUsed(): Promise<number> {
    let total = 0;
    const sizes: Array<Promise<number>> = [];
    for (const entry of this.#byBrowser.values()) {
      for (const replay of entry.replays.values()) {
        if (replay.running || replay.finishedAt === null) sizes.push(stat(replay.file).then((info) => info.size, () => 0));
        else total += replay.size;
      }
    }
    for (const size of await Promise.all(sizes)) total += size;
    return total;
  }

  /** While something records: stops every running recording once the disk limit is reached. */
  #armSizeCheck(): void {
    if (this.#sizeTimer !== undefined) return;
    this.#sizeTimer = setInterval(() => {
      const running = [...this.#byBrowser.values()].flatMap((entry) => [...entry.replays.values()].filter((replay) => replay.running));
      if (running.length === 0) {
        clearInterval(this.#sizeTimer);
        this.#sizeTimer = undefined;
        return;
      }
      void this.#bytesUsed().then((used) => {
        if (used < this.settings.maxTotalBytes) return;
        debug('recordings use %d MiB, the limit: stopping %d running', mib(used), running.length);
        for (const replay of running) void replay.stop();
      });
    }, SIZE_CHECK_MS);
    this.#sizeTimer.unref();
  }

  protected async closeGracefully(): Promise<void> {
    await this.#end((replay) => replay.stop());
  }

  protected override async destroyNow(): Promise<void> {
    await this.#end((replay) => replay.recorder.destroy());
  }

  async #end(ending: (replay: Replay) => Promise<void>): Promise<void> {
    clearInterval(this.#sizeTimer);
    const entries = [...this.#byBrowser.values()];
    this.#byBrowser.clear();
    for (const entry of entries) {
      clearTimeout(entry.expiry);
      entry.disposeEndHook();
    }
    await waitAtMost(Promise.all(entries.flatMap((entry) => [...entry.replays.values()].map((replay) => ending(replay).catch(() => undefined)))), BROWSER_END_BUDGET_MS);
    // Whatever is left (a recorder past its budget) is killed, and the folder goes.
    await Promise.all(entries.flatMap((entry) => [...entry.replays.values()].map((replay) => replay.recorder.destroy())));
    if (this.#folder !== undefined) rmSync(this.#folder, { recursive: true, force: true });
  }
}

function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}
