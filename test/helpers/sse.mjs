// A minimal Server-Sent-Events client for the streaming tests: node:http on a socket of its own
// (agent: false), so that destroy() really closes the connection, and a parser for the events
// our server sends (id, event, one JSON data line; `:` comments counted).
import http from 'node:http';

/**
 * POSTs `body` as JSON with `Accept: text/event-stream` and resolves once the answer's headers
 * arrived: `{status, headers, localPort, next(), rest(), text(), destroy()}`.
 */
export function openStream(baseUrl, path, body, { accept = 'text/event-stream' } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      response.setEncoding('utf8');
      const iterator = events(response);
      resolve({
        status: response.statusCode,
        headers: response.headers,
        localPort: request.socket.localPort,
        comments: () => iterator.comments,
        /** The next event, or undefined when the stream ended. */
        async next() {
          const { value, done } = await iterator.next();
          return done ? undefined : value;
        },
        /** Every remaining event, until the server ends the stream. */
        async rest() {
          const all = [];
          for (let event = await this.next(); event !== undefined; event = await this.next()) all.push(event);
          return all;
        },
        /** Closes the connection from the client side. */
        destroy() {
          request.destroy();
        },
      });
    });
    request.end(JSON.stringify(body));
  });
}

/** An async iterator of `{id, event, data}` (data parsed as JSON); `comments` counts `:` lines. */
function events(response) {
  const generator = (async function* read() {
    let buffer = '';
    for await (const chunk of response) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            generator.comments += 1;
            continue;
          }
          const colon = line.indexOf(':');
          if (line.slice(0, colon) in fields) throw new Error(`field repeated in one event: ${block}`);
          fields[line.slice(0, colon)] = line.slice(colon + 2);
        }
        if (fields.data === undefined) continue;
        yield { id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data) };
      }
    }
    if (buffer !== '') throw new Error(`stream ended inside an event: ${JSON.stringify(buffer.slice(0, 200))}`);
  })();
  generator.comments = 0;
  return generator;
}

/**
 * Calls `onSocket(socket)` for the server side of every connection `server` accepts, keyed by
 * the client's port: `closed(localPort)` resolves once the server saw that client's socket close.
 */
export function serverSockets(server) {
  const sockets = new Map();
  server.on('connection', (socket) => sockets.set(socket.remotePort, socket));
  return {
    closed(clientPort) {
      const socket = sockets.get(clientPort);
      if (socket === undefined) throw new Error(`no server socket for client port ${clientPort}`);
      if (socket.destroyed) return Promise.resolve();
      return new Promise((resolve) => socket.once('close', resolve));
    },
  };
}

/** The headers every event stream answers with (lib/http/sse.ts). */
export function assertStreamHeaders(t, stream) {
  t.equal(stream.status, 200);
  t.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
  t.equal(stream.headers['cache-control'], 'no-cache');
  t.equal(stream.headers['x-accel-buffering'], 'no');
  t.equal(stream.headers['x-should-retry'], 'false');
}
