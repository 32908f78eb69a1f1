/**
 * The persistent top-level bindings of one REPL (docs/repl.md, "Bindings, and what a name costs"): a registry of every
 * name ever declared with its kind, where each binding lives, and the per-cell initialization
 * target through which lexical and function bindings receive their first value. Where they live
 * is chosen for speed with the language's own rules (docs/architecture.md, "Cells"):
 *
 * - `var` and `function`: an own data property of the context's global object, enumerable and
 *   non-configurable, as a script's top-level `var` and `function` make it. A `var` of a name
 *   the global already has leaves that property as it is (`var setTimeout;`), as a script does.
 * - `let`, `const`, `class`: an accessor on the global while the binding has no value (it throws
 *   the TDZ ReferenceError), then, once it has its value (moved at its first read or write, or
 *   when its cell ends), a lexical binding of the context's script scope (script-bindings.ts)
 *   that every later read and write resolves to directly; the
 *   global keeps a non-configurable enumerable accessor reaching it, so `globalThis.name` stays
 *   the binding. A binding that never got its value (its initializer threw) stays in its TDZ.
 * - a lexical name the global already has as a non-configurable property (`let undefined`): that
 *   property, assigned only when writable and not `const`, as a script does.
 *
 * Without a context to declare script-scope bindings in (a plain object as the global, in unit
 * tests), lexical bindings stay accessors on the global, with the same semantics.
 */
import { isLexicalKind } from '../analyzer/collect-bindings.js';
import { registerDeclaredNames } from '../analyzer/declared-names.js';
import { DEFAULT_CELL_FILE_NAME, createCellSyntaxError } from '../analyzer/parse-cell.js';
import { ScriptBindings } from './script-bindings.js';
import type { ScriptBindingAccess } from './script-bindings.js';

import type { Context } from 'node:vm';
import type { BindingKind, CellBinding } from '../analyzer/collect-bindings.js';
import type { ErrorCode } from '../../common/errors.js';

/** `code` carried by the redeclaration SyntaxError (see common/errors.ts). */
export const REDECLARATION_ERROR_CODE = 'REPL_ERR_BINDING' satisfies ErrorCode;

/** Message of the TypeError thrown by the initialization target for anything but a pending set. */
export const INIT_TARGET_INTERNAL_MESSAGE = 'persistent binding initialization target is internal';

/**
 * Message of the redeclaration SyntaxError for `name`: the language's own text, then the way to
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
  /**
   * The context `global` belongs to: lexical bindings move into its script scope once
   * initialized. Without it they stay accessors on `global`.
   */
  readonly context?: Context;
  /** Defaults to this realm's constructors. */
  readonly errors?: RealmErrors;
  /**
   * `Function.prototype` of the context: registers the store so that `declaredNamesOfFunction`
   * (worker/analyzer/declared-names.ts) finds it from a function a cell created.
   */
  readonly functionPrototype?: object;
}

/** Handle of a cell's initialization target; {@link InitTarget.close} is idempotent. */
export interface InitTarget {
  /** Global identifier the lowered cell uses. */
  readonly name: string;
  /**
   * Revokes the proxy, deletes the global and moves the cell's initialized lexical bindings into
   * the script scope. Call after evaluation, success or failure.
   */
  close(): void;
}

/**
 * Where a binding lives (see the module comment): `global`, the global's own property (`var`,
 * `function`, and a lexical name colliding with a non-configurable global); `accessor`, our
 * accessor on the global holding `value` (a lexical binding before its value, or one that cannot
 * move); `script`, the script scope, reached through `access`.
 */
type Place = 'global' | 'accessor' | 'script';

interface BindingRecord {
  kind: BindingKind;
  initialized: boolean;
  place: Place;
  /** The value while `place` is `accessor`. */
  value: unknown;
  /** The script-scope binding, once `place` is `script`. */
  access: ScriptBindingAccess | undefined;
  /** False once the script scope refused the name: it stays an accessor. */
  movable: boolean;
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
  readonly #scriptBindings: ScriptBindings | undefined;
  /** Initialized lexical bindings still on their accessor, waiting to move (in declaration order). */
  readonly #waiting = new Set<string>();

  constructor(options: BindingStoreOptions) {
    this.#global = options.global;
    this.#errors = options.errors ?? { ReferenceError, TypeError };
    this.#scriptBindings = options.context === undefined ? undefined : new ScriptBindings(options.context, options.global);
    if (options.functionPrototype !== undefined) registerDeclaredNames(options.functionPrototype, this);
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
    // A frozen or sealed global can take neither new properties nor the cell's init target.
    for (const [name, kind] of seen) {
      if (kind !== 'var' || (!this.#records.has(name) && !Object.hasOwn(this.#global, name))) {
        throw new this.#errors.TypeError(`Cannot declare '${name}': the global object is not extensible`);
      }
    }
  }

  /**
   * Registers a cell's bindings and gives each new name its place. Call once the cell module has
   * linked (names stay reserved even if evaluation then fails) and after
   * {@link BindingStore.assertDeclarable}. A new `var` or `function` is a global data property
   * (`undefined` until a function's definition is installed); a redeclared one keeps its
   * property and value; `let`/`const`/`class` start in their TDZ.
   */
  declare(bindings: readonly CellBinding[]): void {
    const kinds = new Map<string, BindingKind>();
    for (const { name, kind } of bindings) {
      // `var f; function f() {}` in one cell: the function decides (installed by the prelude).
      if (kinds.get(name) !== 'function') kinds.set(name, kind);
    }
    for (const [name, kind] of kinds) {
      const existing = this.#records.get(name);
      if (existing === undefined) this.#records.set(name, this.#create(name, kind));
      else if (kind === 'function') existing.kind = 'function';
    }
  }

  #create(name: string, kind: BindingKind): BindingRecord {
    const global = this.#global;
    const descriptor = Reflect.getOwnPropertyDescriptor(global, name);
    const record: BindingRecord = { kind, initialized: true, place: 'global', value: undefined, access: undefined, movable: false };
    if (!isLexicalKind(kind)) {
      // CreateGlobalVarBinding / CreateGlobalFunctionBinding of a script: an existing property is
      // kept (a function's definition replaces it when installed, see #initialize).
      if (descriptor === undefined) {
        Reflect.defineProperty(global, name, { value: undefined, writable: true, enumerable: true, configurable: false });
      }
      return record;
    }
    if (descriptor?.configurable === false) return record;
    record.initialized = false;
    record.place = 'accessor';
    record.movable = this.#scriptBindings !== undefined;
    const errors = this.#errors;
    const tdz = (above: (...args: never[]) => unknown): never =>
      throwWithStack(new errors.ReferenceError(`Cannot access '${name}' before initialization`), above);
    const accessor = {
      get: (): unknown => {
        if (!record.initialized) tdz(accessor.get);
        // The first read of a waiting binding moves it: from then on cell code reads it directly.
        if (record.place === 'accessor') this.#moveWaiting();
        return record.place === 'script' ? record.access!.get() : record.value;
      },
      set: (next: unknown): void => {
        // Writes before a lexical declaration ran (or after its initializer threw) are TDZ errors
        // and must not initialize the binding.
        if (!record.initialized) tdz(accessor.set);
        if (record.kind === 'const') throwWithStack(new errors.TypeError('Assignment to constant variable.'), accessor.set);
        if (record.place === 'accessor') this.#moveWaiting();
        if (record.place === 'script') {
          record.access!.set!(next);
          return;
        }
        record.value = next;
      },
    };
    // Configurable while it waits: V8 refuses to declare a script-scope binding over a
    // non-configurable global property. Non-configurable from the start when it can never move.
    const defined = Reflect.defineProperty(global, name, {
      get: accessor.get,
      set: accessor.set,
      enumerable: true,
      configurable: record.movable,
    });
    if (!defined) {
      record.initialized = true;
      record.place = 'global';
      record.movable = false;
    }
    return record;
  }

  #initialize(name: string, value: unknown): void {
    const record = this.#records.get(name);
    if (record === undefined) return;
    if (record.kind === 'function' && typeof value === 'function') {
      // The lowered declaration is an alias (`__browser_repl_function_<name>`); show the real name.
      Reflect.defineProperty(value, 'name', { value: name, configurable: true });
    }
    record.initialized = true;
    if (record.place === 'accessor') {
      record.value = value;
      if (record.movable) this.#waiting.add(name);
      return;
    }
    const global = this.#global;
    const descriptor = Reflect.getOwnPropertyDescriptor(global, name);
    if (record.kind === 'function' && (descriptor === undefined || descriptor.configurable === true)) {
      // A script's function declaration over a configurable property (a Node global, a user's).
      Reflect.defineProperty(global, name, { value, writable: true, enumerable: true, configurable: false });
    } else if (record.kind !== 'const' && descriptor !== undefined && 'value' in descriptor && descriptor.writable === true) {
      Reflect.defineProperty(global, name, { value });
    }
  }

  /**
   * Moves every waiting binding into the script scope in one declaring script, and points their
   * global accessors at it. Names the script scope refuses stay accessors for good; a script
   * that failed otherwise (the stack nearly exhausted) leaves them waiting for the next try.
   */
  #moveWaiting(): void {
    const scriptBindings = this.#scriptBindings;
    if (scriptBindings === undefined || this.#waiting.size === 0) return;
    const names = [...this.#waiting];
    const records = names.map((name) => this.#records.get(name)!);
    let access: ScriptBindingAccess[] | undefined;
    try {
      access = scriptBindings.declare(names.map((name, index) => ({ name, kind: records[index]!.kind, value: records[index]!.value })));
    } catch {
      return;
    }
    this.#waiting.clear();
    if (access === undefined) {
      // One refused name refuses the batch: declare the others one by one.
      if (names.length > 1) {
        for (const name of names) {
          this.#waiting.add(name);
          this.#moveWaiting();
        }
      } else {
        records[0]!.movable = false;
      }
      return;
    }
    const errors = this.#errors;
    names.forEach((name, index) => {
      const record = records[index]!;
      const binding = access[index]!;
      record.place = 'script';
      record.access = binding;
      record.value = undefined;
      const set = binding.set ?? function set(): never {
        return throwWithStack(new errors.TypeError('Assignment to constant variable.'), set);
      };
      Reflect.defineProperty(this.#global, name, { get: binding.get, set, enumerable: true, configurable: false });
    });
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
        // What the cell initialized and never read moves now, in one script.
        this.#moveWaiting();
      },
    };
  }
}
