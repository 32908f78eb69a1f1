/**
 * Turns whatever a cell threw into the `error`/`stack`/`errorCode` of a result. Thrown values may
 * come from the cell's realm, be primitives, or have hostile getters, so every read is guarded.
 */
import { LIMITS } from '../../lib/limits.js';
import { cutUtf8 } from '../output/text-budget.js';
import { StringCtor, utilInspect } from '../output/primordials.js';

export interface DescribedError {
  error: string;
  stack?: string;
  errorCode?: string;
}

function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function stringify(value: unknown): string {
  try {
    return StringCtor(value);
  } catch {
    return utilInspect(value);
  }
}

export function describeError(thrown: unknown): DescribedError {
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) {
    return { error: cutUtf8(stringify(thrown), LIMITS.errorBytes) };
  }
  const message = read(thrown, 'message');
  const stack = read(thrown, 'stack');
  const code = read(thrown, 'code');
  const described: DescribedError = {
    error: cutUtf8(typeof message === 'string' ? message : stringify(thrown), LIMITS.errorBytes),
  };
  if (typeof stack === 'string') described.stack = cutUtf8(stack, LIMITS.stackBytes);
  if (typeof code === 'string' && code.length <= 128) described.errorCode = code;
  return described;
}
