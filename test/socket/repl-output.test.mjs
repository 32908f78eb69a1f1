// docs/repl.md, "Response" and "Limits": ordered typed output, every emitImage input form,
// limits, stray output, pollution.
import t from 'tap';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRepl } from '../../dist/lib/index.js';
import { apiServer } from '../helpers/api-server.mjs';

// Smallest valid-looking headers: the sniffing only reads magic bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600', 'hex');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

t.test('output over HTTP', async (t) => {
  const api = await apiServer(t);

  t.test('items keep call order across channels and images', async (t) => {
    const png = PNG.toString('base64');
    const result = await api.repl(`
      repl.write("a");
      console.log("b", 1);
      console.error("c");
      repl.write({ k: 1 });
      await repl.emitImage("data:image/png;base64,${png}");
      repl.write("after");
    `);
    t.same(result.content, [
      { type: 'text', channel: 'write', text: 'a' },
      { type: 'text', channel: 'stdout', text: 'b 1' },
      { type: 'text', channel: 'stderr', text: 'c' },
      { type: 'text', channel: 'write', text: '{ k: 1 }' },
      { type: 'image', mime_type: 'image/png', data_b64: png },
      { type: 'text', channel: 'write', text: 'after' },
    ]);
  });

  t.test('an execution without output answers content: []', async (t) => {
    const result = await api.repl('1 + 1');
    t.same(result.content, []);
    t.equal(result.content_truncated, false);
  });
});

t.test('output through the library', async (t) => {
  const repl = createRepl();
  t.teardown(() => repl.close());
  const run = (code, options) => repl.run(code, options);
  const textOf = (result) => result.content.filter((item) => item.type === 'text').map((item) => `${item.channel}:${item.text}`);

  t.test('console methods map to stdout and stderr, formatted like util.format, without newlines', async (t) => {
    const result = await run(`
      console.log("%s=%d", "x", 5); console.info("i"); console.debug("d"); console.dir({ a: [1] }); console.table([1]);
      console.warn("w"); console.error(new Error("e").message); console.trace("t");
    `);
    t.same(textOf(result), [
      'stdout:x=5', 'stdout:i', 'stdout:d', 'stdout:{ a: [ 1 ] }', 'stdout:[ 1 ]', 'stderr:w', 'stderr:e', 'stderr:t',
    ]);
  });

  t.test('repl.write inspects non-strings with bounded depth and length', async (t) => {
    const result = await run(`
      repl.write(undefined); repl.write(null); repl.write(42n); repl.write([1, "two"]);
      repl.write({ a: { b: { c: { d: { e: { f: 1 } } } } } });
      repl.write(Array.from({ length: 150 }, (_, i) => i));
      repl.write("x".repeat(10));
    `);
    const texts = result.content.map((item) => item.text);
    t.same(texts.slice(0, 4), ['undefined', 'null', '42n', "[ 1, 'two' ]"]);
    t.equal(texts[4], '{ a: { b: { c: { d: { e: [Object] } } } } }');
    t.match(texts[5], /\.\.\. 50 more items/);
    t.equal(texts[6], 'xxxxxxxxxx');
  });

  t.test('emitImage accepts every documented input form', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'browser-repl-test-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'shot.png');
    writeFileSync(path, PNG);
    const result = await run(`
      const png = Buffer.from("${PNG.toString('hex')}", "hex");
      await repl.emitImage("data:image/gif;base64,R0lGOD==");
      await repl.emitImage(png);
      await repl.emitImage(new Uint8Array(png));
      await repl.emitImage(new DataView(png.buffer, png.byteOffset, png.byteLength));
      await repl.emitImage(new Uint8Array(png).buffer);
      await repl.emitImage(Buffer.from("${JPEG.toString('hex')}", "hex"));
      await repl.emitImage(Buffer.from("${WEBP.toString('hex')}", "hex"));
      await repl.emitImage({ bytes: png });
      await repl.emitImage({ bytes: new Uint8Array([1, 2, 3]), mimeType: "image/x-custom" });
      await repl.emitImage({ bytes: new Uint8Array([1, 2, 3]), mime_type: "image/avif" });
      await repl.emitImage({ path: ${JSON.stringify(path)} });
      await repl.emitImage(${JSON.stringify(path)});
    `);
    t.equal(result.success, true, result.error);
    t.same(result.content.map((item) => item.mimeType), [
      'image/gif', 'image/png', 'image/png', 'image/png', 'image/png', 'image/jpeg', 'image/webp', 'image/png',
      'image/x-custom', 'image/avif', 'image/png', 'image/png',
    ], 'a path string (what captureScreenshot resolves) is read as a file');
    t.same(result.content[1].data, PNG);
    t.ok(Buffer.isBuffer(result.content[1].data));
  });

  t.test('emitImage rejects bad input with the contract messages and the REPL survives', async (t) => {
    const cases = [
      ['"not a url"', 'repl.emitImage: string input must be an image/* data URL'],
      ['"data:text/plain;base64,AAAA"', 'repl.emitImage: string input must be an image/* data URL'],
      ['`data:image/${"x".repeat(130)};base64,AAAA`', 'repl.emitImage: data URL MIME type must be a short image/* media type'],
      ['new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])', 'repl.emitImage: unrecognized image data (expected PNG, JPEG, or WebP)'],
      ['{ bytes: "nope" }', 'repl.emitImage: bytes must be a Buffer, Uint8Array, or ArrayBuffer'],
      ['{ bytes: new Uint8Array(4), mimeType: "text/plain" }', 'repl.emitImage: MIME type must be a short image/* media type'],
      ['42', 'repl.emitImage: unsupported input (expected a data URL, Buffer, Uint8Array, ArrayBuffer, { bytes, mimeType? }, or { path, mimeType? })'],
      ['{}', 'repl.emitImage: unsupported input (expected a data URL, Buffer, Uint8Array, ArrayBuffer, { bytes, mimeType? }, or { path, mimeType? })'],
      ['new Uint8Array(8 * 1024 * 1024 + 1).fill(0xff)', 'repl.emitImage: unrecognized image data (expected PNG, JPEG, or WebP)'],
      ['{ bytes: new Uint8Array(8 * 1024 * 1024 + 1), mimeType: "image/png" }', 'repl.emitImage: image is 8388609 bytes, exceeding the 8388608 byte per-image limit'],
    ];
    const first = await run('var emitSurvivor = 1');
    for (const [input, message] of cases) {
      const result = await run(`await repl.emitImage(${input})`);
      t.equal(result.success, false, input);
      t.equal(result.error, message, input);
      t.equal(result.replId, first.replId);
    }
    const dir = mkdtempSync(join(tmpdir(), 'browser-repl-test-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const notImage = join(dir, 'notes.txt');
    writeFileSync(notImage, 'hello, not an image');
    const fromPath = await run(`await repl.emitImage({ path: ${JSON.stringify(notImage)} })`);
    t.equal(fromPath.error, `repl.emitImage: ${notImage} is not a recognized image (expected PNG, JPEG, or WebP)`);
  });

  t.test('aggregate image limit: dropped with a stderr note and content_truncated', async (t) => {
    const result = await run(`
      const big = new Uint8Array(6 * 1024 * 1024); big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
      await repl.emitImage(big); await repl.emitImage(big); await repl.emitImage(big);
      repl.write("done");
    `);
    t.equal(result.success, true);
    t.equal(result.contentTruncated, true);
    t.same(result.content.map((item) => item.type), ['image', 'image', 'text', 'text']);
    t.equal(result.content[2].text, `repl.emitImage: dropped a ${6 * 1024 * 1024} byte image; aggregate response image limit reached`);
    t.equal(result.content[2].channel, 'stderr');
  });

  t.test('text beyond 256 KiB is cut at a character boundary, later text dropped', async (t) => {
    const result = await run('repl.write("é".repeat(100000)); repl.write("a".repeat(100000)); repl.write("dropped")');
    t.equal(result.contentTruncated, true);
    const texts = result.content.map((item) => item.text);
    t.equal(texts.length, 2);
    const total = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    t.equal(total, 256 * 1024);
    t.notMatch(texts.join(''), /\uFFFD/);
  });

  t.test('a multi-byte character straddling the budget is left out, not broken', async (t) => {
    const result = await run('repl.write("a".repeat(256 * 1024 - 1)); repl.write("é")');
    t.equal(result.contentTruncated, true);
    t.equal(result.content.length, 1);
    t.equal(result.content[0].text.length, 256 * 1024 - 1);
  });

  t.test('at most 10 000 items per execution, oldest kept', async (t) => {
    const result = await run('for (let i = 0; i < 10050; i++) repl.write(String(i))');
    t.equal(result.content.length, 10000);
    t.equal(result.content[9999].text, '9999');
    t.equal(result.contentTruncated, true);
  });

  t.test('output between executions comes first in the next response; newest 1000 kept', async (t) => {
    await run('setTimeout(() => { for (let i = 0; i < 1005; i++) console.log("late " + i) }, 10)');
    await sleep(150);
    const result = await run('repl.write("now")');
    t.equal(result.content.length, 1001);
    t.equal(result.content[0].text, 'late 5');
    t.equal(result.content[999].text, 'late 1004');
    t.equal(result.content[1000].text, 'now');
    t.equal(result.contentTruncated, true, 'the stray overflow is reported');
    const next = await run('repl.write("clean")');
    t.equal(next.contentTruncated, false);
  });

  t.test('error and stack are capped at 64 KiB and 256 KiB', async (t) => {
    const result = await run('const e = new Error("m".repeat(70000)); e.stack = "s".repeat(300000); throw e');
    t.equal(Buffer.byteLength(result.error), 64 * 1024);
    t.equal(Buffer.byteLength(result.stack), 256 * 1024);
  });

  t.test('thrown non-errors: primitives become their string, objects util.inspect; the error code is kept', async (t) => {
    t.equal((await run('throw "plain"')).error, 'plain');
    t.equal((await run('throw 42')).error, '42');
    t.equal((await run('throw null')).error, 'null');
    t.equal((await run('throw Symbol("s")')).error, 'Symbol(s)');
    const coded = await run('throw Object.assign(new Error("x"), { code: "E_CUSTOM" })');
    t.equal(coded.errorCode, 'E_CUSTOM');
    const hostile = await run('throw { get message() { throw new Error("nope") } }');
    t.equal(hostile.success, false);
    t.equal(hostile.error, '{ message: [Getter] }', 'shown as Node\'s REPL shows it, without running the getter');
    const plainObject = await run('throw { code: "E_X", detail: [1, 2] }');
    t.equal(plainObject.error, "{ code: 'E_X', detail: [ 1, 2 ] }", 'a plain object as util.inspect shows it, not [object Object]');
    t.equal(plainObject.errorCode, 'E_X');
    t.equal((await run('throw [1, "two"]')).error, "[ 1, 'two' ]");
    t.equal((await run('throw new Map([["k", 1]])')).error, "Map(1) { 'k' => 1 }");
    t.equal((await run('throw { message: "own words" }')).error, 'own words', 'a string message still wins');
  });

  t.test('a cell that pollutes serialisers cannot corrupt responses', async (t) => {
    const polluted = createRepl();
    t.teardown(() => polluted.close());
    const result = await polluted.run(`
      JSON.stringify = () => "PWNED";
      Object.prototype.toJSON = () => "PWNED";
      Array.prototype.push = () => 0;
      Array.prototype.map = () => [];
      Object.getPrototypeOf(Object.getPrototypeOf(Buffer.prototype)).toJSON = () => "PWNED";
      repl.write("still fine"); console.log("and this", { a: 1 });
    `);
    t.same(result.content, [
      { type: 'text', channel: 'write', text: 'still fine' },
      { type: 'text', channel: 'stdout', text: 'and this { a: 1 }' },
    ]);
    const api = await apiServer(t);
    await api.repl('JSON.stringify = () => "PWNED"; Object.prototype.toJSON = () => "PWNED"');
    const wire = await api.repl('repl.write("wire ok")');
    t.same(wire.content, [{ type: 'text', channel: 'write', text: 'wire ok' }]);
  });

  t.test('repl.help lists and explains methods, writing and returning the text', async (t) => {
    const index = await run('const helpText = repl.help(); repl.write(String(helpText === repl.help()))');
    t.match(index.content[0].text, /^Browser REPL methods\n\nUse repl\.help\("methodName"\) for signatures, behavior, defaults, and examples\.\n\nREPL: repl\.help, repl\.write, repl\.emitImage/);
    t.equal(index.content[2].text, 'true');
    const one = await run('repl.help("  write ")');
    t.match(one.content[0].text, /^repl\.write\(value: unknown\): void\n\n.+\n\nCall as repl\.write\(\.\.\.\)\.\n\nExample:\n/s);
    const empty = await run('repl.help("")');
    t.equal(empty.error, 'repl.help: methodName must be a non-empty string when provided');
    const unknown = await run('repl.help("nope")');
    t.equal(unknown.error, 'repl.help: unknown method "nope"; call repl.help() to list methods');
  });
});

t.test('stacks show the user line and hide the runtime frames', async (t) => {
  const repl = createRepl();
  t.teardown(() => repl.close());
  const result = await repl.run('const a = 1;\n\nfunction fail() {\n  throw new Error("deep");\n}\nfail();');
  t.match(result.stack, /^Error: deep\n    at fail \(browser-repl-cell-\d+\.mjs:4:9\)\n    at browser-repl-cell-\d+\.mjs:6:1$/);
});
