/**
 * Invocations of page tools on one browser connection: the checks made before anything is sent,
 * the waiters matched to Chromium's `WebMCP.toolResponded` by (session, invocation id), and how an
 * answer becomes Kernel's `{invocation_id, status, output?, error_text?}`.
 *
 * `toolResponded` is broadcast to every session of the target that enabled the domain (a REPL's
 * own `cdp()` session too; docs/webmcp.md, "How it works"), so answers are matched per
 * session. An answer that comes before anyone waits for it is kept (at most 256), and answers to invocations we gave up on are
 * dropped for 10 minutes, so a late one is never mistaken for a new one.
 */
import { ReplError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { timeoutMsOf, WEBMCP_TIMEOUT } from '../../common/timeout-sec.js';
import type { WebMcpInvocation } from '../../common/protocol/webmcp-messages.js';


const BUFFERED_RESPONSES = 256;
const ABANDONED_TTL_MS = 10 * 60_000;
const ABANDONED_MAX = 4096;

/** Checks `tool_ref`, `input` and `timeout_sec` the way the HTTP route does; returns the timeout in ms. */
export function checkInvocation(toolRef: unknown, input: unknown, timeoutSec: unknown): number {
  if (typeof toolRef !== 'string' || toolRef.length === 0 || [...toolRef].length > LIMITS.webmcpToolRefMaxChars) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `tool_ref must be a string of 1 to ${LIMITS.webmcpToolRefMaxChars} characters`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'input must be a JSON object (use {} for a tool without parameters)');
  }
  let json: string;
  try {
    json = JSON.stringify(input);
  } catch (error) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `input is not JSON-serialisable: ${(error as Error).message}`);
  }
  if (Buffer.byteLength(json) > LIMITS.webmcpInputBytes) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `input exceeds ${LIMITS.webmcpInputBytes} bytes as JSON`);
  }
  return timeoutMsOf(timeoutSec, WEBMCP_TIMEOUT);
}

/** `WebMCP.toolResponded` as Chromium 156 sends it. */
export interface ToolResponse {
  invocationId: string;
  status: string;
  output?: unknown;
  errorText?: string;
  exception?: { description?: string; objectId?: string };
}

/** Kernel's result of a response; an unknown status is our bug to report, not the page's. */
export function toInvocation(response: ToolResponse): WebMcpInvocation {
  const status = typeof response.status === 'string' ? response.status.toLowerCase() : '';
  if (status !== 'completed' && status !== 'canceled' && status !== 'error') {
    throw new ReplError('REPL_ERR_INTERNAL', `Chromium answered a page tool with the unknown status ${JSON.stringify(response.status)}`);
  }
  const invocation: WebMcpInvocation = { invocation_id: response.invocationId, status };
  if (status === 'completed') {
    let size = 0;
    try {
      size = Buffer.byteLength(JSON.stringify(response.output ?? null));
    } catch {
      size = Infinity;
    }
    if (size > LIMITS.webmcpOutputBytes) {
      return { invocation_id: response.invocationId, status: 'error', error_text: `the tool's output exceeds ${LIMITS.webmcpOutputBytes} bytes as JSON; it was dropped` };
    }
    invocation.output = response.output;
    return invocation;
  }
  const text = errorText(response);
  if (text !== undefined) invocation.error_text = text;
  return invocation;
}

/**
 * Chromium 156 leaves `errorText` empty when an imperative tool throws (docs/webmcp.md, "Differences
 * from Kernel"); the thrown
 * error is in `exception.description` ("Error: boom\n    at …"), whose first line we report.
 */
function errorText(response: ToolResponse): string | undefined {
  if (typeof response.errorText === 'string' && response.errorText !== '') return response.errorText;
  const description = response.exception?.description;
  if (typeof description !== 'string' || description === '') return undefined;
  return description.split('\n', 1)[0]!.slice(0, 4096);
}

interface Waiter {
  readonly resolve: (response: ToolResponse) => void;
}

/** Matches answers to waiters; one per browser connection. */
export class InvocationBook {
  readonly #waiters = new Map<string, Waiter>();
  readonly #early = new Map<string, ToolResponse>();
  readonly #abandoned = new Map<string, number>();

  /** An answer arrived. Returns the exception's object id to release when nobody will read it. */
  responded(sessionId: string, response: ToolResponse): void {
    const key = `${sessionId}:${response.invocationId}`;
    const waiter = this.#waiters.get(key);
    if (waiter !== undefined) {
      this.#waiters.delete(key);
      waiter.resolve(response);
      return;
    }
    if (this.#isAbandoned(key)) return;
    this.#early.set(key, response);
    if (this.#early.size > BUFFERED_RESPONSES) this.#early.delete(this.#early.keys().next().value!);
  }

  /** Waits for the answer to `invocationId` on `sessionId` (or takes the one already here). */
  wait(sessionId: string, invocationId: string): { response: Promise<ToolResponse>; cancel: () => void } {
    const key = `${sessionId}:${invocationId}`;
    const early = this.#early.get(key);
    if (early !== undefined) {
      this.#early.delete(key);
      return { response: Promise.resolve(early), cancel: () => {} };
    }
    let resolve!: (response: ToolResponse) => void;
    const response = new Promise<ToolResponse>((settle) => {
      resolve = settle;
    });
    this.#waiters.set(key, { resolve });
    return { response, cancel: () => this.#waiters.delete(key) };
  }

  /** We stopped waiting: a later answer is dropped, not kept for nobody. */
  abandon(sessionId: string, invocationId: string): void {
    const key = `${sessionId}:${invocationId}`;
    this.#waiters.delete(key);
    this.#abandoned.set(key, Date.now() + ABANDONED_TTL_MS);
    if (this.#abandoned.size > ABANDONED_MAX) this.#abandoned.delete(this.#abandoned.keys().next().value!);
  }

  #isAbandoned(key: string): boolean {
    const until = this.#abandoned.get(key);
    if (until === undefined) return false;
    if (until < Date.now()) {
      this.#abandoned.delete(key);
      return false;
    }
    return true;
  }
}

/** The error of an invocation whose result could not be observed (HTTP 504; Kernel's `outcome_unknown`). */
export function outcomeUnknown(toolName: string, why: string, invocationId?: string): ReplError {
  const data: Record<string, unknown> = { outcomeUnknown: true };
  if (invocationId !== undefined) data['invocationId'] = invocationId;
  return new ReplError('REPL_ERR_WEBMCP_OUTCOME_UNKNOWN',
    `the result of page tool "${toolName}" could not be observed: ${why}. It may or may not have run; do not retry automatically, look at the page first`,
    { data });
}
