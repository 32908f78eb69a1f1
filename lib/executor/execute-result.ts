/**
 * What an execute call and an executor listing return to library callers, and their snake_case
 * wire forms (`ExecutePlaywrightResult`, `PlaywrightExecutor` in openapi.json).
 */
import type { components } from '../client/openapi-types.js';

/** The tab `page` was bound to for a call. */
export interface PlaywrightTab {
  /** CDP page target id. */
  targetId: string;
  /** This call opened the tab (a named executor's first call or a reopened tab; the default executor only when no page existed). */
  created: boolean;
}

/** Outcome of one execute call. Failures of the code itself are `success: false`, never a rejection. */
export interface PlaywrightExecuteResult {
  success: boolean;
  /** The returned value after a JSON round trip (`null` for `undefined`); only on success. */
  result?: unknown;
  error?: string;
  /** What the code wrote with `console.log`/`info`/`debug`/`dir`/`table`. */
  stdout: string;
  /** What the code wrote with `console.error`/`warn`/`trace`, then the error's stack on failure. */
  stderr: string;
  /** Absent when the call failed before a tab was bound. */
  tab?: PlaywrightTab;
}

/**
 * One console write of a running call, passed to `onOutput` as it happens: the call's `stdout`
 * or `stderr` is these chunks joined (on failure `stderr` then gets the error's stack, which is
 * not streamed).
 */
export interface PlaywrightOutput {
  channel: 'stdout' | 'stderr';
  text: string;
}

/** One executor in a listing. */
export interface PlaywrightExecutorInfo {
  name: string;
  /** A call is running on it. */
  busy: boolean;
  createdAt: Date;
  /** When the most recent call was admitted (equals `createdAt` before the first call). */
  lastUsedAt: Date;
  /** Named executors, once they own a tab. */
  targetId?: string;
  /** Current URL of that tab, when the browser reports it. */
  url?: string;
}

/** `ExecutePlaywrightResult` of openapi.json (the generated type). */
export type WireExecuteResult = components['schemas']['ExecutePlaywrightResult'];
/** `PlaywrightExecutor` of openapi.json (the generated type). */
export type WireExecutor = components['schemas']['PlaywrightExecutor'];

/** The HTTP body of an execute call (`ExecutePlaywrightResult`). */
export function toWireExecuteResult(result: PlaywrightExecuteResult): WireExecuteResult {
  return {
    success: result.success,
    ...(result.success ? { result: result.result ?? null } : {}),
    ...(result.error === undefined ? {} : { error: result.error }),
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.tab === undefined ? {} : { tab: { target_id: result.tab.targetId, created: result.tab.created } }),
  };
}

/** One entry of `GET /playwright/executors` (`PlaywrightExecutor`). */
export function toWireExecutor(info: PlaywrightExecutorInfo): WireExecutor {
  const wire: WireExecutor = {
    name: info.name,
    busy: info.busy,
    created_at: info.createdAt.toISOString(),
    last_used_at: info.lastUsedAt.toISOString(),
  };
  if (info.targetId !== undefined) wire.target_id = info.targetId;
  if (info.url !== undefined) wire.url = info.url;
  return wire;
}
