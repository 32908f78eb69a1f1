/**
 * The files of one tool session's workspace (screenshots/, downloads/, snapshots/) as MCP
 * resources: `browser-repl://workspace/{+path}`, listed per MCP session, read as text (.txt, .md,
 * .json) or as a base64 blob with its MIME type. A path that leaves the workspace, through `..`,
 * an absolute path or a symbolic link, is refused.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { Workspace } from '../tools/workspace.js';

export const WORKSPACE_URI_PREFIX = 'browser-repl://workspace/';
export const WORKSPACE_URI_TEMPLATE = `${WORKSPACE_URI_PREFIX}{+path}`;

/** JSON-RPC code of an unknown resource (the MCP specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

/** Files listed per session at most: a download-heavy session must not produce a huge listing. */
const MAX_LISTED = 500;

const TEXT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
};

const BINARY_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.zip': 'application/zip',
};

export function mimeTypeOf(path: string): string {
  const extension = extname(path).toLowerCase();
  return TEXT_TYPES[extension] ?? BINARY_TYPES[extension] ?? 'application/octet-stream';
}

/** The resource URI of a workspace-relative path (each segment percent-encoded). */
export function workspaceUri(relativePath: string): string {
  return WORKSPACE_URI_PREFIX + relativePath.split(/[\\/]/).map(encodeURIComponent).join('/');
}

/** The workspace-relative form of a path the tool service returned (absolute, or already relative). */
export function workspaceRelative(workspace: string, path: string): string {
  return (isAbsolute(path) ? relative(workspace, path) : path).split(sep).join('/');
}

/** Every file of the workspace, depth first, sorted, at most {@link MAX_LISTED}. */
export async function listWorkspace(workspace: string): Promise<Resource[]> {
  const found: Resource[] = [];
  const visit = async (folder: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return; // not created yet (nothing saved), or removed with the session
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (found.length >= MAX_LISTED) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        await visit(path);
      } else if (entry.isFile()) {
        const name = workspaceRelative(workspace, path);
        const info = await stat(path).catch(() => undefined);
        found.push({
          uri: workspaceUri(name),
          name,
          mimeType: mimeTypeOf(name),
          ...(info === undefined ? {} : { size: info.size, annotations: { lastModified: info.mtime.toISOString() } }),
        });
      }
    }
  };
  await visit(workspace);
  return found;
}

/**
 * Follows a workspace for one MCP session: after each tool call, `changes()` says whether the
 * listing changed (new, grown or removed files) and which subscribed URIs changed since the
 * previous look, so the server can send `notifications/resources/list_changed` and `…/updated`.
 */
export class WorkspaceWatch {
  readonly #workspace: () => string;
  #listing = '';
  /** Subscribed URI → its file's version (`size@mtime`) when last seen, or '' when absent. */
  readonly #subscribed = new Map<string, string>();

  constructor(workspace: () => string) {
    this.#workspace = workspace;
  }

  async subscribe(uri: string): Promise<void> {
    if (!uri.startsWith(WORKSPACE_URI_PREFIX)) {
      throw new McpError(ErrorCode.InvalidParams, `only ${WORKSPACE_URI_TEMPLATE} resources can be subscribed to, not ${JSON.stringify(uri)}`);
    }
    const versions = await this.#versions();
    this.#subscribed.set(uri, versions.get(uri) ?? '');
  }

  unsubscribe(uri: string): void {
    this.#subscribed.delete(uri);
  }

  async changes(): Promise<{ listChanged: boolean; updated: string[] }> {
    const versions = await this.#versions();
    const listing = [...versions].map(([uri, version]) => `${uri} ${version}`).join('\n');
    const listChanged = listing !== this.#listing;
    this.#listing = listing;
    const updated: string[] = [];
    for (const [uri, seen] of this.#subscribed) {
      const now = versions.get(uri) ?? '';
      if (now !== seen) {
        this.#subscribed.set(uri, now);
        updated.push(uri);
      }
    }
    return { listChanged, updated };
  }

  async #versions(): Promise<Map<string, string>> {
    const files = await listWorkspace(this.#workspace());
    return new Map(files.map((file) => [file.uri, `${file.size ?? 0}@${file.annotations?.lastModified ?? ''}`]));
  }
}

/** Reads one workspace file named by its URI's `path` variable. */
export async function readWorkspaceFile(workspace: string, uri: URL, pathVariable: string | string[] | undefined): Promise<ReadResourceResult> {
  const raw = Array.isArray(pathVariable) ? pathVariable.join('/') : pathVariable ?? '';
  let path: string;
  try {
    path = raw.split('/').map((segment) => decodeURIComponent(segment)).join('/');
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `invalid resource path ${JSON.stringify(raw)}`);
  }
  const file = await insideWorkspace(workspace, path);
  const mimeType = mimeTypeOf(path);
  const bytes = await readFile(file);
  const text = TEXT_TYPES[extname(path).toLowerCase()] !== undefined;
  return {
    contents: [text
      ? { uri: uri.href, mimeType, text: bytes.toString('utf8') }
      : { uri: uri.href, mimeType, blob: bytes.toString('base64') }],
  };
}

/** The real path of `path` when it names a regular file inside the workspace; an MCP error otherwise. */
async function insideWorkspace(workspace: string, path: string): Promise<string> {
  if (path === '' || isAbsolute(path)) throw new McpError(ErrorCode.InvalidParams, `resource path ${JSON.stringify(path)} is outside the session's workspace`);
  let file: string;
  try {
    // The tool service's own check: `..`, other absolute paths and links leading out are refused.
    file = new Workspace(workspace).resolve(path, 'resource path');
  } catch (error) {
    throw new McpError(ErrorCode.InvalidParams, (error as Error).message);
  }
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch {
    throw new McpError(RESOURCE_NOT_FOUND, `no file ${JSON.stringify(path)} in the session's workspace`, { uri: workspaceUri(path) });
  }
  if (!info.isFile()) throw new McpError(RESOURCE_NOT_FOUND, `${JSON.stringify(path)} is not a file of the session's workspace`, { uri: workspaceUri(path) });
  return file;
}
