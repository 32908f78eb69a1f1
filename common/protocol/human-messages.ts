/**
 * Hand-over's part of the worker protocols (REPL and executor alike, docs/live-view.md#hand-over):
 * `requestHuman()` in a cell or in executor code asks the main thread, which owns the browser's
 * pending hand-over requests and its live view, to show a message to a person and wait for their
 * "Done". Like `webmcp-call`, each request carries a `callId` of the worker's own, and
 * `human-abort` ends one early (its cell finished or was interrupted): the request then leaves
 * the view.
 */
import type { SerializedError } from '../errors.js';

/** Longest message a request may show, in UTF-16 units. */
export const HUMAN_MESSAGE_MAX_CHARS = 4_000;
/** Longest reply a person may type, in UTF-16 units. */
export const HUMAN_REPLY_MAX_CHARS = 16 * 1024;

// ----- worker → main -------------------------------------------------------------------------

export interface HumanRequestMessage {
  type: 'human-request';
  /** The worker's own id of this request; the reply and an abort repeat it. */
  callId: number;
  /** What the person is asked to do (1..HUMAN_MESSAGE_MAX_CHARS characters). */
  message: string;
  /** How long to wait for "Done" (checked by the worker: LIMITS.humanTimeoutSecMin..Max). */
  timeoutSec: number;
}

/** The request's cell ended or was interrupted: stop waiting, and take the request off the view. */
export interface HumanAbortMessage {
  type: 'human-abort';
  callId: number;
}

// ----- main → worker -------------------------------------------------------------------------

export interface HumanReplyMessage {
  type: 'human-reply';
  callId: number;
  /** What the person typed ('' when nothing); `by` names the viewer when its URL named one. */
  answer?: { reply: string; by?: string };
  /** Why the request failed: `REPL_ERR_HUMAN_TIMEOUT`, `REPL_ERR_CLOSED`, … */
  error?: SerializedError;
}
