// PageState: what the attached session's events say about the page. Main-frame loading (which
// Page events mean "the main frame is loading a new document", so waitForLoad can see navigations
// it did not start), and how attach and clear start it over. Dialog and network tracking through
// a real client are in cdp-client.test.mjs.
import t from 'tap';
import { PageState } from '../../dist/worker/cdp/page-state.js';

const event = (method, params, time = 0) => ({ method, params, sessionId: 'S', time });

t.test('a main-frame load from start to stop', async (t) => {
  const state = new PageState();
  state.attached('MAIN');
  t.equal(state.mainFrameLoading, false, 'nothing seen yet');
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.mainFrameLoading, true);
  state.observe(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2' } }));
  t.equal(state.mainFrameLoading, true, 'committed is not loaded');
  state.observe(event('Page.loadEventFired', { timestamp: 1 }));
  t.equal(state.mainFrameLoading, true, 'subframes may still load: only the stop counts');
  state.observe(event('Page.frameStoppedLoading', { frameId: 'MAIN' }));
  t.equal(state.mainFrameLoading, false);
});

t.test('a requested navigation alone does not count: it may be dropped before it starts', async (t) => {
  const state = new PageState();
  state.attached('MAIN');
  state.observe(event('Page.frameRequestedNavigation', { frameId: 'MAIN', reason: 'anchorClick', url: 'http://x/', disposition: 'currentTab' }));
  t.equal(state.mainFrameLoading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.mainFrameLoading, true);
});

t.test('subframes do not count', async (t) => {
  const state = new PageState();
  state.attached('MAIN');
  state.observe(event('Page.frameStartedLoading', { frameId: 'CHILD' }));
  t.equal(state.mainFrameLoading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  state.observe(event('Page.frameStoppedLoading', { frameId: 'CHILD' }));
  t.equal(state.mainFrameLoading, true, "a subframe's stop does not end the main frame's load");
});

t.test('attaching another target or clearing forgets a load in progress', async (t) => {
  const state = new PageState();
  state.attached('MAIN');
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  state.attached('OTHER');
  t.equal(state.mainFrameLoading, false);
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }));
  t.equal(state.mainFrameLoading, false, 'the old main frame is not this target');
  state.clear();
  state.observe(event('Page.frameStartedLoading', { frameId: undefined }));
  t.equal(state.mainFrameLoading, false, 'nothing attached: nothing matches');
});

t.test('attach stamps network activity and starts over; clear keeps the last activity time', async (t) => {
  const state = new PageState();
  state.attached('MAIN', 1_000);
  t.equal(state.lastNetworkActivity, 1_000);
  state.observe(event('Network.requestWillBeSent', { requestId: 'r1', loaderId: 'L1' }, 2_000));
  state.observe(event('Page.javascriptDialogOpening', { type: 'confirm', message: 'sure?' }, 2_500));
  t.same([...state.inFlightRequests], ['r1']);
  t.equal(state.requestLoader('r1'), 'L1');
  t.same(state.pendingDialog, { type: 'confirm', message: 'sure?', since: 2_500 });
  state.clear();
  t.equal(state.inFlightRequests.size, 0);
  t.equal(state.pendingDialog, null);
  t.equal(state.lastNetworkActivity, 2_000);
  state.observe(event('Page.javascriptDialogOpening', {}, 3_000));
  t.same(state.pendingDialog, { type: 'alert', message: '', since: 3_000 }, 'missing fields get defaults');
  state.dialogHandled();
  t.equal(state.pendingDialog, null);
});

t.test('a requested navigation counts as under way for a grace period, until it starts or commits (issue 9)', async (t) => {
  const { NAVIGATION_REQUEST_GRACE_MS } = await import('../../dist/worker/cdp/page-state.js');
  const state = new PageState();
  state.attached('MAIN');
  const requested = 10_000;
  state.observe(event('Page.frameRequestedNavigation', { frameId: 'MAIN', reason: 'formSubmissionGet', url: 'http://x/', disposition: 'currentTab' }, requested));
  t.equal(state.mainFrameNavigating(requested + 1), true, 'a submitted form has not started loading yet, but it is coming');
  t.equal(state.mainFrameNavigating(requested + NAVIGATION_REQUEST_GRACE_MS), false, 'a request that never started is forgotten');
  state.observe(event('Page.frameRequestedNavigation', { frameId: 'CHILD', reason: 'anchorClick', url: 'http://x/', disposition: 'currentTab' }, requested));
  state.observe(event('Page.frameStartedLoading', { frameId: 'MAIN' }, requested));
  t.equal(state.mainFrameNavigating(requested + NAVIGATION_REQUEST_GRACE_MS * 2), true, 'loading counts however long it takes');
  state.observe(event('Page.frameStoppedLoading', { frameId: 'MAIN' }, requested));
  t.equal(state.mainFrameNavigating(requested + 1), false, 'the stop ends it, and the request with it');
  state.observe(event('Page.frameRequestedNavigation', { frameId: 'CHILD' }, requested));
  t.equal(state.mainFrameNavigating(requested + 1), false, 'a subframe\'s request is not the page\'s');
});

t.test('input pending until settled; downloads tracked by guid; listeners see every event', async (t) => {
  const state = new PageState();
  state.attached('MAIN');
  const seen = [];
  const unsubscribe = state.subscribe((e) => seen.push(e.method));
  t.equal(state.inputPending, false);
  state.inputSent();
  t.equal(state.inputPending, true);
  state.inputSettled();
  t.equal(state.inputPending, false);
  state.observe(event('Page.downloadWillBegin', { frameId: 'MAIN', guid: 'g', url: 'http://x/f', suggestedFilename: 'f.bin' }, 5));
  state.observe(event('Page.downloadProgress', { guid: 'g', totalBytes: 10, receivedBytes: 10, state: 'completed' }));
  state.observe(event('Page.downloadProgress', { guid: 'unknown', totalBytes: 1, receivedBytes: 1, state: 'completed' }));
  t.same(state.downloads.get('g'), { guid: 'g', url: 'http://x/f', suggestedFilename: 'f.bin', frameId: 'MAIN', state: 'completed', receivedBytes: 10, totalBytes: 10, since: 5 });
  t.equal(state.downloads.size, 1, 'progress of a download that began elsewhere is ignored');
  t.same(seen, ['Page.downloadWillBegin', 'Page.downloadProgress', 'Page.downloadProgress']);
  unsubscribe();
  state.inputSent();
  state.attached('OTHER');
  t.equal(state.inputPending, false, 'a new page starts over');
  t.equal(state.downloads.size, 0);
});
