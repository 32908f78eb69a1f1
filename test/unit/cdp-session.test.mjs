// CdpSession over a CdpConnection and an in-memory transport: attach, per-session commands and
// events, disposers, and a dead session that rejects what was pending and fails fast afterwards.
import t from 'tap';
import { CdpConnection } from '../../dist/common/cdp/cdp-connection.js';
import { FakeTransport } from '../helpers/fake-transport.mjs';

const keepAlive = setInterval(() => {}, 60_000);
t.teardown(() => clearInterval(keepAlive));

function setup() {
  const transport = new FakeTransport();
  const events = [];
  const connection = new CdpConnection(transport, { onEvent: (event) => events.push(event) });
  return { transport, connection, events };
}

/** Attaches `targetId`, answering the attach with `sessionId`. */
async function attach(transport, connection, targetId, sessionId) {
  const pending = connection.attachToTarget(targetId);
  const frame = transport.last();
  transport.reply(frame.id, { sessionId });
  return pending;
}

t.test('CdpSession', async (t) => {
  t.test('attachToTarget attaches a flattened session and tracks it', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    t.same(transport.sent[0], { id: 1, method: 'Target.attachToTarget', params: { targetId: 'T1', flatten: true } });
    t.equal(session.sessionId, 'S1');
    t.equal(session.targetId, 'T1');
    t.equal(session.closed, false);
    t.equal(session.detached, false);
    t.equal(connection.session('S1'), session);
    t.same(connection.sessions, [session]);
  });

  t.test('#send writes on its session and resolves with the answer', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    const pending = session.send('Runtime.evaluate', { expression: '1' }, { timeoutMs: 1_000 });
    t.same(transport.last(), { id: 2, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S1' });
    transport.reply(2, { result: { type: 'number', value: 1 } });
    t.same(await pending, { result: { type: 'number', value: 1 } });
  });

  t.test('events reach the listeners of their own session only; disposers work', async (t) => {
    const { transport, connection, events } = setup();
    const one = await attach(transport, connection, 'T1', 'S1');
    const two = await attach(transport, connection, 'T2', 'S2');
    const seenOne = [];
    const seenTwo = [];
    const anyOne = [];
    const order = [];
    const dispose = one.on('Page.loadEventFired', (event) => {
      seenOne.push(event.params.n);
      order.push('method');
    });
    one.onAny((event) => {
      anyOne.push(event.method);
      order.push('any');
    });
    two.on('Page.loadEventFired', (event) => seenTwo.push(event.params.n));
    transport.emit('Page.loadEventFired', { n: 1 }, 'S1');
    transport.emit('Page.loadEventFired', { n: 2 }, 'S2');
    transport.emit('Page.loadEventFired', { n: 3 });
    transport.emit('Page.loadEventFired', { n: 4 }, 'S-unknown');
    transport.emit('Network.requestWillBeSent', { requestId: 'r' }, 'S1');
    t.same(seenOne, [1]);
    t.same(seenTwo, [2]);
    t.same(anyOne, ['Page.loadEventFired', 'Network.requestWillBeSent']);
    t.same(order.slice(0, 2), ['method', 'any'], 'per-method listeners run before the catch-all ones');
    t.equal(events.length, 5, 'the connection still sees every event');
    dispose();
    dispose();
    transport.emit('Page.loadEventFired', { n: 5 }, 'S1');
    t.same(seenOne, [1], 'a disposed listener hears nothing more');
    t.equal(anyOne.length, 3);
  });

  t.test('a throwing listener does not stop the others', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    let calls = 0;
    session.on('A.b', () => {
      throw new Error('listener bug');
    });
    session.on('A.b', () => calls++);
    transport.emit('A.b', {}, 'S1');
    t.equal(calls, 1);
  });

  t.test('a detached target rejects its pending commands, not those of other sessions, then fails fast', async (t) => {
    const { transport, connection } = setup();
    const one = await attach(transport, connection, 'T1', 'S1');
    const two = await attach(transport, connection, 'T2', 'S2');
    const closes = [];
    one.onClose((reason) => closes.push(reason));
    const pending = one.send('Runtime.evaluate', { expression: 'slow()' });
    const other = two.send('DOM.getDocument', {});
    transport.emit('Target.detachedFromTarget', { sessionId: 'S1', targetId: 'T1' });
    await t.rejects(pending, {
      code: 'REPL_ERR_TARGET_NOT_FOUND',
      message: 'CDP Runtime.evaluate got no answer: its target closed or was detached while the command was pending',
    });
    t.equal(one.detached, true);
    t.equal(one.closed, true);
    t.equal(one.closeReason, 'detached');
    t.same(closes, ['detached']);
    t.equal(connection.session('S1'), undefined, 'the connection forgets it');

    const written = transport.sent.length;
    async function callerOfDeadSession() {
      return await one.send('DOM.getDocument', {});
    }
    const error = await callerOfDeadSession().catch((e) => e);
    t.equal(error.code, 'REPL_ERR_TARGET_NOT_FOUND');
    t.equal(error.message, 'CDP DOM.getDocument could not run: its target closed or was detached; attach the target again');
    t.match(error.data, { sessionId: 'S1', targetId: 'T1', notSent: true });
    t.match(error.stack, /callerOfDeadSession/, "the error's stack names the caller");
    t.equal(transport.sent.length, written, 'nothing was written');

    transport.reply(transport.sent.find((frame) => frame.sessionId === 'S2').id, { root: {} });
    t.same(await other, { root: {} });
    t.equal(two.closed, false);
  });

  t.test('a closed connection closes every session; their commands reject and later ones fail fast', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    const closes = [];
    session.onClose((reason) => closes.push(reason));
    const pending = session.send('Runtime.evaluate', { expression: '1' });
    transport.peerClose(1006, 'gone');
    await t.rejects(pending, { code: 'REPL_ERR_CDP_DISCONNECTED', message: 'CDP connection closed' });
    t.same(closes, ['disconnected']);
    t.equal(session.closed, true);
    t.equal(session.detached, false);
    t.same(connection.sessions, []);
    await t.rejects(session.send('DOM.getDocument', {}), {
      code: 'REPL_ERR_CDP_DISCONNECTED',
      message: 'CDP connection closed',
      data: { notSent: true },
    });
  });

  t.test('#detach detaches browser-level, closes the session and rejects what it left pending', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    const pending = session.send('Runtime.evaluate', { expression: '1' });
    const detaching = session.detach();
    const frame = transport.last();
    t.same(frame, { id: 3, method: 'Target.detachFromTarget', params: { sessionId: 'S1' } });
    transport.reply(frame.id, {});
    await detaching;
    t.equal(session.detached, true);
    await t.rejects(pending, { code: 'REPL_ERR_TARGET_NOT_FOUND' });
    const sent = transport.sent.length;
    await session.detach();
    t.equal(transport.sent.length, sent, 'a second detach sends nothing');
    t.equal(connection.pendingCount, 0);
  });

  t.test('#onClose on a session that is closed already is called on a microtask; its disposer works', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    transport.emit('Target.detachedFromTarget', { sessionId: 'S1', targetId: 'T1' });
    const reasons = [];
    session.onClose((reason) => reasons.push(reason));
    const dispose = session.onClose((reason) => reasons.push(`disposed ${reason}`));
    dispose();
    t.same(reasons, [], 'not synchronously');
    await Promise.resolve();
    t.same(reasons, ['detached']);
  });

  t.test('[Symbol.asyncDispose] detaches', async (t) => {
    const { transport, connection } = setup();
    const session = await attach(transport, connection, 'T1', 'S1');
    const disposing = session[Symbol.asyncDispose]();
    t.equal(transport.last().method, 'Target.detachFromTarget');
    transport.reply(transport.last().id, {});
    await disposing;
    t.equal(session.detached, true);
  });

  t.test('a session attached as the socket died is closed at once', async (t) => {
    const { transport, connection } = setup();
    const pending = connection.attachToTarget('T1');
    const { id } = transport.last();
    transport.reply(id, { sessionId: 'S1' });
    transport.peerClose(1006, 'gone');
    const session = await pending;
    t.equal(session.closed, true);
    t.equal(session.closeReason, 'disconnected');
  });
});
