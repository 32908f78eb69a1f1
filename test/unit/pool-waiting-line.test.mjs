// The acquire line and the count of a warm pool (lib/pools): first come first served, bounded,
// a waiter that left is never served, and never more than `size` items out at once.
import t from 'tap';
import { WaitingLine } from '../../dist/lib/pools/waiting-line.js';
import { WarmPool } from '../../dist/lib/pools/warm-pool.js';

t.test('serves in arrival order, refuses past the bound, skips waiters that left', async (t) => {
  const line = new WaitingLine(3);
  const first = line.wait(10_000);
  const gone = new AbortController();
  const second = line.wait(10_000, gone.signal);
  const third = line.wait(10_000);
  await t.rejects(line.wait(10_000), { code: 'REPL_ERR_POOL_QUEUE_FULL' }, 'one more than the bound is a 429');
  gone.abort(new Error('hung up'));
  await t.rejects(second, /hung up/);
  t.ok(line.serve('a'));
  t.ok(line.serve('b'));
  t.equal(await first, 'a');
  t.equal(await third, 'b', 'the waiter that left is skipped');
  t.notOk(line.serve('c'), 'nobody waits');
  t.equal(await line.wait(10), undefined, 'a timeout answers undefined');
  t.equal(line.length, 0);
});

t.test('a pool of 2 never hands out more than 2, and release serves the next waiter', async (t) => {
  let next = 0;
  const pool = new WarmPool({
    size: 2, maxWaiters: 10, canLaunch: () => true,
    launch: async () => ({ id: next++ }), recycle: async () => true, retire: async () => {},
  });
  pool.fill();
  const got = await Promise.all([pool.acquire(1000), pool.acquire(1000)]);
  t.not(got[0], got[1]);
  const waiting = pool.acquire(10_000);
  t.equal(pool.waiting, 1);
  await pool.release(got[0], true);
  t.equal(await waiting, got[0], 'the released item goes to the waiter');
  t.equal(pool.acquired, 2);
  await t.rejects(pool.release({ id: 99 }, true), { code: 'REPL_ERR_NOT_FOUND' });
  await pool.close();
});
