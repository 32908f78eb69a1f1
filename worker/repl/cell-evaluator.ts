/**
 * Runs REPL cells in one persistent `vm` context (docs/repl.md, "Bindings, and what a name
 * costs"). Each cell is lowered, checked against the binding registry, compiled as its own
 * `vm.SourceTextModule` (strict mode, top-level await, `import.meta`, dynamic `import()`), linked,
 * and evaluated. Requires Node to run with
 * `--experimental-vm-modules`.
 */
import { randomUUID } from 'node:crypto';
import vm from 'node:vm';

import { insertChecksWithEdits } from '../analyzer/interrupt-checks.js';
import { lowerCell } from '../analyzer/lower-cell.js';
import { CELL_SYNTAX_ERROR_CODE } from '../analyzer/parse-cell.js';
import { CellPositions } from '../analyzer/source-positions.js';
import { BindingStore } from './binding-store.js';

import type { CellBinding } from '../analyzer/collect-bindings.js';
import type { InterruptToken } from '../analyzer/interrupt-checks.js';
import type { SourceEdit } from '../analyzer/source-positions.js';
import type { ImportAttributes, ImportModule } from './dynamic-import.js';
import type { RealmErrors } from './binding-store.js';

/**
 * The default loader, imported on a cell's first `import()`: most workers never run one, and a
 * fresh worker loads only what its first cell uses (issue 8).
 */
const defaultImportModule: ImportModule = async (specifier, referrer, attributes) =>
  (await import('./dynamic-import.js')).importModule(specifier, referrer, attributes);

/** What {@link CellEvaluator.warm} compiles: a declaration, an await, a helper call, output. */
const WARM_UP_CELL = 'const title = await js("document.title"); repl.write(`${title} ${[1, 2].map((n) => n * 2)}`);';

/** `import.meta.url` of every cell. */
export const CELL_IMPORT_META_URL = 'file:///browser-repl-cell.mjs';

/** Options of {@link CellEvaluator}. */
export interface CellEvaluatorOptions {
  /**
   * The persistent context. Create the evaluator before any user code runs in it: the realm's
   * `ReferenceError`/`TypeError` are captured at construction.
   */
  readonly context: vm.Context;
  /** Loader behind `import()`; defaults to {@link defaultImportModule} (dynamic-import.ts). */
  readonly importModule?: ImportModule;
  /**
   * Insert the liveness checks of this token into every cell (issue 15; cell-interrupts.ts
   * defines them in the context). Without it cells run as lowered, and only ending the worker
   * stops one.
   */
  readonly interruptChecks?: InterruptToken | undefined;
}

/** Options of {@link CellEvaluator.evaluate}. */
export interface EvaluateOptions {
  /**
   * Settles when the cell is interrupted: `evaluate` then returns without waiting for the cell's
   * module, whose remaining work the checks make inert.
   */
  readonly stop?: Promise<void> | undefined;
}

/** How many prepared cells {@link CellEvaluator} keeps, and up to which length of code. */
const PREPARED_CELLS = 64;
const MAX_PREPARED_CODE_LENGTH = 4096;

/** How many cells' position maps {@link CellEvaluator.writtenPositions} keeps. */
const KEPT_POSITIONS = 1000;

/** `browser-repl-cell-<n>.mjs:<line>:<column>` in a stack. */
const CELL_POSITION = /browser-repl-cell-(\d+)\.mjs:(\d+):(\d+)/g;

/** A cell lowered and instrumented, ready to compile. */
interface PreparedCell {
  readonly source: string;
  readonly bindings: readonly CellBinding[];
  /** Named by the source only when the cell declares a lexical binding or a function. */
  readonly initTargetName: string;
  /** How its columns map back; undefined when nothing edited it. */
  readonly positions: CellPositions | undefined;
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

const rejectStaticImport = (): never => {
  // Unreachable: static imports are rejected before compilation (parse-cell.ts).
  throw new SyntaxError('static import/export is not supported in the browser REPL; use dynamic import() instead');
};

/** Evaluates cells with persistent top-level bindings. */
export class CellEvaluator {
  readonly #context: vm.Context;
  readonly #importModule: ImportModule;
  readonly #store: BindingStore;
  readonly #interruptChecks: InterruptToken | undefined;
  /** How the last cells' columns map back to the code as written, by cell number. */
  readonly #positions = new Map<number, CellPositions>();
  /** Recent cells that lower the same whatever their number, by code (see {@link CellEvaluator.#prepare}). */
  readonly #prepared = new Map<string, PreparedCell>();
  /** One synthetic wrapper per imported namespace, so repeated imports yield the same namespace. */
  readonly #wrappers = new WeakMap<object, vm.SyntheticModule>();
  #sequence = 0;

  constructor(options: CellEvaluatorOptions) {
    this.#context = options.context;
    this.#importModule = options.importModule ?? defaultImportModule;
    this.#interruptChecks = options.interruptChecks;
    const realm = vm.runInContext('({ global: globalThis, ReferenceError, TypeError, functionPrototype: Function.prototype })', this.#context) as {
      global: object;
      functionPrototype: object;
    } & RealmErrors;
    this.#store = new BindingStore({
      global: realm.global,
      context: this.#context,
      errors: { ReferenceError: realm.ReferenceError, TypeError: realm.TypeError },
      // Lets js() recognise a cell's page function and hint at { arg } for a REPL variable it uses.
      functionPrototype: realm.functionPrototype,
    });
  }

  /** Number of cells submitted so far; the next cell is `browser-repl-cell-<count + 1>.mjs`. */
  get cellCount(): number {
    return this.#sequence;
  }

  /** The persistent binding registry (read-only use: names, kinds, initialization state). */
  get bindings(): Pick<BindingStore, 'names' | 'kindOf' | 'isInitialized'> {
    return this.#store;
  }

  /**
   * Evaluates one cell. Resolves once evaluation, including top-level await, completes; the
   * value of the last expression is ignored.
   *
   * @throws Exactly what the cell threw (cell-realm values as-is); a SyntaxError with
   *   `code === 'REPL_ERR_CELL_SYNTAX'` for parse errors, top-level return and static
   *   import/export; a SyntaxError with `code === 'REPL_ERR_BINDING'` for a redeclaration, raised
   *   before any of the cell's side effects. A failed cell leaves the evaluator usable.
   */
  async evaluate(code: string, options: EvaluateOptions = {}): Promise<void> {
    const sequence = ++this.#sequence;
    const identifier = `browser-repl-cell-${sequence}.mjs`;
    const lowered = this.#prepare(code, sequence, identifier);
    const { initTargetName } = lowered;
    if (lowered.positions !== undefined) {
      this.#positions.set(sequence, lowered.positions);
      if (this.#positions.size > KEPT_POSITIONS) this.#positions.delete(this.#positions.keys().next().value!);
    }
    const module = this.#compile(lowered.source, identifier);
    await module.link(rejectStaticImport);
    // Checked after the await so no other cell can declare in between; still before any side effect.
    this.#store.assertDeclarable(lowered.bindings, identifier);
    this.#store.declare(lowered.bindings);
    // Only lexical declarations and function installs write through the init target; a cell
    // without them never names it, so the global is left alone (the common one-liner case).
    const target = lowered.bindings.some((binding) => binding.kind !== 'var') ? this.#store.openInitTarget(initTargetName, lowered.bindings) : undefined;
    try {
      const evaluation = module.evaluate();
      if (options.stop === undefined) {
        await evaluation;
      } else {
        // An interrupted cell's module may never settle, or reject later with the interrupt.
        evaluation.catch(() => undefined);
        await Promise.race([evaluation, options.stop]);
      }
    } finally {
      // Bindings whose initialiser had not run stay in their TDZ (docs/repl.md, "Bindings").
      target?.close();
    }
  }

  /**
   * Runs a typical cell through lowering and compilation without evaluating it: nothing is
   * declared, counted or run, but the code paths a first cell takes are compiled by V8 already
   * (about 20 ms of a fresh worker's first cell; a browser from the warm pool).
   */
  warm(): void {
    const lowered = lowerCell(WARM_UP_CELL, { cellSeq: 0, initTargetName: '__browser_repl_warm_up', fileName: 'browser-repl-warm-up.mjs' });
    this.#compile(this.#instrument(lowered.source).source, 'browser-repl-warm-up.mjs');
  }

  /**
   * The cell lowered and instrumented. A cell that declares nothing but `var`s lowers to a source
   * that does not depend on its number (no init target), so the last {@link PREPARED_CELLS} of
   * those are kept by their code: a cell run again (an agent polling a page) skips the parse.
   */
  #prepare(code: string, sequence: number, fileName: string): PreparedCell {
    const prepared = this.#prepared;
    const cached = prepared.get(code);
    if (cached !== undefined) {
      // Least recently used first: the Map's insertion order.
      prepared.delete(code);
      prepared.set(code, cached);
      return cached;
    }
    // Unguessable per cell, so no cell can prepare a later cell's name. randomUUID draws from a
    // pre-filled entropy cache: far cheaper than randomBytes on every cell.
    const initTargetName = `__browser_repl_init_${sequence}_${randomUUID().replaceAll('-', '')}`;
    const lowered = lowerCell(code, { cellSeq: sequence, initTargetName, fileName });
    const checked = this.#instrument(lowered.source);
    const positions = lowered.edits.length === 0 && checked.edits.length === 0
      ? undefined
      : new CellPositions(code, checked.source, lowered.preludeLength, lowered.edits, checked.edits);
    const cell: PreparedCell = { source: checked.source, bindings: lowered.bindings, initTargetName, positions };
    if (code.length <= MAX_PREPARED_CODE_LENGTH && lowered.bindings.every((binding) => binding.kind === 'var')) {
      prepared.set(code, cell);
      if (prepared.size > PREPARED_CELLS) prepared.delete(prepared.keys().next().value!);
    }
    return cell;
  }

  /** The lowered source with the liveness checks, when this evaluator inserts them, and their insertions. */
  #instrument(source: string): { source: string; edits: readonly SourceEdit[] } {
    const unchanged = { source, edits: [] };
    if (this.#interruptChecks === undefined) return unchanged;
    return insertChecksWithEdits(source, this.#interruptChecks) ?? unchanged;
  }

  /**
   * `stack` with the positions in cells (`browser-repl-cell-<n>.mjs:<line>:<column>`) as the
   * user wrote them: the lowering and the checks move the columns of the lines they edit
   * (source-positions.ts). Positions in the last {@link KEPT_POSITIONS} cells are mapped; older
   * ones, and those of cells nothing edited, stay as they are.
   */
  writtenPositions(stack: string): string {
    if (!stack.includes('browser-repl-cell-')) return stack;
    return stack.replace(CELL_POSITION, (match: string, cell: string, line: string, column: string) => {
      const written = this.#positions.get(Number(cell))?.writtenColumn(Number(line), Number(column));
      return written === undefined ? match : `browser-repl-cell-${cell}.mjs:${line}:${written}`;
    });
  }

  #compile(source: string, identifier: string): vm.SourceTextModule {
    try {
      // `import()` and `import.meta` are syntax (a keyword takes no escapes): a source without the
      // word needs neither hook, and Node registers a module with hooks at a cost (issue 26).
      const imports = source.includes('import');
      return new vm.SourceTextModule(source, {
        context: this.#context,
        identifier,
        // Line 1 is the prelude, so user line N is generated line N + 1.
        lineOffset: -1,
        ...(imports ? {
          initializeImportMeta: (meta: { url?: string }) => {
            meta.url = CELL_IMPORT_META_URL;
          },
          importModuleDynamically: ((specifier: string, _referrer: vm.Module, attributes?: ImportAttributes) =>
            this.#dynamicImport(specifier, identifier, attributes)) as never,
        } : {}),
      });
    } catch (error) {
      // V8 rejects what meriyah accepts but Node 20 lacks (decorators, `using`): still a cell
      // syntax error for the caller.
      if (isObject(error) && Reflect.get(error, 'name') === 'SyntaxError' && !Object.hasOwn(error, 'code')) {
        Reflect.defineProperty(error, 'code', { value: CELL_SYNTAX_ERROR_CODE, writable: true, configurable: true });
      }
      throw error;
    }
  }

  async #dynamicImport(
    specifier: string,
    referrer: string,
    attributes: ImportAttributes | undefined,
  ): Promise<vm.SyntheticModule> {
    const namespace = await this.#importModule(specifier, referrer, attributes);
    if (!isObject(namespace)) throw new TypeError(`import(${JSON.stringify(specifier)}) did not produce a module namespace`);
    const cached = this.#wrappers.get(namespace);
    if (cached !== undefined) return cached;
    // A synthetic module in the cell context re-exports every key, `default` included.
    const names = Object.keys(namespace);
    const wrapper = new vm.SyntheticModule(
      names,
      () => {
        for (const name of names) wrapper.setExport(name, namespace[name]);
      },
      { context: this.#context, identifier: `browser-repl-import:${specifier}` },
    );
    await wrapper.link(rejectStaticImport);
    await wrapper.evaluate();
    this.#wrappers.set(namespace, wrapper);
    return wrapper;
  }
}
