// curl and fetch through the browser (docs/curl.md) with @onkernel/sdk unchanged: the request
// carries the cookie a page of the browser set, POST bodies and headers reach the target, binary
// bytes come back as base64, a 404 passes through, bad input is a 400 naming the field, a target
// that never answers is a 504; `client.browsers.fetch` reads a page through `base_url/curl/raw`;
// the capability of cdp_ws_url admits those routes without the token, for its browser only.
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { request } from 'undici';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-curl';
const api = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 2 });
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const auth = { authorization: `Bearer ${TOKEN}` };
// No automatic retries: a test must see each answer as it is.
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });

const browser = await kernel.browsers.create({});
const other = await kernel.browsers.create({});
t.teardown(async () => {
  await kernel.browsers.deleteByID(browser.session_id).catch(() => undefined);
  await kernel.browsers.deleteByID(other.session_id).catch(() => undefined);
});
const capability = new URL(browser.cdp_ws_url).searchParams.get('jwt');

t.test('browser objects carry base_url, the server\'s prefix of the browser', async (t) => {
  t.equal(browser.base_url, `${api.url}/browsers/${browser.session_id}`, 'on create');
  t.equal((await kernel.browsers.retrieve(browser.session_id)).base_url, browser.base_url, 'on retrieve');
  const listed = [];
  for await (const item of kernel.browsers.list()) listed.push(item);
  t.equal(listed.find((item) => item.session_id === other.session_id)?.base_url, `${api.url}/browsers/${other.session_id}`, 'on list');
  t.ok(capability, 'cdp_ws_url carries the capability the SDK routes base_url calls with');
});

t.test('curl sends the cookie a page of the browser set', async (t) => {
  const cell = await api.call('POST', `/browsers/${browser.session_id}/repl`, {
    code: `await gotoUrl(${JSON.stringify(fixtures.url('curl-cookie.html'))}); await waitForLoad(); repl.write(await js("document.cookie"));`,
  }, { headers: auth });
  t.equal(cell.status, 200, cell.text);
  t.match(JSON.stringify(cell.json), /curl_session=from-the-page/, 'the page set its cookie');
  const answer = await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__echo') });
  t.equal(answer.status, 200);
  t.same(answer.headers['x-echo'], ['yes'], 'headers are multi-value arrays');
  t.type(answer.duration_ms, 'number');
  const echo = JSON.parse(answer.body);
  t.equal(echo.method, 'GET');
  t.match(echo.headers.cookie, /curl_session=from-the-page/, 'the target got the browser\'s cookie');
  t.match(echo.headers['user-agent'], /Chrome/, 'and the browser\'s User-Agent');
  // The other browser has its own cookie jar.
  const elsewhere = JSON.parse((await kernel.browsers.curl(other.session_id, { url: fixtures.url('__echo') })).body);
  t.notOk(/curl_session/.test(elsewhere.headers.cookie ?? ''), 'another browser sends none');
});

t.test('POST with a body and headers', async (t) => {
  const answer = await kernel.browsers.curl(browser.session_id, {
    url: fixtures.url('__echo'), method: 'POST', body: 'hello from curl ✓', headers: { 'content-type': 'text/plain', 'x-custom': 'abc' },
  });
  const echo = JSON.parse(answer.body);
  t.equal(echo.method, 'POST');
  t.equal(echo.body, 'hello from curl ✓', 'the body arrived as UTF-8');
  t.equal(echo.headers['x-custom'], 'abc');
  t.equal(echo.headers['content-type'], 'text/plain', 'a given header replaces the browser\'s');
  const put = JSON.parse((await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__echo'), method: 'PUT', body: '{}' })).body);
  t.equal(put.method, 'PUT');
  const head = await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__echo'), method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.body, '', 'a HEAD answer has no body');
  t.same(head.headers['x-echo'], ['yes'], 'but its headers');
});

t.test('base64 carries binary bytes; a 404 passes through', async (t) => {
  const answer = await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__bytes'), response_encoding: 'base64' });
  t.equal(answer.status, 200);
  t.same([...Buffer.from(answer.body, 'base64')], Array.from({ length: 256 }, (_, i) => i), 'every byte value, in order');
  // A redirect is followed as the browser follows it: the answer is the final one.
  const moved = await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__redirect') });
  t.equal(moved.status, 200);
  t.equal(JSON.parse(moved.body).method, 'GET', 'the answer of the redirect\'s target');
  // A 307 keeps the method and the body (the browser's rule).
  const kept = JSON.parse((await kernel.browsers.curl(browser.session_id, { url: fixtures.url('__redirect?status=307'), method: 'POST', body: 'kept' })).body);
  t.equal(kept.method, 'POST');
  t.equal(kept.body, 'kept');
  const missing = await kernel.browsers.curl(browser.session_id, { url: fixtures.url('no-such-page.html') });
  t.equal(missing.status, 404);
  t.equal(missing.body, 'not found');
});

t.test('bad input is a 400 naming the field; a silent target a 504', async (t) => {
  const curl = (body) => api.call('POST', `/browsers/${browser.session_id}/curl`, body, { headers: auth });
  for (const [body, field] of [
    [{ url: 'ftp://127.0.0.1/x' }, /url/],
    [{ url: 'not a url' }, /url/],
    [{}, /url/],
    [{ url: fixtures.url('__echo'), method: 'TRACE' }, /method/],
    [{ url: fixtures.url('__echo'), response_encoding: 'hex' }, /response_encoding/],
    [{ url: fixtures.url('__echo'), timeout_ms: 0 }, /timeout_ms/],
    [{ url: fixtures.url('__echo'), headers: { a: 1 } }, /headers/],
  ]) {
    const answer = await curl(body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(answer.json?.message, field, `names ${field}`);
  }
  const big = await curl({ url: fixtures.url('__big') });
  t.equal(big.status, 502);
  t.equal(big.json?.code, 'REPL_ERR_CURL_TOO_LARGE', 'a body past 10 MiB does not fit the JSON answer');
  const slow = await curl({ url: fixtures.url('__hang'), timeout_ms: 500 });
  t.equal(slow.status, 504);
  t.equal(slow.json?.code, 'REPL_ERR_CURL_TIMEOUT');
  const refused = await curl({ url: 'http://127.0.0.1:1/' });
  t.equal(refused.status, 502);
  t.equal(refused.json?.code, 'REPL_ERR_CURL_FAILED');
  // The browser still serves requests after those.
  t.equal((await kernel.browsers.curl(browser.session_id, { url: fixtures.url('basic.html') })).status, 200);
});

t.test('client.browsers.fetch reads a page through base_url/curl/raw', async (t) => {
  const response = await kernel.browsers.fetch(browser.session_id, fixtures.url('basic.html'));
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /text\/html/);
  t.match(await response.text(), /Hello from the fixture server/);
  const posted = await kernel.browsers.fetch(browser.session_id, fixtures.url('__echo'), {
    // Bytes, not a string: the SDK sends a string body as JSON (its encoder's rule, as with Kernel).
    method: 'POST', body: new TextEncoder().encode('raw body'), headers: { 'x-raw': '1', 'content-type': 'text/plain' },
  });
  const echo = await posted.json();
  t.equal(echo.method, 'POST');
  t.equal(echo.body, 'raw body');
  t.equal(echo.headers['x-raw'], '1');
  t.match(echo.headers.cookie, /curl_session=from-the-page/, 'with the browser\'s cookie');
  t.notOk(echo.headers.authorization, 'no credential of this server reaches the target');
  const big = Buffer.from(await (await kernel.browsers.fetch(browser.session_id, fixtures.url('__big'))).arrayBuffer());
  t.equal(big.length, 10 * 1024 * 1024 + 1, 'curl/raw streams a body past the JSON answer\'s limit');
  t.equal(big.at(-1), 0x62, 'to its last byte');
  // The target's 404 is the answer's status: the SDK turns any non-2xx answer into its APIError.
  await t.rejects(kernel.browsers.fetch(browser.session_id, fixtures.url('no-such-page.html')), { status: 404 }, 'a 404 passes through');
});

t.test('the capability admits this browser\'s curl routes only', async (t) => {
  const target = encodeURIComponent(fixtures.url('basic.html'));
  const get = async (path) => {
    const response = await request(`${api.url}${path}`);
    await response.body.text();
    return response.statusCode;
  };
  t.equal(await get(`/browsers/${browser.session_id}/curl/raw?url=${target}&jwt=${capability}`), 200, 'raw, without the bearer token');
  const viaPost = await request(`${api.url}/browsers/${browser.session_id}/curl?jwt=${capability}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: fixtures.url('basic.html') }),
  });
  t.equal(viaPost.statusCode, 200, 'POST curl, without the bearer token');
  t.match((await viaPost.body.json()).body, /Hello from the fixture server/);
  t.equal(await get(`/browsers/${other.session_id}/curl/raw?url=${target}&jwt=${capability}`), 401, 'not another browser\'s');
  t.equal(await get(`/browsers/${browser.session_id}/curl/raw?url=${target}`), 401, 'nothing without it');
  t.equal(await get(`/browsers/${browser.session_id}/curl/raw?url=${target}&jwt=forged`), 401, 'nor with a forged one');
  t.equal(await get(`/browsers/${browser.session_id}?jwt=${capability}`), 401, 'not the browser object');
  t.equal(await get(`/browsers/${browser.session_id}/fs/list_files?path=/tmp&jwt=${capability}`), 401, 'not its other routes');
  const cell = await request(`${api.url}/browsers/${browser.session_id}/repl?jwt=${capability}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '1' }),
  });
  await cell.body.text();
  t.equal(cell.statusCode, 401, 'not its REPL');
});
