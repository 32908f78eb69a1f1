/**
 * A persistent REPL: one worker thread at a time, started lazily, replaced after destructive
 * events, with calls serialised. This class owns the lifecycle table of docs/lifecycle.md,
 * "Outcomes" (docs/architecture.md has its diagram).
 */
import { debuglog } from 'node:util';
import { BrowserManager } from '../chromium/browser-manager.js';
import type { BrowserManagerOptions } from '../chromium/browser-manager.js';
import { TabRegistry } from '../chromium/tab-registry.js';
import type { TabOwner } from '../chromium/tab-registry.js';
import { ReplError } from '../../common/errors.js';
import { TIMEOUTS } from '../../common/limits.js';
import { CELL_TIMEOUT } from '../../common/timeout-sec.js';
import { Operation } from '../../common/operation.js';
import { channels, publish } from '../../common/diagnostics.js';
import { defaultHeapMb } from '../../common/memory-budget.js';
import type { CellFinishMessage } from '../../common/diagnostics.js';
import type { EndpointRequestMessage, OutputItem, ResultMessage } from '../../common/protocol/repl-messages.js';
import type { CellContent, CellResult } from './cell-result.js';
import { DeclarationJournal } from './declaration-journal.js';
import type { RestoreReport } from './declaration-journal.js';
import { ReplWorkerSupply } from './repl-worker-supply.js';
import type { ReplWorkerSettings } from './repl-worker-supply.js';
import type { ExecutionOutcome, ReplWorker } from './repl-worker.js';
import { fromSerialized } from '../../common/errors.js';
import type { ToolOperation, ToolOutcome } from '../../common/protocol/tool-messages.js';
import type { EndpointAnswer, HumanRequestHandler, WebMcpCallHandler } from '../threads/browser-calls.js';
import { SerialQueue } from '../threads/serial-queue.js';
import { valueWithin, waitAtMost } from '../../common/wait.js';
import { lifecycleOf } from '../../common/resource.js';

const debug = debuglog('browser-repl:repl');

/** How long close() waits for the calls queued before it, unless told otherwise. */
const CLOSE_DRAIN_MS = 30_000;

export interface ReplOptions {
  /** V8 old-space cap of the worker in MiB (default `BROWSER_REPL_HEAP_MB`, else 512 or an eighth of a smaller cgroup memory limit: common/memory-budget.ts). */
  heapMb?: number;
  /** Extra environment variables for the REPL, on top of this process's environment. */
  env?: Record<string, string>;
  /** How long a new worker may take to answer its handshake (default 15 s). */
  startupTimeoutMs?: number;
  /**
   * The browser the helpers drive: launch options (default: find and launch Chromium on first
   * use, or attach to `CDP_ENDPOINT`), a shared `BrowserManager` (not closed with this REPL), or
   * `false` for a pure-JavaScript REPL whose browser helpers fail with a clear error.
   */
  browser?: BrowserManagerOptions | BrowserManager | false;
  /**
   * Keep one fresh worker started in the background so a reset or a destroyed REPL is replaced
   * in milliseconds instead of a thread start (default true; costs one idle thread per REPL).
   */
  warmSpare?: boolean;
  /**
   * How long a cell past its timeout has to stop after it was interrupted (default 400 ms) before
   * its worker is ended and the REPL's bindings with it (docs/lifecycle.md).
   */
  interruptGraceMs?: number;
  /**
   * Insert the liveness checks that let a timed-out cell be interrupted with the REPL kept
   * (default true, or `BROWSER_REPL_INTERRUPT_CHECKS=0` to turn them off). Without them every
   * timeout ends the worker, and its bindings, as the hosted product does; hot loops run a little
   * faster (docs/benchmarks.md).
   */
  interruptChecks?: boolean;
  /** @internal Test seam: a worker script speaking the same protocol. */
  workerUrl?: URL;
  /** Name within its host (default `default`); set by `Browser.repl(name)`. */
  name?: string;
  /**
   * Where workers come from: `Browser` passes one pool shared by its REPLs. Default: this
   * REPL's own (with `warmSpare`), closed with it.
   */
  spares?: ReplWorkerSupply;
  /**
   * The registry of the browser's tabs. With one, a REPL not named `default` owns a tab of its
   * own (opened on its first browser helper, closed when it is reset or closed), and `default`
   * never attaches a tab that someone else owns. Set by `Browser`.
   */
  tabs?: TabRegistry;
  /**
   * Who the REPL's tab belongs to in `tabs` (default `repl:<name>` for a named REPL). The agent
   * tools give each session's REPL `tools:<session>`, a tab in a browser context of its own.
   */
  tabOwner?: TabOwner;
  /**
   * Answers the cells' `webmcp.listTools()` and `webmcp.invokeTool()` (docs/webmcp.md): a
   * `Browser` passes its WebMCP monitor, scoped to what this REPL may see. Absent: both fail
   * with `REPL_ERR_BROWSER_NOT_FOUND`.
   */
  webmcp?: WebMcpCallHandler;
  /**
   * Answers the cells' `requestHuman()` (docs/live-view.md#hand-over): a `Browser` passes its
   * pending hand-over requests. Absent: it fails with `REPL_ERR_BROWSER_NOT_FOUND`.
   */
  human?: HumanRequestHandler;
  /**
   * Keep a journal of the declarations of successful cells that can be made again without running
   * anything (functions; classes and `const`s without side effects), and declare them again in the
   * next worker after this one died (docs/repl.md, "Re-teach after a crash"). Default false; see
   * {@link Repl.journaling}.
   */
  journal?: boolean;
}

/** The worker settings of a REPL (or of every REPL of a host) from its options. */
export function replWorkerSettings(options: ReplOptions, browserAvailable: boolean): ReplWorkerSettings {
  const settings: ReplWorkerSettings = {
    heapMb: options.heapMb ?? defaultHeapMb(),
    startupTimeoutMs: options.startupTimeoutMs ?? TIMEOUTS.workerStartupMs,
    browserAvailable,
    interruptChecks: options.interruptChecks ?? !/^(0|false|no|off)$/i.test(process.env['BROWSER_REPL_INTERRUPT_CHECKS'] ?? ''),
  };
  if (options.workerUrl !== undefined) settings.workerUrl = options.workerUrl;
  return settings;
}

/** The operation of a library call of `run`: the caller's own, or one made here from `timeoutSec` and `signal`. */
function cellOperation(options: RunOptions): Operation {
  if (options.operation === undefined) return Operation.fromTimeoutSec(options.timeoutSec, CELL_TIMEOUT, { signal: options.signal });
  if (options.timeoutSec !== undefined || options.signal !== undefined) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'pass either operation or timeoutSec and signal, not both: the operation carries its own timeout and signal');
  }
  return options.operation;
}

export interface RunOptions {
  /**
   * 1..300, default 60. Past it the cell is interrupted and the REPL kept (`interrupted: true`),
   * or, when the cell cannot be reached within the grace period, the REPL is destroyed
   * (`replTerminated: true`).
   */
  timeoutSec?: number;
  /** Replace the REPL with a fresh one before running `code`. */
  reset?: boolean;
  /**
   * Declare the journal's bindings again now if the worker they were made in has died since
   * (`code` may then be empty); the answer's `restored` says what came back. Without it the next
   * call does the same on its own (docs/repl.md, "Re-teach after a crash").
   */
  restore?: boolean;
  /**
   * Aborting before the cell starts drops it; aborting while it runs interrupts it, as a timeout
   * does (its REPL kept when an interrupt check reaches it). Either way the call rejects with
   * `REPL_ERR_ABORTED`; {@link Repl.interrupt} stops a cell and still answers its result.
   */
  signal?: AbortSignal;
  /**
   * The call's budget and cancellation made by a caller that already checked them (an HTTP route,
   * an MCP tool: common/operation.ts), instead of `timeoutSec` and `signal`; giving both is refused.
   */
  operation?: Operation;
  /**
   * The caller's name for this cell (the HTTP routes pass its `cell_id`), so that
   * `interrupt({ cellId })` stops this cell, running or still waiting for its turn, and no other.
   */
  cellId?: string;
  /**
   * Called with each content item as soon as the worker produces it, in emission order: exactly
   * the items the result's `content` will hold (output dropped by a limit is not passed either).
   * An image's `data` is the same Buffer as in the result. What the callback throws is ignored.
   */
  onOutput?: (item: CellContent) => void;
}

export type ReplState = 'idle' | 'starting' | 'ready' | 'busy' | 'closing' | 'closed';

export interface InterruptOptions {
  /**
   * Stop only the cell run with this `RunOptions.cellId`: the running one, or one still waiting
   * for its turn (it then never runs). Without it, whatever cell runs now.
   */
  cellId?: string;
}

/** What {@link Repl.interrupt} did. */
export interface InterruptOutcome {
  /** A cell was stopped (its result says `interrupted: true`, or `replTerminated` below). */
  interrupted: boolean;
  /** The stopped cell's `RunOptions.cellId`, when its caller gave one. */
  cellId?: string;
  /**
   * The cell reached no interrupt check within the grace period (a loop inside an imported
   * package, a blocked native call): its worker was ended, and this REPL's bindings with it.
   */
  replTerminated?: true;
}

/**
 * One cell from its turn until its answer: what {@link Repl.interrupt} stops. An interrupt asked
 * for before the cell was sent keeps it from running; one asked for while it runs reaches
 * `#execute` through {@link onRequest}, which settles {@link outcome} once the cell answered.
 */
class CellTurn {
  readonly cellId: string | undefined;
  #requested = false;
  #listener: (() => void) | undefined;
  #settle!: (outcome: InterruptOutcome) => void;
  /** What an interrupt of this cell did; settled by `finish`. */
  readonly outcome = new Promise<InterruptOutcome>((resolve) => { this.#settle = resolve; });

  constructor(cellId: string | undefined, requested: boolean) {
    this.cellId = cellId;
    this.#requested = requested;
  }

  get requested(): boolean {
    return this.#requested;
  }

  /** An interrupt of this cell: resolves once the cell has answered. */
  request(): Promise<InterruptOutcome> {
    if (!this.#requested) {
      this.#requested = true;
      this.#listener?.();
    }
    return this.outcome;
  }

  /** Calls `listener` on an interrupt request (at once when one came already). */
  onRequest(listener: () => void): void {
    this.#listener = listener;
    if (this.#requested) listener();
  }

  /** The cell answered; `stopped` says whether the interrupt is what ended it. Idempotent. */
  finish(stopped: boolean, replTerminated = false): void {
    this.#listener = undefined;
    const outcome: InterruptOutcome = { interrupted: this.#requested && stopped };
    if (this.cellId !== undefined && outcome.interrupted) outcome.cellId = this.cellId;
    if (outcome.interrupted && replTerminated) outcome.replTerminated = true;
    this.#settle(outcome);
  }
}

const NOT_STARTED = Symbol('not started');
/** Most a warm-up may take: a connect (10 s) and an attach; a browser slower than that is warmed by its first cell. */
const WARM_UP_BUDGET_MS = 15_000;

/** How long one cell of a restore may take: a declaration runs nothing, so only a sick worker is slower. */
const RESTORE_CELL_TIMEOUT_MS = 5_000;

/** What a timed-out cell's error adds to `execution timed out after <ms>ms` (docs/lifecycle.md). */
const TIMED_OUT_REPL_GONE = "the REPL was destroyed, so the next call starts a fresh REPL and this REPL's bindings are gone";
/** The same for a cell that was interrupted and its REPL kept. */
const TIMED_OUT_INTERRUPTED = 'the cell was interrupted; the REPL and its bindings are kept (same repl_id), and bindings the cell had not initialised yet stay uninitialised';
/** How an interrupted cell's REPL fared (`REPL_ERR_CELL_INTERRUPTED`). */
const INTERRUPT_KEPT = "the REPL and its bindings are kept (same repl_id), and bindings the cell had not initialised yet stay uninitialised";

export class Repl {
  readonly #options: ReplOptions;
  readonly #interruptGraceMs: number;
  readonly #queue = new SerialQueue();
  readonly #browser: BrowserManager | null;
  readonly #ownsBrowser: boolean;
  /** The tab registry of a REPL without a host: created on first use, for downloads only. */
  #privateTabs: TabRegistry | undefined;
  #env: Record<string, string>;
  #worker: ReplWorker | null = null;
  /** Where workers come from: the host's pool, shared by its REPLs, or this REPL's own. */
  readonly #spares: ReplWorkerSupply;
  readonly #ownsSpares: boolean;
  #state: ReplState = 'idle';
  /** close() and destroy(), each run once for all callers (common/resource.ts). */
  readonly #lifecycle = lifecycleOf({ closeGracefully: () => this.#closeGracefully(), destroyNow: () => this.#release() });
  /** What close() waits for, and for how long: set by its first call. */
  #drained: Promise<unknown> | undefined;
  #closeTimeoutMs = CLOSE_DRAIN_MS;
  /** The cell whose turn it is, until its answer. */
  #turn: CellTurn | undefined;
  /** Cells given a `cellId` that wait for their turn: an interrupt naming one keeps it from running. */
  readonly #waiting = new Map<string, { interrupted: boolean }>();
  /** Set when this REPL owns a tab of its own (a named REPL of a host). */
  readonly #tabOwner: TabOwner | undefined;
  /** Name within its host. */
  readonly name: string;
  /** The declarations to make again after the worker died; undefined while the journal is off. */
  #journal: DeclarationJournal | undefined;
  /** `replId` of the worker the journal's declarations live in. */
  #journalWorker: string | undefined;

  constructor(options: ReplOptions = {}) {
    this.#options = options;
    this.#interruptGraceMs = options.interruptGraceMs ?? TIMEOUTS.interruptGraceMs;
    this.name = options.name ?? 'default';
    this.#tabOwner = options.tabs === undefined ? undefined : options.tabOwner ?? (this.name !== 'default' ? `repl:${this.name}` : undefined);
    this.#env = { ...options.env };
    if (options.journal === true) this.#journal = new DeclarationJournal();
    const browser = options.browser ?? {};
    this.#ownsBrowser = browser !== false && !(browser instanceof BrowserManager);
    this.#browser = browser === false ? null : browser instanceof BrowserManager ? browser : new BrowserManager(browser);
    this.#ownsSpares = options.spares === undefined;
    this.#spares = options.spares ?? new ReplWorkerSupply({
      settings: replWorkerSettings(options, this.#browser !== null),
      env: this.#env,
      enabled: options.warmSpare,
    });
  }

  /** The browser this REPL's helpers drive, or null. */
  get browser(): BrowserManager | null {
    return this.#browser;
  }

  /** Id of the live worker, or null when none runs (one starts on the next call). */
  get id(): string | null {
    return this.#worker?.alive ? this.#worker.replId : null;
  }

  get state(): ReplState {
    if (this.#state === 'ready' && !this.#worker?.alive) return 'idle';
    return this.#state;
  }

  get closed(): boolean {
    return this.#state === 'closing' || this.#state === 'closed';
  }

  /** A call is running or queued. */
  get busy(): boolean {
    return this.#queue.size > 0;
  }

  /**
   * Whether the REPL keeps its declaration journal (`ReplOptions.journal`). Turning it off forgets
   * the journal; turning it on starts an empty one, which learns from the next successful cell.
   */
  get journaling(): boolean {
    return this.#journal !== undefined;
  }

  set journaling(on: boolean) {
    if (on === this.journaling) return;
    this.#journal = on ? new DeclarationJournal() : undefined;
    this.#journalWorker = undefined;
  }

  /** Target id of the tab this REPL owns, once it has one (named REPLs of a host only). */
  get targetId(): string | undefined {
    return this.#tabOwner === undefined ? undefined : this.#options.tabs?.peek(this.#tabOwner);
  }

  /** Runs one cell. Never rejects for what the cell did; rejects only for host-level failures. */
  run(code: string, options: RunOptions = {}): Promise<CellResult> {
    if (this.closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down'));
    let operation: Operation;
    try {
      operation = cellOperation(options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (typeof code !== 'string') return Promise.reject(new ReplError('REPL_ERR_INVALID_REQUEST', 'code must be a string'));
    if (code === '' && options.reset !== true && options.restore !== true) {
      return Promise.reject(new ReplError('REPL_ERR_INVALID_REQUEST', 'code is required (it may be empty only when reset or restore is true)'));
    }
    const { cellId } = options;
    // A cell id given twice (a caller's bug) is tracked once: an interrupt naming it stops both.
    const waiting = cellId === undefined ? undefined : (this.#waiting.get(cellId) ?? { interrupted: false });
    if (cellId !== undefined && waiting !== undefined) this.#waiting.set(cellId, waiting);
    const stopWaiting = () => {
      if (cellId !== undefined && this.#waiting.get(cellId) === waiting) this.#waiting.delete(cellId);
    };
    return this.#queue.run(async () => {
      stopWaiting();
      const started = performance.now();
      const turn = new CellTurn(cellId, waiting?.interrupted === true);
      this.#turn = turn;
      try {
        const result = await this.#run(code, operation, options, turn);
        publish<CellFinishMessage>(channels.cellFinish, () => ({
          durationMs: performance.now() - started,
          success: result.success,
          errorCode: result.errorCode,
          replTerminated: result.replTerminated === true,
          interrupted: result.interrupted === true,
        }));
        return result;
      } finally {
        if (this.#turn === turn) this.#turn = undefined;
        // A host failure (a worker that could not start) stopped nothing.
        turn.finish(false);
      }
    }, operation.signal).finally(stopWaiting);
  }

  /**
   * Stops the running cell as its timeout would, without waiting for the timeout: its result says
   * `interrupted: true` and `errorCode: 'REPL_ERR_CELL_INTERRUPTED'`, the REPL and its initialised
   * bindings are kept; a cell that reaches no interrupt check within the grace period (400 ms)
   * ends its worker instead (`replTerminated`, as at a timeout). Resolves once the cell has
   * answered, with `interrupted: false` when no cell ran (or the one named by `cellId` had
   * already answered). Cells queued behind the running one still run.
   */
  interrupt(options: InterruptOptions = {}): Promise<InterruptOutcome> {
    const { cellId } = options;
    const turn = this.#turn;
    if (turn !== undefined && (cellId === undefined || turn.cellId === cellId)) return turn.request();
    const waiting = cellId === undefined ? undefined : this.#waiting.get(cellId);
    if (waiting === undefined) return Promise.resolve({ interrupted: false });
    waiting.interrupted = true;
    return Promise.resolve({ interrupted: true, cellId: cellId! });
  }

  /**
   * Starts the worker and has it connect to the browser and attach its page, so that the first
   * cell pays for neither (a browser in the warm pool, docs/browsers.md). Resolves once the page is
   * attached, or once attaching failed (the first helper then tries again) or took longer than the
   * connect budget. For a REPL without a browser it only starts the worker.
   */
  warm(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down'));
    return this.#queue.run(async () => {
      const worker = await this.#ensureWorker();
      if (this.#browser !== null) await worker.warm(WARM_UP_BUDGET_MS);
    }, options.signal);
  }

  /**
   * Runs one agent-tool action on this REPL's page (lib/tools), queued with its cells; with
   * `read`, the page is read afterwards in the same round trip. Past the operation's budget (or on
   * its signal) the worker is destroyed as for a timed-out cell; the tab stays, since the registry
   * owns it.
   *
   * @throws ReplError what the action threw (rebuilt from its code), `REPL_ERR_CDP_TIMEOUT`
   *   past the budget, `REPL_ERR_WORKER_CRASHED` / `REPL_ERR_OUT_OF_MEMORY` when the worker died.
   */
  tool(action: ToolOperation, options: { read: boolean; operation: Operation }): Promise<ToolOutcome> {
    if (this.#state === 'closing' || this.#state === 'closed') return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down'));
    const { operation } = options;
    return this.#queue.run(async () => {
      operation.throwIfAborted();
      const worker = await this.#ensureWorker();
      this.#state = 'busy';
      try {
        const outcome = await operation.race(worker.tool(action, options.read, operation.timeoutMs));
        if (outcome === 'timeout' || outcome === 'aborted') {
          void this.#discardWorker();
          if (outcome === 'aborted') throw operation.abortError();
          throw new ReplError('REPL_ERR_CDP_TIMEOUT', `the ${action.op} operation did not finish within ${operation.timeoutMs} ms; the page may still be busy (the session's page is kept)`);
        }
        if (outcome.kind === 'died') {
          void this.#discardWorker();
          throw new ReplError(outcome.death.code, outcome.death.message);
        }
        if (outcome.kind === 'protocol') {
          void this.#discardWorker();
          throw new ReplError('REPL_ERR_PROTOCOL', outcome.message);
        }
        const { result } = outcome;
        if (result.error !== undefined) throw fromSerialized(result.error);
        return result.outcome!;
      } finally {
        if (this.#state === 'busy') this.#state = 'ready';
      }
    }, operation.signal);
  }

  /** Replaces the REPL with a fresh one and returns the new id. */
  async reset(options: { signal?: AbortSignal } = {}): Promise<string> {
    const result = await this.run('', { reset: true, ...options });
    return result.replId;
  }

  /** Current extra environment variables (names and values). */
  get env(): Readonly<Record<string, string>> {
    return this.#env;
  }

  /**
   * Replaces the extra environment: the running REPL gets the difference live (removed names fall
   * back to this process's own value), future workers start with it. Resolves whether the
   * running REPL had to be terminated because it could not take the update.
   */
  setEnv(env: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<{ replTerminated: boolean }> {
    if (this.closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down'));
    return this.#queue.run(async () => {
      const diff: Record<string, string | null> = {};
      for (const name of Object.keys(this.#env)) {
        if (!Object.hasOwn(env, name)) diff[name] = process.env[name] ?? null;
      }
      for (const [name, value] of Object.entries(env)) {
        if (this.#env[name] !== value) diff[name] = value;
      }
      this.#env = { ...env };
      // A host's pool follows the host's environment (Browser.setEnv); this REPL's own follows it here.
      if (this.#ownsSpares) await this.#spares.setEnv(env);
      const worker = this.#worker;
      if (worker === null || !worker.alive || Object.keys(diff).length === 0) return { replTerminated: false };
      if (await worker.setEnv(diff, TIMEOUTS.envApplyMs)) return { replTerminated: false };
      await this.#discardWorker();
      return { replTerminated: true };
    }, options.signal);
  }

  /**
   * Waits for queued calls (up to `timeoutMs`), then releases everything. Concurrent callers share
   * one promise; after `destroy()` it resolves with the destruction (common/resource.ts).
   */
  close(options: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.#lifecycle.closed) {
      this.#state = 'closing';
      // Taken now: the calls queued before close() are the ones it waits for.
      this.#drained = this.#queue.run(async () => undefined);
      this.#closeTimeoutMs = options.timeoutMs ?? CLOSE_DRAIN_MS;
    }
    return this.#lifecycle.close();
  }

  /**
   * Terminates the worker at once; running and queued calls end with the REPL destroyed.
   * Concurrent callers share one promise, and a `close()` under way is overtaken.
   */
  destroy(): Promise<void> {
    this.#state = 'closed';
    return this.#lifecycle.destroy();
  }

  async #closeGracefully(): Promise<void> {
    if (this.#drained !== undefined) await waitAtMost(this.#drained, this.#closeTimeoutMs);
    // Overtaken by destroy(), which releases everything itself.
    if (this.#lifecycle.state === 'destroying') return;
    // Graceful first: the worker closes its browser connection and exits by itself.
    const worker = this.#worker;
    this.#worker = null;
    await worker?.close({ graceMs: TIMEOUTS.shutdownGraceMs });
    await this.#release();
  }

  async #release(): Promise<void> {
    this.#state = 'closed';
    await Promise.all([this.#discardWorker(), this.#ownsSpares ? this.#spares.close() : undefined]);
    await this.#releaseTab();
    await this.#privateTabs?.close();
    if (this.#ownsBrowser) await this.#browser?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #run(code: string, operation: Operation, options: RunOptions, turn: CellTurn): Promise<CellResult> {
    if (this.#state === 'closed') throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
    // Interrupted while it waited for its turn: it never runs, and nothing else happens (no reset).
    if (turn.requested) return this.#interruptedBeforeItRan(await this.#ensureWorker(), turn);
    if (options.reset === true) {
      // The old thread ends in the background: nothing it does can reach a later response,
      // because its port is closed and its messages no longer match a pending request.
      void this.#discardWorker();
      // A reset REPL starts on a new page: its old tab goes with its bindings.
      await this.#releaseTab();
      // A fresh REPL was asked for: nothing of the old one comes back.
      this.#journal?.clear();
      this.#journalWorker = undefined;
      const worker = await this.#ensureWorker();
      if (code === '') return { success: true, replId: worker.replId };
    }
    operation.throwIfAborted();
    this.#state = 'busy';
    try {
      let worker = await this.#ensureWorker();
      // Only with the journal (or when asked) is there a step before the cell: without it, the
      // cell goes to the worker in the same turn, as it always did.
      let restored = this.#journal !== undefined || options.restore === true ? await this.#restoreIfReplaced(worker, options.restore === true) : undefined;
      if (restored !== undefined) {
        if (this.closed) throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
        worker = await this.#ensureWorker();
      }
      if (code === '') return { success: true, replId: worker.replId, ...(restored === undefined ? {} : { restored }) };
      let result = await this.#execute(worker, code, operation, options, turn);
      // The worker had died before it began the cell (it was dying between cells when we sent
      // it): nothing ran, so running it on a fresh worker is the silent replacement of docs/lifecycle.md, "Outcomes".
      if (result === NOT_STARTED) {
        worker = await this.#ensureWorker();
        if (this.#journal !== undefined) restored = await this.#restoreIfReplaced(worker, false) ?? restored;
        result = await this.#execute(await this.#ensureWorker(), code, operation, options, turn);
      }
      if (result === NOT_STARTED) {
        throw new ReplError('REPL_ERR_START_FAILED', 'failed to start browser REPL: the worker exited before running the cell');
      }
      if (result.success && this.#journal !== undefined) {
        this.#journal.record(code);
        this.#journalWorker = result.replId;
      }
      if (restored !== undefined) result.restored = restored;
      return result;
    } finally {
      if (this.#state === 'busy') this.#state = 'ready';
    }
  }

  /**
   * Declares the journal again in `worker` when it is not the worker the journal's declarations
   * were made in (that one died, or was ended at a timeout): all functions in one cell, each class
   * and `const` in its own, in their order. Undefined when there was nothing to do and the caller
   * did not ask (`restore: true` always gets a report).
   */
  async #restoreIfReplaced(worker: ReplWorker, asked: boolean): Promise<RestoreReport | undefined> {
    const journal = this.#journal;
    if (journal === undefined) return asked ? { restored: [], notRestored: [] } : undefined;
    const replaced = this.#journalWorker !== undefined && this.#journalWorker !== worker.replId;
    if (!replaced) return asked ? { restored: [], notRestored: [] } : undefined;
    // Whatever happens below, the journal now describes this worker: a declaration that cannot be
    // made again is not tried on every later call.
    this.#journalWorker = worker.replId;
    const report: RestoreReport = { restored: [], notRestored: journal.notRestored };
    const cells = journal.restoreCells();
    for (let index = 0; index < cells.length; index++) {
      const cell = cells[index]!;
      const outcome = await worker.execute(cell.code, RESTORE_CELL_TIMEOUT_MS, () => undefined);
      if (outcome.kind === 'result' && outcome.result.success) {
        report.restored.push(...cell.names);
        continue;
      }
      if (outcome.kind !== 'result') {
        // The new worker did not survive it: nothing more is declared, and the call's own code
        // goes to the worker after it.
        void this.#discardWorker();
        for (const rest of cells.slice(index)) for (const name of rest.names) report.notRestored.push({ name, reason: 'the worker ended while the journal was declared again' });
        break;
      }
      const reason = `declaring it again failed: ${outcome.result.error?.message ?? 'unknown error'}`;
      for (const name of cell.names) report.notRestored.push({ name, reason });
    }
    return report;
  }

  /** The answer of a cell an interrupt stopped before it was sent to the worker: it did not run. */
  #interruptedBeforeItRan(worker: ReplWorker, turn: CellTurn): CellResult {
    turn.finish(true);
    return {
      success: false,
      replId: worker.replId,
      content: [],
      contentTruncated: false,
      durationMs: 0,
      error: 'the cell was interrupted before it started, so none of it ran; the REPL and its bindings are as they were (same repl_id)',
      errorCode: 'REPL_ERR_CELL_INTERRUPTED',
      interrupted: true,
    };
  }

  async #execute(
    worker: ReplWorker, code: string, operation: Operation, options: RunOptions, turn: CellTurn,
  ): Promise<CellResult | typeof NOT_STARTED> {
    const { timeoutMs } = operation;
    if (turn.requested) return this.#interruptedBeforeItRan(worker, turn);
    const started = performance.now();
    const content: CellContent[] = [];
    // Past the deadline nothing more reaches the caller, whatever the worker still sends.
    let pastDeadline = false;
    const onOutput = (item: OutputItem) => {
      if (pastDeadline) return;
      const converted: CellContent = item.type === 'text'
        ? item
        : { type: 'image', mimeType: item.mimeType, data: Buffer.from(item.bytes) };
      content.push(converted);
      if (options.onOutput === undefined) return;
      // A throwing callback must not reach the worker handle: it would count as a protocol
      // violation and end the REPL for a fault of the caller.
      try {
        options.onOutput(converted);
      } catch (error) {
        debug('onOutput threw: %o', error);
      }
    };
    const execution = worker.execute(code, timeoutMs, onOutput);
    // The budget counts from the cell's turn, not from the call: time queued is not spent.
    const outcome = await operation.race(execution, (stop: (reason: 'interrupt') => void) => turn.onRequest(() => stop('interrupt')));
    const elapsed = () => Math.round(performance.now() - started);
    if (typeof outcome !== 'string' && outcome.kind === 'result') {
      turn.finish(false);
      return this.#cellResult(worker, outcome.result, content);
    }

    if (outcome === 'interrupt') {
      pastDeadline = true;
      const answer = worker.interruptible ? await this.#stopCell(worker, execution) : undefined;
      // Answered without the mark: it finished on its own as the interrupt came, so it is its own result.
      if (answer?.kind === 'result' && worker.alive && answer.result.interrupted !== true) {
        turn.finish(false);
        return this.#cellResult(worker, answer.result, content);
      }
      if (answer?.kind === 'result' && worker.alive) {
        turn.finish(true);
        return stopped(worker, content, elapsed(), 'REPL_ERR_CELL_INTERRUPTED', `the cell was interrupted after ${elapsed()}ms; ${INTERRUPT_KEPT}`, answer.result);
      }
      void this.#discardWorker();
      turn.finish(true, true);
      return stopped(worker, content, elapsed(), 'REPL_ERR_CELL_INTERRUPTED', worker.interruptible
        ? `the cell was interrupted after ${elapsed()}ms but reached no interrupt check within ${this.#interruptGraceMs}ms `
          + `(a loop inside an imported package or eval'd code, a blocked native call), so ${TIMED_OUT_REPL_GONE}`
        : `the cell was interrupted after ${elapsed()}ms; this REPL runs without interrupt checks (interruptChecks: false), so ${TIMED_OUT_REPL_GONE}`);
    }

    if (outcome === 'timeout' || outcome === 'aborted') {
      pastDeadline = true;
      // First the cell is asked to stop and the REPL kept (issue 15, docs/lifecycle.md); only a
      // worker that does not answer within the grace period (a loop in an imported package, a
      // blocked native call) is ended, as before.
      const answer = worker.interruptible ? await this.#stopCell(worker, execution) : undefined;
      // Whoever asked for an interrupt meanwhile learns that the cell was stopped all the same.
      turn.finish(true, answer?.kind !== 'result' || !worker.alive);
      // A result without the mark is a cell that finished on its own just past the deadline: its
      // worker is as healthy as an interrupted one's.
      if (answer?.kind === 'result' && worker.alive) {
        if (outcome === 'aborted') throw operation.abortError();
        return stopped(worker, content, elapsed(), 'REPL_ERR_CELL_TIMEOUT', `execution timed out after ${timeoutMs}ms; ${TIMED_OUT_INTERRUPTED}`, answer.result);
      }
      // Do not wait for the thread to exit: a worker stuck in native code must not delay the answer.
      void this.#discardWorker();
      if (outcome === 'aborted') throw operation.abortError();
      // The hosted product's wording first (docs/lifecycle.md), then what it means for the caller's next call.
      return stopped(worker, content, elapsed(), 'REPL_ERR_CELL_TIMEOUT', `execution timed out after ${timeoutMs}ms; ${TIMED_OUT_REPL_GONE}`);
    }
    void this.#discardWorker();
    // Run again on a fresh worker (see #run): the turn, and an interrupt of it, carry over.
    if (outcome.kind === 'not-started') return NOT_STARTED;
    turn.finish(false);
    const death = outcome.kind === 'died'
      ? outcome.death
      : { code: 'REPL_ERR_PROTOCOL' as const, message: outcome.message, stack: undefined };
    const cell: CellResult = {
      success: false,
      replId: worker.replId,
      content,
      contentTruncated: false,
      durationMs: elapsed(),
      error: death.message,
      errorCode: death.code,
      replTerminated: true,
    };
    if (death.stack !== undefined) cell.stack = death.stack;
    return cell;
  }

  /**
   * Asks the running cell to stop (the checks' flag and the `interrupt` message) and waits up to
   * the grace period for its answer, or up to `interruptUnwindMs` more once the worker said it
   * acted on the interrupt; undefined when none came (the caller ends the worker).
   */
  async #stopCell(worker: ReplWorker, execution: Promise<ExecutionOutcome>): Promise<ExecutionOutcome | undefined> {
    worker.interrupt();
    const answer = await valueWithin(execution, this.#interruptGraceMs);
    // A worker that acted on the interrupt is unwinding (a deep stack takes a while): its answer is coming.
    if (answer !== undefined || !worker.interruptSeen) return answer;
    return valueWithin(execution, TIMEOUTS.interruptUnwindMs);
  }

  /** A cell's answer as the library returns it. */
  #cellResult(worker: ReplWorker, result: ResultMessage, content: CellContent[]): CellResult {
    const cell: CellResult = {
      success: result.success,
      replId: worker.replId,
      content,
      contentTruncated: result.contentTruncated,
      durationMs: result.durationMs,
    };
    if (result.error !== undefined) cell.error = result.error.message;
    if (result.error?.stack !== undefined) cell.stack = result.error.stack;
    if (result.error?.code !== undefined) cell.errorCode = result.error.code;
    return cell;
  }

  async #ensureWorker(): Promise<ReplWorker> {
    if (this.#worker?.alive) return this.#worker;
    this.#worker = null;
    this.#state = 'starting';
    let worker: ReplWorker | null = null;
    try {
      worker = await this.#spares.take(this.#env) ?? await this.#spares.start(this.#env);
    } finally {
      if (this.#state === 'starting') this.#state = worker === null ? 'idle' : 'ready';
    }
    const browser = this.#browser;
    worker.configure({
      name: this.name,
      ownsTab: this.#tabOwner !== undefined,
      onEndpointRequest: browser === null ? undefined : (message) => this.#answerEndpoint(browser, message),
      onWebMcpCall: this.#options.webmcp,
      onHumanRequest: this.#options.human,
      // The default REPL's tab is the one its browser's live view, recordings and computer controls show.
      onAttached: this.#tabOwner === undefined && this.#options.tabs !== undefined ? (targetId) => this.#options.tabs?.noteDefaultAttached(targetId) : undefined,
    });
    this.#worker = worker;
    this.#spares.refill();
    return worker;
  }

  /**
   * The browser endpoint for this REPL's worker, with the tab it owns (opened on its first ask, or
   * again when it reports its tab gone) and the tabs others own, which it must never attach.
   */
  async #answerEndpoint(browser: BrowserManager, message: EndpointRequestMessage): Promise<EndpointAnswer> {
    const endpoint = await browser.endpoint(message.previous === undefined ? {} : { previous: message.previous });
    // A REPL of its own (no host) still needs the main-thread side of the browser for its downloads.
    const tabs = this.#options.tabs ?? (this.#privateTabs ??= new TabRegistry({ endpoint: () => browser.endpoint(), reachable: () => !browser.closed }));
    const downloads = await tabs.downloads.prepare(this.#tabOwner ?? 'repl:default', { reapply: message.reapplyDownloads === true });
    // A waitForDownload asks only for this: no owner listing on its path (docs/benchmarks.md).
    if (message.reapplyDownloads === true) return { endpoint, downloads };
    const answer: EndpointAnswer = { endpoint, tabOwners: await tabs.settledOwnersExcept(this.#tabOwner), downloads };
    if (this.#tabOwner !== undefined) {
      answer.targetId = await tabs.tabFor(this.#tabOwner, { gone: message.tabGone });
      // Known once the tab is open: an agent-tool session's own context (its cells' Playwright sees it as the default one).
      const browserContextId = tabs.contextOf(this.#tabOwner);
      if (browserContextId !== undefined) answer.browserContextId = browserContextId;
    }
    return answer;
  }

  /** Closes the tab this REPL owns, if any; one that cannot be closed now (browser gone) is only forgotten. */
  async #releaseTab(): Promise<void> {
    if (this.#tabOwner === undefined) return;
    await this.#options.tabs?.release(this.#tabOwner).catch(() => undefined);
  }

  async #discardWorker(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (this.#state === 'ready' || this.#state === 'busy') this.#state = 'idle';
    await worker?.destroy();
  }
}

/**
 * The answer of a cell stopped past its deadline or by an interrupt: with the worker's answer
 * (`kept`) the REPL lives on (`interrupted`); without it the worker was ended (`replTerminated`).
 */
function stopped(
  worker: ReplWorker, content: CellContent[], durationMs: number, errorCode: 'REPL_ERR_CELL_TIMEOUT' | 'REPL_ERR_CELL_INTERRUPTED', error: string,
  kept?: ResultMessage,
): CellResult {
  const result: CellResult = { success: false, replId: worker.replId, content, contentTruncated: kept?.contentTruncated ?? false, durationMs, error, errorCode };
  if (kept === undefined) result.replTerminated = true;
  else result.interrupted = true;
  return result;
}
