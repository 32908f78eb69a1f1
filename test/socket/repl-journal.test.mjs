// docs/repl.md, "Re-teach after a crash": a REPL with its journal on gets its functions, classes
// and side-effect-free consts back after its worker died, and says which names did not come back.
import t from 'tap';
import { createRepl } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

/** A cell that exhausts the worker's heap (the REPL is created with a small one). */
const EXHAUST = 'const hog = []; while (true) hog.push(new Array(1e6).fill(Math.random()))';
const FUNCTIONS = Array.from({ length: 20 }, (_, i) => `function taught${i}(x) { return x * ${i + 1} }`);
const CLASSES = [
  'class Shape { constructor(sides) { this.sides = sides } describe() { return `${this.constructor.name}:${this.sides}` } }',
  'class Triangle extends Shape { constructor() { super(3) } }',
  'class Square extends Shape { constructor() { super(4) } static unit = 1 }',
  'class Counter { count = 0; bump() { return ++this.count } }',
  'class Registry { #items = new Map(); add(key, value) { this.#items.set(key, value); return this.#items.size } }',
];

t.test('a REPL taught 20 functions and 5 classes gets all 25 back after running out of memory', async (t) => {
  const repl = createRepl({ browser: false, heapMb: 64, journal: true });
  t.teardown(() => repl.close());
  // Taught over several cells, as an agent does.
  for (let i = 0; i < FUNCTIONS.length; i += 5) t.equal((await repl.run(FUNCTIONS.slice(i, i + 5).join('\n'))).success, true);
  for (const source of CLASSES) t.equal((await repl.run(source)).success, true);
  t.equal((await repl.run('const LIMITS = { max: 3, names: ["a", "b"] }; const double = (x) => taught1(x)')).success, true);
  t.equal((await repl.run('let counter = 0; counter++')).success, true);
  t.equal((await repl.run('let fetched = Date.now()')).success, true);
  t.equal((await repl.run('const started = Date.now()')).success, true);
  // A cell that failed teaches nothing.
  t.equal((await repl.run('function never() {}; throw new Error("no")')).success, false);

  const death = await repl.run(EXHAUST, { timeoutSec: 60 });
  t.equal(death.errorCode, 'REPL_ERR_OUT_OF_MEMORY');
  t.equal(death.replTerminated, true);

  const next = await repl.run('repl.write(JSON.stringify([' + FUNCTIONS.map((_, i) => `taught${i}(2)`).join(', ')
    + '])); repl.write(new Triangle().describe() + " " + new Square().describe() + " " + (new Square() instanceof Shape) + " " + Square.unit);'
    + 'repl.write(String(new Counter().bump()) + " " + new Registry().add("k", 1)); repl.write(String(LIMITS.max + double(5)))');
  t.equal(next.success, true, next.error);
  t.not(next.replId, death.replId);
  t.same(texts(next), [
    JSON.stringify(FUNCTIONS.map((_, i) => 2 * (i + 1))),
    'Triangle:3 Square:4 true 1',
    '1 1',
    '13',
  ]);
  const restored = next.restored.restored;
  for (let i = 0; i < 20; i++) t.ok(restored.includes(`taught${i}`), `taught${i} restored`);
  for (const name of ['Shape', 'Triangle', 'Square', 'Counter', 'Registry', 'LIMITS', 'double']) t.ok(restored.includes(name), `${name} restored`);
  t.equal(restored.length, 27);
  t.notOk(restored.includes('never'));
  const notRestored = Object.fromEntries(next.restored.notRestored.map(({ name, reason }) => [name, reason]));
  t.same(Object.keys(notRestored).sort(), ['counter', 'fetched', 'started']);
  t.match(notRestored.fetched, /a `let` can change after its declaration/);
  t.match(notRestored.started, /its initialiser may have side effects/);
  // The names that did not come back are gone, as the report says.
  const gone = await repl.run('repl.write(typeof counter + " " + typeof started)');
  t.same(texts(gone), ['undefined undefined']);
  t.notOk('restored' in gone, 'only the call that restored reports it');
});

t.test('a function declared again comes back as last written; reset and an off journal restore nothing', async (t) => {
  const repl = createRepl({ browser: false, heapMb: 64, journal: true });
  t.teardown(() => repl.close());
  await repl.run('function version() { return 1 }');
  await repl.run('function version() { return 2 }');
  await repl.run(EXHAUST, { timeoutSec: 60 });
  // restore: true with no code declares and answers the report alone.
  const restoredOnly = await repl.run('', { restore: true });
  t.equal(restoredOnly.success, true);
  t.same(restoredOnly.restored, { restored: ['version'], notRestored: [] });
  t.same(texts(await repl.run('repl.write(String(version()))')), ['2']);
  // Asked again with the worker alive: nothing to do, and the report says so.
  t.same((await repl.run('', { restore: true })).restored, { restored: [], notRestored: [] });

  await repl.run('', { reset: true });
  await repl.run(EXHAUST, { timeoutSec: 60 });
  const afterReset = await repl.run('repl.write(typeof version)');
  t.same(texts(afterReset), ['undefined'], 'a reset forgets the journal');
  t.notOk('restored' in afterReset);

  repl.journaling = false;
  await repl.run('function offJournal() {}');
  await repl.run(EXHAUST, { timeoutSec: 60 });
  const off = await repl.run('repl.write(typeof offJournal)');
  t.same(texts(off), ['undefined']);
  t.notOk('restored' in off);
});

t.test('over HTTP: journal and restore on POST /repl, restored in the answer, bad input named', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  const taught = await api.repl('function greet(name) { return `hi ${name}` }\nclass Box { constructor(v) { this.v = v } }', { repl: 'journaled', journal: true });
  t.equal(taught.success, true);
  // Ended at a timeout: a loop no interrupt check reaches (an eval'd one) ends the worker.
  const spin = await api.call('POST', '/repl', { repl: 'journaled', code: 'eval("while (true) {}")', timeout_sec: 1 });
  t.equal(spin.json.repl_terminated, true);
  const next = await api.repl('repl.write(greet(new Box("box").v))', { repl: 'journaled' });
  t.same(texts(next), ['hi box']);
  t.same(next.restored, { bindings: ['greet', 'Box'], not_restored: [] });
  const empty = await api.call('POST', '/repl', { repl: 'journaled', code: '', restore: true });
  t.equal(empty.status, 200);
  t.same(empty.json.restored, { bindings: [], not_restored: [] });
  const bad = await api.call('POST', '/repl', { code: '1', journal: 'yes' });
  t.equal(bad.status, 400);
  t.match(bad.json.message, /journal/);
  const noCode = await api.call('POST', '/repl', { code: '' });
  t.equal(noCode.status, 400);
  t.match(noCode.json.message, /reset or restore/);
});
