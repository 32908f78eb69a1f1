// The results store behind GET /repl/results/{cell_id}: running cells are always kept, settled
// ones for a time and up to a count, oldest first out. The clock is the store's test seam.
import t from 'tap';
import { CellResults } from '../../dist/lib/repl/cell-results.js';
import { ReplError } from '../../dist/common/errors.js';

const result = (n) => ({ success: true, replId: `r${n}`, content: [], contentTruncated: false, durationMs: n });

t.test('a cell is running, then finished or failed', async (t) => {
  const store = new CellResults();
  t.equal(store.get('a'), undefined, 'unknown');
  store.start('a');
  t.same(store.get('a'), { state: 'running' });
  store.finish('a', result(1));
  t.same(store.get('a'), { state: 'finished', result: result(1) });
  const error = new ReplError('REPL_ERR_CLOSED', 'closing');
  store.start('b');
  store.fail('b', error);
  const failed = store.get('b');
  t.equal(failed.state, 'failed');
  t.equal(failed.error, error, 'the error itself, so the route answers it as the call did');
  t.same(store.size, { running: 0, settled: 2 });
});

t.test('only the newest results are kept, and running cells never count', async (t) => {
  const store = new CellResults({ capacity: 2 });
  store.start('running');
  for (const id of ['a', 'b', 'c']) {
    store.start(id);
    store.finish(id, result(1));
  }
  t.equal(store.get('a'), undefined, 'the oldest went first');
  t.equal(store.get('b').state, 'finished');
  t.equal(store.get('c').state, 'finished');
  t.same(store.get('running'), { state: 'running' });
  t.same(store.size, { running: 1, settled: 2 });
});

t.test('results expire after the retention time', async (t) => {
  let now = 1_000;
  const store = new CellResults({ ttlMs: 100, now: () => now });
  store.start('old');
  store.finish('old', result(1));
  now += 60;
  store.start('new');
  store.finish('new', result(2));
  now += 50;
  t.equal(store.get('old'), undefined, 'settled 110 ms ago');
  t.equal(store.get('new').state, 'finished', 'settled 50 ms ago');
  store.start('slow');
  now += 1_000;
  t.same(store.get('slow'), { state: 'running' }, 'a running cell does not expire');
  t.equal(store.get('new'), undefined);
  t.same(store.size, { running: 1, settled: 0 });
});

t.test('settled results hold at most maxBytes of output together; the newest is always kept', async (t) => {
  const withImage = (bytes) => ({ success: true, replId: 'r', content: [{ type: 'image', mimeType: 'image/png', data: Buffer.alloc(bytes) }], contentTruncated: false, durationMs: 1 });
  const store = new CellResults({ maxBytes: 100 });
  for (const [id, bytes] of [['a', 40], ['b', 40], ['c', 40]]) {
    store.start(id);
    store.finish(id, withImage(bytes));
  }
  t.equal(store.get('a'), undefined, 'the oldest went once the three held 120 bytes');
  t.equal(store.get('b').state, 'finished');
  t.equal(store.get('c').state, 'finished');
  store.start('huge');
  store.finish('huge', withImage(500));
  t.same(store.size, { running: 0, settled: 1 }, 'a result above the budget pushes out the others');
  t.equal(store.get('huge').state, 'finished', 'but is itself kept');
});
