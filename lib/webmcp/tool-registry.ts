/**
 * What the WebMCP monitor knows about one browser connection, as plain data: the attached targets
 * (tabs and out-of-process frames), the frames of each session, and the page tools they declared,
 * each under an opaque `tool_ref`. It applies Chromium's events and answers listings; it sends
 * nothing itself (lib/webmcp/webmcp-monitor.ts does), so it is tested with plain objects.
 *
 * Chromium 156 never reports a tool as removed when its document goes (docs/webmcp.md,
 * "How it works", Removal): a frame that commits a new document, a frame that is removed, a
 * session that detaches and a target that is destroyed or crashes each drop their tools here.
 * A registration keeps its ref for as long as it lives (a second `toolsAdded` for the same
 * session, frame and name keeps it); anything registered again gets a new one.
 */
import { randomBytes } from 'node:crypto';

import type { WebMcpAnnotations, WebMcpTool } from '../../common/protocol/webmcp-messages.js';
import type { WebMcpScope } from './types.js';

/** Tools kept per session; more are ignored (Kernel's bound: a page cannot grow our memory without limit). */
export const MAX_TOOLS_PER_SESSION = 256;
/** Longest description and schema (as JSON) kept per tool; page-controlled text is bounded. */
const MAX_DESCRIPTION_CHARS = 64 * 1024;
const MAX_SCHEMA_JSON_CHARS = 256 * 1024;

/** A tool as Chromium's `WebMCP.toolsAdded` (or our backfill) reports it. */
export interface ReportedTool {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
  annotations?: {
    readOnly?: boolean; untrustedContent?: boolean; consequential?: boolean; debugging?: boolean; autosubmit?: boolean;
  } | undefined;
  frameId: string;
  /** Present only for declarative (form) tools: the form element. */
  backendNodeId?: number | undefined;
  /** The backfill found a `<form toolname>` (it has no node id for it). */
  declarative?: boolean | undefined;
}

/** One live registration. */
export interface ToolRecord {
  readonly ref: string;
  readonly sessionId: string;
  readonly frameId: string;
  readonly name: string;
  description: string;
  inputSchema: unknown;
  annotations: WebMcpAnnotations | undefined;
  /** A `<form toolname>`: invoking it fills the form. */
  declarative: boolean;
  autosubmit: boolean;
}

interface FrameRecord {
  readonly frameId: string;
  parentId: string | undefined;
  url: string;
  loaderId: string | undefined;
}

/** One attached target (a tab or an out-of-process iframe) and its frames. */
export interface SessionRecord {
  readonly sessionId: string;
  readonly targetId: string;
  readonly type: 'page' | 'iframe';
  /** The session through which this one was attached (an OOPIF's page); none for tabs. */
  readonly parentSessionId: string | undefined;
  readonly frames: Map<string, FrameRecord>;
}

/** What the browser says about one target (`Target.targetInfoChanged` and friends). */
export interface TargetRecord {
  readonly targetId: string;
  type: string;
  title: string;
  url: string;
  browserContextId: string | undefined;
}

/** Why tools went away, for the invocations waiting on them. */
export type DropReason = 'navigated' | 'removed' | 'detached' | 'unregistered';

export interface RegistryListener {
  /** Tools of `frameIds` of `sessionId` were dropped (their frame navigated or went away). */
  framesDropped?(sessionId: string, frameIds: ReadonlySet<string>, reason: DropReason): void;
  /** A session is gone (detached, crashed, target destroyed). */
  sessionDropped?(sessionId: string): void;
}

/** `wmcp_` + 24 lower-case characters, the first a letter (Kernel's shape; opaque to callers). */
export function newToolRef(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let id = alphabet[bytes[0]! % 26]!;
  for (let i = 1; i < 24; i++) id += alphabet[bytes[i]! % 36]!;
  return `wmcp_${id}`;
}

function stripFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

export class ToolRegistry {
  readonly #targets = new Map<string, TargetRecord>();
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #sessionByTarget = new Map<string, string>();
  readonly #tools = new Map<string, ToolRecord>();
  readonly #byRef = new Map<string, ToolRecord>();
  readonly #toolCount = new Map<string, number>();
  /** Kernel's small ids: never reused while this registry lives. */
  readonly #tabIds = new Map<string, number>();
  readonly #windowIds = new Map<number, number>();
  readonly #windowOfTarget = new Map<string, number>();
  readonly #frameNumbers = new Map<string, number>();
  /** Counters of those ids: entries are forgotten with their tab or frame, numbers are never reused. */
  #lastTabId = 0;
  #lastWindowId = 0;
  #lastFrameNumber = 0;
  readonly #listener: RegistryListener;
  #lastChange = 0;

  constructor(listener: RegistryListener = {}) {
    this.#listener = listener;
  }

  /** `performance.now()`-free clock of the last change (Date.now ms), for the listing's settle. */
  get lastChange(): number {
    return this.#lastChange;
  }

  #changed(): void {
    this.#lastChange = Date.now();
  }

  // ----- targets and sessions ------------------------------------------------------------------

  updateTarget(info: { targetId: string; type: string; title: string; url: string; browserContextId?: string | undefined }): void {
    const known = this.#targets.get(info.targetId);
    if (known === undefined) {
      this.#targets.set(info.targetId, { targetId: info.targetId, type: info.type, title: info.title, url: info.url, browserContextId: info.browserContextId });
    } else {
      known.type = info.type;
      known.title = info.title;
      known.url = info.url;
      if (info.browserContextId !== undefined) known.browserContextId = info.browserContextId;
    }
    if (info.type === 'page' && !this.#tabIds.has(info.targetId)) this.#tabIds.set(info.targetId, ++this.#lastTabId);
  }

  /** The target is gone: its session (and the sessions attached through it) and their tools too. */
  destroyTarget(targetId: string): void {
    this.#targets.delete(targetId);
    const sessionId = this.#sessionByTarget.get(targetId);
    if (sessionId !== undefined) this.detachSession(sessionId);
    this.#windowOfTarget.delete(targetId);
    this.#tabIds.delete(targetId);
    this.#frameNumbers.delete(targetId);
  }

  setWindow(targetId: string, browserWindowId: number): void {
    let windowId = this.#windowIds.get(browserWindowId);
    if (windowId === undefined) {
      windowId = ++this.#lastWindowId;
      this.#windowIds.set(browserWindowId, windowId);
    }
    this.#windowOfTarget.set(targetId, windowId);
  }

  /** The session already attached to `targetId`, if any (a second auto-attach of one target is a duplicate). */
  sessionOfTarget(targetId: string): string | undefined {
    return this.#sessionByTarget.get(targetId);
  }

  session(sessionId: string): SessionRecord | undefined {
    return this.#sessions.get(sessionId);
  }

  target(targetId: string): TargetRecord | undefined {
    return this.#targets.get(targetId);
  }

  attachSession(record: { sessionId: string; targetId: string; type: 'page' | 'iframe'; parentSessionId?: string | undefined }): SessionRecord {
    const session: SessionRecord = { ...record, parentSessionId: record.parentSessionId, frames: new Map() };
    this.#sessions.set(record.sessionId, session);
    this.#sessionByTarget.set(record.targetId, record.sessionId);
    this.#changed();
    return session;
  }

  /** The session ended: it and the sessions attached through it lose their tools. */
  detachSession(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    for (const child of [...this.#sessions.values()]) if (child.parentSessionId === sessionId) this.detachSession(child.sessionId);
    this.#sessions.delete(sessionId);
    if (this.#sessionByTarget.get(session.targetId) === sessionId) this.#sessionByTarget.delete(session.targetId);
    for (const tool of [...this.#tools.values()]) if (tool.sessionId === sessionId) this.#deleteTool(tool);
    this.#toolCount.delete(sessionId);
    this.#changed();
    this.#listener.sessionDropped?.(sessionId);
  }

  // ----- frames ----------------------------------------------------------------------------------

  /** A frame tree (`Page.getFrameTree`), or one frame (`frameAttached`, `frameNavigated`). */
  frameSeen(sessionId: string, frame: { id: string; parentId?: string | undefined; url?: string | undefined; loaderId?: string | undefined }): void {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    const known = session.frames.get(frame.id);
    if (known === undefined) {
      session.frames.set(frame.id, { frameId: frame.id, parentId: frame.parentId, url: stripFragment(frame.url ?? ''), loaderId: frame.loaderId });
      if (!this.#frameNumbers.has(frame.id)) this.#frameNumbers.set(frame.id, ++this.#lastFrameNumber);
      this.#changed();
      return;
    }
    if (frame.parentId !== undefined) known.parentId = frame.parentId;
    if (frame.url !== undefined) known.url = stripFragment(frame.url);
    if (frame.loaderId !== undefined) known.loaderId = frame.loaderId;
  }

  /**
   * `Page.frameNavigated`: a new document in `frame.id` (a new loader) drops the tools of that
   * frame and of every frame below it, in this session and in the sessions of out-of-process
   * frames below it. Returns whether a document was replaced.
   */
  frameNavigated(sessionId: string, frame: { id: string; parentId?: string | undefined; url: string; loaderId: string }): boolean {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return false;
    const known = session.frames.get(frame.id);
    const replaced = known !== undefined && known.loaderId !== undefined && known.loaderId !== frame.loaderId;
    if (replaced) this.#dropFrames(sessionId, frame.id, 'navigated', false);
    this.frameSeen(sessionId, frame);
    this.#changed();
    return replaced;
  }

  /** Same-document navigation (fragment, `pushState`): tools stay, the URL changes. */
  frameUrlChanged(sessionId: string, frameId: string, url: string): void {
    const known = this.#sessions.get(sessionId)?.frames.get(frameId);
    if (known !== undefined) known.url = stripFragment(url);
  }

  /** `Page.frameDetached` (not `swap`): the frame and everything below it are gone. */
  frameRemoved(sessionId: string, frameId: string): void {
    this.#dropFrames(sessionId, frameId, 'removed', true);
    this.#changed();
  }

  #dropFrames(sessionId: string, rootFrameId: string, reason: DropReason, includeRoot: boolean): void {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    const dropped = new Set<string>([rootFrameId]);
    // Children are recorded after their parents, but a frame tree may arrive in any order: iterate to a fixed point.
    for (let grew = true; grew;) {
      grew = false;
      for (const frame of session.frames.values()) {
        if (frame.parentId !== undefined && dropped.has(frame.parentId) && !dropped.has(frame.frameId)) {
          dropped.add(frame.frameId);
          grew = true;
        }
      }
    }
    for (const tool of [...this.#tools.values()]) if (tool.sessionId === sessionId && dropped.has(tool.frameId)) this.#deleteTool(tool);
    for (const frameId of dropped) {
      if (!includeRoot && frameId === rootFrameId) continue;
      session.frames.delete(frameId);
      // A frame id is not used again once its frame is gone (an out-of-process frame's root keeps its id in its own session).
      if (!this.#sessionByTarget.has(frameId)) this.#frameNumbers.delete(frameId);
    }
    this.#listener.framesDropped?.(sessionId, dropped, reason);
    // Out-of-process frames below: their sessions' root frame is one of the dropped frames.
    for (const child of [...this.#sessions.values()]) {
      if (child.parentSessionId === sessionId && dropped.has(child.targetId)) {
        if (includeRoot || child.targetId !== rootFrameId) this.#dropFrames(child.sessionId, child.targetId, reason, false);
      }
    }
  }

  // ----- tools -----------------------------------------------------------------------------------

  /** `WebMCP.toolsAdded` (or the backfill): new registrations get a ref, known ones keep theirs. */
  toolsAdded(sessionId: string, tools: readonly ReportedTool[]): void {
    if (!this.#sessions.has(sessionId)) return;
    for (const reported of tools) {
      if (typeof reported?.name !== 'string' || typeof reported.frameId !== 'string') continue;
      const key = toolKey(sessionId, reported.frameId, reported.name);
      const known = this.#tools.get(key);
      const fields = describe(reported);
      if (known !== undefined) {
        // A later report wins, except that a report without a schema (the backfill's DOM path,
        // Chromium's Latin-1 drop) never erases one we have.
        known.description = fields.description;
        if (fields.inputSchema !== undefined) known.inputSchema = fields.inputSchema;
        if (fields.annotations !== undefined) known.annotations = fields.annotations;
        known.declarative = known.declarative || fields.declarative;
        known.autosubmit = fields.autosubmit || (fields.annotations === undefined && known.autosubmit);
        continue;
      }
      const count = this.#toolCount.get(sessionId) ?? 0;
      if (count >= MAX_TOOLS_PER_SESSION) continue;
      const record: ToolRecord = {
        ref: newToolRef(), sessionId, frameId: reported.frameId, name: reported.name, ...fields, inputSchema: fields.inputSchema ?? {},
      };
      this.#tools.set(key, record);
      this.#byRef.set(record.ref, record);
      this.#toolCount.set(sessionId, count + 1);
    }
    this.#changed();
  }

  /** `WebMCP.toolsRemoved`. */
  toolsRemoved(sessionId: string, tools: ReadonlyArray<{ name: string; frameId: string }>): void {
    for (const removed of tools) {
      const tool = this.#tools.get(toolKey(sessionId, removed?.frameId, removed?.name));
      if (tool !== undefined) this.#deleteTool(tool);
    }
    this.#changed();
  }

  #deleteTool(tool: ToolRecord): void {
    this.#tools.delete(toolKey(tool.sessionId, tool.frameId, tool.name));
    this.#byRef.delete(tool.ref);
    this.#toolCount.set(tool.sessionId, Math.max(0, (this.#toolCount.get(tool.sessionId) ?? 1) - 1));
  }

  has(sessionId: string, frameId: string, name: string): boolean {
    return this.#tools.has(toolKey(sessionId, frameId, name));
  }

  byRef(ref: string): ToolRecord | undefined {
    return this.#byRef.get(ref);
  }

  /** Whether `frameId` of `sessionId` is, or lies below, one of `frameIds` (an ancestor navigated). */
  frameWithin(sessionId: string, frameId: string, frameIds: ReadonlySet<string>): boolean {
    const session = this.#sessions.get(sessionId);
    for (let current: string | undefined = frameId, hops = 0; current !== undefined && hops < 64; hops++) {
      if (frameIds.has(current)) return true;
      current = session?.frames.get(current)?.parentId;
    }
    return false;
  }

  /** The tab (page target id) a session belongs to: the top of its chain of parent sessions. */
  tabOf(sessionId: string): string | undefined {
    let session = this.#sessions.get(sessionId);
    for (let hops = 0; session !== undefined && hops < 64; hops++) {
      if (session.type === 'page') return session.targetId;
      session = session.parentSessionId === undefined ? undefined : this.#sessions.get(session.parentSessionId);
    }
    return undefined;
  }

  /** Every tab (page target) the scope admits. */
  tabs(scope: WebMcpScope | undefined, isolatedContexts: ReadonlySet<string>): string[] {
    const tabs: string[] = [];
    for (const session of this.#sessions.values()) {
      if (session.type !== 'page') continue;
      if (this.#admits(session.targetId, scope, isolatedContexts)) tabs.push(session.targetId);
    }
    return tabs;
  }

  #admits(tabId: string, scope: WebMcpScope | undefined, isolatedContexts: ReadonlySet<string>): boolean {
    const context = this.#targets.get(tabId)?.browserContextId;
    if (scope?.targetIds !== undefined && !scope.targetIds.includes(tabId)) return false;
    if (scope?.browserContextId !== undefined) return context === scope.browserContextId;
    if (scope?.targetIds !== undefined) return true;
    return context === undefined || !isolatedContexts.has(context);
  }

  /** Every session (tabs and their out-of-process frames) of the tabs the scope admits. */
  sessionIds(scope: WebMcpScope | undefined, isolatedContexts: ReadonlySet<string>): string[] {
    const tabs = new Set(this.tabs(scope, isolatedContexts));
    return [...this.#sessions.keys()].filter((sessionId) => {
      const tab = this.tabOf(sessionId);
      return tab !== undefined && tabs.has(tab);
    });
  }

  /** Whether the tool's tab is in scope (an invocation may only reach what a listing shows). */
  inScope(tool: ToolRecord, scope: WebMcpScope | undefined, isolatedContexts: ReadonlySet<string>): boolean {
    const tab = this.tabOf(tool.sessionId);
    return tab !== undefined && this.#admits(tab, scope, isolatedContexts);
  }

  /** Tools of the tab `targetId` (its frames included). */
  countTools(targetId: string): number {
    let count = 0;
    for (const tool of this.#tools.values()) if (this.tabOf(tool.sessionId) === targetId) count++;
    return count;
  }

  /** Kernel's listing: tools of live tabs in scope, sorted by window, tab, frame (top = 0), name. */
  list(scope: WebMcpScope | undefined, isolatedContexts: ReadonlySet<string>): WebMcpTool[] {
    const rows: Array<{ sort: [number, number, number, string]; tool: WebMcpTool }> = [];
    for (const tool of this.#tools.values()) {
      const tabTarget = this.tabOf(tool.sessionId);
      if (tabTarget === undefined || !this.#admits(tabTarget, scope, isolatedContexts)) continue;
      const tabId = this.#tabIds.get(tabTarget);
      const target = this.#targets.get(tabTarget);
      if (tabId === undefined || target === undefined) continue;
      const windowId = this.#windowOfTarget.get(tabTarget) ?? 0;
      const isTop = tool.frameId === tabTarget;
      const frameNumber = isTop ? 0 : (this.#frameNumbers.get(tool.frameId) ?? 0);
      const session = this.#sessions.get(tool.sessionId);
      // An out-of-process frame's own session may not see its first commit; its target's URL is current.
      const frameUrl = session?.frames.get(tool.frameId)?.url
        || (session !== undefined && tool.frameId === session.targetId ? stripFragment(this.#targets.get(session.targetId)?.url ?? '') : '');
      const listed: WebMcpTool = {
        tool_ref: tool.ref,
        tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
        source: {
          window_id: windowId,
          tab_id: tabId,
          page_title: target.title,
          page_url: stripFragment(target.url),
          frame: isTop ? null : { frame_id: frameNumber, url: frameUrl },
          target_id: tabTarget,
        },
      };
      if (tool.annotations !== undefined) listed.tool.annotations = { ...tool.annotations };
      rows.push({ sort: [windowId, tabId, frameNumber, tool.name], tool: listed });
    }
    rows.sort((a, b) => a.sort[0] - b.sort[0] || a.sort[1] - b.sort[1] || a.sort[2] - b.sort[2] || (a.sort[3] < b.sort[3] ? -1 : a.sort[3] > b.sort[3] ? 1 : 0));
    return rows.map((row) => row.tool);
  }
}

function toolKey(sessionId: string, frameId: unknown, name: unknown): string {
  return `${sessionId}\u0000${String(frameId)}\u0000${String(name)}`;
}

function describe(reported: ReportedTool): Omit<ToolRecord, 'ref' | 'sessionId' | 'frameId' | 'name' | 'inputSchema'> & { inputSchema: unknown } {
  const description = typeof reported.description === 'string' ? reported.description.slice(0, MAX_DESCRIPTION_CHARS) : '';
  let inputSchema: unknown;
  if (reported.inputSchema !== undefined && reported.inputSchema !== null && typeof reported.inputSchema === 'object') {
    try {
      inputSchema = JSON.stringify(reported.inputSchema).length <= MAX_SCHEMA_JSON_CHARS ? reported.inputSchema : {};
    } catch {
      inputSchema = {};
    }
  }
  const source = reported.annotations;
  const autosubmit = source?.autosubmit === true;
  // Kernel emits all four booleans whenever CDP sent annotations; `debugging` is dropped.
  const annotations: WebMcpAnnotations | undefined = source === undefined || source === null || typeof source !== 'object'
    ? undefined
    : { readOnlyHint: source.readOnly === true, untrustedContentHint: source.untrustedContent === true, consequentialHint: source.consequential === true, autosubmit };
  return { description, inputSchema, annotations, declarative: reported.backendNodeId !== undefined || reported.declarative === true, autosubmit };
}
