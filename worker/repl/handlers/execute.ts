/**
 * `execute`: one cell, from the shared-memory mark that it began to its `result`. Runs in the
 * loop's queue (serve-repl.ts), so two cells never interleave.
 */
import { performance } from 'node:perf_hooks';
import { MathRound } from '../../output/primordials.js';
import type { SerializedError } from '../../../common/errors.js';
import type { ExecuteMessage, OutputMessage, ResultMessage } from '../../../common/protocol/repl-messages.js';
import { INTERRUPTED_MESSAGE } from '../cell-interrupts.js';
import { describeError, serializeThrown } from '../describe-error.js';
import { CellScope, runInCellScope } from '../../webmcp/cell-scope.js';

import type { ReplRuntime } from '../repl-runtime.js';

/** How a cell ended, as its `result` says. */
type CellOutcome = { success: true } | { success: false; error: SerializedError; interrupted?: true };

export function createExecuteHandler(runtime: ReplRuntime): (message: ExecuteMessage) => Promise<void> {
  const { post, realm, collector, helperContext, interrupts, evaluator, reclaimer } = runtime;

  /**
   * A cell that reads CDP_ENDPOINT (to connect Playwright) needs a running browser before it
   * starts (`needsEndpoint`): the browser is launched lazily, so make sure it is up and the
   * variable is current.
   */
  const needsEndpoint = (code: string): boolean => runtime.browserAvailable && code.includes('CDP_ENDPOINT');
  async function prepareEndpoint(): Promise<void> {
    try {
      await runtime.endpoints.request();
      process.env['CDP_ENDPOINT'] = await runtime.scopedEndpoint().url();
    } catch (error) {
      helperContext.note(`CDP_ENDPOINT is not available: ${(error as Error).message}`);
    }
  }

  /**
   * Posts a cell's answer. Its scope has ended before: when that aborted webmcp calls, a promise
   * chain of the cell's own that awaited one (`(async () => { await webmcp.invokeTool(…) })()`)
   * rejects, and Node reports it unhandled once the microtasks have run; the caller lets one turn
   * of the event loop pass first, so that the report lands in this cell's output, not the next's.
   */
  function finishCell(requestId: number, started: number, outcome: CellOutcome): void {
    helperContext.endCell();
    const { contentTruncated } = collector.end();
    post({
      type: 'result',
      requestId,
      ...outcome,
      contentTruncated,
      durationMs: MathRound(performance.now() - started),
    } satisfies ResultMessage);
  }

  return async function execute(message: ExecuteMessage): Promise<void> {
    const { requestId } = message;
    const started = performance.now();
    realm.restoreIfTouched();
    collector.begin((item, transfer) => post({ type: 'output', requestId, item } satisfies OutputMessage, transfer));
    helperContext.beginCell(message.deadline);
    // Everything the cell starts, timers and promises it leaves behind included, carries this
    // scope; ending it below aborts the webmcp calls still unfinished (their `webmcp-abort`s reach
    // the host before the result does).
    const scope = new CellScope();
    // Settles when the host interrupts the cell (its deadline passed): the answer goes out then,
    // whatever the cell's module still waits for; the scope is interrupted already, so the
    // helpers' waits and the webmcp calls it started are aborted, its timers cleared.
    let stopped!: () => void;
    const stop = new Promise<void>((resolve) => { stopped = resolve; });
    interrupts.begin(requestId, scope, () => {
      helperContext.endCell();
      stopped();
    });
    let failed: { thrown: unknown } | undefined;
    try {
      // Interrupted before it began (begin() above): none of it runs. Awaited only when needed:
      // every await is a promise, which on Node 20 the scope's AsyncLocalStorage tracks at a cost.
      if (!scope.interrupted) {
        if (needsEndpoint(message.code)) await prepareEndpoint();
        await runInCellScope(scope, () => evaluator.evaluate(message.code, { stop }));
      }
    } catch (thrown) {
      failed = { thrown };
    }
    // Before the answer is built, the built-ins are put back: describing what a cell threw, or
    // ending its helpers' waits, runs code of the runtime that uses them (`Array.prototype.filter`
    // in the stack trimming, `JSON`, abort listeners). A cell that succeeded and used no helper is
    // answered by code that calls only captured functions and the built-ins the quick look
    // compares (finishCell): when those look intact, the answer goes out first and the full
    // restore runs while the host reads it, off the cell's fixed cost (issue 26). What that
    // restore finds it cannot put back is said in the next answer, after which the worker ends.
    const interrupted = scope.interrupted;
    const answerFirst = failed === undefined && !interrupted && scope.unfinished === 0 && !helperContext.cellUsedSignal && realm.looksIntact();
    if (!answerFirst) realm.restore();
    interrupts.end();
    try {
      let outcome: CellOutcome;
      if (interrupted) outcome = { success: false, interrupted: true, error: { name: 'Error', message: INTERRUPTED_MESSAGE, code: 'REPL_ERR_CELL_TIMEOUT' } };
      else if (failed === undefined) outcome = { success: true };
      else outcome = { success: false, error: serializeThrown(failed.thrown, interrupts, evaluator) };
      // An unfinished webmcp call makes the answer wait one turn (see finishCell).
      if (scope.end() > 0) await new Promise((resolve) => setImmediate(resolve));
      finishCell(requestId, started, outcome);
    } catch (failure) {
      // The runtime itself failed after the cell (a built-in the cell broke and we do not
      // restore): the host still gets its answer, never a silent worker.
      if (answerFirst) realm.restore();
      collector.end();
      post({
        type: 'result',
        requestId,
        success: false,
        error: { name: 'Error', message: `the REPL runtime failed after the cell: ${describeError(failure).error}` },
        contentTruncated: false,
        durationMs: MathRound(performance.now() - started),
      } satisfies ResultMessage);
    }
    if (answerFirst) realm.restoreAfterAnswer();
    realm.endIfDamaged();
    reclaimer.afterCell();
  };
}
