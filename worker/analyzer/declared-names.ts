/**
 * The names each REPL declared, found from a function one of its cells made. The REPL's binding
 * store (worker/repl/binding-store.ts) registers itself under its context's `Function.prototype`;
 * the browser helpers ask here, below the REPL, so that `js()` can tell a REPL variable a page
 * function cannot see from a name the page just lacks (worker/helpers/core/evaluate.ts).
 */
import type { BindingKind } from './collect-bindings.js';

/** The names a REPL has declared, as helpers may ask about them. */
export interface DeclaredNames {
  /** Kind of a declared name, or undefined when the name was never declared. */
  kindOf(name: string): BindingKind | undefined;
}

/** Declared names by the `Function.prototype` of their context (see {@link declaredNamesOfFunction}). */
const namesByFunctionPrototype = new WeakMap<object, DeclaredNames>();

/** Prototype steps from a cell's function to its realm's `Function.prototype` worth walking. */
const MAX_PROTOTYPE_STEPS = 8;

/** Makes `names` the answer for every function whose prototype chain reaches `functionPrototype`. */
export function registerDeclaredNames(functionPrototype: object, names: DeclaredNames): void {
  namesByFunctionPrototype.set(functionPrototype, names);
}

/**
 * The names of the REPL whose cell created `fn`, found through its prototype chain (an arrow
 * function's prototype is its realm's `Function.prototype`, an async one's one step further), or
 * undefined for a function of any other realm.
 */
export function declaredNamesOfFunction(fn: object): DeclaredNames | undefined {
  try {
    let prototype = Object.getPrototypeOf(fn) as object | null;
    for (let step = 0; prototype !== null && step < MAX_PROTOTYPE_STEPS; step++) {
      const names = namesByFunctionPrototype.get(prototype);
      if (names !== undefined) return names;
      prototype = Object.getPrototypeOf(prototype) as object | null;
    }
  } catch {
    // A proxy with a throwing getPrototypeOf trap: not a cell function we can place.
  }
  return undefined;
}
