// WebSocketTransport and endpoint discovery over real loopback sockets (port 0), with `ws` as
// the peer: connect failures and timeouts, text/binary frames, close in both directions, and
// /json/version discovery with its fallbacks.
import t from 'tap';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { WebSocketServer } from 'ws';
import { WebSocketTransport } from '../../dist/common/cdp/transport.js';
import { parseEndpoint, resolveWebSocketUrl } from '../../dist/common/cdp/endpoint-discovery.js';
import { CdpConnection } from '../../dist/common/cdp/cdp-connection.js';

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

/** An HTTP server that also accepts WebSockets on /devtools/browser/test. */
async function devtoolsServer(t, { version = true } = {}) {
  const http = createServer((request, response) => {
    if (version && request.url === '/json/version') {
      const { port } = http.address();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Browser: 'Fake/1', webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/test` }));
      return;
    }
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http });
  const sockets = [];
  wss.on('connection', (socket, request) => {
    sockets.push({ socket, path: request.url });
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      socket.send(JSON.stringify({ id: frame.id, result: { echo: frame.method } }));
    });
  });
  const port = await listen(http);
  t.teardown(() => new Promise((resolve) => {
    for (const { socket } of sockets) socket.terminate();
    wss.close();
    http.closeAllConnections();
    http.close(() => resolve());
  }));
  return { port, sockets };
}

t.test('WebSocketTransport', async (t) => {
  t.test('connects, carries text frames both ways, ignores binary frames, and reports the peer closing', async (t) => {
    const { port, sockets } = await devtoolsServer(t);
    const transport = await WebSocketTransport.connect(`ws://127.0.0.1:${port}/devtools/browser/test`);
    const connection = new CdpConnection(transport);
    t.same(await connection.send('Browser.getVersion'), { echo: 'Browser.getVersion' });
    const received = [];
    transport.onmessage = (text) => received.push(text);
    sockets[0].socket.send(Buffer.from([1, 2, 3]), { binary: true });
    sockets[0].socket.send('{"method":"A.b","params":{}}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.same(received, ['{"method":"A.b","params":{}}']);

    const closed = new Promise((resolve) => {
      transport.onclose = resolve;
    });
    sockets[0].socket.close(1001, 'going away');
    t.match(await closed, { code: 1001, reason: 'going away' });
    t.throws(() => transport.send('{}'), /not open/);
  });

  t.test('close() from our side reports once and is idempotent', async (t) => {
    const { port } = await devtoolsServer(t);
    const transport = await WebSocketTransport.connect(`ws://127.0.0.1:${port}/devtools/browser/test`);
    let closes = 0;
    const closed = new Promise((resolve) => {
      transport.onclose = (info) => {
        closes++;
        resolve(info);
      };
    });
    transport.close();
    transport.close();
    t.equal((await closed).code, 1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.equal(closes, 1);
  });

  t.test('a refused connection rejects with REPL_ERR_CDP_CONNECT_FAILED', async (t) => {
    const server = createTcpServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    await t.rejects(WebSocketTransport.connect(`ws://127.0.0.1:${port}/devtools/browser/x`), {
      code: 'REPL_ERR_CDP_CONNECT_FAILED',
      message: new RegExp(`^Could not open the DevTools WebSocket ws://127\\.0\\.0\\.1:${port}/devtools/browser/x: .*ECONNREFUSED`),
    });
  });

  t.test('a non-WebSocket answer rejects with the HTTP status', async (t) => {
    const http = createServer((request, response) => response.writeHead(404).end());
    const plainPort = await listen(http);
    t.teardown(() => new Promise((resolve) => http.close(resolve)));
    await t.rejects(WebSocketTransport.connect(`ws://127.0.0.1:${plainPort}/nothing`), { code: 'REPL_ERR_CDP_CONNECT_FAILED', message: /404/ });
  });

  t.test('a peer that never completes the handshake times out', async (t) => {
    const held = [];
    const server = createTcpServer((socket) => held.push(socket));
    const port = await listen(server);
    t.teardown(() => new Promise((resolve) => {
      for (const socket of held) socket.destroy();
      server.close(resolve);
    }));
    await t.rejects(WebSocketTransport.connect(`ws://127.0.0.1:${port}/devtools/browser/x`, { timeoutMs: 100 }), {
      code: 'REPL_ERR_CDP_CONNECT_FAILED',
      message: /timed out after 100ms|Opening handshake has timed out/,
    });
  });

  t.test('an aborted connect rejects with REPL_ERR_ABORTED', async (t) => {
    const { port } = await devtoolsServer(t);
    await t.rejects(WebSocketTransport.connect(`ws://127.0.0.1:${port}/devtools/browser/test`, { signal: AbortSignal.abort() }), { code: 'REPL_ERR_ABORTED' });
  });
});

t.test('resolveWebSocketUrl', async (t) => {
  t.test('discovers webSocketDebuggerUrl through /json/version when the URL has no path', async (t) => {
    const { port } = await devtoolsServer(t);
    const expected = `ws://127.0.0.1:${port}/devtools/browser/test`;
    t.equal(await resolveWebSocketUrl(`http://127.0.0.1:${port}`), expected);
    t.equal(await resolveWebSocketUrl(`ws://127.0.0.1:${port}/`), expected);
  });

  t.test('uses a URL with a path as is (http becomes ws)', async (t) => {
    t.equal(await resolveWebSocketUrl('ws://127.0.0.1:1/devtools/browser/abc'), 'ws://127.0.0.1:1/devtools/browser/abc');
    t.equal(await resolveWebSocketUrl('http://127.0.0.1:1/devtools/browser/abc'), 'ws://127.0.0.1:1/devtools/browser/abc');
    t.equal(await resolveWebSocketUrl('https://h.example/devtools/browser/abc'), 'wss://h.example/devtools/browser/abc');
  });

  t.test('falls back to the endpoint itself when discovery fails', async (t) => {
    const { port } = await devtoolsServer(t, { version: false });
    t.equal(await resolveWebSocketUrl(`http://127.0.0.1:${port}`), `ws://127.0.0.1:${port}/`);
  });

  t.test('rejects what is not a ws/http URL', async (t) => {
    for (const bad of ['', 'localhost:9222', 'ftp://x/', 'file:///tmp/x']) {
      t.throws(() => parseEndpoint(bad), { code: 'REPL_ERR_CDP_CONNECT_FAILED', message: /CDP_ENDPOINT/ }, JSON.stringify(bad));
    }
  });
});
