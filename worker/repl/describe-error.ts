/**
 * Turns whatever a cell threw into the `error`/`stack`/`errorCode` of a result. Thrown values may
 * come from the cell's realm, be primitives, or have hostile getters, so every read is guarded.
 */
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../common/limits.js';
import { cutUtf8 } from '../output/output-collector.js';
import { StringCtor, utilInspect } from '../output/primordials.js';

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
