/**
 * The main thread's own small CDP connection to the browser, used only to own the tabs of named
 * executors: open one in the background, close it, and read tab URLs for listings. Tabs are
 * opened and closed here, never inside a worker, so that DELETE and shutdown can always find and
 * close them even when the worker that used them is gone.
 *
 * One browser-level WebSocket, opened on first use and reopened (at the browser's current
 * endpoint) after it closes, for example when Chromium was relaunched.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { debuglog } from 'node:util';
import WebSocket from 'ws';

const debug = debuglog('browser-repl:executor');

/** Bound of one command (and of opening the socket). */
const COMMAND_TIMEOUT_MS = 10_000;
/** How long `close` waits for a closed tab to leave the target list, and how often it looks. */
const CLOSE_SETTLE_MS = 5_000;
const CLOSE_POLL_MS = 50;

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Opens, closes and lists tabs over one browser-level CDP WebSocket of the main thread. */
export class BrowserTabs {
  readonly #endpoint: () => Promise<string>;
  #socket: Promise<WebSocket> | null = null;
  #current: WebSocket | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;

  /** `endpoint` answers the browser's current DevTools endpoint (it may launch the browser). */
  constructor(endpoint: () => Promise<string>) {
    this.#endpoint = endpoint;
  }

  /** Opens `about:blank` in a new background tab of the default context; returns its target id. */
  async create(): Promise<string> {
    const { targetId } = await this.#send('Target.createTarget', { url: 'about:blank', background: true });
    if (typeof targetId !== 'string') throw new Error('Target.createTarget answered without a targetId');
    return targetId;
  }

  /**
   * Closes a tab and waits (≤ 5 s) until Chromium no longer lists it: `Target.closeTarget`
   * answers before the target is gone, and a listing right after must not show it. A tab that is
   * already gone counts as closed.
   */
  async close(targetId: string): Promise<void> {
    try {
      await this.#send('Target.closeTarget', { targetId });
    } catch (error) {
      if (/No target with given id/i.test((error as Error).message)) return;
      throw error;
    }
    const until = Date.now() + CLOSE_SETTLE_MS;
    while ((await this.urls()).has(targetId) && Date.now() < until) await sleep(CLOSE_POLL_MS);
  }

  /** targetId → URL of every page target. */
  async urls(): Promise<Map<string, string>> {
    const { targetInfos } = await this.#send('Target.getTargets', {}) as { targetInfos?: { targetId: string; type: string; url: string }[] };
    return new Map((targetInfos ?? []).filter((info) => info.type === 'page').map((info) => [info.targetId, info.url]));
  }

  /** Closes the socket; later commands fail. */
  async dispose(): Promise<void> {
    this.#closed = true;
    const socket = await this.#socket?.catch(() => null);
    socket?.terminate();
  }

  async #send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.#closed) throw new Error('the executor tab connection is closed');
    const socket = await this.#open();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method} got no answer within ${COMMAND_TIMEOUT_MS / 1000}s`));
      }, COMMAND_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify({ id, method, params }), (error) => {
        if (error !== undefined && error !== null) this.#fail(id, error);
      });
    });
  }

  #open(): Promise<WebSocket> {
    this.#socket ??= this.#connect();
    const socket = this.#socket;
    // A failed open is forgotten so that the next command tries again.
    socket.catch(() => {
      if (this.#socket === socket) this.#socket = null;
    });
    return socket;
  }

  async #connect(): Promise<WebSocket> {
    const url = await webSocketUrl(await this.#endpoint());
    const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: COMMAND_TIMEOUT_MS, maxPayload: 64 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('error', (error) => debug('tab connection error: %s', error.message));
    socket.on('message', (data) => this.#onMessage(String(data)));
    this.#current = socket;
    socket.once('close', () => {
      if (this.#current === socket) {
        this.#current = null;
        this.#socket = null;
      }
      for (const id of [...this.#pending.keys()]) this.#fail(id, new Error('the browser connection closed'));
    });
    if (this.#closed) socket.terminate();
    return socket;
  }

  #onMessage(text: string): void {
    let message: { id?: number; result?: Record<string, unknown>; error?: { message?: string } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error !== undefined) pending.reject(new Error(message.error.message ?? 'CDP error'));
    else pending.resolve(message.result ?? {});
  }

  #fail(id: number, error: Error): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(error);
  }
}

/** `ws://…/devtools/browser/<id>` as is; `http://host:port` through `/json/version`. */
async function webSocketUrl(endpoint: string): Promise<string> {
  const url = new URL(endpoint);
  if (url.pathname !== '/' && url.pathname !== '') {
    if (url.protocol === 'http:') url.protocol = 'ws:';
    if (url.protocol === 'https:') url.protocol = 'wss:';
    return url.href;
  }
  const version = new URL('/json/version', url.href);
  if (version.protocol === 'ws:') version.protocol = 'http:';
  if (version.protocol === 'wss:') version.protocol = 'https:';
  const response = await fetch(version, { signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) });
  const body = await response.json() as { webSocketDebuggerUrl?: unknown };
  if (typeof body.webSocketDebuggerUrl !== 'string') throw new Error(`${version.href} has no webSocketDebuggerUrl`);
  return body.webSocketDebuggerUrl;
}
