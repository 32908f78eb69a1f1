/**
 * Which page the REPL's client is attached to, and how it gets there. At most one page session
 * (a {@link CdpSession}) is attached at a time; attaching another detaches the previous one.
 *
 * Automatic attach (the first command that needs a page) picks:
 * - with an own tab (`ownTab`, "a tab per REPL"): that target, and when it no longer exists a
 *   replacement asked for once (`ownTab({ gone })`);
 * - otherwise the previously attached target if it still exists (after a dropped socket, not a
 *   restart, the same tab comes back), else the first page with a non-internal URL, else any
 *   page, else a new `about:blank` tab.
 *
 * Every attach brings the target to the foreground, enables Page/DOM/Runtime/Network (5 s each;
 * a timeout marks the renderer unresponsive, and the enables are re-run in the background before
 * later commands), and dismisses a dialog left open before attach, with a note on stderr.
 */
import { ReplError } from '../../common/errors.js';
import { CONNECTION_CLOSED_MESSAGE, RENDERER_HINT, errorCode } from '../../common/cdp/cdp-errors.js';

import type { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpConnection } from '../../common/cdp/cdp-connection.js';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import type { Deadline } from '../../common/cdp/deadline.js';
import type { PageState } from './page-state.js';

/** Domains enabled on every attach; their events feed dialogs, network tracking and waiters. */
const ATTACH_DOMAINS = ['Page.enable', 'DOM.enable', 'Runtime.enable', 'Network.enable'] as const;
/** Per-enable timeout on attach (docs/architecture.md, "Limits of the CDP layer"). */
export const ENABLE_TIMEOUT_MS = 5_000;
/** Time allowed to dismiss a dialog left open before attach. */
export const STALE_DIALOG_TIMEOUT_MS = 5_000;
const NO_TARGET_PATTERN = /No target with given id/i;

/**
 * URL prefixes of browser-internal pages. Automatic attach skips these in favour of a page with
 * real content. `about:` is included (so `about:blank` is internal), as in the newest reference
 * client (the list is in docs/repl.md, `browser.listTabs`).
 */
export const INTERNAL_URL_PREFIXES: readonly string[] = [
  'chrome://',
  'chrome-extension://',
  'chrome-untrusted://',
  'devtools://',
  'edge://',
  'about:',
];

/**
 * True for browser-internal URLs. An empty URL also counts: it belongs to a target that has not
 * committed a document yet, which is no better a choice than `about:blank`.
 */
export function isInternalUrl(url: string): boolean {
  if (url === '') return true;
  const lower = url.toLowerCase();
  return INTERNAL_URL_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

const NO_FOREIGN_TABS: ReadonlyMap<string, string> = new Map();

/** Returns the target id of the REPL's own tab; `gone` names one that no longer exists. */
export type OwnTabProvider = (request: { gone?: string | undefined }) => Promise<string>;

/** Returns the tabs that others own (targetId → owner, e.g. `repl:search`): never chosen automatically. */
export type ForeignTabsProvider = () => Promise<ReadonlyMap<string, string>>;

/** Options of {@link PageAttachment}. */
export interface PageAttachmentOptions {
  link: BrowserLink;
  state: PageState;
  ownTab?: OwnTabProvider | undefined;
  foreignTabs?: ForeignTabsProvider | undefined;
  /** Receives notes meant for the cell's stderr. */
  note: (message: string) => void;
  /** Told each time another tab becomes the attached one (the host's live view follows it). */
  onAttached?: ((targetId: string) => void) | undefined;
}

/** Options of the attach operations. */
export interface AttachOptions {
  deadline?: Deadline | undefined;
  /** The command that needs the page, for deadline messages while connecting. */
  method?: string | undefined;
}

/** The attached page session and the policy that picks it; see the module comment. */
export class PageAttachment {
  readonly #link: BrowserLink;
  readonly #state: PageState;
  readonly #ownTab: OwnTabProvider | undefined;
  readonly #foreignTabs: ForeignTabsProvider | undefined;
  readonly #note: (message: string) => void;
  readonly #onAttached: ((targetId: string) => void) | undefined;
  #session: CdpSession | undefined;
  /** Listeners on the attached session, removed when it is replaced or lost. */
  #disposers: (() => void)[] = [];
  /** Survives a reconnect: after a dropped socket (not a restart) the same tab is reattached. */
  #previousTargetId: string | undefined;
  #ownTargetId: string | undefined;
  #autoAttaching: Promise<CdpSession> | undefined;
  #attachQueue: Promise<unknown> = Promise.resolve();
  #reenabling: Promise<void> | undefined;
  #rendererResponsive = true;
  /** Tabs alone in a window of their own (the own tab, and tabs the REPL opened so): never activated. */
  readonly #ownWindows = new Set<string>();

  constructor(options: PageAttachmentOptions) {
    this.#link = options.link;
    this.#state = options.state;
    this.#ownTab = options.ownTab;
    this.#foreignTabs = options.foreignTabs;
    this.#note = options.note;
    this.#onAttached = options.onAttached;
  }

  /** The attached page session, while it is open. */
  get session(): CdpSession | undefined {
    const session = this.#session;
    return session !== undefined && !session.closed ? session : undefined;
  }

  /** True when the REPL has a tab of its own (`ownTab`): the tabs it opens get windows of their own too. */
  get ownsTab(): boolean {
    return this.#ownTab !== undefined;
  }

  /** targetId → owner of every tab someone other than this REPL owns (asked of the host each time). */
  async foreignOwners(): Promise<ReadonlyMap<string, string>> {
    return (await this.#foreignTabs?.()) ?? new Map();
  }

  /** Who owns `targetId`, when someone other than this REPL does (asked of the host each time). */
  async ownerOf(targetId: string): Promise<string | undefined> {
    return (await this.#foreignTabs?.())?.get(targetId);
  }

  /** Records that `targetId` is alone in its window, so attaching it never activates it. */
  markOwnWindow(targetId: string): void {
    this.#ownWindows.add(targetId);
  }

  /** The REPL's own tab as last reported by `ownTab`; undefined without `ownTab`. */
  get ownTargetId(): string | undefined {
    return this.#ownTargetId;
  }

  /** False after the attached page did not answer its domain enables in time. */
  get rendererResponsive(): boolean {
    return this.#rendererResponsive;
  }

  /**
   * The attached session, attaching automatically (see the module comment) when none is. One
   * attempt: a connection that drops meanwhile rejects with `REPL_ERR_CDP_DISCONNECTED`.
   */
  async attached(options: AttachOptions = {}): Promise<CdpSession> {
    const { deadline } = options;
    const connection = await this.#link.connection({ deadline, method: options.method ?? 'Target.attachToTarget' });
    const current = this.session;
    if (current !== undefined) return current;
    if (this.#autoAttaching === undefined) {
      const attaching = this.#exclusive(() => this.session ?? this.#autoAttach(connection, deadline)).finally(() => {
        if (this.#autoAttaching === attaching) this.#autoAttaching = undefined;
      });
      this.#autoAttaching = attaching;
    }
    return this.#autoAttaching;
  }

  /**
   * Attaches `targetId` and detaches the previous session. Attaching the target that is already
   * attached returns its session. An unknown target rejects with `REPL_ERR_TARGET_NOT_FOUND`.
   */
  async attach(targetId: string, options: AttachOptions = {}): Promise<CdpSession> {
    const { deadline } = options;
    const connection = await this.#link.connection({ deadline, method: 'Target.attachToTarget' });
    try {
      return await this.#exclusive(() => this.#attachOn(connection, targetId, deadline));
    } catch (error) {
      throw targetNotFound(error, targetId);
    }
  }

  /**
   * Re-runs the enables after a frozen attach without delaying the caller's command: both queue
   * on the same session, so Chromium still handles the enables first, while recovery commands
   * (`Page.handleJavaScriptDialog`, answered by the browser) are not held up.
   */
  reenableInBackground(session: CdpSession, deadline: Deadline | undefined): void {
    if (this.#reenabling !== undefined) return;
    this.#reenabling = this.#enableDomains(session, deadline)
      .catch(ignore)
      .finally(() => {
        this.#reenabling = undefined;
      });
  }

  /** The renderer hint for a timeout on `sessionId`, while the attached page looks frozen. */
  rendererHint(sessionId: string | undefined): string | undefined {
    if (sessionId === undefined || sessionId !== this.#session?.sessionId) return undefined;
    return !this.#rendererResponsive || this.#state.pendingDialog !== null ? RENDERER_HINT : undefined;
  }

  /** Runs attach operations one at a time: they all rewrite the attached session. */
  #exclusive<T>(operation: () => T | Promise<T>): Promise<T> {
    const result = this.#attachQueue.then(operation);
    this.#attachQueue = result.catch(ignore);
    return result;
  }

  async #autoAttach(connection: CdpConnection, deadline: Deadline | undefined): Promise<CdpSession> {
    const ownTab = this.#ownTab;
    const choose = (gone: string | undefined): Promise<string> =>
      ownTab === undefined ? this.#chooseTarget(connection, deadline) : this.#askOwnTab(ownTab, gone, deadline);
    let targetId = await choose(undefined);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attachOn(connection, targetId, deadline);
      } catch (error) {
        // The target closed between listing and attaching (typical right after a restart), or
        // the own tab was closed: one more choice.
        if (attempt > 0 || !isNoTarget(error)) throw error;
        targetId = await choose(targetId);
      }
    }
  }

  /** The own tab's id from `provider`; the wait (not the provider) ends at `deadline`. */
  #askOwnTab(provider: OwnTabProvider, gone: string | undefined, deadline: Deadline | undefined): Promise<string> {
    const asked = provider(gone === undefined ? {} : { gone }).then((targetId) => {
      this.#ownTargetId = targetId;
      // The host opens every owner's tab in a window of its own.
      this.#ownWindows.add(targetId);
      return targetId;
    });
    if (deadline === undefined) return asked;
    return deadline.race(
      asked,
      () =>
        new ReplError('REPL_ERR_CDP_DEADLINE_REACHED', "CDP Target.attachToTarget could not run: the execution deadline was reached while waiting for this REPL's own tab", {
          data: { method: 'Target.attachToTarget' },
        }),
    );
  }

  async #chooseTarget(connection: CdpConnection, deadline: Deadline | undefined): Promise<string> {
    const [{ targetInfos: all }, foreign] = await Promise.all([
      connection.send('Target.getTargets', undefined, { deadline }),
      this.#foreignTabs?.() ?? NO_FOREIGN_TABS,
    ]);
    // Tabs of named REPLs and executors are theirs: their dialogs and events must not reach us.
    const targetInfos = foreign.size === 0 ? all : all.filter((target) => !foreign.has(target.targetId));
    const pages = targetInfos.filter((target) => target.type === 'page');
    // The previous target may be any type: the user may have switched to an iframe target.
    const chosen =
      targetInfos.find((target) => target.targetId === this.#previousTargetId) ??
      pages.find((page) => !isInternalUrl(page.url)) ??
      pages[0];
    return chosen?.targetId ?? (await connection.send('Target.createTarget', { url: 'about:blank' }, { deadline })).targetId;
  }

  async #attachOn(connection: CdpConnection, targetId: string, deadline: Deadline | undefined): Promise<CdpSession> {
    const current = this.session;
    if (current !== undefined && current.targetId === targetId) return current;
    const session = await connection.attachToTarget(targetId, { deadline });
    if (connection.closed) throw connectionLost('Target.attachToTarget');
    const previous = this.#adopt(session);
    // Headless Chromium cancels dialogs of background tabs at once; the foreground keeps them open.
    // A tab alone in its own window is in the foreground already, and activating it would make its
    // window the one the next plain new tab joins, hiding this tab behind that one.
    if (!this.#ownWindows.has(targetId)) await connection.send('Target.activateTarget', { targetId }, { deadline }).catch(ignore);
    await this.#enableDomains(session, deadline);
    if (!this.#rendererResponsive || this.#state.pendingDialog !== null) await this.#dismissStaleDialog(session, deadline);
    if (previous !== undefined && previous !== session) await previous.detach({ deadline }).catch(ignore);
    return session;
  }

  /** Makes `session` the attached one; returns the one it replaces. */
  #adopt(session: CdpSession): CdpSession | undefined {
    const previous = this.#session;
    const before = this.#previousTargetId;
    this.#dispose();
    this.#session = session;
    this.#previousTargetId = session.targetId;
    if (session.targetId !== before) this.#onAttached?.(session.targetId);
    this.#state.attached(session.targetId);
    this.#rendererResponsive = true;
    this.#disposers.push(
      session.onAny((event) => this.#state.observe(event)),
      session.onClose(() => this.#lost(session)),
    );
    return previous;
  }

  /** The attached session closed (its tab closed or crashed, or the connection dropped). */
  #lost(session: CdpSession): void {
    if (this.#session !== session) return;
    this.#dispose();
    this.#previousTargetId = session.targetId;
    this.#session = undefined;
    this.#state.clear();
    this.#rendererResponsive = true;
  }

  #dispose(): void {
    for (const dispose of this.#disposers) dispose();
    this.#disposers = [];
  }

  /**
   * Enables the attach domains. They are pipelined, so each has its own 5 s and the attach as a
   * whole takes no longer (docs/architecture.md, "Limits of the CDP layer"). A timeout means the
   * renderer is frozen (typically a modal dialog); any other error means the domain does not
   * exist on this target type.
   */
  async #enableDomains(session: CdpSession, deadline: Deadline | undefined): Promise<void> {
    const results = await Promise.allSettled(ATTACH_DOMAINS.map((method) => session.send(method, {}, { timeoutMs: ENABLE_TIMEOUT_MS, deadline })));
    let timedOut = false;
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      const code = errorCode(result.reason);
      if (code === 'REPL_ERR_CDP_DISCONNECTED' || code === 'REPL_ERR_CDP_DEADLINE_REACHED') throw result.reason;
      if (code === 'REPL_ERR_CDP_TIMEOUT') timedOut = true;
    }
    if (this.#session === session) this.#rendererResponsive = !timedOut;
  }

  async #dismissStaleDialog(session: CdpSession, deadline: Deadline | undefined): Promise<void> {
    try {
      await session.send('Page.handleJavaScriptDialog', { accept: true }, { timeoutMs: STALE_DIALOG_TIMEOUT_MS, deadline });
    } catch {
      return; // No dialog after all, or the browser would not close it: leave the state as it is.
    }
    const dialog = this.#state.pendingDialog;
    if (this.#session === session) this.#state.dialogHandled();
    this.#note(
      `browser-repl: dismissed a pre-existing JavaScript dialog (type: ${dialog?.type ?? 'unknown'}, message: ${JSON.stringify(dialog?.message ?? '')}) left open before attach`,
    );
    await this.#enableDomains(session, deadline);
  }
}

function isNoTarget(error: unknown): boolean {
  return errorCode(error) === 'REPL_ERR_CDP_COMMAND_FAILED' && NO_TARGET_PATTERN.test((error as Error).message);
}

/** Rewrites Chromium's "No target with given id found" into REPL_ERR_TARGET_NOT_FOUND. */
export function targetNotFound(error: unknown, targetId: string): unknown {
  if (!isNoTarget(error)) return error;
  return new ReplError('REPL_ERR_TARGET_NOT_FOUND', `No target with id ${targetId} (it was closed, or the browser restarted); list the targets again`, {
    cause: error,
    data: { targetId },
  });
}

function connectionLost(method: string): ReplError {
  return new ReplError('REPL_ERR_CDP_DISCONNECTED', CONNECTION_CLOSED_MESSAGE, { data: { method, connectionClosedBeforeResponse: true } });
}

function ignore(): void {}
