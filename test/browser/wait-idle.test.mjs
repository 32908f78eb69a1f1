// `chromium-repl wait-idle`, the pod's preStop hook (docs/deploy.md#autoscaling, docs/cli.md): a
// real `serve` process with a real browser. The hook makes the server take no new browsers
// (SIGUSR2) while the live one keeps working, reports a busy server after --max-seconds (exit 1),
// returns 0 once the browser is deleted, and leaves the server running until SIGTERM, which then
// drains and exits 0 as always. A wrong port or token is a usage error (exit 2) that signals nothing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { request } from 'undici';
import { MAIN, serveEnv, spawnServe } from '../helpers/serve-process.mjs';

t.setTimeout(120_000);

const TOKEN = 'test-token-wait-idle';
const pod = await spawnServe(t, {
  argv: [process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1'],
  env: serveEnv({ BROWSER_REPL_TOKEN: TOKEN }),
  teardownSignal: 'SIGTERM',
});
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const call = async (method, path, body) => {
  const answer = await request(`${pod.url}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.body.text();
  return { status: answer.statusCode, json: text === '' ? undefined : JSON.parse(text) };
};

/** Runs `chromium-repl wait-idle args…`; resolves `{ code, stdout, stderr }` once it exits, `child` at once. */
function waitIdle(args, env = { BROWSER_REPL_TOKEN: TOKEN }) {
  const child = spawn(process.execPath, [MAIN, 'wait-idle', ...args], { env: serveEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  const done = once(child, 'close').then(([code]) => ({ code, stdout, stderr }));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await done;
  });
  return { child, done };
}
const hook = ['--pid', String(pod.child.pid), '--port', String(pod.port), '--interval-ms', '100'];

t.test('help', async (t) => {
  const help = await waitIdle(['--help']).done;
  t.equal(help.code, 0);
  t.match(help.stdout, /^Usage: chromium-repl wait-idle \[options\]/);
  t.match(help.stdout, /--max-seconds N/);
});

t.test('a wrong port or token is a usage error, and the server is left as it was', async (t) => {
  const noServer = await waitIdle(['--pid', String(pod.child.pid), '--port', '1', '--max-seconds', '1']).done;
  t.equal(noServer.code, 2);
  t.match(noServer.stderr, /no server answers on 127\.0\.0\.1:1/);
  const badToken = await waitIdle([...hook, '--max-seconds', '1'], { BROWSER_REPL_TOKEN: 'wrong' }).done;
  t.equal(badToken.code, 2);
  t.match(badToken.stderr, /answered 401: set BROWSER_REPL_TOKEN/);
  const badFlag = await waitIdle([...hook, '--max-seconds', 'soon']).done;
  t.equal(badFlag.code, 2);
  t.match(badFlag.stderr, /--max-seconds must be an integer between 0 and 86400, got "soon"/);
  // A process that ignores SIGUSR2 stands for a wrong --pid: the hook sees the server never drain.
  const bystander = spawn(process.execPath, ['-e', "process.on('SIGUSR2', () => {}); setInterval(() => {}, 1000); console.log('ready')"], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => bystander.kill('SIGKILL'));
  await once(bystander.stdout, 'data');
  const wrongPid = await waitIdle(['--pid', String(bystander.pid), '--port', String(pod.port), '--max-seconds', '60']).done;
  t.equal(wrongPid.code, 2);
  t.match(wrongPid.stderr, /still takes new browsers 5s after SIGUSR2 to process \d+: is --pid the server, or tini in front of it\?/);
  t.same((await call('GET', '/readyz')), { status: 200, json: { status: 'ready' } }, 'still takes browsers: the server was not signalled');
});

t.test('no new browsers, the live one keeps working, and the hook returns once it is deleted', async (t) => {
  const created = await call('POST', '/browsers', {});
  t.equal(created.status, 200, 'a browser before the hook');
  const id = created.json.session_id;

  const busy = await waitIdle([...hook, '--max-seconds', '1']).done;
  t.equal(busy.code, 1, 'still busy after --max-seconds: exit 1');
  t.match(busy.stdout, /still 1 browsers and 0 waiting creates after 1s/);
  t.same(await call('GET', '/readyz'), { status: 503, json: { status: 'draining' } }, 'the server takes no new browsers (the Service drops it)');
  t.match(await call('GET', '/pressure'), { status: 200, json: { running: 1, accepting: false, draining: true } }, 'and tells its peers so');
  const refused = await call('POST', '/browsers', {});
  t.match(refused, { status: 503, json: { code: 'REPL_ERR_DRAINING' } }, 'a create is refused, to be placed elsewhere');

  const waiting = waitIdle([...hook, '--max-seconds', '60']);
  const executed = await call('POST', `/browsers/${id}/playwright/execute`, { code: 'return 6 * 7' });
  t.match(executed, { status: 200, json: { success: true, result: 42 } }, 'the live browser keeps working');
  t.equal(waiting.child.exitCode, null, 'the hook still waits while the browser lives');
  t.equal((await call('DELETE', `/browsers/${id}`)).status, 204);
  const idle = await waiting.done;
  t.equal(idle.code, 0, 'idle: exit 0');
  t.match(idle.stdout, /the server holds no browser/);
  t.match(pod.stdout(), /SIGUSR2, taking no new browsers; the live ones keep working/);

  t.equal((await call('GET', '/healthz')).status, 200, 'the server still runs: only SIGTERM ends it');
  pod.child.kill('SIGTERM');
  const [code, signal] = await pod.closed;
  t.same([code, signal], [0, null], 'SIGTERM drains and exits 0');
});
