// docs/repl.md, "Globals" and "Environment", and the server's auth and binding rules.
import t from 'tap';
import { createRepl, startServer } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

t.test('runtime globals', async (t) => {
  const repl = createRepl();
  t.teardown(() => repl.close());

  // The full comparison with a Node REPL's globals is test/unit/cell-globals.test.mjs (issue 9).
  t.test('the documented Node globals are present, CommonJS module scope is not', async (t) => {
    const present = ['console', 'repl', 'browser', 'webmcp', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
      'queueMicrotask', 'Buffer', 'process', 'fetch', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder',
      'AbortController', 'AbortSignal', 'structuredClone', 'atob', 'btoa', 'crypto', 'setImmediate', 'clearImmediate',
      'performance', 'global', 'Headers', 'Request', 'Response', 'FormData', 'Blob', 'ReadableStream', 'MessageChannel'];
    const absent = ['require', 'module', 'exports', '__dirname', '__filename', 'dispatchKey'];
    const result = await repl.run(`repl.write(JSON.stringify({
      present: ${JSON.stringify(present)}.filter((name) => typeof globalThis[name] === "undefined"),
      absent: ${JSON.stringify(absent)}.filter((name) => typeof globalThis[name] !== "undefined"),
    }))`);
    t.same(JSON.parse(result.content[0].text), { present: [], absent: [] });
  });

  t.test('repl, browser and webmcp are frozen; webmcp is browser.webmcp; repl.id is the repl_id; repl.name is default', async (t) => {
    const result = await repl.run(`repl.write(JSON.stringify([
      Object.isFrozen(repl), Object.isFrozen(browser), Object.isFrozen(webmcp), webmcp === browser.webmcp,
      repl.id, process.env.BROWSER_REPL_ID, Object.keys(repl).sort(),
    ]))`);
    const [replFrozen, browserFrozen, webmcpFrozen, same, id, envId, keys] = JSON.parse(result.content[0].text);
    t.same([replFrozen, browserFrozen, webmcpFrozen, same], [true, true, true, true]);
    t.equal(id, result.replId);
    t.equal(envId, result.replId);
    t.same(keys, ['emitImage', 'help', 'id', 'name', 'trace', 'write'], "the hosted product's four keys, plus name and trace (docs/repl.md)");
  });

  t.test('cells are strict ES modules in their own realm', async (t) => {
    const result = await repl.run(`repl.write(JSON.stringify([
      this === undefined, typeof arguments, Object.getPrototypeOf([]) === Array.prototype,
      Buffer.from("a") instanceof Uint8Array, import.meta.url,
    ]))`);
    t.same(JSON.parse(result.content[0].text), [true, 'undefined', true, false, 'file:///browser-repl-cell.mjs']);
    const undeclared = await repl.run('undeclaredName = 1');
    t.equal(undeclared.error, 'undeclaredName is not defined');
  });

  t.test('dynamic import of built-ins and of the package dependencies', async (t) => {
    const result = await repl.run(`
      const path = await import("node:path");
      const fs = await import("fs");
      const meriyah = await import("meriyah");
      repl.write([path.join("a", "b"), typeof fs.readFileSync, typeof fs.default.readFileSync, typeof meriyah.parseModule].join(" "));
    `);
    t.equal(result.success, true, result.error);
    t.same(texts(toWire(result)), ['a/b function function function']);
    const missing = await repl.run('await import("definitely-not-installed-pkg")');
    t.equal(missing.success, false);
    t.match(missing.error, /definitely-not-installed-pkg/);
  });
});

const toWire = (result) => ({ content: result.content });

t.test('/repl/env', async (t) => {
  const api = await apiServer(t);

  t.test('GET lists sorted names, never null', async (t) => {
    const empty = await api.call('GET', '/repl/env');
    t.same(empty.json, { names: [] });
  });

  t.test('PUT applies live, keeps state, survives reset, and removed names revert', async (t) => {
    const before = await api.repl('var kept = "yes"; repl.write(String(process.env.ZED_VAR))');
    t.same(texts(before), ['undefined']);
    const put = await api.call('PUT', '/repl/env', { env: { ZED_VAR: 'z', ALPHA_VAR: 'a' } });
    t.equal(put.status, 200);
    t.same(put.json, { names: ['ALPHA_VAR', 'ZED_VAR'] });
    const live = await api.repl('repl.write(process.env.ZED_VAR + process.env.ALPHA_VAR + kept)');
    t.equal(live.repl_id, before.repl_id);
    t.same(texts(live), ['zayes']);
    const reset = await api.repl('repl.write(process.env.ZED_VAR)', { reset: true });
    t.same(texts(reset), ['z']);
    process.env.ALPHA_VAR = 'from-server';
    t.teardown(() => { delete process.env.ALPHA_VAR; });
    await api.call('PUT', '/repl/env', { env: { ZED_VAR: 'z2' } });
    const reverted = await api.repl('repl.write(process.env.ZED_VAR + " " + process.env.ALPHA_VAR)');
    t.same(texts(reverted), ['z2 from-server']);
    const cleared = await api.call('DELETE', '/repl/env');
    t.same(cleared.json, { names: [] });
    const unset = await api.repl('repl.write(String(process.env.ZED_VAR))');
    t.same(texts(unset), ['undefined']);
  });

  t.test('validation messages', async (t) => {
    const cases = [
      [{}, 'env is required'],
      [{ env: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`V${i}`, 'x'])) }, 'env may contain at most 100 variables'],
      [{ env: { '1BAD': 'x' } }, 'invalid env name "1BAD"'],
      [{ env: { 'A-B': 'x' } }, 'invalid env name "A-B"'],
      [{ env: { ['A'.repeat(257)]: 'x' } }, `invalid env name "${'A'.repeat(257)}"`],
      [{ env: { CDP_ENDPOINT: 'x' } }, 'env name "CDP_ENDPOINT" is reserved'],
      [{ env: { NODE_OPTIONS: 'x' } }, 'env name "NODE_OPTIONS" is reserved'],
      [{ env: { BROWSER_REPL_HEAP_MB: '1' } }, 'env name "BROWSER_REPL_HEAP_MB" is reserved'],
      [{ env: { BIG: 'x'.repeat(32769) } }, 'env value for "BIG" exceeds 32768 bytes'],
      [{ env: { NUL: 'a\u0000b' } }, 'env value for "NUL" contains a NUL byte'],
      [{ env: { NUM: 5 } }, 'invalid request body: env.NUM must be string'],
      [{ env: {}, extra: 1 }, 'invalid request body: json: unknown field "extra"'],
    ];
    for (const [body, message] of cases) {
      const response = await api.call('PUT', '/repl/env', body);
      t.equal(response.status, 400, message);
      t.equal(response.json.message, message);
    }
    const tooBig = await api.call('PUT', '/repl/env', JSON.stringify({ env: { A: 'x'.repeat(1024 * 1024) } }), { raw: true });
    t.equal(tooBig.status, 413);
    t.equal(tooBig.json.message, 'request body exceeds 1048576 bytes');
  });
});

t.test('bearer token', async (t) => {
  const api = await apiServer(t, { token: 's3cret' });
  const none = await api.call('POST', '/repl', { code: '1' });
  t.equal(none.status, 401);
  t.equal(none.json.code, 'REPL_ERR_UNAUTHORIZED');
  const wrong = await api.call('GET', '/repls', undefined, { headers: { authorization: 'Bearer nope' } });
  t.equal(wrong.status, 401);
  const probe = await api.call('GET', '/healthz');
  t.equal(probe.status, 200, 'the liveness probe answers without the token (docs/security.md)');
  const right = await api.call('POST', '/repl', { code: 'repl.write("in")' }, { headers: { authorization: 'Bearer s3cret' } });
  t.equal(right.status, 200);
  t.same(texts(right.json), ['in']);
});

t.test('binding beyond loopback without a token refuses to start', async (t) => {
  await t.rejects(startServer({ port: 0, host: '0.0.0.0', token: undefined }), {
    message: /refusing to listen on 0\.0\.0\.0 without a token/,
  });
  const server = await startServer({ port: 0, host: '0.0.0.0', token: 'x' });
  await server.close();
});
