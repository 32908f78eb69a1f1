/**
 * Turns the `code` of an execute call into a function. The code becomes the body of
 * `async function (page, context, browser)` (so top-level `await` and `return` work), with
 * `webmcp`, `console` and `requestHuman` as closure variables rather than parameters (so code may declare its own
 * `const webmcp`). TypeScript syntax is stripped by oxc-transform inside this worker, so the main
 * thread never spends CPU on user code; stack frames are mapped back to the user's lines through
 * oxc's source map.
 */
import { SourceMap } from 'node:module';
import type { SourceMapPayload } from 'node:module';
import { Script, constants as vmConstants } from 'node:vm';

/** Name of the compiled script in stack frames before mapping. */
const GENERATED_FILE = 'playwright-code.js';
/** Name that mapped frames point at: line and column are the user's own. */
const USER_FILE = 'code.ts';
const HEADER = '(webmcp, console, requestHuman) => async function (page, context, browser) {\n';
const FOOTER = '\n}';

type TransformSync = typeof import('oxc-transform').transformSync;

/** The code as a function of the call's bindings. */
export type UserFunction = (page: unknown, context: unknown, browser: unknown) => Promise<unknown>;

export interface CompiledCode {
  /** Binds the closure variables of one call. */
  bind(webmcp: unknown, console: Console, requestHuman: unknown): UserFunction;
  /** Rewrites frames of the compiled code to the user's line and column; drops executor frames. */
  mapStack(stack: string): string;
}

/**
 * Liveness checks for the compiled code (call-interrupts.ts): `instrument` inserts them (or says
 * it cannot), `strip` removes them from a line of the checked code.
 */
export interface CompileChecks {
  instrument(js: string): string | undefined;
  strip(text: string): string;
}

/** The code does not parse. `stack` carries a code frame pointing at the problem. */
export class CodeSyntaxError extends Error {
  constructor(message: string, frame: string) {
    super(message);
    this.name = 'CodeSyntaxError';
    this.stack = `${message}\n${frame}`;
  }
}

let transformer: Promise<TransformSync | Error> | undefined;

/**
 * Loads oxc-transform once per worker. Called in the background right after the handshake, so
 * the first call rarely waits. A platform without its native binding gets the failure back
 * instead of a crash: plain JavaScript then still runs untransformed.
 */
export function loadTransformer(): Promise<TransformSync | Error> {
  transformer ??= import('oxc-transform').then(
    (module) => module.transformSync,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  return transformer;
}

/** Compiled factories by source: repeated code (polling, retries) skips stripping and compiling. */
const cache = new Map<string, CompiledCode>();
const CACHE_ENTRIES = 32;
const CACHE_MAX_CODE_LENGTH = 64 * 1024;

/**
 * Strips types and compiles. Throws {@link CodeSyntaxError} for code that does not parse. The
 * result is a factory: every call binds a new function, so no state is shared between calls.
 */
export async function compileCode(code: string, checks?: CompileChecks): Promise<CompiledCode> {
  const cached = cache.get(code);
  if (cached !== undefined) {
    // Map iteration order is insertion order: re-inserting keeps recently used entries last.
    cache.delete(code);
    cache.set(code, cached);
    return cached;
  }
  const compiled = await compile(code, checks);
  if (code.length <= CACHE_MAX_CODE_LENGTH) {
    cache.set(code, compiled);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  return compiled;
}

async function compile(code: string, checks: CompileChecks | undefined): Promise<CompiledCode> {
  const source = HEADER + code + FOOTER;
  const transform = await loadTransformer();
  let js = source;
  let rawMap: unknown;
  if (typeof transform === 'function') {
    const output = transform('code.ts', source, { lang: 'ts', sourceType: 'script', sourcemap: true });
    const first = output.errors[0];
    if (first !== undefined) {
      const offset = utf16Offset(source, first.labels[0]?.start ?? 0);
      const { line, column } = userPosition(source, offset);
      throw new CodeSyntaxError(`TypeScript transform error: ${first.message} (line ${line}, column ${column})`,
        codeFrame(code, line, column));
    }
    js = output.code;
    rawMap = output.map;
  }
  // The checks keep every line where it was; on the lines they are on, a column of the checked
  // code is mapped back by leaving them out of what precedes it.
  const checked = checks?.instrument(js);
  const lines = checked === undefined ? undefined : checked.split('\n');
  const unchecked = (line: number, column: number): number => {
    const text = lines?.[line - 1];
    return text === undefined || checks === undefined ? column : checks.strip(text.slice(0, column - 1)).length + 1;
  };
  if (checked !== undefined) js = checked;
  let factory: unknown;
  try {
    const script = new Script(js, { filename: GENERATED_FILE, importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    factory = script.runInThisContext();
  } catch (error) {
    // Only reached without the transformer (oxc reports syntax errors itself).
    const message = error instanceof Error ? error.message : String(error);
    throw new CodeSyntaxError(`SyntaxError: ${message}`, '');
  }
  if (typeof factory !== 'function') {
    throw new CodeSyntaxError('SyntaxError: code must be the body of a function (it closed the wrapping function early)', '');
  }
  // The map is decoded only when a stack needs it: most calls never fail.
  let map: SourceMap | undefined;
  return {
    bind: (webmcp, console, requestHuman) => (factory as (webmcp: unknown, console: Console, requestHuman: unknown) => UserFunction)(webmcp, console, requestHuman),
    mapStack: (stack) => {
      if (map === undefined && rawMap !== undefined) map = new SourceMap(rawMap as SourceMapPayload);
      const mapped = mapStack(stack, map, unchecked);
      return checks === undefined || checked === undefined ? mapped : checks.strip(mapped);
    },
  };
}

// oxc reports UTF-8 byte offsets; JavaScript strings index UTF-16 code units.
function utf16Offset(text: string, byteOffset: number): number {
  return Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}

/** 1-based line and column in the user's code (line 0 of `source` is the wrapper's header). */
function userPosition(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset);
  const line = before.split('\n').length - 1;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line: Math.max(line, 1), column };
}

function codeFrame(code: string, line: number, column: number): string {
  const lines = code.split('\n');
  const text = lines[Math.min(line, lines.length) - 1] ?? '';
  return `    at ${USER_FILE}:${line}:${column}\n  ${line} | ${text}\n  ${' '.repeat(String(line).length)} | ${' '.repeat(Math.max(column - 1, 0))}^`;
}

const FRAME = new RegExp(`${GENERATED_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`, 'g');
const EXECUTOR_FRAME = /\n\s+at [^\n]*[/\\]worker[/\\]executor[/\\][^\n]*/g;

function mapStack(stack: string, map: SourceMap | undefined, unchecked: (line: number, column: number) => number): string {
  return stack
    .replace(FRAME, (_match, lineText: string, columnText: string) => {
      const line = Number(lineText);
      const column = unchecked(line, Number(columnText));
      if (map === undefined) return `${USER_FILE}:${line - 1}:${column}`;
      const entry = map.findEntry(line - 1, column - 1) as { originalLine?: number; originalColumn?: number };
      if (entry.originalLine === undefined || entry.originalColumn === undefined) return `${USER_FILE}:?:?`;
      // originalLine is 0-based in the wrapped source, whose line 0 is the header: it equals the user's 1-based line.
      return `${USER_FILE}:${entry.originalLine}:${entry.originalColumn + 1}`;
    })
    .replace(EXECUTOR_FRAME, '');
}
