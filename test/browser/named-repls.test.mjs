// Named REPLs against a real headless Chromium, through the HTTP server: each name has its own
// worker, bindings, tab and repl_id; different names run at the same time; a dialog belongs to
// the tab it opened in; DELETE closes the tab; the limit answers 409 with the list.
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null }, maxNamedRepls: 4 } });

const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);
async function json(t, code, extra = {}) {
  const result = await api.repl(`{\n${code}\n}`, { timeout_sec: 30, ...extra });
  t.equal(result.success, true, result.error ?? `cell of ${extra.repl ?? 'default'} succeeded`);
  return JSON.parse(writes(result).at(-1));
}
const pages = ['basic.html', 'core-tall.html', 'interaction-waits.html'];
const names = ['alpha', 'beta', 'gamma'];

t.test('three named REPLs run a 1-second cell at the same time, each on its own page', async (t) => {
  const defaultPage = await json(t, `await gotoUrl(${JSON.stringify(fixtures.url('core-upload.html'))}); await waitForLoad(); repl.write(JSON.stringify(await currentTab()))`);
  // Each REPL learns something of its own first: its page and a binding.
  for (const [index, name] of names.entries()) {
    const setup = await api.repl(`var mine = ${JSON.stringify(name)}; await gotoUrl(${JSON.stringify(fixtures.url(pages[index]))}); await waitForLoad();`, { repl: name, timeout_sec: 30 });
    t.equal(setup.success, true, setup.error ?? `${name} navigated`);
  }
  const started = performance.now();
  const results = await Promise.all(names.map((name) => api.repl(
    'const began = Date.now(); await waitMs(1000); repl.write(JSON.stringify({ mine, title: await js("document.title"), began, ended: Date.now() }))',
    { repl: name, timeout_sec: 30 })));
  const elapsed = performance.now() - started;
  t.comment(`three 1-second cells in parallel answered after ${Math.round(elapsed)} ms`);
  const outs = results.map((result) => {
    t.equal(result.success, true, result.error ?? 'cell succeeded');
    return JSON.parse(writes(result).at(-1));
  });
  const titles = ['Basic fixture', 'Tall fixture', 'Waits fixture'];
  t.same(outs.map(({ mine, title }) => ({ mine, title })), names.map((mine, index) => ({ mine, title: titles[index] })),
    'each REPL kept its own binding and reads its own page');
  // Concurrency without timing thresholds: every cell began before any other had ended.
  const latestStart = Math.max(...outs.map((out) => out.began));
  const earliestEnd = Math.min(...outs.map((out) => out.ended));
  t.ok(latestStart < earliestEnd, 'the three cells overlapped in time');
  const ids = new Set(results.map((result) => result.repl_id));
  t.equal(ids.size, 3, 'three repl_ids');

  const after = await json(t, 'repl.write(JSON.stringify({ tab: await currentTab(), mine: typeof mine }))');
  t.same(after, { tab: defaultPage, mine: 'undefined' }, 'the default REPL kept its page and has none of their bindings');

  const listed = await api.call('GET', '/repls');
  t.equal(listed.status, 200);
  t.same(listed.json.repls.map((repl) => repl.name), ['default', ...names], 'default first, then oldest first');
  for (const [index, repl] of listed.json.repls.slice(1).entries()) {
    t.match(repl, { name: names[index], busy: false, repl_id: results[index].repl_id, url: fixtures.url(pages[index]) });
    t.type(repl.target_id, 'string');
  }
});

t.test('a dialog belongs to the tab it opened in', async (t) => {
  const page = JSON.stringify(fixtures.url('named-confirm.html'));
  for (const name of ['alpha', 'beta']) {
    await json(t, `await gotoUrl(${page}); await waitForLoad(); repl.write('1')`, { repl: name });
  }
  // The default executor and a named one attach Playwright to the whole browser first: neither may answer the dialog.
  for (const executor of ['default', 'x']) {
    const executed = await api.call('POST', '/playwright/execute', { code: 'return page.url()', executor, timeout_sec: 60 });
    t.equal(executed.json?.success, true, executed.text);
  }

  const clicked = await json(t, 'await click("#ask"); await waitMs(300); repl.write(JSON.stringify(await pageInfo()))', { repl: 'alpha' });
  t.match(clicked.dialog, { type: 'confirm', message: 'proceed?' }, 'alpha sees its dialog');
  const other = await json(t, 'repl.write(JSON.stringify({ dialog: (await pageInfo()).dialog, answer: await js("answer.textContent") }))', { repl: 'beta' });
  t.same(other, { dialog: null, answer: 'pending' }, 'beta sees no dialog and its page answers');
  const stillOpen = await json(t, 'repl.write(JSON.stringify((await pageInfo()).dialog))', { repl: 'alpha' });
  t.match(stillOpen, { type: 'confirm' }, 'nobody else answered it meanwhile');
  const handled = await json(t, 'await cdp("Page.handleJavaScriptDialog", { accept: true }); repl.write(JSON.stringify(await js("answer.textContent")))', { repl: 'alpha' });
  t.equal(handled, 'true', 'alpha accepted it, and the page got true');

  // The default REPL shares its tab with the default executor: an idle executor leaves its dialog alone too.
  await json(t, `await gotoUrl(${page}); await waitForLoad(); await click("#ask"); await waitMs(300); repl.write('1')`);
  const own = await json(t, 'repl.write(JSON.stringify((await pageInfo()).dialog))');
  t.match(own, { type: 'confirm', message: 'proceed?' }, 'the default REPL sees the dialog its click opened');
  const dismissed = await json(t, 'await cdp("Page.handleJavaScriptDialog", { accept: false }); repl.write(JSON.stringify(await js("answer.textContent")))');
  t.equal(dismissed, 'false', 'and answers it itself');
  t.equal((await api.call('DELETE', '/playwright/executors/x')).status, 204);
});

t.test('reset applies to the named REPL only', async (t) => {
  await json(t, 'var kept = 1; repl.write("1")', { repl: 'beta' });
  const before = await api.call('GET', '/repls');
  const alphaTab = before.json.repls.find((repl) => repl.name === 'alpha').target_id;
  const reset = await api.repl('repl.write(typeof mine)', { repl: 'alpha', reset: true });
  t.equal(reset.success, true);
  t.same(writes(reset), ['undefined'], 'alpha lost its bindings');
  t.same(await json(t, 'repl.write(JSON.stringify(kept))', { repl: 'beta' }), 1, 'beta kept its own');
  const tabs = await json(t, 'repl.write(JSON.stringify((await listTabs()).map((tab) => tab.targetId)))');
  t.notOk(tabs.includes(alphaTab), 'alpha\'s old tab was closed by the reset');
});

t.test('DELETE /repls/{name} ends the REPL and closes its tab', async (t) => {
  const listed = await api.call('GET', '/repls');
  const gamma = listed.json.repls.find((repl) => repl.name === 'gamma');
  t.type(gamma.target_id, 'string');
  const refused = await api.repl(`await switchTab(${JSON.stringify(gamma.target_id)})`, { repl: 'beta' });
  t.equal(refused.success, false, 'beta may not attach gamma\'s tab');
  t.equal(refused.error, `switchTab: tab ${gamma.target_id} belongs to repl gamma; each REPL and executor keeps its own tab, so use that one, or open a tab of yours with newTab()`);
  const deleted = await api.call('DELETE', '/repls/gamma');
  t.equal(deleted.status, 204);
  const tabs = await json(t, 'repl.write(JSON.stringify((await listTabs()).map((tab) => tab.targetId)))');
  t.notOk(tabs.includes(gamma.target_id), 'Chromium no longer lists its tab');
  t.notOk((await api.call('GET', '/repls')).json.repls.some((repl) => repl.name === 'gamma'), 'the name is free');
  t.match((await api.call('DELETE', '/repls/gamma')), { status: 404, json: { code: 'REPL_ERR_NOT_FOUND' } });
  t.match((await api.call('DELETE', '/repls/no%20spaces')), { status: 400, json: { code: 'REPL_ERR_INVALID_REQUEST' } });
  const again = await api.repl('repl.write(typeof mine)', { repl: 'gamma' });
  t.same(writes(again), ['undefined'], 'a new gamma starts empty');
});

t.test('one named REPL past the limit answers 409 with the list', async (t) => {
  // The server allows 4 here (maxNamedRepls); alpha, beta and gamma exist.
  t.equal((await api.repl('repl.write("1")', { repl: 'delta' })).success, true);
  const refused = await api.call('POST', '/repl', { code: 'repl.write("1")', repl: 'epsilon' });
  t.equal(refused.status, 409);
  t.equal(refused.json.code, 'REPL_ERR_CONFLICT');
  t.match(refused.json.message, /named REPL limit \(4\) reached; delete one with DELETE \/repls\/\{name\}/);
  t.same(refused.json.repls.map((repl) => repl.name), ['default', 'alpha', 'beta', 'gamma', 'delta']);
  t.match((await api.call('POST', '/repl', { code: '1', repl: 'bad name' })), { status: 400, json: { code: 'REPL_ERR_INVALID_REQUEST', message: /repl name must match/ } });
  t.equal((await api.call('DELETE', '/repls/delta')).status, 204);
  t.equal((await api.repl('repl.write("1")', { repl: 'epsilon' })).success, true, 'a freed slot is usable at once');
});
