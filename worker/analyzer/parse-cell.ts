/**
 * Parses one REPL cell as an ES module and applies the parse-level rejections of a cell
 * (docs/repl.md, "Bindings, and what a name costs"): parse errors, redeclarations in nested
 * blocks, top-level `return`, static `import`/`export`.
 */
import { parseModule } from 'meriyah';

import { blockRedeclarationMessage, findBlockRedeclaration } from './check-redeclarations.js';

import type { ESTree } from 'meriyah';
import type { ErrorCode } from '../../common/errors.js';

/** Message of the SyntaxError thrown for a `return` outside any function. */
export const TOP_LEVEL_RETURN_MESSAGE = 'top-level return is not supported in the browser REPL';

/** Message of the SyntaxError thrown for a static `import` declaration or any `export`. */
export const STATIC_MODULE_SYNTAX_MESSAGE =
  'static import/export is not supported in the browser REPL; use dynamic import() instead';

/** `code` carried by every SyntaxError this module throws (see common/errors.ts). */
export const CELL_SYNTAX_ERROR_CODE = 'REPL_ERR_CELL_SYNTAX' satisfies ErrorCode;

/** File name used in synthetic stack lines when the caller does not name the cell. */
export const DEFAULT_CELL_FILE_NAME = 'browser-repl-cell.mjs';

/** The source offsets meriyah's `ranges` option puts on every node. */
export type Ranged = { start: number; end: number };

/** A node's source offsets (parsed with `ranges: true`). */
export function range(node: ESTree.Node): Ranged {
  return node as unknown as Ranged;
}

/** Options of {@link parseCell}. */
export interface ParseCellOptions {
  /** Name shown in the synthetic stack line of a rejection, e.g. `browser-repl-cell-3.mjs`. */
  readonly fileName?: string;
}

/** A SyntaxError raised for a cell, carrying a registry `code`. */
export type CellSyntaxError = SyntaxError & { code: string };

/**
 * Creates a SyntaxError whose stack is a single frame pointing at the offending cell position, so
 * the user sees `browser-repl-cell-<n>.mjs:<line>:<column>` rather than analyzer internals.
 *
 * @param line 1-based line in the user's cell.
 * @param column 0-based column, as ESTree reports it.
 */
export function createCellSyntaxError(
  message: string,
  code: string,
  position: { fileName: string; line: number; column: number },
  error: SyntaxError = new SyntaxError(message),
): CellSyntaxError {
  const framed = error as CellSyntaxError;
  framed.code = code;
  framed.stack = `SyntaxError: ${message}\n    at ${position.fileName}:${position.line}:${position.column + 1}`;
  return framed;
}

/**
 * Parses `code` with meriyah as a module (strict mode, top-level await, `import.meta`, dynamic
 * `import()`), JavaScript only.
 *
 * meriyah's `lexical` option stays off (its module-goal top-level rules would reject what cells
 * allow, e.g. `var f; function f() {}`); redeclarations below the top level, which the lowering
 * would otherwise hide from V8, are found by {@link findBlockRedeclaration} instead.
 *
 * @throws SyntaxError with the parser's message (meriyah's own `ParseError`, a SyntaxError) for
 *   invalid input, including TypeScript syntax; V8's `Identifier '<name>' has already been
 *   declared` for a redeclaration in a nested block (`{ let f; var f; }`); {@link
 *   TOP_LEVEL_RETURN_MESSAGE} for a top-level `return`; {@link STATIC_MODULE_SYNTAX_MESSAGE} for
 *   static `import`/`export`. All carry `code === 'REPL_ERR_CELL_SYNTAX'`.
 */
export function parseCell(code: string, options: ParseCellOptions = {}): ESTree.Program {
  const fileName = options.fileName ?? DEFAULT_CELL_FILE_NAME;
  let program: ESTree.Program;
  try {
    program = parseModule(code, { next: true, ranges: true, loc: true });
  } catch (error) {
    throw rewriteParseError(error, fileName);
  }
  for (const statement of program.body) {
    // Covers default/namespace/named/side-effect imports and every export form; `import.meta`
    // and `import()` are expressions and never reach here.
    if (statement.type === 'ImportDeclaration' || statement.type.startsWith('Export')) {
      const start = statement.loc?.start ?? { line: 1, column: 0 };
      throw createCellSyntaxError(STATIC_MODULE_SYNTAX_MESSAGE, CELL_SYNTAX_ERROR_CODE, {
        fileName,
        line: start.line,
        column: start.column,
      });
    }
  }
  const redeclaration = findBlockRedeclaration(program);
  if (redeclaration !== undefined) {
    const { name, line, column } = redeclaration;
    throw createCellSyntaxError(blockRedeclarationMessage(name), CELL_SYNTAX_ERROR_CODE, { fileName, line, column });
  }
  return program;
}

interface MeriyahParseError extends SyntaxError {
  loc?: { start: { line: number; column: number } };
}

function rewriteParseError(error: unknown, fileName: string): unknown {
  if (!(error instanceof SyntaxError)) return error;
  const parseError = error as MeriyahParseError;
  const start = parseError.loc?.start ?? { line: 1, column: 0 };
  const position = { fileName, line: start.line, column: start.column };
  // Fragile: relies on meriyah's wording "Illegal return statement"; guarded by
  // test/unit/lower-cell.test.mjs ("top-level return").
  if (parseError.message.includes('return statement')) {
    return createCellSyntaxError(TOP_LEVEL_RETURN_MESSAGE, CELL_SYNTAX_ERROR_CODE, position);
  }
  // The parser's error object is kept as-is (message, loc, range); only its stack, which lists
  // parser internals, is replaced by the cell position.
  return createCellSyntaxError(parseError.message, CELL_SYNTAX_ERROR_CODE, position, parseError);
}
