/**
 * Named `diagnostics_channel`s: what happens inside the server, published where it happens and
 * read by whoever subscribes (the `/metrics` route of lib/http/metrics.ts; an embedder's own
 * tracing). As in undici (`lib/core/diagnostics.js`), publishing costs one property read when
 * nobody listens, so the modules that publish need not know about metrics.
 *
 * Every message is a plain object; the channel names and fields are public (docs/metrics.md).
 */
import diagnosticsChannel from 'node:diagnostics_channel';

/** A cell of a REPL ended: answered, failed, timed out or lost its worker. Not for cells refused before they ran. */
export interface CellFinishMessage {
  /** Milliseconds from the cell's turn in its REPL's queue to its answer. */
  durationMs: number;
  success: boolean;
  /** `REPL_ERR_*` of a failed cell, when it has one (`REPL_ERR_CELL_TIMEOUT` for a timeout). */
  errorCode: string | undefined;
  /** The REPL's worker ended with the cell (timeout, crash, memory cap). */
  replTerminated: boolean;
  /** The cell was interrupted (past its timeout, or on request) with its REPL kept (docs/lifecycle.md). */
  interrupted: boolean;
}

/** How a Playwright executor call ended. */
export type ExecuteOutcome = 'ok' | 'error' | 'timeout' | 'blocked' | 'crashed';

/** A call of a Playwright executor ended (`POST /playwright/execute`). */
export interface ExecuteFinishMessage {
  executor: string;
  durationMs: number;
  outcome: ExecuteOutcome;
}

/** A worker thread ended (a REPL's, an executor's). */
export interface WorkerExitMessage {
  /** The worker kind's name: `repl`, `executor`. */
  kind: string;
  workerId: string;
  /** `out-of-memory`, `uncaught`, `exit-code`, `destroyed` (lib/threads/worker-handle.ts `ExitCause`). */
  cause: string;
  /** With `out-of-memory`: which cap, `heap` or `external-memory`. */
  limit: string | undefined;
  /** Its owner ended it (`close()`, `destroy()`): a timeout, a reset, a shutdown, a protocol violation. */
  deliberate: boolean;
  /** It was ended for breaking the worker protocol (a corrupt message). */
  violation: boolean;
}

/** A Chromium this server launched is running (`relaunch`: it replaces one that exited). */
export interface ChromiumLaunchMessage {
  pid: number;
  relaunch: boolean;
}

/** A Chromium this server launched exited; `expected` when it was closed on purpose. */
export interface ChromiumExitMessage {
  pid: number;
  expected: boolean;
}

export const channels = {
  cellFinish: diagnosticsChannel.channel('browser-repl:cell:finish'),
  executeFinish: diagnosticsChannel.channel('browser-repl:execute:finish'),
  workerExit: diagnosticsChannel.channel('browser-repl:worker:exit'),
  chromiumLaunch: diagnosticsChannel.channel('browser-repl:chromium:launch'),
  chromiumExit: diagnosticsChannel.channel('browser-repl:chromium:exit'),
} as const;

/**
 * Publishes `message` when someone listens (a function is called only then). Node reports a
 * subscriber's exception as uncaught, on the next tick: subscribers must not throw
 * (lib/http/metrics.ts does not).
 */
export function publish<T extends object>(channel: diagnosticsChannel.Channel, message: T | (() => T)): void {
  if (!channel.hasSubscribers) return;
  channel.publish(typeof message === 'function' ? (message as () => T)() : message);
}
