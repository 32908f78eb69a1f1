/**
 * Keeps the interaction helpers from hanging behind a JavaScript dialog (docs/interaction.md, "Dialogs").
 *
 * A modal `alert`/`confirm`/`prompt`/`beforeunload` freezes the page's renderer: evaluations and
 * the acknowledgement of input events stop until the dialog is handled. So every helper
 * - fails at once when the client already knows a dialog is open, and
 * - races each CDP step against `Page.javascriptDialogOpening` on its session.
 *
 * A dialog opened *by the helper's own input* (a click on a button that calls `alert()`) means
 * the action happened: `settle` reports it instead of failing, and the helper leaves a note.
 * The way out is always `cdp("Page.handleJavaScriptDialog", …)`, which Chromium answers even
 * while the renderer is frozen. Messages and the start check are the core helpers' own
 * (`core/page-guard.ts`), so every helper words a dialog the same way.
 */
import { DIALOG_WAY_OUT, assertPageResponsive, dialogError } from '../core/page-guard.js';

import type { PendingDialog } from '../../cdp/cdp-client.js';
import type { HelperContext } from '../helper-context.js';

/** The dialog fields the messages need. */
export type DialogInfo = Pick<PendingDialog, 'type' | 'message'>;

// Waits last as long as the cell (the cell's deadline, passed with the wait, ends them); this is only the cap.
const WATCH_LIMIT_MS = 24 * 60 * 60 * 1000;

/** The stderr note of an action that opened a dialog (the action itself succeeded). */
export function dialogOpenedNote(helper: string, dialog: DialogInfo): string {
  return `${helper} opened a JavaScript ${dialog.type} dialog (${JSON.stringify(dialog.message)}); the page is blocked until you ${DIALOG_WAY_OUT}`;
}

/**
 * A promise that never settles, a new one per guard: one shared by all would be a root that every
 * guard's races stay chained to after it was disposed, with the results they resolved with (a
 * whole accessibility tree per `accessibilitySnapshot()`: 7 KiB a call that no collection frees;
 * issue 26's soak found it).
 */
const never = (): Promise<never> => new Promise<never>(() => {});

/** One helper call's watch over its session. Always `dispose()` it (in a `finally`). */
export class DialogGuard {
  readonly #helper: string;
  readonly #controller = new AbortController();
  readonly #opened: Promise<DialogInfo>;
  readonly #answeredByPolicy: () => boolean;

  /**
   * Throws `REPL_ERR_DIALOG_OPEN` when a dialog is already open on the attached page (or its
   * renderer stayed frozen since attach), else starts watching `sessionId` for the whole call:
   * one waiter, so no dialog can slip in between two steps.
   */
  static async start(context: HelperContext, helper: string, sessionId: string): Promise<DialogGuard> {
    await assertPageResponsive(helper, context);
    return new DialogGuard(context, helper, sessionId);
  }

  private constructor(context: HelperContext, helper: string, sessionId: string) {
    this.#helper = helper;
    this.#answeredByPolicy = () => context.client.dialogPolicy !== null;
    const stop = (): void => this.#controller.abort();
    context.signal.addEventListener('abort', stop, { once: true });
    this.#controller.signal.addEventListener('abort', () => context.signal.removeEventListener('abort', stop), { once: true });
    this.#opened = context.client
      .waitForEvent('Page.javascriptDialogOpening', context.callOptions({ sessionId, timeoutMs: WATCH_LIMIT_MS, signal: this.#controller.signal }))
      .then(
        (event) => (event === null ? never() : { type: event.params.type, message: event.params.message }),
        () => never(),
      );
  }

  /** `work`'s result, or `REPL_ERR_DIALOG_OPEN` as soon as a dialog opens first. */
  async guard<T>(work: Promise<T>): Promise<T> {
    const outcome = await Promise.race([work.then((value) => ({ value })), this.#opened.then((dialog) => ({ dialog }))]);
    if ('dialog' in outcome) throw dialogError(this.#helper, outcome.dialog, true);
    return outcome.value;
  }

  /**
   * Waits for `work` (input the helper sent) unless a dialog opens first, which the input caused:
   * then it resolves with the dialog, and the unanswered input is left to settle on its own.
   */
  async settle(work: Promise<unknown>): Promise<DialogInfo | null> {
    const outcome = await Promise.race([work.then(() => ({ dialog: null })), this.#opened.then((dialog) => ({ dialog }))]);
    if (outcome.dialog === null || !this.#answeredByPolicy()) return outcome.dialog;
    // With an onDialog policy the dialog is being answered right now (with a note of its own): the
    // input is acknowledged once it is closed, so the next helper never finds it still open.
    await work.catch(() => undefined);
    return null;
  }

  dispose(): void {
    this.#controller.abort();
  }
}
