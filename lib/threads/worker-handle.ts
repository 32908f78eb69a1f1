/**
 * One worker thread as the main thread sees it, whatever its kind (REPL, Playwright executor):
 * the thread over a dedicated MessageChannel, the startup handshake with a deadline, one request
 * at a time, the calls the worker starts itself (through the `calls` hook), validation of
 * everything the worker posts, and the ways the thread ends. What callers are told, and when a
 * worker is replaced, belongs to the kinds (lib/repl/repl-worker.ts,
 * lib/executor/executor-worker.ts) and their owners.
 *
 * ```
 * new WorkerHandle ─► starting ──ready (protocol version and id match)──► ready
 *   starting: deadline, bad handshake, exit or malformed message ─► `ready` rejects once exited
 * starting | ready ──close()──► closing (the kind's shutdown message; exit within graceMs) ─► destroy()
 * any ──destroy(reason?)──► closing ──'exit'──► closed        (destroy resolves after 'exit')
 * starting | ready ──the thread ends by itself──► closed       (the pending request is settled)
 * ```
 *
 * A message that fails the kind's validator, carries another request's id, or comes with no
 * request pending is protocol corruption, and so is the worker closing its end of the channel: the
 * pending request is answered `protocol` and only this worker is destroyed. Nothing a worker posts
 * can make the main thread throw.
 *
 * Memory outside the V8 heap (Buffers, ArrayBuffers) is capped by `externalMemoryMb`
 * (lib/threads/memory-watch.ts): past it the thread is terminated and its exit is `out-of-memory`
 * with `limit: 'external-memory'`, like a heap overrun.
 *
 * Calls that start in the worker and are answered beside the pending request, whenever the
 * answer is ready, are not this class's business: the kind's owner installs a {@link WorkerCalls}
 * (the REPL and executor workers' browser calls: lib/threads/browser-calls.ts). The handle routes
 * the message types it names to it, gives it a way to reply, and tells it when the thread ends.
 */
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort, WorkerOptions } from 'node:worker_threads';
import type { ReplError } from '../../common/errors.js';
import { LIMITS, TIMEOUTS } from '../../common/limits.js';
import { waitAtMost } from '../../common/wait.js';
import { channels, publish } from '../../common/diagnostics.js';
import type { WorkerExitMessage } from '../../common/diagnostics.js';
import type { Validation } from '../../common/protocol/validate.js';
import { memoryWatch } from './memory-watch.js';
import type { MemoryOverrun } from './memory-watch.js';

/** `ws`-style ready state: `closing` from the first `close()`/`destroy()` until the thread's 'exit'. */
export type WorkerState = 'starting' | 'ready' | 'closing' | 'closed';

export interface WorkerMessage {
  type: string;
}

/** Why the thread ended, before the kind puts it into words. */
export type ExitCause =
  /**
   * A memory cap was reached: the heap (`ERR_WORKER_OUT_OF_MEMORY`, `heapMb`) or the memory outside
   * it (`externalMemoryMb`, lib/threads/memory-watch.ts). `capMb` is the cap that was reached;
   * `detail` says what was measured. {@link outOfMemoryText} words it.
   */
  | { cause: 'out-of-memory'; limit: 'heap' | 'external-memory'; heapMb: number; capMb: number; detail: string }
  /** An uncaught exception (or a failed handshake) ended the thread. */
  | { cause: 'uncaught'; detail: string; stack?: string }
  /** `close()` or `destroy(reason)` ended it; `reason` defaults to the kind's `destroyedReason`. */
  | { cause: 'destroyed'; reason: string }
  /** It exited by itself (`process.exit()`, end of its event loop). */
  | { cause: 'exit-code'; exitCode: number };

export type WorkerExit = ExitCause & {
  exitCode: number;
  /** `close()` or `destroy()` had been called when the thread ended. */
  deliberate: boolean;
  /** The kind's description: what callers are told. */
  message: string;
};

/** How one request ended; exactly one per request. */
export type RequestOutcome<R> =
  | { kind: 'answered'; value: R }
  /** The thread ended first; `started` is what the request handler had recorded. */
  | { kind: 'exited'; exit: WorkerExit; started: boolean }
  /** No answer within `responseDeadlineMs`: the thread was destroyed. */
  | { kind: 'unresponsive'; waitedMs: number }
  /** The worker broke the protocol; the thread was destroyed. */
  | { kind: 'protocol'; message: string };

/** What a request's handler makes of one message carrying its `requestId`: answer, violation, or keep waiting. */
export type RequestStep<R> = { answer: R } | { violation: string } | undefined;

/** The running request, as its handler sees it. */
export interface PendingRequest {
  readonly requestId: number;
  /** Set by the handler once the worker acknowledged that it began (the REPL's `started`). */
  started: boolean;
}

/** How a {@link WorkerCalls} answers the worker. */
export interface WorkerCallChannel {
  /** Posts a reply to the worker, unless the thread has exited. */
  reply(message: WorkerMessage): void;
  /** The worker broke the protocol (`problem` is put in the kind's words): the pending request is told, and only this worker ends. */
  malformed(problem: string): void;
}

/**
 * The calls a worker starts itself, answered beside the pending request (the hook of
 * {@link WorkerHandleOptions.calls}). The handle knows nothing of what they mean.
 */
export interface WorkerCalls {
  /** Message types that are such calls; every other message belongs to the pending request. */
  readonly types: ReadonlySet<string>;
  /** Given once, before any message arrives. */
  attach(channel: WorkerCallChannel): void;
  /** One validated message of one of {@link types}. A throw is a protocol violation of this worker. */
  receive(message: WorkerMessage): void;
  /** The thread ended, or is being destroyed: no reply can reach it, so abandon what is in flight. */
  abandon(reason: string): void;
}

/** Everything that differs between kinds of worker: declared once per kind, as a constant. */
export interface WorkerKind<ToWorker extends WorkerMessage, FromWorker extends WorkerMessage> {
  /** Key of {@link liveThreadCount}. */
  readonly thread: string;
  readonly url: URL;
  readonly protocolVersion: number;
  /** Validates one message from the worker (common/protocol/validate.ts). */
  readonly validate: (message: unknown) => Validation<FromWorker>;
  /** Protocol version and id of a validated `ready` message. */
  readonly identify: (ready: FromWorker) => { protocolVersion: number; id: string };
  /** Posted by `close()`, which then waits for the thread to exit by itself; absent: `close()` is `destroy()`. */
  readonly shutdownMessage?: ToWorker;
  /** The reason of a `close()`, or of a `destroy()` without one. */
  readonly destroyedReason: string;
  readonly describeExit: (exit: ExitCause) => string;
  /** The error `ready` rejects with. */
  readonly startFailed: (failure: { timeoutMs: number } | { exit: WorkerExit }) => ReplError;
  /** What the pending request is told about a message that failed validation. */
  readonly malformed: (problem: string) => string;
}

export interface WorkerHandleOptions {
  /** The id the `ready` message must repeat. */
  id: string;
  /** Thread name (shown in inspectors and heap snapshots). */
  name: string;
  /** The thread's `workerData`, given the worker's end of the channel (it is transferred). */
  workerData: (port: MessagePort) => unknown;
  /** V8 old-space cap (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
  /**
   * Cap on the memory outside the V8 heap (Buffers, ArrayBuffers), in MiB; default
   * {@link defaultExternalMemoryMb} (`BROWSER_REPL_EXTERNAL_MEMORY_MB`, else 1024).
   */
  externalMemoryMb?: number | undefined;
  execArgv?: string[] | undefined;
  /** The thread's `process.env`; default: a copy of this process's. */
  env?: Record<string, string> | undefined;
  /**
   * How long the handshake may take before the thread is ended and `ready` rejects with the
   * kind's `startFailed`. `null`: the owner keeps a deadline of its own (an executor worker's
   * moves with the calls waiting for it) and ends the thread itself.
   */
  startupTimeoutMs: number | null;
  /** Answers the calls the worker starts itself; absent: every message belongs to the pending request. */
  calls?: WorkerCalls | undefined;
  /** Test seam: another worker script speaking the kind's protocol. */
  url?: URL | undefined;
}

interface Pending<FromWorker> extends PendingRequest {
  handle: (message: FromWorker, request: PendingRequest) => RequestStep<unknown>;
  settle: (outcome: RequestOutcome<unknown>) => void;
}

const live = new Map<string, Set<Worker>>();

/** Name of the environment variable behind {@link defaultExternalMemoryMb}. */
export const EXTERNAL_MEMORY_ENV = 'BROWSER_REPL_EXTERNAL_MEMORY_MB';

/** `BROWSER_REPL_EXTERNAL_MEMORY_MB` when it is a positive number, else 1024; read at each worker's start. */
export function defaultExternalMemoryMb(): number {
  const configured = Number(process.env[EXTERNAL_MEMORY_ENV]);
  return Number.isFinite(configured) && configured > 0 ? configured : LIMITS.externalMemoryMbDefault;
}

/**
 * How long a thread whose port closed may take to emit 'exit' before the close counts as the work
 * of a cell (`port.close()`): a thread that exits (`process.exit()`) closes its port first, and
 * under load its 'exit' event follows seconds later. A cell that closed the port waits this long.
 */
const PORT_CLOSE_GRACE_MS = 5_000;

/**
 * Which cap an `out-of-memory` exit reached, in the words of a kind's `describeExit`: `the 512 MiB
 * heap limit was reached` or `the cap on memory outside the heap was reached`. The exit's `detail`
 * says more; for the memory outside the heap it names the cap and BROWSER_REPL_EXTERNAL_MEMORY_MB.
 */
export function outOfMemoryText(exit: Extract<ExitCause, { cause: 'out-of-memory' }>): string {
  return exit.limit === 'heap' ? `the ${exit.heapMb} MiB heap limit was reached` : 'the cap on memory outside the heap was reached';
}

/** Threads of that kind (`'repl'`, `'executor'`) that have not emitted 'exit' yet (diagnostics, leak tests). */
export function liveThreadCount(thread: string): number {
  return live.get(thread)?.size ?? 0;
}

/** One worker thread; see the module comment. */
export class WorkerHandle<ToWorker extends WorkerMessage, FromWorker extends WorkerMessage> {
  /** The handshake id: unique per thread (a replacement gets a new one). */
  readonly id: string;
  /** Resolves once the worker answered the handshake; rejects with the kind's start error once the thread has exited. */
  readonly ready: Promise<void>;
  /** Resolves with how the thread ended, once it has emitted 'exit'. Never rejects. */
  readonly exited: Promise<WorkerExit>;
  readonly #kind: WorkerKind<ToWorker, FromWorker>;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #heapMb: number;
  readonly #externalMemoryMb: number;
  /** Set when the memory watch found the cap exceeded; the exit is then `out-of-memory`. */
  #memoryOverrun: MemoryOverrun | undefined;
  readonly #calls: WorkerCalls | undefined;
  #state: WorkerState = 'starting';
  #nextRequestId = 1;
  #pending: Pending<FromWorker> | null = null;
  #lastError: unknown;
  #exit: WorkerExit | undefined;
  #destroyReason: string | undefined;
  #startFailure: ReplError | undefined;
  #readySettled = false;
  #readyTimer: NodeJS.Timeout | undefined;
  /** Ended for breaking the protocol (`#violation`). */
  #violated = false;
  #resolveReady: () => void = () => {};
  #closing: Promise<void> | undefined;
  #destroying: Promise<void> | undefined;

  constructor(kind: WorkerKind<ToWorker, FromWorker>, options: WorkerHandleOptions) {
    this.#kind = kind;
    this.id = options.id;
    this.#heapMb = options.heapMb;
    this.#externalMemoryMb = options.externalMemoryMb ?? defaultExternalMemoryMb();
    this.#calls = options.calls;
    this.#calls?.attach({
      reply: (message) => this.#post(message),
      malformed: (problem) => this.#violation(this.#kind.malformed(problem)),
    });
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const workerOptions: WorkerOptions = {
      name: options.name,
      workerData: options.workerData(port2),
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    };
    if (options.execArgv !== undefined) workerOptions.execArgv = options.execArgv;
    if (options.env !== undefined) workerOptions.env = options.env;
    this.#worker = new Worker(options.url ?? kind.url, workerOptions);
    // Counted first, so that every later 'exit' listener already sees the thread gone.
    let threads = live.get(kind.thread);
    if (threads === undefined) live.set(kind.thread, threads = new Set());
    threads.add(this.#worker);
    this.#worker.once('exit', () => threads.delete(this.#worker));
    const stopWatching = memoryWatch.add({
      worker: this.#worker,
      capBytes: this.#externalMemoryMb * 1024 * 1024,
      busy: () => this.busy,
      exceeded: (overrun) => this.#onMemoryOverrun(overrun),
    });
    this.#worker.once('exit', stopWatching);

    let rejectReady: (error: ReplError) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      this.#resolveReady = resolve;
      rejectReady = reject;
    });
    // Owners that never await `ready` (a spare destroyed early) must not see an unhandled rejection.
    this.ready.catch(() => {});
    const { startupTimeoutMs } = options;
    const startTimer = startupTimeoutMs === null ? undefined : setTimeout(() => {
      this.#startFailure = kind.startFailed({ timeoutMs: startupTimeoutMs });
      void this.destroy();
    }, startupTimeoutMs);

    this.#worker.on('error', (error) => {
      this.#lastError = error;
    });
    this.exited = new Promise((resolve) => {
      this.#worker.once('exit', (exitCode) => {
        clearTimeout(startTimer);
        // What the thread posted just before it ended (a cell's output before a `process.exit()`,
        // a kind's own start acknowledgement) may still wait in the port's queue, behind the 'exit'
        // event: read it first, or it would be lost (and a request that began could look as if it
        // never ran, and run a second time).
        // Guarded by test/socket/repl-lifecycle.test.mjs ("process.exit … exactly once").
        if (this.#destroying === undefined) {
          for (let queued = receiveMessageOnPort(this.#port); queued !== undefined; queued = receiveMessageOnPort(this.#port)) {
            this.#onMessage(queued.message);
          }
        }
        this.#state = 'closed';
        this.#port.close();
        this.#calls?.abandon('the worker that made this call ended');
        const exit = this.#describeExit(exitCode);
        this.#exit = exit;
        publish<WorkerExitMessage>(channels.workerExit, () => ({
          kind: kind.thread,
          workerId: this.id,
          cause: exit.cause,
          limit: exit.cause === 'out-of-memory' ? exit.limit : undefined,
          deliberate: exit.deliberate,
          violation: this.#violated,
        }));
        const pending = this.#pending;
        pending?.settle({ kind: 'exited', exit, started: pending.started });
        if (!this.#readySettled) {
          this.#readySettled = true;
          rejectReady(this.#startFailure ?? kind.startFailed({ exit }));
        }
        resolve(exit);
      });
    });
    this.#port.on('message', (message: unknown) => this.#onMessage(message));
    this.#port.on('messageerror', (error: Error) => {
      this.#violation(kind.malformed(`a message could not be deserialized: ${error.message}`));
    });
    // The worker's end closed. A thread that ends closes it too, usually just before its 'exit'
    // event, and that exit must be reported as what it is (a cell's `process.exit()`): so the
    // port's close counts as a violation only if the thread is still running a grace period later.
    // Then a cell closed it (`workerData.port.close()`), and the worker can never be reached again.
    // A thread that failed ('error': out of memory, an uncaught exception) is ending, however late
    // its 'exit' comes on a loaded machine (seen: more than 2 s after the close): never a violation.
    this.#port.on('close', () => {
      if (this.#exit !== undefined || this.#destroying !== undefined) return;
      const timer = setTimeout(() => {
        if (this.#lastError === undefined) this.#violation(kind.malformed('the worker closed its message port'));
      }, PORT_CLOSE_GRACE_MS);
      timer.unref();
      this.#worker.once('exit', () => clearTimeout(timer));
    });
    this.#readyTimer = startTimer;
  }

  get state(): WorkerState {
    return this.#state;
  }

  /** The worker's `threadId`. */
  get threadId(): number {
    return this.#worker.threadId;
  }

  /** `starting` or `ready`: neither ended nor asked to end. */
  get alive(): boolean {
    return this.#state === 'starting' || this.#state === 'ready';
  }

  /** A request is pending. */
  get busy(): boolean {
    return this.#pending !== null;
  }

  /** The reason given to the first `close()`/`destroy()` (the kind's `destroyedReason` without one); undefined before. */
  get destroyReason(): string | undefined {
    return this.#destroyReason;
  }

  /**
   * Posts the message `build(requestId)` and resolves with the outcome. Every
   * message of the worker that carries `requestId` goes to `handle` until it answers; one request
   * at a time (a second one while this is pending is a programming error and throws). With
   * `responseDeadlineMs`, a worker that has not answered by then is destroyed (`unresponsive`).
   * Rejects only when the message cannot be posted (it is not cloneable).
   */
  request<R>(
    build: (requestId: number) => ToWorker,
    handle: (message: FromWorker, request: PendingRequest) => RequestStep<R>,
    options: { responseDeadlineMs?: number | undefined } = {},
  ): Promise<RequestOutcome<R>> {
    if (this.#pending !== null) throw new Error(`WorkerHandle.request called while request ${this.#pending.requestId} is pending`);
    const requestId = this.#nextRequestId++;
    return new Promise<RequestOutcome<R>>((resolve) => {
      if (this.#exit !== undefined) {
        resolve({ kind: 'exited', exit: this.#exit, started: false });
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const pending: Pending<FromWorker> = {
        requestId,
        started: false,
        handle,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (this.#pending === pending) this.#pending = null;
          resolve(outcome as RequestOutcome<R>);
        },
      };
      this.#pending = pending;
      memoryWatch.wake(this.#worker);
      const waitedMs = options.responseDeadlineMs;
      if (waitedMs !== undefined) {
        timer = setTimeout(() => {
          pending.settle({ kind: 'unresponsive', waitedMs });
          void this.destroy();
        }, waitedMs);
      }
      try {
        this.#post(build(requestId));
      } catch (error) {
        // Only a message that cannot be cloned gets here: the caller's bug, not the worker's.
        clearTimeout(timer);
        this.#pending = null;
        throw error;
      }
    });
  }

  /**
   * Graceful end: posts the kind's shutdown message (if it has one and the thread runs), waits up
   * to `graceMs` (default 2 s) for the thread to exit by itself, then `destroy()`. Resolves once
   * the thread has exited. Idempotent.
   */
  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#closeGracefully(options.graceMs ?? TIMEOUTS.shutdownGraceMs);
    return this.#closing;
  }

  /**
   * Ends the thread at once (running code is interrupted, even a busy loop) and resolves once it
   * has emitted 'exit'. `reason` is what a pending request is told when the kind reports the exit.
   * Idempotent: the first reason counts.
   */
  destroy(reason?: string): Promise<void> {
    this.#destroyReason ??= reason ?? this.#kind.destroyedReason;
    if (this.#state !== 'closed') this.#state = 'closing';
    // At once, not at 'exit': terminating a busy thread can take a while, and no answer can reach it now.
    this.#calls?.abandon('the worker that made this call was ended');
    this.#destroying ??= (async () => {
      if (this.#exit === undefined) await this.#worker.terminate();
      await this.exited;
    })();
    return this.#destroying;
  }

  /** Same as {@link WorkerHandle.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #closeGracefully(graceMs: number): Promise<void> {
    const shutdown = this.#kind.shutdownMessage;
    if (shutdown !== undefined && this.#exit === undefined && this.#destroying === undefined) {
      this.#destroyReason ??= this.#kind.destroyedReason;
      this.#state = 'closing';
      this.#post(shutdown);
      await waitAtMost(this.exited, graceMs);
    }
    await this.destroy();
  }

  /** Posts a message that expects no answer (a kind's configuration), unless the thread has exited. */
  protected notify(message: ToWorker): void {
    this.#post(message);
  }

  #post(message: ToWorker | WorkerMessage): void {
    if (this.#exit === undefined) this.#port.postMessage(message);
  }

  #describeExit(exitCode: number): WorkerExit {
    const error = this.#lastError as { code?: unknown; message?: unknown; stack?: unknown } | null | undefined;
    let cause: ExitCause;
    const overrun = this.#memoryOverrun;
    if (overrun !== undefined) {
      cause = { cause: 'out-of-memory', limit: 'external-memory', heapMb: this.#heapMb, capMb: this.#externalMemoryMb, detail: describeOverrun(overrun) };
    } else if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      cause = { cause: 'out-of-memory', limit: 'heap', heapMb: this.#heapMb, capMb: this.#heapMb, detail: String(error.message) };
    } else if (error !== undefined) {
      cause = { cause: 'uncaught', detail: typeof error?.message === 'string' ? error.message : String(error) };
      if (typeof error?.stack === 'string') cause.stack = error.stack;
    } else if (this.#destroyReason !== undefined) {
      cause = { cause: 'destroyed', reason: this.#destroyReason };
    } else {
      cause = { cause: 'exit-code', exitCode };
    }
    return { ...cause, exitCode, deliberate: this.#destroyReason !== undefined, message: this.#kind.describeExit(cause) };
  }

  #onMessage(raw: unknown): void {
    // A thread being terminated has nothing more to say.
    if (this.#exit !== undefined || this.#destroying !== undefined) return;
    const checked = this.#kind.validate(raw);
    if (!checked.ok) {
      this.#violation(this.#kind.malformed(checked.error));
      return;
    }
    const message = checked.message;
    try {
      if (message.type === 'ready') this.#onReady(message);
      else if (this.#calls?.types.has(message.type) === true) this.#calls.receive(message);
      else this.#route(message);
    } catch (error) {
      // A request handler failed on a message that passed validation: still this worker's end only.
      this.#violation(`failed to handle a ${message.type} message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #onReady(message: FromWorker): void {
    if (this.#readySettled) {
      this.#violation(this.#kind.malformed('a second ready message'));
      return;
    }
    const { protocolVersion, id } = this.#kind.identify(message);
    if (protocolVersion !== this.#kind.protocolVersion || id !== this.id) {
      this.#lastError = new Error(`worker handshake mismatch (protocol ${protocolVersion}, id ${id})`);
      void this.destroy();
      return;
    }
    this.#readySettled = true;
    clearTimeout(this.#readyTimer);
    if (this.#state === 'starting') this.#state = 'ready';
    this.#resolveReady();
  }

  #route(message: FromWorker): void {
    const pending = this.#pending;
    const requestId = (message as { requestId?: unknown }).requestId;
    if (pending === null || requestId !== pending.requestId) {
      this.#violation(`response ID mismatch: expected ${pending?.requestId ?? 'none'}, got ${String(requestId)}`);
      return;
    }
    const step = pending.handle(message, pending);
    if (step === undefined) return;
    if ('violation' in step) this.#violation(step.violation);
    else pending.settle({ kind: 'answered', value: step.answer });
  }

  /** The memory watch found this worker past its cap: terminated at once, reported as out of memory. */
  #onMemoryOverrun(overrun: MemoryOverrun): void {
    if (this.#exit !== undefined || this.#destroying !== undefined) return;
    this.#memoryOverrun = overrun;
    void this.destroy(`the worker exceeded the ${this.#externalMemoryMb} MiB cap on memory outside the heap (${EXTERNAL_MEMORY_ENV})`);
  }

  /** Protocol corruption: the pending request is told why, and only this worker ends. */
  #violation(reason: string): void {
    if (this.#exit !== undefined || this.#destroying !== undefined) return;
    this.#violated = true;
    this.#pending?.settle({ kind: 'protocol', message: reason });
    void this.destroy(reason);
  }
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** What the memory watch measured, for an `out-of-memory` exit's `detail`. */
function describeOverrun(overrun: MemoryOverrun): string {
  const cap = `the ${mebibytes(overrun.capBytes)} cap on memory outside the heap (Buffers, ArrayBuffers; ${EXTERNAL_MEMORY_ENV})`;
  return overrun.measure === 'external-memory'
    ? `its memory outside the heap reached ${mebibytes(overrun.observedBytes)}, past ${cap}`
    // Node < 22.16 cannot measure one worker (lib/threads/memory-watch.ts): say so, since this
    // worker may not be the one that allocated.
    : `the server's resident memory grew by ${mebibytes(overrun.observedBytes)} during this worker's request, past ${cap}; this Node version cannot measure one worker, so of the workers busy meanwhile the one whose request started last was stopped`;
}
