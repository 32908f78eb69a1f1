// The live view's frame rule (lib/live-view/frames.ts, docs/live-view.md#frames-and-input): which
// screencast frames are relayed, when a full-size still is due, and when a still that came back
// may be shown.
import t from 'tap';
import { AckPacer, MOTION_MAX, StillFrames } from '../../dist/lib/live-view/frames.js';

const big = { deviceWidth: 1280, deviceHeight: 720 };
const small = { deviceWidth: MOTION_MAX.width, deviceHeight: MOTION_MAX.height };

t.test('a changed frame is relayed and makes one still due', async (t) => {
  const stills = new StillFrames();
  t.equal(stills.stillDue(), undefined, 'no frame yet: no still');
  t.equal(stills.onFrame('A', big), true, 'the first frame is relayed');
  const request = stills.stillDue();
  t.ok(request, 'after a change, a still is due');
  t.equal(stills.stillDue(), undefined, 'once per change');
  t.equal(stills.accept(request), true, 'nothing came after it: shown');
});

t.test('a frame with the bytes of the last one is dropped and makes no still due', async (t) => {
  const stills = new StillFrames();
  stills.onFrame('A', big);
  stills.accept(stills.stillDue());
  // Capturing the still makes Chromium send the unchanged reduced frame again.
  t.equal(stills.onFrame('A', big), false, 'same bytes: not relayed');
  t.equal(stills.stillDue(), undefined, 'and no other still');
  t.equal(stills.onFrame('B', big), true, 'a change is relayed again');
  t.ok(stills.stillDue(), 'and makes a still due');
});

t.test('a still overtaken by a newer frame is not shown; the newer one gets its own', async (t) => {
  const stills = new StillFrames();
  stills.onFrame('A', big);
  const first = stills.stillDue();
  t.equal(stills.onFrame('B', big), true, 'the page changed while the still was taken');
  t.equal(stills.accept(first), false, 'the older still would show the page as it was: dropped');
  const second = stills.stillDue();
  t.ok(second);
  t.equal(stills.accept(second), true);
});

t.test('a tab whose frames already come at full size gets no still', async (t) => {
  const stills = new StillFrames();
  t.equal(stills.onFrame('A', small), true);
  t.equal(stills.stillDue(), undefined, 'fits the motion box: the frame is the full-size image');
  stills.onFrame('B', big);
  t.ok(stills.stillDue(), 'a larger tab: due');
  const custom = new StillFrames(() => true);
  custom.onFrame('A', big);
  t.equal(custom.stillDue(), undefined, 'the full-size test is the caller\'s to give');
});

t.test('acknowledgements are paced: at once after a pause, then no sooner than 1000 / fps ms apart', async (t) => {
  let now = 1000;
  const pacer = new AckPacer(25, () => now);
  const acked = [];
  pacer.schedule(() => acked.push(now));
  t.same(acked, [1000], 'the first frame is acknowledged at once');
  now = 1010;
  t.equal(pacer.delayMs(), 30, 'a frame 10 ms later waits for the rest of the 40 ms');
  // A real timer sends the paced acknowledgement (unref'd, as the server has other handles: this
  // test's own sleep keeps the process up); the clock moves before it fires.
  pacer.schedule(() => acked.push(now));
  t.same(acked, [1000], 'not yet');
  now = 1040;
  await new Promise((resolve) => setTimeout(resolve, 80));
  t.same(acked, [1000, 1040]);
  now = 2000;
  t.equal(pacer.delayMs(), 0, 'after a pause: at once');
});

t.test('a cancelled acknowledgement is never sent', async (t) => {
  let now = 0;
  const pacer = new AckPacer(10, () => now);
  const acked = [];
  pacer.schedule(() => acked.push('first'));
  pacer.schedule(() => acked.push('second'));
  pacer.cancel();
  await new Promise((resolve) => setTimeout(resolve, 150));
  now = 500;
  t.same(acked, ['first'], 'the pending one went with the session');
});
