/**
 * One executor worker thread as the main thread sees it: start and handshake, one call at a
 * time, endpoint requests, and the ways it can end. Policy (when to replace it, what to tell the
 * caller) belongs to `PlaywrightExecutor`.
 */
import { randomUUID } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { ReplError } from '../../common/errors.js';
import { liveThreadCount, trackThread } from '../threads/live-threads.js';
import type { SerializedError } from '../../common/errors.js';
import type { EndpointRequestMessage } from '../../common/protocol/repl-messages.js';
import { EXECUTOR_PROTOCOL_VERSION } from '../../common/protocol/executor-messages.js';
import type {
  ExecutorReplyMessage, ExecutorRunMessage, ExecutorStartup, ExecutorToMainMessage, PlaywrightEngine,
} from '../../common/protocol/executor-messages.js';

const WORKER_URL = new URL('../../worker/executor/main.js', import.meta.url);

/** Number of executor worker threads still running in this process (leak tests, metrics). */
export function liveExecutorThreads(): number {
  return liveThreadCount('executor');
}

export interface ExecutorWorkerOptions {
  engine: PlaywrightEngine;
  heapMb: number;
  startupTimeoutMs: number;
  /** Answers the worker's requests for the browser endpoint. */
  onEndpointRequest: (message: EndpointRequestMessage) => Promise<string>;
  /** Test seam: another worker script speaking the same protocol. */
  workerUrl?: URL | undefined;
}

export type RunOutcome =
  | { kind: 'reply'; reply: ExecutorReplyMessage }
  /** The thread ended during the call: crash, out of memory, or `terminate(reason)`. */
  | { kind: 'died'; message: string }
  /** No answer by the call's timeout plus the grace: the event loop is blocked; the thread was terminated. */
  | { kind: 'unresponsive'; waitedMs: number }
  | { kind: 'protocol'; message: string };

type RunRequest = Omit<ExecutorRunMessage, 'type' | 'requestId'>;

interface PendingRun {
  requestId: number;
  settle: (outcome: RunOutcome) => void;
}

/** One executor worker thread; see the module comment. */
export class ExecutorWorker {
  /** Unique per thread: a replacement gets a new id. */
  readonly id: string;
  /** Resolves once the worker answered the handshake; rejects with `REPL_ERR_EXECUTOR_START_FAILED`. */
  readonly ready: Promise<void>;
  /** Resolves with a description of the exit once the thread has ended. */
  readonly exited: Promise<string>;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #heapMb: number;
  readonly #onEndpointRequest: ExecutorWorkerOptions['onEndpointRequest'];
  #nextRequestId = 1;
  #pending: PendingRun | null = null;
  #alive = true;
  #lastError: unknown;
  #retireReason: string | undefined;
  #onReady: (() => void) | undefined;

  constructor(options: ExecutorWorkerOptions) {
    this.id = randomUUID();
    this.#heapMb = options.heapMb;
    this.#onEndpointRequest = options.onEndpointRequest;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const startup: ExecutorStartup = {
      protocolVersion: EXECUTOR_PROTOCOL_VERSION,
      workerId: this.id,
      engine: options.engine,
      port: port2,
    };
    this.#worker = new Worker(options.workerUrl ?? WORKER_URL, {
      name: 'playwright executor',
      workerData: startup,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    trackThread('executor', this.#worker);
    this.#worker.on('error', (error) => {
      this.#lastError = error;
    });
    this.exited = new Promise((resolve) => {
      this.#worker.once('exit', (exitCode) => {
        this.#alive = false;
        this.#port.close();
        const description = this.#describeExit(exitCode);
        this.#settle({ kind: 'died', message: description });
        resolve(description);
      });
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new ReplError('REPL_ERR_EXECUTOR_START_FAILED',
          `failed to set up playwright executor: not ready within ${options.startupTimeoutMs / 1000}s`));
        void this.terminate();
      }, options.startupTimeoutMs);
      this.#onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      void this.exited.then((description) => {
        clearTimeout(timer);
        reject(new ReplError('REPL_ERR_EXECUTOR_START_FAILED',
          `failed to set up playwright executor: worker exited during startup: ${description}`));
      });
    });
    // Callers that never await `ready` (a worker terminated early) must not see an unhandled rejection.
    this.ready.catch(() => {});
    this.#port.on('message', (message: ExecutorToMainMessage) => this.#onMessage(message));
  }

  /** True until the thread ended or `terminate()` was called. */
  get alive(): boolean {
    return this.#alive && this.#retireReason === undefined;
  }

  /** Why `terminate(reason)` ended this worker, if it did. */
  get retireReason(): string | undefined {
    return this.#retireReason;
  }

  /**
   * Sends one call and resolves with its outcome; never rejects. The worker enforces
   * `timeoutMs` itself; if it has not answered `graceMs` later its event loop is blocked, and the
   * thread is terminated.
   */
  run(request: RunRequest, graceMs: number): Promise<RunOutcome> {
    if (this.#pending !== null) throw new Error('ExecutorWorker.run called while a call is running');
    const requestId = this.#nextRequestId++;
    const waitedMs = request.timeoutMs + graceMs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#settle({ kind: 'unresponsive', waitedMs });
        void this.terminate();
      }, waitedMs);
      this.#pending = {
        requestId,
        settle: (outcome) => {
          clearTimeout(timer);
          this.#pending = null;
          resolve(outcome);
        },
      };
      if (!this.#alive) {
        this.#settle({ kind: 'died', message: this.#describeExit(1) });
        return;
      }
      this.#port.postMessage({ type: 'run', requestId, ...request } satisfies ExecutorRunMessage);
    });
  }

  /**
   * Ends the thread at once (running code is interrupted, even a busy loop) and resolves once it
   * has exited. `reason` is what the interrupted call is told.
   */
  async terminate(reason?: string): Promise<void> {
    this.#retireReason ??= reason ?? 'executor worker was terminated';
    if (this.#alive) await this.#worker.terminate();
    await this.exited;
  }

  #settle(outcome: RunOutcome): void {
    this.#pending?.settle(outcome);
  }

  #describeExit(exitCode: number): string {
    const error = this.#lastError as { code?: unknown; message?: unknown } | undefined;
    if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return `executor worker ran out of memory (the ${this.#heapMb} MiB heap limit was reached)`;
    }
    if (error !== undefined) return `uncaught exception in executor worker: ${String(error.message ?? error)}`;
    if (this.#retireReason !== undefined) return this.#retireReason;
    return `executor worker exited (exit code ${exitCode})`;
  }

  #onMessage(message: ExecutorToMainMessage): void {
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== EXECUTOR_PROTOCOL_VERSION || message.workerId !== this.id) {
          this.#lastError = new Error(`executor handshake mismatch (protocol ${message.protocolVersion}, id ${message.workerId})`);
          void this.#worker.terminate();
          return;
        }
        this.#onReady?.();
        this.#onReady = undefined;
        return;
      case 'reply': {
        const pending = this.#pending;
        if (pending === null || pending.requestId !== message.requestId) {
          this.#corrupt(`response ID mismatch: expected ${pending?.requestId ?? 'none'}, got ${message.requestId}`);
          return;
        }
        pending.settle({ kind: 'reply', reply: message });
        return;
      }
      case 'endpoint-request':
        void this.#answerEndpoint(message);
        return;
    }
  }

  async #answerEndpoint(message: EndpointRequestMessage): Promise<void> {
    let reply: { endpoint: string } | { error: SerializedError };
    try {
      reply = { endpoint: await this.#onEndpointRequest(message) };
    } catch (error) {
      const { message: text, code, stack } = error as Partial<ReplError>;
      reply = { error: { name: 'ReplError', message: String(text), code: String(code), ...(stack === undefined ? {} : { stack }) } };
    }
    if (this.#alive) this.#port.postMessage({ type: 'endpoint-reply', requestId: message.requestId, ...reply });
  }

  #corrupt(reason: string): void {
    this.#settle({ kind: 'protocol', message: reason });
    void this.terminate(reason);
  }
}
