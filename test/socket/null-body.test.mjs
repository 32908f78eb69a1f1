// docs/errors.md: a JSON body of `null` counts as no body, as the hosted product's server reads
// it; a route with a required field then answers 400, and other non-object bodies are refused.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiServer } from '../helpers/api-server.mjs';

t.test('null is no body: optional-body routes act on their defaults, required fields are still required', async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chromium-repl-null-body-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const { call } = await apiServer(t, { primaryBrowser: { browser: false }, dataDir });

  // POST /profiles takes an optional name: null makes an unnamed profile, as {} does.
  const fromNull = await call('POST', '/profiles', 'null', { raw: true });
  t.equal(fromNull.status, 200, fromNull.text);
  t.equal(fromNull.json.name, null);
  const fromEmpty = await call('POST', '/profiles', {});
  t.equal(fromEmpty.status, 200, fromEmpty.text);
  t.not(fromNull.json.id, fromEmpty.json.id, 'two profiles were made');

  // A required field: the cell's code, a proxy's type.
  for (const route of ['/repl', '/proxies']) {
    const refused = await call('POST', route, 'null', { raw: true });
    t.equal(refused.status, 400, `${route}: ${refused.text}`);
    t.equal(refused.json.code, 'REPL_ERR_INVALID_REQUEST');
  }
  // Bodies that are not objects.
  for (const body of ['[]', '"x"', '5', 'true']) {
    const refused = await call('POST', '/profiles', body, { raw: true });
    t.equal(refused.status, 400, `${body}: ${refused.text}`);
    t.match(refused.json.message, /body must be object/);
  }
  // The server keeps serving.
  t.equal((await call('GET', '/profiles')).status, 200);
});
