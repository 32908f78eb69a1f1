// The telemetry ring and its resume rule (lib/telemetry/event-ring.ts), and the `telemetry`
// field's resolution (lib/telemetry/config.ts), both pure: docs/telemetry.md.
import t from 'tap';
import { EventRing, lastEventId, streamStart } from '../../dist/lib/telemetry/event-ring.js';
import { resolveTelemetry, telemetryWire, needsCollector } from '../../dist/lib/telemetry/config.js';

const seqs = (envelopes) => envelopes.map((envelope) => envelope.seq);

t.test('seqs start at 1, increase by one, and survive eviction', async (t) => {
  const ring = new EventRing({ maxEvents: 3 });
  t.equal(ring.firstSeq, 1);
  for (let i = 0; i < 5; i++) ring.push({ i });
  t.same(seqs(ring.all()), [3, 4, 5], 'the oldest were evicted');
  t.equal(ring.nextSeq, 6);
  t.equal(ring.firstSeq, 3);
});

t.test('after(seq) resumes without loss or duplicates while the seq is retained', async (t) => {
  const ring = new EventRing({ maxEvents: 100 });
  for (let i = 0; i < 10; i++) ring.push({ i });
  t.same(seqs(ring.after(4)), [5, 6, 7, 8, 9, 10]);
  t.same(seqs(ring.after(10)), [], 'nothing newer');
  t.same(seqs(ring.after(99)), [], 'a seq from the future: nothing (no replay from the start)');
  const small = new EventRing({ maxEvents: 3 });
  for (let i = 0; i < 10; i++) small.push({ i });
  t.same(seqs(small.after(2)), [8, 9, 10], 'evicted meanwhile: from the oldest retained, the gap shows in the seqs');
});

t.test('the byte budget evicts too, but keeps the newest event', async (t) => {
  const ring = new EventRing({ maxEvents: 100, maxBytes: 200 });
  for (let i = 0; i < 10; i++) ring.push({ text: 'x'.repeat(50) });
  t.ok(ring.bytes <= 200, 'within the budget');
  t.ok(ring.size >= 1 && ring.size < 10);
  ring.push({ text: 'y'.repeat(1000) });
  t.equal(ring.size, 1, 'one event over the budget on its own is still kept');
  t.equal(ring.all()[0].seq, 11);
});

t.test('subscribers hear each push once; unsubscribe stops them', async (t) => {
  const ring = new EventRing();
  const heard = [];
  const stop = ring.subscribe((envelope) => heard.push(envelope.seq));
  ring.push('a');
  ring.push('b');
  stop();
  ring.push('c');
  t.same(heard, [1, 2]);
  t.equal(ring.listenerCount, 0);
});

t.test('compaction keeps after() right over many evictions', async (t) => {
  const ring = new EventRing({ maxEvents: 10 });
  for (let i = 0; i < 5000; i++) ring.push(i);
  t.same(seqs(ring.all()), [4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999, 5000]);
  t.same(seqs(ring.after(4997)), [4998, 4999, 5000]);
});

t.test('Last-Event-ID and replay pick where a stream starts', async (t) => {
  const ring = new EventRing();
  for (let i = 0; i < 4; i++) ring.push(i);
  t.equal(lastEventId('3'), 3);
  t.equal(lastEventId(' 7 '), 7);
  t.equal(lastEventId(undefined), undefined);
  t.equal(lastEventId('abc'), undefined, 'garbage: a fresh client');
  t.equal(lastEventId('-1'), undefined);
  t.equal(streamStart(ring, 2, 'all'), 2, 'Last-Event-ID wins over replay');
  t.equal(streamStart(ring, undefined, 'all'), 0, 'replay=all: from the oldest');
  t.equal(streamStart(ring, undefined, undefined), 4, 'otherwise: only new events');
  t.equal(streamStart(ring, undefined, 'yes'), 4, 'any other replay value is from-now');
});

t.test('the telemetry field resolves with the SDK\'s rules', async (t) => {
  t.equal(resolveTelemetry(undefined, undefined, 'create'), undefined, 'omitted: nothing');
  t.equal(resolveTelemetry({}, undefined, 'create'), undefined, '{}: nothing on create');
  t.equal(resolveTelemetry({ enabled: false }, undefined, 'create'), undefined);
  const defaults = resolveTelemetry({ enabled: true }, undefined, 'create');
  t.same([...defaults].sort(), ['captcha', 'connection', 'control', 'system'], 'enabled: the operational default set');
  t.notOk(needsCollector(defaults), 'which needs no CDP collector');
  const withConsole = resolveTelemetry({ browser: { console: { enabled: true } } }, undefined, 'create');
  t.ok(withConsole.has('console') && withConsole.has('control'), 'categories layer onto the default set');
  t.ok(needsCollector(withConsole));
  const merged = resolveTelemetry({ browser: { network: { enabled: true }, control: { enabled: false } } }, withConsole, 'update');
  t.ok(merged.has('console') && merged.has('network') && !merged.has('control'), 'update merges onto the current set');
  t.equal(resolveTelemetry({}, merged, 'update'), merged, '{} on update: unchanged');
  t.equal(resolveTelemetry(null, merged, 'update'), merged, 'null on update: unchanged');
  t.same([...resolveTelemetry({ enabled: true }, merged, 'update')].sort(), ['captcha', 'connection', 'control', 'system'], 'enabled: true replaces');
  t.equal(resolveTelemetry({ enabled: false }, merged, 'update'), undefined, 'enabled: false stops');
  const none = { browser: Object.fromEntries(['control', 'connection', 'system', 'captcha'].map((name) => [name, { enabled: false }])) };
  t.equal(resolveTelemetry(none, undefined, 'create'), undefined, 'every category off: no capture');
  t.same(telemetryWire(withConsole).browser.console, { enabled: true });
  t.same(telemetryWire(withConsole).browser.network, { enabled: false });
  t.equal(telemetryWire(undefined), undefined);
});

t.test('bad telemetry values are refused naming the field', async (t) => {
  const refused = (value, field) => t.throws(() => resolveTelemetry(value, undefined, 'create'), { code: 'REPL_ERR_INVALID_REQUEST', message: new RegExp(field.replaceAll('.', '\\.')) }, field);
  refused('yes', 'telemetry');
  refused({ enabled: 'yes' }, 'telemetry.enabled');
  refused({ enabled: false, browser: { console: { enabled: true } } }, 'telemetry.enabled');
  refused({ browser: { console: { enabled: 1 } } }, 'telemetry.browser.console.enabled');
  refused({ browser: { nope: { enabled: true } } }, 'telemetry.browser.nope');
  refused({ browser: { screenshot: { enabled: true } } }, 'telemetry.browser.screenshot.enabled');
  refused({ other: 1 }, 'telemetry.other');
});
