// House style point 7: common/errors.ts, docs/errors.md and openapi.json list exactly the same codes.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { ERROR_CODES, ReplError } from '../../dist/lib/index.js';
import { fromSerialized } from '../../dist/common/errors.js';

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

  t.test('every definition has a status, a meaning and a fix; codes are prefixed', async (t) => {
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      t.match(code, /^REPL_ERR_[A-Z_]+$/);
      t.ok(Number.isInteger(def.status) && def.status >= 200 && def.status < 600, code);
      t.ok(def.meaning.length > 10 && def.fix.length > 5, code);
    }
  });
});

t.test('ReplError', async (t) => {
  t.test('carries code, status, data and cause', async (t) => {
    const cause = new Error('root');
    const error = new ReplError('REPL_ERR_CONFLICT', 'too many', { cause, data: { names: ['a'] } });
    t.equal(error.code, 'REPL_ERR_CONFLICT');
    t.equal(error.status, 409);
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
