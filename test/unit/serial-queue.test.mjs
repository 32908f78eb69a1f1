import t from 'tap';
import { SerialQueue } from '../../dist/lib/threads/serial-queue.js';

t.test('SerialQueue', async (t) => {
  t.test('#run runs tasks one at a time in arrival order', async (t) => {
    const queue = new SerialQueue();
    const events = [];
    const task = (name, ms) => () => new Promise((resolve) => {
      events.push(`start ${name}`);
      setTimeout(() => { events.push(`end ${name}`); resolve(name); }, ms);
    });
    const results = await Promise.all([queue.run(task('a', 20)), queue.run(task('b', 5)), queue.run(task('c', 1))]);
    t.same(results, ['a', 'b', 'c']);
    t.same(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  t.test('#run drops a waiting task whose signal aborts, with REPL_ERR_ABORTED', async (t) => {
    const queue = new SerialQueue();
    let release;
    const first = queue.run(() => new Promise((resolve) => { release = resolve; }));
    const controller = new AbortController();
    let ran = false;
    const second = queue.run(async () => { ran = true; }, controller.signal);
    controller.abort(new Error('gone'));
    await t.rejects(second, { code: 'REPL_ERR_ABORTED' });
    release('done');
    t.equal(await first, 'done');
    await queue.run(async () => undefined);
    t.equal(ran, false, 'the aborted task never ran');
  });

  t.test('#run rejects at once when the signal is already aborted', async (t) => {
    const queue = new SerialQueue();
    await t.rejects(queue.run(async () => 1, AbortSignal.abort()), { code: 'REPL_ERR_ABORTED' });
  });

  t.test('#run keeps going after a task throws', async (t) => {
    const queue = new SerialQueue();
    await t.rejects(queue.run(() => { throw new Error('sync'); }), { message: 'sync' });
    t.equal(await queue.run(async () => 2), 2);
    t.equal(queue.size, 0);
  });
});
