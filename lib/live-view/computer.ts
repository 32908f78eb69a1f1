/**
 * The computer controls of one browser (docs/computer.md): the Kernel SDK's
 * `client.browsers.computer.*` mouse, keyboard, screenshot, clipboard and cursor calls, done over
 * CDP on the tab the default REPL uses (the one the live view shows by default, {@link defaultTab}).
 * Mouse and key events are the live view's own `Input.*` commands (lib/live-view/input.ts), so
 * they are checked the same way; every command is awaited, and `Input.dispatchMouseEvent` /
 * `dispatchKeyEvent` answer only once the renderer handled the event, so a call that answered has
 * taken effect.
 *
 * State kept per browser: the mouse position (where the last move, click, drag or scroll left
 * it; `get_mouse_position` answers it), whether the cursor is drawn onto screenshots, and the
 * clipboard (headless Chromium has no system clipboard: `ctrl+c` / `ctrl+x` copy the page's
 * selection into it, `ctrl+v` types it with `Input.insertText`). Every call holds the browser's
 * input lock, a batch for all of its actions, so two callers' events never interleave.
 */
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import type { Browser } from '../browsers/browser.js';
import { characterKey, KeyNameError, keyOf, parseCombo } from './computer-keys.js';
import type { KeyInfo } from './computer-keys.js';
import { inputCommands, LiveViewInputError } from './input.js';
import type { InputCommand } from './input.js';
import { defaultTab } from './live-view.js';
import type { LiveViewTab } from './live-view.js';

type Button = 'left' | 'right' | 'middle' | 'back' | 'forward';
/** `buttons` bit of each button while it is down (the DOM's MouseEvent.buttons). */
const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4, back: 8, forward: 16 };
/** CSS pixels of one xdotool wheel unit (one notch). */
export const WHEEL_UNIT_PX = 100;
/** Steps of a smooth move per 100 px of distance, and the bounds on them. */
const SMOOTH_STEPS = { per100px: 4, min: 8, max: 60 };
/** Default `steps_per_segment` of a drag. */
const DRAG_STEPS = 10;

export interface ClickMouse { x: number; y: number; button?: Button; click_type?: 'down' | 'up' | 'click'; hold_keys?: string[]; num_clicks?: number }
export interface MoveMouse { x: number; y: number; duration_ms?: number; hold_keys?: string[]; smooth?: boolean }
export interface DragMouse {
  path: number[][]; button?: 'left' | 'middle' | 'right'; delay?: number; duration_ms?: number; hold_keys?: string[];
  smooth?: boolean; step_delay_ms?: number; steps_per_segment?: number;
}
export interface PressKey { keys: string[]; duration?: number; hold_keys?: string[] }
export interface Scroll { x: number; y: number; delta_x?: number; delta_y?: number; hold_keys?: string[] }
export interface TypeText { text: string; delay?: number }
export interface Region { x: number; y: number; width: number; height: number }
export interface BatchAction {
  type: 'click_mouse' | 'move_mouse' | 'type_text' | 'press_key' | 'scroll' | 'drag_mouse' | 'set_cursor' | 'sleep';
  click_mouse?: ClickMouse; move_mouse?: MoveMouse; type_text?: TypeText; press_key?: PressKey; scroll?: Scroll;
  drag_mouse?: DragMouse; set_cursor?: { hidden: boolean }; sleep?: { duration_ms: number };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(new ReplError('REPL_ERR_ABORTED', 'the request was aborted (the client went away)'));
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Refusals of the input checks, as the API's 400 naming the field. */
function invalid(error: unknown): unknown {
  if (error instanceof LiveViewInputError || error instanceof KeyNameError) return new ReplError('REPL_ERR_INVALID_REQUEST', error.message);
  return error;
}

/** The computer of one browser; see the module comment. */
export class BrowserComputer extends Resource {
  readonly #browser: Browser;
  readonly #link: BrowserLink;
  #session: CdpSession | undefined;
  #targetId: string | undefined;
  #x = 0;
  #y = 0;
  #cursorHidden = true;
  #clipboard = '';
  /** Mouse buttons down right now (a `click_type: down` without its `up`), as `buttons` bits. */
  #buttons = 0;
  /** The tab a running batch resolved once for all of its actions. */
  #pinned: CdpSession | undefined;
  /** The input lock: each call runs after the previous one ended. */
  #lock: Promise<unknown> = Promise.resolve();

  constructor(browser: Browser) {
    super();
    this.#browser = browser;
    const chromium = browser.chromium;
    if (chromium === null) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'computer controls need a browser with Chromium');
    this.#link = new BrowserLink({ endpointProvider: () => chromium.endpoint() });
  }

  get position(): { x: number; y: number } {
    return { x: this.#x, y: this.#y };
  }

  get cursorHidden(): boolean {
    return this.#cursorHidden;
  }

  /** Runs `work` holding the input lock (exclusive: one call or batch at a time per browser). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(() => {
      if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'this browser is shutting down');
      return work();
    });
    this.#lock = run.catch(() => undefined);
    return run;
  }

  readClipboard(): string {
    return this.#clipboard;
  }

  writeClipboard(text: string): void {
    this.#clipboard = text;
  }

  setCursor(hidden: boolean): void {
    this.#cursorHidden = hidden;
  }

  /** The session of the default REPL's tab, attached again when that tab changed or closed. */
  async #page(): Promise<CdpSession> {
    if (this.#pinned !== undefined && !this.#pinned.closed) return this.#pinned;
    const { targetInfos } = await this.#link.send('Target.getTargets');
    const owners = this.#browser.tabs?.ownersExcept() ?? {};
    const tabs: LiveViewTab[] = targetInfos.filter((info) => info.type === 'page')
      .map((page) => ({ targetId: page.targetId, url: page.url, title: page.title, owner: owners[page.targetId] ?? 'repl:default' }));
    const want = defaultTab(tabs, this.#targetId, this.#browser.tabs?.defaultAttached);
    if (want === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'the browser has no tab to send input to');
    if (want === this.#targetId && this.#session !== undefined && !this.#session.closed) return this.#session;
    const previous = this.#session;
    this.#session = undefined;
    if (previous !== undefined && !previous.closed) await previous.detach().catch(() => undefined);
    const connection = await this.#link.connection({ method: 'Target.attachToTarget' });
    const session = await connection.attachToTarget(want);
    this.#session = session;
    this.#targetId = want;
    return session;
  }

  async #send(session: CdpSession, commands: InputCommand[]): Promise<void> {
    for (const command of commands) await session.send(command.method, command.params);
  }

  #mouse(message: Record<string, unknown>): InputCommand[] {
    try {
      return inputCommands({ type: 'mouse', ...message });
    } catch (error) {
      throw invalid(error);
    }
  }

  #key(event: 'keyDown' | 'keyUp', info: KeyInfo, modifiers: number, shifted = false): InputCommand[] {
    const key = shifted && /^[a-z]$/.test(info.key) ? info.key.toUpperCase() : info.key;
    // With Ctrl, Alt or Meta down a key types nothing (a shortcut); Shift alone still types.
    const text = event === 'keyDown' && (modifiers & 7) === 0 && info.text !== undefined ? (key.length === 1 ? key : info.text) : undefined;
    const message: Record<string, unknown> = { type: 'key', event, key, modifiers, keyCode: info.keyCode };
    if (info.code !== '') message['code'] = info.code;
    if (text !== undefined) message['text'] = text;
    if (info.location !== undefined) message['location'] = info.location;
    return inputCommands(message);
  }

  /** Presses `hold_keys`, runs `work` with their modifier bits, and releases them (also on failure). */
  async #holding<T>(session: CdpSession, holdKeys: string[] | undefined, field: string, work: (modifiers: number) => Promise<T>): Promise<T> {
    const keys = (holdKeys ?? []).map((name, index) => {
      const info = keyOf(name);
      if (info === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field}[${index}]: unknown key ${JSON.stringify(name)} (see docs/computer.md#keys)`);
      return info;
    });
    let modifiers = 0;
    const down: KeyInfo[] = [];
    try {
      for (const info of keys) {
        modifiers |= info.modifier ?? 0;
        await this.#send(session, this.#key('keyDown', info, modifiers));
        down.push(info);
      }
      return await work(modifiers);
    } finally {
      for (const info of down.reverse()) {
        modifiers &= ~(info.modifier ?? 0);
        await this.#send(session, this.#key('keyUp', info, modifiers)).catch(() => undefined);
      }
    }
  }

  async #moveTo(session: CdpSession, x: number, y: number, modifiers: number): Promise<void> {
    await this.#send(session, this.#mouse({ event: 'mouseMoved', x, y, modifiers, buttons: this.#buttons, button: 'none' }));
    this.#x = x;
    this.#y = y;
  }

  /** Moves along a curve from the current position to (x, y), in `durationMs` (or paced by distance). */
  async #glide(session: CdpSession, x: number, y: number, modifiers: number, durationMs: number | undefined, signal?: AbortSignal): Promise<void> {
    const fromX = this.#x;
    const fromY = this.#y;
    const distance = Math.hypot(x - fromX, y - fromY);
    const steps = Math.min(SMOOTH_STEPS.max, Math.max(SMOOTH_STEPS.min, Math.round((distance / 100) * SMOOTH_STEPS.per100px)));
    const total = durationMs ?? Math.min(1000, Math.round(distance * 1.2));
    // One control point off the straight line (a quadratic Bézier), as a hand's path bends.
    const cx = (fromX + x) / 2 - (y - fromY) * 0.2;
    const cy = (fromY + y) / 2 + (x - fromX) * 0.2;
    for (let step = 1; step <= steps; step++) {
      const t = step / steps;
      const eased = t * t * (3 - 2 * t);
      const px = (1 - eased) ** 2 * fromX + 2 * (1 - eased) * eased * cx + eased ** 2 * x;
      const py = (1 - eased) ** 2 * fromY + 2 * (1 - eased) * eased * cy + eased ** 2 * y;
      await this.#moveTo(session, step === steps ? x : Math.max(0, Math.round(px * 100) / 100), step === steps ? y : Math.max(0, Math.round(py * 100) / 100), modifiers);
      if (step < steps) await sleep(total / steps, signal);
    }
  }

  // ----- the actions, without the lock (a batch holds it for all of them) -----

  async clickMouse(body: ClickMouse): Promise<void> {
    const session = await this.#page();
    const button = body.button ?? 'left';
    const kind = body.click_type ?? 'click';
    const count = body.num_clicks ?? 1;
    await this.#holding(session, body.hold_keys, 'hold_keys', async (modifiers) => {
      await this.#moveTo(session, body.x, body.y, modifiers);
      const bit = BUTTON_BITS[button];
      if (kind === 'down') {
        this.#buttons |= bit;
        await this.#send(session, this.#mouse({ event: 'mousePressed', x: body.x, y: body.y, button, clickCount: 1, buttons: this.#buttons, modifiers }));
        return;
      }
      if (kind === 'up') {
        this.#buttons &= ~bit;
        await this.#send(session, this.#mouse({ event: 'mouseReleased', x: body.x, y: body.y, button, clickCount: 1, buttons: this.#buttons, modifiers }));
        return;
      }
      for (let n = 0; n < count; n++) {
        // clickCount counts 1, 2, 3 as a double and a triple click do; a fourth starts over.
        const clickCount = (n % 3) + 1;
        await this.#send(session, this.#mouse({ event: 'mousePressed', x: body.x, y: body.y, button, clickCount, buttons: this.#buttons | bit, modifiers }));
        await this.#send(session, this.#mouse({ event: 'mouseReleased', x: body.x, y: body.y, button, clickCount, buttons: this.#buttons, modifiers }));
      }
    });
  }

  async moveMouse(body: MoveMouse, signal?: AbortSignal): Promise<void> {
    const session = await this.#page();
    await this.#holding(session, body.hold_keys, 'hold_keys', async (modifiers) => {
      if (body.smooth === true) await this.#glide(session, body.x, body.y, modifiers, body.duration_ms, signal);
      else await this.#moveTo(session, body.x, body.y, modifiers);
    });
  }

  async dragMouse(body: DragMouse, signal?: AbortSignal): Promise<void> {
    if (body.path.length < 2) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'path must have at least 2 points');
    body.path.forEach((point, index) => {
      if (point.length !== 2) throw new ReplError('REPL_ERR_INVALID_REQUEST', `path[${index}] must be an [x, y] pair`);
    });
    const session = await this.#page();
    const button = body.button ?? 'left';
    const bit = BUTTON_BITS[button];
    const points = body.path as Array<[number, number]>;
    await this.#holding(session, body.hold_keys, 'hold_keys', async (modifiers) => {
      const [startX, startY] = points[0] as [number, number];
      await this.#moveTo(session, startX, startY, modifiers);
      this.#buttons |= bit;
      try {
        await this.#send(session, this.#mouse({ event: 'mousePressed', x: startX, y: startY, button, clickCount: 1, buttons: this.#buttons, modifiers }));
        await sleep(body.delay ?? 0, signal);
        const segments = points.length - 1;
        for (let index = 1; index < points.length; index++) {
          const [x, y] = points[index] as [number, number];
          if (body.smooth === true) {
            await this.#glide(session, x, y, modifiers, body.duration_ms === undefined ? undefined : body.duration_ms / segments, signal);
            continue;
          }
          const steps = body.steps_per_segment ?? DRAG_STEPS;
          const fromX = this.#x;
          const fromY = this.#y;
          for (let step = 1; step <= steps; step++) {
            const t = step / steps;
            await this.#moveTo(session, Math.round((fromX + (x - fromX) * t) * 100) / 100, Math.round((fromY + (y - fromY) * t) * 100) / 100, modifiers);
            await sleep(body.step_delay_ms ?? 0, signal);
          }
        }
      } finally {
        this.#buttons &= ~bit;
        await this.#send(session, this.#mouse({ event: 'mouseReleased', x: this.#x, y: this.#y, button, clickCount: 1, buttons: this.#buttons, modifiers }));
      }
    });
  }

  async scroll(body: Scroll): Promise<void> {
    const session = await this.#page();
    await this.#holding(session, body.hold_keys, 'hold_keys', async (modifiers) => {
      await this.#moveTo(session, body.x, body.y, modifiers);
      let commands: InputCommand[];
      try {
        commands = inputCommands({ type: 'wheel', x: body.x, y: body.y, deltaX: (body.delta_x ?? 0) * WHEEL_UNIT_PX, deltaY: (body.delta_y ?? 0) * WHEEL_UNIT_PX, modifiers });
      } catch (error) {
        throw invalid(error);
      }
      await this.#send(session, commands);
    });
  }

  async typeText(body: TypeText, signal?: AbortSignal): Promise<void> {
    const session = await this.#page();
    const shift = keyOf('Shift') as KeyInfo;
    let first = true;
    for (const character of body.text) {
      if (!first) await sleep(body.delay ?? 0, signal);
      first = false;
      const typed = characterKey(character);
      if (typed === undefined) {
        // No key on a US keyboard types it (é, 漢, an emoji): it is inserted as an IME would.
        await session.send('Input.insertText', { text: character });
        continue;
      }
      const modifiers = typed.shift ? 8 : 0;
      if (typed.shift) await this.#send(session, this.#key('keyDown', shift, modifiers));
      await this.#send(session, [...this.#key('keyDown', typed.info, modifiers, typed.shift), ...this.#key('keyUp', typed.info, modifiers, typed.shift)]);
      if (typed.shift) await this.#send(session, this.#key('keyUp', shift, 0));
    }
  }

  async pressKey(body: PressKey, signal?: AbortSignal): Promise<void> {
    let combos: KeyInfo[][];
    try {
      combos = body.keys.map((combo, index) => parseCombo(combo, `keys[${index}]`));
    } catch (error) {
      throw invalid(error);
    }
    const session = await this.#page();
    await this.#holding(session, body.hold_keys, 'hold_keys', async (held) => {
      for (const combo of combos) {
        let modifiers = held;
        const down: KeyInfo[] = [];
        try {
          for (const info of combo) {
            modifiers |= info.modifier ?? 0;
            await this.#send(session, this.#key('keyDown', info, modifiers, (modifiers & 8) !== 0));
            down.push(info);
          }
          await this.#clipboardShortcut(session, combo, modifiers);
          await sleep(body.duration ?? 0, signal);
        } finally {
          for (const info of down.reverse()) {
            await this.#send(session, this.#key('keyUp', info, modifiers, (modifiers & 8) !== 0)).catch(() => undefined);
            modifiers &= ~(info.modifier ?? 0);
          }
        }
      }
    });
  }

  /** Ctrl+C / Ctrl+X copy the selection into the browser's clipboard, Ctrl+V types it (docs/computer.md#clipboard). */
  async #clipboardShortcut(session: CdpSession, combo: KeyInfo[], modifiers: number): Promise<void> {
    if ((modifiers & 2) === 0 || (modifiers & 5) !== 0) return;
    const last = combo[combo.length - 1];
    const letter = last?.code;
    if (letter === 'KeyV') {
      if (this.#clipboard !== '') await session.send('Input.insertText', { text: this.#clipboard });
      return;
    }
    if (letter !== 'KeyC' && letter !== 'KeyX') return;
    const { result } = await session.send('Runtime.evaluate', { expression: SELECTION_EXPRESSION, returnByValue: true });
    const selected = typeof result.value === 'string' ? result.value : '';
    if (selected === '') return;
    this.#clipboard = selected;
    if (letter === 'KeyX') {
      const del = keyOf('Delete') as KeyInfo;
      await this.#send(session, [...this.#key('keyDown', del, 0), ...this.#key('keyUp', del, 0)]);
    }
  }

  /** A PNG of the viewport (or of `region`, in viewport CSS pixels), the cursor drawn when it is shown. */
  async screenshot(region: Region | undefined): Promise<Buffer> {
    const session = await this.#page();
    const params: { format: 'png'; captureBeyondViewport: false; clip?: { x: number; y: number; width: number; height: number; scale: number } } = { format: 'png', captureBeyondViewport: false };
    if (region !== undefined) {
      if (region.width <= 0 || region.height <= 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'region.width and region.height must be at least 1');
      // A clip is in document coordinates: the region is the viewport's, so the scroll offset is added.
      const { cssVisualViewport } = await session.send('Page.getLayoutMetrics');
      params.clip = { x: region.x + cssVisualViewport.pageX, y: region.y + cssVisualViewport.pageY, width: region.width, height: region.height, scale: 1 };
    }
    const drawCursor = !this.#cursorHidden;
    if (drawCursor) await session.send('Runtime.evaluate', { expression: cursorExpression(this.#x, this.#y), returnByValue: true });
    try {
      const { data } = await session.send('Page.captureScreenshot', params);
      return Buffer.from(data, 'base64');
    } finally {
      if (drawCursor) await session.send('Runtime.evaluate', { expression: REMOVE_CURSOR_EXPRESSION }).catch(() => undefined);
    }
  }

  /** Runs a batch's actions in order (the caller holds the lock); the first failure names its action. */
  async batch(actions: BatchAction[], signal?: AbortSignal): Promise<void> {
    // One tab lookup (a Target.getTargets) for the whole batch, not one per action.
    this.#pinned = await this.#page();
    try {
      await this.#actions(actions, signal);
    } finally {
      this.#pinned = undefined;
    }
  }

  async #actions(actions: BatchAction[], signal?: AbortSignal): Promise<void> {
    for (const [index, action] of actions.entries()) {
      try {
        const body = action[action.type];
        if (body === undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${action.type} must be set for an action of type ${action.type}`);
        await this.#run(action, signal);
      } catch (error) {
        const failure = invalid(error);
        const code = failure instanceof ReplError ? failure.code : 'REPL_ERR_INTERNAL';
        const message = failure instanceof Error ? failure.message : String(failure);
        throw new ReplError(code, `actions[${index}] (${action.type}) failed, actions after it were not run: ${message.replace(/^(hold_keys|keys|path|text)/, `actions[${index}].${action.type}.$1`)}`, { cause: error });
      }
    }
  }

  async #run(action: BatchAction, signal?: AbortSignal): Promise<void> {
    switch (action.type) {
      case 'click_mouse': return this.clickMouse(action.click_mouse as ClickMouse);
      case 'move_mouse': return this.moveMouse(action.move_mouse as MoveMouse, signal);
      case 'type_text': return this.typeText(action.type_text as TypeText, signal);
      case 'press_key': return this.pressKey(action.press_key as PressKey, signal);
      case 'scroll': return this.scroll(action.scroll as Scroll);
      case 'drag_mouse': return this.dragMouse(action.drag_mouse as DragMouse, signal);
      case 'set_cursor': return this.setCursor((action.set_cursor as { hidden: boolean }).hidden);
      case 'sleep': return sleep((action.sleep as { duration_ms: number }).duration_ms, signal);
    }
  }

  protected async closeGracefully(): Promise<void> {
    await this.#lock;
    const session = this.#session;
    this.#session = undefined;
    if (session !== undefined && !session.closed) await session.detach().catch(() => undefined);
    await this.#link.close();
  }
}

/** The selected text: of the focused field when it has a selection, else of the document. */
const SELECTION_EXPRESSION = `(() => {
  const active = document.activeElement;
  if (active && (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)) {
    try { if (active.selectionStart !== null && active.selectionEnd !== null) return active.value.slice(active.selectionStart, active.selectionEnd); } catch {}
  }
  const selection = getSelection();
  return selection === null ? '' : String(selection);
})()`;

const CURSOR_ID = '__browser_repl_computer_cursor__';
/** An arrow (a clip-path polygon, no markup: Trusted Types pages allow it) drawn at the mouse, on top of everything. */
function cursorExpression(x: number, y: number): string {
  return `(() => {
  const arrow = document.createElement('div');
  arrow.id = ${JSON.stringify(CURSOR_ID)};
  const s = arrow.style;
  s.position = 'fixed'; s.left = '${x}px'; s.top = '${y}px'; s.width = '14px'; s.height = '22px'; s.zIndex = '2147483647';
  s.pointerEvents = 'none'; s.background = '#000'; s.outline = 'none'; s.margin = '0'; s.padding = '0';
  s.clipPath = 'polygon(0 0, 0 100%, 32% 74%, 52% 100%, 68% 92%, 50% 68%, 100% 68%)';
  (document.body ?? document.documentElement).appendChild(arrow);
  return true;
})()`;
}
const REMOVE_CURSOR_EXPRESSION = `document.getElementById(${JSON.stringify(CURSOR_ID)})?.remove()`;
