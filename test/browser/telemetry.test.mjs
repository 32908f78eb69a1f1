// Telemetry and logs (docs/telemetry.md) against a real headless Chromium, through the official
// @onkernel/sdk unchanged: a browser created with the CDP categories on reports a fixture page's
// console line, its fetch (with the JSON body) and its navigation on the SSE stream; a reconnect
// with Last-Event-ID resumes with the next seq, losing and repeating nothing; the history pages;
// logs.stream follows a file the test appends to and refuses a relative path; turning telemetry
// off on update stops the collector and the events.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 2 });
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });
const folder = mkdtempSync(join(tmpdir(), 'browser-repl-telemetry-'));
t.teardown(() => rmSync(folder, { recursive: true, force: true }));

/** Reads `stream` until `done(received)` holds or `ms` passed, then closes it; returns what arrived. */
async function collect(stream, done, ms = 15_000) {
  const received = [];
  const timer = setTimeout(() => stream.controller.abort(), ms);
  try {
    for await (const item of stream) {
      received.push(item);
      if (done(received)) break;
    }
  } finally {
    clearTimeout(timer);
    stream.controller.abort();
  }
  return received;
}

const consoleText = (envelope) => (envelope.event.type === 'console_log' ? envelope.event.data?.text : undefined);
const consecutive = (envelopes) => envelopes.every((envelope, index) => index === 0 || envelope.seq === envelopes[index - 1].seq + 1);

const created = await kernel.browsers.create({
  timeout_seconds: 120,
  telemetry: { browser: { console: { enabled: true }, network: { enabled: true }, page: { enabled: true } } },
});
t.teardown(() => kernel.browsers.deleteByID(created.session_id).catch(() => undefined));
const id = created.session_id;
const telemetry = api.server.app.browsers.get(id).telemetry;

t.test('create reports the configuration and starts the collector', async (t) => {
  t.match(created.telemetry, { browser: { console: { enabled: true }, network: { enabled: true }, page: { enabled: true }, interaction: { enabled: false } } });
  t.equal(telemetry.collecting, true, 'a CDP category on: the collector runs');
  await telemetry.started();
});

let lastSeq = 0;
t.test('a page\'s console line, fetch and navigation arrive on the stream', async (t) => {
  const stream = await kernel.browsers.telemetry.stream(id);
  const reading = collect(stream, (got) => got.some((e) => consoleText(e) === 'fetched')
    && got.some((e) => e.event.type === 'network_response' && e.event.data?.url?.endsWith('/telemetry-data.json')));
  // The stream has its headers once the promise resolved: what the page does now is seen.
  const executed = await kernel.browsers.playwright.execute(id, { code: `await page.goto(${JSON.stringify(fixtures.url('telemetry.html'))}); return page.title();` });
  t.equal(executed.success, true, 'the cell navigated');
  const got = await reading;
  t.ok(consecutive(got), 'seqs increase by one');
  const marker = got.find((e) => consoleText(e) === 'marker');
  t.match(marker?.event, { category: 'console', type: 'console_log', source: { kind: 'cdp', event: 'Runtime.consoleAPICalled' }, data: { level: 'log', args: ['marker', '42'] } }, 'console.log');
  t.type(marker?.event.ts, 'number');
  const request = got.find((e) => e.event.type === 'network_request' && e.event.data?.url?.endsWith('/telemetry-data.json'));
  t.match(request?.event.data, { method: 'GET', resource_type: 'Fetch' }, 'the fetch, requested');
  const response = got.find((e) => e.event.type === 'network_response' && e.event.data?.url?.endsWith('/telemetry-data.json'));
  t.match(response?.event.data, { status: 200, mime_type: 'application/json', request_id: request?.event.data.request_id }, 'and answered');
  t.match(JSON.parse(response?.event.data.body ?? 'null'), { fixture: 'telemetry-data' }, 'with its (bounded) body');
  t.ok(got.some((e) => e.event.type === 'page_navigation' && e.event.data?.url?.endsWith('/telemetry.html')), 'the navigation');
  lastSeq = got.at(-1).seq;
});

t.test('Last-Event-ID resumes without loss or duplicates', async (t) => {
  // Events happen while nobody listens.
  const executed = await kernel.browsers.playwright.execute(id, { code: 'await page.evaluate(() => { console.log("gap-1"); console.log("gap-2"); }); return 1;' });
  t.equal(executed.success, true);
  const stream = await kernel.browsers.telemetry.stream(id, { 'Last-Event-ID': String(lastSeq) });
  const got = await collect(stream, (received) => received.some((e) => consoleText(e) === 'gap-2'));
  t.equal(got[0]?.seq, lastSeq + 1, 'the first event is the one after Last-Event-ID');
  t.ok(consecutive(got), 'no gap, no repeat');
  t.ok(got.some((e) => consoleText(e) === 'gap-1'), 'what happened while disconnected arrives');
  // replay=all starts at the oldest retained event.
  const replayed = await collect(await kernel.browsers.telemetry.stream(id, { replay: 'all' }), (received) => received.length >= 3);
  t.equal(replayed[0]?.seq, 1, 'replay=all starts at seq 1 (nothing evicted yet)');
});

t.test('the history pages with X-Next-Offset', async (t) => {
  const first = await kernel.browsers.telemetry.events(id, { limit: 3 });
  const items = first.getPaginatedItems();
  t.same(items.map((e) => e.seq), [1, 2, 3], 'the first page, oldest first');
  t.ok(first.hasNextPage(), 'says there is more');
  const all = [];
  for await (const envelope of kernel.browsers.telemetry.events(id, { limit: 4 })) all.push(envelope);
  t.equal(all.length, telemetry.ring.size, 'auto-paging reads every retained event');
  t.ok(consecutive(all), 'once each, in order');
  const consoleOnly = await kernel.browsers.telemetry.events(id, { limit: 1000, category: ['console'] });
  t.ok(consoleOnly.getPaginatedItems().every((e) => e.event.category === 'console'), 'the category filter');
  const newest = await kernel.browsers.telemetry.events(id, { limit: 2, order: 'desc' });
  t.same(newest.getPaginatedItems().map((e) => e.seq), [telemetry.ring.nextSeq - 1, telemetry.ring.nextSeq - 2], 'order=desc: newest first');
  await t.rejects(kernel.browsers.telemetry.events(id, { order: 'desc', since: '1m' }), { status: 400 }, 'desc with since is refused');
});

t.test('logs.stream follows a file and refuses a relative path', async (t) => {
  const file = join(folder, 'app.log');
  writeFileSync(file, 'old line\n');
  const stream = await kernel.browsers.logs.stream(id, { source: 'path', path: file, follow: true });
  const reading = collect(stream, (got) => got.some((line) => line.message === 'new line'));
  await sleep(100);
  appendFileSync(file, 'new line\n');
  const got = await reading;
  t.same(got.map((line) => line.message), ['old line', 'new line'], 'tail -f: the last lines, then the appended one');
  t.match(got[1], { event: 'log', timestamp: String });
  await t.rejects(kernel.browsers.logs.stream(id, { source: 'path', path: 'relative.log' }), { status: 400 }, 'a relative path: 400');
  await t.rejects(kernel.browsers.logs.stream(id, { source: 'path', path: join(folder, 'missing.log') }), { status: 404 }, 'a missing file: 404');
  const own = await collect(await kernel.browsers.logs.stream(id, { source: 'supervisor', supervisor_process: 'api', follow: false }), () => false);
  t.ok(own.some((line) => /playwright execute on executor .* finished/.test(line.message)), 'the server\'s own log has the executor calls');
});

t.test('update merges interaction in: a click and a key arrive', async (t) => {
  const updated = await kernel.browsers.update(id, { telemetry: { browser: { interaction: { enabled: true } } } });
  t.match(updated.telemetry?.browser, { console: { enabled: true }, interaction: { enabled: true } }, 'merged onto the current set');
  await telemetry.started();
  const stream = await kernel.browsers.telemetry.stream(id);
  const reading = collect(stream, (got) => got.some((e) => e.event.type === 'interaction_key'));
  const executed = await kernel.browsers.playwright.execute(id, { code: 'await page.click("#go"); await page.keyboard.press("x"); return 1;' });
  t.equal(executed.success, true);
  const got = await reading;
  t.match(got.find((e) => e.event.type === 'interaction_click')?.event, { category: 'interaction', data: { selector: '#go', tag: 'BUTTON', text: 'go' } }, 'the click');
  t.match(got.find((e) => e.event.type === 'interaction_key')?.event.data, { key: 'x' }, 'the key');
});

t.test('update: bad telemetry is refused naming the field; enabled: false stops the events', async (t) => {
  await t.rejects(kernel.browsers.update(id, { telemetry: { browser: { screenshot: { enabled: true } } } }), { status: 400, message: /telemetry\.browser\.screenshot/ });
  await t.rejects(kernel.browsers.update(id, { telemetry: { enabled: false, browser: { console: { enabled: true } } } }), { status: 400, message: /telemetry/ });
  const updated = await kernel.browsers.update(id, { telemetry: { enabled: false } });
  t.equal(updated.telemetry, undefined, 'no active configuration');
  t.equal(telemetry.collecting, false, 'the collector stopped');
  const before = telemetry.ring.nextSeq;
  const executed = await kernel.browsers.playwright.execute(id, { code: 'await page.evaluate(() => console.log("after-off")); await page.reload(); return 1;' });
  t.equal(executed.success, true);
  await sleep(300);
  t.equal(telemetry.ring.nextSeq, before, 'no event after telemetry was turned off');
});

t.test('delete ends the open stream', async (t) => {
  const stream = await kernel.browsers.telemetry.stream(id);
  const reading = collect(stream, () => false, 15_000);
  await kernel.browsers.deleteByID(id);
  const started = Date.now();
  await reading;
  t.ok(Date.now() - started < 14_000, 'the stream ended with its browser');
});
