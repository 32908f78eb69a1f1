/**
 * References captured when the worker loads, before any cell runs. Cells can reach this realm's
 * built-ins through host objects (`process.argv` is a host array, `Buffer.prototype` chains to the
 * host `Object.prototype`), so output and protocol code call these captured functions instead of
 * methods looked up at call time. Guarded by test/socket/repl-output.test.mjs ("pollution").
 */
import { format, inspect } from 'node:util';

// `Reflect.apply` captured too: a cell may replace it, and the realm restore itself calls these.
const CapturedReflectApply = Reflect.apply;
const uncurryThis = <T, A extends unknown[], R>(fn: (this: T, ...args: A) => R) =>
  (self: T, ...args: A): R => CapturedReflectApply(fn, self, args) as R;

export const ArrayPrototypePush = uncurryThis(Array.prototype.push) as <T>(self: T[], ...items: T[]) => number;
export const ArrayPrototypeShift = uncurryThis(Array.prototype.shift) as <T>(self: T[]) => T | undefined;
export const ObjectPrototypeToString = uncurryThis(Object.prototype.toString) as (self: unknown) => string;
export const StringPrototypeSlice = uncurryThis(String.prototype.slice) as (self: string, start?: number, end?: number) => string;
export const RegExpPrototypeTest = uncurryThis(RegExp.prototype.test) as (self: RegExp, input: string) => boolean;
export const ObjectHasOwn = Object.hasOwn;
export const MathRound = Math.round;
export const ObjectFreeze = Object.freeze;
export const ReflectApply = Reflect.apply;
export const ReflectOwnKeys = Reflect.ownKeys;
export const ReflectDefineProperty = Reflect.defineProperty;
export const ReflectDeleteProperty = Reflect.deleteProperty;
export const ReflectGetPrototypeOf = Reflect.getPrototypeOf;
export const ReflectSetPrototypeOf = Reflect.setPrototypeOf;
export const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
export const ObjectCreate = Object.create;
export const BufferFrom = Buffer.from.bind(Buffer) as typeof Buffer.from;
export const BufferByteLength = Buffer.byteLength.bind(Buffer) as typeof Buffer.byteLength;
export const ArrayBufferIsView = ArrayBuffer.isView.bind(ArrayBuffer) as typeof ArrayBuffer.isView;
export const utilFormat = format;
export const utilInspect = inspect;
export const StringCtor = String;
export const BufferPrototypeToString = uncurryThis(Buffer.prototype.toString) as (
  self: Buffer, encoding?: BufferEncoding, start?: number, end?: number) => string;
export const ArrayIsArray = Array.isArray;
export const JSONStringify = JSON.stringify;
export const PromisePrototypeThen = uncurryThis(Promise.prototype.then) as <T>(
  self: Promise<T>, onFulfilled?: ((value: T) => unknown) | null, onRejected?: ((reason: unknown) => unknown) | null) => Promise<unknown>;
