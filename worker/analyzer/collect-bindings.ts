/**
 * Collects the persistent bindings a cell declares (docs/repl.md, "Bindings, and what a name
 * costs") and, in the same single statement-level walk, the declaration sites the lowerer rewrites.
 */
import * as walk from 'acorn-walk';

import type { ESTree } from 'meriyah';

/** Kind of a persistent top-level binding. */
export type BindingKind = 'var' | 'function' | 'let' | 'const' | 'class';

/** One declared name, in source order. A name declared twice appears twice. */
export interface CellBinding {
  readonly name: string;
  readonly kind: BindingKind;
  /** 1-based line of the declaring identifier in the user's cell. */
  readonly line: number;
  /** 0-based column of the declaring identifier. */
  readonly column: number;
}

/**
 * A place the lowerer must rewrite. `previous` is the statement before this one in the same
 * statement list (null when first); `inList` is false for single-statement positions such as an
 * `if` body, where no `;` may be inserted in front.
 */
export type DeclarationSite =
  | { readonly type: 'lexical'; readonly node: ESTree.VariableDeclaration; readonly previous: ESTree.Node | null }
  | {
      readonly type: 'var-statement';
      readonly node: ESTree.VariableDeclaration;
      readonly inList: boolean;
      readonly previous: ESTree.Node | null;
    }
  | { readonly type: 'var-for-init'; readonly node: ESTree.VariableDeclaration }
  | { readonly type: 'var-for-head'; readonly node: ESTree.VariableDeclaration; readonly forOf: boolean; readonly await: boolean }
  | { readonly type: 'class'; readonly node: ESTree.ClassDeclaration & { id: ESTree.Identifier } }
  | { readonly type: 'function'; readonly node: ESTree.FunctionDeclaration & { id: ESTree.Identifier } };

/** Result of {@link collectBindings}. Both arrays are in source order. */
export interface CollectedBindings {
  readonly bindings: CellBinding[];
  readonly sites: DeclarationSite[];
}

/** Returns true for the lexical kinds (`let`, `const`, `class`). */
export function isLexicalKind(kind: BindingKind): boolean {
  return kind === 'let' || kind === 'const' || kind === 'class';
}

/**
 * Calls `visit` for every identifier leaf of a binding pattern (defaults, rest, nested patterns).
 * Computed keys and default values are expressions, not bindings, and are skipped.
 */
export function forEachPatternIdentifier(pattern: ESTree.Node, visit: (identifier: ESTree.Identifier) => void): void {
  switch (pattern.type) {
    case 'Identifier':
      visit(pattern);
      return;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        forEachPatternIdentifier(property.type === 'RestElement' ? property : property.value, visit);
      }
      return;
    case 'ArrayPattern':
      for (const element of pattern.elements) if (element !== null) forEachPatternIdentifier(element, visit);
      return;
    case 'RestElement':
      forEachPatternIdentifier(pattern.argument, visit);
      return;
    case 'AssignmentPattern':
      forEachPatternIdentifier(pattern.left, visit);
      return;
    default:
      // Member expressions only occur in assignment patterns, never in declarations.
      return;
  }
}

interface WalkState {
  readonly program: ESTree.Program;
  readonly bindings: CellBinding[];
  readonly sites: DeclarationSite[];
  /** The statement list currently being iterated and the item handed to the walker last. */
  listParent: ESTree.Node | null;
  listItem: ESTree.Node | null;
  previous: ESTree.Node | null;
}

type Continue = (node: ESTree.Node, state: WalkState, override?: string) => void;
type Visitor = (node: never, state: WalkState, c: Continue) => void;

const ignore: Visitor = () => {};

function walkList(parent: ESTree.Node, list: readonly ESTree.Node[], state: WalkState, c: Continue): void {
  for (let index = 0; index < list.length; index++) {
    const statement = list[index] as ESTree.Node;
    state.listParent = parent;
    state.listItem = statement;
    state.previous = index === 0 ? null : (list[index - 1] as ESTree.Node);
    c(statement, state, 'Statement');
  }
}

function addNames(state: WalkState, pattern: ESTree.Node, kind: BindingKind): void {
  forEachPatternIdentifier(pattern, (identifier) => {
    const start = identifier.loc?.start ?? { line: 1, column: 0 };
    state.bindings.push({ name: identifier.name, kind, line: start.line, column: start.column });
  });
}

function addDeclarationNames(state: WalkState, declaration: ESTree.VariableDeclaration, kind: BindingKind): void {
  for (const declarator of declaration.declarations) addNames(state, declarator.id, kind);
}

function isTopLevel(node: ESTree.Node, state: WalkState): boolean {
  return state.listItem === node && state.listParent === state.program;
}

function forHead(node: ESTree.Node | null, state: WalkState, site: (declaration: ESTree.VariableDeclaration) => DeclarationSite): void {
  if (node?.type === 'VariableDeclaration' && node.kind === 'var') {
    addDeclarationNames(state, node, 'var');
    state.sites.push(site(node));
  }
  // `let`/`const` heads are loop-scoped; expressions hold no statement-level declarations.
}

// Only statement positions are walked: expressions, patterns, functions and classes are opaque,
// so nested function bodies keep their own `var`s and the walk stays proportional to the number
// of statements, not of AST nodes.
const functions: Record<string, Visitor> = {
  Expression: ignore,
  Pattern: ignore,
  Function: ignore,
  Class: ignore,
  Program: (node: ESTree.Program, state, c) => walkList(node, node.body, state, c),
  BlockStatement: (node: ESTree.BlockStatement, state, c) => walkList(node, node.body, state, c),
  SwitchCase: (node: ESTree.SwitchCase, state, c) => walkList(node, node.consequent, state, c),
  VariableDeclaration: (node: ESTree.VariableDeclaration, state) => {
    if (node.kind === 'var') {
      const inList = state.listItem === node;
      addDeclarationNames(state, node, 'var');
      state.sites.push({ type: 'var-statement', node, inList, previous: inList ? state.previous : null });
    } else if ((node.kind === 'let' || node.kind === 'const') && isTopLevel(node, state)) {
      addDeclarationNames(state, node, node.kind);
      state.sites.push({ type: 'lexical', node, previous: state.previous });
    }
    // Nested `let`/`const` stay block-local; `using` is left for V8 to reject.
  },
  FunctionDeclaration: (node: ESTree.FunctionDeclaration, state) => {
    if (node.id !== null && isTopLevel(node, state)) {
      addNames(state, node.id, 'function');
      state.sites.push({ type: 'function', node: node as ESTree.FunctionDeclaration & { id: ESTree.Identifier } });
    }
  },
  ClassDeclaration: (node: ESTree.ClassDeclaration, state) => {
    if (node.id !== null && isTopLevel(node, state)) {
      addNames(state, node.id, 'class');
      state.sites.push({ type: 'class', node: node as ESTree.ClassDeclaration & { id: ESTree.Identifier } });
    }
  },
  ForStatement: (node: ESTree.ForStatement, state, c) => {
    forHead(node.init, state, (declaration) => ({ type: 'var-for-init', node: declaration }));
    c(node.body, state, 'Statement');
  },
  ForInStatement: (node: ESTree.ForInStatement, state, c) => {
    forHead(node.left, state, (declaration) => ({ type: 'var-for-head', node: declaration, forOf: false, await: false }));
    c(node.body, state, 'Statement');
  },
  ForOfStatement: (node: ESTree.ForOfStatement, state, c) => {
    forHead(node.left, state, (declaration) => ({ type: 'var-for-head', node: declaration, forOf: true, await: node.await }));
    c(node.body, state, 'Statement');
  },
};

// acorn-walk's base covers every ESTree statement type meriyah emits; built once, not per cell.
const visitors = walk.make(functions as unknown as walk.RecursiveVisitors<WalkState>, walk.base) as unknown as Record<
  string,
  Visitor
>;

const visit: Continue = (node, state, override) => {
  const visitor = visitors[override ?? node.type];
  if (visitor === undefined) throw new TypeError(`collectBindings: no walker for node type ${node.type}`);
  visitor(node as never, state, visit);
};

/**
 * Collects the persistent bindings of a parsed cell: top-level `var`/`let`/`const` declarators
 * (every identifier leaf of destructuring patterns), top-level function and class declarations,
 * and `var` declarations nested in statement positions (blocks, `if`/`else`, loops and their
 * heads, `switch` cases, `try`/`catch`/`finally`, labels) but never inside function bodies.
 */
export function collectBindings(program: ESTree.Program): CollectedBindings {
  const state: WalkState = { program, bindings: [], sites: [], listParent: null, listItem: null, previous: null };
  visit(program, state);
  return { bindings: state.bindings, sites: state.sites };
}
