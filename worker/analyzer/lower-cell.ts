/**
 * Lowers a cell so its top-level declarations live in persistent global bindings instead of the
 * module scope (docs/architecture.md, "Cells"). The lowering is a list of source edits on the original text:
 * it never adds or removes a line break, so user line N is generated line N + 1 (line 1 holds the
 * prelude) and stacks stay exact with `lineOffset: -1`.
 *
 * Shapes (T is the per-cell initialization target):
 *   let a = 1, {b, c: [d = 2]} = o   →  T["a"] = 1, ({b: T["b"], c: [T["d"] = 2]} = o);
 *   let f = () => 1                  →  T["f"] = {"f": () => 1}["f"];   (keeps f.name === "f")
 *   var x = 1, y; var [p] = q        →  x = 1, void 0; [p] = q
 *   class C {}                       →  T["C"] = (class C {});
 *   function f() {}                  →  function __browser_repl_function_f() {}   + prelude
 *
 * `var` initializers assign the bare name rather than `globalThis["name"]`: with the declaration
 * removed it resolves to the persistent global accessor, except inside a catch block whose simple
 * parameter has the same name, where it resolves to the parameter — exactly Annex-B semantics
 * (docs/repl.md, "Bindings"). It also keeps function-name inference and survives a user binding named `globalThis`.
 * Guarded by the golden table in test/unit/lower-cell.test.mjs and by the semantic tests in
 * test/unit/cell-evaluator.test.mjs.
 */
import { collectBindings } from './collect-bindings.js';
import { parseCell, range } from './parse-cell.js';

import type { ESTree } from 'meriyah';
import type { CellBinding, DeclarationSite } from './collect-bindings.js';
import type { SourceEdit } from './source-positions.js';

/** Options of {@link lowerCell}. */
export interface LowerCellOptions {
  /** Sequence number of the cell; names the module in rejection stacks. */
  readonly cellSeq: number;
  /** Global identifier of the cell's initialization target, e.g. `__browser_repl_init_3_<hex>`. */
  readonly initTargetName: string;
  /** Module file name shown in stacks; defaults to `browser-repl-cell-<cellSeq>.mjs`. */
  readonly fileName?: string;
}

/** Result of {@link lowerCell}. */
export interface LoweredCell {
  /** Module source: one prelude line, then the user's lines with the same line breaks. */
  readonly source: string;
  /** Declared bindings in source order (duplicates kept, for redeclaration checks). */
  readonly bindings: readonly CellBinding[];
  /** Characters of `source` before the user's first line (the prelude and its line break). */
  readonly preludeLength: number;
  /** The edits of the user's code, in the order applied (source-positions.ts maps columns back). */
  readonly edits: readonly SourceEdit[];
}

/** Prefix of the module-local alias a top-level function declaration is renamed to. */
export const FUNCTION_ALIAS_PREFIX = '__browser_repl_function_';

/** `function`, `async function`, generators, comments in between, then the alias. */
const ALIASED_DECLARATION = new RegExp(`(\\bfunction\\b(?:\\s|\\*|/\\*[\\s\\S]*?\\*/|//[^\\n\\r\\u2028\\u2029]*[\\n\\r\\u2028\\u2029])*)${FUNCTION_ALIAS_PREFIX}`, 'g');

/**
 * The source text of a top-level function declaration as written: its name, not the alias the
 * lowering gave it (`String(f)` of `function f() {}`). An alias that got `_` appended because the
 * cell already contained it keeps them (see {@link lowerCell}).
 */
export function restoreFunctionNames(text: string): string {
  return text.includes(FUNCTION_ALIAS_PREFIX) ? text.replace(ALIASED_DECLARATION, '$1') : text;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}


const LINE_BREAKS = /[\n\r\u2028\u2029]/g;

/** The removed span collapsed to its line breaks, so line numbers never move. */
function lineBreaksOf(text: string): string {
  const breaks = text.match(LINE_BREAKS);
  return breaks === null ? '' : breaks.join('');
}

function isAnonymousFunctionDefinition(node: ESTree.Node): boolean {
  return (
    node.type === 'ArrowFunctionExpression' ||
    ((node.type === 'FunctionExpression' || node.type === 'ClassExpression') && node.id === null)
  );
}

class CellLowerer {
  readonly #code: string;
  readonly #target: string;
  readonly edits: Edit[] = [];
  /** Lowered statements that now end with `;` (sites are lowered in source order). */
  readonly #terminated = new Set<ESTree.Node>();

  constructor(code: string, initTargetName: string) {
    this.#code = code;
    this.#target = initTargetName;
  }

  #insert(at: number, text: string): void {
    this.edits.push({ start: at, end: at, text });
  }

  #replace(node: ESTree.Node, text: string): void {
    const { start, end } = range(node);
    this.edits.push({ start, end, text });
  }

  #targetOf(name: string): string {
    return `${this.#target}[${JSON.stringify(name)}]`;
  }

  /** `x = <anonymous fn>` through a member target would lose the name; an object key keeps it. */
  #nameAnonymous(name: string, value: ESTree.Node): void {
    if (!isAnonymousFunctionDefinition(value)) return;
    const key = JSON.stringify(name);
    // A literal "__proto__" key would be a prototype setter, which skips function naming.
    const property = name === '__proto__' ? `[${key}]` : key;
    this.#insert(range(value).start, `{${property}: `);
    this.#insert(range(value).end, `}[${key}]`);
  }

  #removeKeyword(declaration: ESTree.VariableDeclaration): void {
    const first = declaration.declarations[0] as ESTree.VariableDeclarator;
    const start = range(declaration).start;
    const end = range(first).start;
    this.edits.push({ start, end, text: lineBreaksOf(this.#code.slice(start, end)) });
  }

  /** Rewrites pattern leaves to target properties, keeping keys, computed keys, defaults, rest. */
  #lowerLexicalPattern(pattern: ESTree.Node): void {
    switch (pattern.type) {
      case 'Identifier':
        this.#replace(pattern, this.#targetOf(pattern.name));
        return;
      case 'ObjectPattern':
        for (const property of pattern.properties) {
          if (property.type === 'RestElement' || !property.shorthand) {
            this.#lowerLexicalPattern(property.type === 'RestElement' ? property : property.value);
            continue;
          }
          // `{a}` / `{a = d}`: the key is also the leaf, so spell the key out before the target.
          const value = property.value;
          const leaf = value.type === 'AssignmentPattern' ? value.left : value;
          if (leaf.type !== 'Identifier') continue;
          const { start, end } = range(property.key);
          this.#replace(leaf, `${this.#code.slice(start, end)}: ${this.#targetOf(leaf.name)}`);
          if (value.type === 'AssignmentPattern' && value.right !== undefined) this.#nameAnonymous(leaf.name, value.right);
        }
        return;
      case 'ArrayPattern':
        for (const element of pattern.elements) if (element !== null) this.#lowerLexicalPattern(element);
        return;
      case 'RestElement':
        this.#lowerLexicalPattern(pattern.argument);
        return;
      case 'AssignmentPattern':
        this.#lowerLexicalPattern(pattern.left);
        if (pattern.left.type === 'Identifier' && pattern.right !== undefined) {
          this.#nameAnonymous(pattern.left.name, pattern.right);
        }
        return;
      default:
        return;
    }
  }

  /**
   * Turns declarators into comma-joined assignment expressions. Object patterns get parentheses
   * so a statement never starts with `{`. Returns whether the result starts with `(` or `[`.
   */
  #lowerDeclarators(declaration: ESTree.VariableDeclaration, lexical: boolean): boolean {
    let startsWithBracket = false;
    declaration.declarations.forEach((declarator, index) => {
      const { id, init } = declarator;
      if (id.type === 'Identifier') {
        if (lexical) {
          this.#replace(id, this.#targetOf(id.name));
          if (init === null) this.#insert(range(id).end, ' = void 0');
          else this.#nameAnonymous(id.name, init);
        } else if (init === null) {
          this.#replace(declarator, 'void 0');
        }
        return;
      }
      if (index === 0) startsWithBracket = true;
      if (lexical) this.#lowerLexicalPattern(id);
      if (id.type === 'ObjectPattern') {
        this.#insert(range(declarator).start, '(');
        this.#insert(range(declarator).end, ')');
      }
    });
    return startsWithBracket;
  }

  /**
   * A declaration statement becomes an expression statement: it may need a `;` in front (when it
   * now starts with `(`/`[` after a statement that relied on ASI) and one behind (when it relied
   * on ASI itself and the next line starts with `(`, `[` or a template).
   */
  #lowerStatement(declaration: ESTree.VariableDeclaration, lexical: boolean, previous: ESTree.Node | null, inList: boolean): void {
    const { start, end } = range(declaration);
    const startsWithBracket = this.#lowerDeclarators(declaration, lexical);
    if (startsWithBracket && inList && previous !== null && !this.#endsWithSemicolon(previous)) this.#insert(start, ';');
    this.#removeKeyword(declaration);
    if (this.#code.charCodeAt(end - 1) !== 0x3b /* ; */) this.#insert(end, ';');
    this.#terminated.add(declaration);
  }

  /** Whether a statement ends with `;` once lowered (in the source, or appended by us). */
  #endsWithSemicolon(statement: ESTree.Node): boolean {
    return this.#terminated.has(statement) || this.#code.charCodeAt(range(statement).end - 1) === 0x3b;
  }

  lower(site: DeclarationSite, functionAlias: (name: string) => string): void {
    switch (site.type) {
      case 'lexical':
        this.#lowerStatement(site.node, true, site.previous, true);
        return;
      case 'var-statement':
        this.#lowerStatement(site.node, false, site.previous, site.inList);
        return;
      case 'var-for-init':
        this.#removeKeyword(site.node);
        this.#lowerDeclarators(site.node, false);
        return;
      case 'var-for-head': {
        this.#removeKeyword(site.node);
        const id = (site.node.declarations[0] as ESTree.VariableDeclarator).id;
        // `for (async of x)` is a grammar error (it reads as an async arrow); `(async)` is not.
        if (site.forOf && !site.await && id.type === 'Identifier' && id.name === 'async') this.#replace(id, '(async)');
        return;
      }
      case 'class': {
        const { start, end } = range(site.node);
        this.#insert(start, `${this.#targetOf(site.node.id.name)} = (`);
        this.#insert(end, ');');
        this.#terminated.add(site.node);
        return;
      }
      case 'function':
        this.#replace(site.node.id, functionAlias(site.node.id.name));
        return;
    }
  }

  apply(prelude: string): { source: string; edits: SourceEdit[] } {
    const code = this.#code;
    // Edits are produced almost in order; a stable sort keeps same-position inserts in the order
    // they were generated (e.g. `)` before the ASI `;`).
    const edits = this.edits.sort((a, b) => a.start - b.start || a.end - b.end);
    let output = prelude + '\n';
    let position = 0;
    for (const edit of edits) {
      output += code.slice(position, edit.start) + edit.text;
      position = edit.end;
    }
    return { source: output + code.slice(position), edits: edits.map(({ start, end, text }) => ({ start, end, length: text.length })) };
  }
}

/**
 * Parses, checks and lowers one cell. Pure: no vm, no global state.
 *
 * Top-level `let`/`const`/`class` and function installs go through `initTargetName`; `var`
 * assigns the bare name; function declarations are renamed to unique aliases installed by a
 * one-line prelude (the last declaration of a name wins), so they are callable from line 1.
 *
 * @throws SyntaxError from {@link parseCell} (parse error, top-level return, static import/export).
 */
export function lowerCell(code: string, options: LowerCellOptions): LoweredCell {
  const fileName = options.fileName ?? `browser-repl-cell-${options.cellSeq}.mjs`;
  const program = parseCell(code, { fileName });
  const { bindings, sites } = collectBindings(program);
  const lowerer = new CellLowerer(code, options.initTargetName);

  // A hashbang is only legal on line 1, which the prelude now occupies.
  if (code.startsWith('#!')) lowerer.edits.push({ start: 0, end: 2, text: '//' });

  const installs = new Map<string, string>();
  const usedAliases = new Set<string>();
  const functionAlias = (name: string): string => {
    let alias = FUNCTION_ALIAS_PREFIX + name;
    while (usedAliases.has(alias) || code.includes(alias)) alias += '_';
    usedAliases.add(alias);
    installs.delete(name); // re-insert so the prelude order follows the last declaration
    installs.set(name, alias);
    return alias;
  };
  for (const site of sites) lowerer.lower(site, functionAlias);

  let prelude = '';
  for (const [name, alias] of installs) {
    prelude += `${options.initTargetName}[${JSON.stringify(name)}] = ${alias}; `;
  }
  prelude = prelude.trimEnd();
  const { source, edits } = lowerer.apply(prelude);
  return { source, bindings, preludeLength: prelude.length + 1, edits };
}

