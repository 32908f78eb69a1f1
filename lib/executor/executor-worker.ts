/**
 * The Playwright executor kind of {@link WorkerHandle}: its messages, its validator, its words
 * for how a worker ends, and its one request (`run` → `reply`). Policy (when to replace it, what
 * to tell the caller) belongs to `PlaywrightExecutor`.
 */
import { randomUUID } from 'node:crypto';
import { debuglog } from 'node:util';
import { ReplError } from '../../common/errors.js';
import { valueWithin } from '../../common/wait.js';
import {
  EXECUTOR_PROTOCOL_VERSION, EXECUTOR_STOP_BUFFER_BYTES, EXECUTOR_STOP_REASON, EXECUTOR_STOP_REQUESTED, STOP_REASON_CODES,
} from '../../common/protocol/executor-messages.js';
import type {
  ExecutorInterruptMessage, ExecutorReadyMessage, ExecutorReplyMessage, ExecutorRunMessage, ExecutorStartup, ExecutorToMainMessage,
  MainToExecutorMessage, PlaywrightEngine, StopReason,
} from '../../common/protocol/executor-messages.js';
import { validateExecutorWorkerMessage } from '../../common/protocol/validate.js';
import { makeThreadTempFolder } from '../system/thread-temp.js';
import { WorkerHandle, liveThreadCount, outOfMemoryText } from '../threads/worker-handle.js';
import type { WorkerKind } from '../threads/worker-handle.js';
import { BrowserCalls } from '../threads/browser-calls.js';
import type { EndpointAnswerer, HumanRequestHandler, WebMcpCallHandler } from '../threads/browser-calls.js';
import type { PlaywrightOutput } from './execute-result.js';

const debug = debuglog('browser-repl:executor');

/** Number of executor worker threads still running in this process (leak tests, metrics). */
export function liveExecutorThreads(): number {
  return liveThreadCount('executor');
}

export interface ExecutorWorkerOptions {
  engine: PlaywrightEngine;
  heapMb: number;
  /**
   * How long the handshake may take while no call waits for this worker (a warm spare started in
   * advance). A call that takes the worker gives it the rest of its own deadline instead
   * ({@link ExecutorWorker.readyWithin}).
   */
  startupTimeoutMs: number;
  /** Answers the worker's requests for the browser endpoint. */
  onEndpointRequest: EndpointAnswerer;
  /** Answers the code's `webmcp` calls (default: "no page tools"). */
  onWebMcpCall?: WebMcpCallHandler | undefined;
  /** Answers the code's `requestHuman` calls (default: "no live view"). */
  onHumanRequest?: HumanRequestHandler | undefined;
  /** Test seam: another worker script speaking the same protocol. */
  workerUrl?: URL | undefined;
}

export type RunOutcome =
  | { kind: 'reply'; reply: ExecutorReplyMessage }
  /** The thread ended during the call: crash, out of memory, or `destroy(reason)`. */
  | { kind: 'died'; message: string }
  /** No answer by the call's timeout plus the grace: the event loop is blocked; the thread was destroyed. */
  | { kind: 'unresponsive'; waitedMs: number }
  | { kind: 'protocol'; message: string };

export type RunRequest = Omit<ExecutorRunMessage, 'type' | 'requestId'>;

const EXECUTOR_KIND: WorkerKind<MainToExecutorMessage, ExecutorToMainMessage> = {
  thread: 'executor',
  url: new URL('../../worker/executor/main.js', import.meta.url),
  protocolVersion: EXECUTOR_PROTOCOL_VERSION,
  validate: validateExecutorWorkerMessage,
  identify: (message) => {
    const ready = message as ExecutorReadyMessage;
    return { protocolVersion: ready.protocolVersion, id: ready.workerId };
  },
  destroyedReason: 'executor worker was terminated',
  describeExit: (exit) => {
    switch (exit.cause) {
      case 'out-of-memory':
        return `executor worker ran out of memory (${outOfMemoryText(exit)})${exit.limit === 'heap' ? '' : `: ${exit.detail}`}`;
      case 'uncaught':
        return `uncaught exception in executor worker: ${exit.detail}`;
      case 'destroyed':
        return exit.reason;
      case 'exit-code':
        return `executor worker exited (exit code ${exit.exitCode})`;
    }
  },
  startFailed: (failure) => new ReplError('REPL_ERR_EXECUTOR_START_FAILED', 'timeoutMs' in failure
    ? `failed to set up playwright executor: not ready within ${failure.timeoutMs / 1000}s`
    : `failed to set up playwright executor: worker exited during startup: ${failure.exit.message}`),
  malformed: (problem) => `executor worker sent a malformed message (${problem})`,
};

/** How long a start outlives the call that stopped waiting for it, at least. */
const ABANDON_GRACE_MS = 1000;

/** One executor worker thread. Await `readyWithin(…)` (or `ready`) before the first call. */
export class ExecutorWorker extends WorkerHandle<MainToExecutorMessage, ExecutorToMainMessage> {
  #startupTimer: NodeJS.Timeout | undefined;
  #startupSettled = false;
  readonly #createdAt = performance.now();
  /** When the start is abandoned and the thread ended (`performance.now()` time). */
  #abandonAt = 0;
  /** Set when the start was abandoned: what `readyWithin` rejects with instead of "exited during startup". */
  #startupFailure: ReplError | undefined;
  /** Shared with the worker: the checks in the code read it (`ExecutorStartup.interrupts`). */
  readonly #stopSlots: Int32Array;
  /** The request id of the call running now, for {@link stop}. */
  #runningCall: number | undefined;

  constructor(options: ExecutorWorkerOptions, id: string = randomUUID()) {
    // Playwright makes a temporary folder per connectOverCDP and removes it only when the
    // connection is closed politely: a worker that is terminated, or a connection that is
    // dropped, left one behind each time. This worker's go into a folder of the thread's own.
    const artifacts = makeThreadTempFolder('chromium-repl-executor');
    const artifactsDir = artifacts.path;
    const interrupts = new SharedArrayBuffer(EXECUTOR_STOP_BUFFER_BYTES);
    super(EXECUTOR_KIND, {
      id,
      name: 'playwright executor',
      workerData: (port) => ({ protocolVersion: EXECUTOR_PROTOCOL_VERSION, workerId: id, engine: options.engine, port, artifactsDir, interrupts } satisfies ExecutorStartup),
      heapMb: options.heapMb,
      // This class keeps the startup deadline (see readyWithin): it moves with the calls waiting.
      startupTimeoutMs: null,
      calls: new BrowserCalls({ onEndpointRequest: options.onEndpointRequest, onWebMcpCall: options.onWebMcpCall, onHumanRequest: options.onHumanRequest }),
      url: options.workerUrl,
    });
    this.#stopSlots = new Int32Array(interrupts);
    artifacts.removeAfter(this.exited);
    const settle = (): void => {
      this.#startupSettled = true;
      clearTimeout(this.#startupTimer);
    };
    this.ready.then(settle, settle);
    this.#abandonAt = this.#createdAt + options.startupTimeoutMs;
    this.#armStartup();
  }

  /**
   * Waits up to `budgetMs` (what is left of a call's `timeout_sec`) for the handshake. Resolves
   * `true` once ready, `false` when the budget ran out first: a timeout of that call, not a failed
   * start. The worker then goes on starting, so the next call can use it, and is abandoned only
   * at the later of its fixed budget and this wait (plus a grace, so the call always hears of its
   * own timeout first). Rejects with `REPL_ERR_EXECUTOR_START_FAILED` when the start failed; a
   * worker whose start was abandoned is not revived.
   */
  readyWithin(budgetMs: number): Promise<boolean> {
    if (!this.#startupSettled && this.#startupFailure === undefined && this.alive) {
      const waitEnds = performance.now() + budgetMs + ABANDON_GRACE_MS;
      if (waitEnds > this.#abandonAt) {
        this.#abandonAt = waitEnds;
        this.#armStartup();
      }
    }
    const ready = this.ready.then(() => true, (error: unknown) => {
      throw this.#startupFailure ?? error;
    });
    if (this.#startupSettled) return ready;
    return valueWithin(ready, Math.max(0, budgetMs)).then((started) => started ?? false);
  }

  #armStartup(): void {
    clearTimeout(this.#startupTimer);
    this.#startupTimer = setTimeout(() => {
      const seconds = Math.round(this.#abandonAt - this.#createdAt) / 1000;
      this.#startupFailure = new ReplError('REPL_ERR_EXECUTOR_START_FAILED', `failed to set up playwright executor: not ready within ${seconds}s`);
      void this.destroy('executor worker did not start in time');
    }, Math.max(0, this.#abandonAt - performance.now()));
  }

  /**
   * Asks the worker to stop the call it runs (issue 27): writes the slots the code's checks read,
   * for code that computes, and sends `interrupt`, for code that waits. Returns false when no call
   * runs. The call's `run` then resolves with a reply marked `timedOut` or `interrupted`, unless
   * the worker is stuck where no check runs: the caller ends it after a grace period.
   */
  stop(reason: StopReason): boolean {
    const requestId = this.#runningCall;
    if (requestId === undefined || !this.alive) return false;
    Atomics.store(this.#stopSlots, EXECUTOR_STOP_REASON, STOP_REASON_CODES[reason]);
    Atomics.store(this.#stopSlots, EXECUTOR_STOP_REQUESTED, requestId);
    this.notify({ type: 'interrupt', requestId, reason } satisfies ExecutorInterruptMessage);
    return true;
  }

  /**
   * Sends one call and resolves with its outcome; never rejects. The worker stops the call at
   * `timeoutMs` itself, and so does this side (through the checks' slots, for a loop that keeps the
   * worker's own timer from firing); if it has not answered `graceMs` later no check reached it
   * (a loop in an imported package, a blocked native call), and the thread is destroyed. With
   * `request.streamOutput`, `onOutput` gets each console write as the worker posts it.
   */
  async run(request: RunRequest, graceMs: number, onOutput?: (output: PlaywrightOutput) => void): Promise<RunOutcome> {
    const deadline = setTimeout(() => this.stop('timeout'), request.timeoutMs);
    const outcome = await this.request<ExecutorReplyMessage>(
      (requestId) => {
        this.#runningCall = requestId;
        return { type: 'run', requestId, ...request } satisfies ExecutorRunMessage;
      },
      (message) => {
        switch (message.type) {
          case 'reply':
            return { answer: message };
          case 'output':
            // A throwing listener must not count as this worker's protocol violation.
            try {
              onOutput?.({ channel: message.channel, text: message.text });
            } catch (error) {
              debug('onOutput threw: %o', error);
            }
            return undefined;
          default:
            return { violation: EXECUTOR_KIND.malformed(`unexpected ${message.type} message during a call`) };
        }
      },
      { responseDeadlineMs: request.timeoutMs + graceMs },
    );
    clearTimeout(deadline);
    this.#runningCall = undefined;
    switch (outcome.kind) {
      case 'answered':
        return { kind: 'reply', reply: outcome.value };
      case 'exited':
        return { kind: 'died', message: outcome.exit.message };
      case 'unresponsive':
      case 'protocol':
        return outcome;
    }
  }
}
