// POST /repl with Accept: text/event-stream (issue 10, "Streaming"): events as the worker
// produces them, a client that disconnects without stopping its cell, GET /repl/results/{cell_id},
// and the JSON path unchanged. Real worker threads, real HTTP on loopback; no timing assertions:
// the order of events is made deterministic by cells that wait for a file the test creates.
import t from 'tap';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { EventStream } from '../../dist/lib/http/sse.js';
import { apiServer } from '../helpers/api-server.mjs';
import { openStream, serverSockets, assertStreamHeaders } from '../helpers/sse.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Smallest valid-looking PNG header: the sniffing only reads magic bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

const dir = mkdtempSync(join(tmpdir(), 'browser-repl-sse-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempPath = (name) => join(dir, `${files++}-${name}`);

/** Cell code that waits (polling every 20 ms) until `path` exists; block-scoped so it can run again. */
const waitForFile = (path) => `{ const fs = await import("node:fs"); while (!fs.existsSync(${JSON.stringify(path)})) await new Promise((r) => setTimeout(r, 20)); }`;

const api = await apiServer(t, { primaryBrowser: { browser: false } });
const sockets = serverSockets(api.server.server);

t.test('the first item arrives while the cell still runs', async (t) => {
  const gate = tempPath('gate');
  const stream = await openStream(api.url, '/repl', {
    code: `repl.write("first"); ${waitForFile(gate)} repl.write("second");`,
    timeout_sec: 20,
  });
  assertStreamHeaders(t, stream);

  const cell = await stream.next();
  t.equal(cell.event, 'cell');
  t.match(cell.data, { cell_id: UUID, repl: 'default' });
  t.same(Object.keys(cell.data).sort(), ['cell_id', 'repl', 'result_url']);
  t.equal(stream.headers['x-cell-id'], cell.data.cell_id);

  const first = await stream.next();
  t.same(first, { id: 2, event: 'content', data: { type: 'text', channel: 'write', text: 'first' } });
  // Only now may the cell go on: without streaming, this test would wait for the cell's timeout.
  writeFileSync(gate, '');
  const rest = await stream.rest();
  t.same(rest.map((event) => event.event), ['content', 'result']);
  t.same(rest[0].data, { type: 'text', channel: 'write', text: 'second' });
  t.same([cell, first, ...rest].map((event) => event.id), [1, 2, 3, 4], 'ids count up from 1');
  const result = rest[1].data;
  t.equal(result.success, true);
  t.same(result.content, [first.data, rest[0].data], 'the streamed items are the result\'s content');

  const again = await api.call('GET', `/repl/results/${cell.data.cell_id}`);
  t.equal(again.status, 200);
  t.same(again.json, result, 'the result can be fetched again');
});

t.test('a 2-second cell: its first item arrives while the REPL is busy', async (t) => {
  const stream = await openStream(api.url, '/repl', {
    code: 'repl.write("early"); await new Promise((r) => setTimeout(r, 2000)); repl.write("late");',
    timeout_sec: 20,
  });
  t.equal((await stream.next()).event, 'cell');
  const early = await stream.next();
  t.same(early.data, { type: 'text', channel: 'write', text: 'early' });
  const listing = await api.call('GET', '/repls');
  t.equal(listing.json.repls.find((repl) => repl.name === 'default').busy, true, 'the cell was still running when its first item arrived');
  const rest = await stream.rest();
  t.same(rest.map((event) => event.event), ['content', 'result'], 'the first content event came before the result');
  t.same(rest[1].data.content.map((item) => item.text), ['early', 'late']);
});

t.test('a client that disconnects mid-cell does not stop it, and loses nothing', async (t) => {
  const gate = tempPath('gate');
  const done = tempPath('done');
  const stream = await openStream(api.url, '/repl', {
    repl: 'walkaway',
    code: `repl.write("started"); ${waitForFile(gate)} var keptAfterDisconnect = 42;
      (await import("node:fs")).writeFileSync(${JSON.stringify(done)}, "ended"); repl.write("ended");`,
    timeout_sec: 20,
  });
  const cell = await stream.next();
  t.equal(cell.data.repl, 'walkaway');
  const { cell_id: cellId } = cell.data;
  t.same((await stream.next()).data.text, 'started');

  const running = await api.call('GET', `/repl/results/${cellId}`);
  t.equal(running.status, 202);
  t.same(running.json, { status: 'running', cell_id: cellId, result_url: `${api.url}/repl/results/${cellId}` });

  // The server must have seen the disconnect before the cell may finish.
  const closed = sockets.closed(stream.localPort);
  stream.destroy();
  await closed;
  writeFileSync(gate, '');

  // Queued behind the first cell of the same REPL: it answers once that one has ended.
  const next = await api.repl('repl.write(String(keptAfterDisconnect))', { repl: 'walkaway' });
  t.equal(next.success, true, next.error);
  t.same(next.content.map((item) => item.text), ['42'], 'the next cell sees the binding the disconnected cell set');
  t.ok(existsSync(done), 'the cell ran to its end');

  const fetched = await api.call('GET', `/repl/results/${cellId}`);
  t.equal(fetched.status, 200);
  t.equal(fetched.json.success, true);
  t.same(fetched.json.content.map((item) => item.text), ['started', 'ended']);
  t.notOk('repl_terminated' in fetched.json);
});

t.test('images are streamed in their wire form', async (t) => {
  const png = PNG.toString('base64');
  const stream = await openStream(api.url, '/repl', {
    code: `repl.write("before"); await repl.emitImage(Buffer.from(${JSON.stringify(PNG.toString('hex'))}, "hex")); repl.write("after");`,
  });
  const events = [await stream.next(), ...(await stream.rest())];
  t.same(events.map((event) => event.event), ['cell', 'content', 'content', 'content', 'result']);
  t.same(events[2].data, { type: 'image', mime_type: 'image/png', data_b64: png });
  t.same(events[4].data.content, events.slice(1, 4).map((event) => event.data));
});

t.test('output a limit drops is not streamed either', async (t) => {
  const stream = await openStream(api.url, '/repl', {
    code: 'repl.write("x".repeat(300 * 1024)); repl.write("dropped");',
  });
  const events = [await stream.next(), ...(await stream.rest())];
  t.same(events.map((event) => event.event), ['cell', 'content', 'result']);
  const result = events[2].data;
  t.equal(result.content_truncated, true);
  t.equal(events[1].data.text.length, 256 * 1024, 'the streamed item is cut like the final one');
  t.same(result.content, [events[1].data]);
});

t.test('validation errors before admission still answer JSON', async (t) => {
  const cases = [
    [{ code: 'repl.write(1)', timeout_sec: 0 }, 400, 'REPL_ERR_INVALID_REQUEST'],
    [{ code: '' }, 400, 'REPL_ERR_INVALID_REQUEST'],
    [{ code: 'x', bogus: 1 }, 400, 'REPL_ERR_INVALID_REQUEST'],
    [{ code: 'x', repl: 'no spaces' }, 400, 'REPL_ERR_INVALID_REQUEST'],
  ];
  for (const [body, status, code] of cases) {
    const stream = await openStream(api.url, '/repl', body);
    t.equal(stream.status, status, JSON.stringify(body));
    t.match(stream.headers['content-type'], /^application\/json/);
    t.notOk('x-cell-id' in stream.headers, 'a refused cell has no id');
    stream.destroy();
    // The body, read in full by the JSON client, with the same Accept header.
    const json = await api.call('POST', '/repl', body, { headers: { accept: 'text/event-stream' } });
    t.equal(json.status, status);
    t.equal(json.json.code, code);
    t.type(json.json.message, 'string');
  }
});

t.test('a host failure after the stream began is an error event', async (t) => {
  const gate = tempPath('gate');
  const first = await openStream(api.url, '/repl', { repl: 'doomed', code: `repl.write("holding"); ${waitForFile(gate)}`, timeout_sec: 20 });
  t.equal((await first.next()).event, 'cell');
  t.equal((await first.next()).data.text, 'holding', 'the first cell runs');
  const queued = await openStream(api.url, '/repl', { repl: 'doomed', code: 'repl.write("never")' });
  const cell = await queued.next();
  t.equal(cell.event, 'cell', 'the second cell is admitted and queued');
  // Deleting the REPL ends the running cell and fails the queued one with REPL_ERR_CLOSED.
  const deleted = await api.call('DELETE', '/repls/doomed');
  t.equal(deleted.status, 204);
  const rest = await queued.rest();
  t.same(rest.map((event) => event.event), ['error']);
  t.equal(rest[0].data.code, 'REPL_ERR_CLOSED');
  t.type(rest[0].data.message, 'string');
  const firstRest = await first.rest();
  t.equal(firstRest.at(-1).event, 'result');
  t.equal(firstRest.at(-1).data.repl_terminated, true);
  const fetched = await api.call('GET', `/repl/results/${cell.data.cell_id}`);
  t.equal(fetched.status, 503, 'the stored answer of a failed cell is its error');
  t.equal(fetched.json.code, 'REPL_ERR_CLOSED');
  writeFileSync(gate, '');
});

t.test('without the header nothing changes; JSON answers carry x-cell-id', async (t) => {
  const answer = await api.call('POST', '/repl', { code: 'repl.write("plain")' });
  t.equal(answer.status, 200);
  t.match(answer.headers['content-type'], /^application\/json/);
  t.same(Object.keys(answer.json), ['success', 'repl_id', 'content', 'content_truncated', 'duration_ms']);
  t.same(answer.json.content, [{ type: 'text', channel: 'write', text: 'plain' }]);
  t.notOk('x-should-retry' in answer.headers, 'a success may be retried, as before');
  t.match(answer.headers['x-cell-id'], UUID);
  const fetched = await api.call('GET', `/repl/results/${answer.headers['x-cell-id']}`);
  t.equal(fetched.status, 200);
  t.equal(fetched.text, answer.text, 'the stored result is the JSON answer');

  const accepted = await api.call('POST', '/repl', { code: 'repl.write("json")' }, { headers: { accept: 'application/json' } });
  t.match(accepted.headers['content-type'], /^application\/json/);
});

t.test('GET /repl/results/{cell_id} of an unknown cell is 404', async (t) => {
  const answer = await api.call('GET', '/repl/results/00000000-0000-4000-8000-000000000000');
  t.equal(answer.status, 404);
  t.equal(answer.json.code, 'REPL_ERR_NOT_FOUND');
});

t.test('EventStream: one-line data, keepalive comments while open, nothing after the end', async (t) => {
  const app = express();
  let stream;
  const opened = new Promise((resolve) => app.post('/s', (_req, res) => {
    // The route's 15 s keepalive, shortened through the test seam.
    stream = new EventStream(res, { keepaliveMs: 10 });
    stream.send('first', 'two\nlines');
    resolve();
  }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const client = await openStream(`http://127.0.0.1:${server.address().port}`, '/s', {});
  await opened;
  t.same(await client.next(), { id: 1, event: 'first', data: 'two\nlines' });
  // Reading on (for the next event) counts the comments that arrive meanwhile.
  const second = client.next();
  while (client.comments() === 0) await sleep(5);
  stream.send('second', 2);
  t.same(await second, { id: 2, event: 'second', data: 2 });
  stream.end();
  stream.end();
  t.equal(stream.connected, false);
  t.equal(await client.next(), undefined, 'the response ended');
});
