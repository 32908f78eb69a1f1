// No Chromium available: pure JavaScript cells work, browser helpers fail with the discovery
// message (and the REPL survives it).
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRepl } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

t.test('an executable that does not exist', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: { executable: '/nonexistent/chromium', cdpEndpoint: null } } });
  const pure = await api.repl('repl.write(1 + 1)');
  t.equal(pure.success, true, pure.error);
  t.same(texts(pure), ['2']);

  const helper = await api.repl('await gotoUrl("http://127.0.0.1:9/")');
  t.equal(helper.success, false);
  t.match(helper.error, /^No Chromium-based browser found \(the `executable` option is "\/nonexistent\/chromium", which is not an executable file\)\./);
  t.match(helper.error, /npx chromium-repl install-browser/);
  t.notOk(helper.repl_terminated);
  t.equal(helper.repl_id, pure.repl_id);

  const after = await api.repl('repl.write(String(await js("1").catch((error) => error.message.startsWith("No Chromium-based browser found"))))');
  t.same(texts(after), ['true'], 'every helper reports it');
  t.equal(after.repl_id, pure.repl_id);
});

t.test('an environment without any browser', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'browser-repl-nobrowser-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null, env: { PATH: join(home, 'bin'), HOME: home } } } });
  t.same(texts(await api.repl('repl.write(1 + 1)')), ['2']);
  const helper = await api.repl('await gotoUrl("http://127.0.0.1:9/")');
  t.equal(helper.success, false);
  t.match(helper.error, /^No Chromium-based browser found \(searched chromium, chromium-browser, google-chrome.* on PATH/);
  t.match(helper.error, /BROWSER_REPL_CHROME/);
  t.notOk(helper.repl_terminated);
});

t.test('a REPL created without a browser', async (t) => {
  const repl = createRepl({ browser: false });
  t.teardown(() => repl.close());
  t.same((await repl.run('repl.write(1 + 1)')).content.map((item) => item.text), ['2']);
  const result = await repl.run('await pageInfo()');
  t.equal(result.success, false);
  t.match(result.error, /created without a browser/);
});
