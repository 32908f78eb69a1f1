/**
 * The one response builder of the MCP tools (Playwright MCP's `Response` is the model): a tool
 * adds text, images and links to workspace files, or reports an error, and `build()` makes the
 * `CallToolResult`. A thrown error becomes an `isError` result whose text the model reads, never
 * a protocol error: a refused navigation or a stale ref is something the model can act on.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isErrorCode } from '../../common/errors.js';

type ContentBlock = CallToolResult['content'][number];

/** A file of the session's workspace, offered as an MCP resource link. */
export interface FileLink {
  uri: string;
  /** The workspace-relative path. */
  name: string;
  mimeType: string;
  size?: number;
}

export class ToolResponse {
  readonly #content: ContentBlock[] = [];
  #isError = false;

  /** Appends a text block; empty text is left out. */
  text(text: string): this {
    if (text !== '') this.#content.push({ type: 'text', text });
    return this;
  }

  /** Appends an image (base64 on the wire: the bytes are encoded here and only here). */
  image(data: Buffer, mimeType: string): this {
    this.#content.push({ type: 'image', data: data.toString('base64'), mimeType });
    return this;
  }

  /** Appends a link to a file of the workspace, readable with `resources/read`. */
  link(file: FileLink): this {
    this.#content.push({
      type: 'resource_link',
      uri: file.uri,
      name: file.name,
      mimeType: file.mimeType,
      ...(file.size === undefined ? {} : { size: file.size }),
    });
    return this;
  }

  /** Marks the result as failed and appends the message (after whatever content came first). */
  error(message: string): this {
    this.#isError = true;
    return this.text(message);
  }

  /** Marks the result as failed with the text of what was thrown. */
  fail(error: unknown): this {
    return this.error(errorText(error));
  }

  get failed(): boolean {
    return this.#isError;
  }

  build(): CallToolResult {
    const content = this.#content.length > 0 ? [...this.#content] : [{ type: 'text' as const, text: this.#isError ? 'failed' : 'done' }];
    return this.#isError ? { content, isError: true } : { content };
  }
}

/** What the model reads for a thrown value: a registry error's message as is, anything else with its name. */
export function errorText(error: unknown): string {
  // Matched on the code, not on `instanceof` (errors rebuilt from a worker are ReplErrors by code).
  if (error instanceof Error && isErrorCode((error as { code?: unknown }).code)) return error.message;
  if (error instanceof Error) return `${error.name === 'Error' ? 'error' : error.name}: ${error.message}`;
  return `error: ${String(error)}`;
}
