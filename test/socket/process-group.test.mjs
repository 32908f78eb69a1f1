// groupAlive (lib/chromium/launch-chromium.ts): a browser's profile is removed only once every
// process of its group is gone, not only the browser process, so a renderer that outlives it by a
// moment cannot write into a removed profile. Real processes: a shell group leader with a child
// that outlives it.
import t from 'tap';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupAlive } from '../../dist/lib/chromium/launch-chromium.js';

t.test('a group counts as alive while any member runs, after its leader is gone too', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  // The leader starts a straggler in its own group and exits at once, like a browser whose
  // renderer is still finishing.
  const leader = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const straggler = Number((await new Promise((resolve) => leader.stdout.once('data', resolve))).toString().trim());
  await new Promise((resolve) => leader.once('exit', resolve));
  t.teardown(() => {
    try {
      process.kill(-leader.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  });
  t.ok(Number.isInteger(straggler), 'the straggler runs');
  t.equal(groupAlive(leader.pid), true, 'the leader exited, its group still has a live member');
  process.kill(-leader.pid, 'SIGKILL');
  for (let i = 0; i < 100 && groupAlive(leader.pid); i++) await sleep(20);
  t.equal(groupAlive(leader.pid), false, 'once the member is gone, so is the group');
  t.equal(groupAlive(2 ** 22 + 12345), false, 'a group nobody has is not alive');
});
