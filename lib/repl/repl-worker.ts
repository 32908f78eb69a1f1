/**
 * The REPL kind of {@link WorkerHandle}: its messages, its validator, its words for how a worker
 * ends, and two requests (a cell, an environment update). It does not decide policy (timeouts,
 * restarts); `Repl` does.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { debuglog } from 'node:util';
import { ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { CELL_STARTED, INTERRUPT_BUFFER_BYTES, INTERRUPT_REQUESTED, INTERRUPT_SEEN, PROTOCOL_VERSION } from '../../common/protocol/repl-messages.js';
import type {
  ConfigureMessage, WarmMessage, EnvMessage, ExecuteMessage, InterruptMessage, MainToWorkerMessage, OutputItem, ReadyMessage, ResultMessage,
  ShutdownMessage, WorkerStartup, WorkerToMainMessage,
} from '../../common/protocol/repl-messages.js';
import { validateReplWorkerMessage } from '../../common/protocol/validate.js';
import type { ToolMessage, ToolOperation, ToolResultMessage } from '../../common/protocol/tool-messages.js';
import { makeThreadTempFolder } from '../system/thread-temp.js';
import { ThreadInterrupter } from '../threads/thread-interrupter.js';
import { WorkerHandle, liveThreadCount, outOfMemoryText } from '../threads/worker-handle.js';
import type { WorkerExit, WorkerKind } from '../threads/worker-handle.js';
import { BrowserCalls } from '../threads/browser-calls.js';
import type { EndpointAnswerer, HumanRequestHandler, WebMcpCallHandler } from '../threads/browser-calls.js';

/** Number of REPL worker threads still running in this process (diagnostics, metrics, leak tests). */
export function liveWorkerThreads(): number {
  return liveThreadCount('repl');
}

export interface ReplWorkerOptions {
  replId: string;
  heapMb: number;
  env: Record<string, string>;
  startupTimeoutMs: number;
  browserAvailable: boolean;
  /** Insert the liveness checks that let a timed-out cell be interrupted (default true; docs/lifecycle.md). */
  interruptChecks?: boolean | undefined;
  /** Test seam: another worker script speaking the same protocol. */
  workerUrl?: URL | undefined;
}

/** Why a worker stopped, in the words of the contract's lifecycle table. */
export interface WorkerDeath {
  code: 'REPL_ERR_OUT_OF_MEMORY' | 'REPL_ERR_WORKER_CRASHED';
  message: string;
  stack?: string;
}

/** How a tool operation ended (`ReplWorker.tool`). */
export type ToolCallOutcome =
  | { kind: 'answered'; result: ToolResultMessage }
  | { kind: 'died'; death: WorkerDeath }
  | { kind: 'protocol'; message: string };

export type ExecutionOutcome =
  | { kind: 'result'; result: ResultMessage }
  /** The worker died before it began the cell: the cell did not run at all. */
  | { kind: 'not-started'; death: WorkerDeath }
  | { kind: 'died'; death: WorkerDeath }
  | { kind: 'protocol'; message: string };

const debug = debuglog('browser-repl:worker');

/** Every REPL worker thread's name starts with it (the inspector attaches only those). */
const REPL_THREAD_NAME = 'browser-repl ';

const REPL_KIND: WorkerKind<MainToWorkerMessage, WorkerToMainMessage> = {
  thread: 'repl',
  url: new URL('../../worker/repl/main.js', import.meta.url),
  protocolVersion: PROTOCOL_VERSION,
  validate: validateReplWorkerMessage,
  identify: (message) => {
    const ready = message as ReadyMessage;
    return { protocolVersion: ready.protocolVersion, id: ready.replId };
  },
  shutdownMessage: { type: 'shutdown' } satisfies ShutdownMessage,
  destroyedReason: 'browser REPL process was terminated',
  describeExit: (exit) => {
    switch (exit.cause) {
      case 'out-of-memory':
        return `browser REPL process terminated during execution (out of memory: ${outOfMemoryText(exit)}): ${exit.detail}`;
      case 'uncaught':
        return `uncaught exception in browser REPL process: ${exit.detail}`;
      case 'destroyed':
        return exit.reason;
      case 'exit-code':
        return `browser REPL process terminated during execution (exit code ${exit.exitCode})`;
    }
  },
  startFailed: (failure) => new ReplError('REPL_ERR_START_FAILED', 'timeoutMs' in failure
    ? `failed to start browser REPL: browser REPL failed to start within ${failure.timeoutMs / 1000}s`
    : `failed to start browser REPL: browser REPL exited during startup: ${failure.exit.message}`),
  malformed: (problem) => `browser REPL process sent a malformed message (${problem})`,
};

function death(exit: WorkerExit): WorkerDeath {
  const described: WorkerDeath = {
    code: exit.cause === 'out-of-memory' ? 'REPL_ERR_OUT_OF_MEMORY' : 'REPL_ERR_WORKER_CRASHED',
    message: exit.message,
  };
  if (exit.cause === 'uncaught' && exit.stack !== undefined) described.stack = exit.stack;
  return described;
}

const noBrowser = (): Promise<string> => Promise.reject(new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this REPL has no browser'));
const noPageTools: WebMcpCallHandler = () => Promise.reject(new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this REPL has no browser, so no page tools'));

/** Which REPL a worker serves; see {@link ReplWorker.configure}. */
export interface ReplIdentity {
  name: string;
  /** The REPL owns a tab of its own: endpoint answers name it (`EndpointAnswer.targetId`). */
  ownsTab: boolean;
  /** Answers the worker's requests for the browser endpoint (default: "this REPL has no browser"). */
  onEndpointRequest?: EndpointAnswerer | undefined;
  /** Answers the worker's `webmcp` calls (default: "this REPL has no browser, so no page tools"). */
  onWebMcpCall?: WebMcpCallHandler | undefined;
  /** Answers the worker's `requestHuman` calls (default: "no browser, so no live view"). */
  onHumanRequest?: HumanRequestHandler | undefined;
  /** Told each tab the worker attaches (default: dropped). */
  onAttached?: ((targetId: string) => void) | undefined;
}

/**
 * One REPL worker thread. Await `ready`, then `configure()` it for the REPL it serves, before the
 * first request. Workers start unnamed, so one warm spare can serve any REPL of a host.
 */
export class ReplWorker extends WorkerHandle<MainToWorkerMessage, WorkerToMainMessage> {
  /** The worker's endpoint and WebMCP calls, answered by the REPL that took this worker. */
  readonly #calls: BrowserCalls;
  #configured = false;
  /** Shared with the worker: the cell checks read it (`WorkerStartup.interrupts`). */
  readonly #interrupts: Int32Array;
  /** The request id of the cell running now, for {@link interrupt}. */
  #runningCell: number | undefined;
  /** Cells get the interrupt checks: a timeout may keep this worker (`interruptChecks`). */
  readonly interruptible: boolean;
  /** How to raise the flag of a busy cell's checks on the worker's own thread (`WorkerStartup.interruptFlag`). */
  #interruptFlag: { interrupter: ThreadInterrupter; name: string } | undefined;

  constructor(options: ReplWorkerOptions) {
    // Answered by the REPL that takes this worker (see `configure`); a spare has no one to ask yet.
    const calls = new BrowserCalls({ onEndpointRequest: noBrowser });
    const interrupts = new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES);
    const interruptible = options.interruptChecks !== false;
    // Created before the thread, so that the inspector attaches it as it starts.
    const interrupter = interruptible ? ThreadInterrupter.shared(REPL_THREAD_NAME) : undefined;
    const interruptFlag = interrupter === undefined ? undefined : `__repl_${randomBytes(8).toString('hex')}`;
    // The thread's os.tmpdir() is a folder of its own, inside the one it would have had: what a
    // cell leaves there (a Playwright connection's folder, which Playwright removes only on a
    // polite close) goes with the REPL, whether it was reset, destroyed or terminated.
    const parentTemp = options.env['TMPDIR'] || tmpdir();
    const scratch = makeThreadTempFolder('chromium-repl-tmp', parentTemp);
    // Node's compile cache would follow os.tmpdir() into that folder, and be lost with it.
    const compileCacheDir = options.env['NODE_COMPILE_CACHE'] || path.join(parentTemp, 'node-compile-cache');
    super(REPL_KIND, {
      id: options.replId,
      name: `${REPL_THREAD_NAME}${options.replId}`,
      workerData: (port) => ({
        protocolVersion: PROTOCOL_VERSION,
        replId: options.replId,
        port,
        browser: { available: options.browserAvailable },
        interrupts,
        interruptChecks: interruptible,
        ...(interruptFlag === undefined ? {} : { interruptFlag }),
        compileCacheDir,
      } satisfies WorkerStartup),
      heapMb: options.heapMb,
      // Cells are vm.SourceTextModules. The worker silences exactly the warnings of the
      // experimental features it relies on (worker/threads/runtime-warnings.ts), not every ExperimentalWarning.
      execArgv: ['--experimental-vm-modules'],
      env: { ...options.env, BROWSER_REPL_ID: options.replId, TMPDIR: scratch.path },
      startupTimeoutMs: options.startupTimeoutMs,
      calls,
      url: options.workerUrl,
    });
    scratch.removeAfter(this.exited);
    this.#calls = calls;
    this.#interrupts = new Int32Array(interrupts);
    this.interruptible = interruptible;
    if (interrupter !== undefined && interruptFlag !== undefined) this.#interruptFlag = { interrupter, name: interruptFlag };
  }

  get replId(): string {
    return this.id;
  }

  /** Names the REPL this worker serves (once: a worker never changes hands) and who answers its endpoint and WebMCP requests. */
  configure(identity: ReplIdentity): void {
    if (this.#configured) throw new Error('ReplWorker.configure called twice');
    this.#configured = true;
    this.#calls.answerWith({ onEndpointRequest: identity.onEndpointRequest, onWebMcpCall: identity.onWebMcpCall ?? noPageTools, onHumanRequest: identity.onHumanRequest, onAttached: identity.onAttached });
    this.notify({ type: 'configure', name: identity.name, ownsTab: identity.ownsTab } satisfies ConfigureMessage);
  }

  /**
   * Has the worker connect to its browser and attach its page now (`WarmMessage`); resolves when
   * it answers (true) or when it died or did not answer in time (false).
   */
  async warm(timeoutMs: number): Promise<boolean> {
    if (!this.alive) return false;
    const outcome = await this.request<true>(
      (requestId) => ({ type: 'warm', requestId } satisfies WarmMessage),
      (message) => (message.type === 'warmed'
        ? { answer: true }
        : { violation: REPL_KIND.malformed(`unexpected ${message.type} message in answer to a warm-up`) }),
      { responseDeadlineMs: timeoutMs },
    );
    return outcome.kind === 'answered';
  }

  /**
   * Asks the worker to stop the cell it runs, keeping its state (issue 15): writes the cell's
   * request id where the worker reads it, raises the flag its checks read through the inspector
   * (a cell that computes sees it at its next check; lib/threads/thread-interrupter.ts), and
   * sends `interrupt`, for one that waits. The cell's `execute` then resolves with a result
   * marked `interrupted`, unless the worker is stuck where no check runs (a loop in an imported
   * package): the caller ends it after a grace period.
   */
  interrupt(): void {
    const requestId = this.#runningCell;
    if (requestId === undefined || !this.alive) return;
    Atomics.store(this.#interrupts, INTERRUPT_REQUESTED, requestId);
    const flag = this.#interruptFlag;
    if (flag !== undefined && !flag.interrupter.raise(this.threadId, flag.name)) {
      debug('worker %s is not attached to the inspector: its checks cannot see this interrupt', this.replId);
    }
    this.notify({ type: 'interrupt', requestId } satisfies InterruptMessage);
  }

  /** Whether the worker acted on the interrupt of the cell it runs (it is unwinding; docs/lifecycle.md "Interrupted"). */
  get interruptSeen(): boolean {
    const requestId = this.#runningCell;
    return requestId !== undefined && Atomics.load(this.#interrupts, INTERRUPT_SEEN) === requestId;
  }

  /** Sends one cell; resolves with its result or with how the worker died. Never rejects. */
  async execute(code: string, timeoutMs: number, onOutput: (item: OutputItem) => void): Promise<ExecutionOutcome> {
    let receivedBytes = 0;
    let sent = 0;
    const outcome = await this.request<ResultMessage>(
      (requestId) => {
        this.#runningCell = sent = requestId;
        return { type: 'execute', requestId, code, deadline: Date.now() + timeoutMs } satisfies ExecuteMessage;
      },
      (message) => {
        switch (message.type) {
          case 'output':
            receivedBytes += message.item.type === 'text' ? message.item.text.length * 3 : message.item.bytes.byteLength;
            if (receivedBytes > LIMITS.responseBytes) return { violation: 'browser REPL response exceeds maximum size' };
            onOutput(message.item);
            return undefined;
          case 'result':
            return { answer: message };
          default:
            return { violation: REPL_KIND.malformed(`unexpected ${message.type} message during a cell`) };
        }
      },
    );
    this.#runningCell = undefined;
    switch (outcome.kind) {
      case 'answered':
        return { kind: 'result', result: outcome.value };
      case 'exited':
        // Ended on purpose (timeout, reset, close) counts as died even before it began: it must not be rerun.
        return Atomics.load(this.#interrupts, CELL_STARTED) === sent || outcome.exit.deliberate
          ? { kind: 'died', death: death(outcome.exit) }
          : { kind: 'not-started', death: death(outcome.exit) };
      case 'protocol':
        return outcome;
      case 'unresponsive':
        return { kind: 'protocol', message: `no answer within ${outcome.waitedMs / 1000}s` };
    }
  }

  /**
   * Runs one agent-tool operation (lib/tools) and, with `read`, reads the page after it; resolves
   * with the worker's answer or with how it died. Never rejects. The caller bounds the time.
   */
  async tool(operation: ToolOperation, read: boolean, timeoutMs: number): Promise<ToolCallOutcome> {
    const outcome = await this.request<ToolResultMessage>(
      (requestId) => ({ type: 'tool', requestId, operation, read, deadline: Date.now() + timeoutMs } satisfies ToolMessage),
      (message) => (message.type === 'tool-result'
        ? { answer: message }
        : { violation: REPL_KIND.malformed(`unexpected ${message.type} message in answer to a tool call`) }),
    );
    switch (outcome.kind) {
      case 'answered':
        return { kind: 'answered', result: outcome.value };
      case 'exited':
        return { kind: 'died', death: death(outcome.exit) };
      case 'protocol':
        return outcome;
      case 'unresponsive':
        return { kind: 'protocol', message: `no answer within ${outcome.waitedMs / 1000}s` };
    }
  }

  /**
   * Applies environment changes live; resolves false when the worker could not take them within
   * `timeoutMs` (it is then destroyed) or ended.
   */
  async setEnv(set: Record<string, string | null>, timeoutMs: number): Promise<boolean> {
    if (!this.alive) return false;
    const outcome = await this.request<true>(
      (requestId) => ({ type: 'env', requestId, set } satisfies EnvMessage),
      (message) => (message.type === 'env-applied'
        ? { answer: true }
        : { violation: REPL_KIND.malformed(`unexpected ${message.type} message in answer to an environment update`) }),
      { responseDeadlineMs: timeoutMs },
    );
    return outcome.kind === 'answered';
  }
}
