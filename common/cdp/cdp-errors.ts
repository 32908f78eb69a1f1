/**
 * Messages and error builders shared by the CDP connection and client. The message texts are
 * part of the contract (docs/errors.md, docs/browser-helpers.md "Browser restarts"): tests match
 * them verbatim.
 */

import { ReplError } from '../errors.js';

import type { ErrorCode } from '../errors.js';

/** Message of every command and waiter rejected because the connection went away. */
export const CONNECTION_CLOSED_MESSAGE = 'CDP connection closed';

/** Appended to a session command's timeout while the attached renderer looks frozen. */
export const RENDERER_HINT =
  ' (the page renderer is unresponsive — a modal JavaScript dialog may be blocking it; recover with cdp("Page.handleJavaScriptDialog", { accept: true }) or cdp("Page.reload"))';

/** Appended to the timeout of a command that is not on the safe-retry list. */
export const OUTCOME_UNKNOWN_SUFFIX = ' (outcome unknown; command was not retried)';

/** Appended when the execution deadline, not the command's own timeout, set the bound. */
export const BOUNDED_SUFFIX = ' (bounded by the execution timeout)';

/** `data` carried by CDP errors; all keys optional. */
export interface CdpErrorData extends Record<string, unknown> {
  method?: string;
  /** The connection closed while the command was pending (or before it could be written). */
  connectionClosedBeforeResponse?: boolean;
  /** The frame was never written to the socket, so the command certainly did not run. */
  notSent?: boolean;
  /** The command may or may not have run. */
  outcomeUnknown?: boolean;
}

/**
 * Where a call was made: a stack captured up front, for failures that are not built in the
 * caller's async continuation (event waiters, which settle from the message handler). Commands
 * need none: CdpConnection builds their errors in the caller's continuation.
 */
export interface CallSite {
  readonly stack?: string | undefined;
}

/**
 * Records where a waiter was armed, so the error built when it fails points at the caller, not at
 * the socket's message handler (house style 8). `Error.captureStackTrace` drops `skip` and every
 * frame above it.
 */
export function captureCallSite(skip: (...args: never[]) => unknown): CallSite {
  // A plain holder: `new Error()` would walk the stack once more before captureStackTrace does.
  const site: { stack?: string } = {};
  Error.captureStackTrace(site, skip);
  return site;
}

/** Builds a registry error whose stack is the stack recorded in `site`. */
export function errorAtCallSite(
  site: CallSite,
  code: ErrorCode,
  message: string,
  options: { cause?: unknown; data?: CdpErrorData } = {},
): ReplError {
  const error = new ReplError(code, message, options);
  const stack = site.stack ?? '';
  const firstFrame = stack.indexOf('\n');
  error.stack = `${error.name}: ${message}${firstFrame === -1 ? '' : stack.slice(firstFrame)}`;
  return error;
}

/** `CDP <method> could not run: the execution deadline has already been reached`. */
export function deadlineReachedMessage(method: string): string {
  return `CDP ${method} could not run: the execution deadline has already been reached`;
}

function errorData(error: unknown): CdpErrorData | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = (error as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as CdpErrorData) : undefined;
}

/** The registry code of `error`, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the connection closed before `error`'s command was answered. */
export function isClosedBeforeResponse(error: unknown): boolean {
  return errorCode(error) === 'REPL_ERR_CDP_DISCONNECTED' && errorData(error)?.connectionClosedBeforeResponse === true;
}

/** True when `error`'s command was never written to the socket. */
export function wasNotSent(error: unknown): boolean {
  return errorData(error)?.notSent === true;
}

/** The `CdpOutcomeUnknown` error: a non-idempotent command lost its answer and was not retried. */
export function outcomeUnknownError(method: string, cause: unknown): ReplError {
  return new ReplError(
    'REPL_ERR_CDP_OUTCOME_UNKNOWN',
    `CDP ${method} outcome is unknown because the connection closed before its response; the command was not retried`,
    { cause, data: { method, outcomeUnknown: true, connectionClosedBeforeResponse: true } },
  );
}
