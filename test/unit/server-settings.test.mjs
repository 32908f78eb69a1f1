// lib/http/settings.ts: the server's options and environment read once into one frozen settings
// object. The library option wins over the variable, the variable over the default; a bad variable
// throws naming it; nothing is left mutable; an empty environment gives the defaults.
import t from 'tap';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverSettings, parseTrustProxy } from '../../dist/lib/http/settings.js';
import { derivedMaxBrowsers } from '../../dist/common/memory-budget.js';
import { BrowserManager } from '../../dist/lib/chromium/browser-manager.js';

t.test('an empty environment gives the defaults', async (t) => {
  const settings = serverSettings({}, {});
  t.strictSame({ ...settings, access: { ...settings.access } }, {
    token: undefined,
    allowedHosts: undefined,
    allowedOrigins: undefined,
    access: { hasToken: false, allowedHosts: undefined, allowedOrigins: [] },
    trustProxy: false,
    metricsPublic: false,
    mcpCaps: [],
    tools: {},
    viewport: { width: 1280, height: 720 },
    primaryBrowser: { viewport: { width: 1280, height: 720 } },
    browserPool: 0,
    maxBrowsers: derivedMaxBrowsers(),
    createWaitSeconds: 0,
    createQueue: 0,
    peers: undefined,
    host: '127.0.0.1',
    port: 10001,
    headersTimeoutMs: 30_000,
    requestTimeoutMs: 300_000,
    recordings: { maxActivePerBrowser: 4, maxPerBrowser: 20, maxTotalBytes: 2048 * 1024 * 1024, maxDurationSeconds: 3600, retentionSeconds: 300, directory: undefined },
    processes: { maxPerBrowser: 32, maxTotal: 128, retentionSeconds: 600 },
    files: {
      uploadMaxBytes: 256 * 1024 * 1024, uploadMaxFiles: 100, zipMaxBytes: 1024 * 1024 * 1024, zipMaxEntries: 10_000, zipMaxRatio: 1000,
      maxWatches: 32, maxWatchDirectories: 4096, maxQueuedEvents: 1000,
    },
    dataDir: join(homedir(), '.local', 'state', 'chromium-repl'),
    proxyCheckUrl: 'https://example.com/',
    profileKey: undefined,
  });
});

t.test('the data folder: the option, else BROWSER_REPL_DATA_DIR, else the XDG state folder', async (t) => {
  t.equal(serverSettings({ dataDir: 'rel/dir' }, { BROWSER_REPL_DATA_DIR: '/env' }).dataDir, resolve('rel/dir'));
  t.equal(serverSettings({}, { BROWSER_REPL_DATA_DIR: '/env/data' }).dataDir, '/env/data');
  t.equal(serverSettings({}, { XDG_STATE_HOME: '/state' }).dataDir, '/state/chromium-repl');
  t.throws(() => serverSettings({ dataDir: ' ' }, {}), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /dataDir/ });
});

t.test('the profiles\' key: the option, else BROWSER_REPL_PROFILE_KEY, as hex or base64 of 32 bytes', async (t) => {
  const key = Buffer.alloc(32, 7);
  t.same(serverSettings({}, { BROWSER_REPL_PROFILE_KEY: key.toString('hex') }).profileKey, key);
  t.same(serverSettings({}, { BROWSER_REPL_PROFILE_KEY: key.toString('base64') }).profileKey, key);
  t.same(serverSettings({ profileKey: key }, { BROWSER_REPL_PROFILE_KEY: 'ignored' }).profileKey, key);
  t.throws(() => serverSettings({}, { BROWSER_REPL_PROFILE_KEY: 'short' }), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /^BROWSER_REPL_PROFILE_KEY must be a 32-byte key/ });
  t.throws(() => serverSettings({ profileKey: Buffer.alloc(16) }, {}), { message: /profileKey must be 32 bytes/ });
});

t.test('only the environment it is given is read', async (t) => {
  const saved = process.env.BROWSER_REPL_TOKEN;
  process.env.BROWSER_REPL_TOKEN = 'from-process-env';
  t.teardown(() => {
    if (saved === undefined) delete process.env.BROWSER_REPL_TOKEN;
    else process.env.BROWSER_REPL_TOKEN = saved;
  });
  t.equal(serverSettings({}, {}).token, undefined);
  t.equal(serverSettings({}).token, 'from-process-env', 'process.env by default');
});

t.test('the environment fills in what the options leave out', async (t) => {
  const settings = serverSettings({}, {
    BROWSER_REPL_TOKEN: 'env-token',
    BROWSER_REPL_ALLOWED_HOSTS: ' a.example , *.b.example:8080 ',
    BROWSER_REPL_ALLOWED_ORIGINS: 'https://app.example',
    BROWSER_REPL_TRUST_PROXY: '2',
    BROWSER_REPL_METRICS_PUBLIC: 'TRUE',
    BROWSER_REPL_MCP_CAPS: 'code, code,',
    BROWSER_REPL_VIEWPORT: '800x600',
    BROWSER_REPL_MAX_BROWSERS: '7',
    BROWSER_REPL_NODE_ID: 'pod-1',
    BROWSER_REPL_PEER_URL: 'http://{node}.svc:10001',
    HOST: '127.0.0.2',
    PORT: '0',
  });
  t.equal(settings.token, 'env-token');
  t.strictSame(settings.allowedHosts, ['a.example', '*.b.example:8080']);
  t.strictSame(settings.access.allowedHosts.map((pattern) => ({ ...pattern })), [
    { hostname: 'a.example', subdomains: false, port: undefined },
    { hostname: '.b.example', subdomains: true, port: '8080' },
  ]);
  t.strictSame(settings.access.allowedOrigins, ['https://app.example']);
  t.equal(settings.access.hasToken, true);
  t.equal(settings.trustProxy, 2);
  t.equal(settings.metricsPublic, true);
  t.strictSame(settings.mcpCaps, ['code']);
  t.strictSame(settings.viewport, { width: 800, height: 600 });
  t.strictSame(settings.primaryBrowser.viewport, { width: 800, height: 600 }, 'handed to the primary browser');
  t.equal(settings.maxBrowsers, 7);
  t.strictSame({ ...settings.peers }, { nodeId: 'pod-1', peerUrl: 'http://{node}.svc:10001', peers: {}, peerDns: undefined, peerPort: undefined });
  t.equal(settings.host, '127.0.0.2');
  t.equal(settings.port, 0);
});

t.test('a library option wins over its variable', async (t) => {
  const env = {
    BROWSER_REPL_TOKEN: 'env-token',
    BROWSER_REPL_ALLOWED_HOSTS: 'env.example',
    BROWSER_REPL_TRUST_PROXY: 'true',
    BROWSER_REPL_METRICS_PUBLIC: '1',
    BROWSER_REPL_MCP_CAPS: 'code',
    BROWSER_REPL_VIEWPORT: '800x600',
    BROWSER_REPL_MAX_BROWSERS: '7',
    BROWSER_REPL_NODE_ID: 'pod-1',
    HOST: '127.0.0.2',
    PORT: '4000',
  };
  const settings = serverSettings({
    token: undefined, allowedHosts: ['option.example'], trustProxy: 'loopback', metricsPublic: false, mcpCaps: [],
    viewport: { width: 640, height: 480 }, maxBrowsers: 2, peers: false, host: '127.0.0.3', port: 5000,
  }, env);
  t.equal(settings.token, undefined, 'an explicit undefined token: none, whatever the variable says');
  t.strictSame(settings.allowedHosts, ['option.example']);
  t.equal(settings.trustProxy, 'loopback');
  t.equal(settings.metricsPublic, false);
  t.strictSame(settings.mcpCaps, []);
  t.strictSame(settings.viewport, { width: 640, height: 480 });
  t.equal(settings.maxBrowsers, 2);
  t.equal(settings.peers, undefined, 'peers: false turns routing off');
  t.equal(settings.host, '127.0.0.3');
  t.equal(settings.port, 5000);
  t.strictSame(serverSettings({ primaryBrowser: { viewport: { width: 300, height: 200 } } }, env).viewport, { width: 300, height: 200 }, 'the primary browser\'s own viewport wins too');
  t.strictSame(serverSettings({ viewport: { width: 640, height: 480 }, primaryBrowser: { viewport: { width: 300, height: 200 } } }, {}).viewport, { width: 640, height: 480 }, 'and the app\'s over it');
  t.strictSame(serverSettings({ primaryBrowser: { browser: { env: { BROWSER_REPL_VIEWPORT: '1024x768' } } } }, env).viewport, { width: 1024, height: 768 }, 'the launch environment, as its BrowserManager reads it');
});

t.test('each bad variable throws, naming it', async (t) => {
  for (const [env, expected] of [
    [{ BROWSER_REPL_ALLOWED_HOSTS: 'a b' }, { code: 'REPL_ERR_INVALID_REQUEST', message: /^BROWSER_REPL_ALLOWED_HOSTS: "a b" is not a host name/ }],
    [{ BROWSER_REPL_ALLOWED_ORIGINS: 'https://a.example/path' }, { code: 'REPL_ERR_INVALID_REQUEST', message: /^BROWSER_REPL_ALLOWED_ORIGINS: "https:\/\/a.example\/path" is not an origin/ }],
    [{ BROWSER_REPL_MCP_CAPS: 'all' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: /^BROWSER_REPL_MCP_CAPS: unknown capability "all"/ }],
    [{ BROWSER_REPL_VIEWPORT: '1280*720' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_VIEWPORT must be WIDTHxHEIGHT in CSS pixels, for example 1280x720; got "1280*720"' }],
    [{ BROWSER_REPL_MAX_BROWSERS: 'many' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_MAX_BROWSERS must be a non-negative integer, got NaN' }],
    [{ BROWSER_REPL_NODE_ID: 'p', BROWSER_REPL_PEERS: 'p-0' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: /BROWSER_REPL_PEERS entries are name=url, got "p-0"/ }],
    [{ BROWSER_REPL_NODE_ID: 'Pod_0' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: /node id must be one DNS label/ }],
    [{ BROWSER_REPL_NODE_ID: 'p', BROWSER_REPL_PEER_URL: 'http://peer:1' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: /peer URL template must contain \{node\}/ }],
    [{ BROWSER_REPL_RECORDINGS_MAX_MB: '0' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_RECORDINGS_MAX_MB must be an integer of at least 1' }],
    [{ BROWSER_REPL_RECORDINGS_RETENTION_SECONDS: 'long' }, { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_RECORDINGS_RETENTION_SECONDS must be an integer of at least 0' }],
  ]) {
    t.throws(() => serverSettings({}, env), expected, Object.keys(env).join(' '));
  }
  t.doesNotThrow(() => serverSettings({ maxBrowsers: 3, mcpCaps: [], viewport: { width: 10, height: 10 }, peers: false }, {
    BROWSER_REPL_MAX_BROWSERS: 'many', BROWSER_REPL_MCP_CAPS: 'all', BROWSER_REPL_VIEWPORT: 'big', BROWSER_REPL_NODE_ID: 'Pod_0',
  }), 'a variable the option overrides is not read');
  t.throws(() => serverSettings({ allowedHosts: ['*'] }, {}), { code: 'REPL_ERR_INVALID_REQUEST', message: /^allowedHosts: / }, 'an option names itself');
  t.throws(() => serverSettings({ recordings: { maxActivePerBrowser: -1 } }, { BROWSER_REPL_RECORDINGS_MAX_ACTIVE: '2' }), { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'recordings.maxActivePerBrowser must be an integer of at least 0' }, 'a recordings option names itself, and wins over its variable');
  t.equal(serverSettings({}, { BROWSER_REPL_RECORDINGS_MAX_ACTIVE: '2' }).recordings.maxActivePerBrowser, 2, 'the variable fills in what the option leaves out');
  t.throws(() => serverSettings({}, { BROWSER_REPL_PROCESSES_MAX_TOTAL: 'many' }), { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'BROWSER_REPL_PROCESSES_MAX_TOTAL must be an integer of at least 0' }, 'a processes variable names itself');
  t.equal(serverSettings({ processes: { maxPerBrowser: 3 } }, { BROWSER_REPL_PROCESSES_MAX_PER_BROWSER: '5', BROWSER_REPL_PROCESSES_RETENTION_SECONDS: '7' }).processes.maxPerBrowser, 3, 'a processes option wins over its variable');
  t.equal(serverSettings({}, { BROWSER_REPL_PROCESSES_RETENTION_SECONDS: '7' }).processes.retentionSeconds, 7, 'a processes variable fills in');
  t.throws(() => serverSettings({ files: { zipMaxMb: 0 } }, { BROWSER_REPL_ZIP_MAX_MB: '2' }), { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'files.zipMaxMb must be an integer of at least 1' }, 'a files option names itself, and wins over its variable');
  t.equal(serverSettings({}, { BROWSER_REPL_MAX_WATCHES: '3' }).files.maxWatches, 3, 'a files variable fills in what the option leaves out');
  t.throws(() => serverSettings({ headersTimeoutMs: 0 }, {}), { code: 'REPL_ERR_INVALID_REQUEST', message: 'headersTimeoutMs must be a positive integer of milliseconds, got 0' });
  t.equal(serverSettings({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }, {}).requestTimeoutMs, 5_000, 'the request timeout is at least the headers timeout');
});

t.test('BROWSER_REPL_TRUST_PROXY and --trust-proxy values', async (t) => {
  t.equal(parseTrustProxy(''), false);
  t.equal(parseTrustProxy(' off '), false);
  t.equal(parseTrustProxy('0'), false);
  t.equal(parseTrustProxy('Yes'), true);
  t.equal(parseTrustProxy('3'), 3);
  t.equal(parseTrustProxy(' loopback, 10.0.0.0/8 '), 'loopback, 10.0.0.0/8');
});

t.test('the settings are frozen all the way down; the caller\'s objects are not', async (t) => {
  'use strict';
  const allowedHosts = ['a.example'];
  const tools = { permission: 'allow', allowedOrigins: ['https://x.example'] };
  const primaryBrowser = { heapMb: 128, browser: { args: ['--foo'] } };
  const settings = serverSettings({ allowedHosts, tools, primaryBrowser, trustProxy: ['loopback'] }, { BROWSER_REPL_MCP_CAPS: 'code' });
  for (const [name, value] of Object.entries({
    settings, allowedHosts: settings.allowedHosts, access: settings.access, accessHosts: settings.access.allowedHosts,
    hostPattern: settings.access.allowedHosts[0], origins: settings.access.allowedOrigins, mcpCaps: settings.mcpCaps,
    tools: settings.tools, toolsOrigins: settings.tools.allowedOrigins, viewport: settings.viewport, trustProxy: settings.trustProxy,
    primaryBrowser: settings.primaryBrowser, launch: settings.primaryBrowser.browser, args: settings.primaryBrowser.browser.args,
  })) {
    t.ok(Object.isFrozen(value), `${name} is frozen`);
  }
  t.throws(() => { settings.token = 'x'; }, TypeError, 'assigning a field throws (strict mode)');
  t.throws(() => { settings.mcpCaps.push('code'); }, TypeError, 'so does growing a list');
  t.throws(() => { settings.viewport.width = 1; }, TypeError, 'or changing the viewport');
  t.notOk(Object.isFrozen(allowedHosts), 'the caller\'s array stays the caller\'s');
  t.notOk(Object.isFrozen(tools) || Object.isFrozen(tools.allowedOrigins), 'so do its tools options');
  t.notOk(Object.isFrozen(primaryBrowser) || Object.isFrozen(primaryBrowser.browser.args), 'and its browser options');
  t.not(settings.allowedHosts, allowedHosts, 'a copy');

  const manager = new BrowserManager({ cdpEndpoint: null });
  t.teardown(() => manager.close());
  const withManager = serverSettings({ primaryBrowser: { browser: manager } }, { BROWSER_REPL_VIEWPORT: '800x600' });
  t.equal(withManager.primaryBrowser.browser, manager, 'a BrowserManager is handed on as it is');
  t.notOk(Object.isFrozen(manager), 'live objects are not frozen');
  t.equal(withManager.viewport, undefined, 'and it keeps its own viewport');
});
