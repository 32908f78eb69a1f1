// common/wait.ts: a bounded wait ends on the first of settle, time and abort, and never rejects.
import t from 'tap';
import { waitAtMost } from '../../dist/common/wait.js';

const never = new Promise(() => {});

t.test('ends when the promise settles, fulfilled or rejected', async (t) => {
  await waitAtMost(Promise.resolve(1), 60_000);
  await waitAtMost(Promise.reject(new Error('x')), 60_000);
  t.pass('neither waited for the time nor rejected');
});

t.test('ends after ms when the promise never settles', async (t) => {
  const started = process.hrtime.bigint();
  await waitAtMost(never, 20);
  t.ok(process.hrtime.bigint() - started >= 15_000_000n, 'waited for the time');
});

t.test('ends when the signal aborts, and at once when it already has', async (t) => {
  const controller = new AbortController();
  const waiting = waitAtMost(never, undefined, controller.signal);
  setImmediate(() => controller.abort());
  await waiting;
  await waitAtMost(never, undefined, AbortSignal.abort());
  t.pass('no time bound was needed');
});

t.test('removes its abort listener and timer when done', async (t) => {
  const controller = new AbortController();
  let added = 0;
  let removed = 0;
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args) => { added++; return add(...args); };
  signal.removeEventListener = (...args) => { removed++; return remove(...args); };
  await waitAtMost(Promise.resolve(), 60_000, signal);
  t.equal(added, 1);
  t.equal(removed, 1, 'a long-lived signal does not collect listeners');
});
