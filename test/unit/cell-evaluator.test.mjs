// Semantic tests of docs/repl.md, "Bindings, and what a name costs", through real vm contexts.
// Needs --experimental-vm-modules (package.json "tap"."node-arg").
import t from 'tap';
import vm from 'node:vm';
import { format } from 'node:util';
import { CellEvaluator } from '../../dist/worker/repl/cell-evaluator.js';
import { CellInterrupts } from '../../dist/worker/repl/cell-interrupts.js';

const REDECLARED = (name) => `Identifier '${name}' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run`;
const TDZ = (name) => `Cannot access '${name}' before initialization`;
const STATIC_IMPORT = 'static import/export is not supported in the browser REPL; use dynamic import() instead';
const INTERNAL = 'persistent binding initialization target is internal';
const KINDS = ['var', 'function', 'let', 'const', 'class'];

function declare(kind, name) {
  switch (kind) {
    case 'var': return `var ${name} = 1`;
    case 'function': return `function ${name}() {}`;
    case 'let': return `let ${name} = 1`;
    case 'const': return `const ${name} = 1`;
    case 'class': return `class ${name} {}`;
  }
}

/**
 * A fresh REPL: one context with an ordinary global object, as a worker's
 * (worker/repl/create-context.ts), one evaluator, `repl.write` and `console` captured into
 * `output`. `contextified: true` makes the global a contextified object instead, as a caller of
 * the evaluator may still give it.
 */
function createRepl({ contextified = false, ...options } = {}) {
  const output = [];
  const globals = {
    setTimeout,
    clearTimeout,
    queueMicrotask,
    repl: Object.freeze({ write: (value) => { output.push(value); } }),
    console: { log: (...args) => { output.push(format(...args)); } },
  };
  const context = contextified ? vm.createContext(globals) : Object.assign(vm.createContext(vm.constants.DONT_CONTEXTIFY), globals);
  const evaluator = new CellEvaluator({ context, ...options });
  const realm = vm.runInContext('({ ReferenceError, TypeError, SyntaxError, Error })', context);
  return {
    context,
    evaluator,
    realm,
    output,
    run: (code) => evaluator.evaluate(code),
    /** Runs a cell and returns what it wrote, emptying the buffer. */
    async written(code) {
      await evaluator.evaluate(code);
      return output.splice(0);
    },
    /** Runs a cell that must fail and returns what it threw. */
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

t.test('CellEvaluator', async (t) => {
  t.test('#evaluate persistence', async (t) => {
    t.test('keeps bindings of all five kinds across cells', async (t) => {
      const repl = createRepl();
      await repl.run('var v = "var"; let l = "let"; const c = "const"; function f() { return "function" } class K { get kind() { return "class" } }');
      t.same(await repl.written('repl.write([v, l, c, f(), new K().kind])'), [['var', 'let', 'const', 'function', 'class']]);
      t.same(repl.evaluator.bindings.names(), ['v', 'l', 'c', 'f', 'K']);
      t.equal(repl.evaluator.bindings.kindOf('K'), 'class');
    });

    t.test('mutations are visible to later cells and to closures', async (t) => {
      const repl = createRepl();
      await repl.run('let counter = 0; var total = 10; const read = () => [counter, total]');
      await repl.run('counter++; total += 5');
      t.same(await repl.written('repl.write(read())'), [[1, 15]]);
    });

    t.test('a timer callback updates the live binding seen by the next cell', async (t) => {
      const repl = createRepl();
      await repl.run('let closureCount = 0; setTimeout(() => { closureCount += 5 }, 1)');
      await new Promise((resolve) => setTimeout(resolve, 20));
      t.same(await repl.written('repl.write(closureCount)'), [5]);
    });

    t.test('persistent names are enumerable non-configurable accessors on the global', async (t) => {
      const repl = createRepl();
      await repl.run('let shown = 1; var alsoShown = 2; function fnShown() {}');
      const [keys] = await repl.written('repl.write(Object.keys(globalThis))');
      // Key order of a vm context's global differs between Node versions; membership is the contract.
      t.same(['shown', 'alsoShown', 'fnShown'].filter((name) => !keys.includes(name)), []);
      t.notOk(keys.some((key) => key.startsWith('__browser_repl')), 'no internal name is enumerable');
      const [descriptor] = await repl.written('const d = Object.getOwnPropertyDescriptor(globalThis, "shown"); repl.write([typeof d.get, typeof d.set, d.enumerable, d.configurable])');
      t.same(descriptor, ['function', 'function', true, false]);
    });

    t.test('anonymous functions and classes are named after their binding', async (t) => {
      const repl = createRepl();
      t.same(
        await repl.written('let arrow = () => 1, fnExpr = function () {}; const Klass = class {}; let { dflt = () => 2 } = {}; var viaVar = () => 3\nrepl.write([arrow.name, fnExpr.name, Klass.name, dflt.name, viaVar.name])'),
        [['arrow', 'fnExpr', 'Klass', 'dflt', 'viaVar']],
      );
    });
  });

  t.test('#evaluate temporal dead zone and const', async (t) => {
    t.test('reading a lexical binding before its declaration throws a cell-realm ReferenceError', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('repl.write(tdzRead); let tdzRead = 1');
      t.ok(error instanceof repl.realm.ReferenceError);
      t.equal(error.message, TDZ('tdzRead'));
      t.match(error.stack, /^ReferenceError: Cannot access 'tdzRead' before initialization\n {4}at browser-repl-cell-1\.mjs:1:/);
      const typeofError = await repl.thrown('typeof tdzRead');
      t.equal(typeofError.message, TDZ('tdzRead'), 'typeof does not bypass the TDZ');
    });

    t.test('writing before the declaration throws and does not initialize', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('tdzWrite = 2; let tdzWrite = 1');
      t.ok(error instanceof repl.realm.ReferenceError);
      t.equal(error.message, TDZ('tdzWrite'));
      t.equal((await repl.thrown('tdzWrite = 3')).message, TDZ('tdzWrite'));
      t.equal((await repl.thrown('repl.write(tdzWrite)')).message, TDZ('tdzWrite'));
      t.equal(repl.evaluator.bindings.isInitialized('tdzWrite'), false);
    });

    t.test('assigning a const throws TypeError "Assignment to constant variable."', async (t) => {
      const repl = createRepl();
      await repl.run('const fixed = 1; const bump = () => { fixed = 3 }');
      for (const code of ['fixed = 2', 'fixed++', 'bump()', '[fixed] = [4]']) {
        const error = await repl.thrown(code);
        t.ok(error instanceof repl.realm.TypeError, code);
        t.equal(error.message, 'Assignment to constant variable.', code);
      }
      t.same(await repl.written('repl.write(fixed)'), [1]);
    });

    t.test('a class is in its TDZ until its statement runs', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('const early = new Later(); class Later {}');
      t.equal(error.message, TDZ('Later'));
      t.equal((await repl.thrown('class Later {}')).message, REDECLARED('Later'), 'the name stays reserved');
      t.same(await repl.written('const make = () => new Ok(); class Ok { v = 7 } repl.write(make().v)'), [7]);
    });
  });

  t.test('#evaluate redeclaration', async (t) => {
    t.test('allows var/function pairs and rejects any lexical involvement (across cells)', async (t) => {
      for (const before of KINDS) {
        for (const after of KINDS) {
          const repl = createRepl();
          await repl.run(declare(before, 'name'));
          const allowed = !['let', 'const', 'class'].includes(before) && !['let', 'const', 'class'].includes(after);
          if (allowed) {
            await t.resolves(repl.run(declare(after, 'name')), `${before} then ${after}`);
          } else {
            const error = await repl.thrown(declare(after, 'name'));
            t.ok(error instanceof SyntaxError, `${before} then ${after}`);
            t.equal(error.message, REDECLARED('name'), `${before} then ${after}`);
            t.equal(error.code, 'REPL_ERR_BINDING');
          }
        }
      }
    });

    t.test('applies the same rule inside one cell', async (t) => {
      const repl = createRepl();
      await t.resolves(repl.run('var twice = 1; var twice = 2; function both() {} var both'));
      t.equal((await repl.thrown('let dup = 1; let dup = 2')).message, REDECLARED('dup'));
      t.equal((await repl.thrown('var mixed; let mixed')).message, REDECLARED('mixed'));
      t.equal((await repl.thrown('function fn2() {} class fn2 {}')).message, REDECLARED('fn2'));
    });

    t.test('is checked before any side effect of the cell', async (t) => {
      const repl = createRepl();
      await repl.run('const x = 1');
      const error = await repl.thrown('repl.write("side effect"); let x = 2');
      t.equal(error.message, REDECLARED('x'));
      t.match(error.stack, /\n {4}at browser-repl-cell-2\.mjs:1:32$/, 'points at the redeclared identifier');
      t.same(repl.output, [], 'nothing ran');
      t.equal((await repl.thrown('var fresh = 1; let x = 3')).message, REDECLARED('x'));
      t.equal(repl.evaluator.bindings.kindOf('fresh'), undefined, 'a rejected cell declares nothing');
    });

    t.test('a redeclared function replaces the old one for earlier closures', async (t) => {
      const repl = createRepl();
      await repl.run('function redecl() { return 1 } const callIt = () => redecl()');
      await repl.run('function redecl() { return 2 }');
      t.same(await repl.written('repl.write([callIt(), redecl.name])'), [[2, 'redecl']]);
    });

    t.test('a redeclared var keeps its value', async (t) => {
      const repl = createRepl();
      await repl.run('var kept = 5');
      t.same(await repl.written('var kept; repl.write(kept)'), [5]);
    });
  });

  t.test('#evaluate partial initialization', async (t) => {
    t.test('each declarator initializes independently; a failed one stays in TDZ and reserved', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown("let a = 17, b = (() => { throw new Error('x') })()");
      t.ok(error instanceof repl.realm.Error);
      t.equal(error.message, 'x');
      t.same(await repl.written('repl.write(a)'), [17]);
      t.equal((await repl.thrown('b')).message, TDZ('b'));
      t.equal((await repl.thrown('b = 1')).message, TDZ('b'));
      t.equal((await repl.thrown('let b = 1')).message, REDECLARED('b'));
    });

    t.test('a cell failing at its first statement still reserves its names', async (t) => {
      const repl = createRepl();
      t.equal((await repl.thrown("throw new Error('first'); let reserved = 1; var reservedVar = 2; function reservedFn() { return 'fn' }")).message, 'first');
      t.equal((await repl.thrown('let reserved = 2')).message, REDECLARED('reserved'));
      t.equal((await repl.thrown('reserved')).message, TDZ('reserved'));
      t.same(await repl.written('repl.write([reservedVar, reservedFn()])'), [[undefined, 'fn']], 'var is undefined, functions are hoisted');
    });
  });

  t.test('#evaluate functions', async (t) => {
    t.test('are hoisted within the cell', async (t) => {
      const repl = createRepl();
      t.same(await repl.written("repl.write([hoisted(), hoisted.name]); function hoisted() { return 'hoisted' }"), [['hoisted', 'hoisted']]);
    });

    t.test('reassigning a declared function in the same cell affects earlier closures', async (t) => {
      const repl = createRepl();
      t.same(
        await repl.written('function replFunctionValue() { return 1 } const before = () => replFunctionValue(); replFunctionValue = () => 3; repl.write(before())'),
        [3],
      );
    });

    t.test('the last of duplicate declarations wins; recursion goes through the binding', async (t) => {
      const repl = createRepl();
      t.same(
        await repl.written('function twice() { return 1 } function twice() { return 2 } function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) } repl.write([twice(), fact(5)])'),
        [[2, 120]],
      );
    });

    t.test('function-local and block-level declarations stay local', async (t) => {
      const repl = createRepl();
      await repl.run('function scope() { var local = 1; return local } { let blockLet = 1; const blockConst = 2; class BlockClass {} function blockFn() {} }');
      t.same(await repl.written('repl.write([typeof local, typeof blockLet, typeof blockConst, typeof BlockClass, typeof blockFn, scope()])'), [['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 1]]);
      t.same(repl.evaluator.bindings.names(), ['scope']);
    });
  });

  t.test('#evaluate destructuring', async (t) => {
    t.test('object patterns with defaults, renames, nesting, computed keys and rest', async (t) => {
      const repl = createRepl();
      await repl.run("const key = 'dyn'; let { a, b: renamed, c = 3, d: { e } = { e: 5 }, [key]: computed, ...rest } = { a: 1, b: 2, dyn: 'D', x: 9, y: 10 }");
      t.same(await repl.written('repl.write([a, renamed, c, e, computed, rest])'), [[1, 2, 3, 5, 'D', { x: 9, y: 10 }]]);
      t.equal((await repl.thrown('renamed = 0; c = 0; b')).name, 'ReferenceError', 'the key "b" is not a binding');
    });

    t.test('array patterns with holes, defaults, nesting and rest', async (t) => {
      const repl = createRepl();
      await repl.run('const [first, , third = 30, [nested] = [40], ...others] = [1, 2, undefined, undefined, 5, 6]');
      t.same(await repl.written('repl.write([first, third, nested, others])'), [[1, 30, 40, [5, 6]]]);
      t.equal((await repl.thrown('first = 2')).message, 'Assignment to constant variable.');
    });

    t.test('var patterns assign the global bindings', async (t) => {
      const repl = createRepl();
      await repl.run('var { vp = 1, ...vrest } = { z: 2 }, [va, ...vb] = [3, 4, 5]');
      t.same(await repl.written('repl.write([vp, vrest, va, vb])'), [[1, { z: 2 }, 3, [4, 5]]]);
    });
  });

  t.test('#evaluate nested var', async (t) => {
    t.test('braceless var without initializer declares the names as undefined', async (t) => {
      const repl = createRepl();
      await repl.run('if (false) var a, b;');
      t.same(await repl.written("repl.write([a, b, 'a' in globalThis, 'b' in globalThis])"), [[undefined, undefined, true, true]]);
      await repl.run('do var dw; while (false)');
      t.same(await repl.written("repl.write('dw' in globalThis)"), [true]);
    });

    t.test('for, for-in, for-of and for-await heads', async (t) => {
      const repl = createRepl();
      await repl.run('for (var i = 0; i < 3; i++); for (var k in { only: 1 }); for (var v of [7, 8]); async function* gen() { yield "g" } for await (var w of gen());');
      t.same(await repl.written('repl.write([i, k, v, w])'), [[3, 'only', 8, 'g']]);
      await repl.run('var timers = []; for (var shared = 0; shared < 2; shared++) timers.push(() => shared)');
      t.same(await repl.written('repl.write(timers.map((f) => f()))'), [[2, 2]], 'one shared var binding, as in a script');
    });

    t.test('switch, try/catch/finally, labeled, while, do-while and blocks', async (t) => {
      const repl = createRepl();
      await repl.run([
        'switch (1) { case 1: var inSwitch = "switch" }',
        'try { var inTry = "try"; throw 1 } catch { var inCatch = "catch" } finally { var inFinally = "finally" }',
        'outer: { var inLabel = "label"; break outer }',
        'while (!inWhile) var inWhile = "while";',
        'do { var inDo = "do" } while (false)',
        'if (true) { { var inBlock = "block" } } else var neverSet = 1',
      ].join('\n'));
      t.same(
        await repl.written('repl.write([inSwitch, inTry, inCatch, inFinally, inLabel, inWhile, inDo, inBlock, neverSet])'),
        [['switch', 'try', 'catch', 'finally', 'label', 'while', 'do', 'block', undefined]],
      );
    });

    t.test('Annex-B: a var initializer in a catch block assigns the simple catch parameter', async (t) => {
      const repl = createRepl();
      await repl.run('var catchShadow = "outer"');
      t.same(
        await repl.written('try { throw "caught" } catch (catchShadow) { var catchShadow = "inner"; repl.write(JSON.stringify(catchShadow)) }'),
        ['"inner"'],
      );
      t.same(await repl.written('repl.write(catchShadow)'), ['outer']);
      await repl.run('try { throw 1 } catch (freshCatch) { var freshCatch = 2 }');
      t.same(await repl.written("repl.write(['freshCatch' in globalThis, freshCatch])"), [[true, undefined]], 'the var is still declared');
    });
  });

  t.test('#evaluate module semantics', async (t) => {
    t.test('top-level await resolves before evaluate() does, and its rejection propagates', async (t) => {
      const repl = createRepl();
      await repl.run('await new Promise((resolve) => setTimeout(resolve, 10)); let afterAwait = "done"');
      t.same(await repl.written('repl.write(afterAwait)'), ['done']);
      const error = await repl.thrown('await null; throw new TypeError("late")');
      t.ok(error instanceof repl.realm.TypeError);
      t.equal(error.message, 'late');
    });

    t.test('top-level this is undefined, code is strict, expression values are ignored', async (t) => {
      const repl = createRepl();
      t.same(await repl.written('repl.write(this === undefined); (function () { repl.write(this === undefined) })()'), [true, true]);
      t.equal(await repl.run('1 + 1'), undefined);
    });

    t.test('assignment to an undeclared name throws ReferenceError', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('undeclaredName = 1');
      t.ok(error instanceof repl.realm.ReferenceError);
      t.equal(error.message, 'undeclaredName is not defined');
    });

    t.test('rejects static import/export, top-level return and TypeScript', async (t) => {
      const repl = createRepl();
      for (const code of ['import fs from "node:fs"', 'import "node:fs"', 'export const z = 1', 'export default 1']) {
        const error = await repl.thrown(code);
        t.ok(error instanceof SyntaxError, code);
        t.equal(error.message, STATIC_IMPORT, code);
        t.equal(error.code, 'REPL_ERR_CELL_SYNTAX', code);
      }
      const ret = await repl.thrown('repl.write(1)\nreturn 2');
      t.equal(ret.message, 'top-level return is not supported in the browser REPL');
      t.match(ret.stack, /^SyntaxError: top-level return is not supported in the browser REPL\n {4}at browser-repl-cell-\d+\.mjs:2:1$/);
      const ts = await repl.thrown('let typed: number = 1');
      t.ok(ts instanceof SyntaxError);
      t.equal(ts.message, "[1:9-1:10]: Unexpected token: ':'");
      t.equal(ts.code, 'REPL_ERR_CELL_SYNTAX');
      t.same(repl.output, [], 'rejected cells run nothing');
    });

    t.test('stack traces show user line numbers in browser-repl-cell-<n>.mjs', async (t) => {
      const repl = createRepl();
      await repl.run('let pad = 1');
      const error = await repl.thrown("let first = 1\nfunction thrower() {\n  throw new Error('x')\n}\nthrower()");
      t.match(error.stack, /\n {4}at thrower \(browser-repl-cell-2\.mjs:3:\d+\)/);
      t.match(error.stack, /\n {4}at browser-repl-cell-2\.mjs:5:\d+/);
      const plain = await repl.thrown("\n\nthrow new Error('x')");
      t.match(plain.stack, /browser-repl-cell-3\.mjs:3:/);
    });

    t.test('import.meta.url is file:///browser-repl-cell.mjs', async (t) => {
      const repl = createRepl();
      t.same(await repl.written('repl.write(import.meta.url)'), ['file:///browser-repl-cell.mjs']);
    });

    t.test('V8-only syntax errors (decorators) carry REPL_ERR_CELL_SYNTAX', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('@decorate class Decorated {}');
      t.equal(error.name, 'SyntaxError');
      t.equal(error.code, 'REPL_ERR_CELL_SYNTAX');
      t.equal(repl.evaluator.bindings.kindOf('Decorated'), undefined);
    });
  });

  t.test('#evaluate dynamic import', async (t) => {
    t.test('loads built-ins with and without node:, dependencies, and exposes default', async (t) => {
      const repl = createRepl();
      await repl.run('const pathModule = await import("node:path"); const fsModule = await import("fs"); const parser = await import("meriyah")');
      t.same(
        await repl.written('repl.write([pathModule.join("a", "b"), typeof pathModule.default.join, typeof fsModule.readFileSync, typeof parser.parseModule])'),
        [['a/b', 'function', 'function', 'function']],
      );
      t.same(await repl.written('repl.write([(await import("path")) === pathModule, Object.keys(pathModule).includes("default")])'), [[true, true]]);
    });

    t.test('keeps Node\'s error for a missing package', async (t) => {
      const repl = createRepl();
      const error = await repl.thrown('await import("browser-repl-no-such-package")');
      // Loader hooks of the test runner strip `code`; in a plain worker it is ERR_MODULE_NOT_FOUND.
      t.ok(error.code === undefined || error.code === 'ERR_MODULE_NOT_FOUND');
      t.match(error.message, /^Cannot find package 'browser-repl-no-such-package' imported from /);
    });

    t.test('delegates to the importModule option and wraps every key in the cell context', async (t) => {
      const calls = [];
      const repl = createRepl({
        importModule: async (specifier, referrer) => {
          calls.push([specifier, referrer]);
          return { default: 'dflt', named: 42 };
        },
      });
      t.same(await repl.written('const m = await import("virtual"); repl.write([m.default, m.named, Object.keys(m)])'), [['dflt', 42, ['default', 'named']]]);
      t.same(calls, [['virtual', 'browser-repl-cell-1.mjs']]);
      t.same(await repl.written('const later = () => import("virtual-2"); repl.write(Object.keys(await later()))'), [['default', 'named']], 'works from closures');
    });
  });

  t.test('#evaluate initialization target', async (t) => {
    t.test('is a non-enumerable per-cell global, internal to the lowering, revoked afterwards', async (t) => {
      const repl = createRepl();
      const [info] = await repl.written([
        'let probe = 1',
        'const targetName = Object.getOwnPropertyNames(globalThis).find((n) => n.startsWith("__browser_repl_init_"))',
        'var keptTarget = globalThis[targetName]',
        'const errors = []',
        'try { keptTarget.foreign = 1 } catch (e) { errors.push([e instanceof TypeError, e.message]) }',
        'try { keptTarget.probe = 2 } catch (e) { errors.push([e instanceof TypeError, e.message]) }',
        'try { delete keptTarget.probe } catch (e) { errors.push(e.message) }',
        'repl.write({ targetName, enumerable: Object.getOwnPropertyDescriptor(globalThis, targetName).enumerable, errors, legacy: "__browser_repl_init_target" in globalThis })',
      ].join('\n'));
      t.match(info.targetName, /^__browser_repl_init_1_[0-9a-f]{32}$/);
      t.equal(info.enumerable, false);
      t.same(info.errors, [[true, INTERNAL], [true, INTERNAL], INTERNAL], 'foreign names and second sets are refused');
      t.equal(info.legacy, false);
      const revoked = await repl.thrown('keptTarget.probe = 3');
      t.ok(revoked instanceof TypeError || revoked instanceof repl.realm.TypeError);
      t.match(revoked.message, /revoked/);
      t.same(await repl.written(`repl.write(["${info.targetName}" in globalThis, probe])`), [[false, 1]]);
    });

    t.test('is closed after a failing cell too', async (t) => {
      const repl = createRepl();
      await repl.thrown('let failing = 1; globalThis.leak = Object.getOwnPropertyNames(globalThis).find((n) => n.startsWith("__browser_repl_init_")); throw new Error("fail")');
      const count = 'Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__browser_repl_init_")).length';
      t.same(await repl.written(`repl.write([leak in globalThis, ${count}])`), [[false, 0]], 'none is left behind, and a cell without lexical declarations installs none');
      t.same(await repl.written(`let declared = 1; repl.write(${count})`), [1], 'a cell with one sees only its own');
    });
  });

  t.test('#evaluate pre-existing globals', async (t) => {
    t.test('var keeps the value of an existing configurable global', async (t) => {
      const repl = createRepl();
      t.same(await repl.written('var setTimeout; repl.write(typeof setTimeout)'), ['function']);
    });

    t.test('a non-configurable global is assigned only when writable and not const', async (t) => {
      const repl = createRepl();
      vm.runInContext('Object.defineProperty(globalThis, "writableFixed", { value: 1, writable: true, configurable: false }); Object.defineProperty(globalThis, "readOnly", { value: 1, writable: false, configurable: false })', repl.context);
      t.same(await repl.written('let writableFixed = 2; let readOnly = 2; let undefined = 3; repl.write([writableFixed, readOnly, typeof undefined])'), [[2, 1, 'undefined']]);
    });
  });

  t.test('#evaluate resolves names as a script does (issue 26)', async (t) => {
    t.test('a binding whose cell failed stays in its TDZ for the functions of earlier cells', async (t) => {
      const repl = createRepl();
      await repl.run('function readLater() { return later } function readPartial() { return [first, second] }');
      t.equal((await repl.thrown('readLater(); let later = 1')).message, TDZ('later'));
      t.equal((await repl.thrown('readLater()')).message, TDZ('later'), 'still in its TDZ in a later cell');
      t.equal((await repl.thrown('let first = 1, second = (() => { throw new Error("cut") })()')).message, 'cut');
      t.equal((await repl.thrown('readPartial()')).message, TDZ('second'));
      t.same(await repl.written('repl.write(first)'), [1]);
    });

    t.test('an initialised lexical binding is a binding of the script scope, and globalThis reaches it', async (t) => {
      const repl = createRepl();
      await repl.run('let shared = 1; const frozen = "c"; class Shape {}');
      t.same(vm.runInContext('[shared, frozen, typeof Shape]', repl.context), [1, 'c', 'function'], 'a script of the context sees them');
      t.same(await repl.written('globalThis.shared = 2; repl.write([shared, globalThis.frozen, Object.getOwnPropertyDescriptor(globalThis, "shared").configurable])'), [[2, 'c', false]]);
      const error = await repl.thrown('globalThis.frozen = 1');
      t.ok(error instanceof repl.realm.TypeError);
      t.equal(error.message, 'Assignment to constant variable.');
      t.notOk(error.stack.split('\n')[1].includes('browser-repl-bindings'), 'the top frame is not the accessor');
      t.same(await repl.written('repl.write(frozen)'), ['c']);
    });

    t.test('closures of earlier cells see assignments of later cells, also once optimised', async (t) => {
      const repl = createRepl();
      await repl.run('let factor = 2; function scale(x) { return x * factor } const bumpFactor = () => factor++');
      await repl.run('{ let s = 0; for (let i = 0; i < 2e5; i++) s += scale(i) }');
      t.same(await repl.written('factor = 10; repl.write(scale(1)); bumpFactor(); repl.write([factor, scale(1)])'), [10, [11, 11]]);
    });

    t.test('a global a later cell replaces, adds or deletes is seen by functions of earlier cells', async (t) => {
      const repl = createRepl();
      await repl.run('function top(x) { return Math.max(x, 1) } function readUser() { return userGlobal } globalThis.userGlobal = 1');
      await repl.run('{ let s = 0; for (let i = 0; i < 2e5; i++) s += top(i) + readUser() }');
      t.same(await repl.written('globalThis.Math = { max: () => "replaced" }; userGlobal = 2; repl.write([top(5), readUser()])'), [['replaced', 2]]);
      t.same(await repl.written('delete globalThis.userGlobal; try { readUser() } catch (e) { repl.write(e.message) }'), ['userGlobal is not defined']);
      t.same(await repl.written('delete globalThis.Math; try { top(1) } catch (e) { repl.write([e instanceof ReferenceError, e.message]) }'), [[true, 'Math is not defined']]);
    });

    t.test('typeof of a name nobody declared, before and after a cell defines it', async (t) => {
      const repl = createRepl();
      await repl.run('function kind() { return typeof maybeLater } for (let i = 0; i < 1e5; i++) kind()');
      t.same(await repl.written('repl.write([typeof maybeLater, kind()])'), [['undefined', 'undefined']]);
      t.same(await repl.written('globalThis.maybeLater = 1; repl.write(kind())'), ['number']);
      t.same(await repl.written('delete globalThis.maybeLater; repl.write(kind())'), ['undefined']);
    });

    t.test('getters and setters on globalThis run on every read and write', async (t) => {
      const repl = createRepl();
      await repl.run('var reads = 0; Object.defineProperty(globalThis, "counted", { get() { return ++reads }, set(value) { reads = value * 10 }, configurable: true }); function readCounted() { return counted }');
      t.same(await repl.written('for (let i = 0; i < 1e5; i++) readCounted(); repl.write(reads); counted = 2; repl.write(reads)'), [100000, 20]);
    });

    t.test('sloppy code of the context sees globalThis as this; cell code, strict, does not', async (t) => {
      const repl = createRepl();
      t.same(
        await repl.written('repl.write([(0, eval)("this") === globalThis, new Function("return this")() === globalThis, this === undefined, (function () { return this })() === undefined])'),
        [[true, true, true, true]],
      );
    });

    t.test('top-level var and function make the global properties a script makes', async (t) => {
      const repl = createRepl();
      await repl.run('var scriptVar = 1; function scriptFunction() {} globalThis.userThing = 7; globalThis.replacedByFunction = 1');
      const [descriptors] = await repl.written('repl.write(["scriptVar", "scriptFunction"].map((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return [typeof d.value, d.writable, d.enumerable, d.configurable] }))');
      t.same(descriptors, [['number', true, true, false], ['function', true, true, false]]);
      t.same(await repl.written('repl.write([Reflect.deleteProperty(globalThis, "scriptVar"), scriptVar]); globalThis.scriptVar = 5; repl.write(scriptVar)'), [[false, 1], 5]);
      t.same(await repl.written('var userThing; var setTimeout; repl.write([userThing, typeof setTimeout, Object.getOwnPropertyDescriptor(globalThis, "userThing").configurable])'), [[7, 'function', true]], 'an existing property stays as it is');
      t.same(await repl.written('function replacedByFunction() { return "fn" } repl.write([replacedByFunction(), Object.getOwnPropertyDescriptor(globalThis, "replacedByFunction").configurable])'), [['fn', false]]);
    });

    t.test('a binding that cannot move to the script scope keeps working on its accessor', async (t) => {
      const repl = createRepl();
      // Frozen before its first read: the accessor became non-configurable, which V8 refuses to
      // declare a script-scope binding over.
      t.same(await repl.written('let keptOnAccessor = 1; Object.freeze(globalThis); repl.write(keptOnAccessor); keptOnAccessor = 2; repl.write(keptOnAccessor)'), [1, 2]);
      t.same(await repl.written('repl.write(keptOnAccessor)'), [2]);
      t.equal(vm.runInContext('typeof keptOnAccessor', repl.context), 'number');
    });

    t.test('stack positions are those of the cell as written, on lines the lowering and the checks edited too', async (t) => {
      const names = { token: '__repl_00c0ffee00c0ffee' };
      const output = [];
      const context = Object.assign(vm.createContext(vm.constants.DONT_CONTEXTIFY), { repl: { write: (value) => output.push(value) } });
      const interrupts = new CellInterrupts({ context, names, currentScope: () => undefined, raisedByHost: true });
      const evaluator = new CellEvaluator({ context, interruptChecks: interrupts.names });
      const code = [
        'let first = 1, second = 2; const boom = (n) => { for (let i = 0; ; i++) { if (i > n) return null.x } }',
        'function outer() { while (true) { return boom(first + second) } } var kept = 3; outer()',
      ].join('\n');
      let thrown;
      try {
        await evaluator.evaluate(code);
      } catch (error) {
        thrown = error;
      }
      // The same source as a plain module: the positions V8 gives without any lowering.
      const plain = new vm.SourceTextModule(code, { identifier: 'plain.mjs', context: vm.createContext(vm.constants.DONT_CONTEXTIFY) });
      await plain.link(() => {});
      let expected;
      try {
        await plain.evaluate();
      } catch (error) {
        expected = error;
      }
      const positions = (stack, file) => [...stack.matchAll(new RegExp(`${file.replaceAll('.', '\\.')}:(\\d+):(\\d+)`, 'g'))].map((match) => `${match[1]}:${match[2]}`);
      const want = positions(expected.stack, 'plain.mjs');
      t.equal(want.length, 3, 'three frames in the cell');
      t.notSame(positions(thrown.stack, 'browser-repl-cell-1.mjs'), want, 'V8 reports the compiled columns');
      t.same(positions(evaluator.writtenPositions(thrown.stack), 'browser-repl-cell-1.mjs'), want);
    });

    t.test('a contextified global works too', async (t) => {
      const repl = createRepl({ contextified: true });
      await repl.run('let counter = 0; const inc = () => ++counter; var total = 1; function twice(x) { return 2 * x }');
      t.same(await repl.written('inc(); counter += 10; total = twice(total); repl.write([counter, total])'), [[11, 2]]);
      t.equal((await repl.thrown('const fixed = 1; fixed = 2')).message, 'Assignment to constant variable.');
    });
  });

  t.test('#evaluate robustness', async (t) => {
    t.test('every kind of failure leaves the evaluator usable', async (t) => {
      const repl = createRepl();
      await repl.run('let base = 1');
      const failures = [
        'let base = 2',
        'syntax error here',
        'return',
        'import x from "y"',
        'throw new Error("boom")',
        'await Promise.reject(new Error("async boom"))',
        'throw "a string"',
        'missing = 1',
        'let partial = 1, broken = null.x',
        '@dec class Decorated {}',
      ];
      for (const code of failures) {
        await t.rejects(repl.run(code), code);
        t.same(await repl.written('repl.write(base)'), [1], `usable after ${JSON.stringify(code)}`);
      }
      t.equal(repl.evaluator.cellCount, 1 + failures.length * 2);
    });

    t.test('a thrown primitive is rejected as-is', async (t) => {
      const repl = createRepl();
      t.equal(await repl.thrown('throw "plain"'), 'plain');
    });
  });
});
