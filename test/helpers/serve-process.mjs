// Runs the server as a process, as users and the image do (`chromium-repl serve`), for the tests
// of the CLI, the image's entrypoint and restarts: resolves once it printed its listening line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

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
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(teardownSignal);
      await closed;
    }
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
