// A raw HTTP/1.1 client for the hostile-input fuzzer: it writes exactly the bytes it is given
// (bad framing, invalid UTF-8, lying Content-Length, dripped bytes, early disconnects), which
// node:http and undici refuse to send, and reads the answer back from the socket by hand.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @typedef {object} RawRequest
 * @property {string} method
 * @property {string} target        request target, as sent (already %-encoded or deliberately not)
 * @property {Record<string, string|number>} [headers]
 * @property {Buffer|string} [body]
 * @property {'length'|'chunked'|'none'|'short'|'long'} [framing]  how the body is delimited:
 *   `short`/`long` declare fewer/more bytes than are sent
 * @property {number} [dripMs]      sleep between single bytes (a slow client)
 * @property {number} [cutAfter]    destroy the socket after this many request bytes (mid-request)
 * @property {boolean} [cutOnResponse] destroy the socket as soon as the first answer bytes arrive
 * @property {number} [streamMs]    for text/event-stream answers: read this long, then hang up
 */

/**
 * @typedef {object} RawResponse
 * @property {'answered'|'closed'|'cut'} outcome  `closed`: the server hung up without an answer
 * @property {number} [status]
 * @property {Record<string, string>} [headers]
 * @property {Buffer} [body]
 * @property {unknown} [json]       the parsed body, when it was JSON
 */

/** The bytes of one request, framed as asked. */
export function encodeRequest({ method, target, headers = {}, body, framing = body === undefined ? 'none' : 'length' }, host) {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  let framed = payload;
  if (framing === 'length') lines.push(`Content-Length: ${payload.length}`);
  if (framing === 'short') lines.push(`Content-Length: ${Math.max(0, payload.length - 1 - Math.floor(payload.length / 2))}`);
  if (framing === 'long') lines.push(`Content-Length: ${payload.length + 17}`);
  if (framing === 'chunked') {
    lines.push('Transfer-Encoding: chunked');
    // Odd chunk sizes on purpose: a parser that assumes one chunk per body would show it.
    const chunks = [];
    for (let offset = 0; offset < payload.length; offset += 7) {
      const part = payload.subarray(offset, offset + 7);
      chunks.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from('0\r\n\r\n'));
    framed = Buffer.concat(chunks);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), framed]);
}

/** Splits a raw answer into status, headers and (de-chunked) body. */
export function parseResponse(raw) {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const head = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
  if (status === null) return undefined;
  const headers = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  let json;
  if (/json/i.test(headers['content-type'] ?? '')) {
    try { json = JSON.parse(body.toString('utf8')); } catch { json = undefined; }
  }
  return { status: Number(status[1]), headers, body, json };
}

function dechunk(body) {
  const parts = [];
  let offset = 0;
  while (offset < body.length) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Sends one request on a fresh connection and resolves with what came back. Never rejects: a
 * reset or a silent hang-up is an outcome the caller judges. `deadlineMs` bounds the whole call,
 * so a server that never answers fails the property instead of hanging the test.
 * @param {{host: string, port: number}} address
 * @param {RawRequest} request
 * @returns {Promise<RawResponse>}
 */
export function sendRaw(address, request, { deadlineMs = 60_000 } = {}) {
  const bytes = encodeRequest(request, `${address.host}:${address.port}`);
  return new Promise((resolve) => {
    const socket = net.connect(address.port, address.host);
    const received = [];
    let settled = false;
    let streamTimer;
    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(streamTimer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(received));
      if (parsed === undefined) resolve({ outcome: outcome === 'timeout' ? 'timeout' : outcome === 'cut' ? 'cut' : 'closed' });
      else resolve({ outcome: outcome === 'timeout' ? 'timeout' : 'answered', ...parsed });
    };
    const deadline = setTimeout(() => finish('timeout'), deadlineMs);
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('data', (chunk) => {
      received.push(chunk);
      if (request.cutOnResponse) {
        finish('cut');
        return;
      }
      // An event stream may stay open (GET /mcp): read a while, then hang up like a client that has seen enough.
      if (streamTimer === undefined && /text\/event-stream/i.test(Buffer.concat(received).toString('latin1'))) {
        streamTimer = setTimeout(() => finish('answered'), request.streamMs ?? 10_000);
      }
    });
    socket.once('connect', async () => {
      const limit = request.cutAfter ?? bytes.length;
      if (request.dripMs === undefined) {
        socket.write(bytes.subarray(0, limit));
      } else {
        for (let index = 0; index < limit && !settled; index += 1) {
          socket.write(bytes.subarray(index, index + 1));
          await sleep(request.dripMs);
        }
      }
      if (request.cutAfter !== undefined) {
        // Give the server a moment to start on the partial request, then vanish.
        await sleep(5);
        finish('cut');
        return;
      }
      // Half-close only when a lying Content-Length promised more: otherwise the server would wait forever.
      if (request.framing === 'long') socket.end();
    });
  });
}
