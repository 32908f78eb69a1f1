// Cells that try to corrupt the host. A cell's own globals live in its own realm, but the worker's
// built-ins are within reach too (`repl.write.constructor("return globalThis")()`), and the
// runtime's code uses them. After each poisoning: the cell's own answer is well-formed, the next
// cell of the same REPL is answered well-formed on the same worker (the runtime puts its built-ins
// back around every request: worker/threads/realm-integrity.ts), and another REPL is untouched.
// Then output that tries to be unbounded: every answer stays within common/limits.ts.
import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRepl } from '../../dist/lib/index.js';
import { LIMITS } from '../../dist/common/limits.js';
import { texts } from '../helpers/api-server.mjs';

const WORKER = 'const W = repl.write.constructor("return globalThis")();';
const POISONED_KEYS = '["then", "toJSON", "type", "code", "message", "stack", "name", "requestId", "item", "success", "error", "channel", "text"]';

/** [name, cell]: the cell's own realm, then the worker's. */
const POISONINGS = [
  ['JSON (cell realm)', 'JSON.stringify = () => { throw new Error("no JSON") }; JSON.parse = () => { throw new Error("no JSON") };'],
  ['Object.prototype getters (cell realm)', `for (const k of ${POISONED_KEYS}) Object.defineProperty(Object.prototype, k, { get() { throw new Error("poison " + k) }, configurable: true });`],
  ['Array.prototype (cell realm)', 'for (const k of ["push", "map", "forEach", Symbol.iterator]) Array.prototype[k] = () => { throw new Error("no " + String(k)) };'],
  ['Promise (cell realm)', 'Promise = function () { throw new Error("no Promise") }; try { Promise.prototype.then = () => {} } catch {}'],
  ['Promise species (cell realm)', 'try { Object.defineProperty(Object.getPrototypeOf((async () => {})()), "constructor", { get() { throw new Error("species") } }) } catch {}'],
  ['Symbol (cell realm)', 'Symbol = undefined;'],
  ['Function.prototype (cell realm)', 'for (const k of ["call", "apply", "bind"]) Function.prototype[k] = () => { throw new Error("no " + k) };'],
  ['Error (cell realm)', 'Error = function () { throw new Error("no Error") }; TypeError = null;'],
  ['timers, structuredClone, queueMicrotask, console (cell realm)', 'structuredClone = queueMicrotask = setTimeout = setImmediate = null; console = null;'],
  ['JSON (worker realm)', `${WORKER} W.JSON.stringify = () => { throw new Error("no JSON") }; W.JSON.parse = () => { throw new Error("no JSON") };`],
  ['Object.prototype then and toJSON (worker realm)', `${WORKER} Object.defineProperty(W.Object.prototype, "then", { get() { throw new Error("poison then") }, configurable: true }); W.Object.prototype.toJSON = () => "PWNED";`],
  ['Array.prototype (worker realm)', `${WORKER} for (const k of ["push", "map", "forEach", "filter", "join", Symbol.iterator]) W.Array.prototype[k] = () => { throw new Error("no " + String(k)) };`],
  ['array iterators (worker realm)', `${WORKER} Object.getPrototypeOf([][Symbol.iterator]()).next = () => { throw new Error("no next") };`],
  ['Promise (worker realm)', `${WORKER} W.Promise = function () { throw new Error("no Promise") }; try { W.Promise.prototype.then = () => {} } catch {} W.Promise.resolve = () => { throw new Error("no resolve") };`],
  ['Symbol (worker realm)', `${WORKER} W.Symbol = undefined;`],
  ['Function.prototype call, apply, bind (worker realm)', `${WORKER} for (const k of ["call", "apply", "bind"]) W.Function.prototype[k] = () => { throw new Error("no " + k) };`],
  ['Error and Error.captureStackTrace (worker realm)', `${WORKER} W.Error.captureStackTrace = () => { throw new Error("no stacks") }; W.Error = function () { throw 1 }; W.TypeError = null;`],
  ['structuredClone, queueMicrotask, setTimeout, console (worker realm)', `${WORKER} W.structuredClone = W.queueMicrotask = W.setTimeout = W.setImmediate = null; W.console = null;`],
  ['process.stdout.write', 'process.stdout.write = () => { throw new Error("no stdout") }; process.stderr.write = () => { throw new Error("no stderr") };'],
];

/** The contract's cell result (docs/api.md): typed fields, typed content items. */
function assertWellFormed(t, result, name) {
  t.type(result.success, 'boolean', `${name}: success is a boolean`);
  t.type(result.replId, 'string', `${name}: replId`);
  t.ok(Array.isArray(result.content), `${name}: content is an array`);
  t.type(result.contentTruncated, 'boolean', `${name}: contentTruncated`);
  t.type(result.durationMs, 'number', `${name}: durationMs`);
  if (!result.success) t.type(result.error, 'string', `${name}: error is a string`);
  if (result.errorCode !== undefined) t.type(result.errorCode, 'string', `${name}: errorCode`);
  const bad = result.content.filter((item) => !(item.type === 'text' && typeof item.text === 'string' && ['write', 'stdout', 'stderr'].includes(item.channel))
    && !(item.type === 'image' && typeof item.mimeType === 'string' && Buffer.isBuffer(item.data)));
  t.same(bad, [], `${name}: every content item is typed`);
}

/** Within the limits of common/limits.ts (docs/repl.md, "Limits"). */
function assertBounded(t, result, name) {
  const textBytes = result.content.filter((item) => item.type === 'text').reduce((sum, item) => sum + Buffer.byteLength(item.text), 0);
  const imageBytes = result.content.filter((item) => item.type === 'image').reduce((sum, item) => sum + item.data.length, 0);
  t.ok(result.content.length <= LIMITS.itemsPerExecution, `${name}: ${result.content.length} items ≤ ${LIMITS.itemsPerExecution}`);
  t.ok(textBytes <= LIMITS.textBytesPerResponse, `${name}: ${textBytes} text bytes ≤ ${LIMITS.textBytesPerResponse}`);
  t.ok(imageBytes <= LIMITS.imageBytesPerResponse, `${name}: ${imageBytes} image bytes ≤ ${LIMITS.imageBytesPerResponse}`);
}

t.test('each poisoning: a well-formed answer, and the next cell runs normally on the same worker', async (t) => {
  const other = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => other.close());
  const kept = await other.run('var kept = "intact"');
  for (const [name, poison] of POISONINGS) {
    const repl = createRepl({ browser: false, warmSpare: false });
    const first = await repl.run('var mine = "kept"');
    // Output and a thrown error in the poisoning cell itself, after the poison.
    const result = await repl.run(`${poison}\nrepl.write("written"); repl.write({ a: [1, 2] }); throw Object.assign(new RangeError("own"), { code: "E_OWN" });`, { timeoutSec: 30 });
    assertWellFormed(t, result, name);
    t.equal(result.success, false, `${name}: the cell's own outcome`);
    t.not(result.errorCode, 'REPL_ERR_CELL_TIMEOUT', `${name}: answered, not timed out`);
    t.equal(result.replTerminated, undefined, `${name}: the REPL was not replaced`);

    // Worker functions only: the cell's realm is the cell's to break (its own `Array.prototype.map`
    // stays broken, as in any REPL), the runtime's is not.
    const next = await repl.run('repl.write("next"); repl.write(mine); await repl.emitImage(Buffer.from("89504e470d0a1a0a0000000d4948445200", "hex"))', { timeoutSec: 30 });
    assertWellFormed(t, next, `${name}, next cell`);
    t.equal(next.success, true, `${name}: the next cell succeeds (${next.error ?? 'ok'})`);
    t.same(texts(next), ['next', 'kept'], `${name}: the next cell's output, with the REPL's bindings`);
    t.equal(next.content[2]?.type, 'image', `${name}: images still pass`);
    t.equal(next.replId, first.replId, `${name}: on the same worker`);
    const thrown = await repl.run('throw new (repl.write.constructor("return TypeError")())("typed")', { timeoutSec: 30 });
    t.match(thrown, { success: false, error: 'typed' }, `${name}: a later error is reported as thrown`);
    await repl.close();
    const check = await other.run('repl.write(kept)');
    t.same(texts(check), ['intact'], `${name}: another REPL is untouched`);
    t.equal(check.replId, kept.replId, name);
  }
});

t.test('what a cell left running changes between cells is put back before the next cell', async (t) => {
  const markers = mkdtempSync(join(tmpdir(), 'hostile-markers-'));
  t.teardown(() => rmSync(markers, { recursive: true, force: true }));
  // The built-ins are put back after every cell, and before one only when code of an earlier
  // cell may have run since: its timers mark that; a continuation of its I/O does not, and the
  // quick look at the most used built-ins catches it (worker/threads/realm-integrity.ts).
  const leftovers = [
    ['a timer it started', (poison) => `setTimeout(() => { ${poison} }, 20)`],
    // Not `import("node:fs")`: a dynamic import goes through the module loader, whose hooks (tap's
    // process-info hook, under CI) answer on a port of this worker later, with the poisoned
    // built-ins (their own code, not the runtime's, so no put-back covers it) and end the worker.
    ['a continuation of its I/O', (poison) => `process.getBuiltinModule("node:fs").promises.stat("/").then(() => { ${poison} })`],
  ];
  for (const [name, leave] of leftovers) {
    const repl = createRepl({ browser: false, warmSpare: false });
    // The leftover writes a marker just before it poisons (the same task, so nothing of the worker
    // runs in between): the test waits for the marker, not for a guess of how long the I/O takes.
    const marker = join(markers, name.replace(/\W+/g, '-'));
    const first = await repl.run(`${WORKER} var mine = "kept"; ${leave(`process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, ""); W.Array.prototype.push = () => { throw new Error("no push") }; globalThis.poisoned = true`)}`);
    t.equal(first.success, true, `${name}: ${first.error ?? 'ok'}`);
    for (const until = Date.now() + 30_000; !existsSync(marker) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
    const next = await repl.run('let fresh = [1, 2, 3].map((n) => n * 2); repl.write(String(poisoned)); repl.write(mine + fresh.join(","))', { timeoutSec: 30 });
    t.equal(next.success, true, `${name}: the next cell succeeds (${next.error ?? 'ok'})`);
    t.same(texts(next), ['true', 'kept2,4,6'], `${name}: the poison ran, and the cell after it did not see it`);
    t.equal(next.replId, first.replId, `${name}: on the same worker`);
    await repl.close();
  }
});

t.test('a built-in made impossible to put back: the answer says so, and the next call gets a fresh REPL', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const first = await repl.run('var mine = 1');
  const result = await repl.run(`${WORKER} Object.defineProperty(W.JSON, "stringify", { value: () => { throw new Error("no JSON") }, writable: false, configurable: false }); repl.write("written")`, { timeoutSec: 30 });
  assertWellFormed(t, result, 'non-configurable poison');
  t.equal(result.success, true);
  t.same(texts(result), [
    'written',
    'browser-repl: a cell changed built-ins of the REPL runtime that cannot be put back (JSON.stringify); this REPL worker ends after this answer and the next call gets a fresh REPL',
  ]);
  const next = await repl.run('repl.write(typeof mine)', { timeoutSec: 30 });
  t.equal(next.success, true, next.error);
  t.same(texts(next), ['undefined'], 'a fresh REPL');
  t.not(next.replId, first.replId);
});

t.test('a built-in the quick look does not compare made impossible to put back: the next answer says so, and the call after it gets a fresh REPL', async (t) => {
  // A cell that succeeded without helpers is answered before the full restore (issue 26): what
  // that restore cannot put back is told in the next answer (docs/repl.md, "Globals").
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const first = await repl.run('var mine = 1');
  const result = await repl.run(`${WORKER} Object.defineProperty(W.Number.prototype, "toFixed", { value: () => "PWNED", writable: false, configurable: false }); repl.write("written")`, { timeoutSec: 30 });
  assertWellFormed(t, result, 'non-configurable poison outside the quick look');
  t.equal(result.success, true, result.error);
  t.same(texts(result), ['written']);
  const next = await repl.run('repl.write(String(mine))', { timeoutSec: 30 });
  t.equal(next.success, true, next.error);
  t.same(texts(next), [
    'browser-repl: a cell changed built-ins of the REPL runtime that cannot be put back (Number.prototype.toFixed); this REPL worker ends after this answer and the next call gets a fresh REPL',
    '1',
  ]);
  t.equal(next.replId, first.replId, 'the same worker answered');
  const after = await repl.run('repl.write(typeof mine)', { timeoutSec: 30 });
  t.equal(after.success, true, after.error);
  t.same(texts(after), ['undefined'], 'a fresh REPL');
  t.not(after.replId, first.replId);
});

t.test('browser helpers work in a cell after the worker realm was poisoned', async (t) => {
  const repl = createRepl({ warmSpare: false });
  t.teardown(() => repl.close());
  const poison = POISONINGS.filter(([name]) => name.endsWith('(worker realm)') && !name.startsWith('Promise')).map(([, code]) => `{ ${code} }`).join('\n');
  const poisoned = await repl.run(poison, { timeoutSec: 30 });
  assertWellFormed(t, poisoned, 'poisoning');
  const result = await repl.run('repl.write(String(await js("6 * 7"))); repl.write((await pageInfo()).url)', { timeoutSec: 60 });
  t.equal(result.success, true, result.error);
  t.same(texts(result), ['42', 'about:blank']);
});

t.test('gigantic output stays well-formed and bounded', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const PNG = '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489';
  const cases = [
    ['console.log of a 100 MB string', 'console.log("x".repeat(100e6))'],
    ['a million console.log calls', 'for (let i = 0; i < 1e6; i++) console.log(i)'],
    ['an object with a million keys', 'const wide = {}; for (let i = 0; i < 1e6; i++) wide["k" + i] = i; repl.write(wide); console.log(wide)'],
    ['5000 tiny images', `const png = Buffer.from("${PNG}", "hex"); for (let i = 0; i < 5000; i++) await repl.emitImage(png)`],
    ['images past the per-response byte limit', 'const big = Buffer.alloc(7 << 20); big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]); for (let i = 0; i < 4; i++) await repl.emitImage(big)'],
  ];
  for (const [name, code] of cases) {
    const result = await repl.run(code, { timeoutSec: 120 });
    assertWellFormed(t, result, name);
    assertBounded(t, result, name);
    t.equal(result.success, true, `${name}: ${result.error ?? 'ok'}`);
    t.equal(result.replTerminated, undefined, `${name}: the REPL survives`);
  }
  const last = await repl.run('repl.write("still here")');
  t.same(texts(last), ['still here']);
});

t.test('the answers to gigantic output say what was cut', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  const text = await repl.run('console.log("x".repeat(100e6))', { timeoutSec: 120 });
  t.equal(text.contentTruncated, true);
  t.equal(Buffer.byteLength(text.content[0].text), LIMITS.textBytesPerResponse, 'cut at the text limit');
  const many = await repl.run('for (let i = 0; i < 1e6; i++) console.log(i)', { timeoutSec: 120 });
  t.equal(many.contentTruncated, true);
  const images = await repl.run(`const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"); for (let i = 0; i < 5000; i++) await repl.emitImage(png)`, { timeoutSec: 120 });
  t.equal(images.content.length, 5000, 'all 5000 images fit within the limits');
  t.equal(images.contentTruncated, false);
});
