/**
 * `tool`: one agent-tool operation (lib/tools), run like a cell (its deadline, its signal). The
 * helpers' stderr notes speak to cells (helper names, CDP methods): the tool runner reports what
 * an action set off in its own words (`effects`), so the notes are dropped. The tool runner is
 * loaded on the first tool call: REPLs that only run cells never load it.
 */
import { ReplError } from '../../../common/errors.js';
import type { ToolMessage, ToolOutcome, ToolResultMessage } from '../../../common/protocol/tool-messages.js';
import { serializeThrown } from '../describe-error.js';

import type { ToolRunner } from '../../tools/tool-runner.js';
import type { ReplRuntime } from '../repl-runtime.js';

export function createToolHandler(runtime: ReplRuntime): (message: ToolMessage) => Promise<void> {
  const { post, realm, collector, helperContext, helpers, interrupts, evaluator } = runtime;
  let toolRunner: ToolRunner | undefined;
  return async function runTool(message: ToolMessage): Promise<void> {
    const { requestId } = message;
    realm.restoreIfTouched();
    collector.begin(() => undefined);
    helperContext.beginCell(message.deadline);
    try {
      if (message.operation.op === 'trace') {
        // Read off the recorder, never the page: a trace is there even when the page is not.
        const { trace } = helperContext;
        const answer: NonNullable<ToolOutcome['trace']> = { entries: trace.entries(), dropped: trace.dropped };
        if (message.operation.secrets === true) answer.secrets = trace.secrets();
        if (message.operation.clear === true) trace.clear();
        post({ type: 'tool-result', requestId, outcome: { message: `${answer.entries.length} traced action(s)`, trace: answer } } satisfies ToolResultMessage);
        return;
      }
      toolRunner ??= new (await import('../../tools/tool-runner.js')).ToolRunner(helperContext, helpers);
      const { outcome, transfer } = await toolRunner.run(message.operation, message.read);
      post({ type: 'tool-result', requestId, outcome } satisfies ToolResultMessage, transfer);
    } catch (thrown) {
      const error = serializeThrown(thrown, interrupts, evaluator);
      // What the tools need to word the failure (the probe's status, what covered the target).
      if (thrown instanceof ReplError && thrown.data !== undefined) error.data = thrown.data;
      post({ type: 'tool-result', requestId, error } satisfies ToolResultMessage);
    } finally {
      helperContext.endCell();
      collector.end();
    }
    // A restore after the last cell's answer found built-ins it cannot put back: tools drop the
    // notes, so the worker just ends (the next call gets a fresh REPL).
    realm.endIfDamaged();
  };
}
