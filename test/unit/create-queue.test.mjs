// The create queue (lib/browsers/create-queue.ts, docs/deploy.md#waiting-for-room): first in,
// first out; bounded; a waiter whose wait ends or whose signal fires leaves the line and is never
// granted; close() fails every waiter.
import t from 'tap';
import { CreateQueue } from '../../dist/lib/browsers/create-queue.js';

const settle = (promise) => promise.then(() => 'granted', (error) => error.code);

t.test('grants in arrival order', async (t) => {
  const queue = new CreateQueue({ capacity: 3 });
  const order = [];
  const waits = ['a', 'b', 'c'].map((name) => queue.wait({ timeoutMs: 60_000 }).then(() => order.push(name)));
  t.equal(queue.length, 3);
  t.ok(queue.grant());
  await waits[0];
  t.ok(queue.grant());
  t.ok(queue.grant());
  await Promise.all(waits);
  t.same(order, ['a', 'b', 'c'], 'the oldest waiter is served first');
  t.notOk(queue.grant(), 'nobody left to grant');
  t.equal(queue.length, 0);
});

t.test('bounded: past its capacity, or without a wait, a caller is refused at once', async (t) => {
  const queue = new CreateQueue({ capacity: 1 });
  const first = settle(queue.wait({ timeoutMs: 60_000 }));
  t.notOk(queue.hasSpace);
  t.equal(await settle(queue.wait({ timeoutMs: 60_000 })), 'REPL_ERR_CAPACITY_QUEUE_FULL');
  t.equal(await settle(queue.wait({ timeoutMs: 0 })), 'REPL_ERR_CAPACITY_QUEUE_FULL', 'a wait of 0 does not wait');
  queue.grant();
  t.equal(await first, 'granted');
  t.equal(await settle(new CreateQueue({ capacity: 0 }).wait({ timeoutMs: 1000 })), 'REPL_ERR_CAPACITY_QUEUE_FULL', 'capacity 0: no waiting');
});

t.test('a wait that ends leaves the line; the next one is granted', async (t) => {
  const queue = new CreateQueue({ capacity: 2 });
  const short = settle(queue.wait({ timeoutMs: 20 }));
  const long = settle(queue.wait({ timeoutMs: 60_000 }));
  t.equal(await short, 'REPL_ERR_CAPACITY_WAIT_TIMEOUT');
  t.equal(queue.length, 1, 'the timed-out waiter left');
  t.ok(queue.grant());
  t.equal(await long, 'granted', 'the grant went to the waiter still there');
});

t.test('an abandoned waiter leaves the line and is never granted', async (t) => {
  const queue = new CreateQueue({ capacity: 2 });
  const controller = new AbortController();
  const gone = settle(queue.wait({ timeoutMs: 60_000, signal: controller.signal }));
  const stays = settle(queue.wait({ timeoutMs: 60_000 }));
  controller.abort();
  t.equal(await gone, 'REPL_ERR_ABORTED');
  t.equal(queue.length, 1);
  queue.grant();
  t.equal(await stays, 'granted');
  const aborted = AbortSignal.abort();
  t.equal(await settle(queue.wait({ timeoutMs: 60_000, signal: aborted })), 'REPL_ERR_ABORTED', 'an aborted signal never joins');
  t.equal(queue.length, 0);
});

t.test('close() fails every waiter and refuses new ones', async (t) => {
  const queue = new CreateQueue({ capacity: 2 });
  const waits = [settle(queue.wait({ timeoutMs: 60_000 })), settle(queue.wait({ timeoutMs: 60_000 }))];
  const error = Object.assign(new Error('closing'), { code: 'REPL_ERR_CLOSED' });
  queue.close(error);
  t.same(await Promise.all(waits), ['REPL_ERR_CLOSED', 'REPL_ERR_CLOSED']);
  t.equal(await settle(queue.wait({ timeoutMs: 60_000 })), 'REPL_ERR_CLOSED');
  t.throws(() => new CreateQueue({ capacity: -1 }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
});
