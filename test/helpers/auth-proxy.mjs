// A real authenticating forward proxy on 127.0.0.1 for the proxy tests (docs/browsers.md#proxies):
// plain HTTP in absolute form and CONNECT tunnels, Basic `Proxy-Authorization` required (407
// without the right credentials), and a record of every request it let through (`requests`:
// "GET http://host/path" or "CONNECT host:port") and of every one it refused (`refused`).
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

/**
 * @returns {Promise<{ port: number, requests: string[], refused: string[], close: () => Promise<void> }>}
 */
export async function startAuthProxy({ username, password }) {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const requests = [];
  const refused = [];
  const sockets = new Set();
  const server = createServer((req, res) => {
    if (req.headers['proxy-authorization'] !== expected) {
      refused.push(`${req.method} ${req.url}`);
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': '0' }).end();
      return;
    }
    requests.push(`${req.method} ${req.url}`);
    let target;
    try {
      target = new URL(req.url);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const outgoing = httpRequest({ host: target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    outgoing.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(outgoing);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  server.on('connect', (req, client, head) => {
    if (req.headers['proxy-authorization'] !== expected) {
      refused.push(`CONNECT ${req.url}`);
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    requests.push(`CONNECT ${req.url}`);
    const [host, port] = req.url.split(':');
    const target = connect({ host, port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    sockets.add(target);
    target.on('close', () => { sockets.delete(target); client.destroy(); });
    target.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.on('close', () => target.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    refused,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
