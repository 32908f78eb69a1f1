// Issue 27: an MCP client's notifications/cancelled for a running browser_repl call interrupts
// its cell with the cooperative mechanism of timeouts: the REPL and its bindings are kept, and the
// next call answers at once instead of waiting for the cancelled cell's timeout. Driven only
// through the official SDK client over streamable HTTP; the cell needs no browser.
import t from 'tap';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../../dist/lib/index.js';

const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, tools: { permission: 'allow' }, mcpCaps: ['code'], primaryBrowser: { browser: false } });
t.teardown(() => server.close());
const client = new Client({ name: 'mcp-cancel-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
await client.connect(transport);
t.teardown(async () => {
  await transport.terminateSession().catch(() => undefined);
  await client.close();
});
const textOf = (result) => result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');

// The cell tells the test it runs by calling this server: no guessing at time.
let reached;
const cellRunning = new Promise((resolve) => { reached = resolve; });
const beacon = createServer((_request, response) => {
  response.end('ok');
  reached();
});
beacon.listen(0, '127.0.0.1');
await once(beacon, 'listening');
t.teardown(() => new Promise((resolve) => beacon.close(resolve)));
const beaconUrl = `http://127.0.0.1:${beacon.address().port}/`;

t.test('notifications/cancelled interrupts the browser_repl cell; the REPL keeps its bindings', async (t) => {
  const first = await client.callTool({ name: 'browser_repl', arguments: { code: 'var taughtBeforeCancel = 41; repl.write(repl.id)' } });
  const replId = textOf(first);
  t.ok(replId.length > 0, 'the REPL answered its id');

  const controller = new AbortController();
  // timeout_sec 300: had the cancel not interrupted it, the next call would wait that long.
  const cancelled = client.callTool(
    { name: 'browser_repl', arguments: { code: `await fetch(${JSON.stringify(beaconUrl)}); while (true) {}`, timeout_sec: 300 } },
    undefined,
    { signal: controller.signal },
  );
  await cellRunning;
  controller.abort(new Error('the user cancelled'));
  await t.rejects(cancelled, 'the client gave up on the call');

  const next = await client.callTool({ name: 'browser_repl', arguments: { code: 'repl.write(`${taughtBeforeCancel + 1} ${repl.id}`)' } });
  t.notOk(next.isError, textOf(next));
  t.equal(textOf(next), `42 ${replId}`, 'same REPL, bindings kept: the cell was interrupted, not the REPL destroyed');
});
