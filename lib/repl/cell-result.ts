/** The result of one cell, as the library returns it and as it goes over HTTP (docs/repl.md, "Response"). */
import type { OutputChannel } from '../../common/protocol/repl-messages.js';
import type { components } from '../client/openapi-types.js';
import type { RestoreReport } from './declaration-journal.js';

export interface TextContent {
  type: 'text';
  channel: OutputChannel;
  text: string;
}

/** An image as the library returns it: raw bytes, base64-encoded only for the HTTP response. */
export interface ImageContent {
  type: 'image';
  mimeType: string;
  data: Buffer;
}

export type CellContent = TextContent | ImageContent;

export interface CellResult {
  success: boolean;
  /** Id of the worker that ran (or was destroyed by) this call. */
  replId: string;
  /** Absent only for reset-only calls. */
  content?: CellContent[];
  contentTruncated?: boolean;
  durationMs?: number;
  error?: string;
  stack?: string;
  /** `code` of the thrown value or of the host failure; not part of the HTTP response. */
  errorCode?: string;
  /** True only when this call destroyed the REPL; the next call gets a new `replId`. */
  replTerminated?: true;
  /**
   * True when the cell was stopped with the REPL kept, past its timeout (`REPL_ERR_CELL_TIMEOUT`)
   * or by an interrupt (`REPL_ERR_CELL_INTERRUPTED`): same `replId`, every binding that was
   * initialised still there (docs/lifecycle.md).
   */
  interrupted?: true;
  /**
   * The journal's declarations this call made again in a new worker, because the one they were
   * made in had died (`journal`, docs/repl.md "Re-teach after a crash"), and the names it could not.
   */
  restored?: RestoreReport;
}

// The HTTP shapes are openapi.json's (the generated types): the server cannot answer a field the
// contract does not have, and a change of the contract shows here as a type error.
export type WireTextContent = components['schemas']['BrowserReplTextContent'];
export type WireImageContent = components['schemas']['BrowserReplImageContent'];
/** `BrowserReplResult` of openapi.json. */
export type WireCellResult = components['schemas']['BrowserReplResult'];

/**
 * One content item in its HTTP shape. The JSON answer and the streamed `content` events both use
 * it, so a streamed item is always the same as its entry in the final `content`.
 */
export function toWireContent(item: CellContent): WireTextContent | WireImageContent {
  return item.type === 'text'
    ? { type: 'text', channel: item.channel, text: item.text }
    : { type: 'image', mime_type: item.mimeType, data_b64: item.data.toString('base64') };
}

/** Converts a library result to the HTTP shape; images are base64-encoded here and only here. */
export function toWireResult(result: CellResult): WireCellResult {
  const wire: WireCellResult = { success: result.success, repl_id: result.replId };
  if (result.content !== undefined) wire.content = result.content.map(toWireContent);
  if (result.contentTruncated !== undefined) wire.content_truncated = result.contentTruncated;
  if (result.durationMs !== undefined) wire.duration_ms = result.durationMs;
  if (result.error !== undefined) wire.error = result.error;
  if (result.stack !== undefined) wire.stack = result.stack;
  if (result.replTerminated === true) wire.repl_terminated = true;
  if (result.interrupted === true) wire.interrupted = true;
  if (result.restored !== undefined) {
    wire.restored = { bindings: [...result.restored.restored], not_restored: result.restored.notRestored.map(({ name, reason }) => ({ name, reason })) };
  }
  return wire;
}
