/**
 * One recording of one browser: a CDP connection of its own (on the main thread, like the live
 * view's, lib/live-view/live-view.ts) attached to the tab the default REPL uses, with
 * `Page.startScreencast` running, and an ffmpeg child that turns the frames into an MP4.
 *
 * Chromium sends a screencast frame only when the page changed, so the frames are not a video by
 * themselves: the recorder writes the last frame it got again and again, as many times as the
 * requested framerate asks for the time that passed (counted from the start, not from timer ticks,
 * so a late tick writes more copies rather than shortening the video). ffmpeg reads them as a
 * constant-framerate MJPEG stream (`-f image2pipe -framerate N`), so the MP4 lasts as long as the
 * recording did. H.264 (libx264) when this ffmpeg has it, else MPEG-4 part 2; `+faststart` puts
 * the index first, so a `<video>` plays it before it has all of it.
 *
 * Which tab: the same rule as the live view (`defaultTab`), looked at again every {@link TICK_MS};
 * a tab change switches the screencast, and the frames of the new tab follow in the same video
 * (scaled into the first frame's size).
 *
 * `close()` stops it gracefully: the screencast stops, the frames due until now are written,
 * ffmpeg's input ends and its exit is awaited (the file is then complete). `destroy()` kills
 * ffmpeg at once (the file is then removed by its owner).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';

import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import type { Browser } from '../browsers/browser.js';
import { AckPacer } from '../live-view/frames.js';
import { defaultTab, TICK_MS } from '../live-view/live-view.js';
import type { LiveViewTab } from '../live-view/live-view.js';
import { guardProcessGroup, tiedCommand } from '../system/child-lifetime.js';
import type { GroupGuard } from '../system/child-lifetime.js';
import { videoEncoderOf } from './ffmpeg.js';

const debug = debuglog('browser-repl:recordings');

/** JPEG quality of the screencast frames (0–100). */
const JPEG_QUALITY = 80;
/** How long stopping waits for Chromium to stop the screencast and detach. */
const DETACH_BUDGET_MS = 2_000;
/** How long ffmpeg may take to finish the file after its input ended, before it is killed. */
const FINISH_BUDGET_MS = 60_000;
/** Frames waiting in ffmpeg's stdin beyond this are dropped (ffmpeg fell behind): memory stays bounded. */
const MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/** A white 16×16 JPEG (ffmpeg scales it to the video's size): the frame of a tab that had not painted yet. */
const BLANK_FRAME = Buffer.from('/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABLAAEBAAAAAAAAAAAAAAAAAAAABwEBAAAAAAAAAAAAAAAAAAAAABABAAAAAAAAAAAAAAAAAAAAABEBAAAAAAAAAAAAAAAAAAAAAP/AABEIABAAEAMBIgACEQADEQD/2gAMAwEAAhEDEQA/AL+AD//Z', 'base64');
/** Pause between tries of the stop's screenshot when a recording has no frame yet. */
const RETRY_FRAME_MS = 50;
/** Last bytes of ffmpeg's stderr kept for the error message. */
const STDERR_TAIL = 2_000;

export interface RecorderOptions {
  readonly browser: Browser;
  /** The ffmpeg executable. */
  readonly ffmpeg: string;
  /** The MP4 to write. */
  readonly file: string;
  /** Frames per second of the video. */
  readonly framerate: number;
  /** The recording stops by itself after this long. */
  readonly maxDurationMs: number;
  /** Called once, when the recording ended by itself (max duration, the browser ended); not on `close()`. */
  readonly onSelfStop: () => void;
}

/** The outcome of a recording once it ended. */
export type RecorderOutcome = { ok: true; durationMs: number } | { ok: false; error: ReplError };

export class Recorder extends Resource {
  readonly #options: RecorderOptions;
  readonly #link: BrowserLink;
  readonly #timer: NodeJS.Timeout;
  readonly #maxTimer: NodeJS.Timeout;
  readonly #width: number;
  readonly #height: number;
  #child: ChildProcessByStdio<Writable, null, Readable> | undefined;
  #guard: GroupGuard | undefined;
  #exited: Promise<number | null> | undefined;
  #stderr = '';
  /** Paces the acknowledgements of the screencast to the video's frame rate (lib/live-view/frames.ts). */
  #acks: AckPacer | undefined;
  #session: CdpSession | undefined;
  #targetId: string | undefined;
  #ticking: Promise<void> | undefined;
  #startedAt: number;
  #written = 0;
  #dropped = 0;
  #lastFrame: Buffer | undefined;
  #outcome: RecorderOutcome | undefined;

  /** Starts the recording; `started` settles once ffmpeg runs (or could not start). */
  readonly started: Promise<void>;
  /** Resolves once it ended (closed or destroyed), its outcome known. */
  readonly ended: Promise<void>;
  #resolveEnded: () => void = () => undefined;

  constructor(options: RecorderOptions) {
    super();
    this.#options = options;
    const chromium = options.browser.chromium;
    if (chromium === null) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this server runs without a browser (browser: false): there is nothing to record');
    // Even sizes: yuv420p (what every player takes) halves both.
    this.#width = Math.max(2, Math.floor(options.browser.viewport.width / 2) * 2);
    this.#height = Math.max(2, Math.floor(options.browser.viewport.height / 2) * 2);
    this.#link = new BrowserLink({ endpointProvider: () => chromium.endpoint() });
    this.#timer = setInterval(() => this.#onTick(), Math.min(TICK_MS, Math.ceil(1000 / options.framerate)));
    this.#timer.unref();
    this.#maxTimer = setTimeout(() => this.#selfStop('max_duration_in_seconds reached'), options.maxDurationMs);
    this.#maxTimer.unref();
    // The video's clock starts with the request, not when ffmpeg is up: the first frame fills the gap.
    this.#startedAt = performance.now();
    this.started = this.#start();
    this.ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
  }

  /** What came of it, once closed. */
  get outcome(): RecorderOutcome | undefined {
    return this.#outcome;
  }

  async #start(): Promise<void> {
    const { framerate, file, ffmpeg } = this.#options;
    const encoder = await videoEncoderOf(ffmpeg);
    const codec = encoder === 'libx264'
      ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28']
      : ['-c:v', 'mpeg4', '-q:v', '5'];
    const w = this.#width;
    const h = this.#height;
    const args = [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(framerate), '-i', 'pipe:0',
      // A tab of another size (or a resized one) is fitted into the first size, letterboxed.
      '-vf', `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`,
      ...codec, '-r', String(framerate), '-movflags', '+faststart', '-f', 'mp4', file,
    ];
    const tied = tiedCommand(ffmpeg, args);
    const child = spawn(tied.command, [...tied.args], { stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    this.#child = child;
    if (child.pid !== undefined) this.#guard = guardProcessGroup(child.pid);
    child.stdin.on('error', (error) => debug('ffmpeg stdin: %s', error.message));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    this.#exited = new Promise((resolve) => {
      child.once('error', (error) => {
        this.#stderr += `\n${error.message}`;
        resolve(null);
      });
      child.once('exit', (code) => {
        this.#guard?.release();
        resolve(code);
      });
    });
    // It died early (a bad executable, a full disk): the recording is over.
    void this.#exited.then(() => {
      if (!this.closed) this.#selfStop('ffmpeg exited');
    });
    void this.#tick();
  }

  #selfStop(reason: string): void {
    if (this.closed) return;
    debug('%s: stopping by itself: %s', this.#options.file, reason);
    this.#options.onSelfStop();
  }

  #onTick(): void {
    this.#pump();
    void this.#tick();
  }

  /** Writes the last frame as many times as the time since the start asks for. */
  #pump(until = performance.now(), atLeastOne = false): void {
    const child = this.#child;
    const frame = this.#lastFrame;
    if (child === undefined || frame === undefined || !child.stdin.writable) return;
    const elapsed = Math.min(until - this.#startedAt, this.#options.maxDurationMs);
    // The last pump of a recording shorter than one frame's time still writes that one frame.
    const due = Math.max(atLeastOne ? 1 : 0, Math.floor((elapsed * this.#options.framerate) / 1000));
    while (this.#written < due) {
      this.#written++;
      if (child.stdin.writableLength > MAX_QUEUED_BYTES) {
        this.#dropped++;
        continue;
      }
      child.stdin.write(frame);
    }
  }

  /** Lists the tabs and follows the one the default REPL uses (the live view's rule). */
  #tick(): Promise<void> {
    if (this.closed || this.#child === undefined) return Promise.resolve();
    if (this.#options.browser.closed) {
      this.#selfStop('the browser ended');
      return Promise.resolve();
    }
    this.#ticking ??= this.#look().catch((error: unknown) => {
      debug('%s: %s', this.#options.file, error instanceof Error ? error.message : String(error));
    }).finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #look(): Promise<void> {
    const want = await this.#wantedTab();
    if (this.closed) return;
    if (want !== undefined && (want !== this.#targetId || this.#session === undefined || this.#session.closed)) await this.#show(want);
  }

  /** The tab to show: the one the default REPL uses (the live view's rule). */
  async #wantedTab(): Promise<string | undefined> {
    const { targetInfos } = await this.#link.send('Target.getTargets');
    const owners = this.#options.browser.tabs?.ownersExcept() ?? {};
    const tabs: LiveViewTab[] = targetInfos.filter((info) => info.type === 'page')
      .map((page) => ({ targetId: page.targetId, url: page.url, title: page.title, owner: owners[page.targetId] ?? 'repl:default' }));
    return defaultTab(tabs, this.#targetId, this.#options.browser.tabs?.defaultAttached);
  }

  /**
   * A recording stopped before its first frame arrived (a short one, a busy machine, a tab that
   * was still being attached) still shows the tab as it was at the stop: one screenshot, through
   * the screencast's session or a session of its own. Without it the video would have no frame.
   * A tab in the middle of its first navigation answers "Not attached to an active page" for a
   * moment (its renderer is being swapped): that is tried again, until the caller's budget ends.
   */
  async #captureIfNoFrame(signal: AbortSignal): Promise<void> {
    while (this.#lastFrame === undefined && !signal.aborted) {
      try {
        await this.#screenshotNow(signal);
      } catch (error) {
        debug('%s: no frame at the stop yet: %s', this.#options.file, error instanceof Error ? error.message : String(error));
        await sleep(RETRY_FRAME_MS, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  async #screenshotNow(signal: AbortSignal): Promise<void> {
    let session = this.#session !== undefined && !this.#session.closed ? this.#session : undefined;
    const own = session === undefined;
    if (session === undefined) {
      const targetId = await this.#wantedTab();
      if (targetId === undefined) throw new Error('the browser has no tab');
      session = await (await this.#link.connection({ method: 'Target.attachToTarget' })).attachToTarget(targetId, { signal });
    }
    try {
      const shot = await session.send('Page.captureScreenshot', { format: 'jpeg', quality: JPEG_QUALITY }, { signal });
      this.#lastFrame ??= Buffer.from(shot.data, 'base64');
    } finally {
      if (own) await session.detach().catch(() => undefined);
    }
  }

  async #show(targetId: string): Promise<void> {
    await this.#detach();
    const connection = await this.#link.connection({ method: 'Target.attachToTarget' });
    const session = await connection.attachToTarget(targetId);
    if (this.closed) {
      await session.detach().catch(() => undefined);
      return;
    }
    this.#session = session;
    this.#targetId = targetId;
    const acks = new AckPacer(this.#options.framerate);
    this.#acks = acks;
    session.on('Page.screencastFrame', (event) => {
      const { data, sessionId } = event.params;
      // Chromium sends the next frame only once this one is acknowledged: no more often than the
      // video takes them, so an animating page is not encoded at 60 frames a second for nothing.
      acks.schedule(() => void session.send('Page.screencastFrameAck', { sessionId }).catch(() => undefined));
      if (this.closed) return;
      // The frames due until now show what was there before this one.
      this.#pump();
      this.#lastFrame = Buffer.from(data, 'base64');
    });
    session.onClose(() => {
      if (this.#session === session) this.#session = undefined;
    });
    await session.send('Page.startScreencast', { format: 'jpeg', quality: JPEG_QUALITY, maxWidth: this.#width, maxHeight: this.#height, everyNthFrame: 1 });
    // A still page sends nothing until it changes: one screenshot gives the recording its first frame.
    if (this.#lastFrame === undefined) {
      const shot = await session.send('Page.captureScreenshot', { format: 'jpeg', quality: JPEG_QUALITY }).catch(() => undefined);
      if (shot !== undefined && this.#lastFrame === undefined) this.#lastFrame = Buffer.from(shot.data, 'base64');
    }
    if (this.closed && this.#session === session) await this.#detach();
  }

  async #detach(): Promise<void> {
    this.#acks?.cancel();
    const session = this.#session;
    this.#session = undefined;
    if (session === undefined || session.closed) return;
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach().catch(() => undefined);
  }

  protected async closeGracefully(): Promise<void> {
    try {
      await this.#finish();
    } finally {
      this.#resolveEnded();
    }
  }

  async #finish(): Promise<void> {
    const stoppedAt = performance.now();
    clearInterval(this.#timer);
    clearTimeout(this.#maxTimer);
    await this.started.catch(() => undefined);
    await waitAtMost(this.#ticking ?? Promise.resolve(), DETACH_BUDGET_MS);
    const budget = AbortSignal.timeout(DETACH_BUDGET_MS);
    await waitAtMost(this.#captureIfNoFrame(budget), DETACH_BUDGET_MS);
    if (this.#lastFrame === undefined) {
      // The tab never painted in the recording's time (a screenshot waits for a frame that is not
      // there yet): the video shows what a viewer saw, an empty white page, rather than failing.
      debug('%s: the tab had not painted by the stop: a blank frame', this.#options.file);
      this.#lastFrame = BLANK_FRAME;
    }
    await waitAtMost(this.#detach(), DETACH_BUDGET_MS);
    await this.#link.close();
    this.#pump(stoppedAt, true);
    const child = this.#child;
    if (child === undefined) {
      this.#outcome = { ok: false, error: new ReplError('REPL_ERR_REPLAY_FAILED', 'ffmpeg did not start') };
      return;
    }
    child.stdin.end();
    const exited = this.#exited ?? Promise.resolve(null);
    await waitAtMost(exited, FINISH_BUDGET_MS);
    if (child.exitCode === null && child.signalCode === null) this.#kill();
    const code = await exited;
    if (this.#dropped > 0) debug('%s: %d frames dropped (ffmpeg fell behind)', this.#options.file, this.#dropped);
    if (code === 0 && this.#written > 0) {
      this.#outcome = { ok: true, durationMs: (this.#written * 1000) / this.#options.framerate };
    } else {
      const why = this.#written === 0 ? 'no frame was captured (the browser had no page to show)' : `ffmpeg exited with ${code ?? 'an error'}`;
      this.#outcome = { ok: false, error: new ReplError('REPL_ERR_REPLAY_FAILED', `the recording could not be encoded: ${why}${this.#stderr.trim() === '' ? '' : `: ${this.#stderr.trim()}`}`) };
    }
  }

  protected override async destroyNow(): Promise<void> {
    try {
      await this.#discard();
    } finally {
      this.#resolveEnded();
    }
  }

  async #discard(): Promise<void> {
    clearInterval(this.#timer);
    clearTimeout(this.#maxTimer);
    await this.started.catch(() => undefined);
    this.#kill();
    await waitAtMost(this.#detach(), DETACH_BUDGET_MS);
    await this.#link.close();
    await waitAtMost(this.#exited ?? Promise.resolve(), DETACH_BUDGET_MS);
    this.#outcome ??= { ok: false, error: new ReplError('REPL_ERR_REPLAY_FAILED', 'the recording was discarded (the server or its browser was destroyed)') };
  }

  #kill(): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      // Its own process group (detached): the group, so nothing ffmpeg started survives.
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
