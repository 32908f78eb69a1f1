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
import { CELL_STARTED, INTERRUPT_ABANDONED, INTERRUPT_BUFFER_BYTES, INTERRUPT_REQUESTED, INTERRUPT_SEEN } from '../../common/protocol/repl-messages.js';
import { afterAwaitName, slowName, stripChecks } from '../analyzer/interrupt-checks.js';
import { restoreFunctionNames } from '../analyzer/lower-cell.js';
import type { InterruptToken } from '../analyzer/interrupt-checks.js';
import type { CellScope } from '../webmcp/cell-scope.js';

/** Message of the error a check throws into an interrupted cell. */
export const INTERRUPTED_MESSAGE = 'the cell was interrupted: it ran past its timeout, or an interrupt was asked for';

/** `code` of that error (at a timeout the response says `REPL_ERR_CELL_TIMEOUT`). */
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
  /** An `interrupt` message for a cell that had not begun when it came. */
  #early: number | undefined;
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
    [this.#global, this.#readShared] = defineCheckHelpers(context, this.names, this.#view, (afterAwait) => this.#slow(afterAwait));
    this.#defineFlag();
    // A top-level function declaration also shows its own name, not the lowering's alias.
    hideChecksFromToString(vm.runInContext('Function.prototype', context) as FunctionPrototype, (source) => sourceAsWritten(source, this.names));
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
   * A cell starts, and the host is told that it began (`CELL_STARTED`); call before any of the cell
   * runs. An interrupt left over for an earlier cell is void, but one the host sent for this very
   * cell before it began (its `execute` waited in this worker's queue) stops it at once: the slot
   * names this request, or its `interrupt` message came first.
   */
  begin(requestId: number, scope: CellScope, onInterrupt: () => void): void {
    Atomics.store(this.#view, CELL_STARTED, requestId);
    const running: RunningCell = { requestId, scope, onInterrupt };
    this.#running = running;
    this.#lastBegun = requestId;
    const early = this.#early === requestId || Atomics.load(this.#view, INTERRUPT_REQUESTED) === requestId;
    // Kept for a later request only: ids grow, so one at or below this is used or void.
    if (this.#early !== undefined && this.#early <= requestId) this.#early = undefined;
    if (early) {
      this.#stop(running);
      return;
    }
    Atomics.store(this.#view, INTERRUPT_REQUESTED, 0);
    this.#lower();
  }

  /** The cell answered. */
  end(): void {
    this.#running = undefined;
    Atomics.store(this.#view, INTERRUPT_REQUESTED, 0);
    this.#lower();
  }

  /**
   * The host's `interrupt` message: stops the cell if it is still the one running, and is kept
   * for a cell that has not begun yet (see {@link begin}).
   */
  requested(requestId: number): void {
    const running = this.#running;
    if (running === undefined || running.requestId !== requestId) {
      if (requestId > this.#lastBegun) this.#early = requestId;
      return;
    }
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
    // First, so that the host knows even when what follows runs out of stack (a deep recursion).
    Atomics.store(this.#view, INTERRUPT_SEEN, running.requestId);
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
}

/**
 * Defines `T_s` and `T_a` of the checks as global lexical bindings of `context` (this realm when
 * undefined), which the code can neither reassign nor delete, and answers the realm's global
 * object and a getter of the flag's slot made in that realm (so that V8 may inline it). `T_s` is
 * the way back into the worker, taken only when the flag is set; `T_a` reads the flag too, and the
 * abandoned slot, through a constant view of the shared memory.
 */
function defineCheckHelpers(context: vm.Context | undefined, names: InterruptToken, view: Int32Array, slow: (afterAwait: boolean) => void): [object, () => number] {
  const { token } = names;
  const carrier = `${token}_install`;
  (context ?? (globalThis as unknown as Record<string, unknown>) as Record<string, unknown>)[carrier] = { view, slow: (afterAwait?: boolean) => slow(afterAwait === true) };
  const source = `const ${slowName(names)} = globalThis.${carrier}.slow, ${token}_view = globalThis.${carrier}.view;`
    + ` const ${afterAwaitName(names)} = function (value) { if (${token} || ${token}_view[${INTERRUPT_ABANDONED}] !== 0) ${slowName(names)}(true); return value; };`
    + ` delete globalThis.${carrier};`
    + ` [globalThis, { get() { return ${token}_view[${INTERRUPT_REQUESTED}] } }.get]`;
  return (context === undefined ? vm.runInThisContext(source) : vm.runInContext(source, context)) as [object, () => number];
}

/**
 * The checks of code that runs in `context` (this realm when undefined) with the flag read from
 * shared memory (slots `INTERRUPT_REQUESTED` and `INTERRUPT_ABANDONED` of `view`): the executor's
 * (worker/executor/call-interrupts.ts), whose thread the host interrupts through those slots only.
 */
export function installChecks(context: vm.Context | undefined, names: InterruptToken, view: Int32Array, slow: (afterAwait: boolean) => void): void {
  const [global, readShared] = defineCheckHelpers(context, names, view, slow);
  Reflect.defineProperty(global, names.token, { get: readShared, enumerable: false, configurable: false });
}

type FunctionPrototype = { toString: (...args: unknown[]) => string };

/**
 * `fn.toString()` of code with checks is its source as written (`asWritten`): a page function
 * given to `js()` or to Playwright's `evaluate` is sent by its source text, and the page has no
 * checks. A Proxy keeps `Function.prototype.toString` looking native (`[native code]`).
 */
export function hideChecksFromToString(prototype: FunctionPrototype, asWritten: (source: string) => string): void {
  const original = prototype.toString;
  Object.defineProperty(prototype, 'toString', {
    value: new Proxy(original, {
      apply: (target, self, args) => asWritten(Reflect.apply(target, self, args) as string),
    }),
    writable: true,
    enumerable: false,
    configurable: true,
  });
}
