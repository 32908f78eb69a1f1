/**
 * Runs the agent tools' operations (`common/protocol/tool-messages.ts`) on the worker's page with
 * the REPL's own browser helpers: clicks, typing, uploads, waits, dialogs, tabs, downloads and
 * screenshots are exactly the helpers' (actionability checks, dialog guards, the download
 * folder), not a second copy. What is added here is only what the helpers do not know: refs
 * (`page-reader.ts`), acting inside cross-site frames (a click at the element's place in the
 * page, typing into the element focused in its frame), choosing `<select>` options, history back,
 * and the settle after each action (a load the action started, then `settleMs`).
 */
import { readFileSync, statSync } from 'node:fs';
import { ReplError } from '../../common/errors.js';
import { delay } from '../helpers/core/timing.js';
import { PageReader } from './page-reader.js';
import { FOCUS_AND_SELECT, SELECT_OPTIONS } from './page-script.js';

import type { PageRead, ToolOperation, ToolOutcome } from '../../common/protocol/tool-messages.js';
import type { BrowserHelper } from '../helpers/browser-helpers.js';
import type { HelperContext } from '../helpers/helper-context.js';
import type { ResolvedRef } from './page-reader.js';

type Helper = (...args: unknown[]) => Promise<unknown>;

/** How long an action's snapshot waits for a popup it opened to be listed, and how often it looks. */
const POPUP_WAIT_MS = 2_000;
const POPUP_POLL_MS = 50;
/** How long the document must stay unchanged, with no request in flight, for a settle to end early (about two frames). */
const QUIET_MS = 30;
const SETTLE_POLL_MS = 10;

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', message);
}

function ref(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw invalid(`ref must be a positive integer from the latest snapshot, got ${JSON.stringify(value)}`);
  return value as number;
}

function seconds(ms: unknown): number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms / 1000 : 30;
}

/** Width and height of a PNG or JPEG from its header (0×0 when it is neither). */
export function imageSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  let offset = 2;
  while (bytes[0] === 0xff && bytes[1] === 0xd8 && offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) break;
    const marker = bytes[offset + 1]!;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[offset + 5]! << 8) | bytes[offset + 6]!, width: (bytes[offset + 7]! << 8) | bytes[offset + 8]! };
    }
    offset += 2 + length;
  }
  return { width: 0, height: 0 };
}

export class ToolRunner {
  readonly #context: HelperContext;
  readonly #helpers: Record<string, Helper>;
  readonly #reader: PageReader;
  /** How many tabs the latest read saw: a popup an action opens is waited for until the list grows. */
  #knownTabs = 0;

  constructor(context: HelperContext, helpers: Record<string, BrowserHelper>) {
    this.#context = context;
    this.#helpers = helpers as unknown as Record<string, Helper>;
    this.#reader = new PageReader(context);
  }

  /** Runs one operation, then (with `read`) reads the page; the transfer list holds a screenshot's bytes. */
  async run(operation: ToolOperation, read: boolean): Promise<{ outcome: ToolOutcome; transfer: ArrayBuffer[] }> {
    const transfer: ArrayBuffer[] = [];
    // `window.open` or a target=_blank link: Chromium lists the new tab a moment after the input
    // that opened it, so the snapshot that follows would miss it without waiting for it.
    let popupRequested = false;
    const unsubscribe = this.#context.client.onPageEvent((event) => {
      if (event.method === 'Page.windowOpen') popupRequested = true;
    });
    let outcome: ToolOutcome;
    try {
      outcome = await this.#operate(operation, transfer);
    } finally {
      unsubscribe();
    }
    if (popupRequested && read) await this.#popupListed().catch(() => undefined);
    if (read && outcome.read === undefined) {
      try {
        outcome.read = await this.#read();
      } catch (error) {
        outcome.message += `; reading the page afterwards failed: ${(error as Error).message}`;
      }
    }
    return { outcome, transfer };
  }

  /** Waits (≤ 2 s) until the tab list is longer than at the latest read. */
  async #popupListed(): Promise<void> {
    const until = Date.now() + POPUP_WAIT_MS;
    while ((await this.#orderedTabs()).length <= this.#knownTabs && Date.now() < until) {
      if (!(await delay(POPUP_POLL_MS, this.#context.signal))) return;
    }
  }

  async #read(): Promise<PageRead> {
    return this.#reader.read(this.#tabs());
  }

  /**
   * The session's tabs in a stable order: its own tab first, then the others in the order they
   * opened (Chromium lists the newest first), so an index keeps meaning the same tab.
   */
  async #orderedTabs(): Promise<Array<{ targetId: string; title: string; url: string }>> {
    const listed = (await this.#helpers['listTabs']!(false) as Array<{ targetId: string; title: string; url: string }>).reverse();
    // Only the session's own tabs: other owners' tabs (and, for an isolated session, every tab of
    // another browser context) are none of its business, to list or to select.
    const foreign = await this.#context.client.foreignOwners();
    const tabs = listed.filter((tab) => !foreign.has(tab.targetId));
    const own = this.#context.client.ownTargetId;
    const index = tabs.findIndex((tab) => tab.targetId === own);
    if (index > 0) tabs.unshift(...tabs.splice(index, 1));
    return tabs;
  }

  async #tabs(): Promise<PageRead['tabs']> {
    const tabs = await this.#orderedTabs();
    this.#knownTabs = tabs.length;
    const active = this.#context.client.targetId;
    return tabs.map((tab) => ({ targetId: tab.targetId, title: tab.title, url: tab.url, active: tab.targetId === active }));
  }

  /**
   * After an action: the load it started (if any), then up to `settleMs` for client-side
   * rendering. The settle ends early once the page is quiet: no request of the page in flight and
   * no change to its document for {@link QUIET_MS}. A static page answers at once; a page that
   * fetches and renders is waited for, never longer than `settleMs`.
   */
  async #settle(timeoutMs: number, settleMs: number): Promise<string> {
    const { client } = this.#context;
    let note = '';
    if (client.pendingDialog === null && timeoutMs > 0) {
      const loaded = await this.#helpers['waitForLoad']!(seconds(timeoutMs));
      if (loaded === false) note = `; the page was still loading after ${Math.round(timeoutMs / 1000)} s`;
    }
    const until = Date.now() + settleMs;
    while (settleMs > 0 && client.pendingDialog === null) {
      const wait = await this.#reader.quietFor(Math.min(QUIET_MS, settleMs));
      const left = until - Date.now();
      if ((wait === 0 && client.inFlightRequests.size === 0) || left <= 0) break;
      if (!(await delay(Math.min(Math.max(wait, SETTLE_POLL_MS), left), this.#context.signal))) break;
    }
    return note;
  }

  async #operate(operation: ToolOperation, transfer: ArrayBuffer[]): Promise<ToolOutcome> {
    const helpers = this.#helpers;
    switch (operation.op) {
      case 'read':
        return { message: 'read the page', read: await this.#read() };
      case 'navigate': {
        const result = await helpers['gotoUrl']!(operation.url) as { errorText?: string };
        if (result.errorText !== undefined && result.errorText !== '') {
          throw new ReplError('REPL_ERR_ACTION_FAILED', `navigation to ${operation.url} failed: ${result.errorText}`);
        }
        return { message: `opened ${operation.url}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'back': {
        const { client } = this.#context;
        const sessionId = await client.ensureAttached(this.#context.callOptions());
        const history = await client.send('Page.getNavigationHistory', undefined, this.#context.callOptions({ sessionId }));
        const previous = history.entries[history.currentIndex - 1];
        if (previous === undefined) throw invalid('there is no previous page in this tab\'s history');
        await client.send('Page.navigateToHistoryEntry', { entryId: previous.id }, this.#context.callOptions({ sessionId }));
        return { message: `went back to ${previous.url}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'click': {
        const target = await this.#reader.resolve(ref(operation.ref));
        const options = { clickCount: operation.doubleClick ? 2 : 1, timeoutSec: seconds(operation.timeoutMs) };
        if (target.kind === 'page') await helpers['click']!({ backendNodeId: target.backendNodeId }, options);
        else await helpers['click']!(await this.#reader.pointInFrame(target), { clickCount: options.clickCount });
        return { message: `clicked ${describe(operation.ref, target)}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'type': {
        const target = await this.#reader.resolve(ref(operation.ref));
        if (typeof operation.text !== 'string') throw invalid('text must be a string');
        if (target.kind === 'page') {
          // One insertion, as Playwright's fill: a model's text is often long, and per-key events cost a round trip each.
          await helpers['fillInput']!({ backendNodeId: target.backendNodeId }, operation.text, { timeoutSec: seconds(operation.timeoutMs), insert: true });
        } else {
          await this.#typeInFrame(target, operation.text);
        }
        if (operation.submit) await helpers['pressKey']!('Enter');
        // Only Enter may start a load here; typing alone is left to settle.
        return { message: `typed into ${describe(operation.ref, target)}${operation.submit ? ' and pressed Enter' : ''}${await this.#settle(operation.submit ? operation.timeoutMs : 0, operation.settleMs)}` };
      }
      case 'select': {
        const target = await this.#reader.resolve(ref(operation.ref));
        if (!Array.isArray(operation.values) || operation.values.some((value) => typeof value !== 'string')) throw invalid('values must be an array of strings');
        const chosen = await this.#callOn(target, SELECT_OPTIONS, [operation.values]);
        if (typeof chosen === 'string') throw new ReplError('REPL_ERR_ACTION_FAILED', `select_option on ${describe(operation.ref, target)}: ${chosen}`);
        return { message: `selected ${(chosen as string[]).map((text) => JSON.stringify(text)).join(', ')} in ${describe(operation.ref, target)}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'upload': {
        const target = await this.#reader.resolve(ref(operation.ref));
        if (target.kind === 'page') await helpers['uploadFile']!({ backendNodeId: target.backendNodeId }, operation.paths, { timeoutSec: seconds(operation.timeoutMs) });
        else await target.session.send('DOM.setFileInputFiles', { files: operation.paths, objectId: target.objectId }, this.#context.callOptions());
        return { message: `set ${operation.paths.length} file(s) on ${describe(operation.ref, target)}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'scroll': {
        let what = 'the page';
        if (operation.ref !== undefined) {
          const target = await this.#reader.resolve(ref(operation.ref));
          await this.#callOn(target, 'function () { this.scrollIntoView({ block: "center", behavior: "instant" }); }', []);
          what = describe(operation.ref, target);
        }
        if (operation.pixels !== 0) {
          const { client } = this.#context;
          const sessionId = await client.ensureAttached(this.#context.callOptions());
          const metrics = await client.send('Page.getLayoutMetrics', undefined, this.#context.callOptions({ sessionId }));
          const { clientWidth, clientHeight } = metrics.cssLayoutViewport;
          await helpers['scroll']!(Math.floor(clientWidth / 2), Math.floor(clientHeight / 2), operation.pixels, 0);
        }
        await this.#settle(0, operation.settleMs);
        return { message: operation.ref === undefined ? `scrolled ${operation.pixels} px` : `scrolled ${what} into view${operation.pixels === 0 ? '' : ` and by ${operation.pixels} px`}` };
      }
      case 'press': {
        // "Control+A", "Shift+Tab" as Playwright writes combinations; a lone "+" is the key itself.
        const parts = operation.key.length > 1 ? operation.key.split(/\+(?=.)/) : [operation.key];
        const key = parts.pop()!;
        await helpers['pressKey']!(key, parts.length === 0 ? undefined : parts);
        return { message: `pressed ${operation.key}${await this.#settle(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'wait': {
        const target = operation.text !== undefined ? { text: operation.text } : operation.selector;
        if (target === undefined) throw invalid('wait needs text or selector');
        const found = await helpers['waitForElement']!(target, { timeoutSec: seconds(operation.timeoutMs) });
        const what = operation.text !== undefined ? `text ${JSON.stringify(operation.text)}` : `selector ${JSON.stringify(operation.selector)}`;
        if (found !== true) throw new ReplError('REPL_ERR_ACTION_FAILED', `${what} did not appear within ${Math.round(operation.timeoutMs / 1000)} s`);
        await this.#settle(0, operation.settleMs);
        return { message: `${what} is visible` };
      }
      case 'dialog': {
        await helpers['handleDialog']!(operation.promptText === undefined ? { accept: operation.accept } : { accept: operation.accept, promptText: operation.promptText });
        await this.#settle(0, operation.settleMs);
        return { message: operation.accept ? 'accepted the dialog' : 'dismissed the dialog' };
      }
      case 'select-tab':
      case 'close-tab': {
        const tabs = await this.#orderedTabs();
        const tab = tabs[operation.index];
        if (tab === undefined) throw invalid(`no tab ${operation.index}; this session has ${tabs.length} (0..${tabs.length - 1})`);
        if (operation.op === 'select-tab') {
          await helpers['switchTab']!(tab);
          await this.#settle(0, operation.settleMs);
          return { message: `selected tab ${operation.index} (${tab.url})` };
        }
        if (tabs.length === 1) throw invalid('this is the session\'s only tab; close the session instead (browser_close)');
        const active = this.#context.client.targetId === tab.targetId;
        await helpers['closeTab']!(tab);
        if (active) {
          const remaining = await this.#orderedTabs();
          if (remaining[0] !== undefined) await helpers['switchTab']!(remaining[0]);
        }
        return { message: `closed tab ${operation.index} (${tab.url})` };
      }
      case 'screenshot': {
        const options: Record<string, unknown> = { path: operation.path, format: operation.format, fullPage: operation.fullPage };
        if (operation.quality !== undefined) options['quality'] = operation.quality;
        const path = await helpers['captureScreenshot']!(options) as string;
        const bytes = readFileSync(path);
        const size = imageSize(bytes);
        const screenshot: NonNullable<ToolOutcome['screenshot']> = { path, bytes: statSync(path).size, ...size };
        if (operation.includeImage) {
          const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          screenshot.data = data;
          transfer.push(data);
        }
        return { message: `saved a screenshot to ${path}`, screenshot };
      }
      case 'downloads': {
        const downloads = await helpers['listDownloads']!() as NonNullable<ToolOutcome['downloads']>;
        return { message: `${downloads.length} download(s)`, downloads };
      }
      default:
        throw invalid(`unknown tool operation ${JSON.stringify((operation as { op: unknown }).op)}`);
    }
  }

  /** Calls `source` (a `function () {…}`) with the element as `this`; resolves its value. */
  async #callOn(target: ResolvedRef, source: string, args: unknown[]): Promise<unknown> {
    const options = this.#context.callOptions();
    const call = { functionDeclaration: source, arguments: args.map((value) => ({ value })), returnByValue: true };
    if (target.kind === 'frame') {
      const response = await target.session.send('Runtime.callFunctionOn', { ...call, objectId: target.objectId }, options);
      return response.result.value;
    }
    const { client } = this.#context;
    const sessionId = await client.ensureAttached(options);
    const { object } = await client.send('DOM.resolveNode', { backendNodeId: target.backendNodeId }, { ...options, sessionId });
    try {
      const response = await client.send('Runtime.callFunctionOn', { ...call, objectId: object.objectId! }, { ...options, sessionId });
      if (response.exceptionDetails !== undefined) throw new ReplError('REPL_ERR_PAGE_EVALUATION', response.exceptionDetails.exception?.description ?? response.exceptionDetails.text);
      return response.result.value;
    } finally {
      await client.send('Runtime.releaseObject', { objectId: object.objectId! }, { ...options, sessionId }).catch(() => undefined);
    }
  }

  /**
   * Typing into an element of a cross-site frame: it is focused and its content selected in its
   * frame, then the text is typed as keyboard input (Chromium routes it to the focused frame).
   */
  async #typeInFrame(target: Extract<ResolvedRef, { kind: 'frame' }>, text: string): Promise<void> {
    const focused = await target.session.send('Runtime.callFunctionOn', { objectId: target.objectId, functionDeclaration: FOCUS_AND_SELECT, returnByValue: true }, this.#context.callOptions());
    if (focused.result.value !== true) throw new ReplError('REPL_ERR_ACTION_FAILED', `${target.location.tag} "${target.location.label}" could not be focused`);
    if (text === '') await this.#helpers['pressKey']!('Delete');
    else await this.#helpers['typeText']!(text);
  }
}

function describe(ref: number, target: ResolvedRef): string {
  const { tag, label } = target.location;
  return `${ref} (${tag}${label === '' ? '' : ` "${label.length > 60 ? `${label.slice(0, 59)}…` : label}"`})`;
}
