// scripts/leak-check.mjs, the last step of `npm test`: it fails, naming them, when the command it
// ran left a process or a temporary folder behind, and passes the command's own status otherwise.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/leak-check.mjs', import.meta.url));

// A temp folder of its own: other test files run at the same time and make folders in the shared one.
const temp = mkdtempSync(path.join(tmpdir(), 'browser-repl-test-leakcheck-'));
t.teardown(() => rmSync(temp, { recursive: true, force: true }));

async function leakCheck(...command) {
  const env = { ...process.env, TMPDIR: temp, BROWSER_REPL_LEAK_SETTLE_MS: '500' };
  const child = spawn(process.execPath, [SCRIPT, ...command], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  const [code] = await once(child, 'close');
  return { code, output };
}

t.test('a clean command passes with its own status', async (t) => {
  const clean = await leakCheck('/bin/sh', '-c', 'exit 0');
  t.equal(clean.code, 0, clean.output);
  t.match(clean.output, /leak check: no process and no temporary folder left behind/);
  const failing = await leakCheck('/bin/sh', '-c', 'exit 3');
  t.equal(failing.code, 3, 'a failing command keeps its status');
});

t.test('a process and folders left behind fail the run, named', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  // A creator pid that no longer runs: the shell's own, gone when the check looks.
  const profile = `browser-repl-profile-$$-Ab12Cd`;
  const script = `setsid sh -c 'sleep 60; : browser-repl-leak-demo' >/dev/null 2>&1 & mkdir "${temp}/${profile}" "${temp}/browser-repl-test-leak-$$"; echo $$`;
  const result = await leakCheck('/bin/sh', '-c', script);
  const shellPid = /^(\d+)$/m.exec(result.output)?.[1];
    t.equal(result.code, 1, 'the run fails');
  t.match(result.output, /leak check FAILED/);
  t.match(result.output, /process \d+ \(group \d+\): sh -c sleep 60; : browser-repl-leak-demo/, 'names the process');
  t.match(result.output, new RegExp(`folder .*browser-repl-profile-${shellPid}-Ab12Cd`), 'names the profile');
  t.match(result.output, new RegExp(`folder .*browser-repl-test-leak-${shellPid}`), 'names the test folder');
  t.equal(existsSync(path.join(temp, `browser-repl-profile-${shellPid}-Ab12Cd`)), false, 'removes a folder whose creator is gone');
  t.equal(existsSync(path.join(temp, `browser-repl-test-leak-${shellPid}`)), true, 'leaves a folder it cannot attribute for sure');
  t.match(result.output, /[12] process\(es\) and 2 folder\(s\) left; killed the processes, removed 1 folder/);
});
