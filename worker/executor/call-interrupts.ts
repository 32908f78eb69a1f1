/**
 * The executor's side of stopping a call without ending its worker or its browser connection
 * (issue 27; the REPL's is worker/repl/cell-interrupts.ts, docs/playwright.md "Timeouts"). Three
 * parts:
 *
 * 1. **Checks in the code.** The compiled code gets the liveness checks the REPL's lowering
 *    inserts (worker/analyzer/interrupt-checks.ts) at loop back-edges, function entries and after
 *    each `await`. They read slots the main thread writes (`ExecutorStartup.interrupts`), so a
 *    busy loop is stopped with no message, and the main thread sets them at the call's deadline
 *    too, when the worker's own timer cannot fire.
 * 2. **Playwright calls are aborted.** Every Playwright call made from a call's code carries that
 *    call's AbortSignal (browser-connection.ts wraps the connection's send), so a call waiting on
 *    `page.click()` or `waitForSelector()` is stopped by Playwright itself (its `__abort__`), and
 *    a call made later by code the stopped call left behind fails at once.
 * 3. **Leftovers are inert.** Once stopped, the call's scope is interrupted (webmcp calls aborted)
 *    and the checks after an `await` throw in whatever that call left running.
 *
 * The checks are global lexical bindings of this worker's realm, where executor code runs
 * (`Script.runInThisContext`); `Function.prototype.toString` strips them, so `page.evaluate(fn)`
 * sends the page the function as written.
 */
import { randomBytes } from 'node:crypto';
import { EXECUTOR_STOP_ABANDONED, EXECUTOR_STOP_BUFFER_BYTES, EXECUTOR_STOP_REASON, EXECUTOR_STOP_REQUESTED, STOP_REASON_CODES } from '../../common/protocol/executor-messages.js';
import type { StopReason } from '../../common/protocol/executor-messages.js';
import { insertChecks, stripChecks } from '../analyzer/interrupt-checks.js';
import { hideChecksFromToString, installChecks } from '../repl/cell-interrupts.js';
import type { InterruptToken } from '../analyzer/interrupt-checks.js';
import { currentCellScope } from '../webmcp/cell-scope.js';
import type { CellScope } from '../webmcp/cell-scope.js';

/** What the checks throw into a stopped call's code. */
export const STOPPED_MESSAGE = 'the call was stopped: it ran past its timeout, or an interrupt was asked for';

/** The call that runs now, as {@link CallInterrupts} stops it. */
export interface RunningCall {
  readonly requestId: number;
  readonly scope: CellScope;
  /** Stops the call (aborts its signal, interrupts its scope); idempotent. */
  readonly stop: (reason: StopReason) => void;
}

/** The errors the checks threw, so the worker's handlers can tell them from real failures. */
const stopErrors = new WeakSet<object>();

/** The AbortSignal of each call's scope: what Playwright calls made in that scope carry. */
const callSignals = new WeakMap<CellScope, AbortSignal>();

/** The signal of the call whose code runs now (its scope, through AsyncLocalStorage), if any. */
export function currentCallSignal(): AbortSignal | undefined {
  const scope = currentCellScope();
  return scope === undefined ? undefined : callSignals.get(scope);
}

export class CallInterrupts {
  readonly names: InterruptToken = { token: `__pw_${randomBytes(4).toString('hex')}` };
  readonly #view: Int32Array;
  #running: RunningCall | undefined;
  /** Request ids only grow: a larger one than this has not begun. */
  #lastBegun = 0;
  /** An `interrupt` message for a call that had not begun when it came. */
  #early: { requestId: number; reason: StopReason } | undefined;
  #error: Error | undefined;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(EXECUTOR_STOP_BUFFER_BYTES)) {
    this.#view = new Int32Array(buffer);
    // The REPL's checks, in this realm; EXECUTOR_STOP_REQUESTED and _ABANDONED are the REPL's slots.
    installChecks(undefined, this.names, this.#view, (afterAwait) => this.#slow(afterAwait));
    hideChecksFromToString(Function.prototype as unknown as { toString: (...args: unknown[]) => string }, (source) => this.strip(source));
  }

  /** The compiled code with checks, or undefined when they cannot be inserted (the call then runs without). */
  instrument(js: string): string | undefined {
    try {
      return insertChecks(js, this.names);
    } catch {
      // Code that parses as a script but not as a module (sloppy-mode only syntax): no checks.
      return undefined;
    }
  }

  /** `text` without the checks (a stack line, a function's source). */
  strip(text: string): string {
    return stripChecks(text, this.names);
  }

  /** A call begins; one the main thread asked to stop before it began is stopped at once. */
  begin(call: RunningCall, signal: AbortSignal): void {
    this.#running = call;
    this.#lastBegun = call.requestId;
    callSignals.set(call.scope, signal);
    const early = this.#early;
    if (early !== undefined && early.requestId <= call.requestId) this.#early = undefined;
    if (early?.requestId === call.requestId) {
      call.stop(early.reason);
      return;
    }
    if (Atomics.load(this.#view, EXECUTOR_STOP_REQUESTED) === call.requestId) {
      call.stop(this.#reasonInSlot());
      return;
    }
    Atomics.store(this.#view, EXECUTOR_STOP_REQUESTED, 0);
  }

  /** The call answered. */
  end(): void {
    this.#running = undefined;
    Atomics.store(this.#view, EXECUTOR_STOP_REQUESTED, 0);
  }

  /** The main thread's `interrupt` message. */
  requested(requestId: number, reason: StopReason): void {
    const running = this.#running;
    if (running?.requestId === requestId) running.stop(reason);
    else if (requestId > this.#lastBegun) this.#early = { requestId, reason };
  }

  /** Called by a call's `stop`: from now on what that call left behind throws at its next check. */
  stopped(): void {
    Atomics.store(this.#view, EXECUTOR_STOP_ABANDONED, 1);
    this.#error = undefined;
  }

  /** Whether `value` is what a check threw (not a failure of the worker when it reaches a handler). */
  static isStop(value: unknown): boolean {
    return typeof value === 'object' && value !== null && stopErrors.has(value);
  }

  #reasonInSlot(): StopReason {
    return Atomics.load(this.#view, EXECUTOR_STOP_REASON) === STOP_REASON_CODES.interrupt ? 'interrupt' : 'timeout';
  }

  #slow(afterAwait: boolean): void {
    const requested = Atomics.load(this.#view, EXECUTOR_STOP_REQUESTED);
    if (requested !== 0) {
      const running = this.#running;
      if (running?.requestId === requested) {
        running.stop(this.#reasonInSlot());
        throw this.#stopError();
      }
      // A call that has not begun waits behind what this code is (left behind by an earlier call).
      if (requested > this.#lastBegun) throw this.#stopError();
      // Written for a call that answered just before the main thread's deadline: void.
      Atomics.compareExchange(this.#view, EXECUTOR_STOP_REQUESTED, requested, 0);
    }
    if (afterAwait && currentCellScope()?.interrupted === true) throw this.#stopError();
  }

  #stopError(): Error {
    if (this.#error === undefined) {
      const error = new Error(STOPPED_MESSAGE);
      Object.defineProperty(error, 'code', { value: 'REPL_ERR_CELL_INTERRUPTED', writable: true, configurable: true });
      stopErrors.add(error);
      this.#error = error;
    }
    return this.#error;
  }
}
