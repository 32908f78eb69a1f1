/**
 * The WebMCP monitor of one browser: a long-lived CDP connection of its own (not a REPL's, not
 * Playwright's), which attaches every tab and out-of-process frame, enables Chromium's `WebMCP`
 * domain there, and keeps the page tools they declare in a {@link ToolRegistry}. Listings are
 * answered from what it knows; invocations go to the session that owns the tool.
 *
 * It starts with the browser (`BrowserManager.onReady`) and auto-attaches with
 * `waitForDebuggerOnStart`, so a new tab or frame runs no script before `WebMCP.enable`: every
 * tool it registers is reported, in child frames too (Chromium replays only the top frame's
 * tools on `WebMCP.enable`). Targets that were already running when it attached (a browser we
 * attach to, a reconnect) are backfilled (lib/webmcp/backfill.ts) without ever reading
 * `document.modelContext` from injected code, which can kill the renderer (docs/webmcp.md,
 * "How it works").
 *
 * A dropped connection (Chromium restarted, closed) ends every invocation as outcome unknown and
 * forgets every ref; the next call connects again and hands out new ones.
 */
import { debuglog } from 'node:util';

import { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpConnection, CdpEvent } from '../../common/cdp/cdp-connection.js';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import { valueWithin, waitAtMost } from '../../common/wait.js';
import type { WebMcpInvocation, WebMcpTool } from '../../common/protocol/webmcp-messages.js';
import { backfillFrames } from './backfill.js';
import type { ContextDescription } from './backfill.js';
import { InvocationBook, checkInvocation, outcomeUnknown, toInvocation } from './invocations.js';
import type { ToolResponse } from './invocations.js';
import { ToolRegistry } from './tool-registry.js';
import type { DropReason, ReportedTool, ToolRecord } from './tool-registry.js';
import type { WebMcpInvokeOptions, WebMcpListOptions, WebMcpScope, WebMcpTools } from './types.js';

const debug = debuglog('browser-repl:webmcp');

/** Only tabs and frames declare tools; workers and the browser's own targets are never paused or attached. */
const TARGET_FILTER = [{ type: 'page' }, { type: 'iframe' }];
/** Budget of one session's set-up commands; the target is resumed whatever happens. */
const SESSION_SETUP_TIMEOUT_MS = 5_000;
/** Attempts a backfill gets (the set-up's, then listings'), so a frame that never answers costs a bounded number of listings. */
const BACKFILL_ATTEMPTS = 4;
/** A listing waits this long without a change (a page still registering) before it answers… */
const QUIET_MS = 100;
/** …but never longer than this (Kernel's cap). */
const SETTLE_CAP_MS = 2_000;
/**
 * After the tool's frame commits a new document with no answer yet: Chromium answers a tool that
 * navigated its own document about 20 ms after the commit (with the new page's JSON-LD); a
 * navigation by anyone else is never answered (docs/webmcp.md, "How it works"). Waiting this
 * long tells the two apart well inside the 2 s.
 */
const NAVIGATION_GRACE_MS = 1_000;
/**
 * How long a listing waits for its flush of each session (below): a tab frozen by a dialog
 * cannot answer, and must not hold up the listing of every other tab.
 */
const FLUSH_TIMEOUT_MS = 300;
/** A form that is not submitted automatically answers at once only when its input was invalid. */
const FORM_ERROR_GRACE_MS = 150;
const CANCEL_TIMEOUT_MS = 2_000;

export interface WebMcpMonitorOptions {
  /** The browser's current DevTools endpoint (it may launch the browser). */
  endpoint: () => Promise<string>;
  /** Browser contexts isolated for agent-tool sessions: left out of unscoped listings. */
  isolatedContexts?: (() => ReadonlySet<string>) | undefined;
}

/** `Page.FrameTree`, as far as the monitor reads it. */
interface FrameTreeNode {
  frame: { id: string; parentId?: string; url: string; loaderId: string };
  childFrames?: FrameTreeNode[];
}

/** Records every frame of a `Page.getFrameTree` answer. */
function recordFrameTree(registry: ToolRegistry, sessionId: string, node: FrameTreeNode): void {
  registry.frameSeen(sessionId, { id: node.frame.id, parentId: node.frame.parentId, url: node.frame.url, loaderId: node.frame.loaderId });
  for (const child of node.childFrames ?? []) recordFrameTree(registry, sessionId, child);
}

interface TargetInfoParams {
  targetId: string;
  type: string;
  title: string;
  url: string;
  browserContextId?: string;
}

/** Everything that belongs to one connection; replaced, never repaired, when it drops. */
class Connection {
  readonly registry: ToolRegistry;
  readonly book = new InvocationBook();
  /** Set-ups in flight (attach, frame tree, enable, backfill): a listing waits for them. */
  readonly setups = new Set<Promise<void>>();
  /** Invocations waiting for an answer, told when their frame or session goes. */
  readonly watchers = new Set<InvocationWatcher>();
  /** Backfills listening for the execution contexts of their session. */
  readonly contextListeners = new Map<string, (context: ContextDescription) => void>();
  /**
   * Sessions whose frame tree or backfill failed (a command timed out on a loaded machine), with
   * the attempts made: the next listing tries again, since no event would bring those tools.
   */
  readonly unfinishedBackfills = new Map<string, { targetId: string; attempts: number }>();
  readonly closed: Promise<void>;
  #markClosed!: () => void;

  constructor(readonly cdp: CdpConnection) {
    this.closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
    this.registry = new ToolRegistry({
      framesDropped: (sessionId, frameIds, reason) => {
        for (const watcher of [...this.watchers]) watcher.framesDropped(sessionId, frameIds, reason);
      },
      sessionDropped: (sessionId) => {
        for (const watcher of [...this.watchers]) watcher.sessionDropped(sessionId);
      },
    });
  }

  markClosed(): void {
    this.#markClosed();
    for (const watcher of [...this.watchers]) watcher.connectionClosed();
  }
}

interface InvocationWatcher {
  framesDropped(sessionId: string, frameIds: ReadonlySet<string>, reason: DropReason): void;
  sessionDropped(sessionId: string): void;
  connectionClosed(): void;
}

/** The page tools of one browser; see the module comment. */
export class WebMcpMonitor extends Resource implements WebMcpTools {
  readonly #link: BrowserLink;
  readonly #isolatedContexts: () => ReadonlySet<string>;
  #connection: Connection | undefined;
  #starting: Promise<Connection> | undefined;
  /** The endpoint `start(endpoint)` was given: used by the connect it starts, so starting never asks the manager (which is waiting for us). */
  #givenEndpoint: string | undefined;

  constructor(options: WebMcpMonitorOptions) {
    super();
    this.#isolatedContexts = options.isolatedContexts ?? (() => new Set());
    this.#link = new BrowserLink({
      endpointProvider: async () => this.#givenEndpoint ?? options.endpoint(),
      onEvent: (event) => this.#onEvent(event),
      onConnectionClose: (cdp) => this.#onConnectionClose(cdp),
    });
  }

  /** True while the monitor is attached to a browser. */
  get running(): boolean {
    return this.#connection !== undefined && !this.#connection.cdp.closed;
  }

  /**
   * Connects and attaches every tab and frame, once; later calls return at once while the
   * connection lives. `endpoint` is the browser that just started (BrowserManager's ready hook).
   */
  async start(endpoint?: string): Promise<void> {
    if (endpoint !== undefined && !this.running) this.#givenEndpoint = endpoint;
    try {
      await this.#ensure();
    } finally {
      this.#givenEndpoint = undefined;
    }
  }

  async listTools(options: WebMcpListOptions = {}): Promise<WebMcpTool[]> {
    const connection = await this.#ensure();
    await this.#settle(connection, options.signal);
    if (connection.unfinishedBackfills.size > 0) await this.#finishBackfills(connection);
    const isolated = this.#isolatedContexts();
    const { cdp, registry } = connection;
    // A round trip on each session in scope: the renderer answers it after every event it sent
    // before, so a tool the page registered or removed just before this call is already counted.
    // Chromium reports no title change after a document's first commit: titles are read now too.
    const flushes = registry.sessionIds(options.scope, isolated).map((sessionId) =>
      cdp.send('Runtime.getIsolateId', undefined, { sessionId, timeoutMs: FLUSH_TIMEOUT_MS }).catch(() => undefined));
    try {
      const [{ targetInfos }] = await Promise.all([cdp.send('Target.getTargets', { filter: TARGET_FILTER }, { signal: options.signal }), ...flushes]);
      for (const info of targetInfos) if (registry.target(info.targetId) !== undefined) registry.updateTarget(info);
    } catch (error) {
      if ((error as ReplError).code === 'REPL_ERR_ABORTED') throw error;
      debug('Target.getTargets failed: %s', (error as Error).message);
    }
    if (registry.tabs(options.scope, isolated).length === 0) {
      throw new ReplError('REPL_ERR_WEBMCP_NO_TABS', 'no browser tabs found: open a page first; page tools are declared by pages');
    }
    return registry.list(options.scope, isolated);
  }

  countTools(targetId: string): number {
    return this.#connection?.registry.countTools(targetId) ?? 0;
  }

  async invokeTool(toolRef: string, input: unknown, options: WebMcpInvokeOptions = {}): Promise<WebMcpInvocation> {
    const timeoutMs = checkInvocation(toolRef, input, options.timeoutSec);
    const signal = options.signal;
    if (signal?.aborted === true) throw new ReplError('REPL_ERR_ABORTED', 'the page tool was not invoked: the call was aborted before it started');
    const connection = await this.#ensure();
    // A ref handed out a moment ago may belong to a frame whose set-up is still running.
    if (connection.setups.size > 0) await this.#settle(connection, signal);
    const tool = connection.registry.byRef(toolRef);
    if (tool === undefined || !connection.registry.inScope(tool, options.scope, this.#isolatedContexts())) throw staleRef();
    return await this.#invoke(connection, tool, input as object, { deadline: Date.now() + timeoutMs, timeoutSec: timeoutMs / 1000 }, signal);
  }

  /**
   * `close()` ends the connection: waiting invocations end as outcome unknown. Calls fail with
   * `REPL_ERR_CLOSED` from the moment close() is called (`closed` is set by the call itself, so no
   * connect starts after it). Every caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    await this.#link.close();
    this.#connection?.markClosed();
  }

  // ----- connection and attach --------------------------------------------------------------------

  #ensure(): Promise<Connection> {
    if (this.closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'the WebMCP monitor is closed'));
    const current = this.#connection;
    if (current !== undefined && !current.cdp.closed) return Promise.resolve(current);
    if (this.#starting === undefined) {
      const starting = this.#connect().finally(() => {
        if (this.#starting === starting) this.#starting = undefined;
      });
      starting.catch(() => {});
      this.#starting = starting;
    }
    return this.#starting;
  }

  async #connect(): Promise<Connection> {
    const cdp = await this.#link.connection({ method: 'Target.setAutoAttach' });
    const connection = new Connection(cdp);
    this.#connection = connection;
    try {
      // Discovery gives titles, URLs and browser contexts of every tab; auto-attach gives sessions,
      // paused at their start, so WebMCP is enabled before any of their scripts runs.
      await cdp.send('Target.setDiscoverTargets', { discover: true, filter: TARGET_FILTER });
      await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: TARGET_FILTER });
    } catch (error) {
      // Not attached: the next call starts over (on the same socket, if it still lives).
      if (this.#connection === connection) this.#connection = undefined;
      throw error;
    }
    debug('monitor attached (%d sessions so far)', connection.setups.size);
    return connection;
  }

  #onConnectionClose(cdp: CdpConnection): void {
    const connection = this.#connection;
    if (connection === undefined || connection.cdp !== cdp) return;
    this.#connection = undefined;
    connection.markClosed();
  }

  /** Waits for set-ups in flight, then for a quiet moment, at most {@link SETTLE_CAP_MS} in all. */
  async #settle(connection: Connection, signal: AbortSignal | undefined): Promise<void> {
    const cap = Date.now() + SETTLE_CAP_MS;
    for (;;) {
      if (signal?.aborted === true) throw new ReplError('REPL_ERR_ABORTED', 'the WebMCP listing was aborted');
      const remaining = cap - Date.now();
      if (remaining <= 0) return;
      if (connection.setups.size > 0) {
        await waitAtMost(Promise.allSettled([...connection.setups]), remaining, signal);
        continue;
      }
      const quietFor = Date.now() - connection.registry.lastChange;
      if (quietFor >= QUIET_MS) return;
      await waitAtMost(connection.closed, Math.min(QUIET_MS - quietFor, remaining), signal);
      if (connection.cdp.closed) return;
    }
  }

  #onEvent(event: CdpEvent): void {
    const connection = this.#connection;
    if (connection === undefined) return;
    const { registry } = connection;
    const sessionId = event.sessionId;
    const params = event.params as Record<string, unknown>;
    switch (event.method) {
      case 'Target.targetCreated':
      case 'Target.targetInfoChanged':
        registry.updateTarget((params['targetInfo'] ?? {}) as TargetInfoParams);
        return;
      case 'Target.targetDestroyed':
        registry.destroyTarget(String(params['targetId']));
        return;
      case 'Target.attachedToTarget':
        this.#attached(connection, params as unknown as AttachedParams, sessionId);
        return;
      case 'Target.detachedFromTarget':
        registry.detachSession(String(params['sessionId']));
        return;
    }
    if (sessionId === undefined || registry.session(sessionId) === undefined) return;
    switch (event.method) {
      case 'Inspector.targetCrashed':
        registry.detachSession(sessionId);
        return;
      case 'Page.frameAttached':
        registry.frameSeen(sessionId, { id: String(params['frameId']), parentId: params['parentFrameId'] as string | undefined });
        return;
      case 'Page.frameNavigated': {
        const frame = params['frame'] as { id: string; parentId?: string; url: string; loaderId: string };
        registry.frameNavigated(sessionId, frame);
        return;
      }
      case 'Page.navigatedWithinDocument':
        registry.frameUrlChanged(sessionId, String(params['frameId']), String(params['url']));
        return;
      case 'Page.frameDetached':
        // A swap moves the frame into (or out of) another process; it lives on there.
        if (params['reason'] !== 'swap') registry.frameRemoved(sessionId, String(params['frameId']));
        return;
      case 'WebMCP.toolsAdded':
        registry.toolsAdded(sessionId, (params['tools'] ?? []) as ReportedTool[]);
        return;
      case 'WebMCP.toolsRemoved':
        registry.toolsRemoved(sessionId, (params['tools'] ?? []) as Array<{ name: string; frameId: string }>);
        return;
      case 'WebMCP.toolResponded':
        connection.book.responded(sessionId, params as unknown as ToolResponse);
        return;
      case 'Runtime.executionContextCreated':
        connection.contextListeners.get(sessionId)?.(params['context'] as ContextDescription);
        return;
    }
  }

  #attached(connection: Connection, params: AttachedParams, parentSessionId: string | undefined): void {
    const { sessionId, targetInfo, waitingForDebugger } = params;
    const { cdp, registry } = connection;
    const send = (method: 'Runtime.runIfWaitingForDebugger' | 'Target.detachFromTarget'): void => {
      const command = method === 'Target.detachFromTarget'
        ? cdp.send('Target.detachFromTarget', { sessionId })
        : cdp.send('Runtime.runIfWaitingForDebugger', undefined, { sessionId });
      command.catch(() => {});
    };
    const type = targetInfo.type;
    const internal = /^(chrome|devtools|chrome-untrusted):/.test(targetInfo.url);
    // One target, one session: a target attached twice (browser level and through its page) keeps the first.
    if ((type !== 'page' && type !== 'iframe') || internal || registry.sessionOfTarget(targetInfo.targetId) !== undefined) {
      send('Runtime.runIfWaitingForDebugger');
      send('Target.detachFromTarget');
      return;
    }
    registry.updateTarget(targetInfo);
    registry.attachSession({ sessionId, targetId: targetInfo.targetId, type, parentSessionId });
    const setup = this.#setUp(connection, sessionId, targetInfo, waitingForDebugger).catch((error: unknown) => {
      debug('set-up of %s failed: %s', targetInfo.targetId, (error as Error).message);
    });
    connection.setups.add(setup);
    void setup.finally(() => connection.setups.delete(setup));
  }

  /**
   * Everything a new session needs, sent at once (Chromium runs a session's commands in order,
   * so `WebMCP.enable` is in place before `runIfWaitingForDebugger` lets the page run): page
   * events for frames, the frame tree, auto-attach of its own out-of-process frames, WebMCP,
   * and the resume, which is sent whatever else fails.
   */
  async #setUp(connection: Connection, sessionId: string, targetInfo: TargetInfoParams, waitingForDebugger: boolean): Promise<void> {
    const { cdp, registry } = connection;
    const options = { sessionId, timeoutMs: SESSION_SETUP_TIMEOUT_MS };
    const pageEnabled = cdp.send('Page.enable', undefined, options);
    const tree = cdp.send('Page.getFrameTree', undefined, options);
    const autoAttach = cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: TARGET_FILTER }, options);
    const enabled = cdp.send('WebMCP.enable', undefined, options);
    const resumed = cdp.send('Runtime.runIfWaitingForDebugger', undefined, options);
    const windowOf = targetInfo.type === 'page'
      ? cdp.send('Browser.getWindowForTarget', { targetId: targetInfo.targetId }, { timeoutMs: SESSION_SETUP_TIMEOUT_MS })
      : undefined;
    const [, treeResult, , enableResult] = await Promise.allSettled([pageEnabled, tree, autoAttach, enabled, resumed]);
    if (treeResult.status === 'fulfilled') recordFrameTree(registry, sessionId, treeResult.value.frameTree as FrameTreeNode);
    if (windowOf !== undefined) {
      const window = await windowOf.catch(() => undefined);
      // Chromium has no window for a tab of some contexts (and in some headless modes): one shared stand-in.
      registry.setWindow(targetInfo.targetId, window?.windowId ?? 0);
    }
    if (enableResult.status === 'rejected') {
      debug('WebMCP.enable failed on %s: %s', targetInfo.targetId, enableResult.reason);
      // A renderer too busy to answer in time still runs the command later, in order: WebMCP is
      // then enabled, and only the backfill is missing. Any other failure: no WebMCP here.
      if ((enableResult.reason as ReplError).code === 'REPL_ERR_CDP_TIMEOUT' && !waitingForDebugger) {
        connection.unfinishedBackfills.set(sessionId, { targetId: targetInfo.targetId, attempts: 1 });
      }
      return;
    }
    // Already running when we attached: tools its child frames registered before WebMCP.enable
    // are not replayed by Chromium (docs/webmcp.md, "How it works"); find them without touching
    // document.modelContext.
    if (waitingForDebugger) return;
    const complete = treeResult.status === 'fulfilled' && await this.#backfill(connection, sessionId, targetInfo.targetId);
    if (!complete) {
      debug('backfill of %s did not finish; the next listing tries again', targetInfo.targetId);
      connection.unfinishedBackfills.set(sessionId, { targetId: targetInfo.targetId, attempts: 1 });
    }
  }

  #backfill(connection: Connection, sessionId: string, targetId: string): Promise<boolean> {
    return backfillFrames(connection.cdp, sessionId, targetId, connection.registry, {
      timeoutMs: SESSION_SETUP_TIMEOUT_MS,
      onContextCreated: (session, listener) => {
        connection.contextListeners.set(session, listener);
        return () => connection.contextListeners.delete(session);
      },
    });
  }

  /**
   * Tries again the backfills that did not finish (a listing calls it): the frame tree again, then
   * the child frames. A session gets {@link BACKFILL_ATTEMPTS} attempts in all; one that is gone
   * is forgotten.
   */
  async #finishBackfills(connection: Connection): Promise<void> {
    const { cdp, registry, unfinishedBackfills } = connection;
    await Promise.all([...unfinishedBackfills].map(async ([sessionId, entry]) => {
      if (registry.session(sessionId) === undefined) {
        unfinishedBackfills.delete(sessionId);
        return;
      }
      let complete = false;
      try {
        const { frameTree } = await cdp.send('Page.getFrameTree', undefined, { sessionId, timeoutMs: SESSION_SETUP_TIMEOUT_MS });
        recordFrameTree(registry, sessionId, frameTree as FrameTreeNode);
        complete = await this.#backfill(connection, sessionId, entry.targetId);
      } catch (error) {
        debug('backfill of %s failed again: %s', entry.targetId, (error as Error).message);
      }
      entry.attempts += 1;
      if (complete || entry.attempts >= BACKFILL_ATTEMPTS) unfinishedBackfills.delete(sessionId);
    }));
  }

  // ----- invocation ------------------------------------------------------------------------------

  async #invoke(connection: Connection, tool: ToolRecord, input: object, time: { deadline: number; timeoutSec: number }, signal: AbortSignal | undefined): Promise<WebMcpInvocation> {
    const { deadline, timeoutSec } = time;
    const { cdp, registry, book } = connection;
    const { sessionId, frameId, name } = tool;
    let invocationId: string;
    const remaining = Math.max(1, deadline - Date.now());
    try {
      // Not bound to `signal`: Chromium answers at once, and only with the invocation id can an
      // abort that comes meanwhile cancel the page's work (below) instead of leaving it running.
      ({ invocationId } = await cdp.send('WebMCP.invokeTool', { frameId, toolName: name, input } as never, { sessionId, timeoutMs: remaining }) as { invocationId: string });
    } catch (error) {
      const code = (error as ReplError).code;
      if (code === 'REPL_ERR_CDP_COMMAND_FAILED') {
        const text = (error as Error).message;
        if (/Tool not found|No frame for given id|does not belong to current target/i.test(text)) {
          registry.toolsRemoved(sessionId, [{ name, frameId }]);
          throw staleRef();
        }
        throw new ReplError('REPL_ERR_INTERNAL', `Chromium refused to invoke page tool "${name}": ${text}`, { cause: error });
      }
      if (code === 'REPL_ERR_TARGET_NOT_FOUND') throw outcomeUnknown(name, 'its tab or frame went away while it was being invoked');
      if (code === 'REPL_ERR_CDP_TIMEOUT') throw outcomeUnknown(name, 'the timeout passed while it was being invoked');
      throw outcomeUnknown(name, `the browser connection failed while it was being invoked (${(error as Error).message})`);
    }
    const waiting = book.wait(sessionId, invocationId);

    if (tool.declarative && !tool.autosubmit) {
      // Filled and left for a human to submit: only an immediate validation error is an answer.
      const early = await valueWithin(waiting.response, FORM_ERROR_GRACE_MS);
      if (early !== undefined) return toInvocation(early);
      // Not cancelled: that would reset the form the human is meant to review.
      book.abandon(sessionId, invocationId);
      return { invocation_id: invocationId, status: 'awaiting_submission', output: { form_populated: true, submitted: false } };
    }

    return await new Promise<WebMcpInvocation>((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const cleanups: Array<() => void> = [];
      let settled = false;
      const finish = (outcome: { invocation: WebMcpInvocation } | { error: Error }): void => {
        if (settled) return;
        settled = true;
        for (const cleanup of cleanups) cleanup();
        if ('invocation' in outcome) resolve(outcome.invocation);
        else reject(outcome.error);
      };
      const giveUp = (why: string, cancel: boolean): void => {
        if (settled) return;
        book.abandon(sessionId, invocationId);
        if (cancel && !cdp.closed) {
          // Best effort: stops the page's work and fires its `toolcancel` (Kernel sends nothing).
          cdp.send('WebMCP.cancelInvocation', { invocationId }, { sessionId, timeoutMs: CANCEL_TIMEOUT_MS }).catch(() => {});
        }
        finish({ error: outcomeUnknown(name, why, invocationId) });
      };
      const watcher: InvocationWatcher = {
        framesDropped: (droppedSession, frameIds, reason) => {
          if (droppedSession !== sessionId || !frameIds.has(frameId)) return;
          if (reason === 'removed') giveUp('its frame was removed before it answered', false);
          else if (graceTimer === undefined) {
            graceTimer = setTimeout(() => giveUp('its page navigated before it answered', false), NAVIGATION_GRACE_MS);
          }
        },
        sessionDropped: (droppedSession) => {
          if (droppedSession === sessionId) giveUp('its tab or frame closed before it answered', false);
        },
        connectionClosed: () => giveUp('the browser connection closed before it answered', false),
      };
      connection.watchers.add(watcher);
      cleanups.push(() => connection.watchers.delete(watcher), () => clearTimeout(graceTimer), () => waiting.cancel());
      const timer = setTimeout(() => giveUp(`it did not answer within ${timeoutSec}s`, true), Math.max(1, deadline - Date.now()));
      cleanups.push(() => clearTimeout(timer));
      if (signal !== undefined) {
        const onAbort = (): void => giveUp('the call was aborted (its cell ended, or the caller went away)', true);
        signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener('abort', onAbort));
        // Aborted while Chromium was answering the invoke command: cancel now that the id is known.
        if (signal.aborted) onAbort();
      }
      waiting.response.then((response) => {
        if (response.exception?.objectId !== undefined) {
          cdp.send('Runtime.releaseObject', { objectId: response.exception.objectId }, { sessionId, timeoutMs: CANCEL_TIMEOUT_MS }).catch(() => {});
        }
        try {
          finish({ invocation: toInvocation(response) });
        } catch (error) {
          finish({ error: error as Error });
        }
      }, () => {});
    });
  }
}

interface AttachedParams {
  sessionId: string;
  targetInfo: TargetInfoParams;
  waitingForDebugger: boolean;
}

function staleRef(): ReplError {
  return new ReplError('REPL_ERR_WEBMCP_TOOL_NOT_FOUND',
    'tool no longer available (it was unregistered, or its frame navigated or closed); discover tools again with webmcp.listTools()');
}

export type { WebMcpScope };
