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
 * error>`, the stack ends with the cell's stack, and `code` is the cell's error code
 * (`result.errorCode`: a registry code such as `REPL_ERR_CELL_SYNTAX` or `REPL_ERR_CELL_TIMEOUT`, or
 * the `code` of the value the cell threw), undefined when the thrown value had none.
 */
export interface CellFailedError extends Error {
  readonly code: string | undefined;
  /** The whole result of the failed cell (partial output included). */
  readonly result: CellResult;
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

function cellFailed(result: CellResult): CellFailedError {
  const error = new Error(`cell failed: ${result.error ?? 'unknown error'}`);
  if (result.stack !== undefined) error.stack = `${error.message}\n--- cell stack ---\n${result.stack}`;
  return Object.assign(error, { code: result.errorCode, result });
}

/** The text of one channel of a result, items joined without separators (each item is one call). */
function channelText(result: CellResult, channel: OutputChannel): string {
  return (result.content ?? []).map((item) => (item.type === 'text' && item.channel === channel ? item.text : '')).join('');
}

export function createTestRepl(options: ReplOptions = {}): TestRepl {
  const repl = new Repl(options);
  const run = async (code: string, runOptions?: RunOptions): Promise<CellResult> => {
    const result = await repl.run(code, runOptions);
    if (!result.success) throw cellFailed(result);
    return result;
  };
  return {
    repl,
    run,
    text: async (code, runOptions) => channelText(await run(code, runOptions), 'write'),
    stdout: async (code, runOptions) => channelText(await run(code, runOptions), 'stdout'),
    stderr: async (code, runOptions) => channelText(await run(code, runOptions), 'stderr'),
    close: () => repl.close(),
  };
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
