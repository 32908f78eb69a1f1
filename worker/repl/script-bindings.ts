/**
 * Declares a REPL's initialised top-level `let`, `const` and `class` bindings as lexical bindings
 * of the context's script scope, the scope a classic script's top-level `let` lives in and that
 * Node's own REPL keeps its bindings in (docs/architecture.md, "Cells"). Every cell, every
 * function of every cell and every later script resolves a free name there before the global
 * object, so after this a binding is read and written as V8 reads and writes any script's `let`:
 * no call, no interceptor, and on V8 ≥ 12.8 (Node 24) a number kept in place, unboxed. `const`
 * is enforced by the language itself.
 *
 * A script can only initialise a lexical binding while it declares it, so a binding moves here
 * once it has its first value (the cell's declaration ran), with that value: one small script per
 * batch of names, `let a = V[0]; const b = V[1]; …`, whose completion value is a getter (and but
 * for a `const`, a setter) per name, closures over the new bindings, for the global object's
 * accessor (`globalThis.a` stays the binding, docs/repl.md, "Bindings").
 * worker/repl/binding-store.ts decides when.
 */
import { randomBytes } from 'node:crypto';
import vm from 'node:vm';

import type { BindingKind } from '../analyzer/collect-bindings.js';

/**
 * Reads and writes one script-scope binding, from outside the scope (the global's accessor). A
 * `const` has no `set`: the caller throws the language's TypeError itself, so that the error's
 * first frame is the code that assigned.
 */
export interface ScriptBindingAccess {
  get(): unknown;
  set?(value: unknown): void;
}

/** One binding to declare: its name, its kind and its first value. */
export interface ScriptBindingInit {
  readonly name: string;
  readonly kind: BindingKind;
  readonly value: unknown;
}

/** The file name stack frames of the accessors show. */
const SCRIPT_BINDINGS_FILE_NAME = 'browser-repl-bindings.js';

/** Declares batches of script-scope bindings in one context. */
export class ScriptBindings {
  readonly #context: vm.Context;
  readonly #global: Record<string, unknown>;
  /** Global name the values travel under while a declaring script runs (deleted right after). */
  readonly #carrier = `__browser_repl_values_${randomBytes(6).toString('hex')}`;

  constructor(context: vm.Context, global: object) {
    this.#context = context;
    this.#global = global as Record<string, unknown>;
  }

  /**
   * Declares every binding of `batch` in one script, or none: V8 checks all declarations before
   * it runs any (a name already declared in the script scope, or a non-configurable global
   * property of that name, refuses the batch with a SyntaxError). Returns the accessors in the
   * batch's order, or undefined when the script was refused.
   *
   * @throws what else running the script threw (a RangeError when the stack is nearly
   *   exhausted): nothing was declared, and a later call may succeed.
   */
  declare(batch: readonly ScriptBindingInit[]): ScriptBindingAccess[] | undefined {
    let source = '"use strict";';
    let access = '';
    batch.forEach(({ name, kind }, index) => {
      source += `${kind === 'const' ? 'const' : 'let'} ${name} = ${this.#carrier}[${index}];`;
      access += kind === 'const' ? `{ get() { return ${name} } },` : `{ get() { return ${name} }, set(value) { ${name} = value } },`;
    });
    source += `[${access}]`;
    const values: unknown[] = batch.map((binding) => binding.value);
    Reflect.defineProperty(this.#global, this.#carrier, { value: values, writable: false, enumerable: false, configurable: true });
    try {
      return new vm.Script(source, { filename: SCRIPT_BINDINGS_FILE_NAME }).runInContext(this.#context) as ScriptBindingAccess[];
    } catch (error) {
      // Refused as a whole (see above): the caller keeps these names where they are. The error
      // may come from either realm, so it is recognised by name.
      if (isSyntaxError(error)) return undefined;
      throw error;
    } finally {
      Reflect.deleteProperty(this.#global, this.#carrier);
    }
  }
}

function isSyntaxError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Reflect.get(error, 'name') === 'SyntaxError';
}
