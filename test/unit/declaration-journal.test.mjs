// docs/repl.md, "Re-teach after a crash": which declarations the journal keeps, which it reports
// as not restored and why, its bounds, and the cells a restore runs.
import t from 'tap';
import { DeclarationJournal, JOURNAL_MAX_ENTRIES, journalOf } from '../../dist/lib/repl/declaration-journal.js';

const kept = (code, known = []) => journalOf(code, new Set(known)).entries.map((entry) => `${entry.kind}:${entry.names.join(',')}`);
const refused = (code, known = []) => journalOf(code, new Set(known)).notRestored.map((entry) => entry.name);

t.test('functions, inert classes and consts are kept as written', async (t) => {
  t.same(kept('function f(a) { return a * 2 }\nasync function g() { await 1 }\nfunction* h() { yield 1 }'), ['function:f', 'function:g', 'function:h']);
  t.same(kept('class A { x = compute(); static y = 1; m() { return 1 } get z() { return 2 } static s() {} }'), ['class:A']);
  t.same(kept('class A {}\nclass B extends A {}'), ['class:A', 'class:B']);
  t.same(kept('class B extends A {}', ['A']), ['class:B']);
  t.same(kept('const a = 1, b = "x", c = `t`, d = -1, e = !0, f = null, g = undefined'), ['const:a,b,c,d,e,f,g']);
  t.same(kept('const fn = (x) => x + 1, obj = { k: 1, m() { return 2 }, get v() { return 3 }, [\'lit\']: [1, [2], {}] }'), ['const:fn,obj']);
  t.same(kept('const C = class { static n = 2 }'), ['const:C']);
  t.same(kept('const alias = helper', ['helper']), ['const:alias']);
  const [entry] = journalOf('  function keep(x) {\n  return x // as written\n}  ', new Set()).entries;
  t.equal(entry.source, 'function keep(x) {\n  return x // as written\n}');
});

t.test('what runs code, and let and var, are not kept, each with its reason', async (t) => {
  const { entries, notRestored } = journalOf([
    'let counter = 0',
    'var legacy = 1',
    'let fetched = load()',
    'const data = load()',
    'const { a, b: [c] } = source',
    'const member = Math.PI',
    'const sum = one + two',
    'const spread = [...items]',
    'const tpl = `${x}`',
    'const unknown = someGlobal',
    'class S { static { run() } }',
    'class F { static f = run() }',
    'class K { [key()]() {} }',
    'class E extends load() {}',
    'const later = await thing',
  ].join('\n'), new Set());
  t.same(entries, []);
  t.same(notRestored.map((entry) => entry.name), ['counter', 'legacy', 'fetched', 'data', 'a', 'c', 'member', 'sum', 'spread', 'tpl', 'unknown', 'S', 'F', 'K', 'E', 'later']);
  t.match(notRestored.find((entry) => entry.name === 'counter').reason, /a `let` can change after its declaration/);
  t.match(notRestored.find((entry) => entry.name === 'fetched').reason, /a `let` can change/);
  t.match(notRestored.find((entry) => entry.name === 'data').reason, /may have side effects/);
  t.match(notRestored.find((entry) => entry.name === 'a').reason, /destructuring/);
  t.match(notRestored.find((entry) => entry.name === 'S').reason, /runs code when it is declared/);
  t.same(kept('x = 1; doSomething(); if (a) { function inner() {} }'), [], 'statements and nested declarations are not declarations of the REPL');
  t.same(kept('this is not javascript ('), [], 'a cell that does not parse yields nothing');
});

t.test('the journal: order, a function declared again, clear, restore cells, bounds', async (t) => {
  const journal = new DeclarationJournal();
  journal.record('function f() { return 1 }\nclass A {}');
  journal.record('const k = 1; let n = 0');
  journal.record('class B extends A {}');
  journal.record('function f() { return 2 }');
  t.same(journal.entries.map((entry) => entry.names[0]), ['A', 'k', 'B', 'f']);
  t.same(journal.restoreCells(), [
    { code: 'function f() { return 2 }', names: ['f'] },
    { code: 'class A {}', names: ['A'] },
    { code: 'const k = 1;', names: ['k'] },
    { code: 'class B extends A {}', names: ['B'] },
  ]);
  t.same(journal.notRestored.map((entry) => entry.name), ['n']);
  journal.record('const n2 = load()');
  t.same(journal.notRestored.map((entry) => entry.name), ['n', 'n2']);
  journal.clear();
  t.equal(journal.size, 0);
  t.same(journal.notRestored, []);
  t.same(journal.restoreCells(), []);

  const full = new DeclarationJournal();
  full.record(Array.from({ length: JOURNAL_MAX_ENTRIES + 2 }, (_, i) => `function f${i}() {}`).join('\n'));
  t.equal(full.size, JOURNAL_MAX_ENTRIES);
  t.same(full.notRestored.map((entry) => entry.name), [`f${JOURNAL_MAX_ENTRIES}`, `f${JOURNAL_MAX_ENTRIES + 1}`]);
  t.match(full.notRestored[0].reason, /the journal is full/);
});
