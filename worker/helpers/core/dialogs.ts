/**
 * `handleDialog` and `onDialog`: JavaScript dialogs without raw CDP (issue 9). A dialog belongs
 * to the REPL whose tab opened it: it is reported there (`pageInfo().dialog`, the notes of the
 * helper that opened it) and handled there. `onDialog` sets how this REPL's later dialogs are
 * answered as they open; the default (null) leaves them pending, as the hosted product does.
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, readOptions } from '../helper-options.js';

import type { CdpEvent } from '../../../common/cdp/cdp-session.js';
import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';

/** How a dialog is answered. */
export interface DialogAnswer {
  accept: boolean;
  promptText?: string | undefined;
}

/** Parses `{ accept = true, promptText }` (handleDialog) and the object form of onDialog. */
function readAnswer(helper: string, options: unknown, acceptDefault: boolean | undefined): DialogAnswer {
  const fields = readOptions(helper, options ?? {}, ['accept', 'promptText']);
  const accept = fields['accept'] ?? acceptDefault;
  if (typeof accept !== 'boolean') throw invalidArgument(`${helper}: accept must be a boolean`);
  const promptText = fields['promptText'];
  if (promptText !== undefined && typeof promptText !== 'string') throw invalidArgument(`${helper}: promptText must be a string`);
  return { accept, ...(promptText === undefined ? {} : { promptText }) };
}

/** Parses onDialog's policy: "accept" | "dismiss" | { accept, promptText? } | null. */
export function readDialogPolicy(policy: unknown): DialogAnswer | null {
  if (policy === null) return null;
  if (policy === 'accept') return { accept: true };
  if (policy === 'dismiss') return { accept: false };
  if (typeof policy === 'object' && !Array.isArray(policy)) return readAnswer('onDialog', policy, undefined);
  throw invalidArgument('onDialog: policy must be "accept", "dismiss", { accept, promptText? } or null');
}

function describeAnswer(answer: DialogAnswer): string {
  return answer.accept ? (answer.promptText === undefined ? 'accepted' : `accepted with ${JSON.stringify(answer.promptText)}`) : 'dismissed';
}

export function createDialogHelpers(context: HelperContext) {
  const { client } = context;

  // Dialogs opening while a policy is set are answered at once, on the session that reported them.
  client.onPageEvent((event: CdpEvent) => {
    const policy = client.dialogPolicy;
    if (policy === null || event.method !== 'Page.javascriptDialogOpening' || event.sessionId === undefined) return;
    const { type, message } = event.params as Protocol.Page.JavascriptDialogOpeningEvent;
    client.send('Page.handleJavaScriptDialog', { accept: policy.accept, ...(policy.promptText === undefined ? {} : { promptText: policy.promptText }) }, { sessionId: event.sessionId })
      .then(
        () => context.note(`onDialog ${describeAnswer(policy)} a JavaScript ${type} dialog (${JSON.stringify(message)})`),
        (error: unknown) => context.note(`onDialog could not answer a JavaScript ${type} dialog: ${(error as Error).message}`),
      );
  });

  /**
   * Answers the dialog open on the attached page and resolves what it was (`{ type, message }`).
   * @throws ReplError `REPL_ERR_NO_DIALOG` when none is open.
   */
  async function handleDialog(options?: unknown): Promise<{ type: string; message: string }> {
    const answer = readAnswer('handleDialog', options, true);
    const sessionId = await client.ensureAttached(context.callOptions());
    const open = client.pendingDialog;
    try {
      await client.send('Page.handleJavaScriptDialog', { accept: answer.accept, ...(answer.promptText === undefined ? {} : { promptText: answer.promptText }) },
        context.callOptions({ sessionId }));
    } catch (error) {
      if (/No dialog is showing/i.test((error as Error).message)) {
        throw new ReplError('REPL_ERR_NO_DIALOG', 'handleDialog: no JavaScript dialog is open on the attached page (pageInfo().dialog is null)', { cause: error });
      }
      throw error;
    }
    return open === null ? { type: 'unknown', message: '' } : { type: open.type, message: open.message };
  }

  /** Sets how this REPL's later dialogs are answered (at once, before it resolves); resolves the previous policy. */
  async function onDialog(policy: unknown): Promise<DialogAnswer | null> {
    if (policy === undefined) throw invalidArgument('onDialog: policy is required ("accept", "dismiss", { accept, promptText? } or null)');
    const previous = client.dialogPolicy;
    client.dialogPolicy = readDialogPolicy(policy);
    return previous;
  }

  return { handleDialog, onDialog };
}
