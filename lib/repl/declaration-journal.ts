/**
 * The journal that re-teaches a REPL after its worker died (issue 33, docs/repl.md "Re-teach after
 * a crash"). A worker that ran out of memory, crashed or was ended at a timeout takes its bindings
 * with it; an agent would have to send dozens of helpers again from its context. With the journal
 * on, the host keeps the source of every top-level declaration a successful cell made that can be
 * declared again without running anything: function declarations, and classes and `const`s whose
 * evaluation has no side effect by a conservative static check (literals, functions, classes
 * without static code, object and array literals of those, names the journal itself declares).
 * The next call after a worker died declares them again in the new worker, in their order, before
 * the call's own code, and its answer says which came back and which could not.
 *
 * Kept in the host (the main thread), not in the worker: what it must survive is the worker. The
 * cell is parsed once more here, only for REPLs that turned the journal on.
 *
 * `let` and `var` never come back: their value may have changed since their declaration, and
 * declaring them again would bring back a value the program no longer had.
 */
import { parseModule } from 'meriyah';
import type { ESTree } from 'meriyah';

/** Most declarations one journal keeps, and most characters of their sources together. */
export const JOURNAL_MAX_ENTRIES = 1000;
export const JOURNAL_MAX_SOURCE_CHARS = 1024 * 1024;

/** What kind of declaration an entry re-declares. */
export type JournalKind = 'function' | 'class' | 'const';

/** One declaration the journal can make again. */
export interface JournalEntry {
  readonly kind: JournalKind;
  /** The names it binds (a `const` statement may bind several). */
  readonly names: readonly string[];
  /** The statement as the user wrote it. */
  readonly source: string;
}

/** A name the journal cannot bring back, and why. */
export interface NotRestored {
  readonly name: string;
  readonly reason: string;
}

/** What a restore did: the names declared again, and those that could not be. */
export interface RestoreReport {
  readonly restored: string[];
  readonly notRestored: NotRestored[];
}

/** What {@link journalOf} finds in one cell. */
export interface CellDeclarations {
  readonly entries: JournalEntry[];
  readonly notRestored: NotRestored[];
}

const SIDE_EFFECTS = 'its initialiser may have side effects (a call, a property read, an await…), so it is not run again';
const MUTABLE = (kind: string) => `a \`${kind}\` can change after its declaration, so its value is not brought back; declare it with const, or as a function`;
const PATTERN = 'a destructuring declaration reads properties, which may run code, so it is not run again';
const STATIC_CODE = 'the class runs code when it is declared (a static block, a static field, a computed key or a heritage that is not a name the journal declares), so it is not run again';

/** Names any cell may read without running code. */
const HARMLESS_GLOBALS = new Set(['undefined', 'NaN', 'Infinity']);

/**
 * The declarations of one successful cell: those the journal can make again, and the top-level
 * names it cannot, each with its reason. `known` holds the names the journal declares already
 * (an initialiser may read them). Never throws: a cell the journal cannot parse yields nothing.
 */
export function journalOf(code: string, known: ReadonlySet<string>): CellDeclarations {
  let program: ESTree.Program;
  try {
    program = parseModule(code, { next: true, ranges: true });
  } catch {
    return { entries: [], notRestored: [] };
  }
  const entries: JournalEntry[] = [];
  const notRestored: NotRestored[] = [];
  // Names this cell declares count as known for its later statements (a class after its base).
  const names = new Set(known);
  for (const statement of program.body) {
    const source = code.slice(statement.start, statement.end);
    if (statement.type === 'FunctionDeclaration' && statement.id !== null) {
      entries.push({ kind: 'function', names: [statement.id.name], source });
      names.add(statement.id.name);
    } else if (statement.type === 'ClassDeclaration' && statement.id !== null) {
      const name = statement.id.name;
      if (classIsInert(statement, names)) {
        entries.push({ kind: 'class', names: [name], source });
        names.add(name);
      } else {
        notRestored.push({ name, reason: STATIC_CODE });
      }
    } else if (statement.type === 'VariableDeclaration') {
      const bound = statement.declarations.flatMap((declarator) => boundNames(declarator.id));
      if (statement.kind !== 'const') {
        for (const name of bound) notRestored.push({ name, reason: MUTABLE(statement.kind) });
        continue;
      }
      const reason = constReason(statement, names);
      if (reason === undefined) {
        entries.push({ kind: 'const', names: bound, source });
        for (const name of bound) names.add(name);
      } else {
        for (const name of bound) notRestored.push({ name, reason });
      }
    }
  }
  return { entries, notRestored };
}

/** Why a `const` statement cannot be declared again, or undefined when it can. */
function constReason(statement: ESTree.VariableDeclaration, known: ReadonlySet<string>): string | undefined {
  for (const declarator of statement.declarations) {
    if (declarator.id.type !== 'Identifier') return PATTERN;
    if (declarator.init === null || declarator.init === undefined || !isInert(declarator.init, known)) return SIDE_EFFECTS;
  }
  return undefined;
}

/** Every name a binding pattern binds. */
function boundNames(pattern: ESTree.Node): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) => boundNames(property.type === 'RestElement' ? property.argument : property.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element === null ? [] : boundNames(element)));
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    case 'RestElement':
      return boundNames(pattern.argument);
    default:
      return [];
  }
}

/**
 * True when evaluating `node` runs no code and reads nothing that could: literals, functions,
 * inert classes, object and array literals of inert values with plain keys, unary operators on
 * literals, template strings without substitutions, and names the journal declares.
 */
function isInert(node: ESTree.Node, known: ReadonlySet<string>): boolean {
  switch (node.type) {
    case 'Literal':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return true;
    case 'TemplateLiteral':
      return node.expressions.length === 0;
    case 'Identifier':
      return known.has(node.name) || HARMLESS_GLOBALS.has(node.name);
    case 'UnaryExpression':
      // On a literal only: on anything else `-x` may call valueOf.
      return node.operator !== 'delete' && (node.argument.type === 'Literal' || (node.argument.type === 'UnaryExpression' && isInert(node.argument, known)));
    case 'ClassExpression':
      return classIsInert(node, known);
    case 'ArrayExpression':
      return node.elements.every((element) => element === null || (element.type !== 'SpreadElement' && isInert(element, known)));
    case 'ObjectExpression':
      return node.properties.every((property) => property.type === 'Property'
        && (!property.computed || property.key.type === 'Literal')
        && (property.kind !== 'init' || property.method || isInert(property.value, known)));
    default:
      return false;
  }
}

/** A class whose declaration runs no code: no static block, no static field with code, plain keys, a known base. */
function classIsInert(node: ESTree.ClassDeclaration | ESTree.ClassExpression, known: ReadonlySet<string>): boolean {
  if ((node.decorators?.length ?? 0) > 0) return false;
  if (node.superClass !== null && node.superClass !== undefined && !(node.superClass.type === 'Identifier' && known.has(node.superClass.name))) return false;
  for (const element of node.body.body) {
    if (element.type === 'StaticBlock') return false;
    if ((element as { decorators?: unknown[] }).decorators?.length) return false;
    if (element.type === 'MethodDefinition' || element.type === 'PropertyDefinition' || element.type === 'AccessorProperty') {
      if (element.computed && element.key?.type !== 'Literal') return false;
      // Instance fields run at `new`, not at the declaration; static ones run now.
      if (element.type !== 'MethodDefinition' && element.static && element.value !== null && element.value !== undefined && !isInert(element.value, known)) return false;
    }
  }
  return true;
}

/** The declarations of a REPL's successful cells, bounded (see the module comment). */
export class DeclarationJournal {
  /** In declaration order; a function declared again replaces its entry, at the end. */
  #entries: JournalEntry[] = [];
  /** Names that cannot come back, with why; a name declared again as a kept kind leaves it. */
  readonly #notRestored = new Map<string, string>();
  #chars = 0;

  get size(): number {
    return this.#entries.length;
  }

  get entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  /** The names the journal cannot bring back, with why. */
  get notRestored(): NotRestored[] {
    return [...this.#notRestored].map(([name, reason]) => ({ name, reason }));
  }

  /** Takes the declarations of a cell that succeeded. */
  record(code: string): void {
    const known = new Set(this.#entries.flatMap((entry) => entry.names));
    const { entries, notRestored } = journalOf(code, known);
    for (const { name, reason } of notRestored) this.#notRestored.set(name, reason);
    for (const entry of entries) {
      // A function declared again (cells may) is kept as last written.
      if (entry.kind === 'function') this.#remove(entry.names[0]!);
      if (this.#entries.length >= JOURNAL_MAX_ENTRIES || this.#chars + entry.source.length > JOURNAL_MAX_SOURCE_CHARS) {
        for (const name of entry.names) this.#notRestored.set(name, `the journal is full (${JOURNAL_MAX_ENTRIES} declarations or ${JOURNAL_MAX_SOURCE_CHARS} characters)`);
        continue;
      }
      this.#entries.push(entry);
      this.#chars += entry.source.length;
      for (const name of entry.names) this.#notRestored.delete(name);
    }
  }

  clear(): void {
    this.#entries = [];
    this.#notRestored.clear();
    this.#chars = 0;
  }

  /**
   * The cells that declare the journal again: all functions in one (their declarations cannot
   * fail in a fresh worker), then each class and `const` on its own, so one that fails leaves the
   * others, and no binding of a failed one is left half-initialised beside them.
   */
  restoreCells(): Array<{ code: string; names: readonly string[] }> {
    const functions = this.#entries.filter((entry) => entry.kind === 'function');
    const cells: Array<{ code: string; names: readonly string[] }> = [];
    if (functions.length > 0) cells.push({ code: functions.map((entry) => entry.source).join('\n'), names: functions.flatMap((entry) => entry.names) });
    for (const entry of this.#entries) if (entry.kind !== 'function') cells.push({ code: entry.source, names: entry.names });
    return cells;
  }

  #remove(name: string): void {
    const index = this.#entries.findIndex((entry) => entry.kind === 'function' && entry.names[0] === name);
    if (index === -1) return;
    this.#chars -= this.#entries[index]!.source.length;
    this.#entries.splice(index, 1);
  }
}
