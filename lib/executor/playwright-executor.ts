/**
 * One Playwright executor: a FIFO of calls, one worker thread (started on the first call,
 * replaced after a crash or a blocked event loop), and for a named executor the tab it owns.
 *
 * ```
 * call admitted ─► [named: open tab if none] ∥ [start worker if none alive] ─► run in worker
 *   reply ─────────────► result (the worker enforced timeout_sec: a timed-out or interrupted call
 *                        is stopped, its Playwright calls aborted; worker and connection live on)
 *   tab missing ───────► open a new tab, run once more with tab.created: true
 *   no reply by timeout_sec + grace (or grace after an interrupt) ─► terminate the worker,
 *                        "execution failed: …"; next call starts a new one
 *   worker exited ─────► "execution failed: …"; next call starts a new one
 * ```
 */
import { debuglog } from 'node:util';
import { ReplError } from '../../common/errors.js';
import { valueWithin } from '../../common/wait.js';
import { channels, publish } from '../../common/diagnostics.js';
import type { ExecuteFinishMessage, ExecuteOutcome } from '../../common/diagnostics.js';
import type { Operation } from '../../common/operation.js';
import { SerialQueue } from '../threads/serial-queue.js';
import type { TabOwner, TabRegistry } from '../chromium/tab-registry.js';
import type { PlaywrightExecuteResult, PlaywrightExecutorInfo, PlaywrightOutput, PlaywrightTab } from './execute-result.js';
import type { ExecutorWorker, RunOutcome, RunRequest } from './executor-worker.js';
import type { ExecutorWorkerSupply } from './executor-worker-supply.js';

export interface PlaywrightExecutorOptions {
  name: string;
  /**
   * The browser's tab registry: a named executor's tab comes from it (and goes back to it); the
   * default executor owns none, and is told which tabs others own so it never binds them.
   */
  tabs: TabRegistry;
  /** Where new workers come from (the host's warm spare, shared by its executors). */
  workers: ExecutorWorkerSupply;
  /** How long past `timeout_sec` a silent worker is given before it is declared blocked. */
  graceMs: number;
  /** The owner of its tab; default `executor:<name>`. An agent-tool session's executor shares its session's (`tools:<id>`). */
  tabOwner?: TabOwner | undefined;
  /**
   * An agent-tool session's executor: the session's tabs and browser context, asked before every
   * call once its own tab is open. `page` is the session's active tab, its Playwright sees the
   * session's tabs only, and the session's context as the default one (docs/mcp.md "Code tools").
   */
  session?: (() => Promise<ExecutorSession>) | undefined;
}

/** What an agent-tool session's executor may drive (see {@link PlaywrightExecutorOptions.session}). */
export interface ExecutorSession {
  /** The tab `page` is bound to; absent: the session's own tab. */
  activeTargetId?: string | undefined;
  /** Every tab of the session (its own and the popups it opened). */
  ownTargetIds: string[];
  /** The session's own browser context, when it has one. */
  browserContextId?: string | undefined;
}

const debug = debuglog('browser-repl:executor');

/** What the running call of a restarted executor is told. */
export const RESTARTED = 'executor was restarted';

/** Why a worker was ended after an interrupt that no check of its code answered. */
const INTERRUPT_UNANSWERED = 'interrupt unanswered';

/** What {@link PlaywrightExecutor.interrupt} did. */
export interface ExecutorInterruptOutcome {
  /** A call was stopped (its answer says so). */
  interrupted: boolean;
  /** No check of its code answered within the grace period: the worker was ended (the next call starts a fresh one). */
  workerTerminated?: true;
}

/** The call running in a worker now, until its outcome is in. */
interface CurrentCall {
  readonly worker: ExecutorWorker;
  readonly settled: Promise<void>;
}

/** The executor was deleted, restarted or shut down while a call was starting. */
class RetiredError extends Error {}

/** One executor (default or named); created and owned by {@link PlaywrightExecutors}. */
export class PlaywrightExecutor {
  readonly name: string;
  readonly createdAt = new Date();
  readonly #options: PlaywrightExecutorOptions;
  readonly #queue = new SerialQueue();
  #lastUsedAt: Date = this.createdAt;
  #busy = false;
  #worker: ExecutorWorker | null = null;
  #everStarted = false;
  #targetId: string | undefined;
  #retired: string | undefined;
  /** The call whose code runs in the worker now. */
  #current: CurrentCall | undefined;
  /** An interrupt came while the call was still starting its worker or opening its tab: it does not run. */
  #interruptBeforeRun = false;

  constructor(options: PlaywrightExecutorOptions) {
    this.name = options.name;
    this.#options = options;
    this.tabOwner = options.tabOwner ?? `executor:${options.name}`;
  }

  /** This executor's key in the tab registry. */
  readonly tabOwner: TabOwner;

  /** A call is running (from admission until its result). */
  get busy(): boolean {
    return this.#busy;
  }

  /** Target id of the tab this executor owns, once it has one. */
  get targetId(): string | undefined {
    return this.#targetId;
  }

  /** Id of the live worker, or null when the next call starts one. Changes when a worker is replaced. */
  get workerId(): string | null {
    return this.#worker?.alive === true ? this.#worker.id : null;
  }

  /** Never ran a worker and owns no tab: a failed setup may remove it without losing anything. */
  get pristine(): boolean {
    return !this.#everStarted && this.#targetId === undefined;
  }

  info(): PlaywrightExecutorInfo {
    const info: PlaywrightExecutorInfo = { name: this.name, busy: this.#busy, createdAt: this.createdAt, lastUsedAt: this.#lastUsedAt };
    if (this.#targetId !== undefined) info.targetId = this.#targetId;
    return info;
  }

  /**
   * Queues one call, bounded by the operation's budget from its turn. Resolves with
   * `success: false` for everything the code or the worker did; rejects only with
   * `REPL_ERR_EXECUTOR_START_FAILED` (setup) or `REPL_ERR_ABORTED` (the operation's signal fired
   * while the call was still queued).
   */
  execute(code: string, operation: Operation, onOutput?: (output: PlaywrightOutput) => void): Promise<PlaywrightExecuteResult> {
    if (this.#retired !== undefined) return Promise.resolve(failure(this.#retired));
    return this.#queue.run(async () => {
      const turn = performance.now();
      const { result, outcome } = await this.#call(code, operation.timeoutMs, onOutput);
      publish<ExecuteFinishMessage>(channels.executeFinish, () => ({ executor: this.name, durationMs: performance.now() - turn, outcome }));
      return result;
    }, operation.signal);
  }

  /**
   * Ends the executor for good (deleted, or shutting down): the running call and every queued one
   * fail with `reason`; resolves once they have unwound and the worker has exited.
   */
  async retire(reason: string): Promise<void> {
    this.#retired ??= reason;
    await this.#worker?.destroy(reason);
    await this.#queue.run(async () => undefined).catch(() => undefined);
  }

  /**
   * Stops the running call cooperatively, as its timeout would (issue 27): its Playwright calls
   * are aborted, the checks in its code throw, and it answers `execution interrupted after …`,
   * with the worker and its browser connection kept. A call no check reaches within `graceMs` (a
   * loop in an imported package) has its worker ended instead. A call still starting (worker,
   * tab) never runs its code. Resolves once the call has answered; `interrupted: false` when none ran.
   */
  async interrupt(): Promise<ExecutorInterruptOutcome> {
    const current = this.#current;
    if (current === undefined) {
      if (!this.#busy) return { interrupted: false };
      this.#interruptBeforeRun = true;
      return { interrupted: true };
    }
    if (!current.worker.stop('interrupt')) return { interrupted: false };
    const answered = await valueWithin(current.settled.then(() => true), this.#options.graceMs);
    if (answered === true) return { interrupted: true };
    await current.worker.destroy(INTERRUPT_UNANSWERED);
    await current.settled;
    return { interrupted: true, workerTerminated: true };
  }

  /**
   * Stops the worker without waiting for queued calls: the running call (even one still starting
   * the worker) fails with "executor was restarted"; queued and later calls start a new worker.
   */
  async restart(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.destroy(RESTARTED);
  }

  async #call(code: string, timeoutMs: number, onOutput: ((output: PlaywrightOutput) => void) | undefined): Promise<Finished> {
    if (this.#retired !== undefined) return finished(failure(this.#retired), 'error');
    this.#busy = true;
    this.#interruptBeforeRun = false;
    this.#lastUsedAt = new Date();
    const replacing = this.#worker?.alive !== true;
    // timeout_sec counts from the call's turn: starting a worker and opening a tab spend it, so a
    // slow start under load may take all of it, and the code gets what is left.
    const deadline = performance.now() + timeoutMs;
    const remainingMs = (): number => Math.max(1, Math.round(deadline - performance.now()));
    try {
      let worker: ExecutorWorker | 'still-starting';
      let tab: PlaywrightTab | undefined;
      let session: ExecutorSession | undefined;
      try {
        // Both are I/O-bound: the tab opens while the worker loads.
        [worker, tab] = await Promise.all([this.#ensureWorker(timeoutMs), this.#ensureTab()]);
        session = await this.#options.session?.();
        if (session?.activeTargetId !== undefined && session.activeTargetId !== tab?.targetId) tab = { targetId: session.activeTargetId, created: false };
      } catch (error) {
        if (error instanceof RetiredError) return finished(failure(error.message), 'error');
        if (this.#retired !== undefined) return finished(failure(this.#retired), 'error');
        throw error;
      }
      if (worker === 'still-starting') {
        const result: PlaywrightExecuteResult = {
          success: false,
          error: `execution timed out after ${timeoutMs}ms; the executor's worker was still starting, so the code did not run `
            + '(it goes on starting, for the next call)',
          stdout: '',
          stderr: '',
        };
        return finished(tab === undefined ? result : { ...result, tab }, 'timeout');
      }
      if (this.#interruptBeforeRun) {
        const result: PlaywrightExecuteResult = { success: false, error: 'execution interrupted before the code ran (the executor was still getting ready)', stdout: '', stderr: '' };
        return finished(tab === undefined ? result : { ...result, tab }, 'error');
      }
      let outcome = await this.#runInWorker(worker, this.#runRequest(code, { timeoutMs: remainingMs(), budgetMs: timeoutMs }, tab, onOutput !== undefined, session), onOutput);
      if (outcome.kind === 'reply' && outcome.reply.tabMissing === true && this.#retired === undefined) {
        // The code did not run the first time, so nothing was streamed twice. A session's active
        // tab that closed leaves the session's own one.
        const gone = tab?.targetId === this.#targetId ? this.#targetId : undefined;
        if (gone !== undefined) this.#targetId = undefined;
        tab = await this.#ensureTab(gone);
        outcome = await this.#runInWorker(worker, this.#runRequest(code, { timeoutMs: remainingMs(), budgetMs: timeoutMs }, tab, onOutput !== undefined, session), onOutput);
      }
      return finished(this.#result(outcome, worker, tab, timeoutMs), outcomeOf(outcome, worker));
    } finally {
      this.#busy = false;
      // This call used the spare (or started a worker): prepare the next one now that it is done.
      if (replacing) this.#options.workers.refill();
    }
  }

  /** One run of the call in its worker, visible to {@link interrupt} while it lasts. */
  async #runInWorker(worker: ExecutorWorker, request: RunRequest, onOutput: ((output: PlaywrightOutput) => void) | undefined): Promise<RunOutcome> {
    let settle!: () => void;
    const current: CurrentCall = { worker, settled: new Promise<void>((resolve) => { settle = resolve; }) };
    this.#current = current;
    try {
      return await worker.run(request, this.#options.graceMs, onOutput);
    } finally {
      if (this.#current === current) this.#current = undefined;
      settle();
    }
  }

  /**
   * The live worker, once ready, or a new one (the spare); `budgetMs`, the call's whole deadline,
   * is how long the call waits for it. `'still-starting'` when that ran out first: the worker
   * stays this executor's, still starting, and the call times out.
   */
  async #ensureWorker(budgetMs: number): Promise<ExecutorWorker | 'still-starting'> {
    const current = this.#worker;
    const worker = current?.alive === true ? current : this.#options.workers.take();
    this.#worker = worker;
    if (worker.state === 'ready') return worker;
    const started = performance.now();
    let ready: boolean;
    try {
      ready = await worker.readyWithin(budgetMs);
    } catch (error) {
      if (this.#worker === worker) this.#worker = null;
      await worker.destroy();
      const reason = this.#retired ?? (worker.destroyReason === RESTARTED ? RESTARTED : undefined);
      if (reason !== undefined) throw new RetiredError(reason);
      throw error;
    }
    if (!ready) {
      debug('%s: worker %s not ready within the call\'s %d ms; it goes on starting', this.name, worker.id, budgetMs);
      return 'still-starting';
    }
    debug('%s: worker %s ready in %d ms', this.name, worker.id, Math.round(performance.now() - started));
    this.#everStarted = true;
    return worker;
  }

  /** A named executor's tab (`gone`: the one it found closed); the default executor owns none. */
  async #ensureTab(gone?: string): Promise<PlaywrightTab | undefined> {
    if (this.name === 'default' && this.#options.tabOwner === undefined) return undefined;
    if (this.#targetId !== undefined) return { targetId: this.#targetId, created: false };
    let targetId: string;
    // A session's executor shares its session's tab, which is often open already.
    const existing = this.#options.tabs.peek(this.tabOwner);
    try {
      targetId = await this.#options.tabs.tabFor(this.tabOwner, { gone });
    } catch (error) {
      throw new ReplError('REPL_ERR_EXECUTOR_START_FAILED',
        `failed to set up playwright executor: open tab: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // Recorded before any worker sees it, so that delete and shutdown can always close it.
    this.#targetId = targetId;
    return { targetId, created: existing === undefined || existing === gone };
  }

  #runRequest(code: string, budget: { timeoutMs: number; budgetMs: number }, tab: PlaywrightTab | undefined, streamOutput: boolean, session?: ExecutorSession): RunRequest {
    // Only a streaming caller pays for a message per console write.
    const base: RunRequest = streamOutput ? { code, ...budget, streamOutput } : { code, ...budget };
    if (session !== undefined) {
      base.ownTargetIds = session.ownTargetIds;
      if (session.browserContextId !== undefined) base.browserContextId = session.browserContextId;
    }
    if (tab !== undefined) return { ...base, targetId: tab.targetId, tabCreated: tab.created };
    // The default executor drives whatever tab is active, but never one that someone else owns.
    const foreign = Object.keys(this.#options.tabs.ownersExcept(this.tabOwner));
    return foreign.length === 0 ? base : { ...base, foreignTargetIds: foreign };
  }

  #result(outcome: RunOutcome, worker: ExecutorWorker, tab: PlaywrightTab | undefined, timeoutMs: number): PlaywrightExecuteResult {
    const withTab = (result: PlaywrightExecuteResult): PlaywrightExecuteResult => (tab === undefined ? result : { ...result, tab });
    switch (outcome.kind) {
      case 'reply': {
        const { reply } = outcome;
        const stack = reply.error?.stack;
        const stderr = stack === undefined || stack === '' ? reply.stderr : `${reply.stderr}${stack}\n`;
        const result: PlaywrightExecuteResult = { success: reply.success, stdout: reply.stdout, stderr };
        if (reply.success) result.result = JSON.parse(reply.resultJson ?? 'null') as unknown;
        if (reply.error !== undefined) result.error = reply.error.message;
        if (reply.tab !== undefined) result.tab = reply.tab;
        return result;
      }
      case 'died':
        if (worker.destroyReason === INTERRUPT_UNANSWERED) {
          return withTab(failure(`interrupted, but no check of the code answered within ${this.#options.graceMs / 1000}s (a loop inside an imported `
            + 'package, a blocked native call): the executor\'s worker was terminated and the next call starts a fresh one'));
        }
        // Terminated on purpose (deleted, restarted, shutting down): the call is told why, without a tab.
        if (worker.destroyReason !== undefined) return failure(this.#retired ?? worker.destroyReason);
        return withTab(failure(`${outcome.message}; the next call starts a fresh worker`));
      case 'unresponsive':
        // The window counts from the call's turn, as timeout_sec does; the wait itself was shorter
        // by whatever the worker's start took (`outcome.waitedMs`), which would read as 5.999s.
        return withTab(failure(`no answer within ${(timeoutMs + this.#options.graceMs) / 1000}s (timeout_sec + ${this.#options.graceMs / 1000}s): `
          + 'the executor\'s event loop is blocked, for example by a synchronous loop; its worker was terminated '
          + 'and the next call starts a fresh one'));
      case 'protocol':
        return withTab(failure(outcome.message));
    }
  }
}


/** A call's result, with how it ended for `browser-repl:execute:finish`. */
interface Finished {
  result: PlaywrightExecuteResult;
  outcome: ExecuteOutcome;
}

function finished(result: PlaywrightExecuteResult, outcome: ExecuteOutcome): Finished {
  return { result, outcome };
}

function outcomeOf(outcome: RunOutcome, worker: ExecutorWorker): ExecuteOutcome {
  switch (outcome.kind) {
    case 'reply':
      return outcome.reply.success ? 'ok' : outcome.reply.timedOut === true ? 'timeout' : 'error';

    case 'unresponsive':
      return 'blocked';
    case 'died':
      // Deleted, restarted or shut down while it ran: not a fault of the worker.
      return worker.destroyReason === undefined ? 'crashed' : 'error';
    case 'protocol':
      return 'crashed';
  }
}

function failure(reason: string): PlaywrightExecuteResult {
  return { success: false, error: `execution failed: ${reason}`, stdout: '', stderr: '' };
}
