/**
 * What the agent tools say when an operation fails (issue 25, docs/agent-tools.md "Messages").
 * The operations act in the worker with the REPL's own helpers, whose errors speak to someone
 * writing a cell: `fillInput: backend node 28 was not editable within 30s (…)`, "handle it with
 * handleDialog(…) or cdp(…)". A model driving the tools knows tools and refs, not helpers, CDP
 * methods or backend node ids, so every failure of an operation is worded here again, on the main
 * thread, which knows the session's latest snapshot: the tool that failed, the ref as the snapshot
 * shows it (`[28] input "Search orders"`), what was in the way, and which tool (and ref) gets past
 * it. Pure: test/unit/tool-wording.test.mjs walks every branch, and
 * test/browser/agent-tool-messages.test.mjs every error path of every tool.
 */
import { ReplError } from '../../common/errors.js';
import { elementKind } from '../../common/protocol/tool-messages.js';

import type { ErrorCode } from '../../common/errors.js';
import type { SnapshotElement, ToolOperation } from '../../common/protocol/tool-messages.js';

/** The MCP tool of each operation (the library's method names differ only in case). */
export const TOOL_OF: Readonly<Record<ToolOperation['op'], string>> = Object.freeze({
  read: 'browser_snapshot',
  navigate: 'browser_open',
  back: 'browser_back',
  click: 'browser_click',
  type: 'browser_type',
  select: 'browser_select_option',
  upload: 'browser_file_upload',
  scroll: 'browser_scroll',
  press: 'browser_press_key',
  wait: 'browser_wait_for',
  dialog: 'browser_handle_dialog',
  'select-tab': 'browser_tabs',
  'close-tab': 'browser_tabs',
  screenshot: 'browser_screenshot',
  downloads: 'browser_downloads',
  trace: 'browser_export_script',
});

/**
 * Names no tool message may contain: the REPL's helpers, and the shapes of CDP methods and
 * backend node ids. The wording test holds every message to it; {@link toolError} uses it to
 * keep a message it does not know from leaking them.
 */
export const HELPER_NAMES: readonly string[] = Object.freeze([
  'gotoUrl', 'fillInput', 'typeText', 'pressKey', 'handleDialog', 'uploadFile', 'waitForElement', 'waitForLoad', 'waitForDownload',
  'listDownloads', 'listTabs', 'switchTab', 'closeTab', 'newTab', 'captureScreenshot', 'pageInfo', 'accessibilitySnapshot',
  'iframeTarget', 'selectOption', 'cdp(', 'click(', 'scroll(', 'js(',
]);
const INTERNAL = new RegExp([
  ...HELPER_NAMES.map((name) => `\\b${name.replace(/[()]/g, '\\$&')}`),
  // Page.navigate, Runtime.evaluate, DOM.resolveNode, Input.dispatchMouseEvent, Target.attachToTarget …
  '\\b(?:Page|Runtime|DOM|Input|Target|Network|Emulation|Browser|Storage|Accessibility|Fetch|CSS|Overlay|Log)\\.[a-z]\\w+',
  '\\bbackend ?node(?:Id)?\\b',
].join('|'));

/** True when `text` names a helper, a CDP method or a backend node id. */
export function speaksInternals(text: string): boolean {
  return INTERNAL.test(text);
}

/** An element as the tools name it: its ref and how the latest snapshot showed it, or the ref alone. */
export type RefDescription = Pick<SnapshotElement, 'ref' | 'tag' | 'label'> & Partial<Pick<SnapshotElement, 'role' | 'type'>>;

/** `[28] input "Search orders"`, as the snapshot line starts. */
export function describeRef(target: RefDescription): string {
  const label = target.label.length > 60 ? `${target.label.slice(0, 59)}…` : target.label;
  return `[${target.ref}] ${elementKind(target)}${label === '' ? '' : ` ${JSON.stringify(label)}`}`;
}

/** What covers a target, and the controls that dismiss it (refs from the latest snapshot). */
export interface CoverDescription {
  description: string;
  label: string;
  controls: RefDescription[];
}

export function describeCover(cover: CoverDescription): string {
  const what = `${cover.description}${cover.label === '' ? '' : ` ${JSON.stringify(cover.label.length > 60 ? `${cover.label.slice(0, 59)}…` : cover.label)}`}`;
  if (cover.controls.length === 0) return `${what}, which has no control to dismiss it (try browser_press_key "Escape", or take a new snapshot)`;
  const shown = cover.controls.slice(0, 6).map(describeRef);
  return `${what}; dismiss it first with browser_click on ${shown.length === 1 ? shown[0] : `one of ${shown.join(', ')}`}`;
}

/** The failure as the helper reported it: a registry error's code, message and data. */
export interface HelperFailure {
  code: string;
  message: string;
  data?: Record<string, unknown> | undefined;
}

/** What {@link toolError} knows about the failed operation. */
export interface FailureContext {
  operation: ToolOperation;
  /** The element the operation acted on, when it had a ref. */
  target?: RefDescription | undefined;
  /** What covered it, when the failure was a cover. */
  cover?: CoverDescription | undefined;
  /** The whole wait, for "within N s". */
  timeoutMs?: number | undefined;
}

const VERB: Partial<Record<ToolOperation['op'], string>> = {
  click: 'clicked',
  type: 'typed into',
  select: 'chosen from',
  upload: 'given files',
  scroll: 'scrolled to',
};

function seconds(ms: number | undefined): string {
  return ms === undefined ? '' : ` within ${Math.max(1, Math.round(ms / 1000))} s`;
}

/** The one-line reason of a probe status (`not visible`, `disabled (aria-disabled)`, …) as a model reads it. */
function statusReason(status: string): string {
  if (status.startsWith('not found')) return 'it is not on the page any more';
  if (status === 'navigating') return 'the page kept navigating';
  if (status === 'moving') return 'it kept moving (an animation)';
  if (status === 'outside viewport') return 'it could not be scrolled into view';
  if (status.startsWith('not receiving pointer events')) return 'it does not take clicks (pointer-events: none)';
  if (status === 'could not focus') return 'it would not take the focus';
  return `it stayed ${status.replace(/^not /, 'not ')}`;
}

/**
 * The tool-worded error for a failed operation: the same code (a model or client may switch on
 * it), a message in the tools' terms, the helper's error as `cause`.
 */
export function toolError(failure: HelperFailure, context: FailureContext): ReplError {
  const tool = TOOL_OF[context.operation.op];
  const what = context.target === undefined ? '' : describeRef(context.target);
  const status = typeof failure.data?.['status'] === 'string' ? failure.data['status'] : undefined;
  const code = failure.code as ErrorCode;
  const make = (message: string): ReplError => new ReplError(code, `${tool}: ${message}`, { cause: failure, ...(failure.data === undefined ? {} : { data: failure.data }) });

  // The page reader words stale refs for the tools already ("ref 12 is stale: …; take a new snapshot (browser_snapshot) …").
  if (code === 'REPL_ERR_STALE_REF') return make(failure.message);
  if (code === 'REPL_ERR_TARGET_NOT_FOUND' && context.target !== undefined && /stale|no longer in the document/.test(failure.message)) {
    return new ReplError('REPL_ERR_STALE_REF', `${tool}: ref ${context.target.ref} is stale: it left the page (the page navigated or re-rendered); take a new snapshot (browser_snapshot) and use a ref from it`, { cause: failure });
  }
  if (code === 'REPL_ERR_DIALOG_OPEN') {
    const dialog = (failure.data?.['dialog'] ?? {}) as { type?: unknown; message?: unknown };
    const type = typeof dialog.type === 'string' ? dialog.type : 'JavaScript';
    const message = typeof dialog.message === 'string' ? ` (${JSON.stringify(dialog.message)})` : '';
    return make(`a ${type} dialog${message} holds the page; answer it with browser_handle_dialog (accept: true or false), then try again`);
  }
  if (code === 'REPL_ERR_ACTION_FAILED' && what !== '') {
    const verb = VERB[context.operation.op] ?? 'used';
    if (context.cover !== undefined || (status !== undefined && status.startsWith('intercepted by'))) {
      const cover = context.cover === undefined ? status!.slice('intercepted by '.length) : describeCover(context.cover);
      return make(`${what} cannot be ${verb}: it is covered by ${cover}`);
    }
    if (status === 'missed') {
      return make(`the click on ${what} landed on ${String(failure.data?.['hit'] ?? 'another element')} instead (it moved or something covered it when the click came); take a new snapshot (browser_snapshot) and try again`);
    }
    if (status === 'unreached') {
      return make(`the click on ${what} did not reach it (no pointer event arrived in its frame), so nothing was clicked; take a new snapshot (browser_snapshot) and try again`);
    }
    if (status === 'multiple') return make(`${what} matched several elements; take a new snapshot (browser_snapshot)`);
    if (status !== undefined) return make(`${what} could not be ${verb}${seconds(context.timeoutMs)}: ${statusReason(status)}`);
    if (/focus moved/.test(failure.message)) return make(`the focus left ${what} while typing (the page moved it); part of the text may have gone elsewhere: take a new snapshot (browser_snapshot)`);
    if (/left the document/.test(failure.message)) return make(`${what} left the page while it was being ${verb}; take a new snapshot (browser_snapshot)`);
  }
  if (code === 'REPL_ERR_NO_DIALOG') return make('no dialog is open on the page, so there is nothing to answer (a snapshot shows a dialog when one holds the page)');
  if (context.operation.op === 'upload') {
    const kind = /is an? <(\w+)>, not an <input type=file>|matches an? <(\w+)>, not an <input type=file>/.exec(failure.message);
    if (kind !== null) return make(`${what === '' ? 'the element' : what} is not a file input; give the ref of an input:file element`);
    const missing = /no such file: (.+)$/.exec(failure.message);
    if (missing !== null) return make(`the file ${missing[1]} does not exist (give files by their content, or paths of files in the session's workspace)`);
    if (/accepts one file/.test(failure.message)) return make(`${what === '' ? 'the file input' : what} takes one file (it has no "multiple" attribute); give one`);
  }
  if (context.operation.op === 'press' && /unknown key/.test(failure.message)) {
    const key = 'key' in context.operation ? context.operation.key : '';
    return make(`unknown key ${JSON.stringify(key)}: give a key name such as "Enter", "Tab", "Escape", "ArrowDown", "PageDown", one character, or a combination such as "Control+A"`);
  }
  if (code === 'REPL_ERR_INVALID_ARGUMENT' && /rejected/.test(failure.message) && what !== '') {
    return make(`${what} rejected the text: ${failure.message.replace(/^[\w.]+: /, '').replace(/; use the input's value format$/, '')}; give a value in the field's own format`);
  }
  if (code === 'REPL_ERR_TARGET_NOT_FOUND') return make(`the tab or frame it acted on is gone; list the tabs (browser_tabs action "list") or take a new snapshot`);
  if (code === 'REPL_ERR_CDP_TIMEOUT' || code === 'REPL_ERR_CDP_DEADLINE_REACHED') {
    return make(`the page did not answer in time${what === '' ? '' : ` while acting on ${what}`}; it may be busy: take a new snapshot (browser_snapshot) and try again`);
  }
  if (code === 'REPL_ERR_CDP_DISCONNECTED' || code === 'REPL_ERR_CDP_CONNECT_FAILED' || code === 'REPL_ERR_CDP_OUTCOME_UNKNOWN') {
    return make(`the connection to the browser dropped${code === 'REPL_ERR_CDP_OUTCOME_UNKNOWN' ? ' before it confirmed the action, so it may or may not have happened' : ''}; take a new snapshot (browser_snapshot) before acting again`);
  }
  if (code === 'REPL_ERR_CDP_COMMAND_FAILED' || code === 'REPL_ERR_PAGE_EVALUATION') {
    return make(`the page refused the action${what === '' ? '' : ` on ${what}`}; take a new snapshot (browser_snapshot) and try again`);
  }
  // Messages the tools wrote themselves are kept; a helper's or the browser's never leak internals.
  const own = failure.message.replace(/^[\w.]+: /, '');
  return make(speaksInternals(own) ? `the action failed (${failure.code}); take a new snapshot (browser_snapshot) and try again` : own);
}
