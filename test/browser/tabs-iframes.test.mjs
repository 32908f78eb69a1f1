// Tabs and cross-site iframes against a real headless Chromium, through the HTTP server: tabs
// opened, switched and closed; a localhost iframe inside a 127.0.0.1 page (different sites, so an
// out-of-process iframe target) read with iframeTarget + js(..., { targetId }).
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });

const cell = (code, extra = {}) => api.repl(`{\n${code}\n}`, { timeout_sec: 30, ...extra });
const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

async function json(t, code, extra) {
  const result = await cell(code, extra);
  t.equal(result.success, true, result.error ?? 'cell succeeded');
  return JSON.parse(writes(result).at(-1));
}

async function fails(t, code, pattern) {
  const result = await cell(code);
  t.equal(result.success, false, `fails: ${code.slice(0, 60)}`);
  t.match(result.error, pattern);
  return result;
}

const basic = fixtures.url('basic.html');
const tall = fixtures.url('core-tall.html');

t.test('a fresh browser: no real tab yet, and newTab(url) reuses the blank one', async (t) => {
  t.equal(await json(t, 'repl.write(JSON.stringify(await ensureRealTab()))'), null, 'only about:blank: null, nothing created');
  const out = await json(t, `
    const blank = await currentTab();
    const id = await newTab(${JSON.stringify(basic)});
    repl.write(JSON.stringify({ reused: id === blank.targetId, href: await js("location.href"), tabs: (await listTabs()).length }));
  `);
  t.same(out, { reused: true, href: basic, tabs: 1 });
  const real = await json(t, 'repl.write(JSON.stringify(await ensureRealTab()))');
  t.equal(real.url, basic);
});

t.test('tabs opened, switched and closed', async (t) => {
  const first = await json(t, 'repl.write(JSON.stringify(await currentTab()))');
  t.same(Object.keys(first), ['targetId', 'title', 'url']);

  const second = await json(t, `
    const id = await newTab(${JSON.stringify(tall)});
    const current = await currentTab();
    repl.write(JSON.stringify({ id, current, href: await js("location.href"), tabs: await listTabs(false) }));
  `);
  t.not(second.id, first.targetId, 'a new tab, since the attached one was not blank');
  t.equal(second.current.targetId, second.id, 'newTab attaches the new tab');
  t.equal(second.href, tall, 'an immediate js() sees the new URL');
  t.same(second.tabs.map((tab) => tab.targetId).sort(), [first.targetId, second.id].sort());

  const blank = await json(t, 'const id = await newTab(); repl.write(JSON.stringify([id, (await currentTab()).url, (await listTabs(false)).length, (await listTabs()).length]))');
  t.equal(blank[1], 'about:blank');
  t.equal(blank[2], 2, 'includeChrome false drops about:blank');
  t.equal(blank[3], 3);

  const switched = await json(t, `
    const a = await switchTab(${JSON.stringify(first.targetId)});
    const again = await switchTab({ targetId: ${JSON.stringify(first.targetId)} });
    repl.write(JSON.stringify({ same: a === again, session: typeof a, title: await js("document.title"), current: (await currentTab()).targetId }));
  `);
  t.same(switched, { same: true, session: 'string', title: 'Basic fixture', current: first.targetId });

  const closed = await json(t, `
    await closeTab(${JSON.stringify(blank[0])});
    await closeTab({ targetId: ${JSON.stringify(second.id)} });
    repl.write(JSON.stringify((await listTabs()).map((tab) => tab.targetId)));
  `);
  t.same(closed, [first.targetId], 'closed tabs are gone at once');

  const afterClosingCurrent = await json(t, `
    const extra = await newTab(${JSON.stringify(tall)});
    await closeTab();
    const info = await pageInfo();
    repl.write(JSON.stringify({ gone: !(await listTabs()).some((tab) => tab.targetId === extra), url: info.url }));
  `);
  t.same(afterClosingCurrent, { gone: true, url: basic }, 'closing the attached tab: the next helper attaches another page');

  await fails(t, 'await switchTab(42)', /^switchTab: expected a targetId string or a tab object returned by currentTab\/listTabs$/);
  await fails(t, 'await switchTab("no-such-target")', /no-such-target/);
  await fails(t, 'await closeTab("no-such-target")', /^closeTab: no target with id no-such-target/);
  await fails(t, 'await listTabs("no")', /^listTabs: includeChrome must be a boolean$/);
  await fails(t, 'await newTab("")', /^newTab: url must be a non-empty string$/);
});

t.test('a cross-site iframe read with iframeTarget and js(..., { targetId })', async (t) => {
  // One server, two sites: 127.0.0.1 hosts the page, localhost the frame.
  const inner = `http://localhost:${fixtures.port}/core-frame-inner.html`;
  const outer = `${fixtures.url('core-frame-outer.html')}?frame=${encodeURIComponent(inner)}`;
  const out = await json(t, `
    await gotoUrl(${JSON.stringify(outer)});
    await waitForLoad();
    let frame = await iframeTarget("core-frame-inner");
    for (let i = 0; i < 100 && frame === null; i++) { await waitMs(50); frame = await iframeTarget("core-frame-inner"); }
    const text = await js(() => document.querySelector("#secret").textContent, { targetId: frame.targetId });
    const marker = await js(() => window.innerMarker, { targetId: frame.targetId });
    const fromTop = await js(() => { try { return frames[0].document.title; } catch (error) { return error.name; } });
    const byString = await js("document.title", { targetId: frame.targetId });
    repl.write(JSON.stringify({
      frame, text, origin: marker.origin, answer: typeof marker.answer === "bigint" && marker.answer === 42n, fromTop, byString,
      missing: await iframeTarget("no-such-frame"), any: (await iframeTarget(""))?.targetId === frame.targetId,
      topStillAttached: (await pageInfo()).url,
    }));
  `);
  t.same(Object.keys(out.frame), ['targetId', 'url', 'title', 'type']);
  t.equal(out.frame.type, 'iframe');
  t.equal(out.frame.url, inner);
  t.equal(out.text, 'cross-site frame content');
  t.equal(out.origin, `http://localhost:${fixtures.port}`);
  t.equal(out.answer, true, 'a bigint comes back from the frame');
  t.equal(out.fromTop, 'SecurityError', 'the frame really is cross-origin to the page');
  t.equal(out.byString, 'Inner frame fixture');
  t.equal(out.missing, null);
  t.equal(out.any, true);
  t.equal(out.topStillAttached, outer, 'a temporary session: the page stays attached');

  const switched = await json(t, `
    const frame = await iframeTarget("core-frame-inner");
    await switchTab(frame);
    const inside = await js("document.title");
    await switchTab((await listTabs(false))[0]);
    repl.write(JSON.stringify([inside, await js("document.title")]));
  `);
  t.same(switched, ['Inner frame fixture', 'Frame host fixture']);
  await fails(t, 'await iframeTarget(5)', /^iframeTarget: urlSubstring must be a string$/);
});

t.test('a tab whose page opens a dialog while loading', async (t) => {
  const url = fixtures.url('core-alert-now.html');
  const out = await json(t, `
    const id = await newTab(${JSON.stringify(url)});
    const { url, title, dialog } = await pageInfo();
    const info = { url, title, dialog };
    await closeTab(id);
    repl.write(JSON.stringify({ info, open: (await listTabs()).some((tab) => tab.targetId === id) }));
  `);
  t.same(out, { info: { url, title: 'Immediate alert fixture', dialog: { type: 'alert', message: 'at once' } }, open: false },
    'newTab does not wait behind the dialog; pageInfo reports it; the tab can be closed');
});

t.test('a tab closed while js() waits on it: js() fails at once instead of waiting for the deadline', async (t) => {
  // A hang would end in a cell timeout (REPL_ERR_CELL_TIMEOUT, repl_terminated), not in this error.
  const result = await cell(`
    await newTab("about:blank");
    const targetId = (await currentTab()).targetId;
    setTimeout(() => { cdp("Target.closeTarget", { targetId }).catch(() => {}); }, 200);
    await js("new Promise((resolve) => setTimeout(resolve, 60000))");
  `, { timeout_sec: 30 });
  t.equal(result.success, false);
  t.match(result.error, /^CDP Runtime\.evaluate got no answer: its target closed or was detached while the command was pending$/);
  // Line 6 of the cell: "{", the template's leading newline, then the js() call is the fourth line
  // of code. The cell is awaiting it when the tab closes, so V8's async stack trace reaches it.
  t.match(result.stack, /\n +at async browser-repl-cell-\d+\.mjs:6:/, 'the stack names the cell line that awaited js()');
  t.notOk(result.repl_terminated);
});

