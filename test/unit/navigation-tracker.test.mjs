// NavigationTracker: what waitForLoad and waitForNetworkIdle remember about a helper navigation.
import t from 'tap';
import { NavigationTracker } from '../../dist/worker/helpers/core/navigation.js';

t.test('requests of the replaced document are stale; the new document and its subresources are not', async (t) => {
  const tracker = new NavigationTracker();
  const loaders = new Map([['old-img', 'L1'], ['L2', 'L2'], ['new-img', 'L2'], ['no-loader', undefined]]);
  // A subresource of the new document may already be in flight when the commit's answer is read.
  tracker.markStale('T', new Set(loaders.keys()), (id) => id === 'L2' || loaders.get(id) === 'L2');
  t.same([...tracker.staleRequestsFor('T')].sort(), ['no-loader', 'old-img']);
  t.same([...tracker.staleRequestsFor('other')], [], 'only for the navigated target');
  t.same([...tracker.staleRequestsFor(undefined)], []);
});

t.test('the pending navigation belongs to one target', async (t) => {
  const tracker = new NavigationTracker();
  tracker.set({ targetId: 'T', url: 'http://x/', previousLoaderId: 'L1' });
  t.same(tracker.pendingFor('T'), { targetId: 'T', url: 'http://x/', previousLoaderId: 'L1' });
  t.equal(tracker.pendingFor('U'), undefined);
  t.equal(tracker.pendingFor(undefined), undefined);
  tracker.set(undefined);
  t.equal(tracker.pendingFor('T'), undefined);
});
