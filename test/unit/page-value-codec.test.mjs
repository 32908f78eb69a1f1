// Unit tests for worker/page/page-value-codec.ts (docs/browser-helpers.md, "js()").
// The "page" is a fresh vm context: a different realm that runs the built expression, and whose
// result goes through a JSON round trip as `returnByValue` would, before the Node-side decoder.
import vm from 'node:vm';
import t from 'tap';

import {
  buildFunctionExpression,
  decodeEvaluateResponse,
  decodeRemoteObject,
  decodeTaggedResult,
  encodeArgument,
  pageEvaluationError,
  serializePageFunction,
} from '../../dist/worker/page/page-value-codec.js';

// t.throws matches strings as substrings; an anchored RegExp makes the message check exact.
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const invalid = (message) => ({ code: 'REPL_ERR_INVALID_ARGUMENT', message: exactly(message) });

/** Runs `fn` as a page function in a fresh realm; resolves to the decoded result. */
async function runInPage(fn, options = {}) {
  const context = vm.createContext(options.globals ?? {});
  const hasArg = 'arg' in options;
  const expression = buildFunctionExpression(serializePageFunction(fn), options.arg, hasArg);
  const tagged = await vm.runInContext(expression, context);
  return { value: decodeTaggedResult(JSON.parse(JSON.stringify(tagged))), context, expression };
}

const identity = (x) => x;
const roundTrip = async (value) => (await runInPage(identity, { arg: value })).value;

t.test('encodeArgument', async (t) => {
  t.test('the tagged shape', async (t) => {
    t.equal(JSON.stringify(encodeArgument({ value: 4 })), '{"type":"object","value":[["value",{"type":"number","value":4}]]}');
    t.strictSame(encodeArgument(undefined), { type: 'undefined' });
    t.strictSame(encodeArgument(null), { type: 'null' });
    t.strictSame(encodeArgument(true), { type: 'boolean', value: true });
    t.strictSame(encodeArgument('s'), { type: 'string', value: 's' });
    t.strictSame(encodeArgument(1.5), { type: 'number', value: 1.5 });
    t.strictSame(encodeArgument(0), { type: 'number', value: 0 });
    for (const [n, tag] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [-0, '-0']]) {
      t.strictSame(encodeArgument(n), { type: 'number', value: tag }, tag);
    }
    t.strictSame(encodeArgument(42n), { type: 'bigint', value: '42' });
    t.strictSame(encodeArgument(-(2n ** 70n)), { type: 'bigint', value: '-1180591620717411303424' });
    t.strictSame(encodeArgument([1, , 'x', ,]), {
      type: 'array',
      length: 4,
      value: [[0, { type: 'number', value: 1 }], [2, { type: 'string', value: 'x' }]],
    });
    t.strictSame(encodeArgument({ a: { b: [undefined] } }), {
      type: 'object',
      value: [['a', { type: 'object', value: [['b', { type: 'array', length: 1, value: [[0, { type: 'undefined' }]] }]] }]],
    });
  });

  t.test('only own enumerable string keys; getters run; array extras dropped', async (t) => {
    const object = Object.create(null);
    Object.defineProperty(object, 'hidden', { value: 1, enumerable: false });
    object.visible = 2;
    object[Symbol('s')] = 3;
    t.strictSame(encodeArgument(object), { type: 'object', value: [['visible', { type: 'number', value: 2 }]] });
    let reads = 0;
    t.strictSame(encodeArgument({ get g() { reads++; return 'got'; } }), { type: 'object', value: [['g', { type: 'string', value: 'got' }]] });
    t.equal(reads, 1);
    const array = [1];
    array.extra = 'dropped';
    t.strictSame(encodeArgument(array), { type: 'array', length: 1, value: [[0, { type: 'number', value: 1 }]] });
  });

  t.test('a shared sub-object (DAG) is allowed and copied', async (t) => {
    const shared = { n: 1 };
    const encoded = encodeArgument({ a: shared, b: [shared, shared] });
    t.equal(JSON.stringify(encoded).match(/"n"/g).length, 3);
  });

  t.test('cross-realm plain objects and arrays count as plain', async (t) => {
    const other = vm.createContext({});
    const value = vm.runInContext('({ a: 1, list: [1, { b: 2n }], bare: Object.create(null), nested: JSON.parse(\'{"x":-0}\') })', other);
    t.not(Object.getPrototypeOf(value), Object.prototype, 'really another realm');
    t.strictSame(decodeTaggedResult(encodeArgument(value)), { a: 1, list: [1, { b: 2n }], bare: {}, nested: { x: -0 } });
  });

  t.test('errors, exact messages', async (t) => {
    const cyclic = { a: 1 };
    cyclic.self = cyclic;
    const cyclicArray = [];
    cyclicArray.push([cyclicArray]);
    class Point {
      constructor() {
        this.x = 1;
      }
    }
    const other = vm.createContext({});
    const cases = [
      [() => 1, 'js: arg contains unsupported function value'],
      [{ nested: [async () => 1] }, 'js: arg contains unsupported function value'],
      [Symbol('s'), 'js: arg contains unsupported symbol value'],
      [{ s: Symbol.iterator }, 'js: arg contains unsupported symbol value'],
      [cyclic, 'js: arg must not contain cycles'],
      [cyclicArray, 'js: arg must not contain cycles'],
      [{ deep: { deeper: cyclic } }, 'js: arg must not contain cycles'],
      [new Date(0), 'js: arg must contain only plain objects and arrays'],
      [{ d: new Date(0) }, 'js: arg must contain only plain objects and arrays'],
      [new Map(), 'js: arg must contain only plain objects and arrays'],
      [new Set(), 'js: arg must contain only plain objects and arrays'],
      [/re/, 'js: arg must contain only plain objects and arrays'],
      [new Uint8Array(2), 'js: arg must contain only plain objects and arrays'],
      [new Error('e'), 'js: arg must contain only plain objects and arrays'],
      [Promise.resolve(1), 'js: arg must contain only plain objects and arrays'],
      [new Point(), 'js: arg must contain only plain objects and arrays'],
      [Object.create({ inherited: 1 }), 'js: arg must contain only plain objects and arrays'],
      [Object.create(Object.create(null)), 'js: arg must contain only plain objects and arrays'],
      [Math, 'js: arg must contain only plain objects and arrays'],
      [vm.runInContext('new (class Q {})()', other), 'js: arg must contain only plain objects and arrays'],
      [vm.runInContext('new Date(0)', other), 'js: arg must contain only plain objects and arrays'],
    ];
    for (const [value, message] of cases) t.throws(() => encodeArgument(value), invalid(message), message);
  });
});

t.test('serializePageFunction', async (t) => {
  const object = {
    method(x) {
      return x;
    },
    async asyncMethod(x) {
      return x;
    },
    *generator() {
      yield 1;
    },
    async() {
      return 'named async';
    },
    get getter() {
      return 1;
    },
    [Symbol.iterator]() {},
  };
  t.equal(serializePageFunction(async ({ value }) => Promise.resolve(value)), 'async ({ value }) => Promise.resolve(value)');
  t.equal(serializePageFunction(function named(a) { return a; }), 'function named(a) { return a; }');
  t.equal(serializePageFunction(object.method), 'function method(x) {\n      return x;\n    }');
  t.equal(serializePageFunction(object.asyncMethod), 'async function asyncMethod(x) {\n      return x;\n    }');
  t.equal(serializePageFunction(object.generator), 'function *generator() {\n      yield 1;\n    }');
  t.equal(serializePageFunction(object.async), "function async() {\n      return 'named async';\n    }");
  const notSerializable = invalid('js: page function is not serializable');
  t.throws(() => serializePageFunction(Math.max), notSerializable, 'native');
  t.throws(() => serializePageFunction(identity.bind(null)), notSerializable, 'bound');
  t.throws(() => serializePageFunction(class A {}), notSerializable, 'class');
  t.throws(() => serializePageFunction(Object.getOwnPropertyDescriptor(object, 'getter').get), notSerializable, 'getter');
  t.throws(() => serializePageFunction(object[Symbol.iterator]), notSerializable, 'computed key');

  t.test('a later Function.prototype.toString patch has no effect', async (t) => {
    const original = Function.prototype.toString;
    Function.prototype.toString = () => 'hijacked';
    try {
      t.equal(serializePageFunction((a) => a), '(a) => a');
    } finally {
      Function.prototype.toString = original;
    }
  });
});

t.test('buildFunctionExpression', async (t) => {
  t.test('contains the source verbatim and the tagged arg', async (t) => {
    const source = serializePageFunction(async ({ value }) => Promise.resolve(value));
    const expression = buildFunctionExpression(source, { value: 4 }, true);
    t.ok(expression.includes('async ({ value }) => Promise.resolve(value)'));
    t.ok(expression.includes('Promise.resolve'));
    t.ok(expression.includes('"value",{"type":"number","value":4}'));
  });

  t.test('U+2028 and U+2029 are escaped in the payload', async (t) => {
    const expression = buildFunctionExpression('(x) => x', 'a\u2028b\u2029c', true);
    t.notOk(/[\u2028\u2029]/.test(expression));
    t.ok(expression.includes('a\\u2028b\\u2029c'));
  });

  t.test('argument errors surface while building', async (t) => {
    t.throws(() => buildFunctionExpression('(x) => x', { f() {} }, true), invalid('js: arg contains unsupported function value'));
    t.doesNotThrow(() => buildFunctionExpression('(x) => x', { f() {} }, false), 'ignored without an arg');
  });

  t.test('without an arg the function gets no arguments; with undefined it gets one', async (t) => {
    t.equal((await runInPage(function () { return arguments.length; })).value, 0);
    t.equal((await runInPage(function () { return arguments.length; }, { arg: undefined })).value, 1);
    t.equal((await runInPage((x = 'default') => x)).value, 'default');
  });
});

t.test('round trip through a page realm', async (t) => {
  t.test('top-level values', async (t) => {
    const values = [
      undefined, null, true, false, 0, 1.5, -7, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE,
      '', 'plain', 'unicode é 中 😀 \u0000 \u2028 \u2029', '</script><script>alert(1)</script>', '"quoted" \\ back',
      0n, 42n, -42n, 2n ** 100n, -(2n ** 100n),
    ];
    // Names are escaped: a raw U+2028 or NUL in a test name would break the TAP stream itself.
    const name = (value) => (typeof value === 'string' ? JSON.stringify(value).replace(/[^\x20-\x7e]/gu, (c) => `U+${c.codePointAt(0).toString(16)}`) : String(value));
    for (const value of values) t.equal(await roundTrip(value), value, name(value));
    t.ok(Number.isNaN(await roundTrip(NaN)), 'NaN');
    t.equal(await roundTrip(Infinity), Infinity);
    t.equal(await roundTrip(-Infinity), -Infinity);
    t.ok(Object.is(await roundTrip(-0), -0), '-0');
    t.ok(Object.is(await roundTrip(0), 0), '+0 stays +0');
  });

  t.test('nested specials, undefined, sparse arrays', async (t) => {
    const input = {
      n: { nan: NaN, inf: Infinity, ninf: -Infinity, nz: -0, big: 42n, u: undefined, nul: null },
      list: [NaN, -0, 1n, undefined, null, , 'x', ,],
      empty: new Array(5),
      deep: { a: { b: { c: [[[{ d: 'deep' }]]] } } },
      'key with spaces': 1,
      '': 'empty key',
      '😀': 'emoji key',
    };
    const output = await roundTrip(input);
    t.strictSame(output, input);
    t.ok(Number.isNaN(output.n.nan) && Number.isNaN(output.list[0]));
    t.ok(Object.is(output.n.nz, -0) && Object.is(output.list[1], -0), '-0 nested');
    t.equal(output.n.big, 42n);
    t.ok('u' in output.n, 'undefined property kept as own key');
    t.equal(output.list.length, 8);
    t.ok(3 in output.list, 'explicit undefined element is present');
    t.notOk(5 in output.list, 'hole stays a hole');
    t.notOk(7 in output.list, 'trailing hole stays a hole');
    t.equal(output.empty.length, 5);
    t.notOk(0 in output.empty);
  });

  t.test('the page function sees revived page-realm values', async (t) => {
    const { value } = await runInPage(
      (x) => ({
        sum: x.a + x.b,
        nan: Number.isNaN(x.edge.nan),
        negativeZero: Object.is(x.edge.negativeZero, -0),
        bigint: typeof x.edge.bigint === 'bigint' && String(x.edge.bigint),
        hole: 1 in x.sparse,
        length: x.sparse.length,
        ownProto: Object.prototype.hasOwnProperty.call(x.tricky, '__proto__'),
        protoIntact: Object.getPrototypeOf(x.tricky) === Object.prototype,
        undefinedKey: 'u' in x && x.u === undefined,
      }),
      { arg: { a: 2, b: 3, edge: { nan: NaN, negativeZero: -0, bigint: 42n }, sparse: [1, , 3], tricky: JSON.parse('{"__proto__":{"polluted":true}}'), u: undefined } },
    );
    t.strictSame(value, { sum: 5, nan: true, negativeZero: true, bigint: '42', hole: false, length: 3, ownProto: true, protoIntact: true, undefinedKey: true });
  });

  t.test('own __proto__ keys round-trip as own properties without polluting', async (t) => {
    const output = await roundTrip(JSON.parse('{"__proto__":{"polluted":true},"ok":1}'));
    t.ok(Object.hasOwn(output, '__proto__'));
    t.equal(Object.getPrototypeOf(output), Object.prototype);
    t.equal({}.polluted, undefined);
    t.strictSame(output.__proto__, { polluted: true });
  });

  t.test('a shared sub-object arrives twice', async (t) => {
    const shared = { n: 1 };
    t.strictSame(await roundTrip([shared, { s: shared }]), [{ n: 1 }, { s: { n: 1 } }]);
  });

  t.test('page-side values without a by-value form become undefined', async (t) => {
    const { value } = await runInPage(() => {
      class FakeNode {
        get [Symbol.toStringTag]() {
          return 'HTMLDivElement';
        }
      }
      class Point {
        constructor() {
          this.x = 1;
          this.y = -0;
        }
      }
      return {
        fn: () => 1,
        symbol: Symbol('s'),
        date: new Date(0),
        map: new Map([[1, 2]]),
        set: new Set([1]),
        regexp: /x/,
        typed: new Uint8Array(2),
        promise: Promise.resolve(1),
        error: new Error('nested'),
        node: new FakeNode(),
        list: [() => 1, new FakeNode()],
        point: new Point(),
        bare: Object.create(null),
      };
    });
    t.strictSame(value, {
      fn: undefined,
      symbol: undefined,
      date: undefined,
      map: undefined,
      set: undefined,
      regexp: undefined,
      typed: undefined,
      promise: undefined,
      error: undefined,
      node: undefined,
      list: [undefined, undefined],
      point: { x: 1, y: -0 },
      bare: {},
    });
    t.ok(Object.is(value.point.y, -0));
    t.equal((await runInPage(() => () => 1)).value, undefined, 'top-level function');
    t.equal((await runInPage(() => Symbol('s'))).value, undefined, 'top-level symbol');
  });

  t.test('promises are awaited; the function runs exactly once', async (t) => {
    const { value, context } = await runInPage(
      async (x) => {
        globalThis.counter = (globalThis.counter ?? 0) + 1;
        await null;
        return Promise.resolve({ got: x, big: 7n });
      },
      { arg: [1n] },
    );
    t.strictSame(value, { got: [1n], big: 7n });
    t.equal(context.counter, 1);
  });

  t.test('page globals named like the wrapper locals stay visible', async (t) => {
    const globals = { payload: 'page payload', pageFunction: 'page fn', fail: 'page fail', reviveTaggedValue: 'page revive', result: 'page result' };
    const { value } = await runInPage(
      // eslint-disable-next-line no-undef
      () => [payload, pageFunction, fail, reviveTaggedValue, result],
      { arg: 'arg', globals },
    );
    t.strictSame(value, ['page payload', 'page fn', 'page fail', 'page revive', 'page result']);
  });

  t.test('page errors reject the evaluation', async (t) => {
    await t.rejects(runInPage(() => new Error('returned')), { message: 'returned' }, 'a returned Error is thrown');
    await t.rejects(runInPage(() => { throw new RangeError('thrown'); }), { name: 'RangeError', message: 'thrown' });
    await t.rejects(runInPage(async () => Promise.reject(new Error('rejected'))), { message: 'rejected' });
    await t.rejects(
      runInPage(() => {
        const o = {};
        o.o = o;
        return o;
      }),
      { name: 'TypeError', message: exactly('js: result must not contain cycles') },
    );
    const dag = await runInPage(() => {
      const shared = [1];
      return { a: shared, b: shared };
    });
    t.strictSame(dag.value, { a: [1], b: [1] }, 'a shared result is not a cycle');
  });
});

t.test('decodeTaggedResult rejects malformed trees', async (t) => {
  const malformed = [
    null, 42, 'x', {}, { type: 'nope' }, { type: 'number', value: 'NaNx' }, { type: 'boolean', value: 'true' },
    { type: 'bigint', value: '1.5' }, { type: 'array', length: -1, value: [] }, { type: 'array', length: 1, value: [[5, { type: 'null' }]] },
    { type: 'array', length: 1, value: [['0', { type: 'null' }]] }, { type: 'object', value: [[1, { type: 'null' }]] },
    { type: 'object', value: [['k', { type: 'wat' }]] }, { type: 'object', value: {} },
  ];
  for (const value of malformed) {
    t.throws(() => decodeTaggedResult(value), { code: 'REPL_ERR_PAGE_EVALUATION', message: /^js: page returned a malformed result \(/ }, JSON.stringify(value));
  }
});

t.test('decodeRemoteObject (string mode)', async (t) => {
  t.strictSame(decodeRemoteObject({ type: 'object', value: { a: [1, null] } }), { a: [1, null] });
  t.equal(decodeRemoteObject({ type: 'string', value: 'echo-me-please' }), 'echo-me-please');
  t.equal(decodeRemoteObject({ type: 'object', subtype: 'null', value: null }), null);
  t.equal(decodeRemoteObject({ type: 'number', value: 2 }), 2);
  t.equal(decodeRemoteObject({ type: 'undefined' }), undefined);
  t.ok(Number.isNaN(decodeRemoteObject({ type: 'number', unserializableValue: 'NaN' })));
  t.equal(decodeRemoteObject({ type: 'number', unserializableValue: 'Infinity' }), Infinity);
  t.equal(decodeRemoteObject({ type: 'number', unserializableValue: '-Infinity' }), -Infinity);
  t.ok(Object.is(decodeRemoteObject({ type: 'number', unserializableValue: '-0' }), -0));
  t.equal(decodeRemoteObject({ type: 'bigint', unserializableValue: '42n' }), 42n);
  t.equal(decodeRemoteObject({ type: 'bigint', unserializableValue: '-123456789012345678901234567890n' }), -123456789012345678901234567890n);
  t.equal(decodeRemoteObject({ type: 'object', unserializableValue: 'weird' }), undefined);
  t.equal(decodeRemoteObject({ type: 'object', subtype: 'node', className: 'HTMLDivElement', value: {} }), undefined, 'DOM node');
  t.equal(decodeRemoteObject({ type: 'function', className: 'Function', value: {} }), undefined, 'function');
  t.equal(decodeRemoteObject({ type: 'symbol', description: 'Symbol(x)' }), undefined, 'symbol');
  t.throws(
    () => decodeRemoteObject({ type: 'object', subtype: 'error', className: 'Error', description: 'Error: boom\n    at <anonymous>:1:1' }),
    { code: 'REPL_ERR_PAGE_EVALUATION', message: exactly('Error: boom\n    at <anonymous>:1:1') },
  );
  t.throws(() => decodeRemoteObject({ type: 'object', subtype: 'error' }), { code: 'REPL_ERR_PAGE_EVALUATION', message: exactly('evaluation failed') });
});

t.test('pageEvaluationError', async (t) => {
  const base = { exceptionId: 1, lineNumber: 0, columnNumber: 6 };
  const thrown = pageEvaluationError({
    ...base,
    text: 'Uncaught',
    exception: { type: 'object', subtype: 'error', className: 'TypeError', description: 'TypeError: x is not a function\n    at <anonymous>:1:7' },
  });
  t.equal(thrown.code, 'REPL_ERR_PAGE_EVALUATION');
  t.equal(thrown.message, 'TypeError: x is not a function\n    at <anonymous>:1:7');
  t.hasStrict(thrown.data, { text: 'Uncaught', lineNumber: 0, columnNumber: 6 });
  t.equal(pageEvaluationError({ ...base, text: 'Uncaught', exception: { type: 'string', value: 'boom' } }).message, 'Uncaught boom');
  t.equal(pageEvaluationError({ ...base, text: 'Uncaught (in promise)', exception: { type: 'number', value: 42, description: '42' } }).message, 'Uncaught (in promise) 42');
  t.equal(pageEvaluationError({ ...base, text: 'Uncaught', exception: { type: 'bigint', unserializableValue: '5n', description: '5n' } }).message, 'Uncaught 5n');
  t.equal(pageEvaluationError({ ...base, text: 'Uncaught', exception: { type: 'object', className: 'Object', description: 'Object' } }).message, 'Uncaught Object');
  t.equal(pageEvaluationError({ ...base, text: 'Uncaught SyntaxError: Unexpected token' }).message, 'Uncaught SyntaxError: Unexpected token');
  t.equal(pageEvaluationError({ ...base, text: '' }).message, 'evaluation failed');
});

t.test('decodeEvaluateResponse', async (t) => {
  t.equal(decodeEvaluateResponse({ result: { type: 'number', value: 2 } }, 'expression'), 2);
  t.equal(decodeEvaluateResponse({ result: { type: 'bigint', unserializableValue: '3n' } }, 'expression'), 3n);
  t.strictSame(decodeEvaluateResponse({ result: { type: 'object', value: encodeArgument({ big: 3n }) } }, 'function'), { big: 3n });
  t.throws(
    () => decodeEvaluateResponse({
      result: { type: 'object', subtype: 'error' },
      exceptionDetails: { exceptionId: 1, text: 'Uncaught', lineNumber: 0, columnNumber: 0, exception: { type: 'object', subtype: 'error', description: 'Error: page' } },
    }, 'function'),
    { code: 'REPL_ERR_PAGE_EVALUATION', message: exactly('Error: page') },
  );
});
