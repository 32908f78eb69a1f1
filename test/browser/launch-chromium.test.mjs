// launchChromium: the command line, launch failures with the browser's last words, the startup
// timeout, and the exit hook that kills a browser its Node process forgot to close.
import t from 'tap';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findChromium } from '../../dist/lib/chromium/find-chromium.js';
import { chromiumArgs, launchChromium, OFFLINE_ARGS, singletonSocketDir } from '../../dist/lib/chromium/launch-chromium.js';
import { detectNoSandbox } from '../../dist/lib/chromium/sandbox.js';

const scratch = mkdtempSync(join(tmpdir(), 'browser-repl-launch-test-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** A fake "browser": a shell script with the given body. */
function fakeBrowser(name, body) {
  const file = join(scratch, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** True while `pid` runs; a zombie waiting to be reaped by init counts as gone. */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone (a killed grandchild is reaped by init, not by us). */
async function gone(pid, limitMs = 10_000) {
  for (const started = Date.now(); Date.now() - started < limitMs; ) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const profilesIn = (dir) => readdirSync(dir).filter((name) => name.startsWith('browser-repl-profile-'));

t.test('chromiumArgs', async (t) => {
  const args = chromiumArgs({ userDataDir: '/tmp/p', noSandbox: true, args: ['--window-size=800,600', '--headless=old'] });
  t.equal(args[0], '--remote-debugging-port=0');
  t.ok(args.includes('--user-data-dir=/tmp/p'));
  for (const flag of OFFLINE_ARGS) t.ok(args.includes(flag), flag);
  t.ok(args.includes('--headless=new'));
  t.ok(args.includes('--no-sandbox'));
  t.same(args.slice(-3), ['about:blank', '--window-size=800,600', '--headless=old'], 'caller args come last, so they win');
  const headful = chromiumArgs({ userDataDir: '/tmp/p', headless: false, args: ['http://127.0.0.1:1/'] });
  t.notOk(headful.some((arg) => arg.startsWith('--headless')), 'headless: false');
  t.notOk(headful.includes('--no-sandbox'));
  t.notOk(headful.includes('about:blank'), 'a caller URL replaces about:blank');
});

t.test('a browser that exits at once: REPL_ERR_BROWSER_LAUNCH_FAILED with its last stderr lines', async (t) => {
  const executable = fakeBrowser('crashing-browser', 'echo "line one" >&2\necho "FATAL: no usable sandbox" >&2\nexit 3');
  const error = await launchChromium({ executable, tmpDir: scratch }).catch((e) => e);
  t.equal(error.code, 'REPL_ERR_BROWSER_LAUNCH_FAILED');
  t.match(error.message, /exited \(code 3, signal null\) before printing its DevTools endpoint/);
  t.match(error.message, /Last browser output:\nline one\nFATAL: no usable sandbox/);
  t.match(error.message, /Hint: the sandbox could not start/);
  t.same(profilesIn(scratch), [], 'the profile is removed');
});

t.test('a TMPDIR too deep for Chromium\'s singleton socket: the failure says so and what to do', async (t) => {
  // 120 bytes of folders: the socket's path (TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket) cannot fit.
  const deep = join(scratch, 'd'.repeat(Math.max(1, 120 - scratch.length)));
  mkdirSync(deep, { recursive: true });
  const error = await launchChromium({
    executable: findChromium().executable, tmpDir: scratch, noSandbox: detectNoSandbox().noSandbox, env: { ...process.env, TMPDIR: deep },
  }).catch((e) => e);
  t.equal(error.code, 'REPL_ERR_BROWSER_LAUNCH_FAILED');
  t.match(error.message, /Socket path too long/);
  t.match(error.message, /Hint: Chromium's singleton socket lives in TMPDIR \(.*d{8}/);
  t.match(error.message, /start the server with a shorter TMPDIR/);
  t.same(profilesIn(scratch), [], 'the profile is removed');
});

t.test('a browser that never prints its endpoint is killed (with its children) after the startup timeout', async (t) => {
  const pidFile = join(scratch, 'child.pid');
  const executable = fakeBrowser('silent-browser', `echo "starting" >&2\nsleep 30 &\necho $! > ${pidFile}\nwait`);
  const error = await launchChromium({ executable, tmpDir: scratch, startupTimeoutMs: 300, killGraceMs: 200 }).catch((e) => e);
  t.equal(error.code, 'REPL_ERR_BROWSER_LAUNCH_FAILED');
  t.match(error.message, /did not print its DevTools endpoint within 300ms/);
  t.match(error.message, /starting/);
  const childPid = Number(readFileSync(pidFile, 'utf8'));
  t.ok(await gone(childPid), 'the whole process group was signalled');
  t.same(profilesIn(scratch), []);
});

t.test('an executable that cannot be spawned', async (t) => {
  const notExecutable = join(scratch, 'plain-file');
  writeFileSync(notExecutable, 'not a program');
  await t.rejects(launchChromium({ executable: notExecutable, tmpDir: scratch }), { code: 'REPL_ERR_BROWSER_LAUNCH_FAILED', message: /Could not start/ });
  t.same(profilesIn(scratch), []);
});

t.test('the launched browser runs in its own profile and [Symbol.asyncDispose] ends it', async (t) => {
  const { executable } = findChromium();
  const browser = await launchChromium({ executable, noSandbox: detectNoSandbox().noSandbox, tmpDir: scratch });
  t.teardown(() => browser.close());
  t.match(browser.wsEndpoint, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
  t.ok(browser.running);
  t.ok(existsSync(browser.userDataDir));
  // Chromium's singleton socket folder in the OS temp folder, which it leaves behind by itself.
  const singleton = singletonSocketDir(browser.userDataDir);
  t.match(singleton, /\/org\.chromium\.Chromium\.\w+$/);
  t.ok(existsSync(singleton));
  await browser[Symbol.asyncDispose]();
  const exit = await browser.exited;
  t.match(exit, { pid: browser.pid, expected: true });
  t.notOk(browser.running);
  t.notOk(isAlive(browser.pid));
  t.notOk(existsSync(browser.userDataDir));
  t.notOk(existsSync(singleton), 'its singleton socket folder is gone with the profile');
});

t.test('a Node process that exits without closing its browser takes the browser with it', async (t) => {
  const script = `
    import { launchChromium } from ${JSON.stringify(new URL('../../dist/lib/chromium/launch-chromium.js', import.meta.url).href)};
    const browser = await launchChromium({ executable: ${JSON.stringify(findChromium().executable)}, noSandbox: ${detectNoSandbox().noSandbox}, tmpDir: ${JSON.stringify(scratch)} });
    process.stdout.write(JSON.stringify({ pid: browser.pid, profile: browser.userDataDir }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
  const { pid, profile } = JSON.parse(stdout);
  t.ok(Number.isInteger(pid));
  // The child exited on its own (nothing kept it alive) and its exit hook killed the browser.
  t.ok(await gone(pid), 'the browser process is gone');
  t.notOk(existsSync(profile), 'its profile is gone');
});
