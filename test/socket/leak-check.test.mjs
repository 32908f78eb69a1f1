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
  t.match(clean.output, /leak check: no process and no temporary file left behind/);
  const failing = await leakCheck('/bin/sh', '-c', 'exit 3');
  t.equal(failing.code, 3, 'a failing command keeps its status');
});

t.test('a process and files left behind fail the run, named', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  // The command gets a TMPDIR of the run's own: all of it that is left is the command's, whatever
  // its name. In the shared folder (here \`temp\`) only a folder that names its creator's pid, and
  // whose creator is not someone else's live process, is blamed (the shell's own pid: gone when
  // the check looks); one without a pid may be anyone's and is left alone.
  const sharedProfile = `browser-repl-profile-$$-Ab12Cd`;
  const script = [
    `setsid sh -c 'sleep 60; : browser-repl-leak-demo' >/dev/null 2>&1 &`,
    'mkdir "$TMPDIR/playwright-artifacts-Xy12Zw" && : > "$TMPDIR/stray.txt"',
    `mkdir "${temp}/${sharedProfile}" "${temp}/playwright-artifacts-Other1"`,
    'echo "$$ $TMPDIR"',
  ].join('\n');
  const result = await leakCheck('/bin/sh', '-c', script);
  t.teardown(() => rmSync(path.join(temp, 'playwright-artifacts-Other1'), { recursive: true, force: true }));
  const [, shellPid, runTemp] = /^(\d+) (\S+)$/m.exec(result.output) ?? [];
  t.equal(result.code, 1, 'the run fails');
  t.match(result.output, /leak check FAILED/);
  t.equal(path.dirname(runTemp ?? ''), temp, 'the TMPDIR of the run is a folder of its own inside the shared one');
  t.match(result.output, /process \d+ \(group \d+\): sh -c sleep 60; : browser-repl-leak-demo/, 'names the process');
  t.match(result.output, /folder \$TMPDIR\/playwright-artifacts-Xy12Zw/, 'names a folder left in its TMPDIR, though its name has no creator');
  t.match(result.output, /file \$TMPDIR\/stray\.txt/, 'names a file left there');
  t.match(result.output, new RegExp(`folder .*${sharedProfile.replace('$$', shellPid)}`), 'names a folder of the shared one whose creator was its own');
  t.notMatch(result.output, /playwright-artifacts-Other1/, 'a folder of the shared one without a creator is not blamed');
  t.equal(existsSync(runTemp ?? temp), false, 'removes its TMPDIR with what was left in it');
  t.equal(existsSync(path.join(temp, sharedProfile.replace('$$', shellPid))), false, 'removes the folder whose creator is gone');
  t.equal(existsSync(path.join(temp, 'playwright-artifacts-Other1')), true, 'leaves the folder it cannot attribute');
  t.match(result.output, /[12] process\(es\) and 3 temporary file\(s\) left; killed the processes, removed the files/);
});

t.test('a clean run removes its TMPDIR', async (t) => {
  const clean = await leakCheck('/bin/sh', '-c', 'echo "$TMPDIR"');
  t.equal(clean.code, 0, clean.output);
  const runTemp = clean.output.split('\n')[0];
  t.not(runTemp, temp, 'the command saw a TMPDIR of its own');
  t.equal(existsSync(runTemp), false, 'and it is gone');
});
