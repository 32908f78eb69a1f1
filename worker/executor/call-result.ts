/**
 * Turns what a call returned or threw into reply fields. The value is encoded with
 * `JSON.stringify` captured when this module loaded, so code that replaces the global cannot
 * change how results cross to the main thread.
 */
import { inspect } from 'node:util';
import { LIMITS } from '../../common/limits.js';

const JSONStringify = JSON.stringify;

export type ValueFields = { success: true; resultJson: string } | { success: false; error: string };

/** JSON rules of the contract: `undefined` → `null`; a cycle, BigInt, … → a clear error. */
export function encodeResult(value: unknown): ValueFields {
  let json: string | undefined;
  try {
    json = JSONStringify(value === undefined ? null : value, rejectPlaywrightObjects);
  } catch (error) {
    return { success: false, error: `result is not JSON-serializable: ${error instanceof Error ? error.message : String(error)}` };
  }
  // A top-level function, symbol, or toJSON() returning undefined has no JSON text.
  json ??= 'null';
  if (json.length * 3 > LIMITS.responseBytes && Buffer.byteLength(json) > LIMITS.responseBytes) {
    return { success: false, error: `result is too large: its JSON exceeds ${LIMITS.responseBytes} bytes` };
  }
  return { success: true, resultJson: json };
}

/**
 * Playwright objects define `toJSON()` as `{_type, _guid}`: valid JSON, but a handle that means
 * nothing outside this executor. Returning one is almost always a mistake (`return page` instead
 * of `return page.url()`), so it fails with a message that says so. The replacer sees values
 * after `toJSON`; `this[key]` is the original.
 */
function rejectPlaywrightObjects(this: Record<string, unknown>, key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const original = this[key] as Record<string, unknown> | null | undefined;
  if (typeof original === 'object' && original !== null && typeof original['_guid'] === 'string'
    && typeof original['_type'] === 'string' && '_connection' in original) {
    throw new TypeError(`it contains a Playwright ${original['_type']} object, which only exists inside the executor; `
      + 'return plain data instead (for example page.url() or await page.title())');
  }
  return value;
}

/** `error` and `stack` for a thrown value; non-errors are described instead of becoming "". */
export function describeThrown(thrown: unknown, mapStack: (stack: string) => string): { error: string; stack?: string } {
  if (thrown instanceof Error) {
    const error = truncate(String(thrown.message), LIMITS.errorBytes);
    return typeof thrown.stack === 'string' ? { error, stack: truncate(mapStack(thrown.stack), LIMITS.stackBytes) } : { error };
  }
  return { error: truncate(typeof thrown === 'string' ? thrown : `thrown value: ${inspect(thrown, { depth: 2 })}`, LIMITS.errorBytes) };
}

/** Keeps at most `maxLength` UTF-16 units (the limits are generous; this only stops runaway text). */
function truncate(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength)}…`;
}
