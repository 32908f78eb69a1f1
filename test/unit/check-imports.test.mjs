// scripts/check-imports.mjs on made-up trees: the folder rules of docs/architecture.md ("Folders
// and the import rule"), inside worker/ too, and the circle check.
import t from 'tap';
import { DEPS, importProblems } from '../../scripts/check-imports.mjs';

const tree = (entries) => new Map(Object.entries(entries));

t.test('the worker layering: an upward import is reported, a downward one is not', async (t) => {
  const upward = importProblems(tree({
    'worker/helpers/core/evaluate.ts': "import { BindingStore } from '../../repl/binding-store.js';\n",
    'worker/repl/binding-store.ts': "export class BindingStore {}\n",
  }));
  t.equal(upward.length, 1);
  t.match(upward[0], /^worker\/helpers\/core\/evaluate\.ts may not import worker\/repl\/binding-store\.ts \(rule of worker\/helpers: /);

  const downward = importProblems(tree({
    'worker/repl/serve-repl.ts': "import { createBrowserHelpers } from '../helpers/browser-helpers.js';\n",
    'worker/helpers/browser-helpers.ts': "import { declaredNamesOfFunction } from '../analyzer/declared-names.js';\n",
    'worker/analyzer/declared-names.ts': "import type { BindingKind } from './collect-bindings.js';\n",
  }));
  t.strictSame(downward, []);
});

t.test('each rule is checked with type-only imports and dynamic import() too', async (t) => {
  const problems = importProblems(tree({
    'worker/cdp/cdp-client.ts': "import type { HelperContext } from '../helpers/helper-context.js';\nconst x = await import('../output/primordials.js');\n",
  }));
  t.equal(problems.length, 2);
  t.match(problems[0], /worker\/cdp\/cdp-client\.ts may not import worker\/helpers\/helper-context\.ts/);
  t.match(problems[1], /worker\/cdp\/cdp-client\.ts may not import worker\/output\/primordials\.ts/);
});

t.test('the two thread entries do not import each other, but for the one file allowed', async (t) => {
  const problems = importProblems(tree({
    'worker/executor/call-interrupts.ts': "import { installChecks } from '../repl/cell-interrupts.js';\n",
    'worker/executor/serve-executor.ts': "import { BindingStore } from '../repl/binding-store.js';\n",
  }));
  t.equal(problems.length, 1);
  t.match(problems[0], /serve-executor\.ts may not import worker\/repl\/binding-store\.ts/);
  t.match(problems[0], /rule of worker\/executor/);
});

t.test('lib and worker never import each other; main-thread packages stay out of worker', async (t) => {
  const problems = importProblems(tree({
    'worker/repl/main.ts': "import { Repl } from '../../lib/repl/repl.js';\nimport express from 'express';\n",
    'lib/repl/repl.ts': "import { serveRepl } from '../../worker/repl/serve-repl.js';\n",
  }));
  t.equal(problems.length, 3);
  t.ok(problems.some((line) => line.startsWith('worker/repl/main.ts may not import lib/repl/repl.ts')));
  t.ok(problems.some((line) => line === 'worker/repl/main.ts imports express, which worker/ may not use'));
  t.ok(problems.some((line) => line.startsWith('lib/repl/repl.ts may not import worker/repl/serve-repl.ts')));
});

t.test('a circle inside one folder is reported', async (t) => {
  const problems = importProblems(tree({
    'worker/output/a.ts': "import { b } from './b.js';\n",
    'worker/output/b.ts': "import { a } from './a.js';\n",
  }));
  t.strictSame(problems, ['import circle: worker/output/a.ts → worker/output/b.ts → worker/output/a.ts']);
});

t.test('every worker folder has a rule of its own', async (t) => {
  for (const folder of ['analyzer', 'cdp', 'executor', 'helpers', 'input', 'output', 'page', 'repl', 'threads', 'tools', 'webmcp']) {
    t.ok(Array.isArray(DEPS[`worker/${folder}`]), `worker/${folder}`);
  }
  t.notOk(DEPS['worker'].includes('worker'), 'no folder of worker/ may import any other by default');
});
