// docs/repl.md, "Bindings, and what a name costs", through the real stack (HTTP → worker thread
// → cell runtime): one case per binding rule, each a sequence of cells with the exact text or
// error every cell must produce.
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';

// [name, [[code, expected]...]]: expected is the joined write/stdout text, or {error} for a failed cell.
const CASES = [
  ['var, let, const, function and class persist', [
    ['var v = 1; let l = 2; const c = 3; function f() { return 4 } class K { five() { return 5 } }', ''],
    ['repl.write([v, l, c, f(), new K().five()].join(","))', '1,2,3,4,5'],
  ]],
  ['mutation is visible in later cells', [
    ['let count = 0', ''], ['count += 2; count++', ''], ['repl.write(String(count))', '3'],
  ]],
  ['closures see the live binding', [
    ['let seen = "a"; const read = () => seen', ''], ['seen = "b"', ''], ['repl.write(read())', 'b'],
  ]],
  ['timers see and update the live binding', [
    ['let closureCount = 1; setTimeout(() => { closureCount += 5 }, 10)', ''],
    ['await new Promise((r) => setTimeout(r, 50)); repl.write(String(closureCount))', '6'],
  ]],
  ['TDZ: reading before the declaration in the same cell', [
    ['repl.write(String(tdzRead)); let tdzRead = 1', { error: "Cannot access 'tdzRead' before initialization" }],
  ]],
  ['TDZ: writing before the declaration cannot initialise it', [
    ['tdzWrite = 5; let tdzWrite = 1', { error: "Cannot access 'tdzWrite' before initialization" }],
    ['repl.write(String(tdzWrite))', { error: "Cannot access 'tdzWrite' before initialization" }],
  ]],
  ['const assignment fails with the engine message', [
    ['const fixed = 1', ''], ['fixed = 2', { error: 'Assignment to constant variable.' }], ['repl.write(String(fixed))', '1'],
  ]],
  ['var may be redeclared and keeps its value', [
    ['var again = 1', ''], ['var again; repl.write(String(again))', '1'], ['var again = 3; repl.write(String(again))', '3'],
  ]],
  ['function may redeclare var and vice versa', [
    ['var fv = 1', ''], ['function fv() { return 2 }', ''], ['repl.write(String(fv()))', '2'], ['var fv = 7; repl.write(String(fv))', '7'],
  ]],
  ['any lexical redeclaration is rejected before side effects', [
    ['let lex = 1', ''],
    ['repl.write("side effect"); let lex = 2', { error: "Identifier 'lex' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
    ['var lex = 3', { error: "Identifier 'lex' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
    ['var vv = 1', ''],
    ['const vv = 2', { error: "Identifier 'vv' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
    ['class lex {}', { error: "Identifier 'lex' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
  ]],
  ['partial initialisation keeps what succeeded and reserves the rest', [
    ['let a17 = 17, b17 = (() => { throw new Error("half") })()', { error: 'half' }],
    ['repl.write(String(a17))', '17'],
    ['repl.write(String(b17))', { error: "Cannot access 'b17' before initialization" }],
    ['let b17 = 1', { error: "Identifier 'b17' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
  ]],
  ['names stay reserved when the first statement throws', [
    ['throw new Error("first"); let reservedName = 1', { error: 'first' }],
    ['let reservedName = 2', { error: "Identifier 'reservedName' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run" }],
  ]],
  ['function declarations are hoisted within the cell', [
    ['repl.write(String(hoisted())); function hoisted() { return "up" }', 'up'],
  ]],
  ['reassigning a declared function affects earlier closures', [
    ['function replFunctionValue() { return 1 } const callIt = () => replFunctionValue()', ''],
    ['replFunctionValue = () => 3; repl.write(String(callIt()))', '3'],
  ]],
  ['classes are in TDZ until their statement runs', [
    ['new Later(); class Later {}', { error: "Cannot access 'Later' before initialization" }],
  ]],
  ['destructuring with defaults, rest and computed keys', [
    ['const key = "k"; const { a: da = 1, [key]: dk, ...drest } = { k: 2, x: 3, y: 4 }; const [d0, , d2 = 9, ...dtail] = [0, 1, undefined, 5, 6]', ''],
    ['repl.write(JSON.stringify([da, dk, drest, d0, d2, dtail]))', '[1,2,{"x":3,"y":4},0,9,[5,6]]'],
  ]],
  ['nested and braceless var', [
    ['if (false) var nb1, nb2; do var nb3 = 3; while (0); { var nb4 = 4 } switch (1) { case 1: var nb5 = 5 } try { var nb6 = 6 } finally {} lbl: var nb7 = 7; while (!nb8) var nb8 = 8', ''],
    ['repl.write(JSON.stringify([nb1, nb2, nb3, nb4, nb5, nb6, nb7, nb8]))', '[null,null,3,4,5,6,7,8]'],
  ]],
  ['for heads with var', [
    ['for (var fi = 0; fi < 3; fi++) {} for (var fk in { p: 1 }) {} for (var fo of [7, 8]) {}', ''],
    ['repl.write([fi, fk, fo].join(","))', '3,p,8'],
  ]],
  ['function-local and block-local bindings do not persist', [
    ['function localScope() { var inner = 1; return inner } { let blockOnly = 2 } localScope()', ''],
    ['repl.write(typeof inner + " " + typeof blockOnly)', 'undefined undefined'],
  ]],
  ['Annex B: a var in a catch block assigns the catch parameter', [
    ['var catchShadow = "outer"', ''],
    ['try { throw "caught" } catch (catchShadow) { var catchShadow = "inner"; repl.write(JSON.stringify(catchShadow)) }', '"inner"'],
    ['repl.write(catchShadow)', 'outer'],
  ]],
  ['top-level await', [
    ['const awaited = await Promise.resolve(41) + 1', ''], ['repl.write(String(awaited))', '42'],
  ]],
  ['dynamic import of a built-in with and without node:', [
    ['const os1 = await import("node:os"); const os2 = await import("os"); repl.write(String(os1.EOL === os2.EOL))', 'true'],
  ]],
  ['static import/export and top-level return are rejected; the REPL survives', [
    ['let survives = 1', ''],
    ['import x from "fs"', { error: 'static import/export is not supported in the browser REPL; use dynamic import() instead' }],
    ['export const y = 1', { error: 'static import/export is not supported in the browser REPL; use dynamic import() instead' }],
    ['return 1', { error: 'top-level return is not supported in the browser REPL' }],
    ['repl.write(String(survives))', '1'],
  ]],
  ['TypeScript syntax is rejected as a parse error', [
    ['const typed: number = 1', { errorPattern: /./ }],
  ]],
  ['stack traces carry the user line', [
    ['const one = 1;\nconst two = 2;\nthrow new Error("line three")', { error: 'line three', stackPattern: /browser-repl-cell-\d+\.mjs:3:/ }],
  ]],
];

t.test('binding rules through HTTP and a worker thread', async (t) => {
  const api = await apiServer(t);
  for (const [name, cells] of CASES) {
    t.test(name, async (t) => {
      await api.repl('', { reset: true });
      for (const [code, expected] of cells) {
        const result = await api.repl(code);
        if (typeof expected === 'string') {
          t.equal(result.success, true, `${code} → ${result.error}`);
          t.equal(result.content.map((item) => item.text).join(''), expected, code);
        } else {
          t.equal(result.success, false, code);
          if (expected.error !== undefined) t.equal(result.error, expected.error, code);
          if (expected.errorPattern !== undefined) t.match(result.error, expected.errorPattern, code);
          if (expected.stackPattern !== undefined) t.match(result.stack, expected.stackPattern, code);
          t.notOk('repl_terminated' in result, 'an ordinary error keeps the REPL');
          t.same(result.content, [], 'a rejected cell has no side effects');
        }
      }
    });
  }
});
