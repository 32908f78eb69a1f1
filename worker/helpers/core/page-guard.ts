/**
 * Keeps helpers from hanging behind a JavaScript dialog. A modal `alert`/`confirm`/`prompt`/
 * `beforeunload` freezes the page's renderer: every command the renderer must answer (evaluation,
 * layout metrics, screenshots, DOM) then waits until the cell's deadline. The hosted product only
 * adds a hint to the eventual timeout; here a helper that needs the renderer fails at once with
 * `REPL_ERR_DIALOG_OPEN`, naming the way out, when
 * - a dialog is already known to be open (`client.pendingDialog`), or
 * - one opens while the helper's command is running (`Page.javascriptDialogOpening` on the
 *   attached session; the command is abandoned, not retried), or
 * - the renderer did not answer its domain enables on attach (a dialog opened before this REPL
 *   attached is invisible to it) and a short probe confirms it is still frozen.
 */
import { ReplError } from '../../../common/errors.js';
import { isClosedBeforeResponse } from '../../../common/cdp/cdp-errors.js';

import type { PendingDialog } from '../../cdp/cdp-client.js';
import type { HelperContext } from '../helper-context.js';

/** What the user can do about a dialog; part of every dialog error. */
export const DIALOG_WAY_OUT =
  'handle it with handleDialog({ accept: true }) or cdp("Page.handleJavaScriptDialog", { accept: true }) (or { accept: false }; add promptText for a prompt), or leave the page with gotoUrl(...) or cdp("Page.reload")';

/** How long a frozen-looking renderer gets to answer a trivial evaluation before a helper gives up. */
export const UNRESPONSIVE_PROBE_MS = 2_000;

/** The dialog in error messages and `pageInfo()`: `{type, message}`. */
export interface DialogInfo {
  type: string;
  message: string;
}

export function dialogInfo(dialog: Pick<PendingDialog, 'type' | 'message'>): DialogInfo {
  return { type: dialog.type, message: dialog.message };
}

/** `REPL_ERR_DIALOG_OPEN` for `helper`; `opened` says the dialog appeared during the call. */
export function dialogError(helper: string, dialog: DialogInfo, opened = false): ReplError {
  const what = `a JavaScript ${dialog.type} dialog ${opened ? 'opened during the call' : 'is open'} (${JSON.stringify(dialog.message)})`;
  return new ReplError('REPL_ERR_DIALOG_OPEN', `${helper}: ${what} and blocks the page; ${DIALOG_WAY_OUT}`, {
    data: { dialog: { ...dialog }, opened },
  });
}

function unresponsiveError(helper: string, cause: unknown): ReplError {
  return new ReplError(
    'REPL_ERR_DIALOG_OPEN',
    `${helper}: the page renderer is unresponsive — a JavaScript dialog opened before this REPL attached may be blocking it; recover with cdp("Page.reload") or gotoUrl(...), or try cdp("Page.handleJavaScriptDialog", { accept: true })`,
    { cause },
  );
}

/**
 * Throws when the attached page cannot answer renderer commands right now: a known dialog, or a
 * renderer that stayed frozen since attach (checked with a {@link UNRESPONSIVE_PROBE_MS} probe).
 * Costs nothing on the normal path (two field reads).
 */
export async function assertPageResponsive(helper: string, context: HelperContext): Promise<void> {
  const { client } = context;
  const dialog = client.pendingDialog;
  if (dialog !== null) throw dialogError(helper, dialogInfo(dialog));
  if (client.rendererResponsive) return;
  try {
    // A session command also re-runs the domain enables in the background; once they answer,
    // the client marks the renderer responsive again and later calls skip this probe.
    await client.sessionCommand('Runtime.evaluate', { expression: '0', returnByValue: true }, context.callOptions({ timeoutMs: UNRESPONSIVE_PROBE_MS }));
  } catch (error) {
    const pending = client.pendingDialog;
    if (pending !== null) throw dialogError(helper, dialogInfo(pending));
    if ((error as { code?: unknown }).code === 'REPL_ERR_CDP_TIMEOUT') throw unresponsiveError(helper, error);
    throw error;
  }
}

/** Result of {@link raceDialog}: the command's value, or the dialog that blocked it. */
export type DialogRace<T> = { value: T; dialog?: undefined } | { dialog: DialogInfo; value?: undefined };

type DialogListener = (dialog: DialogInfo) => void;

/**
 * One armed `Page.javascriptDialogOpening` waiter per attached session, shared by every guarded
 * command, so a `js()` call costs a Set insertion instead of arming its own waiter (a per-call
 * waiter, and re-arming one per cell, both showed up in the js() benchmark). The waiter is not tied
 * to the cell: it lives until it fires, the connection closes, or its timeout (the client clamps
 * it to the deadline of the cell that armed it); the next guarded command then arms a new one.
 */
class DialogWatch {
  readonly #context: HelperContext;
  readonly #sessions = new Map<string, Set<DialogListener>>();

  constructor(context: HelperContext) {
    this.#context = context;
  }

  subscribe(sessionId: string, listener: DialogListener): () => void {
    let listeners = this.#sessions.get(sessionId);
    if (listeners === undefined) {
      const armed = new Set<DialogListener>();
      listeners = armed;
      this.#sessions.set(sessionId, armed);
      const disarm = (): void => {
        if (this.#sessions.get(sessionId) === armed) this.#sessions.delete(sessionId);
      };
      this.#context.client
        .waitForEvent('Page.javascriptDialogOpening', this.#context.callOptions({ sessionId, timeoutMs: Number.MAX_SAFE_INTEGER }))
        .then(
          (event) => {
            disarm();
            if (event === null) return;
            const dialog = { type: event.params.type ?? 'alert', message: event.params.message ?? '' };
            for (const notify of [...armed]) notify(dialog);
          },
          disarm,
        );
    }
    const set = listeners;
    set.add(listener);
    return () => set.delete(listener);
  }
}

const watches = new WeakMap<HelperContext, DialogWatch>();

/** What the dialog side of {@link raceDialog} resolves with; never a command's result. */
const DIALOG_WON: unique symbol = Symbol('dialog won');

/**
 * Runs `command` on the attached session `sessionId` and watches for a dialog opening meanwhile;
 * if one does, the dialog is returned at once. The command is not cancelled: it is frozen behind
 * the dialog and completes (its answer ignored) once the dialog is handled, or times out at the
 * cell's deadline. Deliberately free of AbortControllers and per-call waiters: this wraps every
 * `js()` call, and both showed up in its benchmark. The command is awaited through
 * `Promise.race`, which V8's async stack traces follow: a failed command's error names the helper
 * and the cell line that called it.
 */
export async function raceDialog<T>(context: HelperContext, sessionId: string, command: () => Promise<T>): Promise<DialogRace<T>> {
  let watch = watches.get(context);
  if (watch === undefined) {
    watch = new DialogWatch(context);
    watches.set(context, watch);
  }
  // A dialog that opened while no command was waiting has already been reported to the client;
  // a command sent now would only hang behind it.
  const open = context.client.pendingDialog;
  if (open !== null) return { dialog: dialogInfo(open) };
  const subscribed = watch;
  let opened: DialogInfo | undefined;
  let unsubscribe: () => void = () => {};
  const dialogOpened = new Promise<typeof DIALOG_WON>((resolve) => {
    unsubscribe = subscribed.subscribe(sessionId, (dialog) => {
      opened = dialog;
      resolve(DIALOG_WON);
    });
  });
  try {
    const winner = await Promise.race([command(), dialogOpened]);
    return winner === DIALOG_WON && opened !== undefined ? { dialog: opened } : { value: winner as T };
  } finally {
    unsubscribe();
  }
}

/** {@link raceDialog}, throwing `REPL_ERR_DIALOG_OPEN` for `helper` when a dialog wins. */
export async function guardDialog<T>(helper: string, context: HelperContext, sessionId: string, command: () => Promise<T>): Promise<T> {
  const alreadyOpen = context.client.pendingDialog !== null;
  const outcome = await raceDialog(context, sessionId, command);
  if (outcome.dialog !== undefined) throw dialogError(helper, outcome.dialog, !alreadyOpen);
  return outcome.value;
}

/**
 * Runs an observational step (its own read-only evaluation, a screenshot) and runs it once more
 * if the connection closed before it was answered. Right after the browser dies, the socket may
 * still look open for a few milliseconds; a step sent into it fails with "CDP connection closed"
 * and is safe to repeat on the relaunched browser. Never used for user code (`js()` stays
 * exactly-once) or for navigation and input.
 */
export async function retryIfDisconnected<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isClosedBeforeResponse(error)) throw error;
    return step();
  }
}
