/**
 * Helpers for using a REPL from a `node --test` (or any) suite:
 *
 * ```js
 * import { test } from 'node:test';
 * import { replFixture } from 'chromium-repl/testing';
 * const repl = replFixture(test);
 * test('adds', async () => assert.equal(await repl.text('repl.write(1 + 1)'), '2'));
 * ```
 */
import { Repl } from './repl/repl.js';
import type { ReplOptions, RunOptions } from './repl/repl.js';
import type { CellResult } from './repl/cell-result.js';

/** A REPL whose `run` throws when the cell fails, plus shortcuts for the output. */
export interface TestRepl {
  readonly repl: Repl;
  /** Runs the cell and throws an Error carrying the cell's error and stack when it failed. */
  run(code: string, options?: RunOptions): Promise<CellResult>;
  /** Runs the cell and returns its text output joined (all channels, in order). */
  text(code: string, options?: RunOptions): Promise<string>;
  close(): Promise<void>;
}

export function createTestRepl(options: ReplOptions = {}): TestRepl {
  const repl = new Repl(options);
  const run = async (code: string, runOptions?: RunOptions) => {
    const result = await repl.run(code, runOptions);
    if (!result.success) {
      const error = new Error(`cell failed: ${result.error ?? 'unknown error'}`);
      if (result.stack !== undefined) error.stack = `${error.message}\n--- cell stack ---\n${result.stack}`;
      throw Object.assign(error, { result });
    }
    return result;
  };
  return {
    repl,
    run,
    async text(code, runOptions) {
      const result = await run(code, runOptions);
      return (result.content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('');
    },
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
