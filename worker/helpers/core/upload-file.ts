/**
 * `uploadFile(target, pathOrPaths, {timeoutSec = 10}?)`: sets the files of an `<input type=file>`
 * with `DOM.setFileInputFiles` (Chromium then fires `input` and `change` itself).
 *
 * Better than the hosted product (browser-helpers.md §12, §18): a selector waits until it matches
 * (instead of failing at once), must match a file input (a clear error names what it matched
 * instead), and several file inputs resolve to the one visible match or fail rather than silently
 * taking the first, possibly hidden, one. Paths are made absolute and, when the browser runs on
 * this machine, checked to exist, so a typo fails here and not as a silent empty upload.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readElementTarget, readOptions } from '../helper-options.js';
import { assertPageResponsive, guardDialog } from './page-guard.js';
import { delay } from './timing.js';

import type { HelperContext } from '../helper-context.js';

const DEFAULT_TIMEOUT_SEC = 10;
const POLL_MS = 50;
const OBJECT_GROUP = 'browser-repl-upload';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

// Returns the input element, or a status string. Runs in the page; keep it self-contained.
const RESOLVE_UPLOAD_TARGET = `(function resolveUploadTarget(selector, fileCount) {
  const matches = Array.from(document.querySelectorAll(selector));
  if (matches.length === 0) return 'not found';
  const inputs = matches.filter((element) => element.localName === 'input' && element.type === 'file');
  if (inputs.length === 0) return 'wrong element:' + matches[0].localName + (matches[0].type ? '[type=' + matches[0].type + ']' : '');
  let input = inputs[0];
  if (inputs.length > 1) {
    const visible = inputs.filter((element) => element.getClientRects().length > 0 &&
      (typeof element.checkVisibility !== 'function' || element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })));
    if (visible.length !== 1) return 'multiple:' + inputs.length;
    input = visible[0];
  }
  if (input.disabled) return 'disabled';
  if (fileCount > 1 && !input.multiple) return 'single';
  return input;
})`;

function readPaths(value: unknown): string[] {
  const paths = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((path) => typeof path === 'string' && path !== '')) {
    throw invalidArgument('uploadFile requires a VM-local file path or a non-empty array of paths');
  }
  return paths.map((path: string) => resolve(path));
}

/** True unless CDP_ENDPOINT points at another machine (then its paths are not ours to check). */
function browserIsLocal(): boolean {
  const endpoint = process.env['CDP_ENDPOINT'];
  if (endpoint === undefined || endpoint === '') return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(endpoint).hostname);
  } catch {
    return true;
  }
}

async function assertFilesExist(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile()) throw invalidArgument(`uploadFile: no such file: ${path}`);
  }
}

export function createUploadHelpers(context: HelperContext) {
  const { client } = context;

  async function uploadToNode(sessionId: string, backendNodeId: number, files: string[]): Promise<void> {
    let node;
    try {
      ({ node } = await client.send('DOM.describeNode', { backendNodeId }, context.callOptions({ sessionId })));
    } catch (error) {
      throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `uploadFile: backend node ${backendNodeId} no longer exists (take a new snapshot)`, { cause: error });
    }
    // Attributes come as a flat [name, value, name, value, …] list.
    const attributes = node.attributes ?? [];
    let type: string | undefined;
    for (let i = 0; i + 1 < attributes.length; i += 2) if (attributes[i]?.toLowerCase() === 'type') type = attributes[i + 1];
    if (node.localName !== 'input' || type?.toLowerCase() !== 'file') {
      throw invalidArgument(`uploadFile: backend node ${backendNodeId} is a <${node.localName}>, not an <input type=file>`);
    }
    await client.send('DOM.setFileInputFiles', { backendNodeId, files }, context.callOptions({ sessionId }));
  }

  async function uploadToSelector(sessionId: string, selector: string, files: string[], timeoutSec: number): Promise<void> {
    const deadline = context.waitDeadline(timeoutSec * 1000);
    const expression = `${RESOLVE_UPLOAD_TARGET}(${JSON.stringify(selector)}, ${files.length})`;
    let status = 'not found';
    try {
      for (;;) {
        const { result, exceptionDetails } = await guardDialog('uploadFile', context, sessionId, () =>
          client.send('Runtime.evaluate', { expression, returnByValue: false, objectGroup: OBJECT_GROUP }, context.callOptions({ sessionId })),
        );
        if (exceptionDetails !== undefined) {
          throw invalidArgument(`uploadFile: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        }
        if (result.objectId !== undefined) {
          await client.send('DOM.setFileInputFiles', { objectId: result.objectId, files }, context.callOptions({ sessionId }));
          return;
        }
        status = String(result.value);
        if (status.startsWith('wrong element:')) {
          throw invalidArgument(`uploadFile: selector ${JSON.stringify(selector)} matches a <${status.slice('wrong element:'.length)}>, not an <input type=file>`);
        }
        if (status.startsWith('multiple:')) {
          throw invalidArgument(`uploadFile: selector ${JSON.stringify(selector)} matches ${status.slice('multiple:'.length)} file inputs; use a more specific selector`);
        }
        if (status === 'single') {
          throw invalidArgument(`uploadFile: the file input matching ${JSON.stringify(selector)} accepts one file (no "multiple" attribute), got ${files.length}`);
        }
        const left = deadline - Date.now();
        if (left <= 0 || !(await delay(Math.min(POLL_MS, left), context.signal))) break;
        // A clamped deadline is also where CDP commands stop being sent: no check past it.
        if (Date.now() >= deadline) break;
      }
    } finally {
      client.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, context.callOptions({ sessionId })).catch(() => {});
    }
    const why = status === 'disabled' ? 'the file input stayed disabled' : `no element matches selector: ${selector}`;
    throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `uploadFile: ${why} (waited ${timeoutSec}s)`, { data: { selector, status } });
  }

  /** Puts `pathOrPaths` into the file input `target` (selector or accessibility node). */
  async function uploadFile(target: unknown, pathOrPaths: unknown, options?: unknown): Promise<void> {
    const element = readElementTarget('uploadFile', target);
    if (element === null) throw invalidArgument('uploadFile: target must be a selector or accessibility node');
    const files = readPaths(pathOrPaths);
    const opts = readOptions('uploadFile', options, ['timeoutSec']);
    const timeoutSec = nonNegativeSeconds('uploadFile', opts['timeoutSec'], DEFAULT_TIMEOUT_SEC);
    if (browserIsLocal()) await assertFilesExist(files);
    const sessionId = await client.ensureAttached(context.callOptions());
    if (client.pendingDialog !== null || !client.rendererResponsive) await assertPageResponsive('uploadFile', context);
    if (element.kind === 'node') await uploadToNode(sessionId, element.backendNodeId, files);
    else await uploadToSelector(sessionId, element.selector, files, timeoutSec);
  }

  return { uploadFile };
}
