/**
 * The REPL runtime's message loop. Reads top to bottom: build the context → post `ready` → serve
 * `execute` / `env` messages one at a time until the host ends the thread. Every message from the
 * host is validated first; a malformed one is a host bug and ends this worker (uncaught).
 *
 * Uncaught exceptions are deliberately not handled here: they end the worker, and the host turns
 * its `error`/`exit` events into the contract's destructive outcomes (docs/lifecycle.md, "Outcomes").
 *
 * Cells run in this thread and can reach its built-ins and its port; the loop defends itself
 * (worker/threads/realm-integrity.ts): built-ins are put back around every request, the port's
 * listener is put back if a cell removed it, and a failure of the runtime itself after a cell
 * still answers the host.
 */
import { performance } from 'node:perf_hooks';
import { HELP_ENTRIES } from '../../common/help/help-registry.js';
import { ReplError } from '../../common/errors.js';
import type { SerializedError } from '../../common/errors.js';
import { PROTOCOL_VERSION } from '../../common/protocol/repl-messages.js';
import type {
  EnvAppliedMessage, EnvMessage, WarmedMessage, ExecuteMessage, OutputMessage, ReadyMessage, ResultMessage,
  WorkerToMainMessage,
} from '../../common/protocol/repl-messages.js';
import { validateReplHostMessage } from '../../common/protocol/validate.js';
import type { ToolMessage, ToolResultMessage } from '../../common/protocol/tool-messages.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import { EndpointBridge } from '../threads/endpoint-bridge.js';
import { ModuleReclaimer } from '../threads/module-reclaimer.js';
import { RealmSnapshot, lockPromiseSpecies } from '../threads/realm-integrity.js';
import type { CdpClient } from '../cdp/cdp-client.js';
import { HelperContext } from '../helpers/helper-context.js';
import { cdpClientClass, createBrowserHelpers, scopedEndpointClass } from '../helpers/browser-helpers.js';
import { createCapturedConsole } from '../output/captured-console.js';
import { OutputCollector } from '../output/output-collector.js';
import { ReflectApply, utilInspect } from '../output/primordials.js';
import { CellEvaluator } from './cell-evaluator.js';
import { CellInterrupts, INTERRUPTED_MESSAGE, newInterruptToken, sourceAsWritten } from './cell-interrupts.js';
import { createReplContext } from './create-context.js';
import { describeError } from './describe-error.js';
import { createReplNamespace } from './repl-namespace.js';
import { CellScope, currentCellScope, runInCellScope } from '../webmcp/cell-scope.js';
import { createWebMcpClient } from '../webmcp/webmcp-client.js';

/** Deadline of the warm-up's page round trip: a connect (10 s) and an attach. */
const WARM_UP_DEADLINE_MS = 15_000;

/** What the loop needs of its transport: a MessagePort, or an adapter over child-process IPC. */
export interface ReplPort {
  postMessage(message: WorkerToMainMessage, transfer?: ArrayBuffer[]): void;
  /** Messages arrive unchecked: the loop validates them. */
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** A MessagePort's: lets the loop notice that a cell removed its listener. */
  listenerCount?(event: 'message'): number;
}

export interface ReplStartup {
  replId: string;
  port: ReplPort;
  browserAvailable: boolean;
  /** The flag the host sets when a cell is past its deadline (`WorkerStartup.interrupts`). */
  interrupts?: SharedArrayBuffer | undefined;
  /** Insert the liveness checks into cells (default true). */
  interruptChecks?: boolean | undefined;
  /** `WorkerStartup.interruptFlag`: the flag the host raises on this busy thread. */
  interruptFlag?: string | undefined;
}

/** Exit code of a worker whose built-ins a cell damaged beyond repair (it ends itself after answering). */
const REALM_DAMAGED_EXIT_CODE = 70;

export function serveRepl(startup: ReplStartup): void {
  const { port } = startup;
  // Captured before any cell runs: a cell may replace the port's methods (it is reachable).
  const portPostMessage = port.postMessage;
  const portOn = port.on;
  const portListenerCount = port.listenerCount;
  const post = (message: WorkerToMainMessage, transfer?: ArrayBuffer[]) => ReflectApply(portPostMessage, port, [message, transfer]);
  lockPromiseSpecies(Promise);
  const realm = RealmSnapshot.capture();
  const exitProcess = process.exit.bind(process);
  const reallyExit = (process as { reallyExit?: (code: number) => never }).reallyExit?.bind(process);
  /** Built-ins a cell made impossible to put back; the worker ends after its current answer. */
  let damaged: string[] = [];
  /**
   * Code of a cell may have run since the built-ins were last put back: a timer it started fired,
   * a host message resolved something it awaits, a rejection of its went unhandled. The next
   * request then puts them back before it runs anything (see realm-integrity.ts).
   */
  let realmTouched = false;
  /** Puts the built-ins back (see realm-integrity.ts); a failure is reported on stderr once. */
  function restoreRealm(): void {
    if (damaged.length > 0) return;
    damaged = realm.restore();
    realmTouched = false;
    if (damaged.length > 0) {
      collector.text('stderr', `browser-repl: a cell changed built-ins of the REPL runtime that cannot be put back (${damaged.join(', ')}); this REPL worker ends after this answer and the next call gets a fresh REPL`);
    }
  }
  /**
   * Before a request: after the previous one the built-ins were put back already, so only what
   * ran since can have changed them. A full restore reads a few hundred descriptors, a good part
   * of a trivial cell's cost (issue 26); what runs between requests without marking itself (a
   * continuation of a cell's I/O) is caught by the quick look at the most used ones, and by the
   * full restore after the cell in any case.
   */
  function restoreRealmIfTouched(): void {
    if (realmTouched || !realm.looksIntact()) restoreRealm();
  }
  /** After an answer was posted: a damaged worker ends itself instead of running more cells wrongly. */
  function endIfDamaged(): void {
    if (damaged.length === 0) return;
    try {
      exitProcess(REALM_DAMAGED_EXIT_CODE);
    } catch {
      // An 'exit' listener, or a wrapped `process.emit` (signal-exit does that), ran into the
      // damaged built-ins and threw, which would keep this thread alive. The exit without the
      // 'exit' event ends it all the same.
      reallyExit?.(REALM_DAMAGED_EXIT_CODE);
    }
  }

  // Which REPL this worker serves: set once by a `configure` message before the first cell (a warm
  // spare is started unnamed, for whichever REPL of the host takes it).
  const identity = { name: 'default', ownsTab: false };
  // What an interrupted cell still writes (a `catch` before its next check, a listener it left)
  // reaches no response: output after the deadline is dropped.
  const collector = new OutputCollector({}, () => currentCellScope()?.interrupted !== true);
  // What a cell's own Playwright connects to (CDP_ENDPOINT): the browser as this REPL may see it,
  // without the tabs other REPLs and executors own (common/cdp/scoped-endpoint.ts).
  let scoped: ScopedEndpoint | undefined;
  const scopedEndpoint = (): ScopedEndpoint => (scoped ??= new (scopedEndpointClass())({
    upstream: async () => (await endpoints.request()).endpoint,
    scope: async () => {
      const grant = await endpoints.request();
      return {
        mode: identity.ownsTab ? 'own' : 'shared',
        ownTargetIds: grant.targetId === undefined ? [] : [grant.targetId],
        foreign: grant.tabOwners ?? {},
        downloadsFolder: grant.downloads?.incoming,
        defaultContextId: grant.browserContextId,
      };
    },
  }));
  const endpoints = new EndpointBridge({ post, available: startup.browserAvailable });
  // Created on first use (issue 8): a cell that never drives the browser never loads the CDP client.
  const client = (): CdpClient => new (cdpClientClass())({
    // The client's notes are complete stderr lines already (they carry the browser-repl: prefix).
    onNote: (message) => collector.text('stderr', message),
    endpointProvider: async ({ previous }) => {
      const { endpoint } = await endpoints.request(previous);
      // Cells find the effective endpoint here (connectOverCDP(process.env.CDP_ENDPOINT)).
      process.env['CDP_ENDPOINT'] = await scopedEndpoint().url();
      return endpoint;
    },
    // The host knows which tabs are whose; it is asked whenever a page is chosen, so a tab another
    // REPL opened a moment ago is never taken for this one's.
    foreignTabs: async () => new Map(Object.entries((await endpoints.request()).tabOwners ?? {})),
    ...(identity.ownsTab ? {
      ownTab: async ({ gone }: { gone?: string | undefined }) => {
        const { targetId } = await endpoints.request(undefined, { tabGone: gone });
        if (targetId === undefined) throw new ReplError('REPL_ERR_PROTOCOL', 'the host named no tab for this REPL');
        return targetId;
      },
    } : {}),
  });
  let knownDownloadFolders: { incoming: string; folder: string } | undefined;
  // The token of this worker's interrupt checks: page functions are sent without them.
  const interruptNames = startup.interruptFlag === undefined ? newInterruptToken() : { token: startup.interruptFlag };
  const helperContext = new HelperContext({
    client,
    sourceAsWritten: (source) => sourceAsWritten(source, interruptNames),
    note: (message) => collector.text('stderr', message),
    // The folders never change for a worker; only a reapply has to reach the host.
    downloadFolders: async (reapply) => {
      if (!reapply && knownDownloadFolders !== undefined) return knownDownloadFolders;
      const { downloads } = await endpoints.request(undefined, { reapplyDownloads: reapply });
      if (downloads === undefined) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'the host manages no downloads for this REPL');
      knownDownloadFolders = downloads;
      return downloads;
    },
  });
  const repl = createReplNamespace({ id: startup.replId, name: () => identity.name, collector, help: HELP_ENTRIES });
  const helpers = createBrowserHelpers(helperContext);
  const webmcp = createWebMcpClient({ post, currentScope: currentCellScope });
  const context = createReplContext({
    console: createCapturedConsole(collector),
    repl,
    helpers,
    webmcp: webmcp.client,
    // An interrupt clears the timers the cell started (cell-scope.ts).
    onTimer: (timer) => currentCellScope()?.trackTimer(timer),
    onTimerCallback: () => {
      realmTouched = true;
    },
  });
  const interrupts = new CellInterrupts({
    context, names: interruptNames, buffer: startup.interrupts, currentScope: currentCellScope, raisedByHost: startup.interruptFlag !== undefined,
  });
  // Every cell is a module V8 keeps until asked for all the garbage it can find.
  const reclaimer = new ModuleReclaimer();
  const evaluator = new CellEvaluator({ context, interruptChecks: startup.interruptChecks === false ? undefined : interruptNames });

  /**
   * A cell that reads CDP_ENDPOINT (to connect Playwright) needs a running browser before it
   * starts (`needsEndpoint`): the browser is launched lazily, so make sure it is up and the
   * variable is current.
   */
  const needsEndpoint = (code: string): boolean => startup.browserAvailable && code.includes('CDP_ENDPOINT');
  async function prepareEndpoint(): Promise<void> {
    try {
      await endpoints.request();
      process.env['CDP_ENDPOINT'] = await scopedEndpoint().url();
    } catch (error) {
      helperContext.note(`CDP_ENDPOINT is not available: ${(error as Error).message}`);
    }
  }

  /**
   * Ahead of the first cell (`WarmMessage`): compiles a typical cell, connects and attaches the
   * page, and runs one `js()` round trip, so the first cell finds every path hot. Nothing is
   * declared or written, and the cell count is unchanged. Failures stay silent: the first helper
   * call connects again and reports what goes wrong then.
   */
  async function warmUp(): Promise<void> {
    evaluator.warm();
    if (!startup.browserAvailable) return;
    helperContext.beginCell(Date.now() + WARM_UP_DEADLINE_MS);
    try {
      await helperContext.client.ensureAttached();
      await (helpers['js'] as (expression: string) => Promise<unknown>)('0');
    } catch {
      // See above.
    } finally {
      helperContext.endCell();
    }
  }

  // A check that threw its interrupt in a callback Node called (a timer of an earlier cell firing
  // while this one is interrupted, an event listener) has no cell code to catch it: that is no
  // fault of the worker. Any other uncaught exception still ends it, with the error as it was
  // (rethrown once this listener is gone, it reaches the host as the worker's 'error').
  process.on('uncaughtException', function passInterrupts(error) {
    realmTouched = true;
    if (CellInterrupts.isInterrupt(error)) return;
    process.removeListener('uncaughtException', passInterrupts);
    throw error;
  });
  process.on('unhandledRejection', (reason) => {
    realmTouched = true;
    // A promise chain of an interrupted cell that ended at its next check: nothing to report.
    if (CellInterrupts.isInterrupt(reason)) return;
    const stack = reason !== null && typeof reason === 'object' ? (reason as { stack?: unknown }).stack : undefined;
    const detail = typeof stack === 'string' ? stack : utilInspect(reason);
    collector.text('stderr',
      `browser-repl: unhandled promise rejection (the REPL survives; only the rejected promise is settled):\n${detail}`);
  });

  async function execute(message: ExecuteMessage): Promise<void> {
    const { requestId } = message;
    const started = performance.now();
    restoreRealmIfTouched();
    collector.begin((item, transfer) => post({ type: 'output', requestId, item } satisfies OutputMessage, transfer));
    helperContext.beginCell(message.deadline);
    // Everything the cell starts, timers and promises it leaves behind included, carries this
    // scope; ending it below aborts the webmcp calls still unfinished (their `webmcp-abort`s reach
    // the host before the result does).
    const scope = new CellScope();
    // Settles when the host interrupts the cell (its deadline passed): the answer goes out then,
    // whatever the cell's module still waits for; the scope is interrupted already, so the
    // helpers' waits and the webmcp calls it started are aborted, its timers cleared.
    let stopped!: () => void;
    const stop = new Promise<void>((resolve) => { stopped = resolve; });
    interrupts.begin(requestId, scope, () => {
      helperContext.endCell();
      stopped();
    });
    let failed: { thrown: unknown } | undefined;
    try {
      // Interrupted before it began (begin() above): none of it runs. Awaited only when needed:
      // every await is a promise, which on Node 20 the scope's AsyncLocalStorage tracks at a cost.
      if (!scope.interrupted) {
        if (needsEndpoint(message.code)) await prepareEndpoint();
        await runInCellScope(scope, () => evaluator.evaluate(message.code, { stop }));
      }
    } catch (thrown) {
      failed = { thrown };
    }
    // First thing after the cell, before even describing what it threw: the rest of this
    // function uses built-ins the cell may have replaced (`Array.prototype.filter` in the stack
    // trimming, `JSON`, the port's methods).
    restoreRealm();
    const interrupted = scope.interrupted;
    interrupts.end();
    try {
      let outcome: CellOutcome;
      if (interrupted) outcome = { success: false, interrupted: true, error: { name: 'Error', message: INTERRUPTED_MESSAGE, code: 'REPL_ERR_CELL_TIMEOUT' } };
      else if (failed === undefined) outcome = { success: true };
      else outcome = { success: false, error: serializeThrown(failed.thrown, interrupts, evaluator) };
      // An unfinished webmcp call makes the answer wait one turn (see finishCell).
      if (scope.end() > 0) await new Promise((resolve) => setImmediate(resolve));
      finishCell(requestId, started, outcome);
    } catch (failure) {
      // The runtime itself failed after the cell (a built-in the cell broke and we do not
      // restore): the host still gets its answer, never a silent worker.
      collector.end();
      post({
        type: 'result',
        requestId,
        success: false,
        error: { name: 'Error', message: `the REPL runtime failed after the cell: ${describeError(failure).error}` },
        contentTruncated: false,
        durationMs: Math.round(performance.now() - started),
      } satisfies ResultMessage);
    }
    endIfDamaged();
    reclaimer.afterCell();
  }

  /**
   * Posts a cell's answer. Its scope has ended before: when that aborted webmcp calls, a promise
   * chain of the cell's own that awaited one (`(async () => { await webmcp.invokeTool(…) })()`)
   * rejects, and Node reports it unhandled once the microtasks have run; the caller lets one turn
   * of the event loop pass first, so that the report lands in this cell's output, not the next's.
   */
  function finishCell(requestId: number, started: number, outcome: CellOutcome): void {
    helperContext.endCell();
    const { contentTruncated } = collector.end();
    post({
      type: 'result',
      requestId,
      ...outcome,
      contentTruncated,
      durationMs: Math.round(performance.now() - started),
    } satisfies ResultMessage);
  }

  /**
   * One agent-tool operation (lib/tools): run like a cell (its deadline, its signal). The helpers'
   * stderr notes speak to cells (helper names, CDP methods): the tool runner reports what an
   * action set off in its own words (`effects`), so the notes are dropped. Loaded on the first
   * tool call: REPLs that only run cells never load the tool runner.
   */
  let toolRunner: ToolRunner | undefined;
  async function runTool(message: ToolMessage): Promise<void> {
    const { requestId } = message;
    restoreRealmIfTouched();
    collector.begin(() => undefined);
    helperContext.beginCell(message.deadline);
    try {
      toolRunner ??= new (await import('../tools/tool-runner.js')).ToolRunner(helperContext, helpers);
      const { outcome, transfer } = await toolRunner.run(message.operation, message.read);
      post({ type: 'tool-result', requestId, outcome } satisfies ToolResultMessage, transfer);
    } catch (thrown) {
      const error = serializeThrown(thrown, interrupts, evaluator);
      // What the tools need to word the failure (the probe's status, what covered the target).
      if (thrown instanceof ReplError && thrown.data !== undefined) error.data = thrown.data;
      post({ type: 'tool-result', requestId, error } satisfies ToolResultMessage);
    } finally {
      helperContext.endCell();
      collector.end();
    }
  }

  function applyEnv(message: EnvMessage): void {
    for (const [name, value] of Object.entries(message.set)) {
      if (value === null) delete process.env[name];
      else process.env[name] = value;
    }
    post({ type: 'env-applied', requestId: message.requestId } satisfies EnvAppliedMessage);
  }

  /**
   * A cell that removed this loop's listener from the port (`workerData.port.removeAllListeners()`)
   * would leave the worker deaf: the host's next cell would wait for its deadline. Checked after
   * every request, before its answer goes out, so the next message finds the listener again.
   */
  function ensureListening(): void {
    if (portListenerCount === undefined) return;
    if ((ReflectApply(portListenerCount, port, ['message']) as number) === 0) ReflectApply(portOn, port, ['message', onMessage]);
  }

  // The host already serialises calls; this chain is a second guard so two cells can never interleave.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => void | Promise<void>): void => {
    queue = queue.then(async () => {
      try {
        await work();
      } finally {
        ensureListening();
      }
    });
  };
  const onMessage = (raw: unknown): void => {
    const checked = validateReplHostMessage(raw);
    if (!checked.ok) throw new TypeError(`browser REPL received a malformed message from the host (${checked.error})`);
    const message = checked.message;
    // An answer the host sends (to an endpoint request, a webmcp call) settles a promise that code
    // of a cell may await, between requests too.
    if (message.type === 'endpoint-reply' || message.type === 'webmcp-reply') realmTouched = true;
    switch (message.type) {
      case 'execute':
        enqueue(() => execute(message));
        break;
      case 'env':
        enqueue(() => applyEnv(message));
        break;
      case 'interrupt':
        // Not queued: the cell it stops is what the queue is running.
        interrupts.requested(message.requestId);
        break;
      case 'tool':
        enqueue(() => runTool(message));
        break;
      case 'configure':
        // Before any cell by the host's order, and before the CDP client exists (it is created by
        // the first browser helper), so the client is built for the right REPL.
        identity.name = message.name;
        identity.ownsTab = message.ownsTab;
        break;
      case 'endpoint-reply':
        endpoints.receive(message);
        break;
      case 'webmcp-reply':
        // Not queued: the cell that waits for it is what the queue is running.
        webmcp.receive(message);
        break;
      case 'warm':
        // In the queue, so a cell sent after it finds the page attached (or its own attach running).
        enqueue(async () => {
          await warmUp();
          post({ type: 'warmed', requestId: message.requestId } satisfies WarmedMessage);
        });
        break;
      case 'shutdown':
        // Let queued work finish first; then close the browser connection cleanly and exit.
        enqueue(async () => {
          await helperContext.closeClient().catch(() => undefined);
          exitProcess(0);
        });
        break;
    }
  };
  ReflectApply(portOn, port, ['message', onMessage]);

  post({ type: 'ready', protocolVersion: PROTOCOL_VERSION, replId: startup.replId } satisfies ReadyMessage);
}

/** How a cell ended, as its `result` says. */
type CellOutcome = { success: true } | { success: false; error: SerializedError; interrupted?: true };

/**
 * What a cell threw, as it crosses the port: `describeError`'s guarded reads, plus the name. V8's
 * words for an expression the liveness checks wrapped are put back as the user wrote it.
 */
function serializeThrown(thrown: unknown, interrupts: CellInterrupts, evaluator: CellEvaluator): SerializedError {
  const described = describeError(thrown);
  const { errorCode } = described;
  const error = interrupts.cleanMessage(described.error);
  const stack = described.stack === undefined ? undefined : evaluator.writtenPositions(interrupts.cleanMessage(described.stack));
  let name: unknown;
  try {
    name = thrown !== null && typeof thrown === 'object' ? (thrown as { name?: unknown }).name : undefined;
  } catch {
    name = undefined;
  }
  const serialized: SerializedError = { name: typeof name === 'string' && name.length <= 256 ? name : 'Error', message: error };
  if (stack !== undefined) serialized.stack = stack;
  if (errorCode !== undefined) serialized.code = errorCode;
  return serialized;
}
