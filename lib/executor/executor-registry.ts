/**
 * The Playwright executors of one browser host: `default`, which always exists and takes no
 * slot, and up to eight named executors, each with its own worker thread and tab. Calls on one
 * executor run one at a time; calls on different executors run concurrently.
 */
import { debuglog } from 'node:util';
import { ReplError } from '../../common/errors.js';
import { defaultHeapMb } from '../../common/memory-budget.js';
import { lifecycleOf } from '../../common/resource.js';
import { TIMEOUTS } from '../../common/limits.js';
import { CELL_TIMEOUT } from '../../common/timeout-sec.js';
import { Operation } from '../../common/operation.js';
import type { BrowserManager } from '../chromium/browser-manager.js';
import { TabRegistry } from '../chromium/tab-registry.js';
import type { PlaywrightExecuteResult, PlaywrightExecutorInfo, PlaywrightOutput } from './execute-result.js';
import { EXECUTOR_NAME_PATTERN } from '../../common/protocol/executor-messages.js';
import type { PlaywrightEngine } from '../../common/protocol/executor-messages.js';
import type { HumanRequestHandler, WebMcpCallHandler } from '../threads/browser-calls.js';
import { ExecutorWorker } from './executor-worker.js';
import { PlaywrightExecutor } from './playwright-executor.js';
import type { ExecutorSession } from './playwright-executor.js';
import type { TabOwner } from '../chromium/tab-registry.js';
import type { ExecutorInterruptOutcome } from './playwright-executor.js';
import { ExecutorWorkerSupply } from './executor-worker-supply.js';

const debug = debuglog('browser-repl:executor');

/** Named executors per browser; `default` does not count. */
export const MAX_NAMED_EXECUTORS = 8;

const DELETED = 'executor was deleted';
const SHUTTING_DOWN = 'playwright executors are shutting down';

export interface PlaywrightExecutorsOptions {
  browser: BrowserManager;
  /**
   * The registry of the browser's tabs, shared with the REPLs of the same browser
   * (`Browser` passes its own). Default: one of the executors' own, closed with them.
   */
  tabs?: TabRegistry | undefined;
  /** Default: `patchright` when `PLAYWRIGHT_ENGINE=patchright`, else `playwright-core`. */
  engine?: PlaywrightEngine | undefined;
  /**
   * How long a warm spare started with no call waiting may take to answer its handshake (default
   * 15 s). A worker a call waits for may take the rest of that call's `timeout_sec` instead.
   */
  startupTimeoutMs?: number | undefined;
  /** Grace past `timeout_sec` before a silent worker counts as blocked (default 5 s). */
  graceMs?: number | undefined;
  /**
   * Keep one started worker, with Playwright already imported, for the next new executor or
   * replacement (default true; costs one idle thread). It starts after the first call.
   */
  warmSpare?: boolean | undefined;
  /**
   * Answers the code's `webmcp.listTools()` and `webmcp.invokeTool()` (docs/webmcp.md);
   * `Browser` passes its WebMCP monitor. Absent: both fail with `REPL_ERR_BROWSER_NOT_FOUND`.
   */
  webmcp?: WebMcpCallHandler | undefined;
  /** Answers the code's `requestHuman()` (docs/live-view.md#hand-over); `Browser` passes its hand-over requests. */
  human?: HumanRequestHandler | undefined;
  /** Test seam: another worker script speaking the executor protocol. */
  workerUrl?: URL | undefined;
}

/** One execute call, in library form (HTTP: `ExecutePlaywrightRequest`). */
export interface PlaywrightExecuteRequest {
  /** TypeScript or JavaScript: the body of an async function of `page`, `context`, `browser`. */
  code: string;
  /** `default` (the default) or a name matching `^[A-Za-z0-9_-]{1,64}$`. */
  executor?: string | undefined;
  /** 1..300, default 60. */
  timeoutSec?: number | undefined;
  /** Aborting while the call is queued drops it (`REPL_ERR_ABORTED`); a running call finishes. */
  signal?: AbortSignal | undefined;
  /**
   * The call's budget and cancellation made by a caller that already checked them (an HTTP route:
   * common/operation.ts), instead of `timeoutSec` and `signal`; giving both is refused.
   */
  operation?: Operation | undefined;
  /**
   * Called once when the call is admitted: it passed validation and the executor limit, and now
   * waits for its turn on the executor. A streaming server answers its headers here, so that
   * refusals before it are still plain errors. What it throws is ignored.
   */
  onAdmitted?: (() => void) | undefined;
  /**
   * Called with each console write of the code as it happens, in order; each channel's chunks
   * joined are the result's `stdout`/`stderr` (on failure `stderr` then also gets the error's
   * stack, which is not streamed). What it throws is ignored.
   */
  onOutput?: ((output: PlaywrightOutput) => void) | undefined;
}

/** The operation of one call: the caller's own, or one made here from `timeoutSec` and `signal`. */
function executeOperation(request: PlaywrightExecuteRequest): Operation {
  if (request.operation === undefined) return Operation.fromTimeoutSec(request.timeoutSec, CELL_TIMEOUT, { signal: request.signal });
  if (request.timeoutSec !== undefined || request.signal !== undefined) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'pass either operation or timeoutSec and signal, not both: the operation carries its own timeout and signal');
  }
  return request.operation;
}

/** `PLAYWRIGHT_ENGINE` → engine; unknown values are an error worth seeing. */
export function engineFromEnv(value: string | undefined): PlaywrightEngine {
  if (value === undefined || value === '' || value === 'playwright-core' || value === 'playwright') return 'playwright-core';
  if (value === 'patchright') return 'patchright';
  throw new ReplError('REPL_ERR_EXECUTOR_START_FAILED',
    `failed to set up playwright executor: PLAYWRIGHT_ENGINE must be "playwright-core" or "patchright", not "${value}"`);
}

/** The executors of one browser; see the module comment. Create one per `BrowserManager`. */
export class PlaywrightExecutors {
  readonly #options: PlaywrightExecutorsOptions;
  readonly #browser: BrowserManager;
  readonly #tabs: TabRegistry;
  readonly #ownsTabs: boolean;
  readonly #workers: ExecutorWorkerSupply;
  /** Every worker not yet exited, including replaced ones still terminating: shutdown awaits them all. */
  readonly #live = new Set<ExecutorWorker>();
  readonly #engine: PlaywrightEngine | ReplError;
  readonly #default: PlaywrightExecutor;
  readonly #named = new Map<string, PlaywrightExecutor>();
  /** Agent-tool sessions' executors: outside the named ones and their limit, ended with their session. */
  readonly #private = new Set<PlaywrightExecutor>();
  /** close(), run once for all callers (common/resource.ts). */
  readonly #lifecycle = lifecycleOf({ closeGracefully: () => this.#shutdown() });

  constructor(options: PlaywrightExecutorsOptions) {
    this.#options = options;
    this.#browser = options.browser;
    this.#ownsTabs = options.tabs === undefined;
    this.#tabs = options.tabs ?? new TabRegistry({ endpoint: () => options.browser.endpoint(), reachable: () => this.#browserReachable() });
    let engine: PlaywrightEngine | ReplError;
    try {
      engine = options.engine ?? engineFromEnv(process.env['PLAYWRIGHT_ENGINE']);
    } catch (error) {
      engine = error as ReplError;
    }
    this.#engine = engine;
    const heapMb = defaultHeapMb();
    this.#workers = new ExecutorWorkerSupply(() => {
      const worker = new ExecutorWorker({
        engine: typeof engine === 'string' ? engine : 'playwright-core',
        heapMb,
        startupTimeoutMs: options.startupTimeoutMs ?? TIMEOUTS.workerStartupMs,
        // Every owner's tabs (the worker knows which one is its own) and the host's download folders,
        // which the worker's scoped endpoint needs (common/cdp/scoped-endpoint.ts).
        onEndpointRequest: async () => ({
          endpoint: await options.browser.endpoint(),
          tabOwners: await this.#tabs.settledOwnersExcept(),
          downloads: await this.#tabs.downloads.prepare('executor:playwright'),
        }),
        onWebMcpCall: options.webmcp,
        onHumanRequest: options.human,
        workerUrl: options.workerUrl,
      });
      this.#live.add(worker);
      void worker.exited.then(() => this.#live.delete(worker));
      return worker;
    }, { enabled: options.warmSpare ?? true });
    this.#default = this.#create('default');
  }

  /** A call runs on one of the executors right now. */
  get busy(): boolean {
    if (this.#default.busy) return true;
    for (const executor of this.#named.values()) if (executor.busy) return true;
    return false;
  }

  /** The engine executors load, or the configuration error every call reports. */
  get engine(): PlaywrightEngine | undefined {
    return typeof this.#engine === 'string' ? this.#engine : undefined;
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#lifecycle.closed;
  }

  /** The named executors, and the default one while it has a worker: for `/metrics`. */
  get size(): number {
    if (this.closed) return 0;
    return this.#named.size + (this.#default.workerId === null ? 0 : 1);
  }

  /** The executor of that name, if it exists (diagnostics and tests: its `workerId`, `targetId`). */
  get(name: string): PlaywrightExecutor | undefined {
    if (this.closed) return undefined;
    return name === 'default' ? this.#default : this.#named.get(name);
  }

  /**
   * Runs `code` on an executor, creating a named one on first use. Resolves `success: false` for
   * failures of the code, the worker or the executor's lifecycle.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_CONFLICT` (limit; `data.executors`
   *   lists them), `REPL_ERR_EXECUTOR_START_FAILED`, `REPL_ERR_ABORTED`.
   */
  async execute(request: PlaywrightExecuteRequest): Promise<PlaywrightExecuteResult> {
    const { code } = request;
    const name = request.executor ?? 'default';
    if (typeof code !== 'string' || code === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'code is required');
    assertName(name);
    const operation = executeOperation(request);
    if (this.closed) return { success: false, error: `execution failed: ${SHUTTING_DOWN}`, stdout: '', stderr: '' };
    if (typeof this.#engine !== 'string') throw this.#engine;

    // Lookup and creation happen in one synchronous step, so two first calls share one executor.
    let executor = name === 'default' ? this.#default : this.#named.get(name);
    if (executor === undefined) {
      if (this.#named.size >= MAX_NAMED_EXECUTORS) {
        const executors = await this.list();
        throw new ReplError('REPL_ERR_CONFLICT',
          `named executor limit (${MAX_NAMED_EXECUTORS}) reached; delete one with DELETE /playwright/executors/{name}`,
          { data: { executors } });
      }
      executor = this.#create(name);
      this.#named.set(name, executor);
    }
    try {
      request.onAdmitted?.();
    } catch (error) {
      debug('onAdmitted threw: %o', error);
    }
    try {
      return await executor.execute(code, operation, request.onOutput);
    } catch (error) {
      // A named executor that never started and owns no tab must not keep its slot.
      if (executor !== this.#default && executor.pristine && !executor.busy && this.#named.get(name) === executor) {
        this.#named.delete(name);
      }
      throw error;
    }
  }

  /**
   * An executor of an agent-tool session (`owner` `tools:<id>`): its tab is the session's own
   * (the REPL of the session opened it, or it opens it), `session` tells it the session's active
   * tab, tabs and browser context before each call. Not listed, not counted against the named
   * executors' limit; end it with {@link releasePrivate} (the session's REPL closes the tab).
   */
  privateExecutor(owner: TabOwner, session: () => Promise<ExecutorSession>): PlaywrightExecutor {
    if (this.closed) throw new ReplError('REPL_ERR_CLOSED', SHUTTING_DOWN);
    const executor = new PlaywrightExecutor({
      name: owner, tabs: this.#tabs, workers: this.#workers, graceMs: this.#options.graceMs ?? TIMEOUTS.executorResponseGraceMs, tabOwner: owner, session,
    });
    this.#private.add(executor);
    return executor;
  }

  /** Ends an executor of {@link privateExecutor}: its calls fail, its worker exits; its tab stays (the session's). */
  async releasePrivate(executor: PlaywrightExecutor): Promise<void> {
    if (!this.#private.delete(executor)) return;
    await executor.retire('the session ended');
  }

  /** `default` first, then named executors oldest first; `[]` once closed. */
  async list(): Promise<PlaywrightExecutorInfo[]> {
    if (this.closed) return [];
    const infos = [this.#default, ...this.#named.values()].map((executor) => executor.info());
    // URLs need a browser round trip; never launch a browser just to list.
    if (infos.some((info) => info.targetId !== undefined) && this.#browserReachable()) {
      try {
        const urls = await this.#tabs.urls();
        for (const info of infos) {
          const url = info.targetId === undefined ? undefined : urls.get(info.targetId);
          if (url !== undefined) info.url = url;
        }
      } catch (error) {
        debug('reading executor tab URLs failed: %o', error);
      }
    }
    return infos;
  }

  /**
   * Deletes a named executor: its running and queued calls fail with "executor was deleted", its
   * worker ends, and (with `closeTab`, the default) its tab is closed. The name is free at once.
   * `default` is restarted instead (see {@link PlaywrightExecutor.restart}); `closeTab` does not apply.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_NOT_FOUND`, `REPL_ERR_EXECUTOR_TAB_CLOSE_FAILED`.
   */
  /**
   * Stops the running call of executor `name` cooperatively ({@link PlaywrightExecutor.interrupt}):
   * it answers `execution interrupted after …` with the worker and its browser connection kept.
   * Resolves once it answered; `interrupted: false` when no call ran.
   *
   * @throws ReplError `REPL_ERR_INVALID_REQUEST`, `REPL_ERR_NOT_FOUND` (no named executor of that name).
   */
  async interrupt(name: string): Promise<ExecutorInterruptOutcome> {
    assertName(name);
    const executor = this.get(name);
    if (executor === undefined) throw new ReplError('REPL_ERR_NOT_FOUND', `executor "${name}" not found`);
    return executor.interrupt();
  }

  async delete(name: string, options: { closeTab?: boolean } = {}): Promise<void> {
    assertName(name);
    const executor = this.get(name);
    if (executor === undefined) throw new ReplError('REPL_ERR_NOT_FOUND', `executor "${name}" not found`);
    if (executor === this.#default) {
      await executor.restart();
      return;
    }
    this.#named.delete(name);
    await executor.retire(DELETED);
    // Read after the running call unwound: a tab it had just opened is included.
    const { targetId } = executor;
    if (options.closeTab === false) {
      this.#tabs.forget(executor.tabOwner);
      return;
    }
    if (targetId === undefined) return;
    try {
      await this.#tabs.release(executor.tabOwner);
    } catch (error) {
      throw new ReplError('REPL_ERR_EXECUTOR_TAB_CLOSE_FAILED',
        `executor deleted, but closing its tab ${targetId} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error });
    }
  }

  /**
   * Shuts every executor down: calls fail with "playwright executors are shutting down", every
   * worker is terminated and awaited, then the tabs of named executors are closed (3 s budget).
   * Concurrent callers share one promise (common/resource.ts).
   */
  close(): Promise<void> {
    return this.#lifecycle.close();
  }

  /** Same as {@link PlaywrightExecutors.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(): Promise<void> {
    const executors = [this.#default, ...this.#named.values()];
    const sessions = [...this.#private];
    this.#named.clear();
    this.#private.clear();
    await Promise.all(sessions.map((executor) => executor.retire(SHUTTING_DOWN)));
    await Promise.all([...executors.map((executor) => executor.retire(SHUTTING_DOWN)), this.#workers.close()]);
    await Promise.all([...this.#live].map((worker) => worker.destroy(SHUTTING_DOWN)));
    // The tabs of named executors only: a shared registry also holds the tabs of named REPLs.
    await this.#tabs.releaseAll(executors.map((executor) => executor.tabOwner));
    if (this.#ownsTabs) await this.#tabs.close();
  }

  #browserReachable(): boolean {
    return !this.#browser.closed && (this.#browser.mode === 'attach' || this.#browser.launched);
  }

  #create(name: string): PlaywrightExecutor {
    return new PlaywrightExecutor({ name, tabs: this.#tabs, workers: this.#workers, graceMs: this.#options.graceMs ?? TIMEOUTS.executorResponseGraceMs });
  }
}

function assertName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !EXECUTOR_NAME_PATTERN.test(name)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'executor name must match ^[A-Za-z0-9_-]{1,64}$');
  }
}
