/**
 * The trace of actions (docs/trace.md): what one REPL or agent-tool session did through the
 * browser helpers and the tools, recorded in its worker (`trace-recorder.ts`) and exported as a
 * `@playwright/test` file or a REPL cell script (`export-script.ts`). Thread-agnostic: the worker
 * records, and both the worker (`repl.trace()`) and the main thread (`GET /repl/trace`,
 * `browser_export_script`) export.
 */

/** The locator strategies, in the order Playwright's locator generator prefers them. */
export const LOCATOR_RANK = ['testId', 'role', 'label', 'placeholder', 'text', 'css'] as const;
export type LocatorStrategy = (typeof LOCATOR_RANK)[number];

/**
 * The target of an element action as the page described it when the action ran (one
 * `Runtime.evaluate`, worker/helpers/interaction/describe-target.ts): every candidate the element
 * has, and which of them match it alone in its document, as Playwright's strict locators count.
 */
export interface TargetDescription {
  tag: string;
  /** `type` of an input. */
  type?: string;
  testId?: string;
  role?: string;
  /** The accessible name (with `role`). */
  name?: string;
  label?: string;
  placeholder?: string;
  text?: string;
  /** A CSS path that matches the element alone in its document: always present. */
  css: string;
  /** The candidates above that match the element alone (exact match, in its own document). */
  unique: LocatorStrategy[];
  /** The CSS path of each same-origin frame element from the top document down to the element's document. */
  frames: string[];
  /** A password field (or one marked `autocomplete="current-password"`/`"new-password"`): what is typed is a secret. */
  secret?: boolean;
}

/** What an action was, in the recorder's terms (several helpers and tools map to one). */
export type TraceAction =
  | 'goto' | 'back' | 'click' | 'fill' | 'type' | 'press' | 'select' | 'upload' | 'dialog'
  | 'waitForElement' | 'waitForText' | 'waitForLoad' | 'waitForNetworkIdle'
  | 'switchTab' | 'newTab' | 'closeTab' | 'webmcp';

/** One recorded action (the wire shape of `GET /repl/trace`'s `entries`). */
export interface TraceEntry {
  /** Position in the REPL's trace, from 1; ever increasing (the ring drops the oldest). */
  seq: number;
  /** When the action started (ISO 8601). */
  at: string;
  /** Who asked: a cell's helper call, or an agent tool (MCP, `/agent`). */
  source: 'cell' | 'tool';
  action: TraceAction;
  /** What was asked, as the caller wrote it: `click({"role":"button","name":"Sign in"})`, `browser_click {"ref":12}`. */
  asked: string;
  /** The action's parameters: url, text, key, values, paths, accept, promptText, state, tool, input. A secret's text is never here. */
  args: Record<string, unknown>;
  target?: TargetDescription;
  /** The tab (target id) and the URL of its page when the action started. */
  page: { tab: string; url: string; document: number };
  /** For newTab and a popup the action opened: the tab it opened. */
  opened?: string;
  ok: boolean;
  /** Why it failed. */
  error?: string;
  durationMs: number;
  /** The environment variable that stands for what was typed into a secret field. */
  secretEnv?: string;
}

/** What `GET /repl/trace` and `repl.trace()` answer. */
export interface TraceExport {
  /** The entries the ring holds, oldest first. */
  entries: TraceEntry[];
  /** Entries dropped from the ring (bound: {@link TRACE_LIMIT}). */
  dropped: number;
  /** The `@playwright/test` file. */
  playwright: string;
  /** The same steps as one REPL cell (POST /repl). */
  repl: string;
  /** Environment variables the scripts read (secrets). */
  env: string[];
  /** How many entries the scripts left out, and why. */
  omitted: { failed: number; superseded: number; unsupported: number };
}

/** How many entries one REPL's trace keeps (the oldest go first). */
export const TRACE_LIMIT = 500;
