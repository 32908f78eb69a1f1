/**
 * The CDP side of a browser's telemetry (docs/telemetry.md): a connection of its own, on the main
 * thread, that follows every page tab with `Target.setAutoAttach` (flattened sessions) and turns
 * what Chromium reports into the SDK's telemetry events:
 *
 * - console: `Runtime.consoleAPICalled` → `console_log` / `console_error`, `Runtime.exceptionThrown` → `console_error`;
 * - network: `Network.requestWillBeSent` → `network_request`, `Network.loadingFinished` (with what
 *   `responseReceived` said and a bounded text body from `Network.getResponseBody`) → `network_response`,
 *   `Network.loadingFailed` → `network_loading_failed`;
 * - page: `Target.attachedToTarget` → `page_tab_opened`, `Page.frameNavigated` → `page_navigation`,
 *   `Page.domContentEventFired` → `page_dom_content_loaded`, `Page.loadEventFired` → `page_load`;
 * - interaction: a page script (added to every new document and run in the current one) reports
 *   clicks, keys and settled scrolls through a CDP binding (`Runtime.addBinding`) → `interaction_click`,
 *   `interaction_key`, `interaction_scroll_settled`.
 *
 * Only the domains of the categories asked for are enabled. The owner ({@link BrowserTelemetry})
 * starts one when a CDP category is on and closes it when none is, or when the browser ends.
 * Tabs are not paused on start (`waitForDebuggerOnStart: false`), so that a slow collector never
 * holds up a page: the first events of a brand-new tab can be missed.
 */
import { debuglog } from 'node:util';

import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpConnection, CdpEvent } from '../../common/cdp/cdp-connection.js';
import { Resource } from '../../common/resource.js';
import { waitAtMost } from '../../common/wait.js';
import type { TelemetryCategory } from './config.js';

const debug = debuglog('browser-repl:telemetry');

/** One event as the SDK's `BrowserTelemetryEvent` union carries it. */
export interface TelemetryEvent {
  category: string;
  type: string;
  source: { kind: 'cdp' | 'kernel_api' | 'extension' | 'local_process'; event?: string; metadata?: Record<string, string> };
  /** Unix microseconds. */
  ts: number;
  data?: Record<string, unknown>;
  truncated?: boolean;
}

/** Bodies of structured text types (JSON, XML, form data) are cut here, other text types at {@link TEXT_BODY_BYTES}. */
export const STRUCTURED_BODY_BYTES = 8 * 1024;
export const TEXT_BODY_BYTES = 4 * 1024;
/** One console argument, one header value, a post body: cut here. */
const MAX_STRING = 4 * 1024;
const MAX_ARGS = 16;
/** Requests remembered between request and response, per collector (oldest forgotten first). */
const MAX_TRACKED_REQUESTS = 2_000;
const CLOSE_BUDGET_MS = 2_000;
/** Reconnect attempts after the CDP connection dropped (a Chromium relaunch), and the pause between them. */
const RECONNECT_ATTEMPTS = 3;
const RECONNECT_PAUSE_MS = 500;
/** The page binding the interaction script reports through. */
export const INTERACTION_BINDING = '__chromiumReplTelemetry';

export interface CollectorOptions {
  endpoint: () => Promise<string>;
  categories: ReadonlySet<TelemetryCategory>;
  emit: (event: TelemetryEvent) => void;
}

interface TabState {
  targetId: string;
  sessionId: string;
  url: string;
  frameId: string | undefined;
  loaderId: string | undefined;
  navSeq: number;
}

interface TrackedRequest {
  method: string | undefined;
  url: string | undefined;
  resourceType: string | undefined;
  frameId: string | undefined;
  loaderId: string | undefined;
  response?: { status: number; statusText: string; headers: Record<string, unknown>; mimeType: string } | undefined;
}

/** See the module comment. */
export class TelemetryCollector extends Resource {
  readonly #options: CollectorOptions;
  readonly #link: BrowserLink;
  readonly #tabs = new Map<string, TabState>();
  readonly #requests = new Map<string, TrackedRequest>();
  #starting: Promise<void>;
  #reconnecting: Promise<void> | undefined;

  constructor(options: CollectorOptions) {
    super();
    this.#options = options;
    this.#link = new BrowserLink({
      endpointProvider: () => options.endpoint(),
      onEvent: (event) => this.#onEvent(event),
      onConnectionClose: () => this.#onDrop(),
    });
    this.#starting = this.#start().catch((error: unknown) => this.#initFailed(error));
  }

  /** Resolves once the first setup finished (or failed: then a `monitor_init_failed` was emitted). */
  get started(): Promise<void> {
    return this.#starting;
  }

  protected async closeGracefully(): Promise<void> {
    await waitAtMost(this.#starting, CLOSE_BUDGET_MS);
    await this.#link.close();
    this.#tabs.clear();
    this.#requests.clear();
  }

  #has(category: TelemetryCategory): boolean {
    return this.#options.categories.has(category);
  }

  async #start(): Promise<void> {
    const connection = await this.#link.connection({ method: 'Target.setAutoAttach' });
    if (this.closed) return;
    // Browser-level auto-attach also attaches the page tabs that exist already.
    await connection.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'page' }] });
  }

  #initFailed(error: unknown): void {
    if (this.closed) return;
    debug('setup failed: %s', error instanceof Error ? error.message : String(error));
    this.#emit('monitor', 'monitor_init_failed', 'Target.setAutoAttach', { step: 'Target.setAutoAttach' });
  }

  /** The connection dropped while the collector runs (Chromium was relaunched): attach again. */
  #onDrop(): void {
    if (this.closed || this.#reconnecting !== undefined) return;
    this.#tabs.clear();
    this.#requests.clear();
    this.#emit('monitor', 'monitor_disconnected', undefined, { reason: 'chrome_restarted' });
    const began = Date.now();
    this.#reconnecting = (async () => {
      for (let attempt = 0; attempt < RECONNECT_ATTEMPTS && !this.closed; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS).unref());
        if (this.closed) return;
        try {
          await this.#start();
          this.#emit('monitor', 'monitor_reconnected', undefined, { reconnect_duration_ms: Date.now() - began });
          return;
        } catch (error) {
          debug('reconnect %d failed: %s', attempt + 1, error instanceof Error ? error.message : String(error));
        }
      }
      if (!this.closed) this.#emit('monitor', 'monitor_reconnect_failed', undefined, { reason: 'reconnect_exhausted' });
    })().finally(() => {
      this.#reconnecting = undefined;
    });
    this.#starting = this.#starting.then(() => this.#reconnecting);
  }

  #onEvent(event: CdpEvent): void {
    if (this.closed) return;
    const params = event.params as Record<string, any>;
    if (event.method === 'Target.attachedToTarget') {
      void this.#attached(params['sessionId'] as string, params['targetInfo'] as { targetId: string; type: string; url: string; openerId?: string });
      return;
    }
    if (event.method === 'Target.detachedFromTarget') {
      this.#tabs.delete(params['sessionId'] as string);
      return;
    }
    const tab = event.sessionId === undefined ? undefined : this.#tabs.get(event.sessionId);
    if (tab === undefined) return;
    switch (event.method) {
      case 'Runtime.consoleAPICalled': return this.#console(tab, params);
      case 'Runtime.exceptionThrown': return this.#exception(tab, params);
      case 'Runtime.bindingCalled': return this.#interaction(tab, params);
      case 'Network.requestWillBeSent': return this.#request(tab, params);
      case 'Network.responseReceived': return this.#response(params);
      case 'Network.loadingFinished': return void this.#finished(tab, params);
      case 'Network.loadingFailed': return this.#failed(tab, params);
      case 'Page.frameNavigated': return this.#navigated(tab, params);
      case 'Page.domContentEventFired': return this.#pageEvent(tab, 'page_dom_content_loaded', event.method, params);
      case 'Page.loadEventFired': return this.#pageEvent(tab, 'page_load', event.method, params);
      default:
    }
  }

  async #attached(sessionId: string, info: { targetId: string; type: string; url: string; openerId?: string }): Promise<void> {
    if (info.type !== 'page') return;
    const connection = this.#link.current;
    if (connection === undefined) return;
    const tab: TabState = { targetId: info.targetId, sessionId, url: info.url, frameId: undefined, loaderId: undefined, navSeq: 0 };
    this.#tabs.set(sessionId, tab);
    if (this.#has('page')) {
      const data: Record<string, unknown> = { target_id: info.targetId };
      if (info.openerId !== undefined) data['opener_id'] = info.openerId;
      this.#emit('page', 'page_tab_opened', 'Target.attachedToTarget', data);
    }
    try {
      await this.#enable(connection, sessionId);
    } catch (error) {
      // A tab that closed while being set up: nothing to follow.
      debug('setting up %s failed: %s', info.targetId, error instanceof Error ? error.message : String(error));
    }
  }

  async #enable(connection: CdpConnection, sessionId: string): Promise<void> {
    const on = { sessionId };
    const steps: Array<Promise<unknown>> = [];
    // Page events (and the frame ids every context carries) need Page; the main frame is read once.
    steps.push(connection.send('Page.enable', undefined, on).then(() => connection.send('Page.getFrameTree', undefined, on)).then((tree) => {
      const tab = this.#tabs.get(sessionId);
      if (tab === undefined) return;
      tab.frameId ??= tree.frameTree.frame.id;
      tab.loaderId ??= tree.frameTree.frame.loaderId;
      tab.url = tree.frameTree.frame.url;
    }));
    if (this.#has('console') || this.#has('interaction')) steps.push(connection.send('Runtime.enable', undefined, on));
    if (this.#has('network')) steps.push(connection.send('Network.enable', { maxPostDataSize: MAX_STRING }, on));
    if (this.#has('interaction')) {
      steps.push(connection.send('Runtime.addBinding', { name: INTERACTION_BINDING }, on));
      steps.push(connection.send('Page.addScriptToEvaluateOnNewDocument', { source: INTERACTION_SCRIPT }, on));
      steps.push(connection.send('Runtime.evaluate', { expression: INTERACTION_SCRIPT }, on));
    }
    await Promise.all(steps);
  }

  #context(tab: TabState, extra: { frameId?: string | undefined; loaderId?: string | undefined; url?: string | undefined } = {}): Record<string, unknown> {
    const context: Record<string, unknown> = { target_id: tab.targetId, session_id: tab.sessionId, target_type: 'page' };
    const frameId = extra.frameId ?? tab.frameId;
    const loaderId = extra.loaderId ?? tab.loaderId;
    if (frameId !== undefined) context['frame_id'] = frameId;
    if (loaderId !== undefined) context['loader_id'] = loaderId;
    context['url'] = extra.url ?? tab.url;
    context['nav_seq'] = tab.navSeq;
    return context;
  }

  #console(tab: TabState, params: Record<string, any>): void {
    if (!this.#has('console')) return;
    const type = String(params['type']);
    const cut = { truncated: false };
    const all = Array.isArray(params['args']) ? (params['args'] as unknown[]) : [];
    if (all.length > MAX_ARGS) cut.truncated = true;
    const args = all.slice(0, MAX_ARGS).map((arg) => bounded(remoteText(arg), cut));
    const data: Record<string, unknown> = { ...this.#context(tab), level: type, text: args[0] ?? '', args };
    if (params['stackTrace'] !== undefined) data['stack_trace'] = params['stackTrace'];
    this.#emit('console', type === 'error' ? 'console_error' : 'console_log', 'Runtime.consoleAPICalled', data, cut.truncated);
  }

  #exception(tab: TabState, params: Record<string, any>): void {
    if (!this.#has('console')) return;
    const details = (params['exceptionDetails'] ?? {}) as Record<string, any>;
    const description = typeof details['exception']?.description === 'string' ? (details['exception'].description as string).split('\n')[0] : undefined;
    const cut = { truncated: false };
    const text = bounded(description === undefined ? String(details['text'] ?? '') : `${String(details['text'] ?? 'Uncaught')} ${description}`, cut);
    const data: Record<string, unknown> = { ...this.#context(tab), text, line: details['lineNumber'], column: details['columnNumber'] };
    if (typeof details['url'] === 'string') data['source_url'] = details['url'];
    if (details['stackTrace'] !== undefined) data['stack_trace'] = details['stackTrace'];
    this.#emit('console', 'console_error', 'Runtime.exceptionThrown', data, cut.truncated);
  }

  #request(tab: TabState, params: Record<string, any>): void {
    if (!this.#has('network')) return;
    const request = params['request'] as { url: string; method: string; headers: Record<string, unknown>; postData?: string };
    const requestId = String(params['requestId']);
    this.#track(requestId, { method: request.method, url: request.url, resourceType: params['type'], frameId: params['frameId'], loaderId: params['loaderId'] });
    const cut = { truncated: false };
    const data: Record<string, unknown> = {
      ...this.#context(tab, { frameId: params['frameId'], loaderId: params['loaderId'], url: request.url }),
      request_id: requestId, method: request.method, headers: boundedHeaders(request.headers, cut),
      resource_type: params['type'], is_redirect: params['redirectResponse'] !== undefined,
    };
    if (typeof params['documentURL'] === 'string') data['document_url'] = params['documentURL'];
    if (typeof params['initiator']?.type === 'string') data['initiator_type'] = params['initiator'].type;
    if (params['redirectResponse'] !== undefined) data['redirect_url'] = params['redirectResponse'].url;
    if (typeof request.postData === 'string') data['post_data'] = bounded(request.postData, cut);
    this.#emit('network', 'network_request', 'Network.requestWillBeSent', data, cut.truncated);
  }

  #response(params: Record<string, any>): void {
    const tracked = this.#requests.get(String(params['requestId']));
    if (tracked === undefined) return;
    const response = params['response'] as { status: number; statusText: string; headers: Record<string, unknown>; mimeType: string };
    tracked.response = { status: response.status, statusText: response.statusText, headers: response.headers, mimeType: response.mimeType };
  }

  async #finished(tab: TabState, params: Record<string, any>): Promise<void> {
    if (!this.#has('network')) return;
    const requestId = String(params['requestId']);
    const tracked = this.#requests.get(requestId);
    this.#requests.delete(requestId);
    if (tracked?.response === undefined) return;
    const { response } = tracked;
    const cut = { truncated: false };
    const data: Record<string, unknown> = {
      ...this.#context(tab, { frameId: tracked.frameId, loaderId: tracked.loaderId, url: tracked.url }),
      request_id: requestId, method: tracked.method, status: response.status, status_text: response.statusText,
      headers: boundedHeaders(response.headers, cut), mime_type: response.mimeType, resource_type: tracked.resourceType,
    };
    const limit = bodyLimit(response.mimeType);
    const connection = this.#link.current;
    if (limit > 0 && connection !== undefined) {
      try {
        const { body, base64Encoded } = await connection.send('Network.getResponseBody', { requestId }, { sessionId: tab.sessionId, timeoutMs: 5_000 });
        if (!base64Encoded) {
          const bytes = Buffer.from(body, 'utf8');
          if (bytes.length > limit) cut.truncated = true;
          data['body'] = bytes.length > limit ? bytes.subarray(0, limit).toString('utf8').replace(/\uFFFD$/, '') : body;
        }
      } catch {
        // Evicted, a redirect, or a tab gone: the event goes out without its body.
      }
    }
    if (this.closed) return;
    this.#emit('network', 'network_response', 'Network.loadingFinished', data, cut.truncated);
  }

  #failed(tab: TabState, params: Record<string, any>): void {
    if (!this.#has('network')) return;
    const requestId = String(params['requestId']);
    const tracked = this.#requests.get(requestId);
    this.#requests.delete(requestId);
    const data: Record<string, unknown> = {
      ...this.#context(tab, { frameId: tracked?.frameId, loaderId: tracked?.loaderId, url: tracked?.url }),
      request_id: requestId, error_text: params['errorText'], canceled: params['canceled'] === true, resource_type: params['type'],
    };
    this.#emit('network', 'network_loading_failed', 'Network.loadingFailed', data);
  }

  #navigated(tab: TabState, params: Record<string, any>): void {
    const frame = params['frame'] as { id: string; parentId?: string; loaderId: string; url: string };
    if (frame.parentId === undefined) {
      // A top-level navigation starts a new epoch for everything the tab reports after it.
      tab.frameId = frame.id;
      tab.loaderId = frame.loaderId;
      tab.url = frame.url;
      tab.navSeq++;
    }
    if (!this.#has('page')) return;
    const data: Record<string, unknown> = { frame_id: frame.id, loader_id: frame.loaderId, url: frame.url, session_id: tab.sessionId, target_id: tab.targetId, target_type: 'page' };
    if (frame.parentId !== undefined) data['parent_frame_id'] = frame.parentId;
    this.#emit('page', 'page_navigation', 'Page.frameNavigated', data);
  }

  #pageEvent(tab: TabState, type: string, method: string, params: Record<string, any>): void {
    if (!this.#has('page')) return;
    this.#emit('page', type, method, { ...this.#context(tab), cdp_timestamp: params['timestamp'] });
  }

  #interaction(tab: TabState, params: Record<string, any>): void {
    if (!this.#has('interaction') || params['name'] !== INTERACTION_BINDING) return;
    let report: Record<string, unknown>;
    try {
      report = JSON.parse(String(params['payload'])) as Record<string, unknown>;
    } catch {
      return;
    }
    // The binding is callable by page scripts too: only the known kinds and fields pass, bounded.
    const cut = { truncated: false };
    const text = (key: string): string | undefined => (typeof report[key] === 'string' ? bounded(report[key] as string, cut) : undefined);
    const number = (key: string): number | undefined => (typeof report[key] === 'number' && Number.isFinite(report[key]) ? report[key] as number : undefined);
    let type: string;
    let fields: Record<string, unknown>;
    switch (report['kind']) {
      case 'click':
        type = 'interaction_click';
        fields = { selector: text('selector'), tag: text('tag'), text: text('text'), x: number('x'), y: number('y') };
        break;
      case 'key':
        type = 'interaction_key';
        fields = { key: text('key'), selector: text('selector'), tag: text('tag') };
        break;
      case 'scroll':
        type = 'interaction_scroll_settled';
        fields = { from_x: number('from_x'), from_y: number('from_y'), to_x: number('to_x'), to_y: number('to_y'), target_selector: text('target_selector') };
        break;
      default:
        return;
    }
    for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
    this.#emit('interaction', type, 'Runtime.bindingCalled', { ...this.#context(tab), ...fields }, cut.truncated);
  }

  #track(requestId: string, request: TrackedRequest): void {
    // A redirect reuses its request id: the hop replaces the one before it.
    this.#requests.delete(requestId);
    this.#requests.set(requestId, request);
    if (this.#requests.size > MAX_TRACKED_REQUESTS) this.#requests.delete(this.#requests.keys().next().value!);
  }

  #emit(category: string, type: string, method: string | undefined, data: Record<string, unknown> | undefined, truncated = false): void {
    const event: TelemetryEvent = { category, type, source: method === undefined ? { kind: 'local_process' } : { kind: 'cdp', event: method }, ts: Date.now() * 1000 };
    if (data !== undefined) event.data = data;
    if (truncated) event.truncated = true;
    this.#options.emit(event);
  }
}

/** The byte limit of a response body of `mimeType`: 0 for binary types (no body). */
export function bodyLimit(mimeType: string): number {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if (/json|xml|x-www-form-urlencoded|multipart\/form-data/.test(type)) return STRUCTURED_BODY_BYTES;
  if (type.startsWith('text/') || type === 'application/javascript' || type === 'application/ecmascript') return TEXT_BODY_BYTES;
  return 0;
}

/** A console argument as the console would print it, near enough. */
function remoteText(arg: unknown): string {
  const object = arg as { type?: string; value?: unknown; unserializableValue?: string; description?: string };
  if (object.unserializableValue !== undefined) return object.unserializableValue;
  if (object.type === 'string') return String(object.value);
  if (object.value !== undefined) return typeof object.value === 'object' ? JSON.stringify(object.value) : String(object.value);
  if (object.description !== undefined) return object.description;
  return object.type ?? '';
}

function bounded(text: string, cut: { truncated: boolean }): string {
  if (text.length <= MAX_STRING) return text;
  cut.truncated = true;
  return text.slice(0, MAX_STRING);
}

function boundedHeaders(headers: Record<string, unknown> | undefined, cut: { truncated: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name] = typeof value === 'string' ? bounded(value, cut) : value;
  return out;
}

/**
 * Runs in every page (each new document, and the current one when the collector attaches): reports
 * clicks, keys and scrolls that settled (no scroll for 300 ms) through the binding. Keys typed into
 * password fields are reported without their value.
 */
const INTERACTION_SCRIPT = `(() => {
  const binding = ${JSON.stringify(INTERACTION_BINDING)};
  if (typeof globalThis[binding] !== 'function' || globalThis[binding + 'Installed']) return;
  Object.defineProperty(globalThis, binding + 'Installed', { value: true });
  const send = globalThis[binding].bind(globalThis);
  const selector = (node) => {
    if (!(node instanceof Element)) return node === document || node === window ? 'document' : '';
    const parts = [];
    for (let el = node; el && el.nodeType === 1 && parts.length < 5; el = el.parentElement) {
      if (el.id) { parts.unshift('#' + CSS.escape(el.id)); break; }
      let part = el.tagName.toLowerCase();
      const parent = el.parentElement;
      if (parent) {
        const same = [...parent.children].filter((child) => child.tagName === el.tagName);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(el) + 1) + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const report = (value) => { try { send(JSON.stringify(value)); } catch {} };
  addEventListener('click', (event) => {
    const el = event.target instanceof Element ? event.target : null;
    report({ kind: 'click', selector: selector(el), tag: el ? el.tagName : undefined,
      text: el ? (el.innerText || el.textContent || '').trim().slice(0, 200) : undefined, x: event.clientX, y: event.clientY });
  }, true);
  addEventListener('keydown', (event) => {
    const el = document.activeElement;
    const secret = el instanceof HTMLInputElement && el.type === 'password';
    report({ kind: 'key', key: secret ? undefined : event.key, selector: selector(el), tag: el ? el.tagName : undefined });
  }, true);
  const scrolls = new Map();
  addEventListener('scroll', (event) => {
    const target = event.target === document ? document.scrollingElement || document.documentElement : event.target;
    if (!(target instanceof Element)) return;
    let state = scrolls.get(target);
    if (!state) { state = { from_x: target.scrollLeft, from_y: target.scrollTop, timer: 0 }; scrolls.set(target, state); }
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      scrolls.delete(target);
      report({ kind: 'scroll', from_x: state.from_x, from_y: state.from_y, to_x: target.scrollLeft, to_y: target.scrollTop,
        target_selector: event.target === document ? 'document' : selector(target) });
    }, 300);
  }, true);
})();`;
