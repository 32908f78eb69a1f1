/**
 * The executor worker's message loop. Reads top to bottom: install the routing console → post
 * `ready` → warm up module loading in the background → serve `run` messages one at a time until
 * the host ends the thread.
 *
 * A call runs in this order, all of it raced against the call's timeout: compile (strip types,
 * insert the liveness checks) → connect (once per connection) → bind `page` → run the code →
 * encode the result. A call past its timeout, or interrupted (the host's `interrupt` message, or
 * the checks reading the slots the host set), is stopped and answered at once; its Playwright
 * calls are aborted and the worker and its browser connection are kept (call-interrupts.ts).
 * Uncaught exceptions are deliberately not handled (but what a check threw): they end the worker,
 * and the host replaces it on the next call. Every message from the host is validated first; a
 * malformed one is a host bug and ends this worker (uncaught).
 */
import { debuglog } from 'node:util';
import type { SerializedError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { EXECUTOR_PROTOCOL_VERSION } from '../../common/protocol/executor-messages.js';
import type {
  ExecutorOutputMessage, ExecutorReadyMessage, ExecutorReplyMessage, ExecutorRunMessage, ExecutorTab, ExecutorToMainMessage,
  PlaywrightEngine, StopReason,
} from '../../common/protocol/executor-messages.js';
import { validateExecutorHostMessage } from '../../common/protocol/validate.js';
import { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import { EndpointBridge } from '../threads/endpoint-bridge.js';
import { BrowserConnection, abortable } from './browser-connection.js';
import { CallOutput, OutputRouter } from './call-output.js';
import { describeThrown, encodeResult } from './call-result.js';
import { CodeSyntaxError, compileCode, loadTransformer } from './compile-code.js';
import type { CompiledCode } from './compile-code.js';
import { TabMissingError, TabNotAttachedError, bindDefaultPage, bindExecutorPage } from './page-binding.js';
import { CellScope, currentCellScope, runInCellScope } from '../webmcp/cell-scope.js';
import { CallInterrupts, currentCallSignal } from './call-interrupts.js';
import { createWebMcpClient } from '../webmcp/webmcp-client.js';
import { createHumanClient } from '../webmcp/human-client.js';

const debug = debuglog('browser-repl:executor');

/** What the loop needs of its transport: a MessagePort, or an adapter over child-process IPC. */
export interface ExecutorPort {
  postMessage(message: ExecutorToMainMessage): void;
  /** Messages arrive unchecked: the loop validates them. */
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Where a call got to, for the reply of a call that failed or timed out. */
interface CallState {
  compiled?: CompiledCode;
  tab?: ExecutorTab;
}

/** Runs the executor loop on `port` until the thread (or process) ends. */
export function serveExecutor(startup: {
  workerId: string; engine: PlaywrightEngine; port: ExecutorPort; artifactsDir?: string | undefined; interrupts?: SharedArrayBuffer | undefined;
}): void {
  const { port } = startup;
  const post = (message: ExecutorToMainMessage) => port.postMessage(message);
  const endpoints = new EndpointBridge({ post, available: true });
  // Playwright connects through a scoped endpoint, never to the browser itself: it sees only the
  // tabs this executor may drive, so another owner's pending dialog can neither block its connect
  // nor be answered by it (common/cdp/scoped-endpoint.ts). The last call says whose tab is ours.
  // An agent-tool session's executor owns several tabs (its own and its popups) and a browser context.
  const ownership: { ownTab: string | undefined; ownTabs: readonly string[]; browserContextId: string | undefined } = { ownTab: undefined, ownTabs: [], browserContextId: undefined };
  const scoped = new ScopedEndpoint({
    upstream: async () => (await endpoints.request()).endpoint,
    scope: async () => {
      const grant = await endpoints.request();
      const { ownTab } = ownership;
      const own = ownTab === undefined ? [] : [ownTab, ...ownership.ownTabs.filter((targetId) => targetId !== ownTab)];
      const foreign = { ...grant.tabOwners };
      for (const targetId of own) delete foreign[targetId];
      return {
        mode: ownTab === undefined ? 'shared' : 'own',
        ownTargetIds: own,
        foreign,
        downloadsFolder: grant.downloads?.incoming,
        defaultContextId: ownership.browserContextId,
      };
    },
  });
  const interrupts = new CallInterrupts(startup.interrupts);
  const connection = new BrowserConnection({ engine: startup.engine, endpoint: () => scoped.url(), artifactsDir: startup.artifactsDir, callSignal: currentCallSignal });
  const router = new OutputRouter();
  globalThis.console = router.console;
  // The code's `webmcp`: the same client as a REPL cell's, its calls scoped to the call that made them.
  const webmcp = createWebMcpClient({ post, currentScope: currentCellScope });
  // `requestHuman()`: the REPL's, through the same main-thread service (docs/live-view.md#hand-over).
  const human = createHumanClient({ post, currentScope: currentCellScope });

  // Abandoned code (after a timeout) rejects a lot: its connection was closed under it. Such
  // rejections must not end the worker; they are reported to the running call, if any.
  process.on('unhandledRejection', (reason) => {
    // A promise chain of a stopped call that ended at its next check: nothing to report.
    if (CallInterrupts.isStop(reason)) return;
    const text = reason instanceof Error ? reason.stack ?? reason.message : String(reason);
    if (router.current !== undefined) router.current.write('stderr', `browser-repl: unhandled promise rejection: ${text}\n`);
    else debug('unhandled rejection between calls: %s', text);
  });

  // A check that threw in a callback Node called (a timer the stopped call left) has no code to
  // catch it: no fault of the worker. Anything else uncaught still ends it, as it was.
  process.on('uncaughtException', function passStops(error) {
    if (CallInterrupts.isStop(error)) return;
    process.removeListener('uncaughtException', passStops);
    throw error;
  });

  async function execute(message: ExecutorRunMessage, output: CallOutput, state: CallState, signal: AbortSignal): Promise<unknown> {
    const started = performance.now();
    state.compiled = await compileCode(message.code, interrupts);
    const compiled = performance.now();
    // A session's executor keeps one connection for its context: a call for another context is a new connection.
    if (message.browserContextId !== ownership.browserContextId) connection.drop();
    ownership.ownTab = message.targetId;
    ownership.ownTabs = message.ownTargetIds ?? [];
    ownership.browserContextId = message.browserContextId;
    const browser = await connection.get(signal);
    connection.callStarted(browser);
    const connected = performance.now();
    const binding = message.targetId === undefined
      ? await bindDefaultPage(browser, connection.targetIds, new Set(message.foreignTargetIds))
      : await bindExecutorPage(browser, connection.targetIds, message.targetId, message.tabCreated === true, signal);
    connection.adopt(binding.page);
    if (binding.tab !== undefined) state.tab = binding.tab;
    debug('call %d: compiled in %d ms, connected in %d ms, page bound in %d ms', message.requestId,
      Math.round(compiled - started), Math.round(connected - compiled), Math.round(performance.now() - connected));
    signal.throwIfAborted();
    const run = state.compiled.bind(webmcp.client, output.console, human.requestHuman);
    return run(binding.page, binding.page.context(), browser);
  }

  async function run(message: ExecutorRunMessage): Promise<void> {
    // A streaming caller gets each write at once; `output.close()` below, before the reply, ends
    // them, so none can follow the reply (the host would take it for another call's message).
    const output = new CallOutput(LIMITS.textBytesPerResponse, message.streamOutput === true
      ? (channel, text) => post({ type: 'output', requestId: message.requestId, channel, text } satisfies ExecutorOutputMessage)
      : undefined);
    router.current = output;
    const started = performance.now();
    const controller = new AbortController();
    const state: CallState = {};
    // Ended when the call answers, a timeout included: code the call abandoned can start no webmcp call.
    const scope = new CellScope();
    let stopped: StopReason | undefined;
    const stop = (reason: StopReason): void => {
      if (stopped !== undefined) return;
      stopped = reason;
      interrupts.stopped();
      // Aborts its webmcp calls; then its Playwright calls (their signal) and the wait below.
      scope.interrupt();
      controller.abort(new Error(reason));
    };
    const timer = setTimeout(() => stop('timeout'), message.timeoutMs);
    interrupts.begin({ requestId: message.requestId, scope, stop }, controller.signal);
    // Failures are described as text first (`describeThrown`), then sent as a SerializedError.
    let fields: Omit<ExecutorReplyMessage, 'type' | 'requestId' | 'stdout' | 'stderr' | 'error'> & { error?: string; stack?: string };
    let name = 'Error';
    try {
      const work = runInCellScope(scope, () => execute(message, output, state, controller.signal));
      // The abandoned promise may still reject after a timeout; that is expected, not unhandled.
      work.catch(() => {});
      fields = encodeResult(await abortable(work, controller.signal));
    } catch (thrown) {
      if (thrown instanceof Error && typeof thrown.name === 'string') name = thrown.name;
      if (stopped !== undefined) {
        // Kept when its Playwright calls could be aborted; otherwise closing it is what stops them.
        const kept = connection.cooperative;
        if (!kept) connection.drop();
        const outcome = kept
          ? 'the code was stopped (the Playwright calls it waited for were aborted), and the executor kept its worker and its browser connection'
          : 'the executor dropped its browser connection, so code still running from this call can no longer drive the browser';
        if (stopped === 'timeout') {
          name = 'TimeoutError';
          fields = { success: false, timedOut: true, error: `execution timed out after ${message.budgetMs ?? message.timeoutMs}ms; ${outcome}` };
        } else {
          name = 'AbortError';
          fields = { success: false, interrupted: true, error: `execution interrupted after ${Math.round(performance.now() - started)}ms; ${outcome}` };
        }
      } else if (thrown instanceof TabMissingError) {
        fields = { success: false, tabMissing: true, error: thrown.message };
      } else {
        if (thrown instanceof TabNotAttachedError) connection.drop();
        const mapStack = state.compiled?.mapStack ?? ((stack: string) => stack);
        fields = thrown instanceof CodeSyntaxError
          ? { success: false, error: thrown.message, stack: thrown.stack ?? '' }
          : { success: false, ...describeThrown(thrown, mapStack) };
      }
    } finally {
      scope.end();
      clearTimeout(timer);
      interrupts.end();
      connection.callEnded();
      router.current = undefined;
    }
    const { stdout, stderr } = output.close();
    const { error, stack, ...rest } = fields;
    const reply: ExecutorReplyMessage = { type: 'reply', requestId: message.requestId, ...rest, stdout, stderr };
    if (error !== undefined) {
      const serialized: SerializedError = { name, message: error };
      if (stack !== undefined) serialized.stack = stack;
      reply.error = serialized;
    }
    if (state.tab !== undefined) reply.tab = state.tab;
    post(reply);
  }

  // The host already serialises calls; this chain is a second guard so two calls never interleave.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (raw: unknown) => {
    const checked = validateExecutorHostMessage(raw);
    if (!checked.ok) throw new TypeError(`executor worker received a malformed message from the host (${checked.error})`);
    const message = checked.message;
    switch (message.type) {
      case 'run':
        queue = queue.then(() => run(message));
        break;
      case 'interrupt':
        // Not queued: the call it stops is what the queue is running.
        interrupts.requested(message.requestId, message.reason);
        break;
      case 'endpoint-reply':
        endpoints.receive(message);
        break;
      case 'webmcp-reply':
        webmcp.receive(message);
        break;
      case 'human-reply':
        human.receive(message);
        break;
    }
  });

  post({ type: 'ready', protocolVersion: EXECUTOR_PROTOCOL_VERSION, workerId: startup.workerId } satisfies ExecutorReadyMessage);
  // Module loading only; the browser is attached by the first call (see BrowserConnection).
  setImmediate(() => {
    void loadTransformer();
    connection.preload();
  });
}
