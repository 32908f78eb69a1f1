// The pure part of proxies (lib/proxies/config.ts: validation, bypass rules, the header, the
// answer without the password), the store (0600, reloaded), and the relay alone against a real
// local authenticating proxy (no Chromium): plain HTTP and CONNECT through it with the
// credentials added, a refusal as 502, a live switch, nothing left open after close.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { BypassList, checkBypassHosts, checkProxyCreate, proxyAuthorization, relayChromiumArgs, wireProxy } from '../../dist/lib/proxies/config.js';
import { ProxyStore } from '../../dist/lib/proxies/store.js';
import { ProxyRelay } from '../../dist/lib/proxies/relay.js';
import { serverSettings } from '../../dist/lib/http/settings.js';
import { startAuthProxy } from '../helpers/auth-proxy.mjs';

t.test('checkProxyCreate: custom only, each field named', async (t) => {
  t.same(checkProxyCreate({ type: 'custom', config: { host: 'proxy.example', port: 3128, username: 'u', password: 'secret' }, bypass_hosts: ['*.Example.com'] }), {
    type: 'custom', name: undefined, protocol: 'https', host: 'proxy.example', port: 3128, username: 'u', password: 'secret', bypassHosts: ['*.example.com'],
  }, 'protocol defaults to https (the hosted product\'s default); bypass hosts are lower-cased');
  t.equal(checkProxyCreate({ type: 'custom', config: { host: '[::1]', port: 1 } }).host, '::1', 'an IPv6 literal is stored bare');
  for (const type of ['datacenter', 'isp', 'residential', 'mobile']) {
    t.throws(() => checkProxyCreate({ type }), { code: 'REPL_ERR_PROXY_TYPE_UNSUPPORTED', message: /custom/ }, `${type} needs the hosted network`);
  }
  for (const [body, field] of [
    [{ type: 'x' }, /^type/], [{ type: 'custom' }, /^config/], [{ type: 'custom', config: { port: 1 } }, /^config\.host/],
    [{ type: 'custom', config: { host: 'h', port: 0 } }, /^config\.port/], [{ type: 'custom', config: { host: 'h', port: 1.5 } }, /^config\.port/],
    [{ type: 'custom', config: { host: 'h', port: 1, password: 'secret' } }, /^config\.password needs config\.username/],
    [{ type: 'custom', config: { host: 'h', port: 1, username: 'a:b' } }, /^config\.username/],
    [{ type: 'custom', config: { host: 'h', port: 1, username: 'a\r\nX: y' } }, /^config\.username/],
    [{ type: 'custom', config: { host: 'h', port: 1 }, name: '  ' }, /^name/],
    [{ type: 'custom', config: { host: 'h', port: 1 }, protocol: 'socks' }, /^protocol/],
  ]) t.throws(() => checkProxyCreate(body), { code: 'REPL_ERR_INVALID_REQUEST', message: field }, JSON.stringify(body));
  t.same(checkBypassHosts(['<local>', '<-loopback>', '.a.b', '*', 'h:8080', '[::1]:80']), ['<local>', '<-loopback>', '.a.b', '*', 'h:8080', '[::1]:80']);
  t.throws(() => checkBypassHosts('a'), { message: /^bypass_hosts must be an array/ });
  t.throws(() => checkBypassHosts(['http://a']), { message: /^bypass_hosts\[0\]/ });
});

t.test('BypassList: Chromium\'s rules, loopback implicit unless <-loopback>', async (t) => {
  const list = new BypassList(['*.corp.example', '.intra', 'exact.example', 'ported.example:8080', '<local>']);
  t.ok(list.bypasses('a.corp.example', 443), '*.domain matches a subdomain');
  t.ok(list.bypasses('corp.example', 443), 'and the domain itself');
  t.notOk(list.bypasses('evilcorp.example', 443), 'not a name that merely ends the same');
  t.ok(list.bypasses('x.intra', 80));
  t.ok(list.bypasses('EXACT.example.', 80), 'case and a trailing dot do not matter');
  t.notOk(list.bypasses('sub.exact.example', 80), 'an exact name matches only itself');
  t.ok(list.bypasses('ported.example', 8080));
  t.notOk(list.bypasses('ported.example', 80), 'a port limits the rule');
  t.ok(list.bypasses('printer', 80), '<local>: a name without a dot');
  t.notOk(list.bypasses('other.example', 80));
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost']) t.ok(list.bypasses(host, 80), `${host} is bypassed implicitly`);
  const all = new BypassList(['<-loopback>']);
  for (const host of ['localhost', '127.0.0.1', '[::1]']) t.notOk(all.bypasses(host, 80), `${host} goes through the proxy with <-loopback>`);
  t.ok(new BypassList(['*']).bypasses('anything.example', 1), '* bypasses everything');
});

t.test('the header, the answer without the password, Chromium\'s flags', async (t) => {
  t.equal(proxyAuthorization({ username: 'agent', password: 'pa:ss' }), `Basic ${Buffer.from('agent:pa:ss').toString('base64')}`);
  t.equal(proxyAuthorization({ username: 'agent' }), `Basic ${Buffer.from('agent:').toString('base64')}`, 'a username without password');
  t.equal(proxyAuthorization({}), undefined, 'no username: no header');
  const wire = wireProxy({ id: 'p1', type: 'custom', protocol: 'http', host: 'h', port: 1, username: 'u', password: 'secret', bypassHosts: ['a'], createdAt: 'x' });
  t.same(wire, { id: 'p1', type: 'custom', protocol: 'http', bypass_hosts: ['a'], config: { host: 'h', port: 1, username: 'u', has_password: true } });
  t.notOk(JSON.stringify(wire).includes('secret'), 'never the password');
  t.same(relayChromiumArgs(4242), ['--proxy-server=http://127.0.0.1:4242', '--proxy-bypass-list=<-loopback>']);
});

t.test('ProxyStore: written 0600 on first use, reloaded, forgets deleted ones', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-repl-test-proxy-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const store = new ProxyStore(dataDir);
  t.same(store.list(), [], 'empty, and nothing written yet');
  t.throws(() => statSync(store.file), { code: 'ENOENT' });
  const one = store.create(checkProxyCreate({ type: 'custom', name: 'One', config: { host: 'h', port: 1, username: 'u', password: 'secret' } }));
  t.equal(statSync(store.file).mode & 0o777, 0o600, 'the file is 0600');
  t.equal(statSync(dataDir).mode & 0o777, 0o700, 'its folder 0700');
  const two = store.create(checkProxyCreate({ type: 'custom', config: { host: 'other', port: 2 } }));
  store.rename(two.id, 'Two');
  store.setHealth(one.id, 'available');
  const again = new ProxyStore(dataDir);
  t.same(again.list().map((proxy) => [proxy.id, proxy.name, proxy.password, proxy.status]), [[one.id, 'One', 'secret', 'available'], [two.id, 'Two', undefined, undefined]], 'a new store reads what the first wrote');
  t.same(again.list({ query: 'othe' }).map((proxy) => proxy.id), [two.id], 'query matches the host');
  t.same(again.list({ query: one.id }).map((proxy) => proxy.id), [one.id], 'or the id');
  again.delete(one.id);
  t.throws(() => new ProxyStore(dataDir).get(one.id, 'proxy_id'), { code: 'REPL_ERR_PROXY_NOT_FOUND', message: /^proxy_id/ });
  writeFileSync(store.file, '{not json');
  t.throws(() => new ProxyStore(dataDir), SyntaxError, 'a damaged file is an error at start, not an empty store');
});

t.test('settings: dataDir and proxyCheckUrl', async (t) => {
  t.equal(serverSettings({}, { HOME: '/home/x' }).dataDir, '/home/x/.local/state/chromium-repl', 'the default is under the state directory');
  t.equal(serverSettings({}, { HOME: '/home/x', XDG_STATE_HOME: 'relative' }).dataDir, '/home/x/.local/state/chromium-repl', 'a relative XDG_STATE_HOME is ignored (the XDG rule)');
  t.equal(serverSettings({}, { XDG_STATE_HOME: '/state' }).dataDir, '/state/chromium-repl');
  t.equal(serverSettings({}, { BROWSER_REPL_DATA_DIR: '/data' }).dataDir, '/data');
  t.equal(serverSettings({ dataDir: '/opt/d' }, { BROWSER_REPL_DATA_DIR: '/data' }).dataDir, '/opt/d', 'the option wins');
  t.equal(serverSettings({}, {}).proxyCheckUrl, 'https://example.com/');
  t.throws(() => serverSettings({}, { BROWSER_REPL_PROXY_CHECK_URL: 'ftp://x' }), { message: /BROWSER_REPL_PROXY_CHECK_URL/ });
});

t.test('ProxyRelay against a real authenticating proxy', async (t) => {
  const target = createServer((req, res) => res.end(`target saw ${req.url} auth=${req.headers['proxy-authorization'] ?? 'none'}`));
  await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => target.close(resolve)));
  const targetPort = target.address().port;
  const upstream = await startAuthProxy({ username: 'u', password: 'right-pass' });
  t.teardown(() => upstream.close());
  const route = (password) => ({ protocol: 'http', host: '127.0.0.1', port: upstream.port, username: 'u', password, bypassHosts: ['<-loopback>'] });
  const relay = new ProxyRelay(route('right-pass'));
  const port = await relay.listen();

  const viaRelay = (path) => new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: `http://127.0.0.1:${targetPort}${path}`, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    request.on('error', reject);
    request.end();
  });
  const tunnel = () => new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\nGET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });

  const plain = await viaRelay('/plain');
  t.equal(plain.status, 200);
  t.equal(plain.body, 'target saw /plain auth=none', 'the target got the request, without the proxy\'s credentials');
  t.ok(upstream.requests.includes(`GET http://127.0.0.1:${targetPort}/plain`), 'through the upstream, which took the credentials the relay added');
  const tunnelled = await tunnel();
  t.match(tunnelled, /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/, 'CONNECT: a tunnel through the upstream');
  t.match(tunnelled, /target saw \/tunnelled/);
  t.ok(upstream.requests.includes(`CONNECT 127.0.0.1:${targetPort}`));

  relay.setUpstream(route('wrong-pass'));
  const refused = await viaRelay('/refused');
  t.equal(refused.status, 502, 'the upstream\'s 407 becomes a 502: Chromium never sees a challenge to prompt for');
  t.match(refused.body, /407/);
  t.match(await tunnel(), /^HTTP\/1\.1 502/, 'and so does a refused CONNECT');

  const before = upstream.requests.length;
  relay.setUpstream(null);
  t.equal((await viaRelay('/direct')).body, 'target saw /direct auth=none', 'no upstream: straight to the target');
  t.match(await tunnel(), /target saw \/tunnelled/, 'tunnels too');
  t.equal(upstream.requests.length, before, 'without the upstream');

  await relay.close();
  await relay.close();
  const error = await viaRelay('/closed').then(() => undefined, (failure) => failure);
  t.equal(error?.code, 'ECONNREFUSED', 'closed: nothing listens any more');
});

t.test('checkProxy: an https target goes through CONNECT with the credentials', async (t) => {
  const { checkProxy } = await import('../../dist/lib/proxies/check.js');
  // A plain HTTP server as the "https" target: the tunnel opens, then TLS fails, which says the
  // CONNECT (with the credentials) was accepted.
  const target = createServer((_req, res) => res.end('plain'));
  await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => target.close(resolve)));
  const upstream = await startAuthProxy({ username: 'u', password: 'right-pass' });
  t.teardown(() => upstream.close());
  const url = new URL(`https://127.0.0.1:${target.address().port}/`);
  const route = (password) => ({ protocol: 'http', host: '127.0.0.1', port: upstream.port, username: 'u', password, bypassHosts: [] });
  const accepted = await checkProxy(route('right-pass'), url, { timeoutMs: 5000 });
  t.equal(accepted.ok, false);
  t.match(accepted.error, /^the tunnel opened, but TLS with the target failed/, `the tunnel opened, TLS failed: ${accepted.error}`);
  t.ok(upstream.requests.includes(`CONNECT 127.0.0.1:${target.address().port}`), 'through CONNECT');
  const refused = await checkProxy(route('wrong-pass'), url, { timeoutMs: 5000 });
  t.match(refused, { ok: false, error: /407/ }, 'wrong credentials on CONNECT: 407 named');
  const plain = await checkProxy(route('right-pass'), new URL(`http://127.0.0.1:${target.address().port}/x`), { timeoutMs: 5000 });
  t.same(plain, { ok: true }, 'an http target: absolute-form GET');
});
