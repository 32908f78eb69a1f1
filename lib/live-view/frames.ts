/**
 * How the live view spends frames (docs/live-view.md#frames-and-input): the screencast runs at a
 * reduced size ({@link MOTION_MAX}), which is what a frame costs the watched page (Chromium
 * converts and encodes every captured frame on its browser process, pixel by pixel), and once the
 * page has been still for {@link STILL_AFTER_MS} one full-size still (`Page.captureScreenshot`)
 * replaces the last reduced frame. A person sees motion at once (slightly soft) and the settled
 * page sharp; the agent's actions pay for small frames only.
 *
 * {@link StillFrames} is the rule, kept pure for its unit test: which screencast frames are
 * relayed, when a still is due, and whether a still that came back may still be shown (not when a
 * newer frame overtook it).
 */

/** The box the screencast's frames fit in (device pixels; aspect ratio kept, never enlarged). */
export const MOTION_MAX = { width: 480, height: 480 } as const;
/** How long the page must stay still (no changed frame) before its full-size still is taken. */
export const STILL_AFTER_MS = 250;

/** A still to take: its `token` says whether it may still be shown when it arrives. */
export interface StillRequest {
  readonly token: number;
}

/** The rule of the module comment; one per shown tab. */
export class StillFrames {
  /** Counts the changed frames relayed; a still is shown only if none came after its request. */
  #generation = 0;
  #lastData: string | undefined;
  #stillDue = false;
  readonly #fullSize: (geometry: { deviceWidth: number; deviceHeight: number }) => boolean;

  /**
   * @param fullSize whether a frame of that geometry (DIP) already comes at full size, so a
   *   still would add nothing; by default, when it fits {@link MOTION_MAX}.
   */
  constructor(fullSize?: (geometry: { deviceWidth: number; deviceHeight: number }) => boolean) {
    this.#fullSize = fullSize ?? ((geometry) => geometry.deviceWidth <= MOTION_MAX.width && geometry.deviceHeight <= MOTION_MAX.height);
  }

  /**
   * A screencast frame arrived: true when it is to be relayed. A frame with the same bytes as the
   * last one relayed shows nothing new (Chromium sends one when a still is captured, for one) and
   * is dropped, so it neither costs viewers nor makes another still due.
   */
  onFrame(data: string, geometry: { deviceWidth: number; deviceHeight: number }): boolean {
    if (data === this.#lastData) return false;
    this.#lastData = data;
    this.#generation++;
    this.#stillDue = !this.#fullSize(geometry);
    return true;
  }

  /** The page was still for {@link STILL_AFTER_MS}: the still to take, once per change, or undefined. */
  stillDue(): StillRequest | undefined {
    if (!this.#stillDue) return undefined;
    this.#stillDue = false;
    return { token: this.#generation };
  }

  /** A still came back: true when no changed frame came after it was asked for (it shows the page as it is). */
  accept(request: StillRequest): boolean {
    return request.token === this.#generation;
  }
}

/** The live view's frame rate at most while the page changes: acknowledgements are paced to it. */
export const MOTION_FPS = 30;

/**
 * Paces a screencast's acknowledgements. Chromium captures, converts and encodes the next frame
 * only once the last one was acknowledged, at up to the display's 60 frames a second while a page
 * animates: acknowledging a frame no sooner than `1000 / fps` ms after the one before caps what
 * the screencast costs the page at what its consumer uses (a recording's frame rate, a person's
 * eye). A frame after a pause is acknowledged at once, so the first change after an input shows
 * as fast as before. One per screencast session.
 */
export class AckPacer {
  readonly #intervalMs: number;
  readonly #now: () => number;
  #lastAckAt = -Infinity;
  #pending: NodeJS.Timeout | undefined;

  constructor(fps: number, now: () => number = () => performance.now()) {
    this.#intervalMs = 1000 / fps;
    this.#now = now;
  }

  /** How long to wait before acknowledging a frame that arrived now (0: at once). */
  delayMs(): number {
    return Math.max(0, this.#lastAckAt + this.#intervalMs - this.#now());
  }

  /** Runs `ack` when the pace allows: now, or on a timer (one at a time: Chromium sends no frame before it). */
  schedule(ack: () => void): void {
    const delay = this.delayMs();
    const run = (): void => {
      this.#pending = undefined;
      this.#lastAckAt = this.#now();
      ack();
    };
    clearTimeout(this.#pending);
    if (delay === 0) {
      run();
      return;
    }
    this.#pending = setTimeout(run, delay);
    this.#pending.unref();
  }

  /** Drops an acknowledgement not yet sent (the session is going). */
  cancel(): void {
    clearTimeout(this.#pending);
    this.#pending = undefined;
  }
}
