/**
 * A scoped view of the browser for a Playwright client (`connectOverCDP`), one per owner.
 *
 * `connectOverCDP` attaches to every tab of the browser and waits until each has answered its
 * set-up commands. A tab whose renderer is frozen by a JavaScript dialog never answers, so one
 * REPL leaving a `confirm()` pending made every executor that connected afterwards hang until its
 * timeout; and Playwright answers the dialogs of every tab it attached (its default dismiss). The
 * cure is that an owner's Playwright never attaches what it does not own: this relay sits between
 * the client and the browser, on 127.0.0.1 inside the owner's worker, and
 * - hides the tabs other owners own (and the popups those tabs open) from `Target.*` events and
 *   answers: an auto-attach of a hidden tab is resumed and detached here, never forwarded;
 * - in `own` mode (a named REPL or executor) shows only the owner's tabs, the tabs its client
 *   creates, and the popups of visible tabs;
 * - keeps a client's `Browser.setDownloadBehavior` for the default context to itself: the host
 *   has Chromium save every download into one folder, and a client that set its own folder there
 *   would, when it disconnects, make Chromium fall back to `$HOME/Downloads` for everyone (issue 9,
 *   bug 3). The client still gets its download events (made from the `Page.download*` events of
 *   the tabs it sees) and its file (a hard link into the folder it asked for).
 *
 * Everything else passes through unchanged, in order: upstream messages are handled one at a
 * time, so a decision that needs the host's owner list holds back what follows it.
 */
import path from 'node:path';
import { debuglog } from 'node:util';
import type { Protocol } from 'devtools-protocol';

import { placeFile } from '../files.js';
import { Resource } from '../resource.js';
import { connectWebSocket, listenLoopback } from './transport.js';
import type { ConnectTransport, LoopbackEndpoint, Transport } from './transport.js';

const debug = debuglog('browser-repl:scoped-endpoint');

/** What an owner may see, as the host answers it at the moment of asking. */
export interface TargetScope {
  /** `shared`: every tab except the ones others own; `own`: the owner's tabs and what they open. */
  mode: 'shared' | 'own';
  /** Tabs the owner has. */
  ownTargetIds: readonly string[];
  /** Tabs that other owners have (targetId → owner). */
  foreign: Readonly<Record<string, string>>;
  /** Folder the host has Chromium save downloads into (`allowAndName`), when it manages downloads. */
  downloadsFolder?: string | undefined;
  /**
   * The browser context the client sees as its default one (an agent-tool session's own): its
   * browser-level commands that name no context (`Storage.getCookies`, `Target.createTarget`, …)
   * go to this one, so a Playwright client reads the session's cookies and opens its pages there.
   */
  defaultContextId?: string | undefined;
}

export interface ScopedEndpointOptions {
  /** The browser's DevTools endpoint. */
  upstream: () => Promise<string>;
  /** The owner's scope, asked whenever a target not seen before appears. */
  scope: () => Promise<TargetScope>;
  /** Connect timeout to the browser. Default 10 s. */
  connectTimeoutMs?: number;
  /** Opens the upstream transport (tests pass an in-memory one). Default: a WebSocket. */
  connect?: ConnectTransport;
}

/** Commands that name a target at browser level: refused for a hidden one, as Chromium would. */
const TARGET_COMMANDS = new Set([
  'Target.attachToTarget', 'Target.activateTarget', 'Target.closeTarget', 'Target.getTargetInfo',
  'Target.exposeDevToolsProtocol', 'Target.setRemoteLocations',
]);
/**
 * Browser-level commands that act on the default browser context when they name none: with a
 * `defaultContextId` they are sent for that context instead.
 */
const CONTEXT_COMMANDS = new Set([
  'Target.createTarget', 'Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies', 'Browser.grantPermissions',
  'Browser.resetPermissions', 'Browser.setPermission', 'Browser.setDownloadBehavior',
]);
/** How long an already open tab may take to answer before it counts as frozen by a dialog. */
const FROZEN_PROBE_MS = 2_000;
/** Ids of the relay's own commands: far above any client's counter. */
const OWN_ID_BASE = 1_500_000_000;

/** A loopback endpoint that relays each client to the browser through its owner's scope. */
export class ScopedEndpoint extends Resource {
  readonly #options: ScopedEndpointOptions;
  readonly #relays = new Set<ScopedRelay>();
  #listening: Promise<LoopbackEndpoint> | undefined;

  constructor(options: ScopedEndpointOptions) {
    super();
    this.#options = options;
  }

  /** The `ws://127.0.0.1:…` URL to give `connectOverCDP`; listens on first use. */
  async url(): Promise<string> {
    if (this.closed) throw new Error('the scoped endpoint is closed');
    this.#listening ??= listenLoopback((client) => this.accept(client));
    return (await this.#listening).url;
  }

  /**
   * Relays a client that was accepted elsewhere (the server's CDP proxy on its own port) exactly
   * like one that connected to {@link url}.
   */
  accept(client: Transport): void {
    if (this.closed) {
      client.close();
      return;
    }
    const relay = new ScopedRelay(client, this.#options, () => this.#relays.delete(relay));
    this.#relays.add(relay);
  }

  /** Number of connected clients (for tests). */
  get clientCount(): number {
    return this.#relays.size;
  }

  /**
   * `close()` closes every relay and stops listening; new clients are refused from the call on.
   * Every caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    for (const relay of this.#relays) relay.close();
    const listening = this.#listening;
    if (listening !== undefined) await (await listening.catch(() => undefined))?.close();
  }
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
  sessionId?: string;
}

/** The client's own download settings for the default context, kept here (see the module comment). */
interface ClientDownloads {
  behavior: string;
  downloadPath: string | undefined;
  eventsEnabled: boolean;
}

/** One client connection and its upstream connection. */
class ScopedRelay {
  readonly #client: Transport;
  readonly #options: ScopedEndpointOptions;
  readonly #onClose: () => void;
  #upstream: Transport | undefined;
  readonly #beforeOpen: string[] = [];
  #closed = false;
  /** Serialises the handling of each direction, so messages keep their order. */
  #fromUpstream: Promise<void> = Promise.resolve();
  #fromClient: Promise<void> = Promise.resolve();
  readonly #visible = new Set<string>();
  readonly #hidden = new Set<string>();
  readonly #hiddenSessions = new Set<string>();
  readonly #clientCalls = new Map<number, string>();
  readonly #ownCalls = new Map<number, (message: CdpMessage) => void>();
  #nextOwnId = OWN_ID_BASE;
  /** `Target.createTarget` calls of the client that have not been answered yet. */
  readonly #creating = new Map<number, () => void>();
  readonly #creatingDone = new Set<Promise<void>>();
  #downloads: ClientDownloads | undefined;
  #downloadsFolder: string | undefined;
  #defaultContextId: string | undefined;
  /** Downloads reported to the client: guid → whether its completion was reported. */
  readonly #downloadGuids = new Map<string, { suggestedFilename: string; finished: boolean }>();

  constructor(client: Transport, options: ScopedEndpointOptions, onClose: () => void) {
    this.#client = client;
    this.#options = options;
    this.#onClose = onClose;
    client.onmessage = (raw) => {
      this.#fromClient = this.#fromClient.then(() => this.#onClientMessage(raw)).catch((error: unknown) => this.#fail(error));
    };
    client.onclose = () => this.close();
    void this.#open();
  }

  async #open(): Promise<void> {
    try {
      const scope = await this.#options.scope();
      this.#downloadsFolder = scope.downloadsFolder;
      this.#defaultContextId = scope.defaultContextId;
      const connect = this.#options.connect ?? connectWebSocket;
      const upstream = await connect(await this.#options.upstream(), { timeoutMs: this.#options.connectTimeoutMs ?? 10_000 });
      if (this.#closed) {
        upstream.close();
        return;
      }
      this.#upstream = upstream;
      upstream.onmessage = (raw) => {
        // Answers to the relay's own commands skip the queue: a decision held in it may be waiting for one.
        if (this.#ownCalls.size > 0 && this.#answerOwn(raw)) return;
        // Chromium reports a created tab's attach before it answers createTarget: the answer is
        // read here so that the queued attach can tell the tab is the client's own.
        if (this.#creating.size > 0) this.#noteCreated(raw);
        this.#fromUpstream = this.#fromUpstream.then(() => this.#onUpstreamMessage(raw)).catch((error: unknown) => this.#fail(error));
      };
      upstream.onclose = () => this.close();
      for (const raw of this.#beforeOpen.splice(0)) upstream.send(raw);
    } catch (error) {
      this.#fail(error);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.close();
    this.#upstream?.close();
    for (const finish of this.#creating.values()) finish();
    // The relay's own commands get no answer any more: settle them as failed rather than leave them pending.
    for (const settle of this.#ownCalls.values()) settle({ error: { code: -32000, message: 'the relay closed' } });
    this.#ownCalls.clear();
    this.#onClose();
  }

  #fail(error: unknown): void {
    debug('relay failed: %o', error);
    this.close();
  }

  #toUpstream(raw: string): void {
    if (this.#closed) return;
    if (this.#upstream === undefined) this.#beforeOpen.push(raw);
    else this.#upstream.send(raw);
  }

  #toClient(message: CdpMessage | string): void {
    if (this.#closed) return;
    this.#client.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  #ownCommand(method: string, params: object, sessionId?: string): Promise<CdpMessage> {
    const id = this.#nextOwnId++;
    return new Promise((resolve) => {
      this.#ownCalls.set(id, resolve);
      this.#toUpstream(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    });
  }

  async #onClientMessage(raw: string): Promise<void> {
    const message = JSON.parse(raw) as CdpMessage;
    const { id, method, params = {}, sessionId } = message;
    if (typeof id !== 'number' || typeof method !== 'string') {
      this.#toUpstream(raw);
      return;
    }
    if (sessionId !== undefined && this.#hiddenSessions.has(sessionId)) {
      this.#toClient({ id, error: { code: -32001, message: `Session with given id not found.` }, sessionId });
      return;
    }
    if (sessionId === undefined && this.#defaultContextId !== undefined && CONTEXT_COMMANDS.has(method) && params['browserContextId'] === undefined) {
      // The client's default context is the owner's own (see TargetScope.defaultContextId).
      const withContext = { ...message, params: { ...params, browserContextId: this.#defaultContextId } };
      if (method === 'Target.createTarget') this.#noteCreating(id);
      this.#clientCalls.set(id, method);
      this.#toUpstream(JSON.stringify(withContext));
      return;
    }
    if (sessionId === undefined) {
      const targetId = params['targetId'];
      if (TARGET_COMMANDS.has(method) && typeof targetId === 'string' && await this.#isHidden({ targetId, type: 'page' })) {
        this.#toClient({ id, error: { code: -32602, message: 'No target with given id found' } });
        return;
      }
      if (method === 'Browser.setDownloadBehavior' && params['browserContextId'] === undefined && this.#downloadsFolder !== undefined) {
        const behavior = String(params['behavior'] ?? 'default');
        this.#downloads = behavior === 'default' ? undefined : {
          behavior,
          downloadPath: typeof params['downloadPath'] === 'string' ? params['downloadPath'] : undefined,
          eventsEnabled: params['eventsEnabled'] === true,
        };
        this.#toClient({ id, result: {} });
        return;
      }
      if (method === 'Target.createTarget') this.#noteCreating(id);
    }
    this.#clientCalls.set(id, method);
    this.#toUpstream(raw);
  }

  /** A `Target.createTarget` of the client is under way: the tab it makes is the client's own. */
  #noteCreating(id: number): void {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => { finish = resolve; });
    this.#creating.set(id, finish);
    this.#creatingDone.add(done);
    void done.then(() => this.#creatingDone.delete(done));
  }

  #noteCreated(raw: string): void {
    const id = responseId(raw);
    const finish = id === undefined ? undefined : this.#creating.get(id);
    if (id === undefined || finish === undefined) return;
    const targetId = (JSON.parse(raw) as CdpMessage).result?.['targetId'];
    if (typeof targetId === 'string') this.#visible.add(targetId);
    this.#creating.delete(id);
    finish();
  }

  /** Settles one of the relay's own commands if `raw` answers it. */
  #answerOwn(raw: string): boolean {
    const id = responseId(raw);
    if (id === undefined || id < OWN_ID_BASE) return false;
    const own = this.#ownCalls.get(id);
    if (own === undefined) return false;
    this.#ownCalls.delete(id);
    own(JSON.parse(raw) as CdpMessage);
    return true;
  }

  async #onUpstreamMessage(raw: string): Promise<void> {
    const message = JSON.parse(raw) as CdpMessage;
    if (typeof message.id === 'number') {
      if (message.id >= OWN_ID_BASE && this.#answerOwn(raw)) return;
      await this.#onResponse(message, raw);
      return;
    }
    const { method, sessionId } = message;
    const params = message.params ?? {};
    if (sessionId !== undefined && this.#hiddenSessions.has(sessionId)) return;
    switch (method) {
      case 'Target.attachedToTarget': {
        const event = params as unknown as Protocol.Target.AttachedToTargetEvent;
        // A child of a session the client has (an iframe, a worker) belongs to a tab it sees.
        if (sessionId === undefined && (await this.#isHidden(event.targetInfo) || await this.#frozen(event))) {
          this.#hiddenSessions.add(event.sessionId);
          if (event.waitingForDebugger) void this.#ownCommand('Runtime.runIfWaitingForDebugger', {}, event.sessionId);
          void this.#ownCommand('Target.detachFromTarget', { sessionId: event.sessionId });
          return;
        }
        break;
      }
      case 'Target.targetCreated':
      case 'Target.targetInfoChanged': {
        const { targetInfo } = params as unknown as Protocol.Target.TargetCreatedEvent;
        if (await this.#isHidden(targetInfo)) return;
        break;
      }
      case 'Target.targetDestroyed':
      case 'Target.targetCrashed':
        if (this.#hidden.has(String(params['targetId']))) return;
        break;
      case 'Target.detachedFromTarget': {
        const detached = String(params['sessionId']);
        if (this.#hiddenSessions.delete(detached)) return;
        break;
      }
      case 'Page.downloadWillBegin':
      case 'Page.downloadProgress':
        this.#toClient(raw);
        await this.#reportDownload(method, params);
        return;
      default:
        break;
    }
    this.#toClient(raw);
  }

  async #onResponse(message: CdpMessage, raw: string): Promise<void> {
    const id = message.id as number;
    const method = this.#clientCalls.get(id);
    this.#clientCalls.delete(id);
    if (method === 'Target.getTargets' && Array.isArray(message.result?.['targetInfos'])) {
      const infos = message.result['targetInfos'] as Protocol.Target.TargetInfo[];
      const shown: Protocol.Target.TargetInfo[] = [];
      for (const info of infos) if (!(await this.#isHidden(info))) shown.push(info);
      this.#toClient({ ...message, result: { ...message.result, targetInfos: shown } });
      return;
    }
    this.#toClient(raw);
  }

  /**
   * A tab that was already open and does not answer an evaluation within {@link FROZEN_PROBE_MS} (as long as helpers wait, page-guard.ts)
   * is frozen by a JavaScript dialog its owner left pending (in `shared` mode that can be the tab
   * the default REPL and the default executor share). Playwright would wait for it forever while
   * connecting, so this connection leaves it out.
   */
  async #frozen(event: Protocol.Target.AttachedToTargetEvent): Promise<boolean> {
    if (event.waitingForDebugger || event.targetInfo.type !== 'page') return false;
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      this.#ownCommand('Runtime.evaluate', { expression: '0', returnByValue: true }, event.sessionId).then(() => true),
      new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), FROZEN_PROBE_MS); }),
    ]);
    clearTimeout(timer);
    if (answered) return false;
    debug('left out tab %s: its renderer is blocked (a pending dialog)', event.targetInfo.targetId);
    this.#hidden.add(event.targetInfo.targetId);
    this.#visible.delete(event.targetInfo.targetId);
    return true;
  }

  /** Whether the client must not see `info`'s target; decided once per target. */
  async #isHidden(info: Pick<Protocol.Target.TargetInfo, 'targetId' | 'type'> & { openerId?: string | undefined }): Promise<boolean> {
    const { targetId } = info;
    if (this.#visible.has(targetId)) return false;
    if (this.#hidden.has(targetId)) return true;
    const decide = (hidden: boolean): boolean => {
      (hidden ? this.#hidden : this.#visible).add(targetId);
      return hidden;
    };
    // Workers and the like are not tabs: they follow the page that has them, if any.
    if (info.type !== 'page') return info.openerId !== undefined && this.#hidden.has(info.openerId);
    // A tab the client itself is opening is its own; wait for its answer before deciding.
    if (this.#creatingDone.size > 0) await Promise.all([...this.#creatingDone]);
    if (this.#visible.has(targetId)) return false;
    const scope = await this.#options.scope();
    this.#downloadsFolder = scope.downloadsFolder;
    if (scope.foreign[targetId] !== undefined) return decide(true);
    if (scope.ownTargetIds.includes(targetId)) return decide(false);
    // A popup shares its opener's fate.
    if (info.openerId !== undefined) {
      if (this.#hidden.has(info.openerId) || scope.foreign[info.openerId] !== undefined) return decide(true);
      if (this.#visible.has(info.openerId)) return decide(false);
    }
    return decide(scope.mode === 'own');
  }

  /** Client download events and files, from the `Page.download*` events of a tab it sees. */
  async #reportDownload(method: string, params: Record<string, unknown>): Promise<void> {
    const settings = this.#downloads;
    const folder = this.#downloadsFolder;
    if (settings === undefined || folder === undefined || settings.behavior === 'deny') return;
    const guid = String(params['guid']);
    if (method === 'Page.downloadWillBegin') {
      if (this.#downloadGuids.has(guid)) return;
      this.#downloadGuids.set(guid, { suggestedFilename: String(params['suggestedFilename'] ?? guid), finished: false });
      if (settings.eventsEnabled) this.#toClient({ method: 'Browser.downloadWillBegin', params });
      return;
    }
    const download = this.#downloadGuids.get(guid);
    if (download === undefined || download.finished) return;
    const state = params['state'];
    if (state === 'completed' || state === 'canceled') download.finished = true;
    if (state === 'completed' && settings.downloadPath !== undefined) {
      const name = settings.behavior === 'allowAndName' ? guid : download.suggestedFilename;
      await placeFile(path.join(folder, guid), path.join(settings.downloadPath, name)).catch((error: unknown) => debug('could not hand over download %s: %o', guid, error));
    }
    if (settings.eventsEnabled) this.#toClient({ method: 'Browser.downloadProgress', params });
  }
}

/** The id of a CDP response, read without parsing it (Chromium writes `{"id":N,` first), or undefined for an event. */
function responseId(raw: string): number | undefined {
  const match = /^\{"id":(\d+),/.exec(raw);
  return match === null ? undefined : Number(match[1]);
}
