/**
 * The recorder of one REPL's trace (docs/trace.md): a bounded in-memory ring of the actions its
 * helpers and agent tools ran ({@link TRACE_LIMIT}, oldest dropped first). An action is one
 * {@link TraceRecorder.run} scope: what was asked, the page it started on, the target the page
 * described (set by the helper once its element was found, {@link TraceRecorder.describeTarget}),
 * whether it succeeded. Scopes nest through an AsyncLocalStorage: a tool that runs helpers, or a
 * helper that runs another, records one entry (the outermost), and helpers running side by side
 * in one cell (`Promise.all`) record one each.
 *
 * Secrets: what is typed into a password field never enters an entry. The entry names an
 * environment variable instead (`secretEnv`), and the value stays in {@link TraceRecorder.secrets},
 * which only a replay reads (lib/trace/replay.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { TRACE_LIMIT } from './trace-types.js';

import type { TargetDescription, TraceAction, TraceEntry } from './trace-types.js';

/** Where an action happens: the attached tab, its URL, and which document of the tab (a counter of main-frame commits). */
export interface TracePage {
  tab: string;
  url: string;
  document: number;
}

/** What a scope starts with. */
export interface ActionStart {
  source: TraceEntry['source'];
  action: TraceAction;
  asked: string;
  args?: Record<string, unknown>;
  /** Text typed (fill, type): kept out of `args` until the target is known not to be a secret. */
  text?: string;
}

interface Scope {
  /** Replaced, never changed in place (`addArgs`): the caller's object stays as given. */
  start: ActionStart;
  page: TracePage;
  target: TargetDescription | undefined;
  opened: string | undefined;
  /** A scope of {@link TraceRecorder.quietly}: never recorded, and wants no target. */
  quiet?: true;
}

/** Longest text shown in `asked` (a fill of a page of text must not fill the ring). */
const ASKED_LIMIT = 300;
/** Longest typed text kept in an entry. */
const TEXT_LIMIT = 10_000;

/** `click("#go")` from a helper's name and arguments; functions show as `() => …`. */
export function askedOf(helper: string, args: readonly unknown[]): string {
  const shown = args.map((arg) => {
    if (typeof arg === 'function') return '() => …';
    try {
      return JSON.stringify(arg, (_key, value: unknown) => (Object.prototype.toString.call(value) === '[object RegExp]' ? String(value) : value)) ?? 'undefined';
    } catch {
      return '…';
    }
  }).join(', ');
  const text = `${helper}(${shown})`;
  return text.length > ASKED_LIMIT ? `${text.slice(0, ASKED_LIMIT - 1)}…` : text;
}

/** `PASSWORD` from a field's label, name, placeholder or test id. */
export function secretEnvName(target: TargetDescription): string {
  const base = target.label ?? target.name ?? target.placeholder ?? target.testId ?? 'secret';
  const slug = base.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase();
  return slug === '' ? 'SECRET' : /^[0-9]/.test(slug) ? `SECRET_${slug}` : slug;
}

export class TraceRecorder {
  readonly #limit: number;
  readonly #page: () => TracePage;
  readonly #scopes = new AsyncLocalStorage<Scope>();
  #entries: TraceEntry[] = [];
  #seq = 0;
  #dropped = 0;
  /** Environment variable → the secret last typed for it. */
  readonly #secrets = new Map<string, string>();

  constructor(options: { page: () => TracePage; limit?: number }) {
    this.#page = options.page;
    this.#limit = options.limit ?? TRACE_LIMIT;
  }

  /**
   * Runs `fn` without recording anything it runs (a tool operation that only reads, whose helpers
   * are no action of the caller's).
   */
  async quietly<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#scopes.getStore() !== undefined) return fn();
    const scope: Scope = { start: { source: 'tool', action: 'switchTab', asked: '' }, page: { tab: '', url: '', document: 0 }, target: undefined, opened: undefined, quiet: true };
    return this.#scopes.run(scope, fn);
  }

  /** Runs `fn` as one action; nested scopes run `fn` only (the outermost records). */
  async run<T>(start: ActionStart, fn: () => T | Promise<T>): Promise<T> {
    if (this.#scopes.getStore() !== undefined) return fn();
    const scope: Scope = { start, page: this.#safePage(), target: undefined, opened: undefined };
    const began = Date.now();
    try {
      const result = await this.#scopes.run(scope, fn);
      this.#record(scope, began, undefined);
      return result;
    } catch (error) {
      this.#record(scope, began, error);
      throw error;
    }
  }

  /** True while an action runs whose target is not described yet: the helper should describe it now. */
  get wantsTarget(): boolean {
    const scope = this.#scopes.getStore();
    return scope !== undefined && scope.quiet !== true && scope.target === undefined;
  }

  /**
   * The running action's target, as the page described it (the first description wins), and the
   * URL of the top document the page read then (the action's page when it had none yet).
   */
  describeTarget(target: TargetDescription, url?: string): void {
    const scope = this.#scopes.getStore();
    if (scope === undefined || scope.target !== undefined) return;
    scope.target = target;
    if (scope.page.url === '' && url !== undefined) scope.page.url = url;
  }

  /** Parameters the running action learned as it ran (the tab a tool's close-tab index named). */
  addArgs(args: Record<string, unknown>): void {
    const scope = this.#scopes.getStore();
    if (scope !== undefined) scope.start = { ...scope.start, args: { ...scope.start.args, ...args } };
  }

  /** The running action opened (or switched to) this tab. */
  opened(tab: string): void {
    const scope = this.#scopes.getStore();
    if (scope !== undefined) scope.opened = tab;
  }

  /** The entries the ring holds, oldest first (copies). */
  entries(): TraceEntry[] {
    return this.#entries.map((entry) => structuredClone(entry));
  }

  /** Entries dropped from the ring since the start (or the last clear). */
  get dropped(): number {
    return this.#dropped;
  }

  /** The secrets typed, by environment variable: for a replay only, never for a script. */
  secrets(): Record<string, string> {
    return Object.fromEntries(this.#secrets);
  }

  /** Forgets every entry and secret (the sequence numbers go on). */
  clear(): void {
    this.#entries = [];
    this.#dropped = 0;
    this.#secrets.clear();
  }

  #safePage(): TracePage {
    try {
      return this.#page();
    } catch {
      return { tab: '', url: '', document: 0 };
    }
  }

  #record(scope: Scope, began: number, error: unknown): void {
    const { start, target } = scope;
    const args: Record<string, unknown> = { ...start.args };
    let secretEnv: string | undefined;
    if (start.text !== undefined) {
      if (target?.secret === true) {
        secretEnv = secretEnvName(target);
        if (error === undefined) this.#secrets.set(secretEnv, start.text);
      } else {
        args['text'] = start.text.length > TEXT_LIMIT ? start.text.slice(0, TEXT_LIMIT) : start.text;
      }
    }
    const page = { ...scope.page };
    // The first action of a REPL attaches its tab: the entry is on that tab.
    if (page.tab === '') {
      const now = this.#safePage();
      page.tab = now.tab;
      if (page.url === '') page.url = now.url;
    }
    const entry: TraceEntry = {
      seq: ++this.#seq,
      at: new Date(began).toISOString(),
      source: start.source,
      action: start.action,
      asked: start.asked,
      args,
      page,
      ok: error === undefined,
      durationMs: Date.now() - began,
    };
    if (target !== undefined) entry.target = target;
    if (scope.opened !== undefined) entry.opened = scope.opened;
    if (secretEnv !== undefined) entry.secretEnv = secretEnv;
    if (error !== undefined) entry.error = String((error as { message?: unknown } | null)?.message ?? error).slice(0, ASKED_LIMIT);
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) {
      const over = this.#entries.length - this.#limit;
      this.#entries.splice(0, over);
      this.#dropped += over;
    }
  }
}
