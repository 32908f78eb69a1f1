#!/usr/bin/env node
// Runs a command (the test tiers) and then fails, naming them, if it left a process or a
// temporary folder behind: a Chromium (with its renderers), a server, a watchdog, a command of
// /process/exec, a profile, a download or workspace folder, Chromium's singleton-socket folder.
//
//   node scripts/leak-check.mjs <command> [args...]
//
// Attribution: every process the command starts inherits BROWSER_REPL_LEAK_CHECK=<run id> in its
// environment (Chromium and its children too), so a process is ours when /proc/<pid>/environ
// carries the id; processes of anyone else on the machine are never blamed. A folder is ours when
// it appeared during the run, has one of the names the package and its tests give their temporary
// folders, and its creator (the pid in the name, where it has one) is not a live process of
// someone else. What is found is reported, the processes are killed and the folders that surely
// are ours removed (so the next run starts clean), and the exit status is 1.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const MARKER = 'BROWSER_REPL_LEAK_CHECK';
/** Names of the temporary folders the package (lib/system/child-lifetime.ts) and its tests create. */
const FOLDER_NAMES = /^(browser-repl-|chromium-repl-|org\.chromium\.Chromium\.|playwright-artifacts-|interaction-upload-|semantic-upload-|mcp-conformance-|mcp-stdio-test-)/;
/** Processes may take a moment to go after the test process that owned them exited. */
const SETTLE_MS = Number(process.env.BROWSER_REPL_LEAK_SETTLE_MS ?? 10_000);

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: node scripts/leak-check.mjs <command> [args...]');
  process.exit(2);
}

const runId = randomUUID();
const temp = tmpdir();
const foldersBefore = new Set(listFolders());

const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, [MARKER]: runId } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const [code, signal] = await new Promise((resolve) => child.once('exit', (...result) => resolve(result)));
const status = code ?? (signal === null ? 1 : 128);

let processes = ourProcesses();
const settleUntil = Date.now() + SETTLE_MS;
while (processes.length > 0 && Date.now() < settleUntil) {
  await sleep(200);
  processes = ourProcesses();
}
const folders = listFolders().filter((name) => !foldersBefore.has(name) && !ownedByOther(name));

if (processes.length === 0 && folders.length === 0) {
  console.log(`# leak check: no process and no temporary folder left behind (${temp})`);
  process.exit(status);
}
console.log('# leak check FAILED: the tests left these behind');
for (const p of processes) console.log(`#   process ${p.pid} (group ${p.pgid}): ${p.cmdline.slice(0, 160)}`);
for (const name of folders) console.log(`#   folder ${path.join(temp, name)}`);
// Clean up, so that the machine and the next run are not affected.
for (const p of processes) {
  try {
    process.kill(p.pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}
// Only what is surely ours: a folder without its creator's pid in the name might belong to
// something else that ran meanwhile on a shared machine, so it is named but left alone.
const removable = folders.filter((name) => /-\d+-[A-Za-z0-9]{6}$/.test(name));
for (const name of removable) rmSync(path.join(temp, name), { recursive: true, force: true });
console.log(`# leak check: ${processes.length} process(es) and ${folders.length} folder(s) left; killed the processes, removed ${removable.length} folder(s)`);
process.exit(status === 0 ? 1 : status);

function listFolders() {
  try {
    return readdirSync(temp).filter((name) => FOLDER_NAMES.test(name));
  } catch {
    return [];
  }
}

/** Live processes (not zombies) that carry this run's id in their environment. */
function ourProcesses() {
  if (process.platform !== 'linux') return [];
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.includes(`${MARKER}=${runId}`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      found.push({ pid: Number(entry), pgid: Number(fields[2]), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Whether a new folder belongs to a live process that is not part of this run (another server on
 * the machine): its name carries its creator's pid, or, for Chromium's singleton-socket folder, a
 * profile of such a creator links to it.
 */
function ownedByOther(name) {
  const owned = /-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  if (owned !== null) return liveOther(Number(owned[1]));
  if (!name.startsWith('org.chromium.Chromium.')) return false;
  for (const profile of listFolders().filter((entry) => entry.startsWith('browser-repl-profile-'))) {
    try {
      if (path.basename(path.dirname(readlinkSync(path.join(temp, profile, 'SingletonSocket')))) !== name) continue;
    } catch {
      continue;
    }
    const creator = /-(\d+)-[A-Za-z0-9]{6}$/.exec(profile);
    return creator !== null && liveOther(Number(creator[1]));
  }
  return false;
}

/** A running process without this run's id (EACCES on its environment: another user's). */
function liveOther(pid) {
  try {
    return !readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`${MARKER}=${runId}`);
  } catch (error) {
    return error.code === 'EACCES';
  }
}
