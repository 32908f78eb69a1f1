/**
 * A REPL's trace on the main thread (docs/trace.md): read from its worker (the `trace` tool
 * operation, queued with its cells), exported (common/trace/export-script.ts), replayed when asked
 * (replay.ts), and shaped for the wire (`TraceExport` of openapi.json). `GET /repl/trace` and the
 * MCP tool `browser_export_script` both answer this.
 */
import { exportTrace } from '../../common/trace/export-script.js';
import { replayTrace } from './replay.js';

import type { TraceEntry } from '../../common/trace/trace-types.js';
import type { TraceReplay } from './replay.js';

/** What the worker answers for a trace. */
export interface RawTrace {
  entries: TraceEntry[];
  dropped: number;
  secrets?: Record<string, string>;
}

/** One entry as the wire writes it (snake_case). */
export interface WireTraceEntry {
  seq: number;
  at: string;
  source: 'cell' | 'tool';
  action: string;
  asked: string;
  args: Record<string, unknown>;
  target?: Record<string, unknown>;
  page: { tab: string; url: string };
  opened?: string;
  ok: boolean;
  error?: string;
  duration_ms: number;
  secret_env?: string;
}

/** `TraceExport` of openapi.json. */
export interface WireTraceExport {
  entries: WireTraceEntry[];
  dropped: number;
  playwright_test: string;
  repl_script: string;
  env: string[];
  omitted: { failed: number; superseded: number; unsupported: number };
  replay?: TraceReplay;
}

function toWireEntry(entry: TraceEntry): WireTraceEntry {
  const wire: WireTraceEntry = {
    seq: entry.seq, at: entry.at, source: entry.source, action: entry.action, asked: entry.asked, args: entry.args,
    page: { tab: entry.page.tab, url: entry.page.url }, ok: entry.ok, duration_ms: entry.durationMs,
  };
  if (entry.target !== undefined) {
    const { testId, ...rest } = entry.target;
    wire.target = testId === undefined ? { ...rest } : { test_id: testId, ...rest };
  }
  if (entry.opened !== undefined) wire.opened = entry.opened;
  if (entry.error !== undefined) wire.error = entry.error;
  if (entry.secretEnv !== undefined) wire.secret_env = entry.secretEnv;
  return wire;
}

/** Exports a trace read from a worker; with `replay`, runs the steps once in a fresh browser. */
export async function exportRawTrace(raw: RawTrace, options: { replay?: boolean; title?: string; executable?: string } = {}): Promise<WireTraceExport> {
  const exported = exportTrace(raw.entries, { dropped: raw.dropped, ...(options.title === undefined ? {} : { title: options.title }) });
  const wire: WireTraceExport = {
    entries: exported.entries.map(toWireEntry),
    dropped: exported.dropped,
    playwright_test: exported.playwright,
    repl_script: exported.repl,
    env: exported.env,
    omitted: exported.omitted,
  };
  if (options.replay === true) wire.replay = await replayTrace(raw.entries, raw.secrets ?? {}, options.executable === undefined ? {} : { executable: options.executable });
  return wire;
}
