// The server SIGKILLed and started again (issue 13): nothing it ran survives it (browsers with
// their renderers, a /process/exec command, /process/spawn processes, one on a terminal, its
// worker threads), and the next server removes the folders it left. Real `chromium-repl serve`
// processes, real Chromium, loopback only.
import t from 'tap';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { spawnServe } from '../helpers/serve-process.mjs';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Starts `chromium-repl serve --port 0`; resolves with its URL and the child. */
function serve(t) {
  // SIGTERM at the end: a server killed with SIGKILL would be the subject of another test.
  return spawnServe(t, { cwd: FIXTURES, teardownSignal: 'SIGTERM' });
}

async function call(url, method, route, body) {
  const response = await request(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: JSON.parse(text), text };
}

/** Every process of the machine: pid, parent, process group, command line. */
function processes() {
  const list = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      list.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}

/** The folders in the temp folder that the server with `pid` created (their names carry it). */
const foldersOf = (pid) => readdirSync(tmpdir()).filter((name) => new RegExp(`^(browser-repl-profile|chromium-repl-[a-z]+)-${pid}-`).test(name));

/** What the server with `pid` runs: its browsers' process groups (every process in them) and its other children. */
function runningFor(pid) {
  const all = processes();
  const browserGroups = new Set(all.filter((p) => p.cmdline.includes(`browser-repl-profile-${pid}-`)).map((p) => p.pgid));
  const inGroups = all.filter((p) => browserGroups.has(p.pgid));
  const children = all.filter((p) => p.ppid === pid);
  // The /process/exec command: a shell and the `sleep` it started, in the shell's process group.
  const commandGroups = new Set(all.filter((p) => p.cmdline.includes('browser-repl-restart-marker')).map((p) => p.pgid));
  const command = all.filter((p) => commandGroups.has(p.pgid));
  // The /process/spawn processes: a shell with two sleeps, and one on a terminal (`script`, and
  // the shell and sleep of the terminal's own session).
  const spawnedGroups = new Set(all.filter((p) => p.cmdline.includes('browser-repl-restart-spawned')).map((p) => p.pgid));
  const spawned = all.filter((p) => spawnedGroups.has(p.pgid));
  return { browserGroups: [...browserGroups], browserProcesses: inGroups, children, command, spawned };
}

async function until(what, check, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value === true) return;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

t.test('a SIGKILLed server leaves nothing running, and the next one removes what it left on disk', async (t) => {
  const first = await serve(t);
  const pid = first.child.pid;

  // Two browsers (the default one and one of POST /browsers), a named executor, and a command
  // still running through /process/exec when the server dies.
  const cell = await call(first.url, 'POST', '/repl', { code: 'await gotoUrl("about:blank"); (await pageInfo()).url' });
  t.equal(cell.status, 200, cell.text);
  t.equal(cell.json.success, true, cell.text);
  const created = await call(first.url, 'POST', '/browsers', {});
  t.equal(created.status, 200, created.text);
  const second = await call(first.url, 'POST', `/browsers/${created.json.session_id}/repl`, { code: '1 + 1' });
  t.equal(second.json.success, true, second.text);
  const executor = await call(first.url, 'POST', '/playwright/execute', { code: 'return 40 + 2', executor: 'survivor' });
  t.equal(executor.status, 200, executor.text);
  const exec = call(first.url, 'POST', '/process/exec', { command: 'sh', args: ['-c', 'sleep 300; : browser-repl-restart-marker'], timeout_sec: 290 })
    .catch((error) => error);
  await until('the /process/exec command and its child start', () => runningFor(pid).command.length === 2 || runningFor(pid).command.map((p) => p.cmdline));
  const spawnedPlain = await call(first.url, 'POST', '/process/spawn', { command: 'sh', args: ['-c', 'sleep 300 & sleep 300; : browser-repl-restart-spawned'] });
  t.equal(spawnedPlain.status, 200, spawnedPlain.text);
  const spawnedTty = await call(first.url, 'POST', `/browsers/${created.json.session_id}/process/spawn`, { command: 'sh', args: ['-c', 'sleep 300; : browser-repl-restart-spawned'], allocate_tty: true });
  t.equal(spawnedTty.status, 200, spawnedTty.text);
  await until('the spawned processes start', () => runningFor(pid).spawned.length >= 6 || runningFor(pid).spawned.map((p) => p.cmdline));

  const before = runningFor(pid);
  t.ok(before.browserGroups.length >= 2, `two browsers run (${before.browserGroups.length} browser process groups)`);
  t.ok(before.browserProcesses.length >= 4, `with their renderer, GPU and zygote processes (${before.browserProcesses.length} processes)`);
  t.ok(foldersOf(pid).length >= 2, `the server made its folders: ${foldersOf(pid).join(', ')}`);
  const singletons = [];
  for (const name of foldersOf(pid).filter((entry) => entry.startsWith('browser-repl-profile-'))) {
    try {
      singletons.push(path.dirname(readlinkSync(path.join(tmpdir(), name, 'SingletonSocket'))));
    } catch {
      // A profile without a singleton socket yet.
    }
  }

  first.child.kill('SIGKILL');
  await first.closed;
  t.ok((await exec) instanceof Error, 'the running /process/exec request ends with the server');
  // Linux delivers the parent-death signal at once; the zygote and renderers follow their browser.
  await until('every process of the killed server is gone', () => {
    const left = runningFor(pid);
    const all = [...left.browserProcesses, ...left.command, ...left.spawned];
    return all.length === 0 || all.map((p) => `${p.pid} ${p.cmdline.slice(0, 80)}`);
  });
  t.pass(`left running after the SIGKILL: 0 processes (were ${before.browserProcesses.length} browser processes in ${before.browserGroups.length} groups, a command with its child, and ${before.spawned.length} spawned processes)`);
  let threads = 0;
  try {
    threads = readdirSync(`/proc/${pid}/task`).length;
  } catch {
    // The process is gone, and its worker threads with it.
  }
  t.equal(threads, 0, 'no worker thread of the server is left');
  const leftOnDisk = foldersOf(pid);
  t.ok(leftOnDisk.length > 0, `a SIGKILLed server cannot remove its folders (${leftOnDisk.length} left)`);

  // The next server removes them as it starts (their creator no longer runs).
  const next = await serve(t);
  t.same(foldersOf(pid), [], `the next server removed the ${leftOnDisk.length} folders of the killed one as it started`);
  const again = await call(next.url, 'POST', '/repl', { code: '(await pageInfo()).url' });
  t.equal(again.json.success, true, again.text);
  const singletonsLeft = singletons.filter((dir) => readdirSync(tmpdir()).includes(path.basename(dir)));
  t.same(singletonsLeft, [], `and the ${singletons.length} singleton-socket folders of its profiles`);
  t.comment(`server SIGKILL: ${before.browserProcesses.length} browser processes in ${before.browserGroups.length} groups and a command with its child ended with it; ${leftOnDisk.length} folders and ${singletons.length} singleton folders removed by the next start`);

  const nextPid = next.child.pid;
  next.child.kill('SIGTERM');
  const [code] = await next.closed;
  t.equal(code, 0, next.stderr());
  t.same(foldersOf(nextPid), [], 'a server stopped with SIGTERM leaves no folder');
  t.same(runningFor(nextPid).browserProcesses, [], 'and no browser process');
});
