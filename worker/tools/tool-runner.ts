/**
 * Runs the agent tools' operations (`common/protocol/tool-messages.ts`) on the worker's page with
 * the REPL's own browser helpers: clicks, typing, uploads, waits, dialogs, tabs, downloads and
 * screenshots are exactly the helpers' (actionability checks, proof that a click reached its
 * target, dialog guards, the download folder), not a second copy. What is added here is only what
 * the helpers do not know: refs (`page-reader.ts`), acting inside cross-site frames (the checks in
 * the element's frame, the input through the page), choosing `<select>` options, history back, the
 * settle after each action (a load the action started, then `settleMs`), what an action set off
 * (a tab it opened becomes the active one, a download, a dialog), the session's tabs in the order
 * they opened, and what covered a target (the controls that dismiss it, for the tools' message).
 */
import { readFileSync, statSync } from 'node:fs';
import { ReplError } from '../../common/errors.js';
import { isInternalUrl } from '../cdp/page-attachment.js';
import { dialogError } from '../helpers/core/page-guard.js';
import { delay } from '../helpers/core/timing.js';
import { clickElement } from '../helpers/interaction/click.js';
import { describeForTrace, describeTextForTrace } from '../helpers/interaction/describe-target.js';
import { fillElement } from '../helpers/interaction/fill-input.js';
import { TargetProbe } from '../helpers/interaction/resolve-target.js';
import { PageReader } from './page-reader.js';
import { SELECT_OPTIONS } from './page-script.js';

import { elementKind } from '../../common/protocol/tool-messages.js';

import type { ActionStart } from '../../common/trace/trace-recorder.js';
import type { ActionEffects, PageRead, StartedDownload, ToolOperation, ToolOutcome } from '../../common/protocol/tool-messages.js';
import type { SavedDownload } from '../helpers/core/downloads.js';
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

/** How long an action's answer waits for a download it started to finish (longer ones are reported in progress). */
const DOWNLOAD_WAIT_MS = 2_000;
/** How long after a click on a link that neither navigated nor downloaded yet a download is waited for. */
const LINK_DOWNLOAD_GRACE_MS = 500;
const DOWNLOAD_POLL_MS = 50;
/** How often a wait for text reads the page's frames again. */
const TEXT_POLL_MS = 100;
/** How long the downloads listing waits for downloads still running. */
const DOWNLOADS_LISTING_WAIT_MS = 2_000;

/** What happened on the page while an operation ran, as its events showed (see {@link ToolRunner.run}). */
interface EffectWatch {
  popupRequested: boolean;
  /** The page committed a document, or navigated within it. */
  navigated: boolean;
  /** The operation clicked a link: it may start a download a moment after the click. */
  linkClicked: boolean;
  downloads: Array<{ guid: string; suggestedFilename: string; url: string }>;
  tabsBefore: Set<string>;
  dialogBefore: boolean;
  stop(): void;
}

/** The operations a dialog that holds the page refuses at once (the others answer it, list, read or leave the page). */
const ACTS_ON_PAGE = new Set<ToolOperation['op']>(['click', 'type', 'select', 'upload', 'scroll', 'press', 'wait']);
/** The operations that act on no element, which go on in a remaining tab when theirs closed itself ({@link ToolRunner.run}). */
const RETRY_ON_REMAINING_TAB = new Set<ToolOperation['op']>(['read', 'wait', 'screenshot', 'downloads', 'select-tab', 'close-tab', 'navigate']);
/** The operations after which a tab they opened becomes the active one (a person's browser does the same). */
const FOLLOWS_POPUPS = new Set<ToolOperation['op']>(['click', 'press', 'type', 'select', 'dialog']);

export class ToolRunner {
  readonly #context: HelperContext;
  readonly #helpers: Record<string, Helper>;
  readonly #reader: PageReader;
  /** How many tabs the latest listing saw: a popup an action opens is waited for until the list grows. */
  #knownTabs = 0;
  /** The session's tabs in the order they opened (its own first): an index keeps naming the same tab. */
  #tabOrder: string[] = [];
  /** What the running operation set off so far ({@link run}). */
  #watch: EffectWatch | undefined;

  constructor(context: HelperContext, helpers: Record<string, BrowserHelper>) {
    this.#context = context;
    this.#helpers = helpers as unknown as Record<string, Helper>;
    this.#reader = new PageReader(context);
  }

  /**
   * Runs one operation, then (with `read`) reads the page; the transfer list holds a screenshot's
   * bytes. The outcome says what the operation set off besides its own effect (`effects`): a tab
   * it opened (which becomes the active one), a download it started (waited for briefly), a
   * dialog it opened. A failure carries what the main thread needs to word it for the tools
   * (`data.cover`: what covered the target and the refs of the cover's controls).
   */
  async run(operation: ToolOperation, read: boolean): Promise<{ outcome: ToolOutcome; transfer: ArrayBuffer[] }> {
    const transfer: ArrayBuffer[] = [];
    const watch = this.#watchEffects();
    let outcome: ToolOutcome;
    let effects: ActionEffects;
    // The whole operation, what it set off included (a popup it switched to), is one action of the
    // trace (docs/trace.md); the helpers it runs record nothing of their own.
    const act = async (): Promise<{ outcome: ToolOutcome; effects: ActionEffects }> => {
      let done: ToolOutcome;
      try {
        done = await this.#operate(operation, transfer);
      } catch (error) {
        throw await this.#withCover(operation, error);
      }
      // Still watching: what the operation set off may show a moment after it (a download).
      return { outcome: done, effects: await this.#effectsOf(operation, watch) };
    };
    const attempt = (): Promise<{ outcome: ToolOutcome; effects: ActionEffects }> => {
      const start = traceStart(operation);
      return start === undefined ? this.#context.trace.quietly(act) : this.#context.trace.run(start, act);
    };
    try {
      try {
        ({ outcome, effects } = await attempt());
      } catch (error) {
        // The tab the session was on closed itself since the last call (a popup that closes a
        // moment after its Save): an operation that acts on no element goes on in the session's
        // first remaining tab, as a browser shows the opener again.
        if (!RETRY_ON_REMAINING_TAB.has(operation.op) || !(await this.#leftClosedTab(error))) throw error;
        ({ outcome, effects } = await attempt());
      }
    } finally {
      watch.stop();
      this.#watch = undefined;
    }
    if (read && outcome.read === undefined) {
      try {
        outcome.read = await this.#read();
      } catch (error) {
        outcome.message += `; reading the page afterwards failed: ${(error as Error).message}`;
      }
    }
    if (effects.popups !== undefined && outcome.read !== undefined) {
      // Titles and URLs as the read saw them, once the popups loaded.
      const tabs = outcome.read.tabs;
      for (const popup of effects.popups) {
        const tab = tabs[popup.index];
        if (tab !== undefined) Object.assign(popup, { title: tab.title, url: tab.url });
      }
    }
    if (Object.keys(effects).length > 0) outcome.effects = effects;
    return { outcome, transfer };
  }

  /** Starts watching the attached page for what an operation sets off: popups, downloads. */
  #watchEffects(): EffectWatch {
    const { client } = this.#context;
    const watch: EffectWatch = {
      popupRequested: false, navigated: false, linkClicked: false, downloads: [], tabsBefore: new Set(this.#tabOrder), dialogBefore: client.pendingDialog !== null, stop: () => undefined,
    };
    // `window.open` or a target=_blank link: Chromium lists the new tab a moment after the input
    // that opened it, so the snapshot that follows would miss it without waiting for it.
    watch.stop = client.onPageEvent((event) => {
      if (event.method === 'Page.windowOpen') watch.popupRequested = true;
      // A commit, not a start: a link that downloads starts loading too, and never commits.
      else if (event.method === 'Page.frameNavigated' || event.method === 'Page.navigatedWithinDocument') watch.navigated = true;
      else if (event.method === 'Page.downloadWillBegin') {
        const { guid, suggestedFilename, url } = event.params as { guid: string; suggestedFilename: string; url: string };
        watch.downloads.push({ guid, suggestedFilename, url });
      }
    });
    this.#watch = watch;
    return watch;
  }

  /** What the operation set off (see {@link run}); a tab it opened is made the active one. */
  async #effectsOf(operation: ToolOperation, watch: EffectWatch): Promise<ActionEffects> {
    const { client } = this.#context;
    const effects: ActionEffects = {};
    const dialog = client.pendingDialog;
    if (dialog !== null && !watch.dialogBefore) effects.dialog = { type: dialog.type, message: dialog.message };
    if (watch.popupRequested && dialog === null) {
      await this.#popupListed().catch(() => undefined);
      const tabs = await this.#orderedTabs().catch(() => []);
      const opened = tabs.map((tab, index) => ({ tab, index })).filter(({ tab }) => !watch.tabsBefore.has(tab.targetId));
      if (opened.length > 0) {
        effects.popups = opened.map(({ tab, index }) => ({ index, title: tab.title, url: tab.url }));
        if (FOLLOWS_POPUPS.has(operation.op)) {
          await this.#helpers['switchTab']!(opened[0]!.tab);
          await this.#settle('timeoutMs' in operation ? operation.timeoutMs : 0, 'settleMs' in operation ? operation.settleMs : 0);
        }
      }
    }
    // A link that downloads (`download`, or an attachment answer) starts the download a moment
    // after the click: the click is not answered before that moment has passed.
    if (watch.linkClicked && !watch.navigated && watch.downloads.length === 0 && !watch.popupRequested && dialog === null) {
      const until = Date.now() + LINK_DOWNLOAD_GRACE_MS;
      while (watch.downloads.length === 0 && !watch.navigated && Date.now() < until) {
        if (!(await delay(DOWNLOAD_POLL_MS, this.#context.signal))) break;
      }
    }
    if (watch.downloads.length > 0) effects.downloads = await this.#downloadsOf(watch.downloads, DOWNLOAD_WAIT_MS);
    return effects;
  }

  /**
   * The downloads an operation started, each waited for up to `waitMs` (together): saved (path
   * and size, as the download folder lists it), canceled, or still in progress.
   */
  async #downloadsOf(started: ReadonlyArray<{ guid: string; suggestedFilename: string; url: string }>, waitMs: number): Promise<StartedDownload[]> {
    const { client } = this.#context;
    const until = Date.now() + waitMs;
    for (;;) {
      const states = started.map((download) => client.pageDownloads.get(download.guid)?.state ?? 'inProgress');
      const saved = states.includes('completed') ? await this.#helpers['listDownloads']!() as SavedDownload[] : [];
      const result: StartedDownload[] = started.map((download, index) => {
        const state = states[index];
        if (state === 'canceled') return { suggestedFilename: download.suggestedFilename, url: download.url, state: 'canceled' };
        // The download watcher saves a finished file a moment after Chromium reports it.
        const file = state === 'completed' ? saved.filter((entry) => entry.url === download.url).at(-1) : undefined;
        if (file === undefined) return { suggestedFilename: download.suggestedFilename, url: download.url, state: 'in progress' };
        return { suggestedFilename: download.suggestedFilename, url: download.url, state: 'completed', path: file.path, bytes: file.bytes };
      });
      if (result.every((download) => download.state !== 'in progress') || Date.now() >= until) return result;
      if (!(await delay(DOWNLOAD_POLL_MS, this.#context.signal))) return result;
    }
  }

  /** Waits (≤ 2 s) until the tab list is longer than at the latest listing. */
  async #popupListed(): Promise<void> {
    const known = this.#knownTabs;
    const until = Date.now() + POPUP_WAIT_MS;
    while ((await this.#orderedTabs()).length <= known && Date.now() < until) {
      if (!(await delay(POPUP_POLL_MS, this.#context.signal))) return;
    }
  }

  async #read(): Promise<PageRead> {
    return this.#reader.read(this.#tabs());
  }

  /**
   * The session's tabs in the order they opened, its own first, so an index keeps naming the
   * same tab however Chromium orders its list (it lists the most recent first, and a tab that is
   * activated moves). Internal pages (`about:blank` while a popup starts) are left out, except the
   * session's own tab.
   */
  async #orderedTabs(): Promise<Array<{ targetId: string; title: string; url: string }>> {
    const { client } = this.#context;
    const own = client.ownTargetId;
    const listed = await this.#helpers['listTabs']!(true) as Array<{ targetId: string; title: string; url: string }>;
    // Only the session's own tabs: other owners' tabs (and, for an isolated session, every tab of
    // another browser context) are none of its business, to list or to select.
    const foreign = await client.foreignOwners();
    const tabs = new Map(listed.filter((tab) => !foreign.has(tab.targetId) && (tab.targetId === own || !isInternalUrl(tab.url))).map((tab) => [tab.targetId, tab]));
    const order = this.#tabOrder.filter((targetId) => tabs.has(targetId));
    if (own !== undefined && tabs.has(own) && !order.includes(own)) order.unshift(own);
    // Chromium lists the newest first: new tabs join in the order they opened.
    for (const tab of [...tabs.values()].reverse()) if (!order.includes(tab.targetId)) order.push(tab.targetId);
    this.#tabOrder = order;
    this.#knownTabs = order.length;
    return order.map((targetId) => tabs.get(targetId)!);
  }

  async #tabs(): Promise<PageRead['tabs']> {
    const tabs = await this.#orderedTabs();
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
    const started = Date.now();
    const until = started + settleMs;
    while (settleMs > 0 && client.pendingDialog === null) {
      const wait = await this.#reader.quietFor(Math.min(QUIET_MS, settleMs));
      const left = until - Date.now();
      // Quiet counts from the action too: a page resuming after a dialog answer acts a moment later.
      const quiet = wait === 0 && client.inFlightRequests.size === 0 && Date.now() - started >= Math.min(QUIET_MS, settleMs);
      if (quiet || left <= 0) break;
      if (!(await delay(Math.min(Math.max(wait, SETTLE_POLL_MS), left), this.#context.signal))) break;
    }
    return note;
  }

  /**
   * After `error`: when it says the attached tab is gone and the tab list agrees, switches to the
   * session's first remaining tab and answers true.
   */
  async #leftClosedTab(error: unknown): Promise<boolean> {
    const acted = this.#context.client.targetId;
    if ((error as { code?: unknown } | null)?.code !== 'REPL_ERR_TARGET_NOT_FOUND') return false;
    const next = await this.#onRemainingTab(acted).catch(() => 'open' as const);
    return next !== 'open' && next !== undefined;
  }

  /**
   * 'open' while the tab `acted` is still listed; otherwise switches to the session's first
   * remaining tab and answers it (undefined when none is left).
   */
  async #onRemainingTab(acted: string | undefined): Promise<{ url: string } | undefined | 'open'> {
    const tabs = await this.#orderedTabs();
    if (acted !== undefined && tabs.some((tab) => tab.targetId === acted)) return 'open';
    if (tabs[0] !== undefined) await this.#helpers['switchTab']!(tabs[0]);
    return tabs[0];
  }

  /**
   * The settle after an action that may close its own tab (a popup's "Save" that calls
   * `window.close()`): a tab that closed is no failure of the action. The session goes on in its
   * first remaining tab, as after closing a tab.
   */
  async #settleOrClosed(timeoutMs: number, settleMs: number): Promise<string> {
    const { client } = this.#context;
    const acted = client.targetId;
    try {
      return await this.#settle(timeoutMs, settleMs);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'REPL_ERR_TARGET_NOT_FOUND' || acted === undefined) throw error;
      const next = await this.#onRemainingTab(acted);
      if (next === 'open') throw error;
      return `; its tab closed${next === undefined ? '' : `, back on ${next.url}`}`;
    }
  }

  /**
   * A failure of an action on a covered element gains `data.cover`: what covers it now and the
   * refs of the controls that dismiss it, so the tools can say which one to click.
   */
  async #withCover(operation: ToolOperation, error: unknown): Promise<unknown> {
    const data = (error as { data?: Record<string, unknown> } | null)?.data;
    const status = typeof data?.['status'] === 'string' ? data['status'] : '';
    if (!(error instanceof ReplError) || !status.startsWith('intercepted by') || !('ref' in operation) || operation.ref === undefined) return error;
    const cover = await this.#reader.coverOf(operation.ref).catch(() => null);
    if (cover === null) return error;
    return new ReplError(error.code, error.message, { cause: error.cause, data: { ...data, cover } });
  }

  async #operate(operation: ToolOperation, transfer: ArrayBuffer[]): Promise<ToolOutcome> {
    const helpers = this.#helpers;
    // A dialog freezes the page's scripts: resolving a ref would wait for an answer that never comes.
    const dialog = this.#context.client.pendingDialog;
    if (dialog !== null && ACTS_ON_PAGE.has(operation.op)) throw dialogError(operation.op, dialog);
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
        if (target.location.tag === 'a' && this.#watch !== undefined) this.#watch.linkClicked = true;
        const request = {
          button: 'left' as const, clickCount: operation.doubleClick ? 2 : 1, modifiers: 0, timeoutSec: seconds(operation.timeoutMs),
          force: false, trial: false, position: undefined, coveredTimeoutSec: operation.coveredMs / 1000,
        };
        const sessionId = await this.#context.client.ensureAttached(this.#context.callOptions());
        if (target.kind === 'page') {
          await clickElement(this.#context, { helper: 'click', sessionId, inputSessionId: sessionId, target: { kind: 'node', backendNodeId: target.backendNodeId }, given: undefined, request });
        } else {
          // The element's frame is another process: probe and receipt there, input through the page.
          const { node } = await target.session.send('DOM.describeNode', { objectId: target.objectId }, this.#context.callOptions());
          await this.#reader.revealFrame(target);
          await clickElement(this.#context, {
            helper: 'click', sessionId: target.session.sessionId, inputSessionId: sessionId, target: { kind: 'node', backendNodeId: node.backendNodeId }, given: undefined, request,
            toPage: (point) => this.#reader.frameToPage(target, point),
          });
        }
        return { message: `clicked ${describe(operation.ref, target)}${await this.#settleOrClosed(operation.timeoutMs, operation.settleMs)}` };
      }
      case 'type': {
        const target = await this.#reader.resolve(ref(operation.ref));
        if (typeof operation.text !== 'string') throw invalid('text must be a string');
        if (target.kind === 'page') {
          // One insertion, as Playwright's fill: a model's text is often long, and per-key events cost a round trip each.
          await helpers['fillInput']!({ backendNodeId: target.backendNodeId }, operation.text, {
            timeoutSec: seconds(operation.timeoutMs), insert: true, coveredTimeoutSec: operation.coveredMs / 1000,
          });
        } else {
          // The field's frame is another process: the checks there, the keys through the page.
          const { node } = await target.session.send('DOM.describeNode', { objectId: target.objectId }, this.#context.callOptions());
          await this.#reader.revealFrame(target);
          await fillElement(this.#context, {
            sessionId: target.session.sessionId,
            inputSessionId: await this.#context.client.ensureAttached(this.#context.callOptions()),
            request: { target: { kind: 'node', backendNodeId: node.backendNodeId }, text: operation.text, clearFirst: true, timeoutSec: seconds(operation.timeoutMs), insert: true, coveredTimeoutSec: operation.coveredMs / 1000 },
            given: undefined,
          });
        }
        if (operation.submit) await helpers['pressKey']!('Enter');
        // Only Enter may start a load here; typing alone is left to settle.
        return { message: `typed into ${describe(operation.ref, target)}${operation.submit ? ' and pressed Enter' : ''}${await this.#settle(operation.submit ? operation.timeoutMs : 0, operation.settleMs)}` };
      }
      case 'select': {
        const target = await this.#reader.resolve(ref(operation.ref));
        if (!Array.isArray(operation.values) || operation.values.some((value) => typeof value !== 'string')) throw invalid('values must be an array of strings');
        if (target.kind === 'page' && this.#context.trace.wantsTarget) {
          // The trace's description of the select (docs/trace.md); clicks, fills and uploads describe theirs.
          const probe = new TargetProbe(this.#context, await this.#context.client.ensureAttached(this.#context.callOptions()), { kind: 'node', backendNodeId: target.backendNodeId }, 'select', undefined);
          try {
            await describeForTrace(this.#context, probe);
          } finally {
            probe.release();
          }
        }
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
        if (operation.text === undefined && operation.selector === undefined) throw invalid('wait needs text or selector');
        // Text is looked for as a snapshot reads it: every frame (cross-site ones too), open shadow roots included.
        const found = operation.text !== undefined
          ? await this.#waitForText(operation.text, operation.timeoutMs)
          : await helpers['waitForElement']!(operation.selector, { timeoutSec: seconds(operation.timeoutMs) });
        const what = operation.text !== undefined ? `text ${JSON.stringify(operation.text)}` : `selector ${JSON.stringify(operation.selector)}`;
        if (found !== true) throw new ReplError('REPL_ERR_ACTION_FAILED', `${what} did not appear within ${Math.round(operation.timeoutMs / 1000)} s`);
        // The trace's record of where the text showed (docs/trace.md): an iframe's text is asserted in it.
        if (operation.text !== undefined) await describeTextForTrace(this.#context, operation.text);
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
        this.#context.trace.addArgs({ tab: tab.targetId });
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
        // One started a moment ago (the click before) is waited for briefly, then listed as running.
        const running = [...this.#context.client.pageDownloads.values()].filter((download) => download.state === 'inProgress');
        const pending = running.length === 0 ? [] : (await this.#downloadsOf(running, DOWNLOADS_LISTING_WAIT_MS)).filter((download) => download.state === 'in progress');
        const downloads = await helpers['listDownloads']!() as NonNullable<ToolOutcome['downloads']>;
        const outcome: ToolOutcome = { message: `${downloads.length} download(s)`, downloads };
        if (pending.length > 0) outcome.pendingDownloads = pending;
        return outcome;
      }
      default:
        throw invalid(`unknown tool operation ${JSON.stringify((operation as { op: unknown }).op)}`);
    }
  }

  /** Polls every frame's visible text for `text` (case-insensitive) until it shows or `timeoutMs` passed; a dialog ends the wait. */
  async #waitForText(text: string, timeoutMs: number): Promise<boolean> {
    const { client } = this.#context;
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (client.pendingDialog !== null) return false;
      if (await this.#reader.showsText(text)) return true;
      if (Date.now() >= until) return false;
      if (!(await delay(Math.min(TEXT_POLL_MS, Math.max(0, until - Date.now())), this.#context.signal))) return false;
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
}

/** What the trace records of a tool operation (docs/trace.md); undefined for those that only read. */
function traceStart(operation: ToolOperation): ActionStart | undefined {
  const { op } = operation;
  const asked = (fields: Record<string, unknown>): string => `${op} ${JSON.stringify(fields)}`;
  switch (operation.op) {
    case 'navigate': return { source: 'tool', action: 'goto', asked: asked({ url: operation.url }), args: { url: operation.url } };
    case 'back': return { source: 'tool', action: 'back', asked: op };
    case 'click': return { source: 'tool', action: 'click', asked: asked({ ref: operation.ref, doubleClick: operation.doubleClick }), args: { ref: operation.ref, clickCount: operation.doubleClick ? 2 : 1 } };
    case 'type': return { source: 'tool', action: 'fill', asked: asked({ ref: operation.ref, submit: operation.submit }), args: { ref: operation.ref, submit: operation.submit }, text: operation.text };
    case 'select': return { source: 'tool', action: 'select', asked: asked({ ref: operation.ref, values: operation.values }), args: { ref: operation.ref, values: operation.values } };
    case 'upload': return { source: 'tool', action: 'upload', asked: asked({ ref: operation.ref, paths: operation.paths }), args: { ref: operation.ref, paths: operation.paths } };
    case 'press': return { source: 'tool', action: 'press', asked: asked({ key: operation.key }), args: { key: operation.key } };
    case 'wait':
      if (operation.text !== undefined) return { source: 'tool', action: 'waitForText', asked: asked({ text: operation.text }), args: { text: operation.text } };
      return { source: 'tool', action: 'waitForElement', asked: asked({ selector: operation.selector }), args: { target: operation.selector } };
    case 'dialog': return { source: 'tool', action: 'dialog', asked: asked({ accept: operation.accept }), args: { accept: operation.accept, promptText: operation.promptText } };
    case 'select-tab': return { source: 'tool', action: 'switchTab', asked: asked({ index: operation.index }), args: { index: operation.index } };
    case 'close-tab': return { source: 'tool', action: 'closeTab', asked: asked({ index: operation.index }), args: { index: operation.index } };
    default: return undefined;
  }
}

/** `[12] button "Save"`, as the snapshot line of the element starts. */
function describe(ref: number, target: ResolvedRef): string {
  const { label } = target.location;
  return `[${ref}] ${elementKind(target.location)}${label === '' ? '' : ` ${JSON.stringify(label.length > 60 ? `${label.slice(0, 59)}…` : label)}`}`;
}
