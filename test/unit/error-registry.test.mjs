// House style point 7: common/errors.ts, docs/errors.md and openapi.json list exactly the same codes.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { ERROR_CODES, ReplError } from '../../dist/lib/index.js';
import express from 'express';
import { fromSerialized, httpStatusOf } from '../../dist/common/errors.js';
import { errorHandler } from '../../dist/lib/http/middleware.js';

const root = new URL('../../', import.meta.url);
const codes = Object.keys(ERROR_CODES).sort();

t.test('ERROR_CODES', async (t) => {
  t.test('docs/errors.md documents every code and no other', async (t) => {
    const docs = readFileSync(new URL('docs/errors.md', root), 'utf8');
    const documented = [...docs.matchAll(/^\| <a id="[^"]+"><\/a>`(REPL_ERR_[A-Z_]+)`/gm)].map((m) => m[1]).sort();
    t.same(documented, codes);
  });

  t.test('openapi.json ErrorCode enum lists every code and no other', async (t) => {
    const openapi = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8'));
    t.same([...openapi.components.schemas.ErrorCode.enum].sort(), codes);
  });

  t.test('every definition has an error status or none, a meaning and a fix; codes are prefixed', async (t) => {
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      t.match(code, /^REPL_ERR_[A-Z_]+$/);
      // null: reported inside a 200 answer (a cell or tool result), never as an HTTP status.
      t.ok(def.status === null || (Number.isInteger(def.status) && def.status >= 400 && def.status < 600), code);
      t.ok(def.meaning.length > 10 && def.fix.length > 5, code);
    }
  });

  t.test('docs/errors.md shows the status of each code, "none" where it has no HTTP status', async (t) => {
    const docs = readFileSync(new URL('docs/errors.md', root), 'utf8');
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      const row = docs.split('\n').find((line) => line.startsWith(`| <a id="${code.toLowerCase()}"></a>`));
      t.ok(row?.includes(` | ${def.status ?? 'none'} | `), code);
    }
  });

  t.test('httpStatusOf: the registry\'s status, 500 for a code without one', async (t) => {
    t.equal(httpStatusOf('REPL_ERR_INVALID_REQUEST'), 400);
    t.equal(httpStatusOf('REPL_ERR_WEBMCP_OUTCOME_UNKNOWN'), 504);
    t.equal(ERROR_CODES.REPL_ERR_CDP_DISCONNECTED.status, null);
    t.equal(httpStatusOf('REPL_ERR_CDP_DISCONNECTED'), 500);
    for (const code of codes) t.ok(httpStatusOf(code) >= 400 && httpStatusOf(code) < 600, code);
  });
});

t.test('ReplError', async (t) => {
  t.test('carries code, status, data and cause', async (t) => {
    const cause = new Error('root');
    const error = new ReplError('REPL_ERR_CONFLICT', 'too many', { cause, data: { names: ['a'] } });
    t.equal(error.code, 'REPL_ERR_CONFLICT');
    t.equal(error.status, 409);
    t.equal(new ReplError('REPL_ERR_CELL_TIMEOUT', 'slow').status, null);
    t.equal(error.cause, cause);
    t.same(error.data, { names: ['a'] });
    t.equal(error.name, 'ReplError');
  });

  t.test('fromSerialized rebuilds by code; unknown codes become REPL_ERR_PROTOCOL', async (t) => {
    const rebuilt = fromSerialized({ name: 'Error', message: 'gone', code: 'REPL_ERR_CDP_DISCONNECTED', stack: 'S' });
    t.equal(rebuilt.code, 'REPL_ERR_CDP_DISCONNECTED');
    t.equal(rebuilt.stack, 'S');
    t.equal(fromSerialized({ name: 'Error', message: 'x', code: 'NOPE' }).code, 'REPL_ERR_PROTOCOL');
  });
});

t.test('errorHandler never answers 2xx with an error body', async (t) => {
  // A real Express app on loopback: each route throws one code of the registry to the handler.
  const app = express();
  app.get('/throw/:code', (req) => {
    throw new ReplError(req.params.code, `thrown ${req.params.code}`);
  });
  app.get('/plain', () => {
    throw new Error('not a ReplError');
  });
  app.use(errorHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${server.address().port}`;

  t.test('a code without an HTTP status answers 500 with that code', async (t) => {
    const response = await fetch(`${base}/throw/REPL_ERR_CDP_DISCONNECTED`);
    t.equal(response.status, 500);
    t.same(await response.json(), { message: 'thrown REPL_ERR_CDP_DISCONNECTED', code: 'REPL_ERR_CDP_DISCONNECTED' });
  });

  t.test('every code answers its registry status, or 500 when it has none', async (t) => {
    // REPL_ERR_ABORTED answers only a client still there: fetch is, so it gets its 499.
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      const response = await fetch(`${base}/throw/${code}`);
      t.equal(response.status, def.status ?? 500, code);
      t.equal((await response.json()).code, code, code);
    }
  });

  t.test('any other thrown value is REPL_ERR_INTERNAL with 500', async (t) => {
    const response = await fetch(`${base}/plain`);
    t.equal(response.status, 500);
    t.equal((await response.json()).code, 'REPL_ERR_INTERNAL');
  });
});
