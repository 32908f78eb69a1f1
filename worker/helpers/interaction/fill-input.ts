/**
 * `fillInput(target, text, options?)`: waits until the target is visible, enabled, editable and
 * not covered (click's hit test; `force` skips it), focuses it, clears it (select all + Backspace) unless `clearFirst: false`, types `text`, then
 * fires `change` (typing fired `input` already) and checks that focus stayed put.
 *
 * Typing follows `keyboard.ts`: US-layout characters as real key presses, everything else (and
 * line breaks) inserted; all pipelined. With `insert: true` the whole text is one insertion instead
 * (the agent tools' `type`: one event however long the text). Date and time inputs get their value
 * set directly.
 */
import { describeForTrace } from './describe-target.js';
import { ReplError } from '../../../common/errors.js';
import { dialogError } from '../core/page-guard.js';
import { PROBE_GRACE_MS, pollUntilReady } from './action-loop.js';
import { FILL_FINISH, FILL_PROBE } from './actionability-probe.js';
import { DialogGuard } from './dialog-guard.js';
import { sendPipelined } from './input-pipeline.js';
import { readFillRequest } from './interaction-options.js';
import { batchesOf, planBackspace, planTyping } from './keyboard.js';
import { TargetProbe } from './resolve-target.js';

import type { HelperContext } from '../helper-context.js';
import type { FillRequest } from './interaction-options.js';

const DONE = new Set(['ready', 'done', 'rejected']);

/** `fillInput(target, text, options?)`; throws the contract's errors (see the module comment). */
export async function fillInput(context: HelperContext, target: unknown, text: unknown, options: unknown): Promise<void> {
  const request = readFillRequest(target, text, options);
  const sessionId = await context.client.ensureAttached(context.callOptions());
  await fillElement(context, { sessionId, inputSessionId: sessionId, request, given: target });
}

/**
 * Fills a field once it is editable: `fillInput` for targets of the attached page, and the agent
 * tools for fields of cross-site frames (probe and checks in the frame's session `sessionId`,
 * key input through the page's `inputSessionId`, which Chromium routes to the focused frame).
 */
export async function fillElement(context: HelperContext, fill: { sessionId: string; inputSessionId: string; request: FillRequest; given: unknown }): Promise<void> {
  const { request, sessionId } = fill;
  const { client } = context;
  const guard = await DialogGuard.start(context, 'fillInput', fill.inputSessionId);
  const probe = new TargetProbe(context, sessionId, request.target, 'fillInput', fill.given);
  try {
    const ready = await pollUntilReady({
      context,
      helper: 'fillInput',
      verb: 'editable',
      probe,
      guard,
      source: FILL_PROBE,
      args: (last) => [{
        clearFirst: request.clearFirst,
        text: request.text,
        force: request.force === true,
        // After an interception (a sticky header, a banner) centring the field often frees it.
        recenter: last.startsWith('intercepted') || last === 'outside viewport',
      }],
      awaitPromise: false,
      timeoutSec: request.timeoutSec,
      coveredTimeoutSec: request.coveredTimeoutSec,
      done: DONE,
    });
    // The trace's description of the field (docs/trace.md), once, before the text goes in.
    await describeForTrace(context, probe);
    if (ready.status === 'done') return;
    if (ready.status === 'rejected') {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT',
        `fillInput: the ${String(ready['type'])} input rejected ${JSON.stringify(request.text)} (its value is ${JSON.stringify(ready['value'])}); use the input's value format`);
    }
    const clear = request.clearFirst && ready['empty'] !== true;
    // The probe selected the old content: one insertion replaces it, so no Backspace is needed.
    const commands = request.insert === true && request.text !== ''
      ? [{ method: 'Input.insertText' as const, params: { text: request.text } }]
      : [...(clear ? planBackspace() : []), ...(request.insert === true ? [] : planTyping(request.text))];
    for (const batch of batchesOf(commands)) {
      const dialog = await guard.settle(sendPipelined(client, fill.inputSessionId, batch, context.callOptions()));
      if (dialog !== null) throw dialogError('fillInput', dialog, true);
    }
    const finished = await guard.guard(probe.run(FILL_FINISH, [], { awaitPromise: false, timeoutMs: PROBE_GRACE_MS * 2 }));
    if (finished.kind !== 'value') return; // The page navigated away after typing; nothing left to check.
    const result = finished.value as { status?: unknown; focused?: unknown };
    if (result.status === 'focus lost') {
      throw new ReplError('REPL_ERR_ACTION_FAILED',
        `fillInput: focus moved from ${probe.label} to ${String(result.focused)} while typing; part of the text may have gone there`);
    }
    if (result.status === 'detached') {
      throw new ReplError('REPL_ERR_ACTION_FAILED', `fillInput: ${probe.label} left the document while typing`);
    }
  } finally {
    probe.release();
    guard.dispose();
  }
}
