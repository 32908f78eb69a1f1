/**
 * Helpers for using a REPL from a `node --test` (or any) suite:
 *
 * ```js
 * import { test, after } from 'node:test';
 * import { replFixture } from 'chromium-repl/testing';
 * const repl = replFixture({ after });
 * test('adds', async () => assert.equal(await repl.text('repl.write(String(1 + 1))'), '2'));
 * ```
 */
import { Repl } from './repl/repl.js';
import type { ReplOptions, RunOptions } from './repl/repl.js';
import type { CellResult } from './repl/cell-result.js';
import type { OutputChannel } from '../common/protocol/repl-messages.js';

/**
 * What {@link TestRepl.run} throws when the cell fails: `message` is `cell failed: <the cell's
 * error>` followed by the line of the cell that failed (`cell line 3: throw new Error("…")`);
 * the stack starts at the caller of `run` (the test file, so with several cells one can tell
 * which failed) and ends with the cell's own stack. `code` is the cell's error code
 * (`result.errorCode`: a registry code such as `REPL_ERR_CELL_SYNTAX` or `REPL_ERR_CELL_TIMEOUT`, or
 * the `code` of the value the cell threw), undefined when the thrown value had none.
 */
export interface CellFailedError extends Error {
  readonly code: string | undefined;
  /** The whole result of the failed cell (partial output included). */
  readonly result: CellResult;
  /** 1-based line of the cell's source where it failed, when its stack or syntax error names one. */
  readonly cellLine: number | undefined;
}

/** A REPL whose `run` throws when the cell fails, plus shortcuts for the output. */
export interface TestRepl {
  readonly repl: Repl;
  /**
   * Runs the cell and throws a {@link CellFailedError} when it failed. Errors of the REPL itself
   * (closed, invalid options) reject as they are: `ReplError`s with a registry `code`.
   */
  run(code: string, options?: RunOptions): Promise<CellResult>;
  /** Runs the cell and returns what it wrote with `repl.write`, joined in order. */
  text(code: string, options?: RunOptions): Promise<string>;
  /** Runs the cell and returns its stdout (`console.log`, `console.info`…), joined in order. */
  stdout(code: string, options?: RunOptions): Promise<string>;
  /** Runs the cell and returns its stderr (`console.error`, `console.warn`, runtime notes), joined in order. */
  stderr(code: string, options?: RunOptions): Promise<string>;
  close(): Promise<void>;
}

/** Frames of a cell's own code in its stack: `browser-repl-cell-<n>.mjs:<line>:<column>`. */
const CELL_FRAME = /browser-repl-cell-\d+\.mjs:(\d+):\d+/;
/** meriyah's position in a syntax error: `[line:column-line:column]: …`. */
const SYNTAX_POSITION = /^\[(\d+):\d+-\d+:\d+\]/;

/** The line of the cell where it failed: the innermost frame of cell code, or the syntax error's. */
function failingLine(result: CellResult): number | undefined {
  const found = CELL_FRAME.exec(result.stack ?? '') ?? SYNTAX_POSITION.exec(result.error ?? '');
  return found === null ? undefined : Number(found[1]);
}

function cellFailed(result: CellResult, code: string, callerStack: string | undefined): CellFailedError {
  const line = failingLine(result);
  const source = line === undefined ? undefined : code.split('\n')[line - 1]?.trim();
  const where = source === undefined || source === '' ? '' : `\n  cell line ${line}: ${source.length > 200 ? `${source.slice(0, 200)}…` : source}`;
  const error = new Error(`cell failed: ${result.error ?? 'unknown error'}${where}`);
  // The caller's frames (the test file), then the cell's own stack.
  const callerFrames = callerStack?.split('\n').slice(1).join('\n') ?? '';
  error.stack = `Error: ${error.message}${callerFrames === '' ? '' : `\n${callerFrames}`}${result.stack === undefined ? '' : `\n--- cell stack ---\n${result.stack}`}`;
  return Object.assign(error, { code: result.errorCode, result, cellLine: line });
}

/** The text of one channel of a result, items joined without separators (each item is one call). */
function channelText(result: CellResult, channel: OutputChannel): string {
  return (result.content ?? []).map((item) => (item.type === 'text' && item.channel === channel ? item.text : '')).join('');
}

export function createTestRepl(options: ReplOptions = {}): TestRepl {
  const repl = new Repl(options);
  /**
   * Runs a cell; `entry` is the method the caller called, so the stack of a failure starts at
   * the caller's own frame (captured before the first await, while it is still on the stack).
   */
  const runFrom = async (entry: (...args: never[]) => unknown, code: string, runOptions: RunOptions | undefined): Promise<CellResult> => {
    const caller: { stack?: string } = {};
    Error.captureStackTrace(caller, entry);
    const result = await repl.run(code, runOptions);
    if (!result.success) throw cellFailed(result, code, caller.stack);
    return result;
  };
  const testRepl: TestRepl = {
    repl,
    run: (code, runOptions) => runFrom(testRepl.run, code, runOptions),
    text: async (code, runOptions) => channelText(await runFrom(testRepl.text, code, runOptions), 'write'),
    stdout: async (code, runOptions) => channelText(await runFrom(testRepl.stdout, code, runOptions), 'stdout'),
    stderr: async (code, runOptions) => channelText(await runFrom(testRepl.stderr, code, runOptions), 'stderr'),
    close: () => repl.close(),
  };
  return testRepl;
}

/** Hooks shaped like node:test's `before`/`after` (also tap's). */
export interface SuiteHooks {
  after(fn: () => Promise<void> | void): void;
}

/** A REPL closed automatically after the suite: `const repl = replFixture({ after })`. */
export function replFixture(hooks: SuiteHooks, options: ReplOptions = {}): TestRepl {
  const testRepl = createTestRepl(options);
  hooks.after(() => testRepl.close());
  return testRepl;
}
