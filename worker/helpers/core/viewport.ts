/**
 * `setViewport()`: the attached tab's viewport, by emulation (`Emulation.setDeviceMetricsOverride`),
 * reflected by `innerWidth`/`innerHeight` (`pageInfo().viewport`), media queries and the pixel size
 * of `captureScreenshot` (width × deviceScaleFactor).
 *
 * Chromium ties an emulation to the session that set it: when the REPL attaches another tab (and
 * so detaches this one), the tab shows its window's own size again, the server's default viewport
 * (lib/chromium/viewport.ts). The REPL remembers what each tab was given and sets it again when
 * `switchTab` attaches that tab once more; a dropped connection, a browser restart or a reset
 * forget it. Other REPLs and executors attached to the same tab are not affected by the override
 * ending, and a popup gets its window's size, not its opener's override.
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, readOptions } from '../helper-options.js';
import { assertPageResponsive, guardDialog } from './page-guard.js';
import { delay } from './timing.js';

import type { HelperContext } from '../helper-context.js';

/** Largest side accepted; the same bound as the server's default viewport (lib/chromium/viewport.ts). */
export const MAX_VIEWPORT_SIDE = 10_000;
/** Largest device scale factor accepted: a 10 000 px wide page at 10× is already a 100 000 px image. */
const MAX_DEVICE_SCALE_FACTOR = 10;
/**
 * How long a cleared override may take to leave the page. Clearing, unlike setting, is answered
 * before the renderer has its window's size back: `innerWidth` may still read the override for a
 * frame or two. A window exactly the override's size never changes; the wait ends here.
 */
const CLEAR_SETTLE_MS = 1_000;
const CLEAR_POLL_MS = 16;
const USAGE = 'setViewport: expected { width, height, deviceScaleFactor?, mobile? } (CSS pixels), or null to return to the window\'s size';

/** What `setViewport` applied to a tab. */
export interface ViewportSetting {
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
}

/** The viewport each tab of this REPL was given, so that `switchTab` can set it again. */
export class ViewportMemory {
  readonly #byTarget = new Map<string, ViewportSetting>();

  /** What `targetId` was given, if anything. */
  get(targetId: string): ViewportSetting | undefined {
    return this.#byTarget.get(targetId);
  }

  /** Records `setting` for `targetId`; null forgets it (the tab keeps its window's size). */
  remember(targetId: string, setting: ViewportSetting | null): void {
    if (setting === null) this.#byTarget.delete(targetId);
    else this.#byTarget.set(targetId, setting);
  }

  /**
   * Sets `targetId`'s remembered viewport on `sessionId`, its new session; nothing to do for a tab
   * that was never given one. Errors reach the caller (`switchTab`).
   */
  async reapply(context: HelperContext, targetId: string, sessionId: string): Promise<void> {
    const setting = this.#byTarget.get(targetId);
    if (setting === undefined) return;
    await context.client.send('Emulation.setDeviceMetricsOverride', overrideParams(setting), context.callOptions({ sessionId }));
  }
}

function side(options: Record<string, unknown>, key: 'width' | 'height'): number {
  const value = options[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_VIEWPORT_SIDE) {
    throw invalidArgument(`setViewport: ${key} must be an integer between 1 and ${MAX_VIEWPORT_SIDE} (CSS pixels)`);
  }
  return value;
}

function readSetting(viewport: unknown): ViewportSetting | null {
  if (viewport === null) return null;
  if (viewport === undefined || typeof viewport !== 'object' || Array.isArray(viewport)) throw invalidArgument(USAGE);
  const options = readOptions('setViewport', viewport, ['width', 'height', 'deviceScaleFactor', 'mobile']);
  const { deviceScaleFactor = 1, mobile = false } = options;
  if (typeof deviceScaleFactor !== 'number' || !Number.isFinite(deviceScaleFactor) || deviceScaleFactor <= 0 || deviceScaleFactor > MAX_DEVICE_SCALE_FACTOR) {
    throw invalidArgument(`setViewport: deviceScaleFactor must be a number greater than 0 and at most ${MAX_DEVICE_SCALE_FACTOR}`);
  }
  if (typeof mobile !== 'boolean') throw invalidArgument('setViewport: mobile must be a boolean');
  return { width: side(options, 'width'), height: side(options, 'height'), deviceScaleFactor, mobile };
}

/** The screen is made the viewport's size too, so `screen.width` and media queries on it agree. */
function overrideParams(setting: ViewportSetting) {
  return { ...setting, screenWidth: setting.width, screenHeight: setting.height };
}

export function createViewportHelpers(context: HelperContext, memory: ViewportMemory) {
  const { client } = context;

  /** Sets (or with null clears) the attached tab's viewport; see the module comment. */
  async function setViewport(viewport: unknown): Promise<void> {
    const setting = readSetting(viewport);
    const sessionId = await client.ensureAttached(context.callOptions());
    const targetId = client.targetId;
    // The renderer applies the new size before Chromium answers: a dialog would hold the answer.
    await assertPageResponsive('setViewport', context);
    await guardDialog('setViewport', context, sessionId, () => setting === null
      ? client.send('Emulation.clearDeviceMetricsOverride', undefined, context.callOptions({ sessionId }))
      : client.send('Emulation.setDeviceMetricsOverride', overrideParams(setting), context.callOptions({ sessionId })));
    const previous = targetId === undefined ? undefined : memory.get(targetId);
    if (targetId !== undefined) memory.remember(targetId, setting);
    if (setting === null && previous !== undefined) await overrideLeft(sessionId, previous);
  }

  /**
   * Resolves once the page no longer shows the cleared override's size (see CLEAR_SETTLE_MS), so
   * that the next `pageInfo()` or `js()` of the cell sees the window's size, as the screenshot does.
   */
  async function overrideLeft(sessionId: string, cleared: ViewportSetting): Promise<void> {
    const until = context.waitDeadline(CLEAR_SETTLE_MS);
    for (;;) {
      let answer;
      try {
        // Bounded by the settle window too: a page that stopped answering (a dialog opened since)
        // holds the read, not the clear, which Chromium has already applied.
        answer = await client.send('Runtime.evaluate', { expression: '[innerWidth, innerHeight]', returnByValue: true },
          context.callOptions({ sessionId, timeoutMs: Math.max(1, until - Date.now()) }));
      } catch (error) {
        if (error instanceof ReplError && error.code === 'REPL_ERR_CDP_TIMEOUT') return;
        throw error;
      }
      const [width, height] = (answer.result.value ?? []) as number[];
      if (width !== cleared.width || height !== cleared.height) return;
      if (Date.now() >= until || !(await delay(Math.min(CLEAR_POLL_MS, until - Date.now()), context.signal))) return;
    }
  }

  return { setViewport };
}
