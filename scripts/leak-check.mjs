#!/usr/bin/env node
// Runs a command (the test tiers) and then fails, naming them, if it left a process or a
// temporary file behind: a Chromium (with its renderers), a server, a watchdog, a command of
// /process/exec, a profile, a download or workspace folder, Chromium's singleton-socket folder,
// a folder Playwright made for a connection that was never closed.
//
//   node scripts/leak-check.mjs <command> [args...]
//
// Attribution, on a machine others share:
// - Processes: every process the command starts inherits BROWSER_REPL_LEAK_CHECK=<run id> in its
//   environment (Chromium and its children too), so a process is ours when /proc/<pid>/environ
//   carries the id; processes of anyone else on the machine are never blamed.
// - Files: the command runs with TMPDIR set to a folder of this run's own (Node's os.tmpdir(),
//   Chromium and Playwright all honour it), so whatever is left in it is surely ours, whatever its
//   name: it is named, removed, and fails the run. Folders without a creator in their name
//   (Playwright's `playwright-artifacts-*`, Chromium's `org.chromium.Chromium.*`) can only be told
//   apart this way: in the shared folder they may be anyone's. The shared folder is still watched
//   for what ignored TMPDIR: a folder with one of our names and its creator's pid in it, where
//   that creator is not a live process of someone else.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const MARKER = 'BROWSER_REPL_LEAK_CHECK';
/** Names of the temporary folders the package (lib/system/child-lifetime.ts) and its tests create: watched in the shared folder. */
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
/**
 * This run's TMPDIR: all of it that is left at the end was left by the command. A short name:
 * Chromium keeps its singleton socket in a folder of TMPDIR, and a Unix socket's path may not be
 * longer than 107 bytes, so every byte here is one less for the tests' own folders below it.
 */
const runTemp = mkdtempSync(path.join(temp, 'leak-run-'));
// Open to every user as the shared folder is (sticky, world-writable): tests run servers as the
// image's user, whose temporary folder lives in here.
chmodSync(runTemp, 0o1777);
/**
 * Caches the tools keep in their temporary folder on purpose, to be found by the next run: tap's
 * TypeScript loader (v8-compile-cache-lib) and Node's compile cache. Links to the shared folder's,
 * so they stay warm across runs; never counted as left behind.
 */
const SHARED_CACHES = [`v8-compile-cache-${process.getuid?.() ?? 'shared'}`, 'node-compile-cache'];
for (const name of SHARED_CACHES) {
  mkdirSync(path.join(temp, name), { recursive: true });
  symlinkSync(path.join(temp, name), path.join(runTemp, name));
}

const runStarted = Date.now();
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, [MARKER]: runId, TMPDIR: runTemp } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const [code, signal] = await new Promise((resolve) => child.once('exit', (...result) => resolve(result)));
const status = code ?? (signal === null ? 1 : 128);

let processes = ourProcesses();
const settleUntil = Date.now() + SETTLE_MS;
while (processes.length > 0 && Date.now() < settleUntil) {
  await sleep(200);
  processes = ourProcesses();
}
const leftInRunTemp = readdirSync(runTemp).filter((name) => !SHARED_CACHES.includes(name)).map((name) => path.join(runTemp, name));
const leftInShared = listFolders().filter((name) => !foldersBefore.has(name) && ownCreatorGone(name)).map((name) => path.join(temp, name));
const folders = [...leftInRunTemp, ...leftInShared];

if (processes.length === 0 && folders.length === 0) {
  rmSync(runTemp, { recursive: true, force: true });
  console.log(`# leak check: no process and no temporary file left behind (the run's TMPDIR and ${temp})`);
  process.exit(status);
}
console.log('# leak check FAILED: the tests left these behind');
for (const p of processes) console.log(`#   process ${p.pid} (group ${p.pgid}): ${p.cmdline.slice(0, 160)}`);
// Named by where the command believed it wrote them: its TMPDIR (the run's folder, removed below).
// When it was made (and what is in it) tells which test file left it: tap prints each file's end.
for (const file of leftInRunTemp) console.log(`#   ${kindOf(file)} ${path.join('$TMPDIR', path.basename(file))}${whenMade(file)}`);
for (const file of leftInShared) console.log(`#   folder ${file}${whenMade(file)}`);
// Clean up, so that the machine and the next run are not affected.
for (const p of processes) {
  try {
    process.kill(p.pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}
// All of it is surely ours: the run's TMPDIR and the shared folders whose creator was ours.
for (const file of folders) rmSync(file, { recursive: true, force: true });
rmSync(runTemp, { recursive: true, force: true });
console.log(`# leak check: ${processes.length} process(es) and ${folders.length} temporary file(s) left; killed the processes, removed the files`);
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
 * Whether a new folder of the shared temporary folder is one of ours that ignored TMPDIR: its
 * name carries its creator's pid (lib/system/child-lifetime.ts names them so), and that creator is
 * not a live process of someone else. A name without a pid cannot be attributed there.
 */
function ownCreatorGone(name) {
  const owned = /-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  return owned !== null && !liveOther(Number(owned[1]));
}

function kindOf(file) {
  return lstatSync(file, { throwIfNoEntry: false })?.isDirectory() ? 'folder' : 'file';
}

/** A running process without this run's id (EACCES on its environment: another user's). */
function liveOther(pid) {
  try {
    return !readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`${MARKER}=${runId}`);
  } catch (error) {
    return error.code === 'EACCES';
  }
}

/** ` (made 312 s into the run, last changed 318 s; holds SingletonSocket, SingletonCookie)`, or '' when it is gone. */
function whenMade(file) {
  try {
    const stat = lstatSync(file);
    const at = (ms) => Math.round((ms - runStarted) / 1000);
    let inside = '';
    if (stat.isDirectory()) {
      const names = readdirSync(file);
      inside = names.length === 0 ? '; empty' : `; holds ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''}`;
    }
    return ` (made ${at(stat.birthtimeMs || stat.ctimeMs)} s into the run, last changed ${at(stat.mtimeMs)} s${inside})`;
  } catch {
    return '';
  }
}
