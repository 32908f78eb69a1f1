/**
 * Keeps a worker's JavaScript built-ins intact against the code it runs. Cells reach this realm
 * (through `process`, `Buffer`, or any worker function's `constructor`: `repl.write.constructor
 * ("return globalThis")()`), and the runtime's own code (the message loop, the helpers, the CDP
 * client) uses the same `Promise`, `JSON`, `Array.prototype`… Two measures, both cheap:
 *
 * - {@link lockPromiseSpecies} (every realm a cell can touch, at its creation): `Promise.prototype
 *   .constructor`, `Promise.prototype.then` and `Promise[Symbol.species]` become read-only. V8
 *   looks up the constructor and species when it evaluates a module with top-level await (every
 *   cell), and a changed one fails a CHECK inside V8 that aborts the whole process, server and all
 *   (Node 20 and 24); a replaced `then` hangs every later cell, since Node awaits each cell's
 *   evaluation. Subclasses of Promise keep working.
 * - {@link RealmSnapshot} (this worker's realm): the own properties of the built-ins the runtime
 *   relies on are recorded at start and put back after each request, so whatever a cell replaced
 *   (`JSON.stringify`, `Array.prototype.push`, `Function.prototype.call`, `Error`, `setTimeout`…)
 *   is the runtime's own again before its answer is built and before the next request. What a
 *   cell *adds* stays (a polyfill an imported package installs), except on `Object.prototype`,
 *   where an added `then`, `toJSON` or getter would reach every object the runtime handles.
 *
 * A property a cell made non-configurable cannot be put back: `restore()` reports it, and the
 * worker then ends itself (the REPL's next call gets a fresh worker).
 *
 * A full `restore()` reads every recorded descriptor (a few hundred: tens of microseconds, a good
 * part of a trivial cell's cost; issue 26). The message loop runs it after every cell, and before a
 * cell only when code of an earlier cell may have run since (its timers, the host's messages) or
 * {@link RealmSnapshot.looksIntact} finds one of the built-ins the request path uses most changed.
 */

// Captured when the worker loads, before any cell runs (worker/output/primordials.ts).
import {
  ArrayPrototypePush, ObjectCreate, ReflectDefineProperty, ReflectDeleteProperty, ReflectGetOwnPropertyDescriptor,
  ReflectGetPrototypeOf, ReflectOwnKeys, ReflectSetPrototypeOf, StringCtor,
} from '../output/primordials.js';


/**
 * Makes `Promise.prototype.constructor`, `Promise.prototype.then` and `Promise[Symbol.species]`
 * of the realm whose `Promise` this is non-writable and non-configurable; see the module comment.
 * Idempotent.
 */
export function lockPromiseSpecies(PromiseCtor: PromiseConstructor): void {
  lock(PromiseCtor.prototype, 'constructor');
  lock(PromiseCtor.prototype, 'then');
  lock(PromiseCtor, Symbol.species);
}

function lock(target: object, key: PropertyKey): void {
  const descriptor = ReflectGetOwnPropertyDescriptor(target, key);
  if (descriptor === undefined || descriptor.configurable === false) return;
  ReflectDefineProperty(target, key, 'value' in descriptor
    ? { value: descriptor.value as unknown, writable: false, enumerable: descriptor.enumerable ?? false, configurable: false }
    : { get: descriptor.get, set: descriptor.set, enumerable: descriptor.enumerable ?? false, configurable: false });
}

/** Globals of this realm the runtime calls (data properties only: Node's lazy accessors are left alone). */
const GLOBAL_NAMES = [
  'Object', 'Function', 'Array', 'Promise', 'JSON', 'Symbol', 'Reflect', 'Error', 'TypeError', 'RangeError', 'SyntaxError',
  'String', 'Number', 'Boolean', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'Math', 'Date', 'ArrayBuffer', 'Uint8Array',
  'structuredClone', 'queueMicrotask', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate',
  'clearImmediate', 'console', 'Buffer', 'URL', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal',
  'EventTarget', 'Event', 'MessageChannel', 'MessagePort',
];

/**
 * One recorded object. Plain arrays walked by index and null-prototype records: `restore()` runs
 * while the cell's replacements (a Map iterator's `next`, a getter on `Object.prototype`) may
 * still be in place, so it uses no built-in method it has not captured.
 */
interface Recorded {
  readonly name: string;
  readonly target: object;
  readonly prototype: object | null;
  readonly keys: PropertyKey[];
  /** Null-prototype copies, index for index with `keys`. */
  readonly descriptors: PropertyDescriptor[];
  /** The recorded keys, for `in` (a null-prototype object). */
  readonly known: Record<PropertyKey, true>;
  /** Own properties added after the snapshot are deleted (Object.prototype). */
  readonly removeAdded: boolean;
}

function nullPrototypeCopy(descriptor: PropertyDescriptor): PropertyDescriptor {
  const copy = ObjectCreate(null) as PropertyDescriptor;
  if ('value' in descriptor) {
    copy.value = descriptor.value;
    copy.writable = descriptor.writable ?? false;
  } else {
    copy.get = descriptor.get;
    copy.set = descriptor.set;
  }
  copy.enumerable = descriptor.enumerable ?? false;
  copy.configurable = descriptor.configurable ?? false;
  return copy;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return a.value === b.value && a.get === b.get && a.set === b.set
    && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;
}

function describeKey(target: string, key: PropertyKey): string {
  return `${target}.${typeof key === 'symbol' ? `[${StringCtor(key.description)}]` : StringCtor(key)}`;
}

/**
 * What {@link RealmSnapshot.looksIntact} compares: the built-ins the message loop, the lowering
 * (meriyah) and the evaluator call on every request.
 */
const MOST_USED: ReadonlyArray<readonly [string, readonly PropertyKey[]]> = [
  ['Function.prototype', ['call', 'apply', 'bind']],
  ['Array.prototype', ['push', 'pop', 'map', 'filter', 'forEach', 'join', 'slice', 'some', 'includes', Symbol.iterator]],
  ['ArrayIterator', ['next']],
  ['Object', ['keys', 'assign', 'defineProperty', 'getOwnPropertyDescriptor', 'create', 'hasOwn']],
  ['String.prototype', ['slice', 'split', 'includes', 'indexOf', 'charCodeAt', 'startsWith', 'replace', 'replaceAll']],
  ['Map.prototype', ['get', 'set', 'has', 'delete', Symbol.iterator]],
  ['Set.prototype', ['add', 'has', 'delete', Symbol.iterator]],
  ['MapIterator', ['next']],
  ['SetIterator', ['next']],
  ['JSON', ['parse', 'stringify']],
  ['Reflect', ['apply', 'get', 'defineProperty', 'getOwnPropertyDescriptor']],
  ['Promise', ['resolve', 'reject', 'race']],
];

/** The built-ins of this realm as they were at {@link RealmSnapshot.capture}; see the module comment. */
export class RealmSnapshot {
  readonly #recorded: Recorded[] = [];
  /** Index pairs into {@link #recorded}: the entries {@link looksIntact} compares. */
  readonly #mostUsed: Array<{ recorded: Recorded; index: number }> = [];
  /** How many own keys `Object.prototype` had (additions there are always removed). */
  #objectPrototypeKeys = 0;

  /** Records this realm's built-ins now; call it before any untrusted code runs. */
  static capture(): RealmSnapshot {
    const snapshot = new RealmSnapshot();
    const global = globalThis as unknown as Record<string, unknown>;
    const names = new Set<PropertyKey>();
    for (const name of GLOBAL_NAMES) {
      const descriptor = ReflectGetOwnPropertyDescriptor(global, name);
      if (descriptor !== undefined && 'value' in descriptor) names.add(name);
    }
    // First: once its additions are gone, reading a descriptor's fields meets no cell getter.
    snapshot.#record('Object.prototype', Object.prototype, { removeAdded: true });
    snapshot.#record('globalThis', global, { only: names });
    const iteratorPrototype = ReflectGetPrototypeOf(ReflectGetPrototypeOf([][Symbol.iterator]())!)!;
    const typedArray = ReflectGetPrototypeOf(Uint8Array) as { prototype: object } & object;
    const intrinsics: Array<[string, object]> = [
      ['Object', Object], ['Function.prototype', Function.prototype], ['Array', Array], ['Array.prototype', Array.prototype],
      ['ArrayIterator', ReflectGetPrototypeOf([][Symbol.iterator]())!], ['Iterator.prototype', iteratorPrototype],
      ['MapIterator', ReflectGetPrototypeOf(new Map()[Symbol.iterator]())!],
      ['SetIterator', ReflectGetPrototypeOf(new Set()[Symbol.iterator]())!],
      ['StringIterator', ReflectGetPrototypeOf(''[Symbol.iterator]())!],
      ['Promise', Promise], ['Promise.prototype', Promise.prototype], ['JSON', JSON], ['Reflect', Reflect], ['Symbol', Symbol],
      ['Error', Error], ['Error.prototype', Error.prototype], ['String.prototype', String.prototype],
      ['Number.prototype', Number.prototype], ['Map.prototype', Map.prototype], ['Set.prototype', Set.prototype],
      ['WeakMap.prototype', WeakMap.prototype], ['RegExp.prototype', RegExp.prototype], ['Math', Math],
      ['Date', Date], ['ArrayBuffer', ArrayBuffer], ['ArrayBuffer.prototype', ArrayBuffer.prototype],
      ['TypedArray', typedArray], ['TypedArray.prototype', typedArray.prototype], ['Uint8Array.prototype', Uint8Array.prototype],
    ];
    for (const [name, target] of intrinsics) snapshot.#record(name, target, {});
    for (const [name, keys] of MOST_USED) {
      const recorded = snapshot.#recorded.find((entry) => entry.name === name);
      if (recorded === undefined) continue;
      for (const key of keys) {
        const index = recorded.keys.indexOf(key);
        if (index !== -1) snapshot.#mostUsed.push({ recorded, index });
      }
    }
    snapshot.#objectPrototypeKeys = ReflectOwnKeys(Object.prototype).length;
    return snapshot;
  }

  /**
   * A quick look (a few microseconds) at the built-ins the request path uses most: false when one
   * of them, or `Object.prototype`'s list of keys, differs from the snapshot. True does not mean
   * intact: only {@link restore} compares everything.
   */
  looksIntact(): boolean {
    if (ReflectOwnKeys(Object.prototype).length !== this.#objectPrototypeKeys) return false;
    const mostUsed = this.#mostUsed;
    for (let i = 0; i < mostUsed.length; i++) {
      const { recorded, index } = mostUsed[i]!;
      const current = ReflectGetOwnPropertyDescriptor(recorded.target, recorded.keys[index]!);
      if (current === undefined || !sameDescriptor(current, recorded.descriptors[index]!)) return false;
    }
    return true;
  }

  #record(name: string, target: object, options: { only?: ReadonlySet<PropertyKey>; removeAdded?: boolean }): void {
    const recorded: Recorded = {
      name, target, prototype: ReflectGetPrototypeOf(target), keys: [], descriptors: [],
      known: ObjectCreate(null) as Record<PropertyKey, true>, removeAdded: options.removeAdded === true,
    };
    for (const key of options.only === undefined ? ReflectOwnKeys(target) : [...options.only]) {
      const descriptor = ReflectGetOwnPropertyDescriptor(target, key);
      if (descriptor === undefined) continue;
      recorded.keys.push(key);
      recorded.descriptors.push(nullPrototypeCopy(descriptor));
      recorded.known[key] = true;
    }
    ArrayPrototypePush(this.#recorded, recorded);
  }

  /**
   * Puts every recorded built-in back as it was. Returns the properties that could not be put
   * back (made non-configurable by a cell): empty when the realm is intact again.
   */
  restore(): string[] {
    const failed: string[] = [];
    const recordedList = this.#recorded;
    for (let i = 0; i < recordedList.length; i++) {
      const recorded = recordedList[i]!;
      const { target, keys: recordedKeys, descriptors, known } = recorded;
      if (ReflectGetPrototypeOf(target) !== recorded.prototype && !ReflectSetPrototypeOf(target, recorded.prototype)) {
        ArrayPrototypePush(failed, `the prototype of ${recorded.name}`);
      }
      if (recorded.removeAdded) {
        const keys = ReflectOwnKeys(target);
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k]!;
          if (key in known) continue;
          if (!ReflectDeleteProperty(target, key)) ArrayPrototypePush(failed, describeKey(recorded.name, key));
        }
      }
      for (let k = 0; k < recordedKeys.length; k++) {
        const key = recordedKeys[k]!;
        const original = descriptors[k]!;
        const current = ReflectGetOwnPropertyDescriptor(target, key);
        if (current !== undefined && sameDescriptor(current, original)) continue;
        if (!ReflectDefineProperty(target, key, original)) ArrayPrototypePush(failed, describeKey(recorded.name, key));
      }
    }
    return failed;
  }
}
