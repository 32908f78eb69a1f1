// docs/repl.md, "Request": one test per validation rule, with the exact status and message.
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';

t.test('POST /repl validation', async (t) => {
  const api = await apiServer(t);

  t.test('413 for a body over 8 MiB, as JSON', async (t) => {
    const body = JSON.stringify({ code: 'x'.repeat(8 * 1024 * 1024) });
    const response = await api.call('POST', '/repl', body, { raw: true });
    t.equal(response.status, 413);
    t.match(response.headers['content-type'], /application\/json/);
    t.equal(response.json.message, 'request body exceeds 8388608 bytes');
    t.equal(response.json.code, 'REPL_ERR_BODY_TOO_LARGE');
  });

  t.test('400 for an unknown top-level field', async (t) => {
    const response = await api.call('POST', '/repl', { code: '1', bogus: true });
    t.equal(response.status, 400);
    t.equal(response.json.message, 'invalid request body: json: unknown field "bogus"');
    t.equal(response.json.code, 'REPL_ERR_INVALID_REQUEST');
  });

  t.test('400 for malformed JSON', async (t) => {
    const response = await api.call('POST', '/repl', '{"code": ', { raw: true });
    t.equal(response.status, 400);
    t.match(response.json.message, /^invalid request body: /);
  });

  t.test('400 naming the field for type errors', async (t) => {
    for (const [body, message] of [
      [{ code: 'x', timeout_sec: 'x' }, 'invalid request body: timeout_sec must be integer'],
      [{ code: 'x', timeout_sec: 1.5 }, 'invalid request body: timeout_sec must be integer'],
      [{ code: 5 }, 'invalid request body: code must be string'],
      [{ code: 'x', reset: 'yes' }, 'invalid request body: reset must be boolean'],
      [[1, 2], 'invalid request body: body must be object'],
    ]) {
      const response = await api.call('POST', '/repl', body);
      t.equal(response.status, 400, JSON.stringify(body));
      t.equal(response.json.message, message);
    }
  });

  t.test('400 when there is no body', async (t) => {
    const response = await api.call('POST', '/repl', undefined);
    t.equal(response.status, 400);
    t.equal(response.json.message, 'request body is required');
  });

  t.test('400 for empty code without reset; missing code counts as empty', async (t) => {
    for (const body of [{ code: '' }, {}, { code: '', reset: false }]) {
      const response = await api.call('POST', '/repl', body);
      t.equal(response.status, 400);
      t.equal(response.json.message, 'code is required (it may be empty only when reset or restore is true)');
    }
  });

  t.test('whitespace-only code is not empty', async (t) => {
    const result = await api.repl('   \n ');
    t.equal(result.success, true);
    t.same(result.content, []);
  });

  t.test('400 for timeout_sec outside 1..300; the bounds themselves pass', async (t) => {
    for (const timeout of [0, -1, 301, 1000]) {
      const response = await api.call('POST', '/repl', { code: 'x', timeout_sec: timeout });
      t.equal(response.status, 400);
      t.equal(response.json.message, 'timeout_sec must be between 1 and 300');
    }
    for (const timeout of [1, 300]) {
      const result = await api.repl('repl.write("ok")', { timeout_sec: timeout });
      t.equal(result.success, true);
    }
  });

  t.test('400 code too large when the encoded request exceeds 8 MiB; the REPL survives', async (t) => {
    const before = await api.repl('var survivor = 42');
    const code = 'x'.repeat(8 * 1024 * 1024 - 64);
    const response = await api.call('POST', '/repl', { code });
    t.equal(response.status, 400);
    t.match(response.json.message, /^code too large: encoded request is \d+ bytes, maximum is 8388608$/);
    const encoded = Number(/is (\d+) bytes/.exec(response.json.message)[1]);
    t.equal(encoded, Buffer.byteLength(JSON.stringify({ id: 'x'.repeat(36), code, timeout_ms: 60000 })));
    const after = await api.repl('repl.write(String(survivor))');
    t.equal(after.repl_id, before.repl_id);
    t.same(after.content, [{ type: 'text', channel: 'write', text: '42' }]);
  });

  t.test('invalid requests never start a REPL', async (t) => {
    const fresh = await apiServer(t);
    await fresh.call('POST', '/repl', { code: '' });
    await fresh.call('POST', '/repl', { code: 'x', bogus: 1 });
    t.equal(fresh.server.app.browsers.primary.repl().id, null);
  });

  t.test('unknown routes answer 404 JSON', async (t) => {
    const response = await api.call('GET', '/nope');
    t.equal(response.status, 404);
    t.equal(response.json.code, 'REPL_ERR_NOT_FOUND');
  });

  t.test('GET /healthz', async (t) => {
    const response = await api.call('GET', '/healthz');
    t.equal(response.status, 200);
    t.same(response.json, { status: 'ok' });
  });
});
