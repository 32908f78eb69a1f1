// MainFrameLoading: which Page events of the attached session mean "the main frame is loading a
// new document", so waitForLoad can see navigations it did not start.
import t from 'tap';
import { MainFrameLoading } from '../../dist/worker/cdp/main-frame-loading.js';

const event = (method, params) => ({ method, params, sessionId: 'S', time: 0 });

t.test('a main-frame load from start to stop', async (t) => {
  const state = new MainFrameLoading();
  state.reset('MAIN');
  t.equal(state.loading, false, 'nothing seen yet');
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.loading, true);
  state.observe(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2' } }));
  t.equal(state.loading, true, 'committed is not loaded');
  state.observe(event('Page.loadEventFired', { timestamp: 1 }));
  t.equal(state.loading, true, 'subframes may still load: only the stop counts');
  state.observe(event('Page.frameStoppedLoading', { frameId: 'MAIN' }));
  t.equal(state.loading, false);
});

t.test('a requested navigation alone does not count: it may be dropped before it starts', async (t) => {
  const state = new MainFrameLoading();
  state.reset('MAIN');
  state.observe(event('Page.frameRequestedNavigation', { frameId: 'MAIN', reason: 'anchorClick', url: 'http://x/', disposition: 'currentTab' }));
  t.equal(state.loading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.loading, true);
});

t.test('subframes do not count', async (t) => {
  const state = new MainFrameLoading();
  state.reset('MAIN');
  state.observe(event('Page.frameStartedLoading', { frameId: 'CHILD' }));
  t.equal(state.loading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  state.observe(event('Page.frameStoppedLoading', { frameId: 'CHILD' }));
  t.equal(state.loading, true, "a subframe's stop does not end the main frame's load");
});

t.test('reset forgets a load in progress (a new target was attached)', async (t) => {
  const state = new MainFrameLoading();
  state.reset('MAIN');
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  state.reset('OTHER');
  t.equal(state.loading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.loading, false, 'the old main frame is not this target');
  state.reset(undefined);
  state.observe(event('Page.frameStartedLoading', { frameId: undefined }));
  t.equal(state.loading, false, 'nothing attached: nothing matches');
});
