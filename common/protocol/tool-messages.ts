/**
 * The agent tools' part of the REPL worker protocol (lib/tools ↔ worker/tools): a `tool` request
 * runs one tool operation on the worker's page with the browser helpers, and the `tool-result`
 * answers it. The operations are deliberately few and low level (read the page, act on a ref,
 * navigate); policy, workspace paths, diffs and rendering stay on the main thread.
 */
import type { SerializedError } from '../errors.js';
import type { TraceEntry } from '../trace/trace-types.js';

/** A state an interactive element can be in (shown after its label). */
export type ElementState =
  | 'disabled' | 'checked' | 'unchecked' | 'mixed' | 'selected' | 'expanded' | 'collapsed' | 'pressed'
  | 'readonly' | 'required' | 'focused' | 'invalid';

/** One interactive element of a snapshot. */
export interface SnapshotElement {
  /** Number to act on; stable for the same element across snapshots of one document. */
  ref: number;
  /** Lower-case tag name (`a`, `button`, `input`, …). */
  tag: string;
  /** ARIA role when one is set explicitly (`button` on a `div`). */
  role?: string;
  /** Accessible label: aria-label, labelledby, `<label>`, placeholder, title or text. */
  label: string;
  /** `type` of an input (`email`, `checkbox`, `password`, …). */
  type?: string;
  /** Current value (never for passwords); the chosen option's text for a select. */
  value?: string;
  /** Absolute URL of a link. */
  href?: string;
  state?: ElementState[];
  /** A select's options (their text), at most 25. */
  options?: string[];
  /** URL of the frame the element is in, when it is not the top document. */
  frame?: string;
}

/** How a snapshot line names an element's kind: its role, or what its tag (and type) make it. */
export function elementKind(element: Pick<SnapshotElement, 'tag'> & Partial<Pick<SnapshotElement, 'role' | 'type'>>): string {
  if (element.role !== undefined) return element.role;
  switch (element.tag) {
    case 'a': return 'link';
    case 'input': {
      const type = element.type ?? 'text';
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'submit' || type === 'button' || type === 'reset' || type === 'image') return 'button';
      return type === 'text' ? 'input' : `input:${type}`;
    }
    case 'button':
    case 'select':
    case 'textarea':
    case 'summary':
      return element.tag;
    default:
      return 'editable';
  }
}

/** What the worker reads off the page for `read` (uncapped up to the hard limits). */
export interface PageRead {
  title: string;
  url: string;
  /** Visible text of the top document, then of each frame, at most `PAGE_READ_LIMITS.textChars`. */
  text: string;
  elements: SnapshotElement[];
  /** Identity of the top document (frame id + loader id): a new one means a navigation. */
  document: string;
  /** The session's tabs, its own first; `targetId` names each for the main thread (page-tool counts). */
  tabs: Array<{ targetId: string; title: string; url: string; active: boolean }>;
  dialog?: { type: string; message: string; defaultPrompt?: string };
  /**
   * A layer covering the viewport (a cookie banner with a backdrop, a modal dialog): how it reads
   * and the refs of its controls, which come first in `elements`.
   */
  overlay?: { description: string; label: string; refs: number[] };
  /** Frames that could not be read (a frame that went away meanwhile), by URL. */
  unreadFrames?: string[];
}

/** Hard bounds of one read, whatever a caller's caps are: a page cannot make the worker answer gigabytes. */
export const PAGE_READ_LIMITS = Object.freeze({ textChars: 2_000_000, elements: 5_000 });

/** The operations a worker's page can be asked for (see worker/tools/tool-runner.ts). */
export type ToolOperation =
  | { op: 'read' }
  | { op: 'navigate'; url: string; timeoutMs: number; settleMs: number }
  | { op: 'back'; timeoutMs: number; settleMs: number }
  | { op: 'click'; ref: number; doubleClick: boolean; timeoutMs: number; settleMs: number; coveredMs: number }
  | { op: 'type'; ref: number; text: string; submit: boolean; timeoutMs: number; settleMs: number; coveredMs: number }
  | { op: 'select'; ref: number; values: string[]; timeoutMs: number; settleMs: number }
  | { op: 'upload'; ref: number; paths: string[]; timeoutMs: number; settleMs: number }
  | { op: 'scroll'; pixels: number; ref?: number; settleMs: number }
  | { op: 'press'; key: string; timeoutMs: number; settleMs: number }
  | { op: 'wait'; text?: string; selector?: string; timeoutMs: number; settleMs: number }
  | { op: 'dialog'; accept: boolean; promptText?: string; settleMs: number }
  | { op: 'select-tab'; index: number; settleMs: number }
  | { op: 'close-tab'; index: number; settleMs: number }
  | { op: 'screenshot'; path: string; format: 'png' | 'jpeg'; quality?: number; fullPage: boolean; includeImage: boolean }
  | { op: 'downloads' }
  /**
   * The worker's trace of actions (docs/trace.md), read without touching the page; `secrets` adds
   * the typed secrets (a replay's environment only), `clear` empties the trace after reading it.
   */
  | { op: 'trace'; secrets?: boolean; clear?: boolean };

/** A download an action started: saved (its path and size) or still running when the action answered. */
export interface StartedDownload {
  suggestedFilename: string;
  url: string;
  state: 'completed' | 'in progress' | 'canceled';
  /** Where it was saved, once completed. */
  path?: string;
  bytes?: number;
}

/**
 * What an action set off besides its own effect (issue 25): tabs it opened (their index in the
 * session's tab list; the first one became the active tab), downloads it started, and a dialog it
 * opened, which now holds the page.
 */
export interface ActionEffects {
  popups?: Array<{ index: number; title: string; url: string }>;
  downloads?: StartedDownload[];
  dialog?: { type: string; message: string };
}

/** What an operation answers: a line saying what happened, and for a screenshot its facts. */
export interface ToolOutcome {
  message: string;
  screenshot?: { path: string; bytes: number; width: number; height: number; data?: ArrayBuffer };
  downloads?: Array<{ path: string; suggestedFilename: string; url: string; bytes: number }>;
  /** Downloads of the session still running (the `downloads` operation). */
  pendingDownloads?: StartedDownload[];
  read?: PageRead;
  effects?: ActionEffects;
  /** The `trace` operation's answer. */
  trace?: { entries: TraceEntry[]; dropped: number; secrets?: Record<string, string> };
}

export interface ToolMessage {
  type: 'tool';
  requestId: number;
  operation: ToolOperation;
  /** Absolute deadline (epoch ms) the helpers clamp their waits below. */
  deadline: number;
  /** Read the page after the operation, in the same round trip (the fresh snapshot a mutating tool answers with). */
  read: boolean;
}

export interface ToolResultMessage {
  type: 'tool-result';
  requestId: number;
  outcome?: ToolOutcome;
  error?: SerializedError;
}
