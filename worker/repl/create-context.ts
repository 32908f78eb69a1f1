/**
 * Builds the persistent `vm` context a REPL's cells run in: the globals a Node REPL of the same
 * Node version has (issue 9, item 13; guarded by test/unit/cell-globals.test.mjs), plus ours
 * (`console`, `repl`, `browser`, `webmcp` and the browser helpers). The context is a state
 * container, not a sandbox.
 *
 * Node's globals are taken from this worker's `globalThis` when the context is created, the way
 * Node's own REPL copies them into its context, but never as the worker's own objects: a cell's
 * changes to them must not reach the worker, whose code (the browser helpers, httpGet, timers,
 * the CDP client, the message loop) uses the same Node globals. What a cell gets for each global
 * (docs/repl.md, "What a cell shares with the worker"):
 *
 * - the binding is the context's own property, resolved on first read (a worker starts without
 *   loading undici or web streams) and replaceable, so assigning or deleting a global changes this
 *   REPL only. Node's own lazy accessors are never copied: their setters write to the worker's
 *   `globalThis`;
 * - functions (`setTimeout`, `fetch`, `structuredClone`…) are wrappers made for this REPL, so
 *   their properties (`setTimeout[util.promisify.custom]`) are the REPL's own;
 * - classes (`Headers`, `URL`, `EventTarget`, `Blob`…) are subclasses made for this REPL: what a
 *   cell does to `Headers.prototype` or `URL.canParse` applies to its own `new Headers()` and never
 *   to the worker's. `instanceof` accepts the worker's instances too (`await fetch(url)` resolves
 *   the worker's `Response`, and it is `instanceof Response`);
 * - objects (`performance`, `crypto`, `navigator`) are views of the worker's object: its methods and
 *   getters act on the worker's object, but replacing one (`performance.now = …`) changes the view;
 * - `process` and `Buffer` are the worker's own (docs/repl.md, "What a cell shares"; `process.env` is how
 *   CDP_ENDPOINT and /repl/env values reach a cell), and `global` is the context's global itself.
 *
 * Not isolated: what a cell reaches by walking from a worker object to its prototype or
 * constructor (`Object.getPrototypeOf(signal)`, `response.constructor`, `Buffer.prototype`), and
 * the objects Node's functions return. Freezing those instead was tried and breaks Node itself
 * (Node 24's web streams assign to inherited properties of their instances, a frozen `performance`
 * cannot take event listeners), so the output path defends itself with captured primordials
 * (worker/output/primordials.ts).
 */
import { Script, constants, createContext, type Context } from 'node:vm';
import { lockPromiseSpecies } from '../threads/realm-integrity.js';
import type { CellTimer } from '../webmcp/cell-scope.js';

export interface ContextGlobals {
  console: object;
  repl: object;
  /** Browser helpers, installed both as bare globals and on the frozen `browser` namespace. */
  helpers: Readonly<Record<string, (...args: never[]) => unknown>>;
  webmcp: object;
  /** Told of every timer a cell starts (`setTimeout`, `setInterval`, `setImmediate`), so an interrupt can clear it. */
  onTimer?: ((timer: CellTimer) => void) | undefined;
  /** Told each time the callback of a cell's timer is about to run (it may run between requests). */
  onTimerCallback?: (() => void) | undefined;
}

type AnyFunction = (...args: never[]) => unknown;
type AnyConstructor = new (...args: never[]) => object;

// Captured at load, before any cell runs: cells can reach and replace these built-ins of the
// worker realm through `process` or `Buffer`, and the wrappers below run on every call.
const ReflectApply = Reflect.apply;
const ReflectGet = Reflect.get;
const ReflectOwnKeys = Reflect.ownKeys;
const ObjectCreate = Object.create;
const ObjectDefineProperty = Object.defineProperty;
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ObjectHasOwn = Object.hasOwn;
const ObjectPrototype = Object.prototype;
const ObjectPrototypePropertyIsEnumerable = Object.prototype.propertyIsEnumerable;
const OrdinaryHasInstance = Function.prototype[Symbol.hasInstance];

/**
 * The worker's own objects, shared as they are (docs/repl.md, "What a cell shares with the
 * worker"): `process` carries the environment (CDP_ENDPOINT, /repl/env) both ways, and `Buffer`
 * is the worker's so that Buffers from `fs`, `process` or `import()`ed modules are
 * `instanceof Buffer`.
 */
const SHARED_GLOBALS: ReadonlySet<string> = new Set(['process', 'Buffer']);

/**
 * CommonJS module scope that a worker started with `eval: true` has on its global object; a REPL
 * worker (an ES module) does not. A cell is an ES module too: no `require`, `module` or `__dirname`.
 */
const MODULE_SCOPE_NAMES: ReadonlySet<string> = new Set(['require', 'module', 'exports', '__filename', '__dirname']);

/**
 * Web IDL names interfaces in PascalCase and operations and attributes in camelCase, and Node's
 * globals follow it: `Headers`, `URL`, `DOMException` are classes, `fetch`, `setTimeout` are
 * functions.
 */
function isInterfaceName(name: string): boolean {
  const first = name.charAt(0);
  return first !== first.toLowerCase();
}

/** A value of the worker realm as a cell gets it: functions wrapped, everything else as it is. */
function cellFunctionOrValue(value: unknown): unknown {
  return typeof value === 'function' ? wrapFunction(value.name, value as AnyFunction) : value;
}

/**
 * A replaceable property resolved on first read: an accessor until then, which replaces itself
 * with a plain writable data property holding the resolved value (or what was assigned first).
 * Cell code reads a data property of an ordinary global as fast as a module variable; an accessor
 * would cost it a call on every read (docs/architecture.md, "Cells").
 */
function defineLazy(target: object, key: PropertyKey, enumerable: boolean, resolve: () => unknown): void {
  const settle = (value: unknown): unknown => {
    ObjectDefineProperty(target, key, { value, writable: true, enumerable, configurable: true });
    return value;
  };
  ObjectDefineProperty(target, key, {
    configurable: true,
    enumerable,
    get: () => settle(resolve()),
    set: (replacement: unknown) => {
      settle(replacement);
    },
  });
}

/**
 * A function of this REPL's own (a new object each time) calling `target`, with `target`'s name
 * and length; its frames are hidden from cell stacks like all of worker/repl/ (describe-error.ts).
 * `self` fixes the receiver (the methods of a view act on the worker's object); without it the
 * caller's `this` is passed on; `prepare` may replace arguments before the call, `after` sees
 * the result. Symbol-keyed properties (`util.promisify.custom` of the timers) are copied lazily,
 * wrapped the same way.
 */
function wrapFunction(name: string, target: AnyFunction, self?: object, after?: (result: unknown) => void, prepare?: (args: unknown[]) => void): AnyFunction {
  const wrapper = {
    [name](this: unknown, ...args: unknown[]): unknown {
      prepare?.(args);
      const result = ReflectApply(target, self ?? this, args);
      after?.(result);
      return result;
    },
  }[name] as AnyFunction;
  ObjectDefineProperty(wrapper, 'length', { value: target.length, configurable: true });
  for (const key of ReflectOwnKeys(target)) {
    if (typeof key !== 'symbol') continue;
    const enumerable = ReflectApply(ObjectPrototypePropertyIsEnumerable, target, [key]) as boolean;
    defineLazy(wrapper, key, enumerable, () => cellFunctionOrValue(ReflectGet(target, key)));
  }
  return wrapper;
}

/**
 * A subclass of `Base` made for one REPL, named like it. Static members and the prototype
 * chain are inherited, so `new Sub()` is a real `Base` (private fields and brand checks included);
 * what a cell adds to `Sub` or `Sub.prototype` stays on them. `instanceof Sub` also accepts the
 * worker's own instances (a fetch Response), and a cell's own subclass of `Sub` keeps the ordinary
 * check. Returns undefined when `Base` cannot be extended.
 */
function subclassOf(name: string, Base: AnyConstructor): AnyConstructor | undefined {
  let Sub: AnyConstructor;
  try {
    Sub = { [name]: class extends Base {} }[name] as AnyConstructor;
  } catch {
    return undefined;
  }
  ObjectDefineProperty(Sub, 'length', { value: Base.length, configurable: true });
  ObjectDefineProperty(Sub, Symbol.hasInstance, {
    value: {
      [Symbol.hasInstance](this: unknown, value: unknown): boolean {
        return ReflectApply(OrdinaryHasInstance, this === Sub ? Base : this, [value]) as boolean;
      },
    }[Symbol.hasInstance],
    configurable: true,
  });
  return Sub;
}

/**
 * A view of a worker object (`performance`, `crypto`): inherits from it, and has an own property
 * for every method and accessor along its prototype chain that calls the worker object's, so
 * brand checks (`this === crypto`) pass and a replaced method (`performance.now = …`) replaces
 * the view's. Own properties are non-enumerable, as the originals are on prototypes.
 */
function createView(target: object): object {
  const view = ObjectCreate(target) as object;
  for (let owner: object | null = target; owner !== null && owner !== ObjectPrototype; owner = ObjectGetPrototypeOf(owner) as object | null) {
    for (const key of ReflectOwnKeys(owner)) {
      if (key === 'constructor' || ObjectHasOwn(view, key)) continue;
      const descriptor = ObjectGetOwnPropertyDescriptor(owner, key);
      if (descriptor === undefined) continue;
      if ('value' in descriptor) {
        // Data other than methods is read through the prototype chain, from the worker's object.
        if (typeof descriptor.value !== 'function') continue;
        const method = descriptor.value as AnyFunction;
        ObjectDefineProperty(view, key, {
          value: wrapFunction(method.name, method, target),
          writable: true,
          enumerable: false,
          configurable: true,
        });
        continue;
      }
      const { get, set } = descriptor;
      ObjectDefineProperty(view, key, {
        get: get === undefined ? undefined : wrapFunction(get.name, get as AnyFunction, target),
        set: set === undefined ? undefined : wrapFunction(set.name, set as AnyFunction, target),
        enumerable: false,
        configurable: true,
      });
    }
  }
  return view;
}

/** The globals that start a timer, and the kind each starts. */
const TIMER_KINDS: ReadonlyMap<string, CellTimer['kind']> = new Map([['setTimeout', 'timeout'], ['setInterval', 'interval'], ['setImmediate', 'immediate']]);

/** The timer function `name` of a cell: tells of each timer it starts, and of each callback it runs. */
function timerFunction(name: string, fn: AnyFunction, kind: CellTimer['kind'], globals: TimerHooks): AnyFunction {
  const { onTimer, onTimerCallback } = globals;
  return wrapFunction(
    name,
    fn,
    undefined,
    onTimer === undefined ? undefined : (handle) => onTimer({ kind, handle } as CellTimer),
    onTimerCallback === undefined ? undefined : (args) => {
      const callback = args[0];
      if (typeof callback !== 'function') return;
      args[0] = function (this: unknown, ...callbackArgs: unknown[]): unknown {
        onTimerCallback();
        return ReflectApply(callback as AnyFunction, this, callbackArgs);
      };
    },
  );
}

type TimerHooks = Pick<ContextGlobals, 'onTimer' | 'onTimerCallback'>;

/** What a cell gets for the worker's global `name`; see the module comment. */
function cellGlobal(name: string, value: unknown, timers: TimerHooks): unknown {
  if (SHARED_GLOBALS.has(name)) return value;
  if (typeof value === 'function') {
    const fn = value as AnyFunction;
    // A "class" that cannot be extended is no ordinary class: shared as it is, like Node's REPL does.
    if (isInterfaceName(name)) return subclassOf(name, fn as unknown as AnyConstructor) ?? value;
    const timerKind = TIMER_KINDS.get(name);
    if (timerKind !== undefined) return timerFunction(name, fn, timerKind, timers);
    return wrapFunction(name, fn);
  }
  if (typeof value === 'object' && value !== null) return createView(value);
  return value;
}

/**
 * Installs Node's globals on the context's global object: every own string-keyed property of
 * this worker's global object that the new context does not have by itself (its own `Object`, `Promise`, `Intl`…),
 * with the enumerability Node gave it. Reading the descriptors or values here would load what
 * Node loads lazily (undici, web streams: tens of ms on a worker's start); `propertyIsEnumerable`
 * does not.
 */
function defineNodeGlobals(contextGlobal: object, contextBuiltins: ReadonlySet<string>, timers: TimerHooks): void {
  const workerGlobal = globalThis;
  for (const name of ObjectGetOwnPropertyNames(workerGlobal)) {
    if (contextBuiltins.has(name) || MODULE_SCOPE_NAMES.has(name)) continue;
    const enumerable = ReflectApply(ObjectPrototypePropertyIsEnumerable, workerGlobal, [name]) as boolean;
    if (name === 'global') {
      ObjectDefineProperty(contextGlobal, name, { value: contextGlobal, writable: true, enumerable, configurable: true });
      continue;
    }
    defineLazy(contextGlobal, name, enumerable, () => cellGlobal(name, ReflectGet(workerGlobal, name), timers));
  }
}

/** Reads a new context's global object and the names of its own built-ins; compiled once. */
let contextIntrospection: Script | undefined;

/** The same for every context of this Node: the built-ins V8 and Node give a new context. */
let contextBuiltins: ReadonlySet<string> | undefined;

/**
 * A new context whose global object is an ordinary one (`vm.constants.DONT_CONTEXTIFY`, Node ≥
 * 20.18 and ≥ 22.8), not a contextified object: V8 then resolves a free name (`Math`, a user's
 * global, a `var` of an earlier cell) through its own global property cells, as in any script,
 * instead of calling Node's interceptors on every read (about 200 ns each; docs/architecture.md,
 * "Cells", has the figures). The returned object is the context's `globalThis` itself.
 */
function createOrdinaryContext(options: { name: string }): Context {
  return createContext(constants.DONT_CONTEXTIFY, { name: options.name, codeGeneration: { strings: true, wasm: true } });
}

export function createReplContext(globals: ContextGlobals): Context {
  const context = createOrdinaryContext({ name: 'browser-repl' });
  const global = context as Record<string, unknown>;
  contextIntrospection ??= new Script('({ builtins: Object.getOwnPropertyNames(globalThis), Promise })');
  // Listed before anything is added to the global, which it would list as well.
  const introspected = contextIntrospection.runInContext(context) as { builtins: string[]; Promise: PromiseConstructor };
  // Every cell is a module with top-level await: V8 aborts the whole process when the context's
  // Promise species is changed under it (worker/threads/realm-integrity.ts).
  lockPromiseSpecies(introspected.Promise);
  contextBuiltins ??= new Set(introspected.builtins);
  defineNodeGlobals(global, contextBuiltins, globals);
  const browser = Object.freeze({ ...globals.helpers, webmcp: globals.webmcp });
  Object.assign(global, {
    console: globals.console,
    repl: globals.repl,
    ...globals.helpers,
    browser,
    webmcp: globals.webmcp,
  });
  return context;
}
