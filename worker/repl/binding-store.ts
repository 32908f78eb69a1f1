/**
 * The persistent top-level bindings of one REPL (repl-contract §7.3–§7.5): a registry of every
 * name ever declared, one record `{kind, initialized, value}` per name exposed as a
 * non-configurable enumerable accessor on the context global, and the per-cell initialization
 * target through which lexical and function bindings receive their first value.
 */
import { isLexicalKind } from '../analyzer/collect-bindings.js';
import { DEFAULT_CELL_FILE_NAME, createCellSyntaxError } from '../analyzer/parse-cell.js';

import type { BindingKind, CellBinding } from '../analyzer/collect-bindings.js';
import type { ErrorCode } from '../../common/errors.js';

/** `code` carried by the redeclaration SyntaxError (see common/errors.ts). */
export const REDECLARATION_ERROR_CODE = 'REPL_ERR_BINDING' satisfies ErrorCode;

/** Message of the TypeError thrown by the initialization target for anything but a pending set. */
export const INIT_TARGET_INTERNAL_MESSAGE = 'persistent binding initialization target is internal';

/**
 * Message of the redeclaration SyntaxError for `name`: contract §7.3's text, then the way to
 * re-run a cell as it is (a block scopes its `let`/`const`/`class`, which then do not persist).
 */
export function redeclarationMessage(name: string): string {
  return `Identifier '${name}' has already been declared; use a new name or reset the REPL to retry, `
    + 'or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run';
}

type ErrorConstructorLike = new (message?: string) => Error;

/**
 * Error constructors of the cell realm, captured before any user code ran, so TDZ and
 * const-assignment errors are `instanceof ReferenceError`/`TypeError` inside cells.
 */
export interface RealmErrors {
  readonly ReferenceError: ErrorConstructorLike;
  readonly TypeError: ErrorConstructorLike;
}

/** Options of {@link BindingStore}. */
export interface BindingStoreOptions {
  /** The context's global object (`vm.runInContext('globalThis', context)`). */
  readonly global: object;
  /** Defaults to this realm's constructors. */
  readonly errors?: RealmErrors;
  /**
   * `Function.prototype` of the context: registers the store so that {@link bindingsOfFunction}
   * finds it from a function a cell created.
   */
  readonly functionPrototype?: object;
}

/** The names a REPL has declared, as helpers may ask about them. */
export type DeclaredNames = Pick<BindingStore, 'kindOf'>;

/** Stores by the `Function.prototype` of their context (see {@link bindingsOfFunction}). */
const storesByFunctionPrototype = new WeakMap<object, BindingStore>();

/** Prototype steps from a cell's function to its realm's `Function.prototype` worth walking. */
const MAX_PROTOTYPE_STEPS = 8;

/**
 * The bindings of the REPL whose cell created `fn`, found through its prototype chain (an arrow
 * function's prototype is its realm's `Function.prototype`, an async one's one step further), or
 * undefined for a function of any other realm. Used by js() to tell a REPL variable that a page
 * function cannot see from a name the page just lacks.
 */
export function bindingsOfFunction(fn: object): DeclaredNames | undefined {
  try {
    let prototype = Object.getPrototypeOf(fn) as object | null;
    for (let step = 0; prototype !== null && step < MAX_PROTOTYPE_STEPS; step++) {
      const store = storesByFunctionPrototype.get(prototype);
      if (store !== undefined) return store;
      prototype = Object.getPrototypeOf(prototype) as object | null;
    }
  } catch {
    // A proxy with a throwing getPrototypeOf trap: not a cell function we can place.
  }
  return undefined;
}

/** Handle of a cell's initialization target; {@link InitTarget.close} is idempotent. */
export interface InitTarget {
  /** Global identifier the lowered cell uses. */
  readonly name: string;
  /** Revokes the proxy and deletes the global. Call after evaluation, success or failure. */
  close(): void;
}

interface BindingRecord {
  kind: BindingKind;
  initialized: boolean;
  value: unknown;
  /**
   * True when a non-configurable global of that name pre-existed (e.g. `undefined`): no accessor
   * could be installed, so the global property itself is the binding.
   */
  readonly external: boolean;
}

/** The value of an existing global: its data value, or what its getter returns now (undefined if it throws). */
function currentValue(global: object, name: string, descriptor: PropertyDescriptor): unknown {
  if ('value' in descriptor) return descriptor.value as unknown;
  try {
    return Reflect.get(global, name) as unknown;
  } catch {
    return undefined;
  }
}

function throwWithStack(error: Error, above: (...args: never[]) => unknown): never {
  // Drops the store's own frame: the first stack line is the cell statement that caused it.
  Error.captureStackTrace(error, above);
  throw error;
}

/** Registry and storage of a REPL's persistent bindings. */
export class BindingStore {
  readonly #global: object;
  readonly #errors: RealmErrors;
  readonly #records = new Map<string, BindingRecord>();

  constructor(options: BindingStoreOptions) {
    this.#global = options.global;
    this.#errors = options.errors ?? { ReferenceError, TypeError };
    if (options.functionPrototype !== undefined) storesByFunctionPrototype.set(options.functionPrototype, this);
  }

  /** Every name declared so far (until reset), in declaration order. */
  names(): string[] {
    return [...this.#records.keys()];
  }

  /** Kind of a declared name, or undefined when the name was never declared. */
  kindOf(name: string): BindingKind | undefined {
    return this.#records.get(name)?.kind;
  }

  /** Whether a declared name has left its temporal dead zone. */
  isInitialized(name: string): boolean {
    return this.#records.get(name)?.initialized === true;
  }

  /**
   * Checks a cell's bindings against the registry and against earlier bindings of the same cell.
   * Redeclaring is allowed only when both sides are `var`/`function`. Has no side effects.
   *
   * @throws SyntaxError {@link redeclarationMessage} with `code === 'REPL_ERR_BINDING'`, stack
   *   pointing at the declaration.
   * @throws TypeError (cell realm) when the global object is not extensible and the cell declares
   *   a new name or any non-`var` binding.
   */
  assertDeclarable(bindings: readonly CellBinding[], fileName: string = DEFAULT_CELL_FILE_NAME): void {
    const seen = new Map<string, BindingKind>();
    for (const binding of bindings) {
      const previous = this.#records.get(binding.name)?.kind ?? seen.get(binding.name);
      if (previous !== undefined && (isLexicalKind(previous) || isLexicalKind(binding.kind))) {
        throw createCellSyntaxError(redeclarationMessage(binding.name), REDECLARATION_ERROR_CODE, {
          fileName,
          line: binding.line,
          column: binding.column,
        });
      }
      seen.set(binding.name, binding.kind);
    }
    if (Object.isExtensible(this.#global)) return;
    // A frozen or sealed global can take neither new accessors nor the cell's init target.
    for (const [name, kind] of seen) {
      if (kind !== 'var' || (!this.#records.has(name) && !Object.hasOwn(this.#global, name))) {
        throw new this.#errors.TypeError(`Cannot declare '${name}': the global object is not extensible`);
      }
    }
  }

  /**
   * Registers a cell's bindings and installs their accessors. Call once the cell module has
   * linked (names stay reserved even if evaluation then fails) and after
   * {@link BindingStore.assertDeclarable}. New `var`s start initialized (to the current value of a
   * pre-existing configurable global of that name, else `undefined`); redeclared `var`s keep their
   * value; `let`/`const`/`class`/`function` start uninitialized, and so does a redeclared function
   * until its new definition is installed.
   */
  declare(bindings: readonly CellBinding[]): void {
    const kinds = new Map<string, BindingKind>();
    for (const { name, kind } of bindings) {
      // `var f; function f() {}` in one cell: the function decides (installed by the prelude).
      if (kinds.get(name) !== 'function') kinds.set(name, kind);
    }
    for (const [name, kind] of kinds) {
      const existing = this.#records.get(name);
      if (existing === undefined) {
        this.#records.set(name, this.#create(name, kind));
      } else if (kind === 'function') {
        existing.kind = 'function';
        existing.initialized = false;
      } else if (!existing.initialized) {
        existing.initialized = true;
        existing.value = undefined;
      }
    }
  }

  #create(name: string, kind: BindingKind): BindingRecord {
    const global = this.#global;
    const descriptor = Reflect.getOwnPropertyDescriptor(global, name);
    if (descriptor?.configurable === false) {
      return { kind, initialized: true, value: undefined, external: true };
    }
    // Like a script's `var`, declaring an existing global keeps its value (`var setTimeout;`),
    // also when it is an accessor: Node's globals are lazy accessors of the context (create-context.ts).
    const value = kind === 'var' && descriptor !== undefined ? currentValue(global, name, descriptor) : undefined;
    const record: BindingRecord = { kind, initialized: kind === 'var', value, external: false };
    const errors = this.#errors;
    const accessor = {
      get(): unknown {
        if (!record.initialized) {
          throwWithStack(new errors.ReferenceError(`Cannot access '${name}' before initialization`), accessor.get);
        }
        return record.value;
      },
      set(next: unknown): void {
        // Writes before a lexical declaration ran (or after its initializer threw) are TDZ errors
        // and must not initialize the binding.
        if (!record.initialized) {
          throwWithStack(new errors.ReferenceError(`Cannot access '${name}' before initialization`), accessor.set);
        }
        if (record.kind === 'const') {
          throwWithStack(new errors.TypeError('Assignment to constant variable.'), accessor.set);
        }
        record.value = next;
      },
    };
    const defined = Reflect.defineProperty(global, name, {
      get: accessor.get,
      set: accessor.set,
      enumerable: true,
      configurable: false,
    });
    return defined ? record : { kind, initialized: true, value: undefined, external: true };
  }

  #initialize(name: string, value: unknown): void {
    const record = this.#records.get(name);
    if (record === undefined) return;
    if (record.kind === 'function' && typeof value === 'function') {
      // The lowered declaration is an alias (`__browser_repl_function_<name>`); show the real name.
      Reflect.defineProperty(value, 'name', { value: name, configurable: true });
    }
    if (record.external) {
      const descriptor = Reflect.getOwnPropertyDescriptor(this.#global, name);
      if (record.kind !== 'const' && descriptor?.writable === true) Reflect.set(this.#global, name, value);
    } else {
      record.value = value;
    }
    record.initialized = true;
  }

  /**
   * Exposes the cell's initialization target as a non-enumerable global `globalName`: a revocable
   * Proxy on a null-prototype object that accepts exactly one set per pending non-`var` name of
   * the cell and initializes that binding. Any other set, define, delete or prototype change
   * throws TypeError {@link INIT_TARGET_INTERNAL_MESSAGE}.
   */
  openInitTarget(globalName: string, bindings: readonly CellBinding[]): InitTarget {
    const pending = new Set<string>();
    for (const { name, kind } of bindings) if (kind !== 'var') pending.add(name);
    const errors = this.#errors;
    const refuse = (trap: (...args: never[]) => unknown): never =>
      throwWithStack(new errors.TypeError(INIT_TARGET_INTERNAL_MESSAGE), trap);
    const handler: ProxyHandler<object> = {
      set: (_target, key, value) => {
        if (typeof key !== 'string' || !pending.delete(key)) return refuse(handler.set as never);
        this.#initialize(key, value);
        return true;
      },
      defineProperty: () => refuse(handler.defineProperty as never),
      deleteProperty: () => refuse(handler.deleteProperty as never),
      setPrototypeOf: () => refuse(handler.setPrototypeOf as never),
      preventExtensions: () => refuse(handler.preventExtensions as never),
    };
    const { proxy, revoke } = Proxy.revocable(Object.create(null) as object, handler);
    const global = this.#global;
    Reflect.defineProperty(global, globalName, { value: proxy, writable: false, enumerable: false, configurable: true });
    let open = true;
    return {
      name: globalName,
      close: () => {
        if (!open) return;
        open = false;
        pending.clear();
        revoke();
        Reflect.deleteProperty(global, globalName);
      },
    };
  }
}
