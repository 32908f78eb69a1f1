// Starts the server exactly as the image does (issue 14): the final stage's CMD (behind its
// ENTRYPOINT, tini, when this machine has it), the stage's ENV, and its non-root user where the
// machine allows (root here: setpriv to the image's uid and gid), from a checkout laid out as the
// image's WORKDIR is. Then a cell with browser helpers runs against a fixture page, the probes and
// the token behave as the image promises, and SIGTERM ends it with exit code 0.
//
// Only three things differ from the image, each because the machine is not the container:
// PORT=0 (a free port instead of 10001, which another server may hold), HOME, NPM_CONFIG_PREFIX and
// TMPDIR (the image's /home/repl does not exist here: a temporary folder owned by that user stands
// in) and BROWSER_REPL_TOKEN (the image leaves it to `run`; HOST=0.0.0.0 requires one).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { imageRuntime } from '../helpers/containerfile.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { spawnServe } from '../helpers/serve-process.mjs';

t.setTimeout(180_000);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const image = imageRuntime();
const TOKEN = 'test-token-image-entrypoint';

/** Whether uid:gid can read the checkout and run node, checked by doing it. */
function canRunAs(uid, gid) {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/setpriv')) return false;
  const probe = spawnSync('/usr/bin/setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', process.execPath, '-e',
    `require('node:fs').accessSync(${JSON.stringify(join(ROOT, 'dist/lib/cli/main.js'))}, require('node:fs').constants.R_OK)`], { stdio: 'ignore' });
  return probe.status === 0;
}

t.test('the image\'s entrypoint, environment and user serve a cell with browser helpers', async (t) => {
  t.equal(image.cmd[0], 'node', 'CMD runs node');
  t.ok(existsSync(join(ROOT, image.cmd[1])), `CMD's script ${image.cmd[1]} exists in a built checkout, as in WORKDIR`);
  const fixtures = await startFixtureServer();
  t.teardown(() => fixtures.close());

  const asImageUser = canRunAs(image.uid, image.gid);
  const home = mkdtempSync(join(tmpdir(), 'browser-repl-image-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  // The server's temporary folder (profiles, downloads): the image's is /tmp; here one inside the
  // stand-in home, which the image's user owns and the teardown removes.
  const temp = join(home, 'tmp');
  mkdirSync(temp);
  if (asImageUser) {
    chownSync(home, image.uid, image.gid);
    chownSync(temp, image.uid, image.gid);
  }

  // tini is PID 1 in the image; where it is installed, it is in front here too.
  const [entry, ...entryArgs] = image.entrypoint;
  const withInit = entry !== undefined && existsSync(entry);
  const command = withInit ? [entry, ...entryArgs, ...image.cmd] : [...image.cmd];
  // `node` of CMD is the image's PATH lookup; here it is the node running this test.
  command[command.indexOf('node')] = process.execPath;
  // tap adds its coverage hook to every child's NODE_OPTIONS; the image has no tap, and the hook
  // could not write its files as another user: `env -u` takes it out before the server starts.
  const argv = [
    '/usr/bin/env', '-u', 'NODE_OPTIONS',
    ...(asImageUser ? ['/usr/bin/setpriv', `--reuid=${image.uid}`, `--regid=${image.gid}`, '--clear-groups'] : []),
    ...command,
  ];
  t.comment(`running ${asImageUser ? `as ${image.uid}:${image.gid}` : 'as this user (setpriv or permissions missing)'}, ${withInit ? 'behind tini' : 'without tini (not installed here)'}`);

  const env = {
    PATH: process.env.PATH,
    TMPDIR: temp,
    // The leak check's run id, so whatever this server starts is counted as this run's.
    ...(process.env.BROWSER_REPL_LEAK_CHECK === undefined ? {} : { BROWSER_REPL_LEAK_CHECK: process.env.BROWSER_REPL_LEAK_CHECK }),
    ...image.env,
    PORT: '0',
    HOME: home,
    NPM_CONFIG_PREFIX: join(home, '.npm-global'),
    BROWSER_REPL_TOKEN: TOKEN,
  };
  if (!existsSync(env.BROWSER_REPL_CHROME)) delete env.BROWSER_REPL_CHROME;
  t.equal(env.HOST, '0.0.0.0', 'the image listens beyond loopback');
  t.equal(env.NODE_ENV, 'production');

  const { child, port, closed, stdout, stderr } = await spawnServe(t, { argv, env, cwd: ROOT });
  t.match(stdout(), /^chromium-repl listening on http:\/\/0\.0\.0\.0:\d+\n/, 'it listens on every address, as in the image');
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${TOKEN}` };

  const health = await fetch(`${base}/healthz`);
  t.equal(health.status, 200, 'the HEALTHCHECK route answers without the token');
  t.equal((await fetch(`${base}/readyz`)).status, 200, 'ready');
  t.equal((await fetch(`${base}/repls`)).status, 401, 'everything else needs the token');

  const response = await fetch(`${base}/repl`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      code: `await gotoUrl(${JSON.stringify(fixtures.url('basic.html'))}); await waitForLoad(); `
        + 'const info = await pageInfo(); const snapshot = await accessibilitySnapshot(); '
        + 'repl.write(`${info.title}|${snapshot.nodes.length > 0}|${process.getuid()}`);',
      timeout_sec: 120,
    }),
  });
  const result = await response.json();
  t.equal(response.status, 200);
  t.equal(result.success, true, result.error ?? stderr());
  const [title, snapshotOk, uid] = (result.content ?? []).map((item) => item.text).join('').split('|');
  t.equal(title, 'Basic fixture', 'a browser helper drove Chromium');
  t.equal(snapshotOk, 'true', 'and read its accessibility tree');
  if (asImageUser) t.equal(Number(uid), image.uid, 'cells run as the image\'s user');

  const metrics = await fetch(`${base}/metrics`, { headers: auth });
  t.equal(metrics.status, 200);
  t.match(await metrics.text(), /^browser_repl_cell_duration_seconds_count\{outcome="ok"\} 1$/m, 'the cell is in /metrics');

  child.kill('SIGTERM');
  const [code, signal] = await closed;
  t.equal(code, 0, `SIGTERM: exit code 0 (${stderr().trim()})`);
  t.equal(signal, null);
  t.match(stdout(), /chromium-repl: SIGTERM, draining for up to 30s, then shutting down\n$/);
});
