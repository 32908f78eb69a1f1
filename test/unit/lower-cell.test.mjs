import t from 'tap';
import { parseModule } from 'meriyah';
import { lowerCell } from '../../dist/worker/analyzer/lower-cell.js';
import { collectBindings } from '../../dist/worker/analyzer/collect-bindings.js';
import {
  parseCell,
  STATIC_MODULE_SYNTAX_MESSAGE,
  TOP_LEVEL_RETURN_MESSAGE,
} from '../../dist/worker/analyzer/parse-cell.js';

const lower = (code) => lowerCell(code, { cellSeq: 7, initTargetName: 'T' });
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

/**
 * Golden table: [input, expected lowered source]. The first line of every output is the prelude
 * (empty unless the cell declares functions); the rest keeps the input's line breaks.
 */
const golden = [
  // --- let / const: keyword removed, declarators assign through the init target
  ['let x = 1', '\nT["x"] = 1;'],
  ['let x = 1;', '\nT["x"] = 1;'],
  ['let a = 1, b;\nconst c = 3;', '\nT["a"] = 1, T["b"] = void 0;\nT["c"] = 3;'],
  ['let /* c */ x = 1 // tail', '\nT["x"] = 1; // tail'],
  ['let\nx\n=\n1', '\n\nT["x"]\n=\n1;'],
  ['let a = 1\r\nlet b = 2', '\nT["a"] = 1;\r\nT["b"] = 2;'],
  ['let \\u0061b = 1', '\nT["ab"] = 1;'],
  // --- destructuring: leaves become target properties; defaults, rest, computed keys kept
  ['const {a, b: [c = 1], [k]: d, ...r} = o;', '\n({a: T["a"], b: [T["c"] = 1], [k]: T["d"], ...T["r"]} = o);'],
  ['let [h, , ...t] = arr;', '\n[T["h"], , ...T["t"]] = arr;'],
  ['let {a: {b: [c, ...d]} = {}} = o', '\n({a: {b: [T["c"], ...T["d"]]} = {}} = o);'],
  ['let [x, y] = [1, 2], {z} = o', '\n[T["x"], T["y"]] = [1, 2], ({z: T["z"]} = o);'],
  // --- anonymous functions keep their binding name through an object key
  ['let f = () => 1, g = function () {}, h = class {};', '\nT["f"] = {"f": () => 1}["f"], T["g"] = {"g": function () {}}["g"], T["h"] = {"h": class {}}["h"];'],
  ['let {a = () => 1} = o, [b = async () => 2] = p;', '\n({a: T["a"] = {"a": () => 1}["a"]} = o), [T["b"] = {"b": async () => 2}["b"]] = p;'],
  ['let __proto__ = () => 1;', '\nT["__proto__"] = {["__proto__"]: () => 1}["__proto__"];'],
  ['const named = function inner() {};', '\nT["named"] = function inner() {};'],
  // --- ASI: a `;` behind when the declaration relied on ASI, in front when it now starts with ( or [
  ['foo()\nlet [a] = b', '\nfoo()\n;[T["a"]] = b;'],
  ['x = 1;\nlet [a] = b;', '\nx = 1;\n[T["a"]] = b;'],
  ['let a = 1\nlet {b} = c', '\nT["a"] = 1;\n({b: T["b"]} = c);'],
  ['let x\n(foo)()', '\nT["x"] = void 0;\n(foo)()'],
  ['let x = 1\n++y', '\nT["x"] = 1;\n++y'],
  ['var x = 1 // note\nvar y', '\nx = 1; // note\nvoid 0;'],
  // --- top-level await
  ['await 1; let y = await load();', '\nawait 1; T["y"] = await load();'],
  ['const res = await Promise.all([a(), b()])', '\nT["res"] = await Promise.all([a(), b()]);'],
  ['for await (const chunk of stream) use(chunk)', '\nfor await (const chunk of stream) use(chunk)'],
  // --- var: bare-name assignment, `void 0` without initializer
  ['var x = 1, y;', '\nx = 1, void 0;'],
  ['var [p, q] = pair, {r} = obj;', '\n[p, q] = pair, ({r} = obj);'],
  ['var {a} = o', '\n({a} = o);'],
  ['if (false) var a, b;', '\nif (false) void 0, void 0;'],
  ['if (c) var a = 1\nelse var b = 2', '\nif (c) a = 1;\nelse b = 2;'],
  ['do var x; while (0)', '\ndo void 0; while (0)'],
  ['while (!w) var w = 1;', '\nwhile (!w) w = 1;'],
  ['label: var l = 1;', '\nlabel: l = 1;'],
  ['switch (x) { case 1: var q = 1; let z = 2 }', '\nswitch (x) { case 1: q = 1; let z = 2 }'],
  ['try { var t1 = 1 } catch (e) { var c1 } finally { var f1 = 2 }', '\ntry { t1 = 1; } catch (e) { void 0; } finally { f1 = 2; }'],
  // --- for heads
  ['for (var i = 0, j; i < 3; i++) {}', '\nfor (i = 0, void 0; i < 3; i++) {}'],
  ['for (var k in obj) {}', '\nfor (k in obj) {}'],
  ['for (var [a, b] of pairs) {}', '\nfor ([a, b] of pairs) {}'],
  ['for (var {a} of list) {}', '\nfor ({a} of list) {}'],
  ['for (var async of list) {}', '\nfor ((async) of list) {}'],
  ['for await (var v of stream) {}', '\nfor await (v of stream) {}'],
  ['for (let i = 0; i < 3; i++) { var inner = i }', '\nfor (let i = 0; i < 3; i++) { inner = i; }'],
  // --- Annex-B catch shadowing: the bare name resolves to the catch parameter
  [
    'try { throw "caught" } catch (catchShadow) { var catchShadow = "inner"; repl.write(JSON.stringify(catchShadow)) }',
    '\ntry { throw "caught" } catch (catchShadow) { catchShadow = "inner"; repl.write(JSON.stringify(catchShadow)) }',
  ],
  // Annex B also lets a `for-of` var head redeclare a simple catch parameter (V8 agrees).
  ['try {} catch (e) { for (var e of []) {} }', '\ntry {} catch (e) { for (e of []) {} }'],
  // --- a var only conflicts with lexical declarations of the blocks it hoists through
  ['{ var f; } { let f; }', '\n{ void 0; } { let f; }'],
  ['label: { let f; } var f;', '\nlabel: { let f; } void 0;'],
  // --- class: assigned when its statement runs (TDZ until then)
  ['class C extends B { static x = C }', '\nT["C"] = (class C extends B { static x = C });'],
  ['class C {}\n[1].forEach(f)', '\nT["C"] = (class C {});\n[1].forEach(f)'],
  // --- function: renamed to an alias, installed by the one-line prelude
  ['f(); function f() { return 1 }', 'T["f"] = __browser_repl_function_f;\nf(); function __browser_repl_function_f() { return 1 }'],
  ['async function* gen() {}', 'T["gen"] = __browser_repl_function_gen;\nasync function* __browser_repl_function_gen() {}'],
  ['function a() {}\nfunction b() {}', 'T["a"] = __browser_repl_function_a; T["b"] = __browser_repl_function_b;\nfunction __browser_repl_function_a() {}\nfunction __browser_repl_function_b() {}'],
  ['function f() {} function f() {}', 'T["f"] = __browser_repl_function_f_;\nfunction __browser_repl_function_f() {} function __browser_repl_function_f_() {}'],
  ['const __browser_repl_function_f = 1; function f() {}', 'T["f"] = __browser_repl_function_f_;\nT["__browser_repl_function_f"] = 1; function __browser_repl_function_f_() {}'],
  ['function g() { var local = 1; let l2 = 2 }', 'T["g"] = __browser_repl_function_g;\nfunction __browser_repl_function_g() { var local = 1; let l2 = 2 }'],
  // --- nested lexical declarations and functions stay block-local; nested var is lifted
  ['{ let blk = 1; class K {} function h() {} var out = 2 }', '\n{ let blk = 1; class K {} function h() {} out = 2; }'],
  // --- input that needs no lowering
  ['({a: 1})', '\n({a: 1})'],
  ['{a: 1}', '\n{a: 1}'],
  ['import.meta.url; await import("node:path")', '\nimport.meta.url; await import("node:path")'],
  ['', '\n'],
  // --- a hashbang cannot stay behind the prelude line
  ['#!/usr/bin/env node\nlet x = 1', '\n///usr/bin/env node\nT["x"] = 1;'],
];

function pass(t, code) {
  const { source } = lower(code);
  t.doesNotThrow(() => parseModule(source, { next: true }), `lowered ${JSON.stringify(code)} is a valid module`);
  t.equal(source.split(LINE_BREAK).length, code.split(LINE_BREAK).length + 1, 'one prelude line, no line moved');
  return source;
}

/** `line | source` plus a caret under the reported column, from the synthetic stack frame. */
function codeFrame(code, error) {
  const match = /browser-repl-cell-7\.mjs:(\d+):(\d+)$/.exec(error.stack.split('\n')[1] ?? '');
  if (match === null) return `no cell frame in ${error.stack}`;
  const line = Number(match[1]);
  const column = Number(match[2]);
  return `${line} | ${code.split(LINE_BREAK)[line - 1]}\n${' '.repeat(String(line).length + 2 + column)}^`;
}

function fail(t, code, message, frame) {
  let error;
  try {
    lower(code);
  } catch (thrown) {
    error = thrown;
  }
  t.ok(error instanceof SyntaxError, `${JSON.stringify(code)} throws a SyntaxError`);
  t.equal(error?.message, message);
  t.equal(error?.code, 'REPL_ERR_CELL_SYNTAX');
  if (frame !== undefined) t.equal(codeFrame(code, error), frame);
}

t.test('lowerCell', async (t) => {
  t.test('golden table', async (t) => {
    for (const [input, expected] of golden) t.equal(lower(input).source, expected, JSON.stringify(input));
  });

  t.test('every golden output is a valid module with the input line breaks', async (t) => {
    for (const [input] of golden) pass(t, input);
  });

  t.test('reports bindings in source order with kinds and positions', async (t) => {
    const { bindings } = lower(
      'var v = 1\nlet {a, b: [c = 2], ...r} = o\nconst k = 1\nclass C {}\nfunction f() {}\n' +
      'if (x) { var nested; let blockLocal; function blockFn() {} }\nfor (var i of y) {}\nfunction g() { var local }',
    );
    t.same(bindings.map(({ name, kind }) => `${kind} ${name}`), [
      'var v', 'let a', 'let c', 'let r', 'const k', 'class C', 'function f', 'var nested', 'var i', 'function g',
    ]);
    t.same(bindings.find((b) => b.name === 'c'), { name: 'c', kind: 'let', line: 2, column: 12 });
  });

  t.test('keeps duplicate declarations for the redeclaration check', async (t) => {
    const { bindings } = lower('var a; var a; let b; let b');
    t.same(bindings.map(({ name, kind }) => `${kind} ${name}`), ['var a', 'var a', 'let b', 'let b']);
  });

  t.test('rejects top-level return', async (t) => {
    // Guards the fragile dependency on meriyah's "Illegal return statement" wording.
    fail(t, 'return 1', TOP_LEVEL_RETURN_MESSAGE, '1 | return 1\n    ^');
    fail(t, 'let a = 1\nif (a) { return }', TOP_LEVEL_RETURN_MESSAGE, '2 | if (a) { return }\n             ^');
    t.equal(TOP_LEVEL_RETURN_MESSAGE, 'top-level return is not supported in the browser REPL');
  });

  t.test('rejects every static import and export form', async (t) => {
    t.equal(STATIC_MODULE_SYNTAX_MESSAGE, 'static import/export is not supported in the browser REPL; use dynamic import() instead');
    for (const code of [
      'import fs from "node:fs"',
      'import "./side-effect.js"',
      'import * as ns from "x"',
      'import { a as b } from "x"',
      'export const z = 1',
      'export default 1',
      'export * from "x"',
      'let a = 1; export { a }',
      'export function f() {}',
    ]) {
      fail(t, code, STATIC_MODULE_SYNTAX_MESSAGE);
    }
    fail(t, 'let a = 1\n  import x from "y"', STATIC_MODULE_SYNTAX_MESSAGE, '2 |   import x from "y"\n      ^');
  });

  t.test('rejects parse errors with the parser message, TypeScript included', async (t) => {
    fail(t, 'let t: number = 1', "[1:5-1:6]: Unexpected token: ':'", '1 | let t: number = 1\n         ^');
    fail(t, 'x = 1 +', "[1:6-1:7]: Unexpected token: 'end of source'");
    fail(t, 'interface A { x: string }', "[1:0-1:9]: Unexpected token: 'interface'");
    fail(t, 'let a = 1\nlet b = <div/>', "[2:8-2:9]: Unexpected token: '<'");
  });

  t.test('rejects a var conflicting with a lexical declaration of an enclosing block', async (t) => {
    // The lowering deletes `var` keywords, so V8 never sees these; frames are where
    // `node --input-type=module -e` points (test/unit/early-errors.test.mjs checks them against V8).
    for (const [code, name, frame] of [
      ['{ let f; var f; }', 'f', '1 | { let f; var f; }\n                 ^'],
      ['{ { var f; } let f; }', 'f', '1 | { { var f; } let f; }\n            ^'],
      ['{ let f;; { var f; } }', 'f', '1 | { let f;; { var f; } }\n                    ^'],
      ['{ var f = 1, f; const f = 2; }', 'f', '1 | { var f = 1, f; const f = 2; }\n          ^'],
      ['{ class f {} var [g, {h: f}] = o; }', 'f', '1 | { class f {} var [g, {h: f}] = o; }\n                             ^'],
      ['{ function* f() {}\n  for (var f in o); }', 'f', '2 |   for (var f in o); }\n               ^'],
      ['for (let x of []) { var x; }', 'x', '1 | for (let x of []) { var x; }\n                            ^'],
      ['for (const x of []) var x;', 'x', '1 | for (const x of []) var x;\n                            ^'],
      ['for (let x in o) { { var x } }', 'x', '1 | for (let x in o) { { var x } }\n                             ^'],
      ['for (let [x] = []; ;) { var x }', 'x', '1 | for (let [x] = []; ;) { var x }\n                                ^'],
      ['for await (const x of s) { var x }', 'x', '1 | for await (const x of s) { var x }\n                                   ^'],
      ['switch (0) { case 1: let f; default: var f; }', 'f', '1 | switch (0) { case 1: let f; default: var f; }\n                                             ^'],
      ['try {} catch ([e]) { var e; }', 'e', '1 | try {} catch ([e]) { var e; }\n                             ^'],
      ['try {} catch ({e}) { for (var e of []) {} }', 'e', '1 | try {} catch ({e}) { for (var e of []) {} }\n                                  ^'],
      ['{ let e; try {} catch (e) { var e; } }', 'e', '1 | { let e; try {} catch (e) { var e; } }\n                                    ^'],
      ['l: { let f; m: var f; }', 'f', '1 | l: { let f; m: var f; }\n                       ^'],
      ['if (x) { const f = 1; var f }', 'f', '1 | if (x) { const f = 1; var f }\n                              ^'],
    ]) {
      fail(t, code, `Identifier '${name}' has already been declared`, frame);
    }
  });

  t.test('rejects every lexical kind redeclared by a var, in either order', async (t) => {
    const lexicalKinds = ['let f;', 'const f = 0;', 'class f {}', 'function f() {}', 'function* f() {}', 'async function f() {}', 'async function* f() {}'];
    for (const lexical of lexicalKinds) {
      for (const code of [`{ ${lexical} var f; }`, `{ var f; ${lexical} }`, `{ { var f; } ${lexical} }`, `{ ${lexical} { var f; } }`]) {
        fail(t, code, "Identifier 'f' has already been declared");
      }
    }
  });

  t.test('reports the first conflict in source order, like V8', async (t) => {
    fail(t, '{ let a; let a; } { let b; var b; }', "Identifier 'a' has already been declared", '1 | { let a; let a; } { let b; var b; }\n                 ^');
    fail(t, '{ { var f; } let a; let a; let f; }', "Identifier 'a' has already been declared");
    fail(t, '{ { var f; } { var f; } let f; }', "Identifier 'f' has already been declared", '1 | { { var f; } { var f; } let f; }\n            ^');
    fail(t, 'try {} catch (e) { function e() {} }', "Identifier 'e' has already been declared", '1 | try {} catch (e) { function e() {} }\n                       ^');
    fail(t, '{ let b; var b; } var a; let a;', "Identifier 'b' has already been declared");
  });

  t.test('leaves top-level redeclarations to the binding store', async (t) => {
    // Script-like global rules: var/function pairs pass, lexical ones are REPL_ERR_BINDING later.
    for (const code of ['var f; function f() {}', 'function f() {} { var f; }', 'let x; { var x; }', 'var a; let a; { let b; var b; }']) {
      t.doesNotThrow(() => lower(code), code);
    }
    t.same(lower('let x; { var x; }').bindings.map(({ name, kind }) => `${kind} ${name}`), ['let x', 'var x']);
  });

  t.test('accepts the redeclarations Annex B and block scoping allow', async (t) => {
    for (const code of [
      'try {} catch (e) { var e; }',
      'try {} catch (e) { { var e = 1; } }',
      'try {} catch (e) { for (var e in o); for (var e; false;); for (var e of []); }',
      'try {} catch (e) { try {} catch (f) { var e, f; } }',
      '{ let f; { let f; } }',
      'for (let x of []) { let x; }',
      'for (var x of []) { let x; }',
      '{ let f; (function () { var f; }); }',
      '{ let f; class C { static { var f; } } }',
      'let g = () => { var g; };',
    ]) {
      pass(t, code);
    }
  });

  t.test('accepts import.meta, dynamic import(), top-level await and regexps', async (t) => {
    for (const code of ['import.meta.url', 'await import("node:path")', 'const m = await import(spec, { with: { type: "json" } })', 'let re = /a(?<n>b)/dv']) {
      pass(t, code);
    }
  });
});

t.test('parseCell', async (t) => {
  t.test('returns the meriyah Program with ranges and locations', async (t) => {
    const program = parseCell('let a = 1');
    t.equal(program.type, 'Program');
    t.same(program.body[0].range, [0, 9]);
    t.same(program.body[0].loc.start, { line: 1, column: 0 });
  });
});

t.test('collectBindings', async (t) => {
  t.test('returns one site per declaration to lower', async (t) => {
    const { sites } = collectBindings(parseCell('let a; var b; if (x) var c; for (var d;;); for (var e of f); class G {} function h() {}'));
    t.same(sites.map((site) => site.type), ['lexical', 'var-statement', 'var-statement', 'var-for-init', 'var-for-head', 'class', 'function']);
    t.same(sites.map((site) => site.inList), [undefined, true, false, undefined, undefined, undefined, undefined]);
  });
});
