// The MCP server (lib/mcp, docs/mcp.md), driven only through an @modelcontextprotocol/sdk Client:
// over stdio (`chromium-repl mcp` as a child process) and over streamable HTTP (`/mcp` of a real
// server on 127.0.0.1:0 with a token), against a real headless Chromium and a fixture page on
// loopback. Covers the tool flow (open → snapshot → type → click → find → browser_repl →
// execute_playwright_code), screenshots read back as resources, approval through elicitation,
// and the HTTP refusals (token, bad JSON, unknown session).
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer } from '../../dist/lib/index.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { imageFormat } from '../helpers/images.mjs';

t.setTimeout(300_000);

const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));
const TOKEN = 'mcp-test-token';
const TOOL_NAMES = [
  'browser_open', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_scroll', 'browser_wait_for', 'browser_back',
  'browser_press_key', 'browser_select_option', 'browser_file_upload', 'browser_handle_dialog', 'browser_find', 'browser_tabs',
  'browser_screenshot', 'browser_downloads', 'browser_export_script', 'browser_close', 'webmcp_list_tools', 'webmcp_invoke_tool', 'browser_live_view',
  'browser_request_human', 'browser_repl',
  'execute_playwright_code',
];
// A 1×1 PNG, for the image content of a cell.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const PAGE = fixtures.url('mcp-page.html');

/** The environment of a child server: the launched browser is found as the tests find it, never attached. */
function childEnv() {
  const env = { ...process.env };
  for (const name of ['CDP_ENDPOINT', 'BROWSER_REPL_TOKEN', 'BROWSER_REPL_TOOLS_PERMISSION', 'PORT', 'HOST']) delete env[name];
  return env;
}

const textOf = (result) => result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');

async function ok(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}

/** The ref of the element whose rendered line (`[12] button "Greet"`) holds `label`. */
function refOf(text, label) {
  const line = text.split('\n').find((candidate) => /^\[\d+\]/.test(candidate) && candidate.includes(label));
  if (line === undefined) throw new Error(`no element line with ${JSON.stringify(label)} in:\n${text}`);
  return Number(/^\[(\d+)\]/.exec(line)[1]);
}

/** A server on 127.0.0.1:0 with a token; `tools` are its AppOptions.tools. */
async function httpServer(t, tools = { permission: 'allow' }) {
  const server = await startServer({ port: 0, host: '127.0.0.1', token: TOKEN, tools, mcpCaps: ['code'], primaryBrowser: { browser: { cdpEndpoint: null } } });
  t.teardown(() => server.close());
  return server;
}

/** A client over streamable HTTP, closed (its session deleted) on teardown. */
async function httpClient(t, server, { capabilities = {}, onElicit } = {}) {
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' }, { capabilities });
  if (onElicit !== undefined) client.setRequestHandler(ElicitRequestSchema, onElicit);
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  t.teardown(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });
  return { client, transport };
}

/** Waits (up to 5 s) for a condition that a notification makes true. */
async function until(condition) {
  for (let i = 0; i < 50 && !condition(); i += 1) await sleep(100);
}

/** The whole tool flow, the same over both transports. */
async function driveTools(t, client) {
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort(), 'tools/list names every tool');
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  t.equal(byName.browser_snapshot.annotations.readOnlyHint, true, 'browser_snapshot is read-only');
  t.equal(byName.browser_close.annotations.destructiveHint, true, 'browser_close is destructive');
  t.equal(byName.browser_open.annotations.openWorldHint, true, 'browser_open reaches the web');
  t.same(byName.browser_click.inputSchema.required, ['ref'], 'snake_case schema with ref required');
  t.ok(byName.browser_click.inputSchema.properties.double_click, 'double_click argument');

  const opened = await ok(client, 'browser_open', { url: PAGE });
  t.match(textOf(opened), /MCP fixture/, 'browser_open answers with the page');

  const snapshot = textOf(await ok(client, 'browser_snapshot', {}));
  t.match(snapshot, /Nobody greeted yet/, 'the snapshot holds the visible text');
  const nameRef = refOf(snapshot, 'Your name');
  const greetRef = refOf(snapshot, 'Greet');

  const typed = await ok(client, 'browser_type', { ref: nameRef, text: 'Ada' });
  t.match(textOf(typed), /Ada/, 'browser_type reports the new value');
  const clicked = await ok(client, 'browser_click', { ref: greetRef });
  t.match(textOf(clicked), /Hello, Ada!/, 'the click\'s diff shows the new text');

  const found = await ok(client, 'browser_find', { query: 'hello, ada' });
  t.match(textOf(found), /Hello, Ada!/, 'browser_find finds the text');
  const regex = await ok(client, 'browser_find', { query: 'count\\s+clicks', regex: true, flags: 'i' });
  t.match(textOf(regex), /Count clicks/, 'browser_find with a regular expression');
  const badRegex = await client.callTool({ name: 'browser_find', arguments: { query: '(', regex: true } });
  t.equal(badRegex.isError, true, 'an invalid regular expression is a tool error');

  const stale = await client.callTool({ name: 'browser_click', arguments: { ref: 99999 } });
  t.equal(stale.isError, true, 'an unknown ref is a tool error, not a protocol error');
  t.ok(textOf(stale).length > 0, 'with a message the model reads');

  const cell = await ok(client, 'browser_repl', { code: `repl.write(String(6 * 7)); await repl.emitImage(Buffer.from('${PIXEL_PNG}', 'base64')); console.log('after')` });
  t.same(cell.content.map((item) => item.type), ['text', 'image', 'text'], 'the cell\'s content in order');
  t.equal(cell.content[0].text, '42');
  t.equal(cell.content[1].mimeType, 'image/png');
  t.equal(imageFormat(Buffer.from(cell.content[1].data, 'base64')), 'png', 'image content is base64 PNG');
  t.match(cell.content[2].text, /after/);
  await ok(client, 'browser_repl', { code: 'globalThis.kept = 7; var answer = 41' });
  t.match(textOf(await ok(client, 'browser_repl', { code: 'repl.write(String(answer + 1))' })), /42/, 'bindings persist in the session\'s REPL');
  t.match(textOf(await ok(client, 'browser_repl', { code: 'repl.write((await pageInfo()).url)' })), /mcp-page\.html/, 'the cell sees the page the tools opened');
  const thrown = await client.callTool({ name: 'browser_repl', arguments: { code: 'repl.write("before"); throw new Error("boom in a cell")' } });
  t.equal(thrown.isError, true, 'a failed cell is a tool error');
  t.match(textOf(thrown), /before[\s\S]*boom in a cell/, 'with its output, then the error');

  const executed = await ok(client, 'execute_playwright_code', { code: 'console.log("from playwright"); return { sum: 6 * 7 };' });
  t.match(textOf(executed), /"sum": 42/, 'the returned value as JSON');
  t.match(textOf(executed), /stdout:\nfrom playwright/, 'and the console output');
  const failed = await client.callTool({ name: 'execute_playwright_code', arguments: { code: 'throw new Error("playwright boom")' } });
  t.equal(failed.isError, true);
  t.match(textOf(failed), /playwright boom/);

  let listChanges = 0;
  const updates = [];
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { listChanges += 1; });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => { updates.push(notification.params.uri); });
  const shot = await ok(client, 'browser_screenshot', { include_image: true });
  const link = shot.content.find((item) => item.type === 'resource_link');
  t.ok(link, 'the screenshot result links the file');
  t.match(link.uri, /^browser-repl:\/\/workspace\/screenshots\//);
  t.equal(link.mimeType, 'image/png');
  t.match(textOf(shot), /bytes/, 'and says how large it is');
  const image = shot.content.find((item) => item.type === 'image');
  t.equal(imageFormat(Buffer.from(image.data, 'base64')), 'png', 'include_image returns the image too');

  const { resources } = await client.listResources();
  t.ok(resources.some((resource) => resource.uri === link.uri), 'resources/list lists the screenshot');
  const read = await client.readResource({ uri: link.uri });
  t.equal(read.contents[0].mimeType, 'image/png');
  const bytes = Buffer.from(read.contents[0].blob, 'base64');
  t.equal(imageFormat(bytes), 'png', 'the resource\'s bytes are a PNG');
  t.equal(bytes.length, link.size, 'as large as the link says');
  await t.rejects(client.readResource({ uri: 'browser-repl://workspace/..%2F..%2F..%2Fetc%2Fpasswd' }), /outside the session's workspace/, 'a path escaping the workspace is refused');
  await t.rejects(client.readResource({ uri: 'browser-repl://workspace/screenshots/none.png' }), /no file/, 'a missing file is not found');
  await until(() => listChanges > 0);
  t.ok(listChanges > 0, 'the new file was announced (resources/list_changed)');
  await client.subscribeResource({ uri: link.uri });
  await ok(client, 'browser_screenshot', { path: link.name, full_page: true });
  await until(() => updates.includes(link.uri));
  t.ok(updates.includes(link.uri), 'overwriting a subscribed file sends resources/updated');
  await client.unsubscribeResource({ uri: link.uri });
  await t.rejects(client.subscribeResource({ uri: 'file:///etc/passwd' }), /only browser-repl:\/\/workspace/, 'only workspace URIs can be subscribed to');
  const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'browser-repl://workspace/{+path}' }, argument: { name: 'path', value: 'screen' } });
  t.ok(completion.completion.values.includes(link.name), 'completion suggests workspace paths');
  const { resourceTemplates } = await client.listResourceTemplates();
  t.same(resourceTemplates.map((template) => template.uriTemplate), ['browser-repl://workspace/{+path}']);

  const tabs = await ok(client, 'browser_tabs', { action: 'list' });
  t.match(textOf(tabs), /MCP fixture/, 'browser_tabs lists the tab');
  const missingIndex = await client.callTool({ name: 'browser_tabs', arguments: { action: 'select' } });
  t.equal(missingIndex.isError, true, 'select without an index is a tool error');
  await ok(client, 'browser_close', {});
}

/** The other page tools: select, keys, scroll, wait, a dialog, back, downloads. */
async function driveMoreTools(t, client) {
  const page = textOf(await ok(client, 'browser_open', { url: PAGE, snapshot: 'full' }));
  const selected = await ok(client, 'browser_select_option', { ref: refOf(page, 'Colour'), values: ['blue'] });
  t.match(textOf(selected), /Blue/, 'browser_select_option chooses the option');
  await ok(client, 'browser_press_key', { key: 'Tab' });
  await ok(client, 'browser_scroll', { pixels: 200, snapshot: 'none' });
  const waited = await ok(client, 'browser_wait_for', { text: 'not asked', timeout_ms: 5000 });
  t.ok(textOf(waited).length > 0, 'browser_wait_for answers');
  const timedOut = await client.callTool({ name: 'browser_wait_for', arguments: { text: 'never on this page', timeout_ms: 500 } });
  t.equal(timedOut.isError, true, 'a wait that times out is a tool error');
  const asked = await client.callTool({ name: 'browser_click', arguments: { ref: refOf(page, 'Ask first') } });
  t.match(textOf(asked), /Proceed\?/, 'the dialog the click opened is reported');
  const answered = await ok(client, 'browser_handle_dialog', { accept: true });
  t.match(textOf(answered), /confirmed/, 'browser_handle_dialog accepts it');
  await ok(client, 'browser_click', { ref: refOf(page, 'Basic page') });
  t.match(textOf(await ok(client, 'browser_snapshot', {})), /Basic fixture/, 'the link navigated');
  const back = await ok(client, 'browser_back', {});
  t.match(textOf(back), /MCP fixture/, 'browser_back returns');
  t.match(textOf(await ok(client, 'browser_downloads', {})), /no downloads yet/);
}

t.test('over streamable HTTP (/mcp of the server, with a token)', async (t) => {
  const server = await httpServer(t);
  const { client, transport } = await httpClient(t, server);
  t.ok(transport.sessionId, 'the server gave a session id');
  t.equal(server.app.mcp.size, 1, 'one MCP session');
  await driveTools(t, client);
  await driveMoreTools(t, client);

  t.test('ending the session (DELETE) closes its tool session', async (t) => {
    const toolSessionId = server.app.mcp.toolSessionOf(transport.sessionId);
    t.ok(server.app.tools.sessionIds.includes(toolSessionId), 'the tool session exists while the MCP session does');
    await transport.terminateSession();
    t.equal(server.app.mcp.size, 0, 'no MCP session left');
    for (let i = 0; i < 50 && server.app.tools.sessionIds.includes(toolSessionId); i += 1) await sleep(100);
    t.notOk(server.app.tools.sessionIds.includes(toolSessionId), 'its tool session is closed');
  });
});

t.test('over stdio (chromium-repl mcp)', async (t) => {
  const workspace = await mkdtemp(join(tmpdir(), 'mcp-stdio-test-'));
  t.teardown(() => rm(workspace, { recursive: true, force: true }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', '--permission', 'allow', '--caps', 'code', '--workspace', workspace],
    env: childEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr += chunk; });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  t.ok(pid, 'the child runs');
  try {
    const info = client.getServerVersion();
    t.equal(info.name, 'chromium-repl', 'serverInfo names the package');
    await driveTools(t, client);
  } finally {
    await client.close();
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 100 && alive(); i += 1) await sleep(100);
  t.notOk(alive(), 'the child exits when the client closes stdin');
  t.notMatch(stderr, /Error:/, 'nothing failed on stderr');
});

t.test('permission "ask"', async (t) => {
  const server = await httpServer(t, { permission: 'ask' });

  t.test('a client with elicitation that declines: browser_open fails and the page is not opened', async (t) => {
    const asked = [];
    const { client } = await httpClient(t, server, {
      capabilities: { elicitation: {} },
      onElicit: (request) => {
        asked.push(request.params);
        return { action: 'decline' };
      },
    });
    const before = fixtures.requests.length;
    const result = await client.callTool({ name: 'browser_open', arguments: { url: fixtures.url('mcp-page.html?declined') } });
    t.equal(result.isError, true, 'browser_open is a tool error');
    t.match(textOf(result), /declined/, 'saying it was declined');
    t.equal(asked.length, 1, 'the client was asked once');
    t.match(asked[0].message, /mcp-page\.html\?declined/, 'about that URL');
    t.equal(asked[0].requestedSchema.properties.allow.type, 'boolean', 'with a boolean field');
    t.equal(fixtures.requests.length, before, 'the fixture server saw no request');
    const snapshot = textOf(await ok(client, 'browser_snapshot', {}));
    t.notMatch(snapshot, /MCP fixture/, 'the page was not navigated');
  });

  t.test('a client with elicitation that accepts: the page opens', async (t) => {
    const { client } = await httpClient(t, server, {
      capabilities: { elicitation: {} },
      onElicit: () => ({ action: 'accept', content: { allow: true } }),
    });
    const result = await ok(client, 'browser_open', { url: PAGE });
    t.match(textOf(result), /MCP fixture/);
  });

  t.test('a client whose elicitation fails: refused, not opened', async (t) => {
    const { client } = await httpClient(t, server, {
      capabilities: { elicitation: {} },
      onElicit: () => {
        throw new Error('no user at the keyboard');
      },
    });
    const result = await client.callTool({ name: 'browser_open', arguments: { url: PAGE } });
    t.equal(result.isError, true);
    t.match(textOf(result), /asking the user to open .* failed .*no user at the keyboard.*the page was not opened/);
  });

  t.test('a client without elicitation: refused with how to allow', async (t) => {
    const { client } = await httpClient(t, server);
    const result = await client.callTool({ name: 'browser_open', arguments: { url: PAGE } });
    t.equal(result.isError, true);
    t.match(textOf(result), /permission "allow"/, 'the message says how to allow');
  });
});

t.test('HTTP refusals of /mcp', async (t) => {
  const server = await httpServer(t);
  const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const post = async (body, headers = {}) => {
    const response = await request(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });
    const text = await response.body.text();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: response.statusCode, json, text, headers: response.headers };
  };

  for (const [name, headers] of [['missing', {}], ['wrong', { authorization: 'Bearer nope' }]]) {
    const answer = await post(initialize, headers);
    t.equal(answer.status, 401, `a ${name} token answers 401`);
    t.equal(answer.json?.code, 'REPL_ERR_UNAUTHORIZED', 'with the JSON error');
    const get = await request(`${server.url}/mcp`, { method: 'GET', headers });
    t.equal(get.statusCode, 401, `GET with a ${name} token answers 401`);
    t.equal((await get.body.json()).code, 'REPL_ERR_UNAUTHORIZED');
  }
  const auth = { authorization: `Bearer ${TOKEN}` };
  const bad = await post('{"jsonrpc": "2.0", "id": 1, "method": ', auth);
  t.equal(bad.status, 400, 'bad JSON answers 400');
  t.equal(bad.json?.error?.code, -32700, 'a JSON-RPC parse error');
  const noSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), auth);
  t.equal(noSession.status, 400, 'a request without a session answers 400');
  const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { ...auth, 'mcp-session-id': 'no-such-session' });
  t.equal(unknown.status, 404, 'an unknown session answers 404');
  t.equal(unknown.json?.error?.code, -32001);
  const deleted = await request(`${server.url}/mcp`, { method: 'DELETE', headers: auth });
  t.equal(deleted.statusCode, 400, 'DELETE without a session id answers 400');
  await deleted.body.text();
  const started = await post(initialize, auth);
  t.equal(started.status, 200, 'initialize with the token starts a session');
  t.ok(started.headers['mcp-session-id'], 'and names it');
  t.equal(server.app.mcp.size, 1);
  const ended = await request(`${server.url}/mcp`, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': started.headers['mcp-session-id'], 'mcp-protocol-version': '2025-06-18' } });
  t.equal(ended.statusCode, 200, 'DELETE ends it');
  await ended.body.text();
  t.equal(server.app.mcp.size, 0);
});
