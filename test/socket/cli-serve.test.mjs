// `chromium-repl serve`: how its flags map onto startServer options, the usage errors (exit code
// 2, before anything starts), and a real `serve --port 0` that prints its URL, answers, and stops
// on SIGTERM.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { serveOptions } from '../../dist/lib/cli/serve.js';
import { MAIN, serveEnv, spawnServe } from '../helpers/serve-process.mjs';



t.test('serveOptions', async (t) => {
  t.test('maps every flag onto startServer options', async (t) => {
    const options = serveOptions([
      '--port', '0', '--host', '127.0.0.2', '--token', 'sesame', '--executable', '/opt/chromium/chrome', '--headful',
      '--browser-pool', '2', '--max-browsers', '5', '--heap-mb', '256', '--viewport', '800x600',
    ], {});
    t.same(options, {
      token: 'sesame',
      host: '127.0.0.2',
      port: 0,
      viewport: { width: 800, height: 600 },
      primaryBrowser: { heapMb: 256, browser: { executable: '/opt/chromium/chrome', headless: false } },
      browserPool: 2,
      maxBrowsers: 5,
    });
  });

  t.test('--trust-proxy takes Express\'s trust proxy values', async (t) => {
    t.equal(serveOptions(['--trust-proxy', 'loopback'], {}).trustProxy, 'loopback');
    t.equal(serveOptions(['--trust-proxy', 'true'], {}).trustProxy, true);
    t.equal(serveOptions(['--trust-proxy', '2'], {}).trustProxy, 2);
    t.equal(serveOptions(['--trust-proxy', 'off'], {}).trustProxy, false);
    t.throws(() => serveOptions(['--trust-proxy', ''], {}), { name: 'UsageError', message: /--trust-proxy must not be empty/ });
  });

  t.test('attaches with --cdp-endpoint; takes the token from BROWSER_REPL_TOKEN', async (t) => {
    t.same(serveOptions(['--cdp-endpoint', 'http://127.0.0.1:9222'], { BROWSER_REPL_TOKEN: 'env-token' }), {
      token: 'env-token',
      primaryBrowser: { browser: { cdpEndpoint: 'http://127.0.0.1:9222' } },
    });
    t.same(serveOptions([], {}), { token: undefined }, 'no flags: the server\'s own defaults');
  });

  t.test('throws a UsageError naming the flag', async (t) => {
    for (const [args, message, env = {}] of [
      [['--port', 'http'], /--port must be an integer between 0 and 65535, got "http"/],
      [['--port', '65536'], /--port must be an integer between 0 and 65535/],
      [['--port', '1.5'], /--port must be an integer/],
      [['--browser-pool=-1'], /--browser-pool must be an integer between 0 and 1024/],
      [['--max-browsers', '0'], /--max-browsers must be an integer between 1 and 1024/],
      [['--browser-pool', '3', '--max-browsers', '2'], /--browser-pool \(3\) cannot exceed --max-browsers \(2\)/],
      [['--heap-mb', '8'], /--heap-mb must be an integer between 32 and 65536/],
      [['--viewport', '1280'], /--viewport must be WIDTHxHEIGHT in CSS pixels/],
      [['--viewport', '0x10'], /--viewport width must be an integer between 1 and 10000/],
      [['--executable', '/bin/chromium', '--cdp-endpoint', 'ws://127.0.0.1:1/devtools/browser/x'], /--executable and --cdp-endpoint exclude each other/],
      [['--headful', '--cdp-endpoint', 'http://127.0.0.1:9222'], /--headful applies to a browser this server launches/],
      [['--cdp-endpoint', '127.0.0.1:9222'], /--cdp-endpoint must be a ws:\/\/, wss:\/\/, http:\/\/ or https:\/\/ URL/],
      [['--host', '0.0.0.0'], /refusing to listen on 0\.0\.0\.0 without a token/],
      [['--token'], /argument missing/],
      [['--headless'], /Unknown option '--headless'/],
      [['extra'], /Unexpected argument 'extra'/],
    ]) {
      t.throws(() => serveOptions(args, env), { name: 'UsageError', message, command: 'serve' }, args.join(' '));
    }
    t.doesNotThrow(() => serveOptions(['--host', '0.0.0.0'], { BROWSER_REPL_TOKEN: 't' }), 'beyond loopback with a token');
  });
});

t.test('chromium-repl serve', async (t) => {
  t.test('exits 2 on an invalid flag, before listening', async (t) => {
    for (const args of [['serve', '--port', 'http'], ['--max-browsers', 'many']]) {
      const child = spawn(process.execPath, [MAIN, ...args], { env: serveEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
      child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
      const [code] = await once(child, 'close');
      t.equal(code, 2, args.join(' '));
      t.equal(stdout, '');
      t.match(stderr, /^chromium-repl: --(port|max-browsers) must be an integer.* \(see chromium-repl help serve\)\n$/);
    }
  });

  t.test('a port that is taken: exit 1 with a message naming --port and PORT', async (t) => {
    const { port } = await spawnServe(t);
    for (const [args, env] of [[['serve', '--port', String(port)], serveEnv()], [['serve'], serveEnv({ PORT: String(port) })]]) {
      const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
      const [code] = await once(child, 'close');
      t.equal(code, 1);
      t.equal(stderr, `chromium-repl: cannot listen on 127.0.0.1:${port}: the port is already in use (another chromium-repl serve, or another program). `
        + "Stop that one, or choose another port: --port N or PORT=N (the library's port option); 0 picks a free one\n");
    }
  });

  t.test('--port 0 prints its URL, serves, and stops on SIGTERM', async (t) => {
    const { child, url, closed, stdout, stderr } = await spawnServe(t);
    t.not(url, 'http://127.0.0.1:0', 'a port was picked');
    const health = await fetch(`${url}/healthz`);
    t.same(await health.json(), { status: 'ok' });
    child.kill('SIGTERM');
    const [code, signal] = await closed;
    t.equal(code, 0, stderr());
    t.equal(signal, null);
    t.match(stdout(), /chromium-repl: SIGTERM, draining for up to 30s, then shutting down\n$/);
  });

  t.test('SIGTERM drains: /readyz 503 and no new browsers while a running cell finishes and gets its answer', async (t) => {
    const { child, url, stdout, closed } = await spawnServe(t, { env: serveEnv({ BROWSER_REPL_DRAIN_SEC: '120' }) });
    const running = post(url, '/repl', { code: 'await new Promise((resolve) => setTimeout(resolve, 2000)); repl.write("done")', repl: 'slow' });
    await untilBusy(t, url, 'slow');
    child.kill('SIGTERM');
    const ready = await untilStatus(url, '/readyz', 503);
    t.same(ready.body, { status: 'draining' }, 'readiness fails at once, so the Service stops sending new work');
    const refused = await post(url, '/browsers', {});
    t.equal(refused.status, 503);
    t.equal(refused.body.code, 'REPL_ERR_DRAINING');
    const answer = await running;
    t.equal(answer.status, 200);
    t.match(answer.body, { success: true, content: [{ type: 'text', text: 'done' }] }, 'the running cell finished and its answer arrived');
    const [code, signal] = await closed;
    t.equal(code, 0);
    t.equal(signal, null);
    t.match(stdout(), /chromium-repl: SIGTERM, draining for up to 120s, then shutting down\n$/);
  });

  t.test('a second signal during the drain closes at once', async (t) => {
    const { child, url, stdout, closed } = await spawnServe(t, { env: serveEnv({ BROWSER_REPL_DRAIN_SEC: '300' }) });
    const running = post(url, '/repl', { code: 'await new Promise((resolve) => setTimeout(resolve, 120000)); repl.write("done")', repl: 'stuck' }).catch((error) => error);
    await untilBusy(t, url, 'stuck');
    child.kill('SIGTERM');
    await untilStatus(url, '/readyz', 503);
    child.kill('SIGINT');
    const [code] = await closed;
    t.equal(code, 0);
    t.match(stdout(), /SIGTERM, draining for up to 300s, then shutting down\nchromium-repl: SIGINT, closing now\n$/);
    const answer = await running;
    t.notOk(answer?.body?.success === true, 'the cell was cancelled, not finished');
  });

  t.test('an invalid BROWSER_REPL_DRAIN_SEC is a usage error', async (t) => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0'], { env: serveEnv({ BROWSER_REPL_DRAIN_SEC: 'soon' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    const [code] = await once(child, 'close');
    t.equal(code, 2);
    t.match(stderr, /BROWSER_REPL_DRAIN_SEC must be a whole number of seconds from 0 to 3600, got "soon"/);
  });
});

async function post(url, path, body) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** Waits (at most 60 s) until the REPL `name` runs a cell. */
async function untilBusy(t, url, name) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const rows = await (await fetch(`${url}/repls`)).json();
    if (rows.repls?.some((row) => row.name === name && row.busy)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  t.fail(`REPL ${name} never ran its cell`);
}

/** Polls `path` until it answers `status` (at most 30 s). */
async function untilStatus(url, path, status) {
  const until = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${url}${path}`);
    const body = await response.json();
    if (response.status === status || Date.now() > until) return { status: response.status, body };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
