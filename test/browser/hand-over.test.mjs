// Hand-over to a person (docs/live-view.md#hand-over) end to end: a real server with a real
// headless Chromium, and a second, independent Chromium driven by playwright-core (the person)
// that opens browser_live_view_url. A cell's requestHuman() shows its message in the view; the
// person types a reply and presses Done and the cell resolves with it. A read-only viewer cannot
// answer; an unanswered request times out (REPL_ERR_HUMAN_TIMEOUT); interrupting the cell takes
// the request off the view; executor code and the MCP tool browser_request_human go through the
// same service (the view shows the asking MCP session's tab). No assertion depends on timing: waits are bounded polls for a condition.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findChromium } from '../../dist/lib/chromium/find-chromium.js';
import { launchChromium } from '../../dist/lib/chromium/launch-chromium.js';
import { detectNoSandbox } from '../../dist/lib/chromium/sandbox.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-hand-over';
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const auth = { authorization: `Bearer ${TOKEN}` };
const api = await apiServer(t, { token: TOKEN, mcpCaps: [], tools: { permission: 'allow' }, primaryBrowser: { browser: { cdpEndpoint: null } } });
const primary = (await api.call('GET', '/browsers/default', undefined, { headers: auth })).json;
const liveUrl = primary.browser_live_view_url;
// A page behind the panel (for the docs' picture): the default REPL's tab shows the sign-up form.
const opened = await api.call('POST', '/repl', { code: `await gotoUrl(${JSON.stringify(fixtures.url('live-view.html'))})`, timeout_sec: 60 }, { headers: auth });
if (opened.json?.success !== true) throw new Error(`gotoUrl failed: ${opened.text}`);

const viewerProcess = await launchChromium({ executable: findChromium().executable, noSandbox: detectNoSandbox().noSandbox, windowSize: { width: 1000, height: 700 } });
t.teardown(() => viewerProcess.close());
const viewer = await chromium.connectOverCDP(viewerProcess.wsEndpoint);
t.teardown(() => viewer.close().catch(() => undefined));
const viewerContext = viewer.contexts()[0] ?? await viewer.newContext();

/** Starts a cell of the default REPL (not awaited: it waits for a person). */
const startCell = (code, timeoutSec = 60) => api.call('POST', '/repl', { code, timeout_sec: timeoutSec }, { headers: auth });

/** Opens the live view (`query` appended to its URL) and waits until its WebSocket is open. */
async function openView(t, query = '') {
  const page = await viewerContext.newPage();
  t.teardown(() => page.close().catch(() => undefined));
  await page.goto(`${liveUrl}${query}`);
  await page.waitForFunction(() => document.body.dataset.state === 'open', null, { timeout: 30_000 });
  return page;
}

/** Waits (≤ 30 s) until the view shows a pending request whose message matches `text`; returns its id. */
async function pendingShown(page, text) {
  const handle = await page.waitForFunction((wanted) => {
    const request = window.liveView.state.human[0];
    return request !== undefined && request.message.includes(wanted) && !document.getElementById('human').hidden && request.id;
  }, text, { timeout: 30_000 });
  return handle.jsonValue();
}

const nothingPending = (page) => page.waitForFunction(() => window.liveView.state.human.length === 0 && document.getElementById('human').hidden, null, { timeout: 30_000 });

t.test('a cell asks, the person replies and presses Done, the cell gets the reply; read-only cannot answer', async (t) => {
  const watcher = await openView(t, '&readOnly=true');
  const person = await openView(t, '&name=Ada');
  const cell = startCell('const answer = await requestHuman({ message: "Solve the captcha", timeoutSec: 60 }); repl.write(JSON.stringify(answer))');
  const id = await pendingShown(person, 'Solve the captcha');
  t.equal(await person.textContent('#human-message'), 'Solve the captcha', 'the message is shown');
  t.equal(await person.textContent('#control'), 'waiting for a person', 'the view says a person is asked to take control');

  // The read-only viewer sees it, cannot press Done, and its Done sent anyway is refused.
  t.equal(await pendingShown(watcher, 'Solve the captcha'), id, 'a read-only viewer sees the request');
  t.equal(await watcher.isDisabled('#human-done'), true, 'its Done is disabled');
  await watcher.evaluate((requestId) => window.liveView.send({ type: 'humanDone', id: requestId, reply: 'sneaky' }), id);
  await watcher.waitForFunction(() => window.liveView.state.refused === 1, null, { timeout: 30_000 });
  t.equal(await person.evaluate(() => window.liveView.state.human.length), 1, 'the refused Done answered nothing');

  await person.fill('#human-reply', 'done, code 4711');
  // Written to docs/ only when asked (UPDATE_SCREENSHOTS=1), as live-view.test.mjs does.
  if (process.env['UPDATE_SCREENSHOTS'] === '1') {
    await person.waitForFunction(() => Number(document.body.dataset.frames) >= 1, null, { timeout: 30_000 });
    mkdirSync(fileURLToPath(new URL('../../docs/images/', import.meta.url)), { recursive: true });
    writeFileSync(fileURLToPath(new URL('../../docs/images/hand-over.png', import.meta.url)), await person.screenshot());
  }
  await person.click('#human-done');
  const answer = await cell;
  t.equal(answer.json?.success, true, `the cell succeeded: ${answer.text}`);
  t.same(JSON.parse(answer.json.content.find((item) => item.channel === 'write').text), { reply: 'done, code 4711', by: 'Ada' }, 'the cell got what the person typed, and who');
  await nothingPending(person);
  await nothingPending(watcher);
  t.equal(await person.textContent('#control'), 'agent in control');
  t.ok(await watcher.evaluate(() => window.liveView.state.humanDone.some((message) => message.accepted && !message.mine && message.by === 'Ada')), 'the other viewer learns who answered');
});

t.test('a late viewer sees a pending request; the first Done wins', async (t) => {
  const cell = startCell('repl.write(JSON.stringify(await requestHuman("Press Done")))');
  // Pending before anyone watches: the viewer that comes sees it at once.
  const requests = api.server.app.browsers.primary.humanRequests;
  for (let i = 0; i < 300 && requests.pending().length === 0; i++) await sleep(100);
  t.equal(requests.pending().length, 1, 'pending while nobody watches');
  const first = await openView(t);
  const second = await openView(t);
  const id = await pendingShown(first, 'Press Done');
  t.equal(await pendingShown(second, 'Press Done'), id);
  await first.evaluate((requestId) => { window.liveView.send({ type: 'humanDone', id: requestId, reply: 'first' }); }, id);
  await second.evaluate((requestId) => { window.liveView.send({ type: 'humanDone', id: requestId, reply: 'second' }); }, id);
  const answer = await cell;
  t.same(JSON.parse(answer.json.content.find((item) => item.channel === 'write').text), { reply: 'first' }, 'the first Done wins');
  await second.waitForFunction(() => window.liveView.state.humanDone.some((message) => message.accepted === false), null, { timeout: 30_000 });
  t.pass('the second Done is told it came too late');
});

t.test('nobody presses Done: REPL_ERR_HUMAN_TIMEOUT; an interrupted cell takes its request off the view', async (t) => {
  const page = await openView(t);
  const timedOut = await startCell('try { await requestHuman({ message: "Nobody answers", timeoutSec: 1 }) } catch (error) { repl.write(error.code) }');
  t.equal(timedOut.json.content.find((item) => item.channel === 'write')?.text, 'REPL_ERR_HUMAN_TIMEOUT', 'the timeout fails with its own code');
  await nothingPending(page);

  const bad = await startCell('try { await requestHuman({ message: "" }) } catch (error) { repl.write(error.code) }');
  t.equal(bad.json.content.find((item) => item.channel === 'write')?.text, 'REPL_ERR_INVALID_ARGUMENT', 'an empty message is refused in the worker');

  const interrupted = startCell('await requestHuman({ message: "Interrupt me" })');
  await pendingShown(page, 'Interrupt me');
  t.equal((await api.call('POST', '/repl/interrupt', {}, { headers: auth })).status, 200, 'interrupt');
  const answer = await interrupted;
  t.equal(answer.json?.success, false, 'the cell did not succeed');
  await nothingPending(page);
  t.pass('the request left the view');

  // The cell's own timeout ends the wait the same way.
  const cellTimeout = startCell('await requestHuman({ message: "Cell times out" })', 2);
  await pendingShown(page, 'Cell times out');
  t.equal((await cellTimeout).json?.success, false);
  await nothingPending(page);
});

t.test('Playwright executor code asks the same way', async (t) => {
  const page = await openView(t);
  const call = api.call('POST', '/playwright/execute', { code: 'const answer = await requestHuman({ message: "Executor asks" }); return answer.reply;', timeout_sec: 60 }, { headers: auth });
  const id = await pendingShown(page, 'Executor asks');
  await page.fill('#human-reply', 'from the executor path');
  await page.click('#human-done');
  const answer = await call;
  t.equal(answer.json?.success, true, answer.text);
  t.equal(answer.json.result, 'from the executor path', 'the executor code got the reply');
  t.ok(id.startsWith('hr_'));
});

t.test('MCP: browser_live_view gives the link; browser_request_human returns once Done is pressed', async (t) => {
  const client = new Client({ name: 'hand-over-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: auth } });
  await client.connect(transport);
  t.teardown(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  t.equal(byName.browser_live_view?.annotations.readOnlyHint, true, 'browser_live_view is read-only');
  t.same(byName.browser_request_human?.inputSchema.required, ['message']);
  const link = await client.callTool({ name: 'browser_live_view', arguments: {} });
  t.equal(link.content[0].text, `browser_live_view_url: ${liveUrl}`, 'the link of the browser the session drives');

  // The session's page is a tab of the default browser: while it asks, the view shows that tab.
  const opened = await client.callTool({ name: 'browser_open', arguments: { url: fixtures.url('mcp-page.html') } });
  t.notOk(opened.isError, 'the session opened a page');
  const page = await openView(t);
  const call = client.callTool({ name: 'browser_request_human', arguments: { message: 'MCP asks for a login', timeout_sec: 60 } }, undefined, { timeout: 90_000 });
  await pendingShown(page, 'MCP asks for a login');
  await page.waitForFunction(() => {
    const { tabs, current } = window.liveView.state;
    return tabs.find((tab) => tab.targetId === current)?.owner.startsWith('tools:');
  }, null, { timeout: 30_000 });
  t.pass('the view shows the asking session\'s tab');
  await page.fill('#human-reply', 'logged in');
  await page.click('#human-done');
  const result = await call;
  t.notOk(result.isError, 'not an error');
  const text = result.content.map((item) => item.text).join('\n');
  t.match(text, /Their reply: "logged in"/, 'the reply');
  t.match(text, `Live view: ${liveUrl}`, 'and the live view link');

  const refused = await client.callTool({ name: 'browser_request_human', arguments: { message: 'x', timeout_sec: 0 } });
  t.equal(refused.isError, true, 'timeout_sec out of range is refused');
});
