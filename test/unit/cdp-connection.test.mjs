// CdpConnection over an in-memory transport: ids, errors, timeouts and deadline clamping,
// reject-all-on-close, late replies, events, and error stacks that point at the caller.
import t from 'tap';
import { CdpConnection } from '../../dist/common/cdp/cdp-connection.js';
import { Deadline } from '../../dist/common/cdp/deadline.js';
import { EventRing } from '../../dist/worker/cdp/event-ring.js';
import { FakeTransport } from '../helpers/fake-transport.mjs';

// Timers inside the connection are unref'd (a real socket keeps the process alive); the fake
// transport holds nothing, so the test keeps the event loop alive itself.
const keepAlive = setInterval(() => {}, 60_000);
t.teardown(() => clearInterval(keepAlive));

const OUTCOME_UNKNOWN = ' (outcome unknown; command was not retried)';
const BOUNDED = ' (bounded by the execution timeout)';

function setup(options = {}) {
  const transport = new FakeTransport();
  const events = [];
  const closes = [];
  const connection = new CdpConnection(transport, {
    onEvent: (event) => events.push(event),
    onClose: (info) => closes.push(info),
    ...options,
  });
  return { transport, connection, events, closes };
}

t.test('CdpConnection', async (t) => {
  t.test('#send numbers commands and resolves with the matching result', async (t) => {
    const { transport, connection } = setup();
    const first = connection.send('Browser.getVersion');
    const second = connection.send('Page.navigate', { url: 'http://127.0.0.1/' }, { sessionId: 'S1' });
    t.same(transport.sent, [
      { id: 1, method: 'Browser.getVersion', params: {} },
      { id: 2, method: 'Page.navigate', params: { url: 'http://127.0.0.1/' }, sessionId: 'S1' },
    ]);
    t.equal(connection.pendingCount, 2);
    transport.reply(2, { frameId: 'F' });
    transport.reply(1, { product: 'Chrome/156' });
    t.same(await first, { product: 'Chrome/156' });
    t.same(await second, { frameId: 'F' });
    t.equal(connection.pendingCount, 0);
  });

  t.test('#send resolves an empty object when the result is missing', async (t) => {
    const { transport, connection } = setup();
    const pending = connection.send('Page.enable');
    transport.receive({ id: 1 });
    t.same(await pending, {});
  });

  t.test('#send rejects with REPL_ERR_CDP_COMMAND_FAILED and the CDP message and code', async (t) => {
    const { transport, connection } = setup();
    const plain = connection.send('Page.navigate', { url: 'x' });
    const withData = connection.send('Page.navigate', {});
    transport.replyError(1, -32000, 'Cannot navigate to invalid URL');
    transport.replyError(2, -32602, 'Invalid parameters', 'Failed to deserialize params.url - BINDINGS: mandatory field missing');
    await t.rejects(plain, {
      code: 'REPL_ERR_CDP_COMMAND_FAILED',
      message: 'CDP Page.navigate failed: Cannot navigate to invalid URL (code -32000)',
      data: { method: 'Page.navigate', cdpCode: -32000 },
    });
    await t.rejects(withData, {
      code: 'REPL_ERR_CDP_COMMAND_FAILED',
      message: 'CDP Page.navigate failed: Invalid parameters: Failed to deserialize params.url - BINDINGS: mandatory field missing (code -32602)',
    });
  });

  t.test('a failed command\'s stack shows the callers that await it', async (t) => {
    const { transport, connection } = setup();
    async function namedCallerOfSend() {
      return await connection.send('Runtime.evaluate', { expression: 'x' });
    }
    async function outerCaller() {
      return await namedCallerOfSend();
    }
    const pending = outerCaller().catch((e) => e);
    transport.replyError(1, -32000, 'boom');
    const error = await pending;
    t.match(error.stack, /^ReplError: CDP Runtime\.evaluate failed: boom \(code -32000\)\n/);
    t.match(error.stack, /\n +at async namedCallerOfSend .*\n +at async outerCaller /);
    t.notMatch(error.stack, /handleMessage|settleAtCaller/, 'neither the socket handler nor the settling helper is on the stack');

    async function namedCallerOfTimedOutSend() {
      return await Promise.race([connection.send('Runtime.evaluate', { expression: 'y' }, { timeoutMs: 1 }), new Promise(() => {})]);
    }
    const timedOut = await namedCallerOfTimedOutSend().catch((e) => e);
    t.equal(timedOut.code, 'REPL_ERR_CDP_TIMEOUT');
    t.match(timedOut.stack, /at async namedCallerOfTimedOutSend/, 'also through Promise.race, as raceDialog uses it');
    t.notMatch(timedOut.stack, /Timeout\._onTimeout|listOnTimeout/, 'the timer is not on the stack');
  });

  t.test('#send times out with the exact message; unsafe methods say the outcome is unknown', async (t) => {
    const { connection } = setup();
    await t.rejects(connection.send('DOM.getDocument', {}, { timeoutMs: 5 }), {
      code: 'REPL_ERR_CDP_TIMEOUT',
      message: 'CDP DOM.getDocument timed out after 5ms',
      data: { outcomeUnknown: false, boundedByDeadline: false },
    });
    await t.rejects(connection.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: 1, y: 1 }, { timeoutMs: 5 }), {
      code: 'REPL_ERR_CDP_TIMEOUT',
      message: `CDP Input.dispatchMouseEvent timed out after 5ms${OUTCOME_UNKNOWN}`,
      data: { outcomeUnknown: true },
    });
  });

  t.test('#send appends the timeout hint between the deadline and outcome suffixes', async (t) => {
    const { connection } = setup();
    await t.rejects(connection.send('Runtime.evaluate', { expression: '1' }, { timeoutMs: 5, timeoutHint: () => ' (HINT)' }), {
      message: `CDP Runtime.evaluate timed out after 5ms (HINT)${OUTCOME_UNKNOWN}`,
    });
    await t.rejects(connection.send('Page.getFrameTree', {}, { timeoutMs: 5, timeoutHint: () => undefined }), {
      message: 'CDP Page.getFrameTree timed out after 5ms',
    });
  });

  t.test('#send clamps its timeout to the deadline passed with it', async (t) => {
    const { connection } = setup();
    const deadline = new Deadline(Date.now() + 40);
    const error = await connection.send('Runtime.evaluate', { expression: '1' }, { deadline, timeoutHint: () => ' (HINT)' }).catch((e) => e);
    t.equal(error.code, 'REPL_ERR_CDP_TIMEOUT');
    t.match(error.message, new RegExp(`^CDP Runtime\\.evaluate timed out after \\d+ms${escape(BOUNDED)} \\(HINT\\)${escape(OUTCOME_UNKNOWN)}$`));
    t.equal(error.data.boundedByDeadline, true);
    t.ok(error.data.timeoutMs <= 40, 'the clamped value is reported');
  });

  t.test('#send keeps its own timeout when it ends before the deadline (no "bounded" suffix)', async (t) => {
    const { connection } = setup();
    await t.rejects(connection.send('Page.getLayoutMetrics', {}, { timeoutMs: 5, deadline: Deadline.in(60_000) }), {
      message: 'CDP Page.getLayoutMetrics timed out after 5ms',
    });
  });

  t.test('#send with Infinity waits until the deadline', async (t) => {
    const { connection } = setup();
    const error = await connection.send('Runtime.evaluate', { expression: '1' }, { timeoutMs: Infinity, deadline: Deadline.in(20) }).catch((e) => e);
    t.match(error.message, /timed out after \d+ms \(bounded by the execution timeout\)/);
  });

  t.test('#send refuses to start once the deadline is reached, without sending', async (t) => {
    const { transport, connection } = setup();
    await t.rejects(connection.send('Page.navigate', { url: 'x' }, { deadline: new Deadline(Date.now() - 1) }), {
      code: 'REPL_ERR_CDP_DEADLINE_REACHED',
      message: 'CDP Page.navigate could not run: the execution deadline has already been reached',
    });
    t.same(transport.sent, []);
  });

  t.test('a transport close rejects every pending command with "CDP connection closed"', async (t) => {
    const { transport, connection, closes } = setup();
    const a = connection.send('Runtime.evaluate', { expression: '1' });
    const b = connection.send('DOM.getDocument', {}, { sessionId: 'S' });
    transport.peerClose(1006, 'gone');
    for (const pending of [a, b]) {
      await t.rejects(pending, {
        code: 'REPL_ERR_CDP_DISCONNECTED',
        message: 'CDP connection closed',
        data: { connectionClosedBeforeResponse: true, closeCode: 1006, closeReason: 'gone' },
      });
    }
    t.equal(connection.closed, true);
    t.same(closes, [{ code: 1006, reason: 'gone' }]);
    t.equal(connection.pendingCount, 0);
  });

  t.test('#close rejects pending commands and later sends fail fast without writing', async (t) => {
    const { transport, connection, closes } = setup();
    const pending = connection.send('Page.navigate', { url: 'x' });
    connection.close();
    connection.close();
    await t.rejects(pending, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    await t.rejects(connection.send('Browser.getVersion'), {
      code: 'REPL_ERR_CDP_DISCONNECTED',
      data: { notSent: true, connectionClosedBeforeResponse: true },
    });
    t.equal(transport.sent.length, 1);
    t.equal(closes.length, 1, 'onClose runs once');
  });

  t.test('a frame that cannot be written is flagged notSent and ends the connection', async (t) => {
    const { transport, connection, closes } = setup();
    const earlier = connection.send('Page.navigate', { url: 'x' });
    // The peer died: the socket refuses writes before it has emitted 'close'.
    transport.failSends = true;
    await t.rejects(connection.send('Runtime.evaluate', { expression: '1' }), {
      code: 'REPL_ERR_CDP_DISCONNECTED',
      message: 'CDP connection closed',
      data: { notSent: true },
    });
    t.equal(connection.closed, true, 'a caller that checks closed reconnects instead of writing into the dead socket again');
    await t.rejects(earlier, { code: 'REPL_ERR_CDP_DISCONNECTED', data: { connectionClosedBeforeResponse: true } });
    t.equal(connection.pendingCount, 0);
    t.same(closes.map((info) => info.code), [1006], 'onClose runs once, as an abnormal closure');
    transport.peerClose(1006, '');
    t.equal(closes.length, 1, "the socket's own close event later changes nothing");
  });

  t.test('commands of a session whose target detached are rejected at once; others go on', async (t) => {
    const { transport, connection, events } = setup();
    const first = connection.send('Runtime.evaluate', { expression: 'slow()' }, { sessionId: 'S1' });
    const second = connection.send('DOM.getDocument', {}, { sessionId: 'S1' });
    const other = connection.send('Runtime.evaluate', { expression: '1' }, { sessionId: 'S2' });
    const browserLevel = connection.send('Target.getTargets');
    transport.emit('Target.detachedFromTarget', { sessionId: 'S1', targetId: 'T1' });
    const message = /^CDP (Runtime\.evaluate|DOM\.getDocument) got no answer: its target closed or was detached while the command was pending$/;
    await t.rejects(first, { code: 'REPL_ERR_TARGET_NOT_FOUND', message, data: { sessionId: 'S1', targetDetached: true } });
    await t.rejects(second, { code: 'REPL_ERR_TARGET_NOT_FOUND', message });
    t.equal(connection.pendingCount, 2);
    transport.reply(3, { result: { value: 1 } });
    transport.reply(4, { targetInfos: [] });
    t.same(await other, { result: { value: 1 } });
    t.same(await browserLevel, { targetInfos: [] });
    t.same(events.map((event) => event.method), ['Target.detachedFromTarget'], 'the event is still dispatched');
  });

  t.test('late replies to timed-out commands are dropped', async (t) => {
    const { transport, connection } = setup();
    await t.rejects(connection.send('DOM.getDocument', {}, { timeoutMs: 1 }), { code: 'REPL_ERR_CDP_TIMEOUT' });
    transport.reply(1, { root: {} });
    transport.replyError(1, -32000, 'late');
    const next = connection.send('Browser.getVersion');
    transport.reply(2, { product: 'ok' });
    t.same(await next, { product: 'ok' });
  });

  t.test('#send honours an AbortSignal and drops the late reply', async (t) => {
    const { transport, connection } = setup();
    const controller = new AbortController();
    const pending = connection.send('Runtime.evaluate', { expression: '1' }, { signal: controller.signal });
    controller.abort(new Error('stop'));
    const error = await pending.catch((e) => e);
    t.equal(error.code, 'REPL_ERR_ABORTED');
    t.equal(error.cause.message, 'stop');
    transport.reply(1, {});
    t.equal(connection.pendingCount, 0);
    await t.rejects(connection.send('Page.enable', {}, { signal: AbortSignal.abort() }), { code: 'REPL_ERR_ABORTED' });
    t.equal(transport.sent.length, 1, 'an already aborted command is not sent');
  });

  t.test('events are dispatched in order with their session and receipt time', async (t) => {
    const { transport, events } = setup();
    const before = Date.now();
    transport.emit('Target.targetCreated', { targetInfo: {} });
    transport.emit('Network.requestWillBeSent', { requestId: 'r1' }, 'S1');
    transport.receive('not json');
    transport.receive('42');
    t.equal(events.length, 2);
    t.same(events.map((e) => [e.method, e.sessionId]), [['Target.targetCreated', undefined], ['Network.requestWillBeSent', 'S1']]);
    t.notOk('sessionId' in events[0], 'browser-level events carry no sessionId key');
    t.ok(events[1].time >= before);
  });

  t.test('a throwing event handler does not stop the stream', async (t) => {
    const transport = new FakeTransport();
    let calls = 0;
    const connection = new CdpConnection(transport, {
      onEvent: () => {
        calls++;
        throw new Error('listener bug');
      },
    });
    transport.emit('A.b');
    const pending = connection.send('Browser.getVersion');
    transport.reply(1, { product: 'x' });
    t.same(await pending, { product: 'x' });
    transport.emit('A.c');
    t.equal(calls, 2);
  });
});

t.test('Deadline', async (t) => {
  const deadline = new Deadline(1_000);
  t.equal(deadline.at, 1_000);
  t.equal(deadline.remaining(400), 600);
  t.equal(deadline.reached, true, 'Unix ms 1000 is long past');
  t.equal(Deadline.in(60_000).reached, false);
  t.ok(Math.abs(Deadline.in(100).remaining() - 100) <= 5);
  t.throws(() => new Deadline(NaN), RangeError);
});

t.test('Deadline#race', async (t) => {
  const late = () => new Error('too late');
  t.equal(await Deadline.in(1_000).race(Promise.resolve('value'), late), 'value');
  await t.rejects(Deadline.in(1_000).race(Promise.reject(new Error('own failure')), late), { message: 'own failure' });
  await t.rejects(Deadline.in(10).race(new Promise(() => {}), late), { message: 'too late' });
  await t.rejects(new Deadline(0).race(Promise.reject(new Error('handled, not unhandled')), late), { message: 'too late' });
});

t.test('EventRing', async (t) => {
  t.test('keeps the 500 newest events and counts the dropped ones', async (t) => {
    const ring = new EventRing();
    t.equal(ring.capacity, 500);
    for (let i = 0; i < 600; i++) ring.push({ method: 'Network.requestWillBeSent', params: { i }, time: i });
    t.equal(ring.size, 500);
    t.equal(ring.dropped, 100);
    const drained = ring.drain();
    t.equal(drained.length, 500);
    t.equal(drained[0].params.i, 100, 'oldest kept is #100');
    t.equal(drained[499].params.i, 599);
    t.same(ring.drain(), [], 'drain empties');
    t.equal(ring.dropped, 0);
  });

  t.test('drains in arrival order below capacity', async (t) => {
    const ring = new EventRing(3);
    ring.push({ method: 'a', params: {}, time: 1 });
    ring.push({ method: 'b', params: {}, time: 2 });
    t.same(ring.drain().map((e) => e.method), ['a', 'b']);
    for (const m of ['c', 'd', 'e', 'f']) ring.push({ method: m, params: {}, time: 3 });
    t.same(ring.drain().map((e) => e.method), ['d', 'e', 'f']);
  });

  t.test('rejects a non-positive capacity', async (t) => {
    t.throws(() => new EventRing(0), RangeError);
  });
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
