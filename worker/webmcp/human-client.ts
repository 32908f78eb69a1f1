/**
 * `requestHuman({ message, timeoutSec })` of cells and executor code (docs/live-view.md#hand-over):
 * asks the main thread to show `message` in the browser's live view and resolves with what the
 * person typed when an interactive viewer presses "Done". Like the `webmcp` calls (and in this
 * folder for the same reason: it is a call to the main thread scoped to the cell that made it,
 * cell-scope.ts), a request whose cell ends or is interrupted is aborted (`human-abort`: it
 * leaves the view), and one made by code a finished cell left behind fails at once. The
 * arguments are checked here, before anything crosses the thread.
 */
import { fromSerialized, ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { HUMAN_MESSAGE_MAX_CHARS } from '../../common/protocol/human-messages.js';
import type { HumanAbortMessage, HumanReplyMessage, HumanRequestMessage } from '../../common/protocol/human-messages.js';
import { ArrayIsArray, ObjectFreeze, PromisePrototypeThen } from '../output/primordials.js';
import type { CellScope } from './cell-scope.js';

/** What `requestHuman` resolves with. */
export interface HumanAnswer {
  reply: string;
  by?: string;
}

export interface HumanClientOptions {
  post: (message: HumanRequestMessage | HumanAbortMessage) => void;
  /** The scope of the code calling right now (cell-scope.ts `currentCellScope`). */
  currentScope: () => CellScope | undefined;
}

export interface HumanBridge {
  /** The function cells and executor code know as `requestHuman`. */
  readonly requestHuman: (options: unknown) => Promise<HumanAnswer>;
  receive(reply: HumanReplyMessage): void;
}

function invalid(detail: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', `requestHuman: ${detail}`);
}

function checked(options: unknown): { message: string; timeoutSec: number } {
  // `requestHuman('Solve the captcha')` is accepted as the message alone.
  const record = typeof options === 'string' ? { message: options } : options;
  if (typeof record !== 'object' || record === null || ArrayIsArray(record)) throw invalid('pass { message, timeoutSec? }');
  const { message, timeoutSec } = record as Record<string, unknown>;
  if (typeof message !== 'string' || message.trim() === '' || message.length > HUMAN_MESSAGE_MAX_CHARS) {
    throw invalid(`message must be a non-empty string of at most ${HUMAN_MESSAGE_MAX_CHARS} characters`);
  }
  const { humanTimeoutSecMin: min, humanTimeoutSecMax: max, humanTimeoutSecDefault } = LIMITS;
  if (timeoutSec !== undefined && (typeof timeoutSec !== 'number' || !Number.isInteger(timeoutSec) || timeoutSec < min || timeoutSec > max)) {
    throw invalid(`timeoutSec must be an integer from ${min} to ${max} (default ${humanTimeoutSecDefault})`);
  }
  return { message, timeoutSec: (timeoutSec as number | undefined) ?? humanTimeoutSecDefault };
}

/** Creates the `requestHuman` of one worker; see the module comment. */
export function createHumanClient(options: HumanClientOptions): HumanBridge {
  const { post, currentScope } = options;
  const pending = new Map<number, (reply: HumanReplyMessage) => void>();
  let nextCallId = 1;

  async function request(raw: unknown, orphaned: () => void): Promise<HumanAnswer> {
    const scope = currentScope();
    if (scope === undefined || scope.ended) {
      orphaned();
      throw invalid(scope === undefined ? 'only available while a cell runs'
        : 'only available while a cell runs: the cell that started this code (a timer, a callback or a promise it left behind) has finished');
    }
    const { message, timeoutSec } = checked(raw);
    const callId = nextCallId++;
    const reply = await new Promise<HumanReplyMessage | undefined>((resolve) => {
      const untrack = scope.track(() => {
        pending.delete(callId);
        post({ type: 'human-abort', callId } satisfies HumanAbortMessage);
        resolve(undefined);
      });
      pending.set(callId, (answer) => {
        untrack();
        resolve(answer);
      });
      post({ type: 'human-request', callId, message, timeoutSec } satisfies HumanRequestMessage);
    });
    if (reply === undefined) {
      const error = new ReplError('REPL_ERR_ABORTED', 'requestHuman: the cell that asked finished (or was interrupted) before anyone pressed Done; the request left the live view');
      orphaned();
      throw error;
    }
    if (reply.error !== undefined) throw fromSerialized(reply.error);
    if (reply.answer === undefined) throw new Error('requestHuman: the answer is invalid (it holds no reply)');
    return ObjectFreeze(reply.answer.by === undefined ? { reply: reply.answer.reply } : { reply: reply.answer.reply, by: reply.answer.by });
  }

  /** As webmcp-client.ts `silent`: a rejection that belongs to an ended cell is marked handled. */
  function start(raw: unknown): Promise<HumanAnswer> {
    let promise: Promise<HumanAnswer> | undefined;
    let orphanedEarly = false;
    promise = request(raw, () => {
      if (promise === undefined) orphanedEarly = true;
      else PromisePrototypeThen(promise, undefined, () => {});
    });
    if (orphanedEarly) PromisePrototypeThen(promise, undefined, () => {});
    return promise;
  }

  return {
    requestHuman: ObjectFreeze(function requestHuman(options: unknown): Promise<HumanAnswer> {
      return start(options);
    }),
    receive(reply) {
      const settle = pending.get(reply.callId);
      if (settle === undefined) return;
      pending.delete(reply.callId);
      settle(reply);
    },
  };
}
