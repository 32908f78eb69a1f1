// The live view (docs/live-view.md) end to end: a real server with a real headless Chromium (the
// target browser), and a second, independent Chromium driven by playwright-core (the viewer) that
// opens browser_live_view_url. The viewer sees frames, sees them change when a cell changes the
// page, clicks a button and types into a field through the view, and a cell of the target browser
// sees both. readOnly refuses input server-side; forged, expired and other browsers' capabilities
// get 401; the screencast stops when the last viewer leaves. With UPDATE_SCREENSHOTS=1 it saves docs/images/live-view.png.
// No assertion depends on timing: waits are bounded polls for a condition.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { chromium } from 'playwright-core';
import { findChromium } from '../../dist/lib/chromium/find-chromium.js';
import { launchChromium } from '../../dist/lib/chromium/launch-chromium.js';
import { detectNoSandbox } from '../../dist/lib/chromium/sandbox.js';
import { liveScreencasts } from '../../dist/lib/live-view/live-view.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-live-view';
const auth = { authorization: `Bearer ${TOKEN}` };
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } } });

const created = await api.call('POST', '/browsers', { start_url: fixtures.url('live-view.html'), viewport: { width: 900, height: 640 } }, { headers: auth });
if (created.status !== 200) throw new Error(`POST /browsers answered ${created.status}: ${created.text}`);
const target = created.json;

// The viewer: a Chromium of its own, launched through the project's helper, driven by Playwright.
const viewerProcess = await launchChromium({ executable: findChromium().executable, noSandbox: detectNoSandbox().noSandbox, windowSize: { width: 1100, height: 800 } });
t.teardown(() => viewerProcess.close());
const viewer = await chromium.connectOverCDP(viewerProcess.wsEndpoint);
t.teardown(() => viewer.close().catch(() => undefined));
const viewerContext = viewer.contexts()[0] ?? await viewer.newContext();

/** Runs a cell in the target browser; returns the JSON it wrote. */
async function cell(code) {
  const answer = await api.call('POST', `/browsers/${target.session_id}/repl`, { code, timeout_sec: 30 }, { headers: auth });
  if (answer.status !== 200 || answer.json?.success !== true) throw new Error(`cell failed (${answer.status}): ${answer.text}`);
  const written = answer.json.content.find((item) => item.channel === 'write');
  return written === undefined ? undefined : JSON.parse(written.text);
}

/** Polls `check` (≤ 30 s, for a loaded machine) until it returns something truthy; returns the last value. */
async function until(check) {
  const deadline = Date.now() + 30_000;
  let value = await check();
  while (!value && Date.now() < deadline) {
    await sleep(100);
    value = await check();
  }
  return value;
}

/** The status and body of a WebSocket upgrade to `url` (http or ws scheme), without completing it. */
function upgrade(url, headers = {}) {
  const parsed = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: parsed.hostname, port: parsed.port, path: `${parsed.pathname}${parsed.search}`,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    request.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode, body: '' });
    });
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.once('error', reject);
    request.end();
  });
}

const wsOf = (pageUrl) => {
  const url = new URL(pageUrl);
  url.pathname += '/ws';
  return url.href;
};

/** GET of a live-view page URL, without any token. */
async function getPage(url, headers = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, text, json };
}

// The start URL has loaded in the tab the default REPL uses.
await cell('for (let i = 0; i < 400 && (await js("location.pathname + document.readyState")) !== "/live-view.html" + "complete"; i++) await waitMs(50); repl.write(JSON.stringify(await js("location.pathname")))');

t.test('every browser object carries browser_live_view_url', async (t) => {
  const pattern = (id) => new RegExp(`^http://127\\.0\\.0\\.1:\\d+/browsers/${id}/live\\?jwt=lv1\\.0\\.w\\.[A-Za-z0-9_-]{43}$`);
  t.match(target.browser_live_view_url, pattern(target.session_id), 'create: interactive, for the browser\'s life');
  const retrieved = await api.call('GET', `/browsers/${target.session_id}`, undefined, { headers: auth });
  t.match(retrieved.json.browser_live_view_url, pattern(target.session_id), 'retrieve');
  const listed = await api.call('GET', '/browsers', undefined, { headers: auth });
  t.match(listed.json.find((row) => row.session_id === target.session_id)?.browser_live_view_url, pattern(target.session_id), 'list');
  const primary = await api.call('GET', '/browsers/default', undefined, { headers: auth });
  t.match(primary.json.browser_live_view_url, pattern(primary.json.session_id), 'the default browser\'s');
});

t.test('POST /browsers/{id}/live_view validates its body and mints capabilities', async (t) => {
  const path = `/browsers/${target.session_id}/live_view`;
  for (const [body, field] of [[{ ttl_seconds: 'soon' }, 'ttl_seconds'], [{ ttl_seconds: 0 }, 'ttl_seconds'], [{ ttl_seconds: 1.5 }, 'ttl_seconds'], [{ read_only: 'yes' }, 'read_only'], [{ expires: 10 }, 'expires'], [[], 'body']]) {
    const answer = await api.call('POST', path, body, { headers: auth });
    t.equal(answer.status, 400, `${JSON.stringify(body)}: 400`);
    t.equal(answer.json?.code, 'REPL_ERR_INVALID_REQUEST');
    t.match(answer.json?.message, field, `${JSON.stringify(body)}: the message names ${field}`);
  }
  const plain = await api.call('POST', path, undefined, { headers: auth });
  t.equal(plain.status, 200, 'no body: 200');
  t.equal(plain.json.expires_at, null, 'no ttl: valid for the browser\'s life');
  t.match(plain.json.browser_live_view_url, /\/live\?jwt=lv1\.0\.w\./);
  const readOnly = await api.call('POST', path, { ttl_seconds: 600, read_only: true }, { headers: auth });
  t.equal(readOnly.status, 200);
  t.match(readOnly.json.browser_live_view_url, /\?jwt=lv1\.\d+\.r\.[A-Za-z0-9_-]+&readOnly=true$/, 'read-only, with readOnly=true');
  t.ok(Date.parse(readOnly.json.expires_at) > Date.now(), 'expires_at is in the future');
  t.equal((await api.call('POST', path, {})).status, 401, 'minting needs the token');
  t.equal((await api.call('POST', '/browsers/nosuchbrowser/live_view', {}, { headers: auth })).status, 404, 'unknown browser: 404');
});

t.test('a forged, expired or other browser\'s capability gets 401', async (t) => {
  const good = target.browser_live_view_url;
  const page = await getPage(good, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' });
  t.equal(page.status, 200, 'the page opens with its capability and no token, also as another site\'s iframe');
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.equal(page.headers.get('x-frame-options'), null, 'no X-Frame-Options: it may be embedded');
  t.match(page.headers.get('content-security-policy'), /frame-ancestors \*/);
  t.equal(page.headers.get('referrer-policy'), 'no-referrer', 'the capability does not leak through Referer');
  t.notMatch(page.text, /<script[^>]+src=|<link[^>]+href=/, 'no external asset');
  t.equal((await upgrade(wsOf(good), { origin: new URL(good).origin })).status, 101, 'its WebSocket opens (same origin)');
  t.equal((await upgrade(wsOf(good), { origin: 'https://evil.example' })).status, 403, 'a WebSocket from another origin: 403');

  const signature = good.slice(-43);
  const forged = good.replace(signature, `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
  const primary = (await api.call('GET', '/browsers/default', undefined, { headers: auth })).json;
  const otherBrowsers = `${good.split('?')[0]}?${new URL(primary.browser_live_view_url).search.slice(1)}`;
  const promoted = good.replace('lv1.0.w.', 'lv1.0.r.');
  const minted = (await api.call('POST', `/browsers/${target.session_id}/live_view`, { ttl_seconds: 1 }, { headers: auth })).json;
  t.equal((await getPage(minted.browser_live_view_url)).status, 200, 'a 1 s capability opens the page while valid');
  // Past its expiry (whole seconds, rounded up), with a second to spare.
  while (Date.now() < Date.parse(minted.expires_at) + 1000) await sleep(100);
  const cases = {
    'no capability': good.split('?')[0],
    'a forged one': forged,
    'another browser\'s': otherBrowsers,
    'one whose read-only flag was changed': promoted,
    'an expired one': minted.browser_live_view_url,
    'an unknown browser': good.replace(target.session_id, 'nosuchbrowser'),
  };
  for (const [label, url] of Object.entries(cases)) {
    const answer = await getPage(url);
    t.equal(answer.status, 401, `page, ${label}: 401`);
    t.same(answer.json, { message: answer.json?.message, code: 'REPL_ERR_UNAUTHORIZED' }, `page, ${label}: the registry's JSON error`);
    const ws = await upgrade(wsOf(url));
    t.equal(ws.status, 401, `WebSocket, ${label}: 401`);
    t.equal(JSON.parse(ws.body).code, 'REPL_ERR_UNAUTHORIZED', `WebSocket, ${label}: the registry's JSON error`);
  }
  t.equal(await until(() => liveScreencasts() === 0), true, 'the probing WebSockets left no screencast behind');
});

t.test('the viewer sees the tab live and drives it; readOnly only shows', async (t) => {
  const interactive = await viewerContext.newPage();
  t.teardown(() => interactive.close().catch(() => undefined));
  await interactive.setViewportSize({ width: 1000, height: 700 });
  t.equal(liveScreencasts(), 0, 'nobody watches: no screencast');
  await interactive.goto(target.browser_live_view_url);
  await interactive.waitForFunction(() => Number(document.body.dataset.frames) >= 1, null, { timeout: 30_000 });
  t.ok(liveScreencasts() >= 1, 'the first viewer started the screencast');
  t.equal(await interactive.textContent('#mode'), 'interactive');
  t.match(await interactive.textContent('#viewers'), /^1 viewer \(1 interactive\)$/);
  t.ok(await until(async () => /Newsletter sign-up/.test(await interactive.textContent('#tabs'))), 'the tab list names the tab');

  // A cell changes the page: new frames arrive, with a different image.
  const before = await interactive.evaluate(() => ({ frames: window.liveView.state.frames, src: document.getElementById('frame').src }));
  await cell('await js("document.getElementById(\'heading\').textContent = \'Changed by a cell\'"); repl.write("true")');
  t.ok(await until(() => interactive.evaluate((old) => window.liveView.state.frames > old.frames && document.getElementById('frame').src !== old.src, before)), 'a new, different frame arrived after the cell changed the page');
  // While it changes the page comes in reduced frames (lib/live-view/frames.ts); once still, one
  // full-size still (the tab is 900 CSS px wide at scale 1) replaces them.
  await interactive.evaluate(() => {
    window.frameWidths = [];
    document.getElementById('frame').addEventListener('load', (event) => window.frameWidths.push(event.target.naturalWidth));
  });
  await cell('await js("document.getElementById(\'heading\').textContent = \'Changed again\'"); repl.write("true")');
  const widths = await until(() => interactive.evaluate(() => (window.frameWidths.at(-1) === 900 ? window.frameWidths : undefined)));
  t.ok(widths, 'a full-size still arrived once the page was still');
  t.ok(widths?.some((width) => width > 0 && width <= 480), `the change itself came as a reduced frame (widths ${widths})`);

  // Click the button through the view.
  const centre = (id) => cell(`repl.write(JSON.stringify(await js("(() => { const r = document.getElementById('${id}').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()")))`);
  const button = await centre('subscribe');
  const onScreen = async (point) => interactive.evaluate(({ x, y }) => window.liveView.pageToClient(x, y), point);
  const buttonOnScreen = await onScreen(button);
  await interactive.mouse.click(buttonOnScreen.x, buttonOnScreen.y);
  t.equal(await until(() => cell('repl.write(JSON.stringify(await js("window.subscribeClicks")))').then((n) => n === 1)), true, 'the click reached the button (a cell sees it)');
  t.equal(await cell('repl.write(JSON.stringify(await js("document.getElementById(\'banner\').textContent")))'), 'Subscribe clicked 1 time(s).');

  // Type into the field through the view, then paste-like text input from the page's own box.
  const field = await onScreen(await centre('email'));
  await interactive.mouse.click(field.x, field.y);
  await interactive.keyboard.type('ada@example.com');
  const value = () => cell('repl.write(JSON.stringify(await js("document.getElementById(\'email\').value")))');
  t.equal(await until(async () => (await value()) === 'ada@example.com'), true, 'the keys reached the field (a cell sees its value)');
  await interactive.fill('#text', ' (newsletter)');
  await interactive.click('#send-text button');
  t.equal(await until(async () => (await value()) === 'ada@example.com (newsletter)'), true, 'text input (Input.insertText) reached the field');
  await interactive.keyboard.press('Backspace');
  t.equal(await until(async () => (await value()) === 'ada@example.com (newsletter'), true, 'a key without text (Backspace) reached the field');

  // A second viewer, read-only: it sees, and the server refuses what it sends.
  const watcher = await viewerContext.newPage();
  t.teardown(() => watcher.close().catch(() => undefined));
  await watcher.setViewportSize({ width: 640, height: 480 });
  await watcher.goto(`${target.browser_live_view_url}&readOnly=true`);
  await watcher.waitForFunction(() => Number(document.body.dataset.frames) >= 1, null, { timeout: 30_000 });
  t.equal(await watcher.textContent('#mode'), 'view only');
  t.equal(await until(async () => /^2 viewers \(1 interactive\)$/.test(await interactive.textContent('#viewers'))), true, 'the interactive viewer sees 2 viewers, 1 interactive');
  const watcherButton = await watcher.evaluate(({ x, y }) => window.liveView.pageToClient(x, y), button);
  await watcher.mouse.click(watcherButton.x, watcherButton.y);
  // The page sends nothing when read-only; sent anyway, the server refuses it.
  await watcher.evaluate((point) => {
    window.liveView.send({ type: 'mouse', event: 'click', x: point.x, y: point.y, button: 'left', clickCount: 1 });
    window.liveView.send({ type: 'insertText', text: 'sneaky' });
    window.liveView.send({ type: 'key', event: 'keyDown', key: 'a', code: 'KeyA', text: 'a' });
  }, button);
  t.ok(await until(() => watcher.evaluate(() => window.liveView.state.refused === 3)), 'the server refused the three input messages');
  t.equal(await cell('repl.write(JSON.stringify(await js("window.subscribeClicks")))'), 1, 'read-only: the button was not clicked');
  t.equal(await value(), 'ada@example.com (newsletter', 'read-only: the field did not change');

  // A read-only capability stays read-only whatever the query says.
  const minted = (await api.call('POST', `/browsers/${target.session_id}/live_view`, { read_only: true }, { headers: auth })).json;
  const readOnlyCapability = await viewerContext.newPage();
  t.teardown(() => readOnlyCapability.close().catch(() => undefined));
  await readOnlyCapability.goto(minted.browser_live_view_url.replace('readOnly=true', 'readOnly=false'));
  await readOnlyCapability.waitForFunction(() => document.body.dataset.state === 'open', null, { timeout: 30_000 });
  t.equal(await readOnlyCapability.textContent('#mode'), 'view only', 'a read-only capability with readOnly=false: view only');
  await readOnlyCapability.close();

  // The screenshot of the docs: the viewer with the page it drove.
  await cell('await js("document.getElementById(\'heading\').textContent = \'Join our newsletter\'"); repl.write("true")');
  await until(() => interactive.evaluate((old) => window.liveView.state.frames > old, before.frames + 1));
  await interactive.mouse.move(0, 0);
  // Written to docs/ only when asked (UPDATE_SCREENSHOTS=1): a test run leaves the checkout as it found it.
  const shot = await interactive.screenshot();
  t.equal(shot.subarray(1, 4).toString('latin1'), 'PNG', 'the viewer page renders');
  if (process.env['UPDATE_SCREENSHOTS'] === '1') {
    mkdirSync(fileURLToPath(new URL('../../docs/images/', import.meta.url)), { recursive: true });
    writeFileSync(fileURLToPath(new URL('../../docs/images/live-view.png', import.meta.url)), shot);
  }

  // The last viewer leaves: the screencast stops.
  await watcher.close();
  await interactive.close();
  t.equal(await until(() => liveScreencasts() === 0), true, 'nobody watches any more: no screencast');
});

t.test('the view follows the default REPL\'s switchTab, and the computer controls drive that tab', async (t) => {
  const page = await viewerContext.newPage();
  t.teardown(() => page.close().catch(() => undefined));
  await page.goto(target.browser_live_view_url);
  await page.waitForFunction(() => Number(document.body.dataset.frames) >= 1, null, { timeout: 30_000 });
  const first = await cell('repl.write(JSON.stringify((await currentTab()).targetId))');
  t.equal(await until(() => page.evaluate((id) => window.liveView.state.current === id, first)), true, 'the view shows the REPL\'s tab');
  // The REPL moves to a second tab: the first stays open and unowned, so only the REPL's word can move the view.
  const second = await cell(`repl.write(JSON.stringify(await newTab(${JSON.stringify(fixtures.url('live-view.html'))})))`);
  t.not(second, first, 'a second tab');
  t.equal(await until(() => page.evaluate((id) => window.liveView.state.current === id, second)), true, 'after newTab the view shows the new tab');
  await cell(`await switchTab(${JSON.stringify(first)}); repl.write("true")`);
  t.equal(await until(() => page.evaluate((id) => window.liveView.state.current === id, first)), true, 'after switchTab back, the first tab again');
  await cell(`await switchTab(${JSON.stringify(second)}); repl.write("true")`);
  t.equal(await until(() => page.evaluate((id) => window.liveView.state.current === id, second)), true, 'and switchTab to the second once more');
  // Kernel's computer controls act on the same tab: a key typed there reaches the second tab's field only.
  await cell('await js("document.getElementById(\'email\').focus()"); repl.write("true")');
  const typed = await api.call('POST', `/browsers/${target.session_id}/computer/type`, { text: 'second@example.com' }, { headers: auth });
  t.equal(typed.status, 200, 'computer/type answered');
  t.equal(await cell('repl.write(JSON.stringify(await js("document.getElementById(\'email\').value")))'), 'second@example.com', 'the text landed in the REPL\'s tab');
  await cell(`await switchTab(${JSON.stringify(first)}); await closeTab(${JSON.stringify(second)}).catch(() => undefined); repl.write("true")`);
});

t.test('the view ends when its browser is deleted', async (t) => {
  const page = await viewerContext.newPage();
  t.teardown(() => page.close().catch(() => undefined));
  await page.goto(target.browser_live_view_url);
  await page.waitForFunction(() => Number(document.body.dataset.frames) >= 1, null, { timeout: 30_000 });
  t.equal((await api.call('DELETE', `/browsers/${target.session_id}`, undefined, { headers: auth })).status, 204);
  await page.waitForFunction(() => document.body.dataset.state === 'closed', null, { timeout: 30_000 });
  t.equal(await page.textContent('#mode'), 'disconnected', 'the viewer is told');
  t.equal(await until(() => liveScreencasts() === 0), true, 'no screencast is left');
});
