/**
 * One REPL worker thread as the host sees it: start and handshake, one execution at a time,
 * environment updates, and the ways it can die. It does not decide policy (timeouts, restarts);
 * `Repl` does.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { ReplError } from '../../common/errors.js';
import { liveThreadCount, trackThread } from '../threads/live-threads.js';
import { LIMITS } from '../../common/limits.js';
import { PROTOCOL_VERSION } from '../../common/protocol/repl-messages.js';
import type {
  EndpointRequestMessage, OutputItem, ResultMessage, WorkerStartup, WorkerToMainMessage,
} from '../../common/protocol/repl-messages.js';

const WORKER_URL = new URL('../../worker/repl/main.js', import.meta.url);

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
  /** Answers the worker's requests for the browser endpoint. */
  onEndpointRequest?: (message: EndpointRequestMessage) => Promise<string>;
  /** Test seam: another worker script speaking the same protocol. */
  workerUrl?: URL;
}

/** Why a worker stopped, in the words of the contract's lifecycle table. */
export interface WorkerDeath {
  code: 'REPL_ERR_OUT_OF_MEMORY' | 'REPL_ERR_WORKER_CRASHED';
  message: string;
  stack?: string;
}

export type ExecutionOutcome =
  | { kind: 'result'; result: ResultMessage }
  /** The worker died before it began the cell: the cell did not run at all. */
  | { kind: 'not-started'; death: WorkerDeath }
  | { kind: 'died'; death: WorkerDeath }
  | { kind: 'protocol'; message: string };

interface PendingExecution {
  requestId: number;
  started: boolean;
  onOutput: (item: OutputItem) => void;
  settle: (outcome: ExecutionOutcome) => void;
  receivedBytes: number;
}

export class ReplWorker {
  readonly replId: string;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #heapMb: number;
  readonly #onEndpointRequest: ReplWorkerOptions['onEndpointRequest'];
  readonly exited: Promise<WorkerDeath>;
  #nextRequestId = 1;
  #pending: PendingExecution | null = null;
  #pendingEnv = new Map<number, () => void>();
  #lastError: unknown = undefined;
  #alive = true;
  #terminating = false;
  #shuttingDown = false;
  #readyHandlers: { resolve: () => void } | null = null;

  private constructor(options: ReplWorkerOptions) {
    this.replId = options.replId;
    this.#heapMb = options.heapMb;
    this.#onEndpointRequest = options.onEndpointRequest;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const startup: WorkerStartup = {
      protocolVersion: PROTOCOL_VERSION,
      replId: options.replId,
      port: port2,
      browser: { available: options.browserAvailable },
    };
    this.#worker = new Worker(options.workerUrl ?? WORKER_URL, {
      name: `browser-repl ${options.replId}`,
      workerData: startup,
      transferList: [port2],
      execArgv: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
      env: { ...options.env, BROWSER_REPL_ID: options.replId },
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    trackThread('repl', this.#worker);
    this.#worker.on('error', (error) => {
      this.#lastError = error;
    });
    this.exited = new Promise((resolve) => {
      this.#worker.once('exit', (exitCode) => {
        this.#alive = false;
        this.#port.close();
        const death = this.#describeDeath(exitCode);
        const pending = this.#pending;
        pending?.settle(pending.started || this.#terminating ? { kind: 'died', death } : { kind: 'not-started', death });
        for (const done of this.#pendingEnv.values()) done();
        this.#pendingEnv.clear();
        resolve(death);
      });
    });
    this.#port.on('message', (message: WorkerToMainMessage) => this.#onMessage(message));
  }

  /** Starts a worker and resolves once it has answered the handshake. */
  static async start(options: ReplWorkerOptions): Promise<ReplWorker> {
    const worker = new ReplWorker(options);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new ReplError('REPL_ERR_START_FAILED',
          `failed to start browser REPL: browser REPL failed to start within ${options.startupTimeoutMs / 1000}s`));
      }, options.startupTimeoutMs);
      worker.#readyHandlers = { resolve: () => { clearTimeout(timer); resolve(); } };
      void worker.exited.then((death) => {
        clearTimeout(timer);
        reject(new ReplError('REPL_ERR_START_FAILED',
          `failed to start browser REPL: browser REPL exited during startup: ${death.message}`));
      });
    });
    try {
      await ready;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return worker;
  }

  get alive(): boolean {
    return this.#alive && !this.#terminating;
  }

  get busy(): boolean {
    return this.#pending !== null;
  }

  /** Sends one cell; resolves with its result or with how the worker died. Never rejects. */
  execute(code: string, timeoutMs: number, onOutput: (item: OutputItem) => void): Promise<ExecutionOutcome> {
    if (this.#pending !== null) throw new Error('ReplWorker.execute called while a cell is running');
    const requestId = this.#nextRequestId++;
    return new Promise((resolve) => {
      this.#pending = {
        requestId,
        started: false,
        onOutput,
        receivedBytes: 0,
        settle: (outcome) => {
          this.#pending = null;
          resolve(outcome);
        },
      };
      if (!this.#alive) {
        this.#pending.settle({ kind: 'not-started', death: this.#describeDeath(1) });
        return;
      }
      this.#port.postMessage({ type: 'execute', requestId, code, timeoutMs, deadline: Date.now() + timeoutMs });
    });
  }

  /** Applies environment changes live; resolves false when the worker could not take them in time. */
  setEnv(set: Record<string, string | null>, timeoutMs: number): Promise<boolean> {
    if (!this.alive) return Promise.resolve(false);
    const requestId = this.#nextRequestId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const finish = (applied: boolean) => {
        clearTimeout(timer);
        this.#pendingEnv.delete(requestId);
        resolve(applied);
      };
      this.#pendingEnv.set(requestId, () => finish(this.#alive));
      this.#port.postMessage({ type: 'env', requestId, set });
    });
  }

  /**
   * Asks the worker to finish queued work, close its browser connection and exit; terminates it
   * if it has not exited within `graceMs`. Resolves when the thread has exited.
   */
  async shutdown(graceMs: number): Promise<void> {
    if (!this.#alive) return;
    this.#shuttingDown = true;
    this.#port.postMessage({ type: 'shutdown' });
    let timer: NodeJS.Timeout | undefined;
    const exitedInTime = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), graceMs); }),
    ]);
    clearTimeout(timer);
    if (!exitedInTime) await this.terminate();
  }

  /** Ends the thread at once (running code is interrupted) and resolves when it has exited. */
  async terminate(): Promise<void> {
    this.#terminating = true;
    if (this.#alive) await this.#worker.terminate();
    await this.exited;
  }

  #describeDeath(exitCode: number): WorkerDeath {
    const error = this.#lastError as { code?: unknown; message?: unknown; stack?: unknown } | undefined;
    if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return {
        code: 'REPL_ERR_OUT_OF_MEMORY',
        message: `browser REPL process terminated during execution (out of memory: the ${this.#heapMb} MiB heap limit was reached): ${String(error.message)}`,
      };
    }
    if (error !== undefined) {
      const message = typeof error?.message === 'string' ? error.message : String(error);
      const death: WorkerDeath = { code: 'REPL_ERR_WORKER_CRASHED', message: `uncaught exception in browser REPL process: ${message}` };
      if (typeof error?.stack === 'string') death.stack = error.stack;
      return death;
    }
    return {
      code: 'REPL_ERR_WORKER_CRASHED',
      message: this.#terminating || this.#shuttingDown
        ? 'browser REPL process was terminated'
        : `browser REPL process terminated during execution (exit code ${exitCode})`,
    };
  }

  #onMessage(message: WorkerToMainMessage): void {
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== PROTOCOL_VERSION || message.replId !== this.replId) {
          this.#lastError = new Error(`worker handshake mismatch (protocol ${message.protocolVersion}, id ${message.replId})`);
          void this.#worker.terminate();
          return;
        }
        this.#readyHandlers?.resolve();
        this.#readyHandlers = null;
        return;
      case 'started':
        if (this.#pending?.requestId === message.requestId) this.#pending.started = true;
        else this.#corrupt(`response ID mismatch: expected ${this.#pending?.requestId ?? 'none'}, got ${message.requestId}`);
        return;
      case 'output': {
        const pending = this.#pending;
        if (pending === null || pending.requestId !== message.requestId) {
          this.#corrupt(`response ID mismatch: expected ${pending?.requestId ?? 'none'}, got ${message.requestId}`);
          return;
        }
        pending.receivedBytes += message.item.type === 'text' ? message.item.text.length * 3 : message.item.bytes.byteLength;
        if (pending.receivedBytes > LIMITS.responseBytes) {
          this.#corrupt('browser REPL response exceeds maximum size');
          return;
        }
        pending.onOutput(message.item);
        return;
      }
      case 'result': {
        const pending = this.#pending;
        if (pending === null || pending.requestId !== message.requestId) {
          this.#corrupt(`response ID mismatch: expected ${pending?.requestId ?? 'none'}, got ${message.requestId}`);
          return;
        }
        pending.settle({ kind: 'result', result: message });
        return;
      }
      case 'env-applied':
        this.#pendingEnv.get(message.requestId)?.();
        return;
      case 'endpoint-request':
        void this.#answerEndpoint(message);
        return;
    }
  }

  async #answerEndpoint(message: EndpointRequestMessage): Promise<void> {
    try {
      if (this.#onEndpointRequest === undefined) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this REPL has no browser');
      const endpoint = await this.#onEndpointRequest(message);
      if (this.#alive) this.#port.postMessage({ type: 'endpoint-reply', requestId: message.requestId, endpoint });
    } catch (error) {
      const { message: text, code, stack } = error as ReplError;
      if (this.#alive) {
        this.#port.postMessage({
          type: 'endpoint-reply',
          requestId: message.requestId,
          error: { name: 'ReplError', message: String(text), code: String(code), ...(stack === undefined ? {} : { stack }) },
        });
      }
    }
  }

  #corrupt(reason: string): void {
    const pending = this.#pending;
    this.#terminating = true;
    void this.#worker.terminate();
    pending?.settle({ kind: 'protocol', message: reason });
  }
}
