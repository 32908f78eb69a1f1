/**
 * `shell` and `run` print the value of a cell's last expression statement, as Node's REPL and
 * `node -p` do (`chromium-repl run '1+1'` prints `2`). The server ignores values (the HTTP
 * contract, docs/repl.md), so the CLI rewrites the cell before sending it: the final
 * `expression;` becomes a block that logs the value on stdout, in order with the cell's other
 * output. Nothing else of the cell changes; no line is added (line numbers of errors stay right),
 * only the columns of that statement's first line move by the prefix.
 *
 *   repl.write("a"); 1 + 1   →   repl.write("a"); { const v = (1 + 1); if (v !== undefined) console.log(…); }
 *
 * `undefined` prints nothing (a helper call such as `await click("#go")` would print it after
 * every action), and neither do the `repl.*` methods that write their own output (`repl.help()`
 * returns the text it already wrote).
 */
import { parseModule } from 'meriyah';
import type { ESTree } from 'meriyah';

export interface PrintStyle {
  /**
   * `inspect`: every value through `util.inspect`, strings quoted (the shell, like Node's REPL).
   * `print`: strings as they are, other values through `util.inspect` (`run`, like `node -p`).
   */
  strings: 'inspect' | 'print';
  /** ANSI colours in `util.inspect` (a shell on a terminal). */
  colors: boolean;
}

/** Calls of these `repl` methods emit their own output: their value is not printed again. */
const SELF_PRINTING = new Set(['help', 'write', 'emitImage']);

/**
 * `code` with the value of its last statement printed, when that statement is an expression;
 * otherwise (a declaration, a loop, a syntax error the server will report) `code` unchanged.
 */
export function withValuePrinted(code: string, style: PrintStyle): string {
  let program: ESTree.Program;
  try {
    program = parseModule(code, { next: true, ranges: true });
  } catch {
    return code;
  }
  const last = program.body[program.body.length - 1];
  if (last?.type !== 'ExpressionStatement' || selfPrinting(last.expression)) return code;
  // The statement's own text: parentheses around the expression are inside it, its `;` last.
  const { start, end } = last as ESTree.Node & { start: number; end: number };
  const statement = code.slice(start, end);
  const expression = statement.endsWith(';') ? statement.slice(0, -1) : statement;
  const name = freshName(code);
  const inspect = `(await import("node:util")).inspect(${name}, { colors: ${style.colors} })`;
  const shown = style.strings === 'print' ? `typeof ${name} === "string" ? ${name} : ${inspect}` : inspect;
  return `${code.slice(0, start)}{ const ${name} = (${expression}); if (${name} !== undefined) console.log(${shown}); }${code.slice(end)}`;
}

function selfPrinting(expression: ESTree.Expression): boolean {
  const call = expression.type === 'AwaitExpression' ? expression.argument : expression;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression') return false;
  const { object, property } = call.callee;
  return object.type === 'Identifier' && object.name === 'repl' && property.type === 'Identifier' && SELF_PRINTING.has(property.name);
}

/** A block-scoped name the cell does not use. */
function freshName(code: string): string {
  let name = '__chromium_repl_value';
  while (code.includes(name)) name = `${name}_`;
  return name;
}
