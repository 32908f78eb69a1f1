import t from 'tap';
import {
  BindingStore,
  INIT_TARGET_INTERNAL_MESSAGE,
  redeclarationMessage,
} from '../../dist/worker/repl/binding-store.js';

const binding = (name, kind, line = 1, column = 0) => ({ name, kind, line, column });

t.test('BindingStore', async (t) => {
  t.test('#assertDeclarable', async (t) => {
    t.test('rejects lexical redeclarations with a framed SyntaxError and no side effect', async (t) => {
      const global = {};
      const store = new BindingStore({ global });
      store.declare([binding('a', 'let')]);
      t.throws(() => store.assertDeclarable([binding('fresh', 'var'), binding('a', 'var', 2, 4)], 'browser-repl-cell-9.mjs'), {
        name: 'SyntaxError',
        message: redeclarationMessage('a'),
        code: 'REPL_ERR_BINDING',
        stack: `SyntaxError: ${redeclarationMessage('a')}\n    at browser-repl-cell-9.mjs:2:5`,
      });
      t.notOk('fresh' in global);
      t.equal(redeclarationMessage('a'), "Identifier 'a' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run");
    });

    t.test('allows var and function in any order, also within one cell', async (t) => {
      const store = new BindingStore({ global: {} });
      store.declare([binding('v', 'var')]);
      t.doesNotThrow(() => store.assertDeclarable([binding('v', 'function'), binding('w', 'var'), binding('w', 'function')]));
      t.throws(() => store.assertDeclarable([binding('x', 'const'), binding('x', 'var')]), { message: redeclarationMessage('x') });
    });

    t.test('refuses new names on a non-extensible global', async (t) => {
      const store = new BindingStore({ global: Object.preventExtensions({ existing: 1 }) });
      t.doesNotThrow(() => store.assertDeclarable([binding('existing', 'var')]));
      t.throws(() => store.assertDeclarable([binding('added', 'var')]), { name: 'TypeError' });
    });
  });

  t.test('#declare', async (t) => {
    t.test('installs enumerable non-configurable accessors with TDZ and const semantics', async (t) => {
      const global = {};
      const store = new BindingStore({ global });
      store.declare([binding('l', 'let'), binding('c', 'const'), binding('v', 'var')]);
      t.same(Object.keys(global), ['l', 'c', 'v']);
      const descriptor = Object.getOwnPropertyDescriptor(global, 'l');
      t.same([descriptor.enumerable, descriptor.configurable], [true, false]);
      t.throws(() => global.l, { name: 'ReferenceError', message: "Cannot access 'l' before initialization" });
      t.throws(() => { global.l = 1; }, { name: 'ReferenceError', message: "Cannot access 'l' before initialization" });
      t.equal(global.v, undefined);
      const target = store.openInitTarget('__init', [binding('l', 'let'), binding('c', 'const')]);
      global.__init.l = 1;
      global.__init.c = 2;
      target.close();
      global.l = 5;
      t.same([global.l, global.c], [5, 2]);
      t.throws(() => { global.c = 3; }, { name: 'TypeError', message: 'Assignment to constant variable.' });
      t.ok(store.isInitialized('c'));
    });

    t.test('var and function are plain global data properties, as a script makes them; redeclared, they keep their value', async (t) => {
      const global = {};
      const store = new BindingStore({ global });
      store.declare([binding('v', 'var'), binding('f', 'function')]);
      t.same(Object.getOwnPropertyDescriptor(global, 'v'), { value: undefined, writable: true, enumerable: true, configurable: false });
      global.v = 7;
      global.f = 8;
      store.declare([binding('v', 'var'), binding('f', 'function')]);
      t.same([global.v, global.f], [7, 8], 'a function keeps its old value until the prelude installs the new one');
    });

    t.test('a var of a name the global has keeps that property as it is', async (t) => {
      const global = {};
      Object.defineProperty(global, 'lazy', { get: () => 'node global', configurable: true, enumerable: false });
      const store = new BindingStore({ global });
      store.declare([binding('lazy', 'var')]);
      const descriptor = Object.getOwnPropertyDescriptor(global, 'lazy');
      t.same([typeof descriptor.get, descriptor.configurable, global.lazy], ['function', true, 'node global']);
    });

    t.test('uses the realm error constructors it was given', async (t) => {
      class RealmReferenceError extends Error {}
      const global = {};
      const store = new BindingStore({ global, errors: { ReferenceError: RealmReferenceError, TypeError } });
      store.declare([binding('x', 'let')]);
      let caught;
      try { global.x; } catch (error) { caught = error; }
      t.ok(caught instanceof RealmReferenceError);
    });
  });

  t.test('#openInitTarget', async (t) => {
    t.test('accepts one set per pending non-var name, names functions, then revokes and deletes', async (t) => {
      const global = {};
      const store = new BindingStore({ global });
      const bindings = [binding('f', 'function'), binding('v', 'var')];
      store.declare(bindings);
      const target = store.openInitTarget('__init_1', bindings);
      t.equal(target.name, '__init_1');
      t.same(Object.getOwnPropertyDescriptor(global, '__init_1').enumerable, false);
      const proxy = global.__init_1;
      const alias = function __browser_repl_function_f() { return 1; };
      proxy.f = alias;
      t.equal(global.f, alias);
      t.equal(alias.name, 'f');
      t.throws(() => { proxy.f = 2; }, { name: 'TypeError', message: INIT_TARGET_INTERNAL_MESSAGE });
      t.throws(() => { proxy.v = 2; }, { message: INIT_TARGET_INTERNAL_MESSAGE }, 'var is not initialized through the target');
      t.throws(() => Object.defineProperty(proxy, 'f', { value: 1 }), { message: INIT_TARGET_INTERNAL_MESSAGE });
      target.close();
      target.close();
      t.notOk('__init_1' in global);
      t.throws(() => { proxy.f = 1; }, { name: 'TypeError', message: /revoked/ });
    });

    t.test('a non-configurable global is assigned only when writable and not const', async (t) => {
      const global = {};
      Object.defineProperty(global, 'w', { value: 0, writable: true, configurable: false });
      Object.defineProperty(global, 'r', { value: 0, writable: false, configurable: false });
      Object.defineProperty(global, 'k', { value: 0, writable: true, configurable: false });
      const store = new BindingStore({ global });
      const bindings = [binding('w', 'let'), binding('r', 'let'), binding('k', 'const')];
      store.declare(bindings);
      const target = store.openInitTarget('__init', bindings);
      Object.assign(global.__init, { w: 1, r: 1, k: 1 });
      target.close();
      t.same([global.w, global.r, global.k], [1, 0, 0]);
    });
  });
});
