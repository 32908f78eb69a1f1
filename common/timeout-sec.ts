/**
 * The one check of a `timeout_sec`: its default when absent, its range, and its conversion to
 * milliseconds, made once where a request enters (an HTTP route, a library call, an MCP tool) and
 * never again below it. The ranges and refusals are the contract's (docs/repl.md, docs/playwright.md,
 * docs/webmcp.md); the numbers live in `LIMITS`.
 */
import { ReplError } from './errors.js';
import type { ErrorCode } from './errors.js';
import { LIMITS } from './limits.js';

/** The bounds of one kind of `timeout_sec`, and the words of its refusal. */
export interface TimeoutRange {
  readonly min: number;
  readonly max: number;
  readonly defaultSec: number;
  readonly refusal: string;
}

/** A cell's and a Playwright executor call's `timeout_sec`. */
export const CELL_TIMEOUT: TimeoutRange = Object.freeze({
  min: LIMITS.timeoutSecMin,
  max: LIMITS.timeoutSecMax,
  defaultSec: LIMITS.timeoutSecDefault,
  refusal: `timeout_sec must be between ${LIMITS.timeoutSecMin} and ${LIMITS.timeoutSecMax}`,
});

/** A WebMCP invocation's `timeout_sec` (Kernel's range and wording). */
export const WEBMCP_TIMEOUT: TimeoutRange = Object.freeze({
  min: LIMITS.webmcpTimeoutSecMin,
  max: LIMITS.webmcpTimeoutSecMax,
  defaultSec: LIMITS.webmcpTimeoutSecDefault,
  refusal: `timeout_sec must be an integer from ${LIMITS.webmcpTimeoutSecMin} to ${LIMITS.webmcpTimeoutSecMax}`,
});

/** A hand-over request's `timeout_sec` (`requestHuman`, `browser_request_human`). */
export const HUMAN_TIMEOUT: TimeoutRange = Object.freeze({
  min: LIMITS.humanTimeoutSecMin,
  max: LIMITS.humanTimeoutSecMax,
  defaultSec: LIMITS.humanTimeoutSecDefault,
  refusal: `timeout_sec must be an integer from ${LIMITS.humanTimeoutSecMin} to ${LIMITS.humanTimeoutSecMax}`,
});

/**
 * `timeoutSec` in milliseconds: the range's default when it is undefined, else an integer within
 * the range, else a `code` error (400 `REPL_ERR_INVALID_REQUEST` unless told) naming `timeout_sec`.
 */
export function timeoutMsOf(timeoutSec: unknown, range: TimeoutRange, code: ErrorCode = 'REPL_ERR_INVALID_REQUEST'): number {
  if (timeoutSec === undefined) return range.defaultSec * 1000;
  if (typeof timeoutSec !== 'number' || !Number.isInteger(timeoutSec) || timeoutSec < range.min || timeoutSec > range.max) {
    throw new ReplError(code, range.refusal);
  }
  return timeoutSec * 1000;
}
