/**
 * Turns whatever a cell threw into the `error`/`stack`/`errorCode` of a result, and into the
 * `SerializedError` that crosses the port (`serializeThrown`). Thrown values may
 * come from the cell's realm, be primitives, or have hostile getters, so every read is guarded.
 */
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../common/limits.js';
import { cutUtf8 } from '../output/output-collector.js';
import { StringCtor, utilInspect } from '../output/primordials.js';

import type { SerializedError } from '../../common/errors.js';
import type { CellEvaluator } from './cell-evaluator.js';
import type { CellInterrupts } from './cell-interrupts.js';

// Frames may name the compiled file (dist/worker/...) or, with source maps, the TypeScript source.
const PACKAGE_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RUNTIME_MARKERS = ['dist/worker/repl/', 'worker/repl/']
  .map((suffix) => `${PACKAGE_ROOT}${suffix}`);

function isRuntimeFrame(line: string): boolean {
  if (!line.startsWith('    at ')) return false;
  if (line.includes('(node:internal/vm/') || /^ {4}at (async )?CellEvaluator\.\w+$/.test(line)) return true;
  return RUNTIME_MARKERS.some((marker) => line.includes(marker));
}

/**
 * Drops the frames of the REPL machinery itself (vm module evaluation, the evaluator, the message
 * loop) so a cell's stack ends at the user's code. Guarded by test/socket/repl-output.test.mjs.
 */
export function trimRuntimeFrames(stack: string): string {
  return stack.split('\n').filter((line) => !isRuntimeFrame(line)).join('\n');
}

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

/**
 * How a thrown object without a string `message` reads: as Node's REPL shows it
 * (`throw { code: "E_X" }` → `{ code: 'E_X' }`), never `[object Object]`. `util.inspect` reads
 * no getter, so a hostile one cannot throw here.
 */
function inspectThrown(value: object): string {
  try {
    return utilInspect(value, { depth: 2, breakLength: Infinity });
  } catch {
    return stringify(value);
  }
}

export function describeError(thrown: unknown): DescribedError {
  // Primitives keep their string form, as in the hosted product (`throw "boom"` → `boom`).
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) {
    return { error: cutUtf8(stringify(thrown), LIMITS.errorBytes) };
  }
  const message = read(thrown, 'message');
  const stack = read(thrown, 'stack');
  const code = read(thrown, 'code');
  const described: DescribedError = {
    error: cutUtf8(typeof message === 'string' ? message : inspectThrown(thrown), LIMITS.errorBytes),
  };
  if (typeof stack === 'string') described.stack = cutUtf8(trimRuntimeFrames(stack), LIMITS.stackBytes);
  if (typeof code === 'string' && code.length <= 128) described.errorCode = code;
  return described;
}

/**
 * What a cell (or a tool operation) threw, as it crosses the port: `describeError`'s guarded
 * reads, plus the name. V8's words for an expression the liveness checks wrapped are put back as
 * the user wrote it, and the stack's positions are the cell's as written.
 */
export function serializeThrown(thrown: unknown, interrupts: CellInterrupts, evaluator: CellEvaluator): SerializedError {
  const described = describeError(thrown);
  const { errorCode } = described;
  const error = interrupts.cleanMessage(described.error);
  const stack = described.stack === undefined ? undefined : evaluator.writtenPositions(interrupts.cleanMessage(described.stack));
  let name: unknown;
  try {
    name = thrown !== null && typeof thrown === 'object' ? (thrown as { name?: unknown }).name : undefined;
  } catch {
    name = undefined;
  }
  const serialized: SerializedError = { name: typeof name === 'string' && name.length <= 256 ? name : 'Error', message: error };
  if (stack !== undefined) serialized.stack = stack;
  if (errorCode !== undefined) serialized.code = errorCode;
  return serialized;
}
