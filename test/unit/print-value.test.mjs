// lib/cli/print-value.ts (issue 27): the CLI prints the value of a cell's last expression by
// rewriting that statement; everything else of the cell, and every line number, stays as written.
import t from 'tap';
import vm from 'node:vm';
import { inspect } from 'node:util';
import { withValuePrinted } from '../../dist/lib/cli/print-value.js';

const shell = { strings: 'inspect', colors: false };
const run = { strings: 'print', colors: false };

/** Runs rewritten code as an async function body and collects what it logs. */
async function logged(code, style) {
  const lines = [];
  const context = vm.createContext({ console: { log: (value) => lines.push(value) } });
  // The rewrite imports node:util; stand in for the REPL's dynamic import.
  const body = withValuePrinted(code, style).replaceAll('await import("node:util")', '__util');
  await vm.runInContext(`(async (__util) => { ${body} \n})`, context)({ inspect });
  return lines;
}

t.test('the last expression statement is printed, in both styles', async (t) => {
  t.same(await logged('1 + 1', shell), ['2']);
  t.same(await logged('"abc"', shell), ["'abc'"], 'the shell quotes strings, as Node\'s REPL does');
  t.same(await logged('"abc"', run), ['abc'], 'run prints them as they are, as node -p does');
  t.same(await logged('const o = { a: [1] }; o;', run), ['{ a: [ 1 ] }']);
  t.same(await logged('({ a: 1 })', shell), ['{ a: 1 }'], 'parentheses of the statement are kept');
  t.same(await logged('let x = 2\nx * 3 // the answer', shell), ['6']);
  t.same(await logged('await Promise.resolve(4)', shell), ['4']);
  t.same(await logged('undefined', shell), [], 'undefined prints nothing');
  t.same(await logged('void 0;', run), []);
});

t.test('left unchanged: no final expression, self-printing repl methods, syntax errors', async (t) => {
  for (const code of ['let y = 1', 'function f() {}', 'for (;;) break', 'repl.write(1)', 'await repl.emitImage(x)', 'repl.help("click")', 'foo(1 2', 'return 1', '']) {
    t.equal(withValuePrinted(code, shell), code, JSON.stringify(code));
  }
});

t.test('lines stay where they were; the value name never collides with the cell\'s', async (t) => {
  const code = 'const a = 1\nconst __chromium_repl_value = 2\na +\n  __chromium_repl_value';
  const rewritten = withValuePrinted(code, shell);
  t.equal(rewritten.split('\n').length, code.split('\n').length);
  t.match(rewritten, /const __chromium_repl_value_ = \(a \+/);
  t.same(await logged(code, shell), ['3']);
});

t.test('colours are passed to util.inspect', async (t) => {
  t.match(withValuePrinted('1', { strings: 'inspect', colors: true }), /colors: true/);
});
