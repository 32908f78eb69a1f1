// Named REPLs without a browser, through the HTTP server: the default limit of 16, validation of
// the name, and the library API (host.repl(name), listRepls, deleteRepl).
import t from 'tap';
import { Browser } from '../../dist/lib/index.js';
import { apiServer } from '../helpers/api-server.mjs';

const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

t.test('the 17th named REPL gets 409 with the list', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false, warmSpare: false } });
  const names = Array.from({ length: 16 }, (_, index) => `r${index + 1}`);
  const created = await Promise.all(names.map((name) => api.repl(`var me = ${JSON.stringify(name)}; repl.write(me)`, { repl: name })));
  t.same(created.map((result) => writes(result)[0]), names, 'sixteen REPLs, each with its own binding');
  const refused = await api.call('POST', '/repl', { code: 'repl.write(1)', repl: 'r17' });
  t.equal(refused.status, 409);
  t.match(refused.json, { code: 'REPL_ERR_CONFLICT', message: 'named REPL limit (16) reached; delete one with DELETE /repls/{name}' });
  t.same(refused.json.repls.map((repl) => repl.name), names, 'the list names them, oldest first');
  for (const repl of refused.json.repls) {
    t.same(Object.keys(repl).sort(), ['busy', 'created_at', 'last_used_at', 'name', 'repl_id']);
  }
  const stillDefault = await api.repl('repl.write(typeof me)');
  t.same(writes(stillDefault), ['undefined'], 'default takes no slot and shares nothing');
});

t.test('names are validated before anything starts', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  for (const repl of ['', 'has space', 'x'.repeat(65), 'ü']) {
    const response = await api.call('POST', '/repl', { code: '1', repl });
    t.match(response, { status: 400, json: { code: 'REPL_ERR_INVALID_REQUEST', message: 'repl name must match ^[A-Za-z0-9_-]{1,64}$' } }, JSON.stringify(repl));
  }
  const wrongType = await api.call('POST', '/repl', { code: '1', repl: 7 });
  t.match(wrongType, { status: 400, json: { code: 'REPL_ERR_INVALID_REQUEST', message: /repl/ } });
  t.same((await api.call('GET', '/repls')).json, { repls: [] }, 'no REPL was created by a refused call');
});

t.test('DELETE /repls/default resets the default REPL', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  const first = await api.repl('var x = 1; repl.write("set")');
  t.equal((await api.call('DELETE', '/repls/default')).status, 204);
  const after = await api.repl('repl.write(typeof x)');
  t.same(writes(after), ['undefined']);
  t.not(after.repl_id, first.repl_id, 'a new repl_id');
});

t.test('library: host.repl(name) runs names concurrently and deleteRepl frees the name', async (t) => {
  const host = new Browser({ browser: false, warmSpare: false, maxNamedRepls: 2 });
  t.teardown(() => host.close());
  const [a, b] = [host.repl('a'), host.repl('b')];
  t.equal(host.repl('a'), a, 'one REPL per name');
  // Each cell announces itself, then waits until the other one has started: both can finish only
  // if they run at the same time (with one REPL after the other, the first would time out).
  const meeting = t.testdir({});
  const cell = (me, other) => `
    const fs = await import("node:fs"); const path = await import("node:path");
    fs.writeFileSync(path.join(${JSON.stringify(meeting)}, ${JSON.stringify(me)}), "");
    const until = Date.now() + 20000;
    while (!fs.existsSync(path.join(${JSON.stringify(meeting)}, ${JSON.stringify(other)})) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    repl.write(String(fs.existsSync(path.join(${JSON.stringify(meeting)}, ${JSON.stringify(other)}))));`;
  const results = await Promise.all([a.run(cell('a', 'b'), { timeoutSec: 60 }), b.run(cell('b', 'a'), { timeoutSec: 60 })]);
  t.same(results.map((result) => result.content[0]?.text), ['true', 'true'], 'the two cells ran at the same time');
  t.throws(() => host.repl('c'), { code: 'REPL_ERR_CONFLICT' });
  const infos = await host.listRepls();
  t.same(infos.map((info) => [info.name, info.busy, typeof info.replId]), [['a', false, 'string'], ['b', false, 'string']]);
  await host.deleteRepl('a');
  t.equal(a.closed, true);
  await t.rejects(host.deleteRepl('a'), { code: 'REPL_ERR_NOT_FOUND' });
  t.not(host.repl('c'), undefined, 'the freed slot is usable');
});

t.test('library: one warm spare for all REPLs of a host, named on take, following the host environment', async (t) => {
  const { liveWorkerThreads } = await import('../../dist/lib/repl/repl-worker.js');
  const before = liveWorkerThreads();
  const host = new Browser({ browser: false });
  t.teardown(() => host.close());
  const names = ['a', 'b', 'c', 'd'];
  for (const name of names) {
    const result = await host.repl(name).run('repl.write(repl.name)');
    t.same(result.content.map((item) => item.text), [name], `the worker serves ${name} (configured after it started)`);
  }
  // Four REPLs, each one thread, plus one spare for the whole host (it refills in the background).
  let spareUp = false;
  for (let i = 0; i < 100 && !spareUp; i++) {
    spareUp = liveWorkerThreads() - before === names.length + 1;
    if (!spareUp) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.ok(spareUp, 'four REPLs and one shared spare');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(liveWorkerThreads() - before, names.length + 1, 'and no second spare');

  await host.setEnv({ SHARED_SPARE_CHECK: 'new' });
  const fresh = await host.repl('e').run('repl.write(`${repl.name}:${process.env.SHARED_SPARE_CHECK}`)');
  t.same(fresh.content.map((item) => item.text), ['e:new'], 'a REPL made after the change gets the new environment');
  const old = await host.repl('a').run('repl.write(String(process.env.SHARED_SPARE_CHECK))');
  t.same(old.content.map((item) => item.text), ['new'], 'a running REPL got it live');
});
