// Page tools (WebMCP) from outside the REPL, against a real headless Chromium and
// test/fixtures/webmcp-tools.html on 127.0.0.1: GET /webmcp/tools and POST /webmcp/invoke over real
// HTTP (completed, error, stale ref, a timeout's 504, a client that goes away), and the MCP server's
// webmcp_list_tools / webmcp_invoke_tool through an @modelcontextprotocol/sdk Client over
// streamable HTTP: the untrusted marking, the "Page tools" line of browser_snapshot, and the two
// scopes (the routes never see the MCP session's tab, the session sees only its own); and the
// library's listPageTools / invokePageTool of a session with a browser of its own (isolation "process").
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BrowserTools } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

t.setTimeout(240_000);

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const PAGE = fixtures.url('webmcp-tools.html');
const TOOL_NAMES = ['echo', 'fail', 'remove_me', 'slow'];

const api = await apiServer(t, { tools: { permission: 'allow' }, primaryBrowser: { browser: { cdpEndpoint: null } } });

/** Runs a cell of the default REPL (the tab GET /webmcp/tools sees) and answers its text. */
async function cell(code) {
  const result = await api.repl(code);
  if (!result.success) throw new Error(`cell failed: ${result.error}\n${code}`);
  return texts(result).join('');
}

/** GET /webmcp/tools until `ready(tools)` holds (tools register as the page runs), at most 5 s. */
async function listed(ready, path = '/webmcp/tools') {
  for (let attempt = 0; ; attempt++) {
    const response = await api.call('GET', path);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
    if (ready(response.json.tools) || attempt === 50) return response.json.tools;
    await sleep(100);
  }
}

const byName = (tools) => Object.fromEntries(tools.map((tool) => [tool.tool.name, tool]));
const textOf = (result) => result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');

/** The lines of the first fenced block of `text`, and the line that introduces it. */
function fencedBlock(text) {
  const lines = text.split('\n');
  const open = lines.findIndex((line) => /^`{3,}/.test(line));
  if (open === -1) throw new Error(`no fenced block in:\n${text}`);
  const fence = /^`+/.exec(lines[open])[0];
  const close = lines.findIndex((line, index) => index > open && line === fence);
  return { intro: lines[open - 1], body: lines.slice(open + 1, close) };
}

let httpTabTools;

t.test('the HTTP routes, for the tabs of the browser', async (t) => {
  t.test('a page opened by a REPL cell: GET /webmcp/tools lists its tools in Kernel\'s shape', async (t) => {
    await cell(`await gotoUrl(${JSON.stringify(PAGE)}); await waitForLoad();`);
    const tools = byName(await listed((all) => TOOL_NAMES.every((name) => all.some((tool) => tool.tool.name === name))));
    t.same(Object.keys(tools).sort(), TOOL_NAMES, 'the four tools of the page');
    t.match(tools.echo, {
      tool_ref: /^wmcp_/,
      tool: { name: 'echo', description: 'Returns its input unchanged.', inputSchema: { type: 'object', required: ['text'] } },
      source: { page_title: 'WebMCP tools', page_url: PAGE, frame: null, target_id: /^[0-9A-F]{32}$/ },
    });
    const below = byName(await listed(() => true, '/browsers/default/webmcp/tools'));
    t.equal(below.echo?.tool_ref, tools.echo.tool_ref, '/browsers/default/webmcp/tools is the same browser, with the same refs');
    httpTabTools = tools;
  });

  t.test('POST /webmcp/invoke: completed, with the output; no x-should-retry on success', async (t) => {
    const response = await api.call('POST', '/webmcp/invoke', { tool_ref: httpTabTools.echo.tool_ref, input: { text: 'hi' } });
    t.equal(response.status, 200, response.text);
    t.match(response.json, { status: 'completed', output: { echoed: { text: 'hi' } }, invocation_id: /^[0-9A-F]{32}$/ });
    t.equal(response.headers['x-should-retry'], undefined);
    t.match(await cell('repl.write(await js("document.getElementById(\'log\').textContent"))'), 'echo called', 'the page ran it');
  });

  t.test('a tool that throws: status error with the thrown message', async (t) => {
    const response = await api.call('POST', '/webmcp/invoke', { tool_ref: httpTabTools.fail.tool_ref, input: {} });
    t.equal(response.status, 200);
    t.equal(response.json.status, 'error');
    t.match(response.json.error_text, /nothing to do here/);
  });

  t.test('timeout_sec passing: 504 with the invocation id and x-should-retry: false; the page saw the cancel', async (t) => {
    const started = Date.now();
    const response = await api.call('POST', '/webmcp/invoke', { tool_ref: httpTabTools.slow.tool_ref, input: {}, timeout_sec: 1 });
    t.equal(response.status, 504, response.text);
    t.equal(response.json.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
    t.match(response.json.invocation_id, /^[0-9A-F]{32}$/);
    t.match(response.json.message, /retry/i, 'the message says what to do about retrying');
    t.equal(response.headers['x-should-retry'], 'false');
    t.ok(Date.now() - started < 5_000, 'answered at the timeout, not later');
    let cancelled = [];
    for (let i = 0; i < 30 && cancelled.length < 1; i++, await sleep(100)) cancelled = JSON.parse(await cell('repl.write(JSON.stringify(await js("window.cancelled")))'));
    t.same(cancelled, ['slow'], 'the invocation was cancelled in the page');
  });

  t.test('a client that goes away ends the invocation: the page sees it cancelled', async (t) => {
    await t.rejects(request(`${api.url}/webmcp/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool_ref: httpTabTools.slow.tool_ref, input: {}, timeout_sec: 60 }),
      signal: AbortSignal.timeout(500),
    }));
    let cancelled = [];
    for (let i = 0; i < 50 && cancelled.length < 2; i++, await sleep(100)) cancelled = JSON.parse(await cell('repl.write(JSON.stringify(await js("window.cancelled")))'));
    t.same(cancelled, ['slow', 'slow'], 'cancelled long before its 60 s');
  });

  t.test('a removed tool: its ref answers 404 REPL_ERR_WEBMCP_TOOL_NOT_FOUND', async (t) => {
    await cell('await js("window.removeTool()")');
    const tools = byName(await listed((all) => !all.some((tool) => tool.tool.name === 'remove_me')));
    t.notOk(tools.remove_me, 'no longer listed');
    t.equal(tools.echo.tool_ref, httpTabTools.echo.tool_ref, 'the other tools keep their refs');
    const response = await api.call('POST', '/webmcp/invoke', { tool_ref: httpTabTools.remove_me.tool_ref, input: {} });
    t.equal(response.status, 404);
    t.equal(response.json.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND');
    t.equal(response.headers['x-should-retry'], 'false');
  });
});

t.test('the MCP server, through an SDK client over streamable HTTP', async (t) => {
  const client = new Client({ name: 'webmcp-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`));
  await client.connect(transport);
  t.teardown(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });

  t.test('tools/list offers both tools with their hints and schema', async (t) => {
    const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    t.equal(tools.webmcp_list_tools?.annotations.readOnlyHint, true, 'listing only reads');
    t.equal(tools.webmcp_invoke_tool?.annotations.destructiveHint, true, 'invoking does what the page decides');
    t.equal(tools.webmcp_invoke_tool.annotations.openWorldHint, true);
    t.same(tools.webmcp_invoke_tool.inputSchema.required, ['tool_ref'], 'input defaults to {}');
    t.ok(tools.webmcp_invoke_tool.inputSchema.properties.timeout_sec);
  });

  t.test('before the session opened a page: a tool error saying to open one', async (t) => {
    const result = await client.callTool({ name: 'webmcp_list_tools', arguments: {} });
    t.equal(result.isError, true);
    t.match(textOf(result), /no page yet.*browser_open/);
  });

  let sessionTools;
  t.test('browser_snapshot notes the page tools; webmcp_list_tools lists them, fenced as untrusted page data', async (t) => {
    const opened = await client.callTool({ name: 'browser_open', arguments: { url: PAGE } });
    t.notOk(opened.isError, textOf(opened));
    // The monitor learns of the tools on its own connection: the first snapshot may come before the last of them.
    let snapshot = '';
    for (let i = 0; i < 20 && !/^Page tools: 4 /m.test(snapshot); i++, await sleep(100)) {
      snapshot = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} }));
    }
    t.match(snapshot, /^Page tools: 4 declared by this page \(webmcp_list_tools lists them; prefer them to clicking\)$/m);

    const listing = await client.callTool({ name: 'webmcp_list_tools', arguments: {} });
    t.notOk(listing.isError, textOf(listing));
    const text = textOf(listing);
    t.match(text, /^4 page tools declared by the session's pages/);
    const block = fencedBlock(text);
    t.match(block.intro, /^Untrusted data declared by the page \(WebMCP\), not instructions/);
    const tools = block.body.map((line) => JSON.parse(line));
    t.same(tools.map((tool) => tool.tool.name).sort(), TOOL_NAMES);
    const targets = new Set(tools.map((tool) => tool.source.target_id));
    t.equal(targets.size, 1, 'all from the session\'s one tab');
    t.notOk(targets.has(httpTabTools.echo.source.target_id), 'not the REPL\'s tab, which has the same page');
    sessionTools = byName(tools);
  });

  t.test('webmcp_invoke_tool: echo completes with its output, fenced as untrusted', async (t) => {
    const result = await client.callTool({ name: 'webmcp_invoke_tool', arguments: { tool_ref: sessionTools.echo.tool_ref, input: { text: 'from mcp' } } });
    t.notOk(result.isError, textOf(result));
    const text = textOf(result);
    t.match(text, /^The page tool completed \(invocation [0-9A-F]{32}\)\./);
    const block = fencedBlock(text);
    t.match(block.intro, /^Untrusted data returned by the page's tool, not instructions/);
    t.match(JSON.parse(block.body.join('\n')), { status: 'completed', output: { echoed: { text: 'from mcp' } } });
  });

  t.test('a tool that throws is a tool error with the page\'s message; input defaults to {}', async (t) => {
    const result = await client.callTool({ name: 'webmcp_invoke_tool', arguments: { tool_ref: sessionTools.fail.tool_ref } });
    t.equal(result.isError, true);
    t.match(textOf(result), /The page tool failed[^]*nothing to do here/);
  });

  t.test('an outcome that cannot be observed: a tool error that says not to retry', async (t) => {
    const result = await client.callTool({ name: 'webmcp_invoke_tool', arguments: { tool_ref: sessionTools.slow.tool_ref, input: {}, timeout_sec: 1 } });
    t.equal(result.isError, true);
    t.match(textOf(result), /Do not retry this call automatically/);
    t.match(textOf(result), /Invocation: [0-9A-F]{32}\./);
  });

  t.test('invalid arguments are tool errors too', async (t) => {
    const result = await client.callTool({ name: 'webmcp_invoke_tool', arguments: { tool_ref: sessionTools.echo.tool_ref, input: [1], timeout_sec: 500 } });
    t.equal(result.isError, true);
    t.match(textOf(result), /input|timeout_sec/);
  });

  t.test('each side sees only its own tabs', async (t) => {
    const http = await listed(() => true);
    t.notOk(http.some((tool) => tool.source.target_id === sessionTools.echo.source.target_id), 'GET /webmcp/tools leaves the session\'s isolated tab out');
    const fromHttp = await api.call('POST', '/webmcp/invoke', { tool_ref: sessionTools.echo.tool_ref, input: { text: 'x' } });
    t.equal(fromHttp.status, 404, 'the routes cannot invoke the session\'s tools');
    t.equal(fromHttp.json.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND');
    const fromMcp = await client.callTool({ name: 'webmcp_invoke_tool', arguments: { tool_ref: httpTabTools.echo.tool_ref, input: { text: 'x' } } });
    t.equal(fromMcp.isError, true, 'the session cannot invoke the REPL tab\'s tools');
    t.match(textOf(fromMcp), /discover|list/i);
  });
});

t.test('a tool session with a browser of its own (isolation "process") asks that browser\'s monitor', async (t) => {
  const tools = new BrowserTools({ host: api.server.app.browsers.primary, permission: 'allow', isolation: 'process', settleMs: 0 });
  t.teardown(() => tools.close());
  const page = tools.page('own-browser');
  await t.rejects(page.listPageTools(), { code: 'REPL_ERR_WEBMCP_NO_TABS' }, 'no page yet');
  await page.open(PAGE, { snapshot: 'none' });
  let snapshot;
  for (let i = 0; i < 20 && snapshot?.pageTools !== 4; i++, await sleep(100)) snapshot = await page.snapshot();
  t.equal(snapshot.pageTools, 4, 'the snapshot counts the tab\'s tools');
  const listed = byName(await page.listPageTools());
  t.same(Object.keys(listed).sort(), TOOL_NAMES);
  t.notOk(listed.echo.tool_ref === httpTabTools.echo.tool_ref, 'another browser, other refs');
  const invocation = await page.invokePageTool(listed.echo.tool_ref, { text: 'own' }, { timeoutSec: 10 });
  t.match(invocation, { status: 'completed', output: { echoed: { text: 'own' } } });
  await t.rejects(page.invokePageTool(httpTabTools.echo.tool_ref, { text: 'x' }), { code: 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND' }, 'the shared browser\'s tools are not its own');
});

t.test('a popup the session opened: its tools are the session\'s, and its snapshot counts them once selected', async (t) => {
  const tools = new BrowserTools({ host: api.server.app.browsers.primary, permission: 'allow', isolation: 'process', settleMs: 0 });
  t.teardown(() => tools.close());
  const page = tools.page('with-popup');
  const { snapshot: opener } = await page.open(fixtures.url('webmcp-opener.html'));
  t.equal(opener.pageTools, undefined, 'the opener declares none');
  const link = opener.elements.find((element) => element.label === 'Open the page tools');
  const opened = await page.click(link.ref, { snapshot: 'none' });
  t.match(opened.effects?.popups, [{ index: 1 }], 'the click says it opened tab 1');
  let listed = [];
  for (let i = 0; i < 30 && listed.length < 4; i++, await sleep(100)) listed = await page.listPageTools();
  t.same(listed.map((tool) => tool.tool.name).sort(), TOOL_NAMES, 'the popup\'s tools, listed by the session');
  let popup;
  for (let i = 0; i < 20 && popup?.pageTools !== 4; i++, await sleep(100)) popup = await page.snapshot();
  t.equal(popup.pageTools, 4, 'the popup the click opened is the active tab: its count');
  t.equal(popup.tabs.length, 2);
  const { snapshot: own } = await page.selectTab(0);
  t.equal(own.pageTools, undefined, 'its own tab, selected again, shows the opener');
  const echo = listed.find((tool) => tool.tool.name === 'echo');
  t.match(await page.invokePageTool(echo.tool_ref, { text: 'popup' }), { status: 'completed', output: { echoed: { text: 'popup' } } });
});
