/**
 * Hand-over to a person (docs/live-view.md#hand-over): the pending `requestHuman()` requests of
 * one browser. A cell, executor code or the MCP tool `browser_request_human` adds one and waits;
 * the browser's live view shows every pending request to its viewers, and the first interactive
 * viewer who presses "Done" answers it ({@link HumanRequests.complete}). A request that nobody
 * answers fails at its timeout (`REPL_ERR_HUMAN_TIMEOUT`); one whose caller gives up (its cell
 * ended or was interrupted: its AbortSignal) leaves at once. Either way it is taken off the view.
 *
 * Pure bookkeeping on the main thread: no timers but each request's own, nothing while none is
 * pending. The view listens through {@link HumanRequests.onChange}.
 */
import { ReplError } from '../../common/errors.js';
import { HUMAN_MESSAGE_MAX_CHARS, HUMAN_REPLY_MAX_CHARS } from '../../common/protocol/human-messages.js';

/** What the person answered. */
export interface HumanAnswer {
  /** What they typed in the reply field ('' when nothing). */
  reply: string;
  /** The viewer's name, when its live-view URL carried one (`&name=`). */
  by?: string;
}

/** A pending request as viewers see it. */
export interface PendingHumanRequest {
  /** `hr_<n>`: unique within the browser. */
  id: string;
  message: string;
  /** Who asked: `repl:<name>`, `executor`, `mcp`. */
  from: string;
  createdAt: string;
  expiresAt: string;
}

interface Entry {
  readonly info: PendingHumanRequest;
  readonly settle: (answer: HumanAnswer | Error) => void;
}

/** Most requests pending at once in one browser; one more is refused (`REPL_ERR_CONFLICT`). */
export const MAX_PENDING_HUMAN_REQUESTS = 16;

/** The pending hand-over requests of one browser; see the module comment. */
export class HumanRequests {
  readonly #pending = new Map<string, Entry>();
  readonly #listeners = new Set<() => void>();
  #nextId = 1;
  #closed = false;

  /** The pending requests, oldest first. */
  pending(): PendingHumanRequest[] {
    return [...this.#pending.values()].map((entry) => entry.info);
  }

  /** Calls `listener` whenever a request is added or leaves; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Shows `message` to the live view's viewers and waits for "Done" (the person's answer), the
   * timeout (`REPL_ERR_HUMAN_TIMEOUT`) or `signal` (its reason, `REPL_ERR_ABORTED` by default).
   * The message and timeout are checked by the caller's entry point; they are checked again here.
   */
  request(options: { message: string; timeoutMs: number; from: string; signal?: AbortSignal | undefined }): Promise<HumanAnswer> {
    const { message, timeoutMs, from, signal } = options;
    if (this.#closed) return Promise.reject(new ReplError('REPL_ERR_CLOSED', 'the browser is closing: nobody can be asked'));
    if (typeof message !== 'string' || message.trim() === '' || message.length > HUMAN_MESSAGE_MAX_CHARS) {
      return Promise.reject(new ReplError('REPL_ERR_INVALID_ARGUMENT', `message must be a non-empty string of at most ${HUMAN_MESSAGE_MAX_CHARS} characters`));
    }
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return Promise.reject(new ReplError('REPL_ERR_INVALID_ARGUMENT', 'timeout must be positive'));
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    if (this.#pending.size >= MAX_PENDING_HUMAN_REQUESTS) {
      return Promise.reject(new ReplError('REPL_ERR_CONFLICT', `at most ${MAX_PENDING_HUMAN_REQUESTS} hand-over requests may be pending in one browser`));
    }
    const id = `hr_${this.#nextId++}`;
    const now = Date.now();
    return new Promise<HumanAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        settle(new ReplError('REPL_ERR_HUMAN_TIMEOUT',
          `nobody pressed Done in the live view within ${Math.round(timeoutMs / 1000)} s (message: ${JSON.stringify(message.slice(0, 80))}); show the person browser_live_view_url, then ask again`));
      }, timeoutMs);
      const onAbort = (): void => settle(abortReason(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (answer: HumanAnswer | Error): void => {
        if (this.#pending.get(id) !== entry) return;
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#changed();
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      const entry: Entry = {
        info: { id, message, from, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + timeoutMs).toISOString() },
        settle,
      };
      this.#pending.set(id, entry);
      this.#changed();
    });
  }

  /**
   * Answers request `id` (a viewer pressed Done). False when it is no longer pending (answered
   * by another viewer a moment ago, timed out, cancelled): the first Done wins.
   */
  complete(id: string, answer: HumanAnswer): boolean {
    const entry = this.#pending.get(id);
    if (entry === undefined) return false;
    const reply = answer.reply.slice(0, HUMAN_REPLY_MAX_CHARS);
    entry.settle(answer.by === undefined ? { reply } : { reply, by: answer.by });
    return true;
  }

  /** Fails every pending request (`REPL_ERR_CLOSED`) and takes no more: the browser ends. */
  close(): void {
    this.#closed = true;
    for (const entry of [...this.#pending.values()]) entry.settle(new ReplError('REPL_ERR_CLOSED', 'the browser ended while waiting for a person'));
    this.#listeners.clear();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

function abortReason(signal: AbortSignal): Error {
  // A registry error says why (the cell ended, the thread ended); anything else (a plain abort) is an abort.
  const reason: unknown = signal.reason;
  return reason instanceof ReplError ? reason : new ReplError('REPL_ERR_ABORTED', 'the caller stopped waiting for a person');
}
