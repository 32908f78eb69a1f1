/**
 * Reads the attached page for the agent tools and resolves refs back to elements. Every frame is
 * read in an isolated world of its own (`page-script.ts`): the frames of the page's own process
 * through the page session, and each cross-site frame (an out-of-process iframe, a target of its
 * own) through an auxiliary session on the same connection, so elements inside cross-site
 * iframes get refs like any other.
 *
 * Refs are the session's numbers (`RefTable`): the same element keeps its ref across reads of one
 * document, a ref is never reused, and only the refs of the latest read are accepted, so a model
 * acting on an old snapshot gets a clear "snapshot again" instead of a click somewhere else.
 */
import { ReplError } from '../../common/errors.js';
import { PAGE_READ_LIMITS } from '../../common/protocol/tool-messages.js';
import { COVER_OF } from './page-overlay.js';
import { ELEMENT_BY_ID, FRAME_CONTENT_ORIGIN, FRAME_HIT_AT, QUIET_FOR, READ_PAGE, REVEAL_FRAME, SHOWS_TEXT, TABLE_KEY } from './page-script.js';

import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../common/cdp/cdp-session.js';
import type { PageRead, SnapshotElement } from '../../common/protocol/tool-messages.js';
import type { HelperContext } from '../helpers/helper-context.js';
import type { RawRead } from './page-script.js';

const WORLD_NAME = 'browser-repl-tools';
const CONTEXT_GONE = /Cannot find context|Execution context was destroyed|No frame with given id|Frame with the given id was not found|No frame for given id/i;

/** A place commands go: the page session (by id, through the client) or a cross-site frame's session. */
type Channel = { kind: 'page'; sessionId: string } | { kind: 'frame'; session: CdpSession; targetId: string };

/** Where an element of a ref lives. */
interface RefLocation {
  channel: Channel;
  frameId: string;
  loaderId: string;
  localId: number;
  /** For a cross-site frame: the `<iframe>` element in the page (to place clicks). */
  ownerBackendNodeId?: number;
  label: string;
  tag: string;
  role?: string;
  type?: string;
}

interface FrameToRead {
  channel: Channel;
  frameId: string;
  loaderId: string;
  url: string;
  top: boolean;
  ownerBackendNodeId?: number;
}

/** An element a ref points at, resolved for an action. */
export type ResolvedRef =
  | { kind: 'page'; backendNodeId: number; location: RefLocation }
  | { kind: 'frame'; session: CdpSession; objectId: string; location: RefLocation };

function channelKey(channel: Channel): string {
  return channel.kind === 'page' ? 'page' : `frame:${channel.targetId}`;
}

/** Worlds belong to the session that made them (a re-attached tab needs new ones). */
function worldKey(frame: FrameToRead): string {
  return `${frame.channel.kind === 'page' ? `page:${frame.channel.sessionId}` : channelKey(frame.channel)}|${frame.frameId}`;
}

export class RefTable {
  readonly #byKey = new Map<string, number>();
  readonly #locations = new Map<number, RefLocation>();
  #latest = new Set<number>();
  #next = 1;

  /** The ref of an element read now (the same one as last time when it is the same element of the same document). */
  refFor(location: RefLocation): number {
    const key = `${channelKey(location.channel)}|${location.frameId}|${location.loaderId}|${location.localId}`;
    let ref = this.#byKey.get(key);
    if (ref === undefined) {
      ref = this.#next++;
      this.#byKey.set(key, ref);
    }
    this.#locations.set(ref, location);
    return ref;
  }

  /** The ref an element already has in the latest read, if it has one (never makes a new one). */
  latestRef(location: Pick<RefLocation, 'channel' | 'frameId' | 'loaderId' | 'localId'>): number | undefined {
    const ref = this.#byKey.get(`${channelKey(location.channel)}|${location.frameId}|${location.loaderId}|${location.localId}`);
    return ref !== undefined && this.#latest.has(ref) ? ref : undefined;
  }

  /** Makes `refs` the only valid ones, and forgets the locations of refs that left. */
  setLatest(refs: Set<number>): void {
    for (const ref of this.#latest) if (!refs.has(ref)) this.#locations.delete(ref);
    this.#latest = refs;
  }

  /** @throws ReplError `REPL_ERR_STALE_REF` for a ref not in the latest read. */
  location(ref: number): RefLocation {
    const location = this.#latest.has(ref) ? this.#locations.get(ref) : undefined;
    if (location === undefined) throw staleRef(ref, 'it is not in the latest snapshot');
    return location;
  }
}

export function staleRef(ref: number, why: string): ReplError {
  return new ReplError('REPL_ERR_STALE_REF', `ref ${ref} is stale: ${why}; take a new snapshot (browser_snapshot) and use a ref from it`);
}

export class PageReader {
  readonly #context: HelperContext;
  readonly refs = new RefTable();
  /** Isolated worlds by channel and frame, for the document (loader) they were made in. */
  readonly #worlds = new Map<string, { loaderId: string; contextId: number }>();
  /** Sessions of cross-site frames, by target id: kept between reads, detached when their frame goes, and gone with the connection when the worker ends. */
  readonly #frameSessions = new Map<string, CdpSession>();

  constructor(context: HelperContext) {
    this.#context = context;
  }

  /** Reads title, URL, text and elements of the attached page and all its frames; `tabs` is listed meanwhile. */
  async read(listing: Promise<PageRead['tabs']>): Promise<PageRead> {
    // Not left unhandled while the frames are read; awaited below.
    listing.catch(() => undefined);
    const { client } = this.#context;
    const sessionId = await client.ensureAttached(this.#context.callOptions());
    const dialog = client.pendingDialog;
    if (dialog !== null) {
      // An open dialog holds the page's scripts: no evaluation would answer until it is handled.
      const target = (await client.listTargets(this.#context.callOptions())).find((info) => info.targetId === client.targetId);
      const read: PageRead = {
        title: target?.title ?? '', url: target?.url ?? '', text: '', elements: [], document: `dialog:${client.targetId ?? ''}`, tabs: await listing,
        dialog: { type: dialog.type, message: dialog.message },
      };
      // The page is still there under the dialog: its refs stay valid for when the dialog is answered.
      return read;
    }
    const frames = await this.#frames(sessionId);
    const reads = await Promise.all(frames.map(async (frame) => {
      try {
        return { frame, raw: await this.#readFrame(frame) };
      } catch (error) {
        if (frame.top) throw error;
        return { frame, raw: null };
      }
    }));
    const elements: SnapshotElement[] = [];
    const latest = new Set<number>();
    let text = '';
    let title = '';
    let url = '';
    let document = '';
    let overlay: PageRead['overlay'];
    const unread: string[] = [];
    for (const { frame, raw } of reads) {
      if (raw === null) {
        unread.push(frame.url);
        continue;
      }
      if (frame.top) {
        title = raw.title;
        url = raw.url;
        document = `${frame.frameId}:${frame.loaderId}`;
        text = raw.text;
      } else if (raw.text !== '' && text.length < PAGE_READ_LIMITS.textChars) {
        text += `${text === '' ? '' : '\n'}[frame ${raw.url}]\n${raw.text}`;
      }
      const refsById = new Map<number, number>();
      for (const element of raw.elements) {
        if (elements.length >= PAGE_READ_LIMITS.elements) break;
        const location: RefLocation = {
          channel: frame.channel, frameId: frame.frameId, loaderId: frame.loaderId, localId: element.id, label: element.label, tag: element.tag,
        };
        if (element.role !== undefined) location.role = element.role;
        if (element.type !== undefined) location.type = element.type;
        if (frame.ownerBackendNodeId !== undefined) location.ownerBackendNodeId = frame.ownerBackendNodeId;
        const ref = this.refs.refFor(location);
        refsById.set(element.id, ref);
        latest.add(ref);
        const { id: _id, ...rest } = element;
        const entry: SnapshotElement = { ref, ...rest } as SnapshotElement;
        if (!frame.top) entry.frame = raw.url;
        elements.push(entry);
      }
      if (frame.top && raw.overlay !== undefined) {
        const refs = raw.overlay.ids.map((id) => refsById.get(id)).filter((ref): ref is number => ref !== undefined);
        overlay = { description: raw.overlay.description, label: raw.overlay.label, refs };
      }
    }
    this.refs.setLatest(latest);
    const read: PageRead = { title, url, text: text.slice(0, PAGE_READ_LIMITS.textChars), elements, document, tabs: await listing };
    if (overlay !== undefined) read.overlay = overlay;
    if (unread.length > 0) read.unreadFrames = unread;
    return read;
  }

  /** The element behind `ref`, for an action. @throws `REPL_ERR_STALE_REF` */
  async resolve(ref: number): Promise<ResolvedRef> {
    const location = this.refs.location(ref);
    const frame: FrameToRead = { channel: location.channel, frameId: location.frameId, loaderId: location.loaderId, url: '', top: false };
    let contextId: number;
    try {
      contextId = await this.#world(frame);
    } catch {
      throw staleRef(ref, 'its frame navigated or closed');
    }
    let result: Protocol.Runtime.EvaluateResponse;
    try {
      result = await this.#send(location.channel, 'Runtime.evaluate', {
        expression: `(${ELEMENT_BY_ID})(${location.localId})`, contextId, returnByValue: false,
      }) as Protocol.Runtime.EvaluateResponse;
    } catch (error) {
      if (CONTEXT_GONE.test((error as Error).message)) throw staleRef(ref, 'its document navigated');
      throw error;
    }
    const objectId = result.result.objectId;
    if (objectId === undefined || result.result.subtype === 'null') throw staleRef(ref, `the element (${location.tag} "${location.label}") left the page`);
    if (location.channel.kind === 'frame') return { kind: 'frame', session: location.channel.session, objectId, location };
    const { node } = await this.#send(location.channel, 'DOM.describeNode', { objectId }) as Protocol.DOM.DescribeNodeResponse;
    // Not awaited: nothing depends on it, and the call is on the path of every action.
    void this.#send(location.channel, 'Runtime.releaseObject', { objectId }).catch(() => undefined);
    return { kind: 'page', backendNodeId: node.backendNodeId, location };
  }

  /**
   * Scrolls the `<iframe>` of a cross-site element into the page's view when it is not wholly in
   * it: the element's own frame can bring the element into the frame's view, not the frame into
   * the page's.
   */
  async revealFrame(resolved: Extract<ResolvedRef, { kind: 'frame' }>): Promise<void> {
    await this.#callOnOwner(resolved, REVEAL_FRAME);
  }

  /**
   * From a point in a cross-site element's frame to the page's viewport: the frame's content
   * origin in the page added. Checks that a hit test of the page at that point reaches the frame
   * (nothing of the page, a modal or a banner, covers it there).
   *
   * @throws ReplError `REPL_ERR_ACTION_FAILED` with `data.status` `intercepted by <…>`.
   */
  async frameToPage(resolved: Extract<ResolvedRef, { kind: 'frame' }>, point: { x: number; y: number }): Promise<{ x: number; y: number }> {
    const origin = await this.#callOnOwner(resolved, FRAME_CONTENT_ORIGIN) as { x: number; y: number };
    const atPage = { x: origin.x + point.x, y: origin.y + point.y };
    const hit = await this.#callOnOwner(resolved, FRAME_HIT_AT, [atPage]) as string | null;
    if (hit !== null) {
      throw new ReplError('REPL_ERR_ACTION_FAILED', `click: ${resolved.location.tag} "${resolved.location.label}" is covered in the page by ${hit}`, { data: { status: `intercepted by ${hit}` } });
    }
    return atPage;
  }

  /**
   * What covers the element of `ref` now, and the refs of the controls that dismiss the cover
   * (page-overlay.ts `COVER_OF`); null when nothing covers it or the ref is gone.
   */
  async coverOf(ref: number): Promise<{ description: string; label: string; refs: number[] } | null> {
    const location = this.refs.location(ref);
    const frame: FrameToRead = { channel: location.channel, frameId: location.frameId, loaderId: location.loaderId, url: '', top: false };
    const contextId = await this.#world(frame);
    const response = await this.#send(location.channel, 'Runtime.evaluate', {
      expression: `(${COVER_OF(TABLE_KEY)})(${location.localId})`, contextId, returnByValue: true,
    }) as Protocol.Runtime.EvaluateResponse;
    const cover = response.result.value as { description: string; label: string; ids: number[] } | null | undefined;
    if (cover === null || cover === undefined) return null;
    const refs = cover.ids.map((localId) => this.refs.latestRef({ ...location, localId })).filter((known): known is number => known !== undefined);
    return { description: cover.description, label: cover.label, refs };
  }

  /** Calls `source` on the `<iframe>` element of a cross-site element, in the page; resolves its value. */
  async #callOnOwner(resolved: Extract<ResolvedRef, { kind: 'frame' }>, source: string, args: unknown[] = []): Promise<unknown> {
    const { location } = resolved;
    const owner = location.ownerBackendNodeId;
    if (owner === undefined) throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `the frame of ${location.tag} "${location.label}" has no owner element in the page`);
    const options = this.#context.callOptions();
    const { client } = this.#context;
    const sessionId = await client.ensureAttached(options);
    const { object } = await client.send('DOM.resolveNode', { backendNodeId: owner }, { ...options, sessionId });
    try {
      const response = await client.send('Runtime.callFunctionOn', {
        objectId: object.objectId!, functionDeclaration: source, arguments: args.map((value) => ({ value })), returnByValue: true,
      }, { ...options, sessionId });
      return response.result.value;
    } finally {
      void client.send('Runtime.releaseObject', { objectId: object.objectId! }, { ...options, sessionId }).catch(() => undefined);
    }
  }

  /**
   * Whether `text` (case-insensitive, white space collapsed) is in the visible text of the
   * attached page or one of its frames, cross-site ones and open shadow roots included: what a
   * snapshot would show. A frame that cannot be read right now (navigating) counts as not.
   */
  async showsText(text: string): Promise<boolean> {
    const { client } = this.#context;
    const sessionId = await client.ensureAttached(this.#context.callOptions());
    const needle = text.replace(/\s+/g, ' ').trim().toLowerCase();
    const frames = await this.#frames(sessionId);
    const found = await Promise.all(frames.map(async (frame) => {
      try {
        const contextId = await this.#world(frame);
        const response = await this.#send(frame.channel, 'Runtime.evaluate', { expression: `(${SHOWS_TEXT})(${JSON.stringify(needle)})`, contextId, returnByValue: true }) as Protocol.Runtime.EvaluateResponse;
        return response.result.value === true;
      } catch {
        return false;
      }
    }));
    return found.includes(true);
  }

  /**
   * How many more milliseconds the top document must stay unchanged to have been quiet for
   * `quietMs` (see `QUIET_FOR`); 0 when it cannot tell (the document is going away).
   */
  async quietFor(quietMs: number): Promise<number> {
    const { client } = this.#context;
    const sessionId = await client.ensureAttached(this.#context.callOptions());
    const { frameTree } = await client.send('Page.getFrameTree', undefined, this.#context.callOptions({ sessionId }));
    const frame: FrameToRead = { channel: { kind: 'page', sessionId }, frameId: frameTree.frame.id, loaderId: frameTree.frame.loaderId, url: frameTree.frame.url, top: true };
    try {
      const contextId = await this.#world(frame);
      const response = await this.#send(frame.channel, 'Runtime.evaluate', { expression: `(${QUIET_FOR})(${quietMs})`, contextId, returnByValue: true }) as Protocol.Runtime.EvaluateResponse;
      return typeof response.result.value === 'number' ? response.result.value : 0;
    } catch (error) {
      if (CONTEXT_GONE.test((error as Error).message)) return 0;
      throw error;
    }
  }

  /** Sends on a channel with the running call's deadline. */
  #send(channel: Channel, method: string, params: Record<string, unknown>): Promise<unknown> {
    const options = this.#context.callOptions();
    if (channel.kind === 'frame') return channel.session.send(method as 'Runtime.evaluate', params as never, options);
    return this.#context.client.send(method as 'Runtime.evaluate', params as never, { ...options, sessionId: channel.sessionId });
  }

  async #frames(sessionId: string): Promise<FrameToRead[]> {
    const { client } = this.#context;
    const page: Channel = { kind: 'page', sessionId };
    const [{ frameTree }, targets] = await Promise.all([
      client.send('Page.getFrameTree', undefined, this.#context.callOptions({ sessionId })),
      client.browserCommand('Target.getTargets', undefined, this.#context.callOptions()),
    ]);
    const frames: FrameToRead[] = [];
    const remote = new Map<string, Protocol.Target.TargetInfo>();
    const pageTarget = client.targetId;
    for (const info of targets.targetInfos) {
      if (info.type === 'iframe' && info.parentId === pageTarget) remote.set(info.targetId, info);
    }
    const walk = (tree: Protocol.Page.FrameTree, channel: Channel, top: boolean, owner?: number) => {
      // A cross-site child shows up in its parent's tree too; it is read through its own target.
      if (!top && remote.has(tree.frame.id) && channel.kind === 'page') return;
      const entry: FrameToRead = { channel, frameId: tree.frame.id, loaderId: tree.frame.loaderId, url: tree.frame.url, top };
      if (owner !== undefined) entry.ownerBackendNodeId = owner;
      frames.push(entry);
      for (const child of tree.childFrames ?? []) walk(child, channel, false, owner);
    };
    walk(frameTree, page, true);
    // Sessions of frames that went away are detached; the others are kept for the next read.
    for (const [targetId, session] of this.#frameSessions) {
      if (!remote.has(targetId) || session.closed) {
        this.#frameSessions.delete(targetId);
        if (!session.closed) void session.detach().catch(() => undefined);
      }
    }
    const remoteFrames = await Promise.all([...remote.keys()].map(async (targetId) => {
      try {
        let session = this.#frameSessions.get(targetId);
        if (session === undefined) {
          session = await client.attachAuxiliary(targetId, this.#context.callOptions());
          this.#frameSessions.set(targetId, session);
        }
        const [tree, owner] = await Promise.all([
          session.send('Page.getFrameTree', undefined, this.#context.callOptions()),
          client.send('DOM.getFrameOwner', { frameId: targetId }, this.#context.callOptions({ sessionId })),
        ]);
        return { tree: tree.frameTree, channel: { kind: 'frame', session, targetId } as Channel, owner: owner.backendNodeId };
      } catch {
        return null; // Gone meanwhile.
      }
    }));
    for (const frame of remoteFrames) if (frame !== null) walk(frame.tree, frame.channel, false, frame.owner);
    return frames;
  }

  async #world(frame: FrameToRead): Promise<number> {
    const key = worldKey(frame);
    const known = this.#worlds.get(key);
    if (known !== undefined && known.loaderId === frame.loaderId) return known.contextId;
    const { executionContextId } = await this.#send(frame.channel, 'Page.createIsolatedWorld', {
      frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: false,
    }) as Protocol.Page.CreateIsolatedWorldResponse;
    this.#worlds.set(key, { loaderId: frame.loaderId, contextId: executionContextId });
    return executionContextId;
  }

  async #readFrame(frame: FrameToRead): Promise<RawRead> {
    const expression = `(${READ_PAGE})(${JSON.stringify({ maxText: PAGE_READ_LIMITS.textChars, maxElements: PAGE_READ_LIMITS.elements, top: frame.top })})`;
    for (let attempt = 0; ; attempt++) {
      const contextId = await this.#world(frame);
      try {
        const response = await this.#send(frame.channel, 'Runtime.evaluate', { expression, contextId, returnByValue: true }) as Protocol.Runtime.EvaluateResponse;
        if (response.exceptionDetails !== undefined) {
          throw new ReplError('REPL_ERR_PAGE_EVALUATION', `reading the page failed: ${response.exceptionDetails.exception?.description ?? response.exceptionDetails.text}`);
        }
        return response.result.value as RawRead;
      } catch (error) {
        // The world died with its document (a navigation between listing and reading): make a new one once.
        if (attempt > 0 || !CONTEXT_GONE.test((error as Error).message)) throw error;
        this.#worlds.delete(worldKey(frame));
      }
    }
  }
}
