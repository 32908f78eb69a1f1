// HTTP security of the real server on loopback (docs/security.md): with a token every route of
// openapi.json, /mcp, the SSE variants and the CDP proxy's upgrade answer 401 without it; the
// comparison is constant-time by construction; no non-loopback bind without a token; the Host
// check against DNS rebinding; the Origin check against cross-site pages (CSRF) and closed CORS;
// the HTTP parser's refusals as JSON; no token in the logs. Most servers here run without a
// browser; one subtest opens a real Chromium's CDP through the proxy with the right token.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startServer } from '../../dist/lib/index.js';
import { bearerToken, tokenMatches } from '../../dist/lib/http/middleware.js';
import { serveOptions } from '../../dist/lib/cli/serve.js';

const ROOT = new URL('../../', import.meta.url);
const MAIN = fileURLToPath(new URL('dist/lib/cli/main.js', ROOT));
const OPENAPI = JSON.parse(readFileSync(new URL('openapi.json', ROOT), 'utf8'));
const TOKEN = 'sesame-0123456789abcdef';
const NO_BROWSER = { browser: false };

/** A server without a browser on 127.0.0.1:0, closed on teardown. */
async function server(t, options = {}) {
  const started = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: NO_BROWSER, ...options });
  t.teardown(() => started.close());
  return started;
}

/**
 * One request on a connection of its own (agent: false), with full control of the headers
 * (Host included). Resolves `{status, headers, text, json}`.
 */
function call(base, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, base), { method, agent: false, headers });
    request.once('error', reject);
    request.once('response', async (response) => {
      response.setEncoding('utf8');
      let text = '';
      for await (const chunk of response) text += chunk;
      let json;
      try { json = JSON.parse(text); } catch { json = undefined; }
      resolve({ status: response.statusCode, headers: response.headers, text, json });
    });
    request.end(body);
  });
}

/**
 * Writes `text` on a raw TCP connection and resolves everything the server sent until it closed
 * the connection (parsed into status, headers and JSON body when it is an HTTP response).
 * `hold` keeps our side open (no FIN) so that a server-side timeout can be observed; past
 * `deadlineMs` we close it ourselves (a server that never closes fails the assertions after).
 */
function raw(port, text, { hold = false, deadlineMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const deadline = setTimeout(() => socket.destroy(), deadlineMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => { received += chunk; });
    socket.once('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.once('close', () => {
      clearTimeout(deadline);
      resolve(parseResponse(received));
    });
    socket.write(text, 'latin1', () => { if (!hold) socket.end(); });
  });
}

function parseResponse(text) {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  let json;
  try { json = JSON.parse(body); } catch { json = undefined; }
  return { text, statusLine, status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]), headers, json };
}

/** A WebSocket handshake, raw: the server's answer before any upgrade (or the 101 line). */
function upgrade(port, path, headers = {}, options = {}) {
  const lines = [
    `GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: Upgrade', 'Upgrade: websocket',
    'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', '',
  ];
  return raw(port, lines.join('\r\n'), options);
}

const corsHeaders = (headers) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

/** Every path × method of openapi.json, path parameters filled with dummy values. */
function openapiRoutes() {
  const routes = [];
  for (const [template, item] of Object.entries(OPENAPI.paths)) {
    const path = template.replace('{id_or_name}', 'default').replace('{cell_id}', 'cell-1').replace('{name}', 'n1');
    for (const method of Object.keys(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
        // `security: []`: the probes, public by design (docs/security.md).
        routes.push({ method: method.toUpperCase(), path, template, public: Array.isArray(item[method].security) && item[method].security.length === 0 });
      }
    }
  }
  return routes;
}

t.test('with a token, every route answers 401 without it or with a wrong one', async (t) => {
  const api = await server(t, { token: TOKEN });
  const all = openapiRoutes();
  t.same(all.filter((route) => route.public).map((route) => `${route.method} ${route.path}`), ['GET /healthz', 'GET /readyz'],
    'only the probes are public: a Kubernetes httpGet probe cannot send the token');
  for (const probe of all.filter((route) => route.public)) {
    const response = await call(api.url, probe.method, probe.path);
    t.equal(response.status, 200, `${probe.path} answers without the token`);
    t.same(Object.keys(response.json), ['status'], `${probe.path} says nothing but its status`);
  }
  const routes = all.filter((route) => !route.public);
  t.ok(routes.length >= 50, `openapi.json lists ${routes.length} path × method pairs behind the token`);
  t.ok(routes.some((route) => route.path === '/mcp' && route.method === 'DELETE'), '/mcp POST, GET and DELETE are among them');
  const wrongs = {
    'no Authorization': undefined,
    'an empty bearer': 'Bearer ',
    'a wrong token of another length': 'Bearer nope',
    'a token differing in its last character': `Bearer ${TOKEN.slice(0, -1)}X`,
    'the token with a suffix': `Bearer ${TOKEN}0`,
    'the token in another scheme': `Basic ${TOKEN}`,
  };
  let refused = 0;
  for (const { method, path } of routes) {
    for (const [label, authorization] of Object.entries(wrongs)) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (authorization !== undefined) headers.authorization = authorization;
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? JSON.stringify({ code: 'globalThis.ran = true' }) : undefined;
      const response = await call(api.url, method, path, { headers, body });
      if (response.status === 401 && response.json?.code === 'REPL_ERR_UNAUTHORIZED') refused += 1;
      else t.fail(`${method} ${path} with ${label}: ${response.status} ${response.text.slice(0, 200)}`);
    }
  }
  t.equal(refused, routes.length * Object.keys(wrongs).length, `${refused} requests refused with 401 JSON`);

  for (const path of ['/repl', '/playwright/execute', '/browsers/default/repl', '/browsers/default/playwright/execute']) {
    const response = await call(api.url, 'POST', path, { headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{"code":"1"}' });
    t.equal(response.status, 401, `streaming ${path}: 401`);
    t.match(response.headers['content-type'], /^application\/json/, `streaming ${path}: a JSON error, not an event stream`);
  }
  for (const path of ['/nope', '/browsers/no-such-browser', '/repls?token=' + TOKEN]) {
    const response = await call(api.url, 'GET', path);
    t.equal(response.status, 401, `GET ${path.replace(TOKEN, '<token>')}: 401 (before any 404; ?token= is for the CDP proxy only)`);
  }

  const right = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  t.same((await call(api.url, 'GET', '/healthz', { headers: right })).json, { status: 'ok' }, 'the right token works');
  const cell = await call(api.url, 'POST', '/repl', { headers: { ...right, authorization: `bearer   ${TOKEN}` }, body: JSON.stringify({ code: 'repl.write(String(globalThis.ran))' }) });
  t.equal(cell.status, 200, 'POST /repl with the token (scheme case-insensitive)');
  t.same(cell.json.content.map((item) => item.text), ['undefined'], 'none of the refused cells ran');
});

t.test('the CDP proxy refuses before upgrading', async (t) => {
  const api = await server(t, { token: TOKEN });
  const port = api.port;
  const cases = {
    'no credential': ['/browsers/default/cdp', {}],
    'a wrong bearer': ['/browsers/default/cdp', { Authorization: 'Bearer nope' }],
    'a wrong ?token=': [`/browsers/default/cdp?token=${TOKEN.slice(0, -1)}X`, {}],
    'a forged ?jwt=': ['/browsers/default/cdp?jwt=forged', {}],
    'the token as ?jwt=': [`/browsers/default/cdp?jwt=${TOKEN}`, {}],
    'an unknown browser without a credential': ['/browsers/no-such-browser/cdp', {}],
    'an unknown browser with a forged ?jwt=': ['/browsers/no-such-browser/cdp?jwt=forged', {}],
    'another path without a credential': ['/devtools/browser/x', {}],
  };
  for (const [label, [path, headers]] of Object.entries(cases)) {
    const answer = await upgrade(port, path, headers);
    t.equal(answer.status, 401, `${label}: 401`);
    t.equal(answer.json?.code, 'REPL_ERR_UNAUTHORIZED', `${label}: JSON error`);
    t.notMatch(answer.text, /101 Switching/, `${label}: no upgrade`);
  }
  // With the right token the refusal moves on: this server has no browser.
  const authorized = await upgrade(port, '/browsers/default/cdp', { Authorization: `Bearer ${TOKEN}` });
  t.equal(authorized.json?.code, 'REPL_ERR_BROWSER_NOT_FOUND', 'the right token passes the check');
  const unknown = await upgrade(port, '/browsers/no-such-browser/cdp', { Authorization: `Bearer ${TOKEN}` });
  t.equal(unknown.status, 404, 'an unknown browser is a 404 only for an authorized client');
  const malformed = await upgrade(port, '/browsers/%E0%A4/cdp', { Authorization: `Bearer ${TOKEN}` });
  t.equal(malformed.status, 404, 'a malformed escape in the id: 404, not 500');
  t.equal((await upgrade(port, '/devtools/browser/x', { Authorization: `Bearer ${TOKEN}` })).status, 404, 'another path, authorized: 404');
});

t.test('the right token opens a real browser\'s CDP through the proxy', async (t) => {
  const api = await startServer({ port: 0, host: '127.0.0.1', token: TOKEN });
  t.teardown(() => api.close());
  const described = await call(api.url, 'GET', '/browsers/default', { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(described.status, 200);
  const capabilityUrl = described.json.cdp_ws_url;
  t.match(capabilityUrl, /\?jwt=/, 'cdp_ws_url carries the capability');
  for (const [label, url, options] of [
    ['bearer header', capabilityUrl.replace(/\?.*$/, ''), { headers: { authorization: `Bearer ${TOKEN}` } }],
    ['?jwt= capability', capabilityUrl, {}],
  ]) {
    const socket = new WebSocket(url, options);
    t.teardown(() => socket.terminate());
    await once(socket, 'open');
    socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
    let reply;
    while (reply?.id !== 1) reply = JSON.parse(String((await once(socket, 'message'))[0]));
    t.match(reply.result?.product, /Chrome|Chromium/, `${label}: a CDP command answers`);
    socket.close();
    await once(socket, 'close');
  }
  const refused = new WebSocket(capabilityUrl.replace(/\?.*$/, ''), { headers: { origin: 'https://evil.example', authorization: `Bearer ${TOKEN}` } });
  const [, response] = await once(refused, 'unexpected-response');
  t.equal(response.statusCode, 403, 'a page of another origin cannot open it even with the token');
  response.resume();
});

t.test('tokens are compared in constant time, on fixed-size digests', async (t) => {
  t.equal(tokenMatches(TOKEN, TOKEN), true);
  t.equal(tokenMatches(`${TOKEN.slice(0, -1)}X`, TOKEN), false, 'differing in the last character');
  // timingSafeEqual throws on buffers of different lengths: comparing digests is what makes this work.
  t.doesNotThrow(() => tokenMatches('x', TOKEN));
  t.equal(tokenMatches('x', TOKEN), false, 'a token of another length');
  t.equal(tokenMatches('', TOKEN), false);
  const source = readFileSync(new URL('lib/http/middleware.ts', ROOT), 'utf8');
  t.match(source, /const digest = \(value: string\) => createHash\('sha256'\)\.update\(value\)\.digest\(\);/, 'digests are SHA-256 (32 bytes whatever the input)');
  t.match(source, /return timingSafeEqual\(digest\(given\), digest\(expected\)\);/, 'compared with timingSafeEqual');
  const proxySource = readFileSync(new URL('lib/http/cdp-proxy.ts', ROOT), 'utf8');
  for (const use of ['tokenMatches(header, token)', 'tokenMatches(query, token)', 'tokenMatches(jwt, cdpCapability(token, target.id))']) {
    t.ok(proxySource.includes(use), `the CDP proxy compares with ${use}`);
  }
  t.equal(bearerToken({ authorization: `Bearer ${TOKEN}` }), TOKEN);
  t.equal(bearerToken({ authorization: TOKEN }), undefined, 'a bare token is not a bearer');
});

t.test('no non-loopback bind without a token', async (t) => {
  const lan = Object.values(networkInterfaces()).flat().find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address ?? '192.0.2.10';
  for (const host of ['0.0.0.0', '::', lan]) {
    await t.rejects(startServer({ port: 0, host, token: undefined, primaryBrowser: NO_BROWSER }), { code: 'REPL_ERR_INVALID_REQUEST', message: /refusing to listen on .* without a token/ }, `startServer on ${host}`);
    await t.rejects(startServer({ port: 0, host, token: '', primaryBrowser: NO_BROWSER }), { code: 'REPL_ERR_INVALID_REQUEST' }, `startServer on ${host} with an empty token`);
    const env = { ...process.env };
    for (const name of ['BROWSER_REPL_TOKEN', 'PORT', 'HOST', 'CDP_ENDPOINT']) delete env[name];
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--host', host], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdout.resume();
    const [code] = await once(child, 'exit');
    t.equal(code, 2, `chromium-repl serve --host ${host}: exit code 2`);
    t.match(stderr, /refusing to listen on .* without a token/, `chromium-repl serve --host ${host}: says why`);
  }
});

t.test('the Host check (DNS rebinding)', async (t) => {
  t.test('without a token: loopback names only', async (t) => {
    const api = await server(t);
    const { port } = api;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example`, `evil.example@127.0.0.1:${port}`, `127.0.0.1:${port}/x`, '10.0.0.1', `[::2]:${port}`, '0.0.0.0']) {
      const response = await call(api.url, 'GET', '/healthz', { headers: { host } });
      t.equal(response.status, 403, `Host ${host}: 403`);
      t.equal(response.json?.code, 'REPL_ERR_HOST_NOT_ALLOWED', `Host ${host}: the code`);
      t.ok(response.json?.message.includes(JSON.stringify(host)), `Host ${host}: the message names it`);
    }
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `127.9.8.7:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `app.localhost:${port}`, `[::1]:${port}`]) {
      t.equal((await call(api.url, 'GET', '/healthz', { headers: { host } })).status, 200, `Host ${host}: 200`);
    }
    const http10 = await raw(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    t.equal(http10.status, 403, 'HTTP/1.0 without Host: 403');
    t.equal(http10.json?.code, 'REPL_ERR_HOST_NOT_ALLOWED');
    const http11 = await raw(port, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    t.equal(http11.json?.code, 'REPL_ERR_HOST_NOT_ALLOWED', 'HTTP/1.1 without Host: 403 JSON');

    const mcp = await call(api.url, 'POST', '/mcp', { headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    t.equal(mcp.status, 403, '/mcp: 403');
    const rebinding = await raw(port, ['GET /browsers/default/cdp HTTP/1.1', 'Host: evil.example', 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''].join('\r\n'));
    t.equal(rebinding.status, 403, 'a WebSocket upgrade with a foreign Host: 403 before anything else');
    t.equal(rebinding.json?.code, 'REPL_ERR_HOST_NOT_ALLOWED');
  });

  t.test('allowedHosts adds names', async (t) => {
    const api = await server(t, { allowedHosts: ['repl.internal', '*.svc.cluster.local', 'fixed.example:8080'] });
    const status = async (host) => (await call(api.url, 'GET', '/healthz', { headers: { host } })).status;
    t.equal(await status('repl.internal:10001'), 200, 'a listed name, any port');
    t.equal(await status('REPL.internal'), 200, 'case-insensitive');
    t.equal(await status('a.b.svc.cluster.local'), 200, '*.domain: a subdomain');
    t.equal(await status('svc.cluster.local'), 403, '*.domain: not the domain itself');
    t.equal(await status('evilsvc.cluster.local'), 403);
    t.equal(await status('fixed.example:8080'), 200, 'name:port');
    t.equal(await status('fixed.example:8081'), 403, 'name:port: another port');
    t.equal(await status('other.internal'), 403, 'an unlisted name');
    t.equal(await status(`127.0.0.1:${api.port}`), 200, 'loopback still');
  });

  t.test('with a token: the token is the boundary unless allowedHosts is given', async (t) => {
    const open = await server(t, { token: TOKEN });
    const withToken = { authorization: `Bearer ${TOKEN}` };
    t.equal((await call(open.url, 'GET', '/healthz', { headers: { ...withToken, host: 'browser-repl.pods.example' } })).status, 200, 'any name with the token');
    t.equal((await call(open.url, 'GET', '/repls', { headers: { host: 'browser-repl.pods.example' } })).status, 401, 'and 401 without it');
    const listed = await server(t, { token: TOKEN, allowedHosts: ['browser-repl.pods.example'] });
    t.equal((await call(listed.url, 'GET', '/healthz', { headers: { ...withToken, host: 'browser-repl.pods.example' } })).status, 200, 'a listed name');
    const foreign = await call(listed.url, 'GET', '/healthz', { headers: { host: 'evil.example' } });
    t.equal(foreign.json?.code, 'REPL_ERR_HOST_NOT_ALLOWED', 'an unlisted name: the Host check comes before the token');
    t.equal((await call(listed.url, 'GET', '/healthz', { headers: { ...withToken, host: `localhost:${listed.port}` } })).status, 200, 'loopback names stay allowed (kubectl port-forward)');
  });

  t.test('malformed entries are refused up front', async (t) => {
    for (const entry of ['*', 'a b', 'http://x', 'x/y', 'user@x', '']) {
      await t.rejects(startServer({ port: 0, token: undefined, primaryBrowser: NO_BROWSER, allowedHosts: [entry] }), { code: 'REPL_ERR_INVALID_REQUEST', message: /allowedHosts/ }, `allowedHosts ${JSON.stringify(entry)}`);
    }
    t.throws(() => serveOptions(['--allowed-hosts', 'ok.example,http://x'], {}), { name: 'UsageError', message: /"http:\/\/x" is not a host name/ });
    t.throws(() => serveOptions([], { BROWSER_REPL_ALLOWED_HOSTS: 'a b' }), { name: 'UsageError', message: /BROWSER_REPL_ALLOWED_HOSTS/ });
    t.throws(() => serveOptions(['--allowed-origins', 'https://a.example/path'], {}), { name: 'UsageError', message: /not an origin/ });
    t.same(serveOptions(['--allowed-hosts', ' a.example , *.b.example ', '--allowed-origins', 'https://app.example'], {}), {
      token: undefined, allowedHosts: ['a.example', '*.b.example'], allowedOrigins: ['https://app.example'],
    }, 'the flags map onto the options');
    t.same(serveOptions([], { BROWSER_REPL_ALLOWED_HOSTS: 'a.example', BROWSER_REPL_ALLOWED_ORIGINS: 'http://localhost:3000' }), {
      token: undefined, allowedHosts: ['a.example'], allowedOrigins: ['http://localhost:3000'],
    }, 'and the variables');
  });
});

t.test('the Origin check (cross-site pages) and closed CORS', async (t) => {
  t.test('a simple-request CSRF attempt does not run its cell', async (t) => {
    const api = await server(t);
    const folder = mkdtempSync(join(tmpdir(), 'browser-repl-security-'));
    t.teardown(() => rmSync(folder, { recursive: true, force: true }));
    const cell = (file) => JSON.stringify({ code: `await (await import('node:fs/promises')).writeFile(${JSON.stringify(join(folder, file))}, 'ran')` });
    const attempts = {
      'Origin and Sec-Fetch-Site cross-site': { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      'Origin only (an older browser)': { origin: 'https://evil.example' },
      'Sec-Fetch-Site only': { 'sec-fetch-site': 'cross-site' },
      'same-site': { origin: `http://other.localhost:${api.port}`, 'sec-fetch-site': 'same-site' },
      'Origin: null (sandboxed frame)': { origin: 'null' },
      'another loopback port': { origin: 'http://127.0.0.1:1' },
    };
    let index = 0;
    for (const [label, headers] of Object.entries(attempts)) {
      const file = `attempt-${index++}`;
      const response = await call(api.url, 'POST', '/repl', { headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers }, body: cell(file) });
      t.equal(response.status, 403, `${label}: 403`);
      t.equal(response.json?.code, 'REPL_ERR_ORIGIN_NOT_ALLOWED', `${label}: the code`);
      t.same(corsHeaders(response.headers), [], `${label}: no CORS headers`);
      t.notOk(existsSync(join(folder, file)), `${label}: the cell did not run`);
    }
    // The same body from a program (no Origin) runs: the check above could have failed.
    const program = await call(api.url, 'POST', '/repl', { headers: { 'content-type': 'text/plain' }, body: cell('program') });
    t.equal(program.json?.success, true, 'a program client runs the same cell');
    t.ok(existsSync(join(folder, 'program')), 'and its side effect happened');
    // What a page of the server's own origin sends (and the MCP conformance suite checks).
    const same = await call(api.url, 'POST', '/repl', { headers: { 'content-type': 'application/json', origin: api.url, 'sec-fetch-site': 'same-origin' }, body: cell('same-origin') });
    t.equal(same.status, 200, 'the server\'s own origin is allowed');
    t.equal((await call(api.url, 'GET', '/repls', { headers: { 'sec-fetch-site': 'none' } })).status, 200, 'Sec-Fetch-Site: none (typed into the address bar) is allowed');
    const mcp = await call(api.url, 'POST', '/mcp', { headers: { origin: 'https://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    t.equal(mcp.status, 403, '/mcp from another origin: 403');
  });

  t.test('WebSocket upgrades from a page are refused', async (t) => {
    const api = await server(t);
    const answer = await upgrade(api.port, '/browsers/default/cdp', { Origin: 'https://evil.example' });
    t.equal(answer.status, 403, '403 before the upgrade');
    t.equal(answer.json?.code, 'REPL_ERR_ORIGIN_NOT_ALLOWED');
    const program = await upgrade(api.port, '/browsers/default/cdp');
    t.equal(program.json?.code, 'REPL_ERR_BROWSER_NOT_FOUND', 'without Origin the upgrade goes on (this server has no browser)');
  });

  t.test('no CORS headers by default', async (t) => {
    const api = await server(t);
    const plain = await call(api.url, 'GET', '/repls');
    t.same(corsHeaders(plain.headers), [], 'on a plain answer');
    const preflight = await call(api.url, 'OPTIONS', '/repl', { headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    t.equal(preflight.status, 403, 'a preflight of any origin: 403');
    t.same(corsHeaders(preflight.headers), [], 'a preflight gets none');
    t.equal(plain.headers['x-content-type-options'], 'nosniff', 'answers are never sniffed into pages');
  });

  t.test('an allowed origin gets CORS and working preflights', async (t) => {
    const app = 'https://app.example';
    const api = await server(t, { token: TOKEN, allowedOrigins: [app, 'http://localhost:3000/'] });
    const preflight = await call(api.url, 'OPTIONS', '/repl', { headers: { origin: app, 'sec-fetch-site': 'cross-site', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    t.equal(preflight.status, 204, 'the preflight answers 204 without the token (browsers never send it there)');
    t.equal(preflight.headers['access-control-allow-origin'], app);
    t.match(preflight.headers['access-control-allow-methods'], /POST/);
    t.equal(preflight.headers['access-control-allow-headers'], 'authorization, content-type');
    t.match(preflight.headers.vary, /Origin/);
    const denied = await call(api.url, 'POST', '/repl', { headers: { origin: app, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, body: '{"code":"1"}' });
    t.equal(denied.status, 401, 'the request itself still needs the token');
    t.equal(denied.headers['access-control-allow-origin'], app, 'and the page can read why');
    const ran = await call(api.url, 'POST', '/repl', { headers: { origin: app, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: '{"code":"repl.write(6 * 7)"}' });
    t.equal(ran.status, 200, 'with the token it runs');
    t.equal(ran.headers['access-control-allow-origin'], app);
    t.match(ran.headers['access-control-expose-headers'], /x-cell-id/);
    t.equal((await call(api.url, 'GET', '/healthz', { headers: { origin: 'http://localhost:3000', authorization: `Bearer ${TOKEN}` } })).status, 200, 'an entry with a trailing slash matches its origin');
    const other = await call(api.url, 'OPTIONS', '/repl', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    t.equal(other.status, 403, 'other origins stay refused');
    t.same(corsHeaders(other.headers), []);
    await t.rejects(startServer({ port: 0, token: undefined, primaryBrowser: NO_BROWSER, allowedOrigins: ['null'] }), { code: 'REPL_ERR_INVALID_REQUEST', message: /allowedOrigins: "null" is not an origin/ });
    await t.rejects(startServer({ port: 0, token: undefined, primaryBrowser: NO_BROWSER, allowedOrigins: ['*'] }), { code: 'REPL_ERR_INVALID_REQUEST' });
  });
});

t.test('the HTTP parser\'s refusals are JSON errors', async (t) => {
  const api = await server(t, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
  const { port } = api;
  const healthy = async (label) => t.equal((await call(api.url, 'GET', '/healthz')).status, 200, `${label}: the server still answers`);

  const big = await raw(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  t.equal(big.status, 431, 'oversized headers: 431');
  t.equal(big.json?.code, 'REPL_ERR_HEADERS_TOO_LARGE');
  t.match(big.headers['content-type'], /^application\/json/);
  await healthy('after oversized headers');

  for (const [label, request] of [
    ['a garbage request line', 'BLAH\r\n\r\n'],
    ['binary junk', '\u0000\u0001\u0002\u00ff\r\n\r\n'],
    ['a bad Content-Length', 'POST /repl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nbroken header\r\n\r\n'],
    ['Content-Length and Transfer-Encoding both', 'POST /repl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ]) {
    const answer = await raw(port, request);
    t.equal(answer.status, 400, `${label}: 400`);
    t.equal(answer.json?.code, 'REPL_ERR_INVALID_REQUEST', `${label}: JSON error`);
    t.match(answer.json?.message, /^malformed HTTP request: /, `${label}: says what`);
  }
  await healthy('after malformed requests');

  // Bytes past a whole request (after `Connection: close`, or beyond its Content-Length) are the
  // malformed part: the request itself still gets its own answer, then the connection closes.
  // Found by the fuzzer: the 400 for the trailing bytes used to take the request's place.
  const body = '{"path":null}';
  const trailing = await raw(port, `PUT /fs/delete_file HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}junk after the body`);
  t.equal(trailing.status, 400, 'the request is answered');
  t.equal(trailing.json?.code, 'REPL_ERR_INVALID_REQUEST');
  t.match(trailing.json?.message, /path/, 'by its own route: the message names its field, not the trailing bytes');
  await healthy('after trailing bytes');

  // Slow clients: the connection stays open on our side; the server must answer and close it.
  const slowHeaders = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n', { hold: true });
  t.equal(slowHeaders.status, 408, 'headers not finished in time: 408');
  t.equal(slowHeaders.json?.code, 'REPL_ERR_REQUEST_TIMEOUT');
  const slowBody = await raw(port, 'POST /repl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"code":', { hold: true });
  t.equal(slowBody.status, 408, 'a body not finished in time: 408');
  t.equal(slowBody.json?.code, 'REPL_ERR_REQUEST_TIMEOUT');
  // A client that resets mid-request gets nothing, and harms nothing.
  await new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', () => { socket.resetAndDestroy(); resolve(); }));
    socket.on('error', () => undefined);
  });
  await healthy('after slow and vanished clients');
});

t.test('malformed paths and WebSocket handshakes are 4xx JSON, never 5xx', async (t) => {
  const api = await server(t);
  for (const path of ['/browsers/%ED%A0%80/repls', '/browsers/%E0%A4/playwright/executors', '/repls/%FF']) {
    const response = await call(api.url, 'GET', path);
    t.equal(response.status, 400, `GET ${path}: 400`);
    t.equal(response.json?.code, 'REPL_ERR_INVALID_REQUEST', `GET ${path}: JSON error`);
  }
  const handshake = (lines) => raw(api.port, [...lines, '', ''].join('\r\n'));
  const base = ['Host: 127.0.0.1', 'Connection: Upgrade'];
  for (const [label, lines] of [
    ['no Sec-WebSocket-Key', ['GET /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 13']],
    ['a short Sec-WebSocket-Key', ['GET /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: abc']],
    ['version 7', ['GET /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 7', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']],
    ['Upgrade: h2c', ['GET /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: h2c', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']],
    ['a POST', ['POST /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Content-Length: 0']],
    ['a bad protocol list', ['GET /browsers/default/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol: a,,b']],
    ['a malformed escape', ['GET /browsers/%ED%A0%80/cdp HTTP/1.1', ...base, 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']],
  ]) {
    const answer = await handshake(lines);
    t.ok(answer.status >= 400 && answer.status < 500, `${label}: ${answer.status} is a 4xx`);
    t.match(answer.headers['content-type'], /^application\/json/, `${label}: JSON`);
    t.ok(typeof answer.json?.code === 'string' && answer.json.message.length > 0, `${label}: {message, code}`);
  }
});

t.test('the default timeouts suit minutes-long cells', async (t) => {
  const api = await server(t);
  t.equal(api.server.headersTimeout, 30_000, 'headers within 30 s');
  t.equal(api.server.requestTimeout, 300_000, 'a whole request (body included) within 5 min; the response is not limited');
  t.equal(api.server.keepAliveTimeout, 65_000, 'idle keep-alive outlives a 60 s proxy idle timeout');
  t.equal(api.server.timeout, 0, 'no socket inactivity timeout (a cell may run for minutes without output)');
  await t.rejects(startServer({ port: 0, token: undefined, primaryBrowser: NO_BROWSER, headersTimeoutMs: 0 }), { code: 'REPL_ERR_INVALID_REQUEST', message: /headersTimeoutMs/ });
});

t.test('no token or capability in the logs (NODE_DEBUG=browser-repl*)', async (t) => {
  // A closed port as the browser: the CDP proxy accepts the upgrade, then its upstream fails.
  const closed = net.createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const deadPort = closed.address().port;
  await new Promise((resolve) => closed.close(resolve));

  const env = { ...process.env, BROWSER_REPL_TOKEN: TOKEN, NODE_DEBUG: 'browser-repl*' };
  for (const name of ['PORT', 'HOST', 'CDP_ENDPOINT', 'BROWSER_REPL_ALLOWED_HOSTS', 'BROWSER_REPL_ALLOWED_ORIGINS']) delete env[name];
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--cdp-endpoint', `http://127.0.0.1:${deadPort}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { output += chunk; });
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  const port = Number(new URL(url).port);
  const right = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const wrongToken = `${TOKEN.slice(0, -1)}W`;

  const described = await call(url, 'GET', '/browsers/default', { headers: right });
  const capability = new URL(described.json.cdp_ws_url).searchParams.get('jwt');
  t.ok(capability.length > 20, 'the default browser has a capability');
  await call(url, 'GET', '/repls', { headers: { authorization: `Bearer ${wrongToken}` } });
  await call(url, 'GET', `/repls?token=${TOKEN}`);
  await call(url, 'GET', `/repls?token=${TOKEN}`, { headers: { host: 'evil.example' } });
  await call(url, 'POST', '/repl', { headers: right, body: '{"code": ' });
  await call(url, 'POST', '/repl', { headers: right, body: JSON.stringify({ code: 'throw new Error("boom")' }) });
  await call(url, 'POST', '/repl', { headers: { ...right, origin: 'https://evil.example' }, body: '{"code":"1"}' });
  await upgrade(port, `/browsers/default/cdp?token=${wrongToken}`);
  await upgrade(port, `/browsers/default/cdp?jwt=${capability}`, { Origin: 'https://evil.example' });
  await upgrade(port, `/browsers/nope/cdp?jwt=${capability}`);
  await raw(port, `GET /repls?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  await raw(port, `GET /repls?token=${TOKEN} HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nbroken\r\n\r\n`);
  // Accepted with the capability, then the upstream (a closed port) fails.
  await upgrade(port, `/browsers/default/cdp?jwt=${capability}`, {}, { deadlineMs: 10_000 });
  await upgrade(port, `/browsers/default/cdp?token=${TOKEN}`, {}, { deadlineMs: 10_000 });

  child.kill('SIGTERM');
  await once(child, 'exit');
  t.match(output, /chromium-repl listening on http:\/\/127\.0\.0\.1:\d+\n/, 'the startup line names the URL');
  t.match(output, /BROWSER-REPL:HTTP \d+: unauthorized GET \/repls\?token=\[redacted\]/, 'debug output is on, and refusals are logged redacted');
  t.match(output, /BROWSER-REPL:HTTP \d+: refused POST \/repl: Origin "https:\/\/evil\.example" is not allowed/, 'so are refused origins');
  t.match(output, /BROWSER-REPL:CDP-PROXY \d+: refused upgrade \/browsers\/default\/cdp\?jwt=\[redacted\]/, 'so are refused upgrades');
  t.match(output, /client error HPE_HEADER_OVERFLOW/, 'and parser errors, by code only');
  for (const [label, secret] of [['the token', TOKEN], ['the capability', capability], ['a presented wrong token', wrongToken]]) {
    t.same(output.split('\n').filter((line) => line.includes(secret)), [], `${label} appears nowhere in stdout or stderr`);
  }
});
