// Chromium killed with SIGKILL between cells, ten times: the next helper call relaunches and
// reconnects, and the REPL (repl_id, bindings) is untouched.
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const ROUNDS = 10;
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
const host = api.server.app.browsers.primary;
const basic = fixtures.url('basic.html');

const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

t.test(`SIGKILL between cells, ${ROUNDS} times`, async (t) => {
  const first = await api.repl(`var counter = 0; const kept = { name: "kept" }; await gotoUrl(${JSON.stringify(basic)}); await waitForLoad(); repl.write(await js("document.title"));`);
  t.equal(first.success, true, first.error);
  t.same(writes(first), ['Basic fixture']);
  const replId = first.repl_id;

  for (let round = 1; round <= ROUNDS; round++) {
    const pid = host.chromium.pid;
    t.type(pid, 'number', `round ${round}: Chromium runs`);
    // Odd rounds send the next cell at once, while the dead browser's socket may still look open
    // for a few milliseconds: the first helper is an observational one, which is safe to repeat.
    // Even rounds wait for the exit first, as a crash between two agent calls does, and start with
    // js(), which is never repeated.
    const exited = new Promise((resolve) => {
      const dispose = host.chromium.onExit(() => {
        dispose();
        resolve();
      });
    });
    process.kill(pid, 'SIGKILL');
    const waited = round % 2 === 0;
    if (waited) await exited;
    const first = waited ? 'const title = await js("document.title"); const info = await pageInfo();' : 'const info = await pageInfo();';
    const result = await api.repl(`{
      counter++;
      ${first}
      await gotoUrl(${JSON.stringify(basic)});
      await waitForLoad();
      repl.write(JSON.stringify({ counter, kept: kept.name, before: info.url, title: await js("document.title"), tabs: (await listTabs(false)).length }));
    }`, { timeout_sec: 60 });
    t.equal(result.success, true, result.error ?? `round ${round} succeeded`);
    t.equal(result.repl_id, replId, 'same REPL');
    t.notOk(result.repl_terminated);
    t.same(JSON.parse(writes(result)[0]), { counter: round, kept: 'kept', before: 'about:blank', title: 'Basic fixture', tabs: 1 },
      'bindings survive; the new browser starts blank and works');
    t.not(host.chromium.pid, pid, 'a new Chromium');
    await exited;
  }
  t.ok(host.chromium.launchCount >= ROUNDS + 1);
});
