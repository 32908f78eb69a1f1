// lib/system/child-lifetime.ts: children die with the process that spawned them, however it dies
// (the death signal through setpriv, the watchdog for whole groups and where setpriv is missing),
// and the next start removes exactly the folders of creators that no longer run. Real processes:
// a Node child that spawns and is then SIGKILLed.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  findSetpriv, guardProcessGroup, ownedTempPrefix, ownerOfTempFolder, processRuns, sweepStaleTempFolders, tiedCommand,
} from '../../dist/lib/system/child-lifetime.js';
import { groupAlive } from '../../dist/lib/chromium/launch-chromium.js';

const MODULE = fileURLToPath(new URL('../../dist/lib/system/child-lifetime.js', import.meta.url));
const linux = process.platform === 'linux';

/** A pid that ran and is gone: a process that exited (and was reaped). */
async function deadPid() {
  const child = spawn('/bin/sh', ['-c', 'exit 0']);
  await once(child, 'exit');
  return child.pid;
}

async function until(what, check, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(50);
  }
}

/**
 * Runs a Node process that spawns `sh -c 'sleep 300 & wait'` (a leader and a child in the
 * leader's group) the way the server does, prints the group id, and waits to be killed.
 */
async function spawner(t, { setpriv, guard }) {
  const script = `
    import { spawn } from 'node:child_process';
    import { tiedCommand, guardProcessGroup } from ${JSON.stringify(MODULE)};
    const tied = tiedCommand('/bin/sh', ['-c', 'sleep 300 & wait'], { enabled: ${setpriv} });
    const child = spawn(tied.command, tied.args, { detached: true, stdio: 'ignore' });
    if (${guard}) guardProcessGroup(child.pid);
    child.unref();
    process.stdout.write(JSON.stringify({ pgid: child.pid, mode: tied.mode }) + '\\n');
    setInterval(() => {}, 1000);
  `;
  const node = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(node.stdout.setEncoding('utf8'), 'data');
  const started = JSON.parse(line);
  t.teardown(() => {
    try {
      process.kill(-started.pgid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
    if (node.exitCode === null && node.signalCode === null) node.kill('SIGKILL');
  });
  // Wait until both members run, so the test does not race the shell's fork.
  await until('the group has its two members', () => members(started.pgid).length === 2);
  return { node, ...started };
}

/** Live members of process group `pgid` (zombies excluded). */
function members(pgid) {
  const found = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

t.test('tiedCommand', { skip: !linux && 'setpriv is Linux only' }, async (t) => {
  const setpriv = findSetpriv();
  t.ok(setpriv === null || path.isAbsolute(setpriv), `setpriv: ${setpriv}`);
  if (setpriv !== null) {
    t.same(tiedCommand('/bin/sh', ['-c', 'true']), { command: setpriv, args: ['--pdeathsig', 'KILL', '--', '/bin/sh', '-c', 'true'], mode: 'pdeathsig' });
    t.equal(tiedCommand('sh', []).mode, 'pdeathsig', 'a name found on PATH is wrapped');
  }
  t.same(tiedCommand('/nonexistent/chromium', ['--x']), { command: '/nonexistent/chromium', args: ['--x'], mode: 'watchdog' },
    'a missing executable is not wrapped: spawn reports ENOENT as before');
  t.equal(tiedCommand('no-such-command-here', [], { pathEnv: '/usr/bin:/bin' }).mode, 'watchdog');
  t.same(tiedCommand('/bin/sh', [], { enabled: false }), { command: '/bin/sh', args: [], mode: 'none' });
});

t.test('a SIGKILLed spawner takes its children with it', { skip: !linux && 'reads /proc' }, async (t) => {
  t.test('setpriv and the watchdog: the whole group goes', { skip: findSetpriv() === null && 'no setpriv here' }, async (t) => {
    const { node, pgid, mode } = await spawner(t, { setpriv: true, guard: true });
    t.equal(mode, 'pdeathsig');
    node.kill('SIGKILL');
    await until('the group ends', () => !groupAlive(pgid));
    t.pass('leader and child are gone');
  });

  t.test('the watchdog alone (no setpriv): the whole group goes', async (t) => {
    const { node, pgid, mode } = await spawner(t, { setpriv: false, guard: true });
    t.equal(mode, 'none');
    node.kill('SIGKILL');
    await until('the group ends', () => !groupAlive(pgid));
    t.pass('leader and child are gone');
  });

  t.test('setpriv alone reaches the leader only: why the watchdog is needed too', { skip: findSetpriv() === null && 'no setpriv here' }, async (t) => {
    const { node, pgid } = await spawner(t, { setpriv: true, guard: false });
    const before = members(pgid);
    node.kill('SIGKILL');
    await until('the leader ends', () => !processRuns(pgid));
    t.equal(members(pgid).length, 1, `the shell's own child survives the death signal (of ${before.length} members)`);
  });

  t.test('without either, the group outlives its spawner (the failure this module prevents)', async (t) => {
    const { node, pgid } = await spawner(t, { setpriv: false, guard: false });
    node.kill('SIGKILL');
    await once(node, 'exit');
    await sleep(300);
    t.equal(members(pgid).length, 2, 'both still run');
  });

  t.test('a released group is not killed later', async (t) => {
    const leader = spawn('/bin/sh', ['-c', 'sleep 300'], { detached: true, stdio: 'ignore' });
    t.teardown(() => {
      try {
        process.kill(-leader.pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    });
    const guard = guardProcessGroup(leader.pid);
    guard.release();
    guard.release();
    t.equal(groupAlive(leader.pid), true, 'releasing does not kill');
  });
});

t.test('temporary folders carry their creator and are swept only when it is gone', async (t) => {
  const parent = mkdtempSync(path.join(tmpdir(), 'browser-repl-test-sweep-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  t.equal(ownedTempPrefix('browser-repl-profile', parent), path.join(parent, `browser-repl-profile-${process.pid}-`));
  t.equal(ownerOfTempFolder('browser-repl-profile-123-AbC9xZ'), 123);
  t.equal(ownerOfTempFolder('chromium-repl-downloads-77-aaaaaa'), 77);
  t.equal(ownerOfTempFolder('browser-repl-profile-AbC9xZ'), undefined, 'an old name without a pid is not ours to judge');
  t.equal(ownerOfTempFolder('browser-repl-profile-123-AbC9xZ-extra'), undefined);
  t.equal(ownerOfTempFolder('something-else-123-AbC9xZ'), undefined);

  const dead = await deadPid();
  t.equal(processRuns(dead), false);
  const staleProfile = path.join(parent, `browser-repl-profile-${dead}-aaaaaa`);
  const staleDownloads = path.join(parent, `chromium-repl-downloads-${dead}-bbbbbb`);
  const companion = path.join(parent, 'org.chromium.Chromium.cccccc');
  const mine = path.join(parent, `browser-repl-profile-${process.pid}-dddddd`);
  const liveOther = path.join(parent, `chromium-repl-tools-${process.ppid}-eeeeee`);
  const foreign = path.join(parent, `other-tool-${dead}-ffffff`);
  for (const dir of [staleProfile, staleDownloads, companion, mine, liveOther, foreign]) mkdirSync(dir);
  const removed = await sweepStaleTempFolders(parent, (folder) => (folder === staleProfile ? companion : undefined));
  t.same(removed.sort(), [staleDownloads, staleProfile].sort(), 'only the folders of the gone creator');
  t.equal(existsSync(companion), false, 'with the companion the callback named');
  t.ok(existsSync(mine) && existsSync(liveOther) && existsSync(foreign), 'ours, a live process\'s and foreign folders stay');
  t.same(await sweepStaleTempFolders(path.join(parent, 'missing')), [], 'a missing parent is no error');
});
