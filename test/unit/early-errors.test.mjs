// Redeclaration early errors of nested blocks (issue 9, item 14) through the real evaluator. The
// lowering deletes `var` keywords, so without the analyzer's own check these cells would run.
// Every verdict is compared with V8 compiling the same source as a plain module, so the
// expectations cannot drift from V8. Needs --experimental-vm-modules (package.json "tap").
import t from 'tap';
import vm from 'node:vm';
import { CellEvaluator } from '../../dist/worker/repl/cell-evaluator.js';

const LEXICAL_DECLARATIONS = {
  let: 'let f;',
  const: 'const f = 0;',
  class: 'class f {}',
  function: 'function f() {}',
  generator: 'function* f() {}',
  'async function': 'async function f() {}',
  'async generator': 'async function* f() {}',
};

/** Cells that must fail with V8's redeclaration SyntaxError, by what they exercise. */
const REJECTED = [
  ...Object.entries(LEXICAL_DECLARATIONS).flatMap(([kind, lexical]) => [
    [`${kind} then var in one block`, `{ ${lexical} var f; }`],
    [`var then ${kind} in one block`, `{ var f; ${lexical} }`],
    [`var in an inner block, then ${kind}`, `{ { var f; } ${lexical} }`],
    [`${kind}, then var in an inner block`, `{ ${lexical} { var f; } }`],
    [`${kind} and var in one switch case block`, `switch (0) { case 1: ${lexical} default: var f; }`],
    // Lexical pairs: V8 would still see these, but the analyzer reports them when they come first.
    ...Object.entries(LEXICAL_DECLARATIONS).map(([otherKind, other]) => [`${kind} then ${otherKind} in one block`, `{ ${lexical} ${other} }`]),
  ]),
  ['let head of for-of', 'for (let x of []) { var x; }'],
  ['const head of for-of, braceless body', 'for (const x of []) var x;'],
  ['let head of for-in', 'for (let x in {}) { var x; }'],
  ['const head of for-in, var in a nested block', 'for (const x in {}) { { var x; } }'],
  ['let head of for', 'for (let x; false;) { var x; }'],
  ['destructuring const head of for', 'for (const [x] = []; false;) { var x; }'],
  ['let head of for-of, var head of an inner for-of', 'for (let x of []) { for (var x of []); }'],
  ['destructured catch parameter', 'try {} catch ([e]) { var e; }'],
  ['destructured catch parameter, var in a nested block', 'try {} catch ({ e }) { { var e; } }'],
  ['destructured catch parameter, for-of var head', 'try {} catch ([e]) { for (var e of []); }'],
  ['simple catch parameter inside a block with let', '{ let e; try {} catch (e) { var e; } }'],
  ['labelled block and var', 'l: { let f; m: var f; }'],
  ['labelled for-in var head', '{ const f = 1; l: for (var f in {}); }'],
  ['var destructuring', '{ let f; var [a, { b: f }] = [0, {}]; }'],
  ['the first of several vars before the let', '{ { var f; } { var f; } let f; }'],
  ['lexical duplicate before a var conflict', '{ let a; let a; } { let b; var b; }'],
];

/** Rejected cells a strict script cannot express, so their position is not compared. */
const REJECTED_MODULE_ONLY = [['const head of for-await-of', 'for await (const x of []) { var x; }']];

/**
 * Function and class bodies are not lowered, so V8 itself rejects their conflicts when compiling
 * the cell: a cell-realm SyntaxError without a cell frame, as for any V8-only syntax error.
 */
const REJECTED_BY_V8 = [
  ...Object.entries(LEXICAL_DECLARATIONS).map(([kind, lexical]) => [
    `${kind} and var in a block of a function`,
    `function x() { { ${lexical} var f; } }`,
  ]),
  ['let and var in an arrow function', 'const g = () => { let f; var f; };'],
  ['let and var in a static block', 'class K { static { let f; var f; } }'],
];

/** Top-level conflicts: rejected by the binding store (REPL_ERR_BINDING), before anything runs. */
const REJECTED_AT_TOP_LEVEL = [
  ['top-level let, var in a block', 'let x; { var x; }'],
  ['top-level class, var in a block', 'class C {} { var C; }'],
  ['var in a block, top-level const', '{ var y; } const y = 1;'],
];

/** Allowed cells, run as a module by V8 for reference; [description, cell]. */
const ALLOWED = [
  ['var redeclaring a simple catch parameter (Annex B)', 'try { throw 1 } catch (e) { var e = 2; repl.write(e) }'],
  ['for-of var head redeclaring a simple catch parameter', 'try { throw 1 } catch (e) { for (var e of [3]); repl.write(e) }'],
  ['for-in var head redeclaring a simple catch parameter', 'try { throw 1 } catch (e) { for (var e in { k: 0 }); repl.write(e) }'],
  ['var in a block nested in a simple catch', 'try { throw 1 } catch (e) { { var e = 4; } repl.write(e) }'],
  ['var and let in sibling blocks', '{ var f = 1; } { let f = 2; repl.write(f) } repl.write(f)'],
  ['let shadowing let in an inner block', '{ let f = 1; { let f = 2; repl.write(f) } repl.write(f) }'],
  ['let in the body of a let for-of', 'for (let x of [1]) { let x = 2; repl.write(x) }'],
  ['let in the body of a var for-of', 'for (var x of [1]) { let x = 2; repl.write(x) } repl.write(x)'],
  ['var in a function inside a block with let', '{ let f = 1; (function () { var f = 2; repl.write(f) })(); repl.write(f) }'],
  ['var and let of different names in a switch', 'switch (1) { case 1: var s = 1; let u = 2; repl.write(s + u) }'],
  ['var in a labelled block', 'l: { var l1 = 1; } repl.write(l1)'],
];

/** Allowed only under the REPL's script-like top level: compared with a strict script. */
const ALLOWED_SCRIPT_LIKE = [
  ['top-level var and function', 'var f; function f() { return 1 } repl.write(typeof f)'],
  ['top-level function, var in a block', 'function g() { return 1 } { var g; } repl.write(typeof g)'],
];

/** A fresh REPL (context + evaluator) with `repl.write` captured. */
function createRepl() {
  const output = [];
  const context = vm.createContext({ repl: Object.freeze({ write: (value) => { output.push(value); } }) });
  const evaluator = new CellEvaluator({ context });
  return {
    evaluator,
    async written(code) {
      await evaluator.evaluate(code);
      return output.splice(0);
    },
    async thrown(code) {
      try {
        await evaluator.evaluate(code);
      } catch (error) {
        return error;
      }
      throw new Error(`cell did not throw: ${code}`);
    },
  };
}

function referenceContext(output) {
  return vm.createContext({ repl: Object.freeze({ write: (value) => { output.push(value); } }) });
}

/** What V8 throws compiling `source` as a module, or undefined when it compiles. */
function moduleCompileError(source) {
  try {
    new vm.SourceTextModule(source);
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Output of `source` run by V8 as a plain module. */
async function runAsModule(source) {
  const output = [];
  const module = new vm.SourceTextModule(source, { context: referenceContext(output) });
  await module.link(() => {
    throw new Error('no imports expected');
  });
  await module.evaluate();
  return output;
}

/** Output of `source` run by V8 as a strict classic script (script-like global rules). */
function runAsStrictScript(source) {
  const output = [];
  new vm.Script(`"use strict";\n${source}`).runInContext(referenceContext(output));
  return output;
}

/**
 * Where V8 points for `source`'s SyntaxError, as 1-based line and column. Read from the caret line
 * V8 puts in a classic script's compile-error stack (modules get none); a strict script applies
 * the same block rules as a module.
 */
function v8ErrorPosition(source) {
  try {
    new vm.Script(`"use strict";\n${source}`, { filename: 'v8-reference.js' });
  } catch (error) {
    const [location, , caret] = error.stack.split('\n');
    const line = Number(/^v8-reference\.js:(\d+)$/.exec(location)?.[1]) - 1;
    return { message: error.message, line, column: caret.indexOf('^') + 1 };
  }
  return undefined;
}

/** Position of the synthetic frame `at browser-repl-cell-<n>.mjs:<line>:<column>`. */
function cellErrorPosition(error) {
  const match = /^ {4}at browser-repl-cell-\d+\.mjs:(\d+):(\d+)$/.exec(error.stack.split('\n')[1] ?? '');
  return match === null ? undefined : { line: Number(match[1]), column: Number(match[2]) };
}

// Placed before the conflict: must not run, must not declare.
const SIDE_EFFECT = 'globalThis.sideEffect = 1; var declaredBefore = 1;\n';

async function assertRejectedBeforeRunning(t, repl) {
  t.same(
    await repl.written('repl.write([typeof sideEffect, typeof declaredBefore])'),
    [['undefined', 'undefined']],
    'no statement of the cell ran',
  );
  t.equal(repl.evaluator.bindings.kindOf('declaredBefore'), undefined, 'no binding was created');
}

t.test('a var conflicting with a lexical declaration of an enclosing block', async (t) => {
  for (const [description, code] of [...REJECTED, ...REJECTED_MODULE_ONLY]) {
    t.test(description, async (t) => {
      const cell = SIDE_EFFECT + code;
      const v8Error = moduleCompileError(cell);
      t.ok(v8Error instanceof SyntaxError, `V8 rejects the module ${JSON.stringify(code)}`);
      const repl = createRepl();
      const error = await repl.thrown(cell);
      t.ok(error instanceof SyntaxError, 'the cell throws a SyntaxError');
      t.equal(error.message, v8Error?.message, "V8's message");
      t.equal(error.code, 'REPL_ERR_CELL_SYNTAX');
      if (!REJECTED_MODULE_ONLY.some(([, moduleOnly]) => moduleOnly === code)) {
        const v8Position = v8ErrorPosition(cell);
        t.equal(v8Position?.message, v8Error?.message, 'a strict script fails the same way');
        t.same(cellErrorPosition(error), { line: v8Position?.line, column: v8Position?.column }, "V8's position");
      }
      await assertRejectedBeforeRunning(t, repl);
    });
  }
});

t.test('a var conflicting with a lexical declaration inside a function or class', async (t) => {
  for (const [description, code] of REJECTED_BY_V8) {
    t.test(description, async (t) => {
      const cell = SIDE_EFFECT + code;
      const v8Error = moduleCompileError(cell);
      t.ok(v8Error instanceof SyntaxError, `V8 rejects the module ${JSON.stringify(code)}`);
      const repl = createRepl();
      const error = await repl.thrown(cell);
      t.equal(error.name, 'SyntaxError');
      t.equal(error.message, v8Error?.message, "V8's message");
      t.equal(error.code, 'REPL_ERR_CELL_SYNTAX');
      await assertRejectedBeforeRunning(t, repl);
    });
  }
});

t.test('a lexical declaration at the top level conflicting with a nested var', async (t) => {
  for (const [description, code] of REJECTED_AT_TOP_LEVEL) {
    t.test(description, async (t) => {
      const cell = SIDE_EFFECT + code;
      const v8Error = moduleCompileError(cell);
      t.ok(v8Error instanceof SyntaxError, `V8 rejects the module ${JSON.stringify(code)}`);
      const repl = createRepl();
      const error = await repl.thrown(cell);
      t.ok(error instanceof SyntaxError, 'the cell throws a SyntaxError');
      // The binding store's own message starts with V8's and adds advice.
      t.ok(error.message.startsWith(v8Error?.message), `${JSON.stringify(error.message)} starts with V8's message`);
      t.equal(error.code, 'REPL_ERR_BINDING');
      await assertRejectedBeforeRunning(t, repl);
    });
  }
});

t.test('allowed redeclarations and shadowing still run as V8 runs them', async (t) => {
  for (const [description, code] of ALLOWED) {
    t.test(description, async (t) => {
      const expected = await runAsModule(code);
      t.same(await createRepl().written(code), expected, `writes ${JSON.stringify(expected)}, like the module`);
    });
  }
});

t.test('script-like top-level redeclarations still run', async (t) => {
  for (const [description, code] of ALLOWED_SCRIPT_LIKE) {
    t.test(description, async (t) => {
      t.ok(moduleCompileError(code) instanceof SyntaxError, 'a module would reject it: the REPL deliberately differs');
      const expected = runAsStrictScript(code);
      t.same(await createRepl().written(code), expected, `writes ${JSON.stringify(expected)}, like a strict script`);
    });
  }
});

t.test('a rejected cell leaves the REPL usable and its names free', async (t) => {
  const repl = createRepl();
  t.equal((await repl.thrown('var kept = 1; { let kept2; var kept2; }')).code, 'REPL_ERR_CELL_SYNTAX');
  t.same(await repl.written('var kept = 2; let kept2 = 3; repl.write([kept, kept2])'), [[2, 3]]);
});
