// The defaults derived from the memory limit (common/memory-budget.ts): the cgroup's limit when
// there is one below the machine's RAM, else the RAM; an explicit setting always wins.
import t from 'tap';
import { defaultHeapMb, derivedMaxBrowsers, memoryLimit } from '../../dist/common/memory-budget.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

t.test('memoryLimit: the cgroup limit when it is one, else the RAM', async (t) => {
  t.same(memoryLimit(2 * GiB, 64 * GiB), { bytes: 2 * GiB, source: 'cgroup' });
  t.same(memoryLimit(0, 64 * GiB), { bytes: 64 * GiB, source: 'host' }, '0: no limit (process.constrainedMemory)');
  t.same(memoryLimit(undefined, 64 * GiB), { bytes: 64 * GiB, source: 'host' }, 'a Node without constrainedMemory');
  t.same(memoryLimit(2 ** 64, 64 * GiB), { bytes: 64 * GiB, source: 'host' }, 'an unlimited cgroup reports a huge number');
  t.same(memoryLimit(64 * GiB, 64 * GiB), { bytes: 64 * GiB, source: 'host' }, 'a limit that is the RAM is no limit');
  t.same(memoryLimit(Number.NaN, 8 * GiB), { bytes: 8 * GiB, source: 'host' });
  const real = memoryLimit();
  t.ok(real.bytes > 0, 'this machine has a limit');
});

t.test('derivedMaxBrowsers: one per 512 MiB, one 512 MiB kept, at least one', async (t) => {
  t.equal(derivedMaxBrowsers({ bytes: 4 * GiB, source: 'cgroup' }), 7);
  t.equal(derivedMaxBrowsers({ bytes: 2 * GiB, source: 'cgroup' }), 3);
  t.equal(derivedMaxBrowsers({ bytes: 1 * GiB, source: 'cgroup' }), 1);
  t.equal(derivedMaxBrowsers({ bytes: 256 * MiB, source: 'cgroup' }), 1, 'a tiny container still serves one');
  t.equal(derivedMaxBrowsers({ bytes: 24 * GiB, source: 'host' }), 47);
});

t.test('defaultHeapMb: the setting, else 512, lowered to an eighth of a small limit, never below 128', async (t) => {
  const big = { bytes: 64 * GiB, source: 'host' };
  t.equal(defaultHeapMb({}, big), 512);
  t.equal(defaultHeapMb({}, { bytes: 2 * GiB, source: 'cgroup' }), 256);
  t.equal(defaultHeapMb({}, { bytes: 4 * GiB, source: 'cgroup' }), 512);
  t.equal(defaultHeapMb({}, { bytes: 512 * MiB, source: 'cgroup' }), 128);
  t.equal(defaultHeapMb({ BROWSER_REPL_HEAP_MB: '64' }, { bytes: 512 * MiB, source: 'cgroup' }), 64, 'an explicit setting wins, even below the floor');
  t.equal(defaultHeapMb({ BROWSER_REPL_HEAP_MB: '2048' }, big), 2048);
  t.equal(defaultHeapMb({ BROWSER_REPL_HEAP_MB: 'lots' }, big), 512, 'a setting that is not a number is ignored, as before');
  t.equal(defaultHeapMb({ BROWSER_REPL_HEAP_MB: '' }, big), 512);
});
