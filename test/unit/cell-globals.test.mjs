// Issue 9, item 13: a cell has the globals of a Node REPL of the same Node version, and what it
// does to them stays in its REPL (worker/repl/create-context.ts, docs/repl.md "Globals").
// Compared against a real `node:repl` session in a child process of this same Node binary.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { isBuiltin } from 'node:module';
import { createRepl } from '../../dist/lib/index.js';

/**
 * Source of an expression listing the own property names of the global object it runs against.
 * On Node 20, `Object.getOwnPropertyNames` of a vm context's global lists only its enumerable
 * properties (`Buffer`, `URL` are not), in a Node REPL and in a cell alike, so both sides also test
 * every candidate name one by one. A test that throws counts as present: Node 20's REPL answers
 * `Object.hasOwn(globalThis, "crypto")` by calling Node's getter, which throws there.
 */
function globalsExpression(candidatesJson) {
  return `[...new Set([...Object.getOwnPropertyNames(globalThis), ...${candidatesJson}
    .filter((name) => { try { return Object.hasOwn(globalThis, name); } catch { return true; } })])]`;
}

/**
 * The names a Node REPL (`repl.start({ useGlobal: false })`, as `node` runs it) has on its global
 * object, from a child process given this script on stdin: an ES module, because `node -e` would
 * put the built-in modules and `require` on the child's own global first. Also answers the
 * child's main-thread globals and the candidate names, for the cell to test the same names.
 */
function nodeReplGlobals() {
  const script = `
    import repl from 'node:repl';
    import { builtinModules } from 'node:module';
    import { PassThrough } from 'node:stream';
    ${globalsExpression}
    const mainGlobals = Object.getOwnPropertyNames(globalThis);
    const candidates = [...new Set([...mainGlobals, ...builtinModules, '_', '_error', 'require', 'module', 'global', 'console'])];
    const input = new PassThrough();
    const output = new PassThrough();
    let echoed = '';
    output.on('data', (chunk) => { echoed += chunk; });
    const server = repl.start({ input, output, useGlobal: false, terminal: false, prompt: '' });
    server.on('exit', () => { if (echoed.includes('Uncaught')) process.stderr.write(echoed); });
    const answer = '{ mainGlobals: ' + JSON.stringify(mainGlobals) + ', candidates: ' + JSON.stringify(candidates)
      + ', names: ' + globalsExpression(JSON.stringify(candidates)) + ' }';
    input.end('process.stdout.write(JSON.stringify(' + answer.replaceAll('\\n', ' ') + '))\\n');
  `;
  // Without warnings: on Node 20 testing a candidate name calls the REPL's getter, which loads
  // the module and prints its deprecation or experimental warning (sys, wasi).
  const child = spawnSync(process.execPath, ['--no-warnings', '--input-type=module'], { input: script, encoding: 'utf8' });
  if (child.status !== 0 || child.stderr !== '') throw new Error(`node:repl child failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}

const sorted = (names) => [...names].sort();

t.test('a cell has the globals of a Node REPL of the same Node version', async (t) => {
  const node = nodeReplGlobals();
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const result = await repl.run(`repl.write(JSON.stringify({ helpers: Object.keys(browser), names: ${globalsExpression(JSON.stringify(node.candidates))} }))`);
  t.equal(result.success, true, result.error);
  const cell = JSON.parse(result.content[0].text);

  const mainGlobals = new Set(node.mainGlobals);
  /** Deliberate differences, REPL side. */
  const onlyInNodeRepl = (name) =>
    // The REPL's last value and last error: a cell reports with repl.write, its error comes back in the response.
    name === '_' || name === '_error'
    // The REPL is CommonJS; a cell is an ES module and loads modules with import().
    || name === 'require' || name === 'module'
    // The REPL binds every built-in module to a global of its name (fs, http, node:sqlite…);
    // a cell imports them. Names that are also real globals (crypto, console) are compared.
    || (isBuiltin(name) && !mainGlobals.has(name));
  /** Deliberate differences, cell side: ours (docs/repl.md), and the flag the interrupt checks read. */
  const ours = new Set(['repl', 'browser', 'webmcp', ...cell.helpers]);
  const interruptFlag = cell.names.filter((name) => /^__repl_[0-9a-f]{16}$/.test(name));
  t.equal(interruptFlag.length, 1, 'one internal global: the interrupt flag (worker/repl/cell-interrupts.ts)');
  t.ok(cell.helpers.includes('gotoUrl'), 'the helper names come from the cell');

  t.same(sorted(cell.names.filter((name) => !ours.has(name) && !interruptFlag.includes(name))), sorted(node.names.filter((name) => !onlyInNodeRepl(name))));
  for (const name of ['Headers', 'Request', 'Response', 'FormData', 'performance', 'setImmediate', 'clearImmediate',
    'global', 'Blob', 'File', 'DOMException', 'Event', 'EventTarget', 'CustomEvent', 'ReadableStream', 'WritableStream',
    'TransformStream', 'TextDecoderStream', 'CompressionStream', 'MessageChannel', 'MessagePort', 'MessageEvent',
    'BroadcastChannel', 'Crypto', 'CryptoKey', 'SubtleCrypto']) {
    t.ok(cell.names.includes(name), `${name} is a global of the cell`);
  }
});

/** A loopback server answering every GET with `ok <path>`; closed with the test. */
async function textServer(t) {
  const server = createServer((request, response) => response.end(`ok ${request.url}`));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

/** The worker realm's global, reached from a cell through a worker function (white-box checks only). */
const WORKER_GLOBAL = 'repl.write.constructor("return globalThis")()';

t.test("a cell's changes to Node's globals never reach the worker", async (t) => {
  const origin = await textServer(t);
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const before = await repl.run(`
    const worker = ${WORKER_GLOBAL};
    repl.write(JSON.stringify([worker.Headers.prototype.get.name, Object.hasOwn(Object.getPrototypeOf(performance), "now")]));
  `);
  t.same(JSON.parse(before.content[0].text), ['get', false]);

  t.test('patching classes, functions and objects, then using the helpers in the same cell', async (t) => {
    const result = await repl.run(`
      // Everything the worker's own code uses: its message port, event targets and abort signals
      // (waitMs, httpGet, the cell's end), URL and TextDecoder (httpGet), performance (duration_ms).
      MessagePort.prototype.postMessage = () => { throw new Error("patched postMessage"); };
      EventTarget.prototype.addEventListener = () => { throw new Error("patched addEventListener"); };
      EventTarget.prototype.dispatchEvent = () => { throw new Error("patched dispatchEvent"); };
      AbortController.prototype.abort = () => { throw new Error("patched abort"); };
      AbortSignal.timeout = () => { throw new Error("patched timeout"); };
      URL.prototype.toString = () => "patched";
      Object.defineProperty(URL.prototype, "href", { get: () => "patched" });
      TextDecoder.prototype.decode = () => "patched";
      Headers.prototype.get = () => "patched";
      Response.prototype.text = async () => "patched";
      performance.now = () => -1e12;
      setTimeout[Symbol.for("nodejs.util.promisify.custom")] = () => { throw new Error("patched promisify"); };
      fetch.patched = true;
      await waitMs(20);
      repl.write(await httpGet(${JSON.stringify(`${origin}/after-patches`)}));
    `, { timeoutSec: 20 });
    t.equal(result.success, true, result.error);
    t.same(result.content, [{ type: 'text', channel: 'write', text: 'ok /after-patches' }]);
    t.ok(result.durationMs >= 0, "duration_ms comes from the worker's own performance.now()");

    const worker = await repl.run(`
      const realm = ${WORKER_GLOBAL};
      repl.write(JSON.stringify([
        realm.Headers.prototype.get.name, realm.URL.prototype.toString === URL.prototype.toString,
        Object.hasOwn(realm.performance, "now"), "patched" in realm.fetch,
        realm.EventTarget.prototype.addEventListener === EventTarget.prototype.addEventListener,
        typeof realm.setTimeout[Symbol.for("nodejs.util.promisify.custom")],
        new realm.URL("http://a/").href,
      ]));
    `);
    t.same(JSON.parse(worker.content[0].text), ['get', false, false, false, false, 'function', 'http://a/']);
  });

  t.test("reassigning and deleting globals changes the cell's REPL only", async (t) => {
    const names = ['fetch', 'setTimeout', 'clearTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'structuredClone',
      'performance', 'crypto', 'URL', 'AbortController', 'AbortSignal', 'EventTarget', 'Event', 'TextDecoder', 'TextEncoder',
      'Headers', 'Response', 'MessageChannel', 'MessagePort', 'Blob', 'Buffer', 'process'];
    const result = await repl.run(`
      const gone = ${JSON.stringify(names)};
      gone.forEach((name, index) => { if (index % 2 === 0) delete globalThis[name]; else globalThis[name] = "replaced"; });
      await waitMs(20);
      repl.write(await httpGet(${JSON.stringify(`${origin}/after-deletes`)}));
    `, { timeoutSec: 20 });
    t.equal(result.success, true, result.error);
    t.same(result.content, [{ type: 'text', channel: 'write', text: 'ok /after-deletes' }]);

    const seen = await repl.run(`repl.write(JSON.stringify(${JSON.stringify(names)}.map((name) => [typeof globalThis[name], typeof ${WORKER_GLOBAL}[name]])))`);
    t.same(JSON.parse(seen.content[0].text), names.map((name, index) => [index % 2 === 0 ? 'undefined' : 'string',
      name === 'performance' || name === 'crypto' || name === 'process' ? 'object' : 'function']),
    'the REPL keeps its own changes; the worker keeps its globals');

    const fresh = await repl.run('repl.write(typeof fetch + " " + typeof Buffer)', { reset: true });
    t.equal(fresh.content[0].text, 'function function', 'a reset REPL has them again');
  });

  t.test('assigning a global before its first read never writes through to the worker', async (t) => {
    // Node's own lazy globals (Blob, atob, performance on Node 20) are accessors whose setter
    // defines the property on the worker's globalThis; the cell's binding must not be one.
    const result = await repl.run(`
      Blob = 1; atob = 2; BroadcastChannel = 3;
      const realm = ${WORKER_GLOBAL};
      repl.write(JSON.stringify([Blob, atob, BroadcastChannel, typeof realm.Blob, typeof realm.atob, typeof realm.BroadcastChannel]));
    `, { reset: true });
    t.same(JSON.parse(result.content[0].text), [1, 2, 3, 'function', 'function', 'function']);
  });
});

t.test('what a cell sees behaves like Node', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const facts = async (code) => {
    const result = await repl.run(`repl.write(JSON.stringify(await (async () => { ${code} })()))`);
    t.equal(result.success, true, result.error);
    return JSON.parse(result.content[0].text);
  };

  t.test("instanceof accepts the worker's instances and the cell's own", async (t) => {
    t.same(await facts(`
      const response = await fetch("data:text/plain,hi");
      class Mine extends EventTarget {}
      return [
        response instanceof Response, response.headers instanceof Headers, await response.text(),
        new Headers() instanceof Headers, new File([], "f") instanceof Blob, new Mine() instanceof EventTarget,
        new EventTarget() instanceof Mine, new AbortController().signal instanceof AbortSignal,
        performance instanceof Performance, crypto instanceof Crypto, crypto.subtle instanceof SubtleCrypto,
        new DOMException("m", "AbortError").code, Buffer.from("a") instanceof Buffer, global === globalThis,
      ];
    `), [true, true, 'hi', true, true, true, false, true, true, true, true, 20, true, true]);
  });

  t.test("a cell's patches apply to what it creates itself", async (t) => {
    t.same(await facts(`
      Headers.prototype.get = function () { return "patched"; };
      performance.now = () => 42;
      return [new Headers({ a: "1" }).get("a"), (await fetch("data:,x")).headers.get("content-type"), performance.now()];
    `), ['patched', 'text/plain;charset=US-ASCII', 42]);
  });

  t.test('functions keep their names, lengths and util.promisify forms; objects their methods', async (t) => {
    t.same(await facts(`
      const { promisify } = await import("node:util");
      const worker = ${WORKER_GLOBAL};
      await promisify(setTimeout)(1);
      await new Promise((resolve) => setImmediate(resolve));
      const digest = await crypto.subtle.digest("SHA-256", new Uint8Array([1]));
      return [
        setTimeout.name, setTimeout.length === worker.setTimeout.length, fetch.name, Headers.name,
        Headers.length === worker.Headers.length, typeof performance.timeOrigin, crypto.randomUUID().length,
        digest.byteLength, structuredClone(new Map([[1, 2]])).size, atob(btoa("ab")),
      ];
    `), ['setTimeout', true, 'fetch', 'Headers', true, 'number', 36, 32, 1, 'ab']);
  });

  t.test('web streams, messaging and blobs work across the wrappers', async (t) => {
    t.same(await facts(`
      const zipped = new Blob(["hello"]).stream().pipeThrough(new CompressionStream("gzip"))
        .pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream());
      let text = "";
      for await (const chunk of zipped) text += chunk;
      const { port1, port2 } = new MessageChannel();
      const message = new Promise((resolve) => { port2.onmessage = (event) => resolve([event.data, event instanceof MessageEvent]); });
      port1.postMessage("hi");
      const received = await message;
      port1.close();
      const form = new FormData();
      form.append("a", "b");
      return [text, ...received, (await new Response(form).text()).includes("name=\\"a\\"")];
    `), ['hello', 'hi', true, true]);
  });

  t.test('var re-declaring a Node global keeps its value, as in a script', async (t) => {
    const declared = await repl.run('var fetch; var performance; repl.write(typeof fetch + " " + typeof performance.now)');
    t.equal(declared.content[0].text, 'function function');
  });
});
