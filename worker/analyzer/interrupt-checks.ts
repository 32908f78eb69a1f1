/**
 * Inserts the liveness checks that let a timed-out cell be stopped without ending its worker
 * (issue 15, docs/lifecycle.md "Interrupted"). Cells interrupt themselves: code a cell defines
 * checks a flag at every loop back-edge, at every function entry and after every `await`, and
 * throws once the host has flagged the running cell.
 *
 *   while (c) s              →  while (c) {/*T*\/T&&T_s();s/*T*\/}
 *   for (…) { … }            →  for (…) {T&&T_s(); … }
 *   function f() { … }       →  function f() {T&&T_s(); … }    (after a directive prologue)
 *   (x) => e                 →  (x) => (T&&T_s(), e/*T*\/)
 *   await e                  →  T_a(await e/*T*\/)
 *
 * `T` is the worker's token ({@link InterruptToken}), and the name of the flag: a global property
 * of the cell's context (worker/repl/cell-interrupts.ts defines it, `T_s` and `T_a`, and says how
 * the flag is raised so that V8 folds the check away). The check is written out rather than
 * called: a global read V8 can fold is all a hot loop pays, where a call (even an inlined one) or
 * `Atomics.load` costs several times the loop body (measured in docs/benchmarks.md). Every
 * inserted fragment contains the token, and a cell whose source
 * contains it is left without checks, so {@link stripChecks} removes exactly what was inserted
 * from a function's source text (`fn.toString()`: a page function given to `js()` or to
 * Playwright's `evaluate` must arrive as the user wrote it). No fragment holds a line break:
 * lines stay where they were, and only columns of instrumented lines move.
 *
 * Runs on the lowered cell (worker/analyzer/lower-cell.ts), parsed again: the two passes keep
 * their edits apart, and a cell is small enough that the second parse costs microseconds.
 */
import * as walk from 'acorn-walk';
import { parseModule } from 'meriyah';

import { range } from './parse-cell.js';

import type { ESTree } from 'meriyah';
import type { SourceEdit } from './source-positions.js';

/** The names a worker's checks use, all derived from one token. */
export interface InterruptToken {
  /** Unique per worker, e.g. `__repl_3f9a1c0e`: an identifier no cell is expected to contain. */
  readonly token: string;
}

/** The statement a back-edge or a function entry gets: `T&&T_s();`. */
export function tickStatement({ token }: InterruptToken): string {
  return `${token}&&${slowName({ token })}();`;
}

/** What a set flag calls into the worker: throws for the running cell, clears a stale flag. */
export function slowName({ token }: InterruptToken): string {
  return `${token}_s`;
}

/** The check after an `await`, passing the awaited value through: `T_a(value)`. */
export function afterAwaitName({ token }: InterruptToken): string {
  return `${token}_a`;
}

interface Insert {
  readonly at: number;
  readonly text: string;
  /** Nesting depth of the node the fragment belongs to: orders fragments at one position. */
  readonly depth: number;
  /** A closer ends a node; at one position closers come first, inner (deeper) ones first. */
  readonly closes: boolean;
}


const MAY_NEED_CHECKS = /[{]|=>|\b(?:while|for|do|await)\b/;

const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * Returns `source` with checks inserted, or `undefined` when the source contains the token (the
 * cell then runs without checks: only the destructive timeout can stop it). `source` must parse
 * as a module: it is a lowered cell.
 */
export function insertChecks(source: string, names: InterruptToken): string | undefined {
  return insertChecksWithEdits(source, names)?.source;
}

/** {@link insertChecks}, with the insertions made, in order (source-positions.ts maps columns back). */
export function insertChecksWithEdits(source: string, names: InterruptToken): { source: string; edits: SourceEdit[] } | undefined {
  if (source.includes(names.token)) return undefined;
  // Most cells are one-liners without a loop, a function or an await: every function has a `{`
  // or an `=>`, every loop and await its keyword, so such a cell is not parsed a second time.
  if (!MAY_NEED_CHECKS.test(source)) return { source, edits: [] };
  const program = parseModule(source, { next: true, ranges: true });
  const tick = tickStatement(names);
  const marker = `/*${names.token}*/`;
  const inserts: Insert[] = [];
  const open = (at: number, text: string, depth: number): void => {
    inserts.push({ at, text, depth, closes: false });
  };
  const close = (at: number, text: string, depth: number): void => {
    inserts.push({ at, text, depth, closes: true });
  };
  /** A check as the first statement of a block, after its directive prologue (`"use strict"` must stay first). */
  const tickInBlock = (block: ESTree.BlockStatement, depth: number): void => {
    let at = range(block).start + 1;
    for (const statement of block.body) {
      if (statement.type !== 'ExpressionStatement' || typeof (statement as { directive?: unknown }).directive !== 'string') break;
      at = range(statement).end;
    }
    open(at, tick, depth);
  };

  walk.fullAncestor(program as never, (raw, _state, ancestors) => {
    const node = raw as unknown as ESTree.Node;
    const depth = ancestors.length;
    if (LOOPS.has(node.type)) {
      if (isCountedLoop(node)) return;
      const body = (node as ESTree.WhileStatement).body;
      if (body.type === 'BlockStatement') {
        tickInBlock(body, depth);
      } else {
        open(range(body).start, `{${marker}${tick}`, depth);
        close(range(body).end, `${marker}}`, depth);
      }
    } else if (FUNCTIONS.has(node.type)) {
      const body = (node as ESTree.ArrowFunctionExpression).body;
      if (!contains(body, isCall)) return;
      if (body.type === 'BlockStatement') {
        tickInBlock(body, depth);
      } else {
        open(range(body).start, `(${tick.slice(0, -1)}, `, depth);
        close(range(body).end, `${marker})`, depth);
      }
    } else if (node.type === 'AwaitExpression') {
      open(range(node).start, `${afterAwaitName(names)}(`, depth);
      close(range(node).end, `${marker})`, depth);
    }
  }, walkBase);

  inserts.sort((a, b) => a.at - b.at
    || (a.closes === b.closes ? (a.closes ? b.depth - a.depth : a.depth - b.depth) : a.closes ? -1 : 1));
  let output = '';
  let position = 0;
  for (const insert of inserts) {
    output += source.slice(position, insert.at) + insert.text;
    position = insert.at;
  }
  return { source: output + source.slice(position), edits: inserts.map(({ at, text }) => ({ start: at, end: at, length: text.length })) };
}

/**
 * Nodes through which the code of a function body may run again and again: a function without
 * any needs no check at its entry (it cannot recurse, and its loops have checks of their own), so
 * small callbacks (`(x) => x * 2`, getters) pay nothing.
 */
function isCall(node: ESTree.Node): boolean {
  return node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'TaggedTemplateExpression';
}

const MAX_LITERAL_TRIP_COUNT = 2 ** 27;

/**
 * An innermost counted loop whose trip count its body cannot change gets no check at its
 * back-edge, as HotSpot drops the safepoint poll of a counted loop: `for (let i = 0; i < a.length;
 * i++) s += a[i]` pays nothing, and the check of the enclosing loop or function catches it after
 * at most one run (its length, or a literal bound of at most 2^27). The body must call nothing,
 * await nothing, loop nowhere, and assign neither the counter, nor the bound's object, nor any
 * property (an alias could grow the array): a getter or proxy it reaches is cell code with checks
 * of its own, or a built-in.
 */
function isCountedLoop(node: ESTree.Node): boolean {
  if (node.type !== 'ForStatement') return false;
  const { init, test, update, body } = node;
  // `let` only: a `var` counter is a global binding of the REPL that a getter could change.
  if (init?.type !== 'VariableDeclaration' || init.kind !== 'let' || init.declarations.length !== 1) return false;
  const counter = init.declarations[0]!.id;
  if (counter.type !== 'Identifier') return false;
  if (test?.type !== 'BinaryExpression' || (test.operator !== '<' && test.operator !== '<=')) return false;
  if (test.left.type !== 'Identifier' || test.left.name !== counter.name) return false;
  let boundObject: string | undefined;
  const bound = test.right;
  if (bound.type === 'MemberExpression' && !bound.computed && bound.object.type === 'Identifier'
    && bound.property.type === 'Identifier' && bound.property.name === 'length') {
    boundObject = bound.object.name;
  } else if (!(bound.type === 'Literal' && typeof bound.value === 'number' && bound.value <= MAX_LITERAL_TRIP_COUNT)) {
    return false;
  }
  const steps = update?.type === 'UpdateExpression' && update.operator === '++' && update.argument.type === 'Identifier' && update.argument.name === counter.name;
  const addsOne = update?.type === 'AssignmentExpression' && update.operator === '+=' && update.left.type === 'Identifier'
    && update.left.name === counter.name && update.right.type === 'Literal' && update.right.value === 1;
  if (!steps && !addsOne) return false;
  const writes = (target: ESTree.Node): boolean => target.type !== 'Identifier' || target.name === counter.name || target.name === boundObject;
  return !contains(body, (inner) => isCall(inner) || LOOPS.has(inner.type) || inner.type === 'AwaitExpression' || inner.type === 'YieldExpression'
    || inner.type === 'ImportExpression'
    || (inner.type === 'UnaryExpression' && inner.operator === 'delete')
    // Destructuring targets are patterns: refused whole rather than walked.
    || (inner.type === 'AssignmentExpression' && writes(inner.left))
    || (inner.type === 'UpdateExpression' && writes(inner.argument)));
}

/** Whether `predicate` holds for a node of `root`, not looking into nested functions (they run only when called). */
function contains(root: ESTree.Node, predicate: (node: ESTree.Node) => boolean): boolean {
  let found = false;
  const visit = (node: ESTree.Node, override?: string): void => {
    if (found) return;
    if (override === undefined && predicate(node)) {
      found = true;
      return;
    }
    const visitor = (shallowWalk as Record<string, (node: never, state: unknown, c: (node: never, state: unknown, override?: string) => void) => void>)[override ?? node.type];
    visitor?.(node as never, undefined, (child, _state, childOverride) => visit(child as unknown as ESTree.Node, childOverride));
  };
  visit(root);
  return found;
}

/**
 * The source text as the user wrote it: every fragment {@link insertChecks} added, removed. Applied
 * to `Function.prototype.toString` in the cell's realm and to error messages.
 */
export function stripChecks(text: string, names: InterruptToken): string {
  if (!text.includes(names.token)) return text;
  const tick = tickStatement(names);
  const marker = `/*${names.token}*/`;
  // In this order: the brace of a wrapped loop body is ours only where the marker follows it.
  return text
    .replaceAll(`{${marker}`, '')
    .replaceAll(`${marker}}`, '')
    .replaceAll(`(${tick.slice(0, -1)}, `, '')
    .replaceAll(tick, '')
    .replaceAll(`${afterAwaitName(names)}(`, '')
    .replaceAll(`${marker})`, '');
}

/**
 * acorn-walk's base, plus what meriyah's `next` mode emits that acorn-walk does not know: an
 * auto-accessor (`accessor x = …`). Decorator expressions are not walked (acorn-walk has no
 * field for them): a function inside one runs without checks.
 */
const walkBase = {
  ...walk.base,
  // Walked like a class field: its key when computed, its initialiser.
  AccessorProperty: walk.base['PropertyDefinition'],
} as walk.RecursiveVisitors<unknown>;

/** {@link walkBase} without descending into nested functions. */
const shallowWalk = {
  ...walkBase,
  ...Object.fromEntries([...FUNCTIONS].map((type) => [type, () => {}])),
} as walk.RecursiveVisitors<unknown>;
