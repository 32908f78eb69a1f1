// Popups and viewports against a real headless Chromium, through the HTTP server: waitForPopup
// resolves the tab a target=_blank link or window.open opened (URL and title), in a named REPL too,
// where the popup is that REPL's tab and no other REPL sees it; setViewport is reflected by
// pageInfo and by the screenshot's pixel size and comes back after switchTab; every tab we open
// (first tab, named REPL, newTab, popup, executor page) gets the server's default viewport,
// 1280×720 or the one configured.
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrowserManager, createApp } from '../../dist/lib/index.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { imageSize } from '../helpers/images.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
const shots = t.testdir({});

const opener = fixtures.url('popup-opener.html');
const target = (via) => `${fixtures.url('popup-target.html')}?via=${via}`;
const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

async function json(t, code, extra = {}, server = api) {
  const result = await server.repl(`{\n${code}\n}`, { timeout_sec: 30, ...extra });
  t.equal(result.success, true, result.error ?? `cell of ${extra.repl ?? 'default'} succeeded`);
  return JSON.parse(writes(result).at(-1));
}

async function fails(t, code, pattern, extra = {}) {
  const result = await api.repl(`{\n${code}\n}`, { timeout_sec: 30, ...extra });
  t.equal(result.success, false, `fails: ${code.slice(0, 70)}`);
  t.match(result.error, pattern);
  return result;
}

const size = (path) => {
  const { width, height } = imageSize(readFileSync(path));
  return { width, height };
};
const VIEWPORT = 'JSON.stringify((await pageInfo()).viewport)';
const DEFAULT = { width: 1280, height: 720 };

t.test('every tab we open gets the default viewport, 1280×720', async (t) => {
  const shot = join(shots, 'default.png');
  const first = await json(t, `repl.write(JSON.stringify({ viewport: (await pageInfo()).viewport, shot: await captureScreenshot(${JSON.stringify(shot)}) }))`);
  t.same(first.viewport, DEFAULT, 'the default REPL\'s tab (the first tab of the browser)');
  t.same(size(shot), DEFAULT, 'its screenshot');
  t.same(await json(t, `const id = await newTab(${JSON.stringify(fixtures.url('basic.html'))}); const v = (await pageInfo()).viewport; await closeTab(id); repl.write(JSON.stringify(v))`),
    DEFAULT, 'newTab in the default REPL');
  t.same(await json(t, `repl.write(${VIEWPORT})`, { repl: 'sized' }), DEFAULT, 'a named REPL\'s tab');
  t.same(await json(t, `const id = await newTab(${JSON.stringify(fixtures.url('basic.html'))}); const v = (await pageInfo()).viewport; await closeTab(id); repl.write(JSON.stringify(v))`, { repl: 'sized' }),
    DEFAULT, 'newTab in a named REPL (a window of its own)');
  t.same(await json(t, `
    await gotoUrl(${JSON.stringify(opener)}); await waitForLoad();
    const popup = await waitForPopup(() => click("#blank"));
    await switchTab(popup);
    const v = (await pageInfo()).viewport;
    await closeTab(popup);
    repl.write(JSON.stringify(v));
  `, { repl: 'sized' }), DEFAULT, 'a popup');
  for (const executor of ['default', 'sized']) {
    const answer = await api.call('POST', '/playwright/execute', { code: 'return await page.evaluate(() => ({ width: innerWidth, height: innerHeight }))', executor, timeout_sec: 60 });
    t.equal(answer.json?.success, true, answer.text);
    t.same(answer.json.result, DEFAULT, `the ${executor} executor's page`);
  }
  t.equal((await api.call('DELETE', '/playwright/executors/sized')).status, 204);
  t.equal((await api.call('DELETE', '/repls/sized')).status, 204);
});

t.test('waitForPopup resolves the tab that a link or window.open opened', async (t) => {
  await json(t, `await gotoUrl(${JSON.stringify(opener)}); await waitForLoad(); repl.write('1')`);
  const link = await json(t, `
    const popup = await waitForPopup(() => click("#blank"));
    repl.write(JSON.stringify({ popup, attached: (await currentTab()).url, visible: await js("document.visibilityState"), listed: (await listTabs()).some((tab) => tab.targetId === popup.targetId) }));
  `);
  t.match(link.popup, { url: target('link'), title: 'Popup target' }, 'the link\'s popup, with its URL and title');
  t.type(link.popup.targetId, 'string');
  t.equal(link.attached, opener, 'the REPL stays on the opener');
  t.equal(link.visible, 'visible', 'and the opener stays in the foreground');
  t.equal(link.listed, true);

  const opened = await json(t, 'repl.write(JSON.stringify(await waitForPopup(() => click("#open"), { timeoutSec: 10 })))');
  t.match(opened, { url: target('open'), title: 'Popup target' }, 'window.open from a click');

  // window.open runs inside the action: the popup exists before the action's promise settles.
  const early = await json(t, `repl.write(JSON.stringify(await waitForPopup(async () => { await js("void window.open('popup-target.html?via=js')"); await waitForLoad(); })))`);
  t.match(early, { url: target('js'), title: 'Popup target' }, 'a popup that opened before the action ended counts');

  const blank = await json(t, 'repl.write(JSON.stringify(await waitForPopup(() => click("#empty"))))');
  t.match(blank, { url: 'about:blank' }, 'window.open() without a URL resolves with about:blank');

  const switched = await json(t, `
    await switchTab(${JSON.stringify(link.popup.targetId)});
    await waitForLoad();
    const info = await pageInfo();
    repl.write(JSON.stringify({ url: info.url, title: info.title, visible: await js("document.visibilityState") }));
  `);
  t.same(switched, { url: target('link'), title: 'Popup target', visible: 'visible' }, 'switchTab attaches the popup and brings it forward');

  for (const popup of [link.popup, opened, early, blank]) await json(t, `await closeTab(${JSON.stringify(popup.targetId)}); repl.write('1')`);
  const back = await json(t, `await switchTab((await listTabs()).find((tab) => tab.url === ${JSON.stringify(opener)})); repl.write(JSON.stringify(await currentTab()))`);
  t.equal(back.url, opener);
});

t.test('waitForPopup fails clearly', async (t) => {
  await fails(t, 'await waitForPopup(() => js("1"), { timeoutSec: 0.3 })',
    /^waitForPopup: the attached tab opened no popup within 0\.3s; check that the action opens one/);
  await fails(t, 'await waitForPopup(() => waitMs(2000), { timeoutSec: 0.2 })', /no popup within 0\.2s and the action is still running/);
  await fails(t, 'await waitForPopup(async () => { throw new Error("the action broke") })', /^the action broke$/);
  await fails(t, 'await waitForPopup(() => { throw new Error("thrown at once") })', /^thrown at once$/);
  await fails(t, 'await waitForPopup(async () => { await click("#open"); throw new Error("after opening") })', /^after opening$/);
  // The popup that click opened may still be on its way to its URL: wait for it, then close it, so
  // no popup is left in front of the default REPL's tab for the tests after this one.
  await json(t, 'while (!(await listTabs()).some((tab) => tab.url.includes("popup-target"))) await waitMs(25); for (const tab of await listTabs()) if (tab.url.includes("popup-target")) await closeTab(tab); repl.write("1")');
  await fails(t, 'await waitForPopup("#blank")', /^waitForPopup: action must be a function that opens the popup/);
  await fails(t, 'await waitForPopup(() => 1, { timeout: 1 })', /^waitForPopup: unknown option: timeout$/);
  await fails(t, 'await waitForPopup(() => 1, { timeoutSec: -1 })', /^waitForPopup: timeoutSec must be a non-negative finite number$/);
  const clamped = await api.repl('await waitForPopup(() => js("1"), { timeoutSec: 60 })', { timeout_sec: 2 });
  t.equal(clamped.success, false);
  t.equal(clamped.repl_terminated, undefined, 'the wait ends before the cell deadline, so the REPL survives');
  t.match(clamped.error, /no popup within [\d.]+s \(the cell's deadline came first; raise timeout_sec\)/);
});

t.test('a named REPL\'s popup is its own', async (t) => {
  await json(t, `await gotoUrl(${JSON.stringify(opener)}); await waitForLoad(); repl.write('1')`);
  await json(t, `await gotoUrl(${JSON.stringify(opener)}); await waitForLoad(); repl.write('1')`, { repl: 'pop' });
  // Both REPLs wait for a popup on the same page at once. The default REPL arms first (its action
  // retitles its page, which the named REPL waits for), lets the named REPL's popup appear, then
  // opens its own: the named REPL's popup must not resolve the default REPL's wait, nor the reverse.
  const [mine, theirs] = await Promise.all([
    json(t, `
      const popup = await waitForPopup(async () => {
        await js("document.title = 'armed'");
        while (!(await listTabs()).some((tab) => tab.url.endsWith("via=named"))) await waitMs(25);
        await js("void window.open('popup-target.html?via=default')");
      }, { timeoutSec: 20 });
      repl.write(JSON.stringify(popup));
    `),
    json(t, `
      while (!(await listTabs()).some((tab) => tab.title === "armed")) await waitMs(25);
      repl.write(JSON.stringify(await waitForPopup(() => js("void window.open('popup-target.html?via=named')"))));
    `, { repl: 'pop' }),
  ]);
  t.equal(mine.url, target('default'), 'the default REPL got its own popup');
  t.equal(theirs.url, target('named'), 'the named REPL got its own');

  const refused = await api.repl(`await switchTab(${JSON.stringify(theirs.targetId)})`);
  t.equal(refused.success, false, 'the default REPL may not attach the named REPL\'s popup');
  t.match(refused.error, `switchTab: tab ${theirs.targetId} belongs to repl pop`);
  const other = await api.repl(`await switchTab(${JSON.stringify(theirs.targetId)})`, { repl: 'other' });
  t.match(other.error, 'belongs to repl pop', 'nor may another named REPL');

  const own = await json(t, `
    const home = await currentTab();
    const opened = await js("document.visibilityState");
    await switchTab(${JSON.stringify(theirs.targetId)});
    const popup = await pageInfo();
    await switchTab(home);
    repl.write(JSON.stringify({ opened, popup: popup.title, back: (await currentTab()).url, visible: await js("document.visibilityState") }));
  `, { repl: 'pop' });
  t.same(own, { opened: 'visible', popup: 'Popup target', back: opener, visible: 'visible' },
    'the named REPL attaches its popup and comes back to its own tab, which is in front again');

  t.equal((await api.call('DELETE', '/repls/pop')).status, 204);
  const left = await json(t, 'repl.write(JSON.stringify((await listTabs()).map((tab) => tab.targetId)))');
  t.notOk(left.includes(theirs.targetId), 'deleting the named REPL closed its popup too');
  t.ok(left.includes(mine.targetId), 'the default REPL\'s popup stays');
  await json(t, `await closeTab(${JSON.stringify(mine.targetId)}); repl.write('1')`);
  t.equal((await api.call('DELETE', '/repls/other')).status, 204);
});

t.test('setViewport is reflected by pageInfo and the screenshot, and comes back after switchTab', async (t) => {
  const shot = join(shots, 'emulated.png');
  const set = await json(t, `
    await gotoUrl(${JSON.stringify(fixtures.url('popup-target.html'))}); await waitForLoad();
    const home = await currentTab();
    await setViewport({ width: 500, height: 400, deviceScaleFactor: 2 });
    const emulated = { viewport: (await pageInfo()).viewport, dpr: await js("devicePixelRatio"), shot: await captureScreenshot(${JSON.stringify(shot)}) };
    const other = await newTab(${JSON.stringify(fixtures.url('basic.html'))});
    const elsewhere = (await pageInfo()).viewport;
    await switchTab(home);
    const back = (await pageInfo()).viewport;
    await closeTab(other);
    repl.write(JSON.stringify({ emulated, elsewhere, back }));
  `);
  t.same(set.emulated.viewport, { width: 500, height: 400 }, 'pageInfo().viewport');
  t.equal(set.emulated.dpr, 2);
  t.same(size(shot), { width: 1000, height: 800 }, 'the screenshot is width × deviceScaleFactor pixels');
  t.same(set.elsewhere, DEFAULT, 'a new tab has the default viewport');
  t.same(set.back, { width: 500, height: 400 }, 'switchTab back sets the tab\'s viewport again');

  const mobile = await json(t, `
    await setViewport({ width: 390, height: 844, deviceScaleFactor: 3, mobile: true });
    repl.write(JSON.stringify({ viewport: (await pageInfo()).viewport, narrow: await js("matchMedia('(max-width: 400px)').matches"), screen: await js("screen.width") }));
  `);
  t.same(mobile, { viewport: { width: 390, height: 844 }, narrow: true, screen: 390 }, 'a mobile viewport at device width');

  const plain = join(shots, 'plain.png');
  const cleared = await json(t, `await setViewport(null); const viewport = (await pageInfo()).viewport; await captureScreenshot(${JSON.stringify(plain)}); repl.write(JSON.stringify(viewport))`);
  t.same(cleared, DEFAULT, 'null returns to the window\'s size');
  t.same(size(plain), DEFAULT, 'and so does the screenshot');

  await fails(t, 'await setViewport({ width: 0, height: 100 })', /^setViewport: width must be an integer between 1 and 10000 \(CSS pixels\)$/);
  await fails(t, 'await setViewport({ width: 100 })', /^setViewport: height must be an integer/);
  await fails(t, 'await setViewport({ width: 100, height: 100.5 })', /^setViewport: height must be an integer/);
  await fails(t, 'await setViewport({ width: 100, height: 100, deviceScaleFactor: 0 })', /^setViewport: deviceScaleFactor must be a number greater than 0/);
  await fails(t, 'await setViewport({ width: 100, height: 100, mobile: "yes" })', /^setViewport: mobile must be a boolean$/);
  await fails(t, 'await setViewport({ width: 100, height: 100, scale: 2 })', /^setViewport: unknown option: scale$/);
  await fails(t, 'await setViewport("800x600")', /^setViewport: expected \{ width, height, deviceScaleFactor\?, mobile\? \}/);
});

t.test('a server with a viewport of its own', async (t) => {
  const custom = await apiServer(t, { viewport: { width: 800, height: 600 }, primaryBrowser: { browser: { cdpEndpoint: null } } });
  const shot = join(shots, 'custom.png');
  const expected = { width: 800, height: 600 };
  t.same(await json(t, `await captureScreenshot(${JSON.stringify(shot)}); repl.write(${VIEWPORT})`, {}, custom), expected, 'the first tab');
  t.same(size(shot), expected, 'its screenshot');
  t.same(await json(t, `repl.write(${VIEWPORT})`, { repl: 'custom' }, custom), expected, 'a named REPL\'s tab');
  t.same(await json(t, `await newTab(${JSON.stringify(fixtures.url('basic.html'))}); repl.write(${VIEWPORT})`, { repl: 'custom' }, custom), expected, 'its newTab');
});

t.test('the viewport option and BROWSER_REPL_VIEWPORT are checked, naming the field', async (t) => {
  t.throws(() => createApp({ viewport: { width: 0, height: 600 } }),
    { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'viewport.width must be an integer between 1 and 10000, got 0' });
  t.throws(() => createApp({ viewport: { width: 800, height: '600' } }), { message: 'viewport.height must be an integer between 1 and 10000, got "600"' });
  t.throws(() => createApp({ viewport: { width: 800, height: 600, dpr: 2 } }), { message: 'viewport has an unknown field: dpr (only width and height)' });
  t.same(new BrowserManager({ env: { BROWSER_REPL_VIEWPORT: '1024x768' } }).viewport, { width: 1024, height: 768 }, 'from the environment');
  t.same(new BrowserManager({ env: {} }).viewport, DEFAULT, 'the default');
  t.same(new BrowserManager({ env: { BROWSER_REPL_VIEWPORT: '1024x768' }, viewport: { width: 640, height: 480 } }).viewport, { width: 640, height: 480 }, 'the option wins');
  t.throws(() => new BrowserManager({ env: { BROWSER_REPL_VIEWPORT: '1280*720' } }),
    { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_VIEWPORT must be WIDTHxHEIGHT in CSS pixels, for example 1280x720; got "1280*720"' });
  const cli = await promisify(execFile)(process.execPath, ['dist/lib/cli/main.js', '--viewport', '20000x10'], { cwd: new URL('../../', import.meta.url) })
    .catch((error) => error);
  t.equal(cli.code, 2, 'the CLI refuses a bad --viewport as a usage error (docs/cli.md: exit code 2)');
  t.equal(cli.stderr, 'chromium-repl: --viewport width must be an integer between 1 and 10000, got 20000 (see chromium-repl help serve)\n');
});
