/**
 * The worker's side of stopping a cell past its deadline without ending the worker (issue 15,
 * docs/lifecycle.md "Interrupted"). The lowering inserts checks into cell code
 * (worker/analyzer/interrupt-checks.ts); what they read and call is defined here, in the cell's
 * own realm.
 *
 * A check reads one flag: the context's global property named by the worker's token, `T`
 * (non-enumerable, internal). How the flag gets set decides what a check costs (issue 26;
 * docs/architecture.md "Cells"):
 *
 * - Raised by the host (`raisedByHost`): `T` is a plain data property holding 0 that nothing writes
 *   until an interrupt, so V8 treats it as a constant and folds every check out of optimised code,
 *   which then costs nothing. To interrupt a busy cell, the host has the inspector define a binding
 *   of that name in this thread's contexts (lib/threads/thread-interrupter.ts): V8 runs it at the
 *   busy loop's own stack check, natively (it needs no JavaScript stack, so even a recursion that
 *   catches its own stack overflow sees it), the property's new value makes V8 discard the code
 *   that assumed it constant, and the next check sees it. Once the interrupt is dealt with, the
 *   property is defined anew, as a constant 0 again.
 * - Otherwise (unit tests, test262, a Node without the inspector), `T` is a getter reading the slot
 *   the host writes from the main thread (`INTERRUPT_REQUESTED`): a call and one read of shared
 *   memory per check, seen at the next back-edge, function entry or await with no message at all.
 *
 * Only when the flag is set does the check call back into the worker (`T_s`), which throws an
 * interrupt for the running cell and ignores a stale one (a cell that answered just before the
 * host wrote). A check after an `await` (`T_a`) also stops what an interrupted cell left behind (a
 * detached async function resuming during a later cell): once any cell was interrupted
 * (`INTERRUPT_ABANDONED`), it asks which cell the resuming code belongs to. `T_s` and `T_a` are
 * global lexical bindings of the context, which no cell can reassign or delete.
 *
 * The check after an `await` is defined in the context, so that V8 may inline it: calls across
 * realms are never inlined. A cell that waits (on a page, a timer) reaches no check: the host's
 * `interrupt` message stops it (`requested`).
 */
import { randomBytes } from 'node:crypto';
import vm from 'node:vm';

import type { ErrorCode } from '../../common/errors.js';
import { CELL_STARTED, INTERRUPT_ABANDONED, INTERRUPT_BUFFER_BYTES, INTERRUPT_REQUESTED } from '../../common/protocol/repl-messages.js';
import { afterAwaitName, slowName, stripChecks } from '../analyzer/interrupt-checks.js';
import { restoreFunctionNames } from '../analyzer/lower-cell.js';
import type { InterruptToken } from '../analyzer/interrupt-checks.js';
import type { CellScope } from '../webmcp/cell-scope.js';

/** Message of the error a check throws into an interrupted cell. */
export const INTERRUPTED_MESSAGE = 'the cell was interrupted: it ran past its timeout';

/** `code` of that error (the response says `REPL_ERR_CELL_TIMEOUT`; this one only reaches cell code). */
export const INTERRUPTED_CODE = 'REPL_ERR_CELL_INTERRUPTED' satisfies ErrorCode;

interface RunningCell {
  readonly requestId: number;
  readonly scope: CellScope;
  readonly onInterrupt: () => void;
}

/** What the checks throw: one error per interrupted cell, created once (it may be thrown thousands of times while a deep stack unwinds). */
const interruptErrors = new WeakSet<object>();

export interface CellInterruptsOptions {
  /** The cells' context; the checks and the `toString` that hides them are installed into it. */
  readonly context: vm.Context;
  /** The token the evaluator inserts checks with (default: a new one). */
  readonly names?: InterruptToken | undefined;
  /** Shared with the host (`WorkerStartup.interrupts`); a private one when the host has none. */
  readonly buffer?: SharedArrayBuffer | undefined;
  /** The scope of the code running now (cell-scope.ts). */
  readonly currentScope: () => CellScope | undefined;
  /**
   * The host raises the flag through the inspector (`WorkerStartup.interruptFlag`, whose name
   * `names` then holds): the flag is a constant V8 folds away. Otherwise the checks read the
   * shared memory (see the module comment).
   */
  readonly raisedByHost?: boolean | undefined;
}

type ErrorConstructorLike = new (message: string) => Error;

/** A token for one worker's checks: an identifier no cell is expected to contain. */
export function newInterruptToken(): InterruptToken {
  return { token: `__repl_${randomBytes(4).toString('hex')}` };
}

/** A cell function's source text as written: without the checks, with its own name (`fn.toString()`). */
export function sourceAsWritten(source: string, names: InterruptToken): string {
  return restoreFunctionNames(stripChecks(source, names));
}

export class CellInterrupts {
  /** The token of this worker's checks: what the lowering inserts and `toString` removes. */
  readonly names: InterruptToken;
  readonly #view: Int32Array;
  readonly #currentScope: () => CellScope | undefined;
  /** The context's global object, which holds the flag. */
  readonly #global: object;
  /** The flag's getter when the host does not raise it (a function of the context). */
  readonly #readShared: () => number;
  readonly #raisedByHost: boolean;
  readonly #ContextError: ErrorConstructorLike;
  #running: RunningCell | undefined;
  /** The request id of the last cell that began: ids only grow, so a larger one has not begun. */
  #lastBegun = 0;
  /** Thrown by the checks of the cell being interrupted, and of the work interrupted cells left. */
  #error: Error | undefined;

  constructor(options: CellInterruptsOptions) {
    this.names = options.names ?? newInterruptToken();
    this.#view = new Int32Array(options.buffer ?? new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES));
    this.#currentScope = options.currentScope;
    this.#raisedByHost = options.raisedByHost === true;
    const { context } = options;
    // The cell's own Error: `catch (e) { e instanceof Error }` holds in cell code.
    this.#ContextError = vm.runInContext('Error', context) as ErrorConstructorLike;
    const { token } = this.names;
    const carrier = `${token}_install`;
    (context as Record<string, unknown>)[carrier] = { view: this.#view, slow: (afterAwait?: boolean) => this.#slow(afterAwait === true) };
    // `T_s` is the way back into this worker, taken only when the flag is set; `T_a` reads the flag
    // too, and the abandoned slot, through a constant view of the shared memory. The getter of the
    // flag that reads the shared memory is made in the context too, so that V8 may inline it.
    const installed = vm.runInContext(
      `const ${slowName(this.names)} = globalThis.${carrier}.slow, ${token}_view = globalThis.${carrier}.view;`
      + ` const ${afterAwaitName(this.names)} = function (value) { if (${token} || ${token}_view[${INTERRUPT_ABANDONED}] !== 0) ${slowName(this.names)}(true); return value; };`
      + ` delete globalThis.${carrier};`
      + ` [globalThis, { get() { return ${token}_view[${INTERRUPT_REQUESTED}] } }.get]`,
      context,
    ) as [object, () => number];
    [this.#global, this.#readShared] = installed;
    this.#defineFlag();
    this.#hideChecksFromToString(context);
  }

  /**
   * Defines the flag as it is between interrupts: a constant 0 (raised by the host), or a getter
   * of the slot the host writes. Non-enumerable; configurable, so that the host's binding can
   * replace it and a new one can be defined after an interrupt.
   */
  #defineFlag(): void {
    const { token } = this.names;
    Reflect.deleteProperty(this.#global, token);
    Reflect.defineProperty(this.#global, token, this.#raisedByHost
      ? { value: 0, writable: true, enumerable: false, configurable: true }
      : { get: this.#readShared, enumerable: false, configurable: true });
  }

  /**
   * A cell starts: an interrupt left over for an earlier one is void, and the host is told that
   * this one began (`CELL_STARTED`). Call before any of the cell runs.
   */
  begin(requestId: number, scope: CellScope, onInterrupt: () => void): void {
    Atomics.store(this.#view, CELL_STARTED, requestId);
    Atomics.store(this.#view, INTERRUPT_REQUESTED, 0);
    this.#lower();
    this.#running = { requestId, scope, onInterrupt };
    this.#lastBegun = requestId;
  }

  /** The cell answered. */
  end(): void {
    this.#running = undefined;
    Atomics.store(this.#view, INTERRUPT_REQUESTED, 0);
    this.#lower();
  }

  /** The host's `interrupt` message: stops the cell if it is still the one running. */
  requested(requestId: number): void {
    const running = this.#running;
    if (running === undefined || running.requestId !== requestId) return;
    this.#stop(running);
    // What the cell still runs (a loop after the await it waited in) stops at its next check.
    if (this.#raisedByHost) Reflect.set(this.#global, this.names.token, 1);
  }

  /**
   * What V8 says about an expression the lowering wrapped (`T_a(...) is not a function` for
   * `(await f)()`), in its words for the unwrapped one.
   */
  cleanMessage(text: string): string {
    if (!text.includes(this.names.token)) return text;
    return stripChecks(text.replaceAll(`${afterAwaitName(this.names)}(...)`, '(intermediate value)'), this.names);
  }

  /**
   * Whether `value` is what a check threw. A check that runs in a callback Node calls (a timer,
   * an event listener) throws where no cell code catches it: the worker's handler of uncaught
   * exceptions lets such an interrupt pass instead of ending the worker.
   */
  static isInterrupt(value: unknown): boolean {
    return typeof value === 'object' && value !== null && interruptErrors.has(value);
  }

  #stop(running: RunningCell): void {
    if (running.scope.interrupted) return;
    this.#error = this.#interruptError();
    Atomics.store(this.#view, INTERRUPT_ABANDONED, 1);
    running.scope.interrupt();
    running.onInterrupt();
  }

  /**
   * A raised flag goes back to 0 once nothing is requested: defined anew, since V8 no longer deems
   * a property that was written a constant, and code optimised from now on may fold it again.
   * Also removes the host's binding from this worker's own global object.
   */
  #lower(): void {
    if (!this.#raisedByHost || Atomics.load(this.#view, INTERRUPT_REQUESTED) !== 0) return;
    const { token } = this.names;
    const flag = Reflect.getOwnPropertyDescriptor(this.#global, token);
    if (flag !== undefined && 'value' in flag && flag.value === 0 && flag.writable === true) return;
    this.#defineFlag();
    Reflect.deleteProperty(globalThis, token);
  }

  #slow(afterAwait: boolean): void {
    const requested = Atomics.load(this.#view, INTERRUPT_REQUESTED);
    if (requested !== 0) {
      const running = this.#running;
      if (running !== undefined && running.requestId === requested) {
        this.#stop(running);
        throw this.#error!;
      }
      // For a cell that has not even begun: what runs now is work an earlier cell left behind
      // (`(async () => { for (;;) await null })()`), and it starves the loop the cell waits in.
      if (requested > this.#lastBegun) throw (this.#error ??= this.#interruptError());
      // Written for a cell that answered just before the host's deadline: void.
      Atomics.compareExchange(this.#view, INTERRUPT_REQUESTED, requested, 0);
    }
    if (afterAwait && this.#currentScope()?.interrupted === true) throw (this.#error ??= this.#interruptError());
    // A flag raised with nothing requested (an interrupt that reached the thread after its cell answered).
    this.#lower();
  }

  #interruptError(): Error {
    const error = new this.#ContextError(INTERRUPTED_MESSAGE);
    Object.defineProperty(error, 'code', { value: INTERRUPTED_CODE, writable: true, configurable: true });
    interruptErrors.add(error);
    return error;
  }

  /**
   * `fn.toString()` of a cell's function is its source as written: a page function given to
   * `js()` or to Playwright's `evaluate` is sent by its source text, and the page has no checks;
   * a top-level function declaration shows its own name, not the lowering's alias. A Proxy keeps
   * `Function.prototype.toString` looking native (`[native code]`).
   */
  #hideChecksFromToString(context: vm.Context): void {
    const prototype = vm.runInContext('Function.prototype', context) as { toString: (...args: unknown[]) => string };
    const original = prototype.toString;
    Object.defineProperty(prototype, 'toString', {
      value: new Proxy(original, {
        apply: (target, self, args) => sourceAsWritten(Reflect.apply(target, self, args) as string, this.names),
      }),
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
}
