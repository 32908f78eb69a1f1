// worker/analyzer/interrupt-checks.ts (issue 15): where the liveness checks go, what is left
// without one, and that removing them gives back exactly the source that was instrumented.
import t from 'tap';
import { parseModule } from 'meriyah';
import { insertChecks, stripChecks } from '../../dist/worker/analyzer/interrupt-checks.js';
import { lowerCell, restoreFunctionNames } from '../../dist/worker/analyzer/lower-cell.js';

const names = { token: '__repl_0badc0de' };
const T = names.token;
const tick = `${T}&&${T}_s();`;
const marker = `/*${T}*/`;
const checked = (code) => insertChecks(code, names);

t.test('golden: where the checks go', async (t) => {
  const golden = [
    ['while (true) {}', `while (true) {${tick}}`],
    ['while (c) x++', `while (c) {${marker}${tick}x++${marker}}`],
    ['do x++; while (c)', `do {${marker}${tick}x++;${marker}} while (c)`],
    ['for (const k in o) { use(k) }', `for (const k in o) {${tick} use(k) }`],
    ['for await (const x of xs) {}', `for await (const x of xs) {${tick}}`],
    ['function f(n) { "use strict"; return f(n - 1) }', `function f(n) { "use strict";${tick} return f(n - 1) }`],
    ['const g = async (x) => await x', `const g = async (x) => ${T}_a(await x${marker})`],
    ['const h = (x) => go(x)', `const h = (x) => (${tick.slice(0, -1)}, go(x)${marker})`],
    ['x = (await f)()', `x = (${T}_a(await f${marker}))()`],
    ['class A { m() { return this.n() } }', `class A { m() {${tick} return this.n() } }`],
  ];
  for (const [input, expected] of golden) t.equal(checked(input), expected, input);
});

t.test('no check where none is needed', async (t) => {
  const unchanged = [
    'const double = (x) => x * 2',
    'function get() { return this.value }',
    'const o = { get size() { return 3 } }',
    'for (let i = 0; i < a.length; i++) s += a[i]',
    'for (let i = 0; i <= 1000; ++i) { total += i * i }',
    'for (let i = 0; i < text.length; i += 1) codes ^= text.charCodeAt === undefined ? 0 : i',
  ];
  for (const input of unchanged) t.equal(checked(input), input, input);
  const kept = [
    ['a call in the body', 'for (let i = 0; i < a.length; i++) f(a[i])'],
    ['a property write (an alias could grow the array)', 'for (let i = 0; i < a.length; i++) b[i] = a[i]'],
    ['the counter written', 'for (let i = 0; i < a.length; i++) i--'],
    ['the bound written', 'for (let i = 0; i < a.length; i++) a = [...a, 1]'],
    ['a nested loop', 'for (let i = 0; i < 10; i++) for (;;) {}'],
    ['an await', 'for (let i = 0; i < 10; i++) await i'],
    ['a var counter (a global binding)', 'for (var i = 0; i < 10; i++) s++'],
    ['an unbounded literal', 'for (let i = 0; i < 1e12; i++) s++'],
    ['a bound that is a variable', 'for (let i = 0; i < n; i++) s++'],
    ['a destructuring write', 'for (let i = 0; i < a.length; i++) [s] = [i]'],
  ];
  for (const [why, input] of kept) t.not(checked(input), input, `checked: ${why}`);
});

const SAMPLES = [
  'while (true) {}', 'label: for (;;) for (;;) continue label;', 'do x++; while (c)',
  'for (;;) { try { await null } finally {} }', 'const h = a => b => c(a, b)', 'let o = { async *g() { yield await 1 } }',
  'class A { m() { for (const x of y) z(x) } static { while (0); } get p() { return q() } }',
  'const f = async function* () { for await (const x of g()) yield x }', 'x = (await f)()',
  'if (a) while (b) c(); else do d(); while (e)',
  'switch (x) { case 1: while (y) z(); break; default: for (;;) break }',
  'const t = `${await a}${b(() => c())}`', 'new (await C)(await d, ...(await e))',
  'function outer() { function inner() { return outer() } return inner }',
  'try { for (;;) {} } catch { while (1) {} } finally { do {} while (0) }',
  'a ??= await b; c ||= (() => d())()', 'const { x = await y } = await z',
];

t.test('stripping gives back exactly what was instrumented; lines never move; the result parses', async (t) => {
  for (const code of SAMPLES) {
    const out = checked(code);
    t.ok(out.includes(T), `${code}: checked`);
    t.equal(stripChecks(out, names), code, `${code}: round trip`);
    t.equal(out.split('\n').length, code.split('\n').length, `${code}: same lines`);
    t.doesNotThrow(() => parseModule(out, { next: true }), `${code}: still parses`);
  }
  // Lowered cells, as the evaluator instruments them.
  for (const code of ['let a = await f()\nfunction g() { while (h()) {} }\nclass K { m() { return g() } }', 'var [x] = await y; const z = () => x()']) {
    const lowered = lowerCell(code, { cellSeq: 1, initTargetName: 'TGT' }).source;
    t.equal(stripChecks(checked(lowered), names), lowered, 'a lowered cell round-trips');
  }
});

t.test('a source that contains the token is left alone: no check could be told from user code', async (t) => {
  t.equal(insertChecks(`while (x) ${T}()`, names), undefined);
  t.equal(stripChecks('function plain() { return 1 }', names), 'function plain() { return 1 }');
});

t.test('restoreFunctionNames: a top-level declaration shows its own name', async (t) => {
  const { source } = lowerCell('function /* c */ f() {}\nasync function* g() {}', { cellSeq: 1, initTargetName: 'TGT' });
  t.match(source, /__browser_repl_function_f/);
  t.equal(restoreFunctionNames('function /* c */ __browser_repl_function_f() {}'), 'function /* c */ f() {}');
  t.equal(restoreFunctionNames('async function* __browser_repl_function_g() {}'), 'async function* g() {}');
  t.equal(restoreFunctionNames('const s = "__browser_repl_function_x"'), 'const s = "__browser_repl_function_x"', 'only after the function keyword');
});
