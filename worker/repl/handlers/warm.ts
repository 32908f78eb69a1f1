/**
 * `warm`: ahead of the first cell, compiles a typical cell, connects and attaches the page, and
 * runs one `js()` round trip, so the first cell finds every path hot; then answers `warmed`.
 * Nothing is declared or written, and the cell count is unchanged. Failures stay silent: the first
 * helper call connects again and reports what goes wrong then.
 */
import type { WarmMessage, WarmedMessage } from '../../../common/protocol/repl-messages.js';

import type { ReplRuntime } from '../repl-runtime.js';

/** Deadline of the warm-up's page round trip: a connect (10 s) and an attach. */
const WARM_UP_DEADLINE_MS = 15_000;

export async function warmUp(runtime: ReplRuntime, message: WarmMessage): Promise<void> {
  const { evaluator, helperContext, helpers } = runtime;
  evaluator.warm();
  if (runtime.browserAvailable) {
    helperContext.beginCell(Date.now() + WARM_UP_DEADLINE_MS);
    try {
      await helperContext.client.ensureAttached();
      await (helpers['js'] as (expression: string) => Promise<unknown>)('0');
    } catch {
      // See the module comment.
    } finally {
      helperContext.endCell();
    }
  }
  runtime.post({ type: 'warmed', requestId: message.requestId } satisfies WarmedMessage);
}
