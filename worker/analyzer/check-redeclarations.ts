/**
 * The redeclaration early errors of a cell's nested blocks, which nothing else would report
 * (issue 9, item 14).
 *
 * Why they need their own check: meriyah runs without its `lexical` option (its module-goal rules
 * would reject the script-like top level cells allow, `var f; function f() {}`, and it lacks the
 * Annex-B catch exemption V8 applies), so it reports no redeclaration at all. For an ordinary
 * module V8 reports them when compiling, but the lowering deletes every `var` keyword outside
 * functions (`var f` → `f = void 0`), so in `{ let f; var f; }` the conflicting `var` is gone
 * before V8 sees the source and the cell would run. Nested `let`/`const`/`class`/function
 * declarations and everything inside functions and classes are left as written, so V8 still
 * checks those.
 *
 * Rules, as V8 applies them to the same source as a module (strict code):
 * - a `var` conflicts with a lexical declaration (`let`, `const`, `class`, any function
 *   declaration) of the same name in every enclosing block, `switch` case block, lexical `for`
 *   head and catch clause it hoists through, up to but excluding the cell's top level;
 * - a `var` may redeclare a simple catch parameter, `catch (e) { var e }`, even as a `for-of`
 *   head (Annex B "VariableStatements in Catch Blocks", which tc39/ecma262#1393 extended to
 *   `for-of` in 2019); a destructured one, `catch ([e])`, may not;
 * - two lexical declarations of one name in one nested scope conflict, and so does a catch
 *   parameter with a lexical declaration of the catch block;
 * - the cell's top level follows the REPL's script-like rules of the binding store instead
 *   (worker/repl/binding-store.ts): `var`/function pairs are allowed and any pair involving
 *   `let`/`const`/`class` is a `REPL_ERR_BINDING` redeclaration.
 *
 * Like V8, the conflict reported is the first one a left-to-right parse discovers (the one whose
 * later declaration comes first), at the `var` when one is involved, else at the second lexical
 * declaration. When that first conflict is at the top level, none is reported here: the binding
 * store rejects the cell later, still before any of its code runs.
 */
import * as walk from 'acorn-walk';

import { forEachPatternIdentifier } from './collect-bindings.js';

import type { ESTree } from 'meriyah';

/** Message of the SyntaxError for a redeclaration in a nested block, exactly V8's. */
export function blockRedeclarationMessage(name: string): string {
  return `Identifier '${name}' has already been declared`;
}

/** A redeclaration to reject a cell for: the name and the position V8 reports. */
export interface Redeclaration {
  readonly name: string;
  /** 1-based line of the reported identifier in the user's cell. */
  readonly line: number;
  /** 0-based column of the reported identifier. */
  readonly column: number;
}

/**
 * `lexical` is `let`/`const`/`class`; `function` is any function declaration (lexical in a
 * nested block, `var`-like at the REPL top level); a `simple-catch-parameter` may be redeclared
 * by `var`, a destructured `catch-parameter` may not.
 */
type DeclarationKind = 'var' | 'lexical' | 'function' | 'simple-catch-parameter' | 'catch-parameter';

interface Declaration {
  readonly name: string;
  readonly kind: DeclarationKind;
  /** Source offset of the identifier: decides which conflict a parse discovers first. */
  readonly start: number;
  /**
   * Where V8 reports this declaration as the redeclaring one: the identifier, except for a
   * function or class declaration, which V8 reports at its first token.
   */
  readonly line: number;
  readonly column: number;
}

interface Scope {
  /** Null for the cell's top level. */
  readonly parent: Scope | null;
  /** Non-`var` declarations of this scope by name, in source order. */
  readonly declarations: Map<string, Declaration[]>;
}

interface VarDeclaration {
  readonly declaration: Declaration;
  /** Innermost scope the `var` appears in; it hoists through this and every enclosing one. */
  readonly scope: Scope;
}

interface WalkState {
  readonly top: Scope;
  scope: Scope;
  readonly vars: VarDeclaration[];
  /** Every scope below the top level, in the order the walk opened them. */
  readonly nested: Scope[];
}

type Continue = (node: ESTree.Node, state: WalkState, override?: string) => void;
type Visitor = (node: never, state: WalkState, c: Continue) => void;

function openScope(state: WalkState): Scope {
  const scope: Scope = { parent: state.scope, declarations: new Map() };
  state.nested.push(scope);
  return scope;
}

function declarationOf(identifier: ESTree.Identifier, kind: DeclarationKind, reportedAt: ESTree.Node): Declaration {
  const position = reportedAt.loc?.start ?? { line: 1, column: 0 };
  return { name: identifier.name, kind, start: identifier.start ?? 0, line: position.line, column: position.column };
}

function declare(state: WalkState, pattern: ESTree.Node, kind: DeclarationKind, declarationNode?: ESTree.Node): void {
  forEachPatternIdentifier(pattern, (identifier) => {
    const declaration = declarationOf(identifier, kind, declarationNode ?? identifier);
    if (kind === 'var') {
      state.vars.push({ declaration, scope: state.scope });
      return;
    }
    const existing = state.scope.declarations.get(identifier.name);
    if (existing === undefined) state.scope.declarations.set(identifier.name, [declaration]);
    else existing.push(declaration);
  });
}

function declareVariables(state: WalkState, node: ESTree.VariableDeclaration): void {
  // `using` declarations are left for V8, which does not support them yet (Node 20).
  if (node.kind !== 'var' && node.kind !== 'let' && node.kind !== 'const') return;
  const kind = node.kind === 'var' ? 'var' : 'lexical';
  for (const declarator of node.declarations) declare(state, declarator.id, kind);
}

/** Runs `body` with `scope` as the current scope, then returns to the enclosing one. */
function inScope(state: WalkState, scope: Scope, body: () => void): void {
  const enclosing = state.scope;
  state.scope = scope;
  body();
  state.scope = enclosing;
}

function walkStatements(statements: readonly ESTree.Node[], state: WalkState, c: Continue): void {
  for (const statement of statements) c(statement, state, 'Statement');
}

/** A `for` head declaring `let`/`const` opens a scope around the loop body; a `var` head does not. */
function walkFor(head: ESTree.Node | null, body: ESTree.Node, state: WalkState, c: Continue): void {
  const lexicalHead = head?.type === 'VariableDeclaration' && head.kind !== 'var';
  inScope(state, lexicalHead ? openScope(state) : state.scope, () => {
    if (head?.type === 'VariableDeclaration') declareVariables(state, head);
    c(body, state, 'Statement');
  });
}

const ignore: Visitor = () => {};

// Only statement positions are walked: expressions, patterns, functions and classes are opaque
// because the lowering leaves their insides as written and V8 checks them.
const functions: Record<string, Visitor> = {
  Expression: ignore,
  Pattern: ignore,
  Function: ignore,
  Class: ignore,
  Program: (node: ESTree.Program, state, c) => walkStatements(node.body, state, c),
  BlockStatement: (node: ESTree.BlockStatement, state, c) =>
    inScope(state, openScope(state), () => walkStatements(node.body, state, c)),
  // All cases of a `switch` share one block.
  SwitchStatement: (node: ESTree.SwitchStatement, state, c) =>
    inScope(state, openScope(state), () => {
      for (const switchCase of node.cases) walkStatements(switchCase.consequent, state, c);
    }),
  // The catch parameter and the catch block's own declarations conflict like one scope's.
  CatchClause: (node: ESTree.CatchClause, state, c) =>
    inScope(state, openScope(state), () => {
      if (node.param !== null) {
        declare(state, node.param, node.param.type === 'Identifier' ? 'simple-catch-parameter' : 'catch-parameter');
      }
      walkStatements(node.body.body, state, c);
    }),
  ForStatement: (node: ESTree.ForStatement, state, c) => walkFor(node.init, node.body, state, c),
  ForInStatement: (node: ESTree.ForInStatement, state, c) => walkFor(node.left, node.body, state, c),
  ForOfStatement: (node: ESTree.ForOfStatement, state, c) => walkFor(node.left, node.body, state, c),
  VariableDeclaration: (node: ESTree.VariableDeclaration, state) => declareVariables(state, node),
  FunctionDeclaration: (node: ESTree.FunctionDeclaration, state) => {
    if (node.id !== null) declare(state, node.id, 'function', node);
  },
  ClassDeclaration: (node: ESTree.ClassDeclaration, state) => {
    if (node.id !== null) declare(state, node.id, 'lexical', node);
  },
};

// acorn-walk's base covers the remaining statements (if, loops, labels, try); built once.
const visitors = walk.make(functions as unknown as walk.RecursiveVisitors<WalkState>, walk.base) as unknown as Record<
  string,
  Visitor
>;

const visit: Continue = (node, state, override) => {
  const visitor = visitors[override ?? node.type];
  if (visitor === undefined) throw new TypeError(`findBlockRedeclaration: no walker for node type ${node.type}`);
  visitor(node as never, state, visit);
};

/** A conflict, with the source offset at which a left-to-right parse discovers it. */
interface Conflict {
  readonly discoveredAt: number;
  readonly reported: Declaration;
}

function isEarlier(candidate: Conflict, best: Conflict | undefined): boolean {
  if (best === undefined) return true;
  // Several `var`s before one lexical declaration: V8 names the first of them.
  return (
    candidate.discoveredAt < best.discoveredAt ||
    (candidate.discoveredAt === best.discoveredAt && candidate.reported.start < best.reported.start)
  );
}

function firstNestedConflict(state: WalkState): Conflict | undefined {
  let first: Conflict | undefined;
  const consider = (conflict: Conflict): void => {
    if (isEarlier(conflict, first)) first = conflict;
  };
  for (const { declaration, scope: innermost } of state.vars) {
    for (let scope: Scope | null = innermost; scope !== null && scope !== state.top; scope = scope.parent) {
      for (const other of scope.declarations.get(declaration.name) ?? []) {
        if (other.kind !== 'simple-catch-parameter') {
          consider({ discoveredAt: Math.max(declaration.start, other.start), reported: declaration });
        }
      }
    }
  }
  for (const scope of state.nested) {
    for (const declarations of scope.declarations.values()) {
      const second = declarations[1];
      if (second !== undefined) consider({ discoveredAt: second.start, reported: second });
    }
  }
  return first;
}

/**
 * Offset of the first top-level redeclaration the binding store rejects: a name declared twice at
 * the top level (`var`s hoist there from every block) where either declaration is lexical.
 */
function firstTopLevelConflict(state: WalkState): number | undefined {
  const declarations = state.vars.map((entry) => entry.declaration);
  for (const list of state.top.declarations.values()) declarations.push(...list);
  declarations.sort((a, b) => a.start - b.start);
  const seenLexical = new Map<string, boolean>();
  for (const declaration of declarations) {
    const lexical = declaration.kind === 'lexical';
    const previousLexical = seenLexical.get(declaration.name);
    if (previousLexical !== undefined && (previousLexical || lexical)) return declaration.start;
    // Reached only when neither side is lexical so far.
    seenLexical.set(declaration.name, lexical);
  }
  return undefined;
}

/**
 * Finds the redeclaration early error V8 would report for `program` below the cell's top level.
 * Returns undefined when there is none, or when a top-level redeclaration comes first (the binding
 * store reports that one, as `REPL_ERR_BINDING`).
 */
export function findBlockRedeclaration(program: ESTree.Program): Redeclaration | undefined {
  const top: Scope = { parent: null, declarations: new Map() };
  const state: WalkState = { top, scope: top, vars: [], nested: [] };
  visit(program, state);
  const nested = firstNestedConflict(state);
  if (nested === undefined) return undefined;
  const topLevel = firstTopLevelConflict(state);
  // On a tie (one `var` conflicting both ways) V8 reports the innermost conflict, i.e. ours.
  if (topLevel !== undefined && topLevel < nested.discoveredAt) return undefined;
  const { name, line, column } = nested.reported;
  return { name, line, column };
}
