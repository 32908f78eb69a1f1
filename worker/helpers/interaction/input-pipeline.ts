/**
 * Sends a sequence of `Input.*` commands on one session without waiting for each answer.
 *
 * Why this is safe: every command is written to the socket in call order (each `send` reaches
 * the connection after the same number of microtask hops), Chromium handles a session's
 * commands in arrival order, and its input router delivers input events to the renderer in that
 * same order. What pipelining saves is the wait for each acknowledgement, which Chromium sends
 * only after the renderer handled the event (a key event with text costs several ms). Ordering
 * is guarded by the typing tests (test/browser/interaction.test.mjs).
 *
 * Input is never retried: after a dropped connection the outcome is unknown (docs/browser-helpers.md,
 * "Exactly once"), and the error says so.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient, CdpCommandOptions } from '../../cdp/cdp-client.js';

/** One input command. */
export type InputCommand =
  | { method: 'Input.dispatchKeyEvent'; params: Protocol.Input.DispatchKeyEventRequest }
  | { method: 'Input.dispatchMouseEvent'; params: Protocol.Input.DispatchMouseEventRequest }
  | { method: 'Input.insertText'; params: Protocol.Input.InsertTextRequest };

/** Sends every command now, in order; resolves when all are answered, rejects with the first error. */
export async function sendPipelined(
  client: CdpClient,
  sessionId: string,
  commands: readonly InputCommand[],
  options: Pick<CdpCommandOptions, 'timeoutMs' | 'deadline'> = {},
): Promise<void> {
  // A navigation this input causes (a submit button, Enter in a form) may be requested only after
  // the input is acknowledged: the next waitForLoad lets the page act on it first (waits.ts).
  client.noteInput();
  const sent = commands.map((command) =>
    client.send(command.method, command.params as never, { sessionId, timeoutMs: options.timeoutMs, deadline: options.deadline }));
  await Promise.all(sent);
}
