/**
 * Value (de)serialisation for `js()`: arguments travel REPL → page as a tagged JSON tree, and page
 * function results travel back the same way, so bigint, NaN, ±Infinity, -0, undefined and sparse
 * arrays survive in both directions and at any depth (`returnByValue` alone loses all of them).
 *
 * Tagged tree (`TaggedValue`), e.g. `{"type":"object","value":[["value",{"type":"number","value":4}]]}`:
 * - `{type:'undefined'}`, `{type:'null'}`, `{type:'boolean',value}`, `{type:'string',value}`;
 * - `{type:'number',value}`: finite numbers as is; `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"` as strings;
 * - `{type:'bigint',value:'42'}` (decimal string);
 * - `{type:'array',length,value:[[index,node],…]}`: only present indices, so holes stay holes;
 * - `{type:'object',value:[[key,node],…]}`: own enumerable string keys, revived with defineProperty so
 *   an own `__proto__` key stays an own property.
 *
 * The two tree walkers below are written once and used on both sides: they run here, and their source
 * (`Function.prototype.toString`) is embedded in the page expression. They must therefore stay
 * self-contained: no imports, no module-level references, no TypeScript-only runtime constructs.
 * `test/unit/page-value-codec.test.mjs` guards this by running the built expression in a fresh
 * `vm` context.
 *
 * See docs/browser-helpers.md, "js()".
 */
import { ReplError } from '../../common/errors.js';

import type { Protocol } from 'devtools-protocol';

/** One node of the tagged tree exchanged with the page (see the module comment). */
export type TaggedValue =
  | { type: 'undefined' }
  | { type: 'null' }
  | { type: 'boolean'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'number'; value: number | 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { type: 'bigint'; value: string }
  | { type: 'array'; length: number; value: Array<[number, TaggedValue]> }
  | { type: 'object'; value: Array<[string, TaggedValue]> };

type Fail = (message: string) => never;

/**
 * Value → tagged tree. `strict` (arguments) throws on anything without an exact plain-data form;
 * lenient (page results) turns such values into `undefined`. Self-contained: runs in the page too.
 */
function encodeTaggedValue(input: unknown, strict: boolean, fail: Fail): TaggedValue {
  const toStringTag = Object.prototype.toString;
  const ancestors = new Set<object>();
  // Prototype checks instead of instanceof: plain objects from another realm (a vm context, an
  // iframe) must qualify. Class instances do not, unlike a bare toString-tag check.
  const isPlainObject = (object: object): boolean => {
    if (toStringTag.call(object) !== '[object Object]') return false;
    if (!strict) return true;
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto === null) return true;
    if (typeof proto !== 'object' || Object.getPrototypeOf(proto) !== null) return false;
    const constructor: unknown = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    return typeof constructor === 'function' && constructor.prototype === proto && constructor.name === 'Object';
  };
  const encode = (value: unknown): TaggedValue => {
    switch (typeof value) {
      case 'undefined':
        return { type: 'undefined' };
      case 'boolean':
        return { type: 'boolean', value };
      case 'string':
        return { type: 'string', value };
      case 'number':
        if (Number.isNaN(value)) return { type: 'number', value: 'NaN' };
        if (value === Infinity) return { type: 'number', value: 'Infinity' };
        if (value === -Infinity) return { type: 'number', value: '-Infinity' };
        if (value === 0 && 1 / value < 0) return { type: 'number', value: '-0' };
        return { type: 'number', value };
      case 'bigint':
        return { type: 'bigint', value: String(value) };
      case 'object': {
        if (value === null) return { type: 'null' };
        if (ancestors.has(value)) return fail(strict ? 'js: arg must not contain cycles' : 'js: result must not contain cycles');
        const isArray = Array.isArray(value);
        if (!isArray && !isPlainObject(value)) {
          return strict ? fail('js: arg must contain only plain objects and arrays') : { type: 'undefined' };
        }
        // Ancestor path only: a shared sub-object (a DAG) is fine and simply encoded twice.
        ancestors.add(value);
        try {
          const record = value as Record<string, unknown>;
          if (isArray) {
            const length = (value as unknown[]).length;
            const items: Array<[number, TaggedValue]> = [];
            // Object.keys visits present indices only (holes stay holes), in ascending order.
            for (const key of Object.keys(value)) {
              const index = Number(key);
              if (String(index >>> 0) === key && index < length) items.push([index, encode(record[key])]);
            }
            return { type: 'array', length, value: items };
          }
          return { type: 'object', value: Object.keys(value).map((key): [string, TaggedValue] => [key, encode(record[key])]) };
        } finally {
          ancestors.delete(value);
        }
      }
      default:
        // function and symbol
        return strict ? fail(`js: arg contains unsupported ${typeof value} value`) : { type: 'undefined' };
    }
  };
  return encode(input);
}

/** Tagged tree → value, validating every node. Self-contained: runs in the page too. */
function reviveTaggedValue(input: unknown, fail: Fail): unknown {
  const revive = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return fail('malformed node');
    const { type, value, length } = node as { type?: unknown; value?: unknown; length?: unknown };
    switch (type) {
      case 'undefined':
        return undefined;
      case 'null':
        return null;
      case 'boolean':
      case 'string':
        if (typeof value === type) return value;
        break;
      case 'number':
        if (typeof value === 'number') return value;
        if (value === 'NaN') return NaN;
        if (value === 'Infinity') return Infinity;
        if (value === '-Infinity') return -Infinity;
        if (value === '-0') return -0;
        break;
      case 'bigint':
        if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
        break;
      case 'array': {
        if (!Array.isArray(value) || !Number.isInteger(length) || (length as number) < 0 || (length as number) > 0xffffffff) break;
        const array = new Array<unknown>(length as number);
        for (const entry of value) {
          if (!Array.isArray(entry) || !Number.isInteger(entry[0]) || entry[0] < 0 || entry[0] >= array.length) {
            return fail('malformed array entry');
          }
          array[entry[0]] = revive(entry[1]);
        }
        return array;
      }
      case 'object': {
        if (!Array.isArray(value)) break;
        const object = {};
        for (const entry of value) {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string') return fail('malformed object entry');
          Object.defineProperty(object, entry[0], { value: revive(entry[1]), enumerable: true, writable: true, configurable: true });
        }
        return object;
      }
    }
    return fail(`malformed ${String(type)} node`);
  };
  return revive(input);
}

const ENCODE_SOURCE = encodeTaggedValue.toString();
const REVIVE_SOURCE = reviveTaggedValue.toString();

/**
 * Encodes a `js()` argument into a tagged tree.
 *
 * Accepts undefined, null, booleans, strings, numbers (incl. NaN, ±Infinity, -0), bigints, arrays
 * (sparse ones keep their holes) and plain objects (prototype `Object.prototype` of any realm, or
 * `null`). Only own enumerable string keys are sent, and getters run. Shared sub-objects are copied.
 *
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT`: `js: arg contains unsupported function value`
 * (or `symbol`), `js: arg must not contain cycles`, `js: arg must contain only plain objects and arrays`.
 */
export function encodeArgument(value: unknown): TaggedValue {
  return encodeTaggedValue(value, true, (message) => {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', message);
  });
}

// Captured at load so a cell that replaces Function.prototype.toString cannot change what is sent.
const functionToString = Function.prototype.toString;

function parsesAsExpression(source: string): boolean {
  try {
    // Parses without running; the newline keeps a trailing line comment from eating the paren.
    new Function(`return (${source}\n)`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the page-ready source of a REPL function for `js(fn)`: its trimmed source text (as
 * written: `asWritten` removes what the REPL inserted), or for method shorthand (`foo() {}`,
 * `async foo() {}`) the equivalent function expression.
 *
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT` `js: page function is not serializable` for native
 * or bound functions, classes, and sources that do not parse as an expression (getters, computed keys).
 */
export function serializePageFunction(fn: (...args: never[]) => unknown, asWritten: (source: string) => string = (source) => source): string {
  const fail = (): never => {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', 'js: page function is not serializable');
  };
  let source: string;
  try {
    source = asWritten(functionToString.call(fn)).trim();
  } catch {
    return fail();
  }
  if (/^class\b/.test(source) || /\{\s*\[native code\]\s*\}$/.test(source)) return fail();
  if (parsesAsExpression(source)) return source;
  const asyncMethod = /^async\s+/.exec(source);
  const candidate = asyncMethod === null ? `function ${source}` : `async function ${source.slice(asyncMethod[0].length)}`;
  return parsesAsExpression(candidate) ? candidate : fail();
}

/**
 * Builds the `Runtime.evaluate` expression for function mode (send it with `awaitPromise: true` and
 * `returnByValue: true`; decode with `decodeEvaluateResponse(…, 'function')`).
 *
 * Shape: `(async function (pageFunction, payload) { <revive> <encode> … })((<fnSource>\n), <json>)`.
 * The page function is evaluated at the top level of the expression, outside the wrapper, so page
 * globals named like our locals (`revive`, `payload`) stay visible to it. It is called once, with
 * the revived argument, or with no arguments at all when `hasArg` is false. Its result is awaited;
 * a returned Error is rethrown (so it surfaces like a throw); anything else is encoded as a tagged
 * tree. The payload JSON has U+2028/U+2029 escaped.
 *
 * @param fnSource Output of `serializePageFunction`.
 * @throws ReplError `REPL_ERR_INVALID_ARGUMENT` from `encodeArgument` when `hasArg` is true.
 */
export function buildFunctionExpression(fnSource: string, arg: unknown, hasArg: boolean): string {
  const payload = hasArg
    ? `, ${JSON.stringify(encodeArgument(arg)).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}`
    : '';
  const call = hasArg ? 'pageFunction(reviveTaggedValue(payload, fail))' : 'pageFunction()';
  return [
    '(async function (pageFunction, payload) {',
    '"use strict";',
    'const fail = (message) => { throw new TypeError(message); };',
    `const reviveTaggedValue = ${REVIVE_SOURCE};`,
    `const encodeTaggedValue = ${ENCODE_SOURCE};`,
    `const result = await ${call};`,
    "if (result instanceof Error || Object.prototype.toString.call(result) === '[object Error]') throw result;",
    'return encodeTaggedValue(result, false, fail);',
    `})((${fnSource}\n)${payload})`,
  ].join('\n');
}

/**
 * Decodes the tagged tree a function-mode expression returned (`EvaluateResponse.result.value`).
 *
 * What page results become: plain data round-trips exactly (bigint, NaN, ±Infinity, -0, undefined
 * and sparse arrays included, at any depth). Objects whose `Object.prototype.toString` tag is not
 * `[object Object]` have no by-value form and become `undefined`: DOM nodes, window, functions,
 * symbols, Map, Set, Date, RegExp, typed arrays, nested promises and nested errors. Class instances
 * keep their own enumerable fields. A top-level promise is awaited; a top-level Error is thrown;
 * a cyclic result throws `js: result must not contain cycles` in the page.
 *
 * @throws ReplError `REPL_ERR_PAGE_EVALUATION` `js: page returned a malformed result (…)`.
 */
export function decodeTaggedResult(value: unknown): unknown {
  return reviveTaggedValue(value, (message) => {
    throw new ReplError('REPL_ERR_PAGE_EVALUATION', `js: page returned a malformed result (${message})`);
  });
}

/**
 * Decodes a string-mode `Runtime.evaluate` result (`returnByValue: true`). String mode is sent
 * verbatim and never wrapped, so its results are only as exact as Chromium's by-value form.
 *
 * The JSON `value` is returned when present; nested NaN/±Infinity arrive as `null` and nested -0 as
 * `0` (JSON limits; use a page function for exact values). A top-level `unserializableValue` is
 * decoded: `NaN`, `Infinity`, `-Infinity`, `-0` and `42n`-style bigints; any other gives `undefined`.
 * A function result gives `undefined`. Observed on Chromium 156: a DOM node, a Date or a returned
 * Error arrives as `{type: 'object', value: {}}` with no subtype, so it decodes to `{}`; a symbol or
 * `window` makes Chromium fail the command itself ("Object couldn't be returned by value").
 *
 * @throws ReplError `REPL_ERR_PAGE_EVALUATION` when the result has subtype `error` (a compile
 * error such as `SyntaxError: Illegal return statement`); the message is its description.
 */
export function decodeRemoteObject(object: Protocol.Runtime.RemoteObject): unknown {
  if (object.subtype === 'error') {
    throw new ReplError('REPL_ERR_PAGE_EVALUATION', object.description ?? 'evaluation failed');
  }
  // Chromium puts `{}` in `value` for functions (and would for nodes when it tags them); not their value.
  if (object.type === 'function' || object.type === 'symbol' || object.subtype === 'node') return undefined;
  if ('value' in object) return object.value as unknown;
  return object.unserializableValue === undefined ? undefined : decodeUnserializable(object.unserializableValue);
}

function decodeUnserializable(text: string): unknown {
  switch (text) {
    case 'NaN':
      return NaN;
    case 'Infinity':
      return Infinity;
    case '-Infinity':
      return -Infinity;
    case '-0':
      return -0;
  }
  return /^-?\d+n$/.test(text) ? BigInt(text.slice(0, -1)) : undefined;
}

/**
 * Turns `Runtime.ExceptionDetails` into the error a `js()` caller sees.
 *
 * The message is the exception's description (for an Error: `Name: message` plus the page stack).
 * A thrown primitive or non-Error value reads like the console, e.g. `Uncaught boom`. Without an
 * exception object the CDP `text` is used, else `evaluation failed`. Location goes into `data`.
 */
export function pageEvaluationError(details: Protocol.Runtime.ExceptionDetails): ReplError {
  const exception = details.exception;
  let message: string;
  if (exception === undefined) {
    message = details.text || 'evaluation failed';
  } else if (exception.subtype === 'error') {
    message = exception.description ?? (details.text || 'evaluation failed');
  } else {
    const shown = exception.description ?? (exception.unserializableValue ?? String(exception.value as unknown));
    message = details.text ? `${details.text} ${shown}` : shown;
  }
  return new ReplError('REPL_ERR_PAGE_EVALUATION', message, {
    data: { text: details.text, lineNumber: details.lineNumber, columnNumber: details.columnNumber, url: details.url },
  });
}

/**
 * Decodes a whole `Runtime.evaluate` response for `js()`: throws the page exception if any, then
 * decodes the result by mode (`'expression'`: `decodeRemoteObject`; `'function'`: `decodeTaggedResult`).
 */
export function decodeEvaluateResponse(response: Protocol.Runtime.EvaluateResponse, mode: 'expression' | 'function'): unknown {
  if (response.exceptionDetails !== undefined) throw pageEvaluationError(response.exceptionDetails);
  return mode === 'expression' ? decodeRemoteObject(response.result) : decodeTaggedResult(response.result.value);
}
