/**
 * `uploadFile(target, pathOrPaths, {timeoutSec = 10}?)`: sets the files of an `<input type=file>`
 * with `DOM.setFileInputFiles` (Chromium then fires `input` and `change` itself).
 *
 * Better than the hosted product (docs/browser-helpers.md, "uploadFile"): a selector or semantic target
 * (`{label}`, `{role, name}`, `{text}`; a label stands for its control) waits until it matches
 * (instead of failing at once), is searched in open shadow roots and same-origin iframes as the
 * interaction helpers search, must match a file input (a clear error names what it matched
 * instead), and several file inputs resolve to the one visible match or fail rather than silently
 * taking the first, possibly hidden, one. Hidden file inputs are the common case (a styled label
 * or button stands in for them), so a single match counts whether visible or not. Paths are made
 * absolute and, when the browser runs on this machine, checked to exist, so a typo fails here and
 * not as a silent empty upload.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';
import { invalidSelectorError } from '../interaction/action-errors.js';
import { describeForTrace } from '../interaction/describe-target.js';
import { readTarget, targetLabel } from '../interaction/element-target.js';
import { TargetProbe } from '../interaction/resolve-target.js';
import { PAGE_LIBRARY } from '../interaction/page-library.js';
import { assertPageResponsive, guardDialog } from './page-guard.js';
import { delay } from './timing.js';

import type { HelperContext } from '../helper-context.js';
import type { ElementTarget } from '../interaction/element-target.js';

const DEFAULT_TIMEOUT_SEC = 10;
const POLL_MS = 50;
const OBJECT_GROUP = 'browser-repl-upload';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Why the page-side resolver found no file input to use (its JSON answer). */
interface UploadStatus {
  status: 'not found' | 'wrong element' | 'multiple' | 'disabled' | 'single' | 'invalid selector';
  element?: string;
  count?: number;
  candidates?: string[];
  message?: string;
}

/**
 * Page side: the file input of a selector or semantic query as a remote object, or a JSON
 * `UploadStatus` string (a string comes back by value, the element as an object id).
 */
const RESOLVE_UPLOAD_TARGET = String.raw`function resolveUploadTarget(target, fileCount) {
  'use strict';
  ${PAGE_LIBRARY}
  const matches = allMatches(target);
  if (matches.invalid !== undefined) return JSON.stringify({ status: 'invalid selector', message: matches.invalid });
  const elements = [];
  for (let i = 0; i < matches.length; i++) {
    // A label (a {text} or {label} match, or a selector) stands for its control.
    const el = matches[i].localName === 'label' && matches[i].control ? matches[i].control : matches[i];
    if (elements.indexOf(el) === -1) elements.push(el);
  }
  if (elements.length === 0) return JSON.stringify({ status: 'not found' });
  const inputs = [];
  for (let i = 0; i < elements.length; i++) if (elements[i].localName === 'input' && elements[i].type === 'file') inputs.push(elements[i]);
  if (inputs.length === 0) return JSON.stringify({ status: 'wrong element', element: elements[0].localName + (elements[0].type ? '[type=' + elements[0].type + ']' : '') });
  let input = inputs[0];
  if (inputs.length > 1) {
    const visible = [];
    for (let i = 0; i < inputs.length; i++) if (isVisible(inputs[i])) visible.push(inputs[i]);
    if (visible.length !== 1) {
      const candidates = [];
      for (let i = 0; i < inputs.length && i < MAX_LISTED_MATCHES; i++) candidates.push(describeMatch(inputs[i]));
      return JSON.stringify({ status: 'multiple', count: inputs.length, candidates: candidates });
    }
    input = visible[0];
  }
  if (input.disabled) return JSON.stringify({ status: 'disabled' });
  if (fileCount > 1 && !input.multiple) return JSON.stringify({ status: 'single' });
  return input;
}`;

/** A selector as the upload messages always quoted it (JSON), any other target by its label. */
function uploadLabel(target: ElementTarget): string {
  return target.kind === 'selector' ? `selector ${JSON.stringify(target.selector)}` : targetLabel(target);
}

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

  async function uploadToNode(sessionId: string, backendNodeId: number, label: string, files: string[]): Promise<void> {
    let node;
    try {
      ({ node } = await client.send('DOM.describeNode', { backendNodeId }, context.callOptions({ sessionId })));
    } catch (error) {
      throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `uploadFile: ${label} no longer exists (take a new snapshot)`, { cause: error });
    }
    // Attributes come as a flat [name, value, name, value, …] list.
    const attributes = node.attributes ?? [];
    let type: string | undefined;
    for (let i = 0; i + 1 < attributes.length; i += 2) if (attributes[i]?.toLowerCase() === 'type') type = attributes[i + 1];
    if (node.localName !== 'input' || type?.toLowerCase() !== 'file') {
      throw invalidArgument(`uploadFile: ${label} is a <${node.localName}>, not an <input type=file>`);
    }
    await client.send('DOM.setFileInputFiles', { backendNodeId, files }, context.callOptions({ sessionId }));
  }

  /** Throws the error of a status that waiting cannot fix; returns for those worth polling again. */
  function failFast(target: ElementTarget, status: UploadStatus, files: readonly string[]): void {
    const label = uploadLabel(target);
    switch (status.status) {
      case 'invalid selector': // Only a selector has a syntax the page can reject.
        throw invalidSelectorError('uploadFile', target.kind === 'selector' ? target.selector : label, String(status.message));
      case 'wrong element':
        throw invalidArgument(`uploadFile: ${label} matches a <${String(status.element)}>, not an <input type=file>`);
      case 'multiple':
        if (target.kind === 'selector') throw invalidArgument(`uploadFile: ${label} matches ${status.count} file inputs; use a more specific selector`);
        throw invalidArgument(`uploadFile: ${label} matches ${status.count} file inputs (${(status.candidates ?? []).join(', ')}) and not exactly one of them is visible; use a more specific target`);
      case 'single':
        throw invalidArgument(`uploadFile: the file input matching ${target.kind === 'selector' ? JSON.stringify(target.selector) : label} accepts one file (no "multiple" attribute), got ${files.length}`);
      default:
    }
  }

  async function uploadToMatch(sessionId: string, target: ElementTarget, files: string[], timeoutSec: number): Promise<void> {
    const deadline = context.waitDeadline(timeoutSec * 1000);
    const first = target.kind === 'selector' ? target.selector : target.kind === 'semantic' ? target.query : null;
    const expression = `(${RESOLVE_UPLOAD_TARGET})(${JSON.stringify(first)}, ${files.length})`;
    let status: UploadStatus = { status: 'not found' };
    try {
      for (;;) {
        const { result, exceptionDetails } = await guardDialog('uploadFile', context, sessionId, () =>
          client.send('Runtime.evaluate', { expression, returnByValue: false, objectGroup: OBJECT_GROUP }, context.callOptions({ sessionId })),
        );
        if (exceptionDetails !== undefined) {
          throw new ReplError('REPL_ERR_PAGE_EVALUATION', `uploadFile: the page-side search for ${uploadLabel(target)} failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        }
        if (result.objectId !== undefined) {
          await client.send('DOM.setFileInputFiles', { objectId: result.objectId, files }, context.callOptions({ sessionId }));
          return;
        }
        status = JSON.parse(String(result.value)) as UploadStatus;
        failFast(target, status, files);
        const left = deadline - Date.now();
        if (left <= 0 || !(await delay(Math.min(POLL_MS, left), context.signal))) break;
        // A clamped deadline is also where CDP commands stop being sent: no check past it.
        if (Date.now() >= deadline) break;
      }
    } finally {
      client.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, context.callOptions({ sessionId })).catch(() => {});
    }
    const what = target.kind === 'selector' ? `selector: ${target.selector}` : uploadLabel(target);
    const why = status.status === 'disabled' ? 'the file input stayed disabled' : `no element matches ${what}`;
    throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `uploadFile: ${why} (waited ${timeoutSec}s)`, {
      data: { ...(target.kind === 'selector' ? { selector: target.selector } : { target: uploadLabel(target) }), status: status.status },
    });
  }

  /** Puts `pathOrPaths` into the file input `target` (selector, accessibility node or semantic target). */
  async function uploadFile(target: unknown, pathOrPaths: unknown, options?: unknown): Promise<void> {
    const element = readTarget('uploadFile', target);
    if (element === null) throw invalidArgument('uploadFile: target must be a selector or accessibility node');
    const files = readPaths(pathOrPaths);
    const opts = readOptions('uploadFile', options, ['timeoutSec']);
    const timeoutSec = nonNegativeSeconds('uploadFile', opts['timeoutSec'], DEFAULT_TIMEOUT_SEC);
    if (browserIsLocal()) await assertFilesExist(files);
    const sessionId = await client.ensureAttached(context.callOptions());
    if (client.pendingDialog !== null || !client.rendererResponsive) await assertPageResponsive('uploadFile', context);
    if (element.kind === 'node') await uploadToNode(sessionId, element.backendNodeId, targetLabel(element, target), files);
    else await uploadToMatch(sessionId, element, files, timeoutSec);
    if (context.trace.wantsTarget) {
      // The trace's description of the input (docs/trace.md), now that the files are on it.
      const probe = new TargetProbe(context, sessionId, element, 'uploadFile', target);
      try {
        await describeForTrace(context, probe);
      } finally {
        probe.release();
      }
    }
  }

  return { uploadFile };
}
