/**
 * `pressKey(key, modifiers?)` and `typeText(text)` (docs/interaction.md, "Keyboard"): keyboard input
 * into whatever has focus, with nothing focused first. pressKey sends keyDown (+ char for a
 * printable key) + keyUp in one pipelined batch; typeText is one `Input.insertText`.
 */
import { planKeyPress, planTypeText } from '../../input/us-keyboard-layout.js';
import { describeFocusedForTrace } from './describe-target.js';
import { DialogGuard, dialogOpenedNote } from './dialog-guard.js';
import { sendPipelined } from './input-pipeline.js';

import type { HelperContext } from '../helper-context.js';
import type { InputCommand } from './input-pipeline.js';

async function sendInput(context: HelperContext, helper: string, commands: InputCommand[]): Promise<void> {
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  // The trace learns whether typed text goes into a password field before it records the text (docs/trace.md).
  if (helper === 'typeText') await describeFocusedForTrace(context, sessionId);
  const guard = await DialogGuard.start(context, helper, sessionId);
  try {
    // A key that opens a dialog (Enter submitting into an alert) was still pressed: report, don't fail.
    const dialog = await guard.settle(sendPipelined(client, sessionId, commands, context.callOptions()));
    if (dialog !== null) context.note(dialogOpenedNote(helper, dialog));
  } finally {
    guard.dispose();
  }
}

/** `pressKey(key, modifiers?)`: one key press into whatever has focus. */
export async function pressKey(context: HelperContext, key: unknown, modifiers: unknown): Promise<void> {
  const events = planKeyPress(key, modifiers);
  await sendInput(context, 'pressKey', events.map((params) => ({ method: 'Input.dispatchKeyEvent', params })));
}

/** `typeText(text)`: one `Input.insertText` into whatever has focus. */
export async function typeText(context: HelperContext, text: unknown): Promise<void> {
  await sendInput(context, 'typeText', [{ method: 'Input.insertText', params: planTypeText(text) }]);
}
