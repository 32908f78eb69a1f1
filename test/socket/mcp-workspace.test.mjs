// `/mcp/workspace` (issue 25, docs/mcp.md "Files for the page"): the REST routes to an MCP
// session's workspace, for the client program beside its model: a file put there is listed, read
// back byte for byte, offered as an MCP resource of that session only, and deleted; a path that
// leads out, a missing or unknown session, a missing token answer a JSON 4xx naming the problem.
// A real server on 127.0.0.1 port 0 (no browser starts: no page tool is called) and two real MCP
// clients over streamable HTTP.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../../dist/lib/index.js';

const TOKEN = 'workspace-token';
const server = await startServer({ port: 0, host: '127.0.0.1', token: TOKEN, primaryBrowser: { browser: false } });
t.teardown(() => server.close());
const base = `http://127.0.0.1:${server.port}`;
const auth = { authorization: `Bearer ${TOKEN}` };

async function session(t) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } });
  const client = new Client({ name: 'workspace-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  return { client, id: transport.sessionId };
}

const file = (id, path, init = {}) => fetch(`${base}/mcp/workspace/file?path=${encodeURIComponent(path)}`, { ...init, headers: { ...auth, 'mcp-session-id': id, ...init.headers } });

t.test('a file put into a session\'s workspace is listed, read back, a resource of that session only, and deleted', async (t) => {
  const a = await session(t);
  const b = await session(t);
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 13) & 0xff));
  const put = await file(a.id, 'uploads/receipt.bin', { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
  t.equal(put.status, 201);
  t.same(await put.json(), { path: 'uploads/receipt.bin', bytes: 3000 });
  const listing = await (await fetch(`${base}/mcp/workspace`, { headers: { ...auth, 'mcp-session-id': a.id } })).json();
  t.match(listing, { files: [{ path: 'uploads/receipt.bin', bytes: 3000, mime_type: 'application/octet-stream' }] });
  t.same(Buffer.from(await (await file(a.id, 'uploads/receipt.bin')).arrayBuffer()), bytes, 'read back byte for byte');
  const resources = (await a.client.listResources()).resources.map((resource) => resource.name);
  t.same(resources, ['uploads/receipt.bin'], 'the session\'s model sees it as a resource');
  t.same((await b.client.listResources()).resources, [], 'another session does not');
  t.same((await (await fetch(`${base}/mcp/workspace`, { headers: { ...auth, 'mcp-session-id': b.id } })).json()).files, [], 'nor its workspace listing');
  t.equal((await file(b.id, 'uploads/receipt.bin')).status, 404, 'nor can it read the file');
  t.equal((await file(a.id, 'uploads/receipt.bin', { method: 'DELETE' })).status, 204);
  t.equal((await file(a.id, 'uploads/receipt.bin')).status, 404, 'deleted');
});

t.test('refusals are JSON 4xx that name the problem', async (t) => {
  const a = await session(t);
  const escape = await file(a.id, '../../../../etc/passwd');
  t.equal(escape.status, 400);
  t.match(await escape.json(), { code: 'REPL_ERR_PATH_OUTSIDE_WORKSPACE', message: /path "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" is outside the session's workspace/ });
  const absolute = await file(a.id, '/etc/passwd', { method: 'PUT', body: 'x' });
  t.equal(absolute.status, 400, 'an absolute path elsewhere');
  const noPath = await fetch(`${base}/mcp/workspace/file`, { headers: { ...auth, 'mcp-session-id': a.id } });
  t.equal(noPath.status, 400);
  t.match(await noPath.json(), { code: 'REPL_ERR_INVALID_REQUEST', message: /^path: / });
  const noSession = await fetch(`${base}/mcp/workspace`, { headers: auth });
  t.equal(noSession.status, 400);
  t.match(await noSession.json(), { code: 'REPL_ERR_INVALID_REQUEST', message: /^mcp-session-id: the header is required/ });
  const unknown = await fetch(`${base}/mcp/workspace`, { headers: { ...auth, 'mcp-session-id': 'no-such-session' } });
  t.equal(unknown.status, 404);
  t.match(await unknown.json(), { code: 'REPL_ERR_NOT_FOUND', message: /^mcp-session-id: no such MCP session/ });
  const noToken = await fetch(`${base}/mcp/workspace`, { headers: { 'mcp-session-id': a.id } });
  t.equal(noToken.status, 401);
  const folder = await file(a.id, 'uploads', { method: 'PUT', body: 'x' });
  t.equal(folder.status, 201, 'a file named like a folder that does not exist yet is a file');
  const isFolder = await file(a.id, 'uploads/x', { method: 'PUT', body: 'x' });
  t.equal(isFolder.status >= 400 && isFolder.status < 500, true, 'a path under a file is refused');
  // The server goes on serving, and the session too.
  t.equal((await fetch(`${base}/mcp/workspace`, { headers: { ...auth, 'mcp-session-id': a.id } })).status, 200);
});
