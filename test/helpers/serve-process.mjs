// Runs the server as a process, as users and the image do (`chromium-repl serve`), for the tests
// of the CLI, the image's entrypoint and restarts: resolves once it printed its listening line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { singletonSocketDir } from '../../dist/lib/chromium/launch-chromium.js';
import { sweepStaleTempFolders } from '../../dist/lib/system/child-lifetime.js';

export const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));

/** This process's environment without what would change how a test's server starts. */
export function serveEnv(extra = {}) {
  const env = { ...process.env };
  for (const name of ['BROWSER_REPL_TOKEN', 'PORT', 'HOST', 'CDP_ENDPOINT', 'NODE_DEBUG']) delete env[name];
  return { ...env, ...extra };
}

/**
 * Spawns `argv` (default `node main.js serve --port 0 --host 127.0.0.1`) and resolves once it
 * prints `chromium-repl listening on <url>`: `{ child, url, port, closed, stdout(), stderr() }`,
 * `closed` resolving with `[code, signal]`. A child still running at the test's end is killed
 * with `teardownSignal` (default SIGKILL) and awaited.
 */
export async function spawnServe(t, { argv = [process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1'], env = serveEnv(), cwd, teardownSignal = 'SIGKILL' } = {}) {
  const child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = once(child, 'close');
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(teardownSignal);
    const [, signal] = await closed;
    // Killed (here or by the test), the server could not remove its browsers' profiles and
    // Chromium's singleton-socket folders beside them: the next server's start would, but the
    // run may end first (the leak check saw two such folders after capacity-peers).
    if (signal !== null) await removeLeftoversOf(child.pid);
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const match = /^chromium-repl listening on (http:\/\/[^\s]+)\n/.exec(stdout);
      if (match !== null) resolve(match[1]);
    });
    closed.then(([code]) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
  return { child, url, port: Number(new URL(url).port), closed, stdout: () => stdout, stderr: () => stderr };
}

/** How long a killed server's Chromium may take to follow it (its parent-death signal, or the watchdog). */
const CHROMIUM_GONE_MS = 10_000;

/**
 * Once no process of `pid`'s browsers runs any more (their command lines name its profiles),
 * removes the temporary folders that dead servers left in this process's temporary folder, with
 * the singleton-socket folder of each profile: the product's own start-up sweep
 * (`sweepStaleTempFolders`, lib/system/child-lifetime.ts), which touches only folders whose
 * creating process is gone.
 */
export async function removeLeftoversOf(pid) {
  const marker = `browser-repl-profile-${pid}-`;
  const until = Date.now() + CHROMIUM_GONE_MS;
  while (Date.now() < until && processesNaming(marker) > 0) await sleep(100);
  await sweepStaleTempFolders(tmpdir(), singletonSocketDir);
}

/** How many processes have `text` in their command line. */
function processesNaming(text) {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) count++;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}
