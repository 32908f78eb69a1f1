// Issue 9, item 11: a js() page function that names a REPL variable fails in the page with
// "x is not defined"; the error says that `x` is a REPL variable and how to pass it, and only
// then (worker/helpers/core/evaluate.ts, against a real headless Chromium).
import t from 'tap';
import { createRepl } from '../../dist/lib/index.js';

// cdpEndpoint: null, so a CDP_ENDPOINT in the developer's shell cannot turn this into attach mode.
const repl = createRepl({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => repl.close());

const hint = (name, pass) =>
  `ReferenceError: ${name} is not defined: \`${name}\` is a REPL variable; functions run in the page and cannot see REPL variables: ${pass}`;

t.test('a REPL binding named by a page function', async (t) => {
  const declared = await repl.run('let limit = 3; function pick() {}');
  t.equal(declared.success, true, declared.error);

  const missing = await repl.run('await js(() => limit * 2)');
  t.equal(missing.errorCode, 'REPL_ERR_PAGE_EVALUATION');
  t.equal(missing.error.split('\n')[0], hint('limit', 'pass it as js(fn, { arg: limit })'));
  t.match(missing.stack, hint('limit', 'pass it as js(fn, { arg: limit })'), 'the stack carries the same message');

  const withArg = await repl.run('await js(async (n) => n + pick(), { arg: 1 })');
  t.equal(withArg.error.split('\n')[0], hint('pick', 'add it to arg: js(fn, { arg: { pick, … } })'));

  const passed = await repl.run('repl.write(String(await js((n) => n * 2, { arg: limit })))');
  t.same(passed.content, [{ type: 'text', channel: 'write', text: '6' }], 'the suggested form works');
});

t.test('names that are not REPL bindings keep the page error as it is', async (t) => {
  const unknown = await repl.run('await js(() => neverDeclared)');
  t.equal(unknown.error.split('\n')[0], 'ReferenceError: neverDeclared is not defined');
  // A Node global of the cell, not a binding of the REPL: the page simply lacks it.
  const nodeGlobal = await repl.run('await js(() => process.env)');
  t.equal(nodeGlobal.error.split('\n')[0], 'ReferenceError: process is not defined');
  const expression = await repl.run('await js("limit")');
  t.equal(expression.error.split('\n')[0], 'ReferenceError: limit is not defined', 'string expressions are sent as they are');
});
