// GET /webmcp/tools and POST /webmcp/invoke over real HTTP on loopback, without a browser: every
// validation rule answers its 400 (or 413) naming the field before anything reaches the browser
// (the hosted product's API-layer checks, docs/webmcp.md "Over HTTP" and "Limits"), and a host without a browser
// answers REPL_ERR_BROWSER_NOT_FOUND. What a real Chromium answers is test/browser/webmcp-mcp.test.mjs.
import t from 'tap';
import { apiServer } from '../helpers/api-server.mjs';

const MIB = 1024 * 1024;
const REF = 'wmcp_abcdefghijklmnopqrstuvwx';

t.test('POST /webmcp/invoke validation, before any browser traffic', async (t) => {
  // A browser that cannot exist: anything that got past validation would fail with the discovery error instead.
  const api = await apiServer(t, { primaryBrowser: { browser: { executable: '/nonexistent/chromium', cdpEndpoint: null } } });
  const host = api.server.app.browsers.primary;

  const invalid = async (t, body, message, { status = 400, raw = false, path = '/webmcp/invoke' } = {}) => {
    const response = await api.call('POST', path, body, { raw });
    t.equal(response.status, status, `${status} for ${raw ? `${String(body).slice(0, 40)}…` : JSON.stringify(body)?.slice(0, 80)}`);
    t.match(response.headers['content-type'], /application\/json/);
    t.equal(response.json?.message, message);
    t.equal(response.json?.code, status === 413 ? 'REPL_ERR_BODY_TOO_LARGE' : 'REPL_ERR_INVALID_REQUEST');
    t.equal(response.headers['x-should-retry'], 'false', 'a failed invoke is never retried by the SDK');
  };

  t.test('400 without a body', (t) => invalid(t, undefined, 'request body is required'));

  t.test('400 for malformed JSON', async (t) => {
    const response = await api.call('POST', '/webmcp/invoke', '{"tool_ref": ', { raw: true });
    t.equal(response.status, 400);
    t.match(response.json.message, /^invalid request body: /);
  });

  t.test('400 for a body that is not an object', (t) => invalid(t, [REF, {}], 'invalid request body: body must be object'));

  t.test('400 for an unknown field', (t) => invalid(t, { tool_ref: REF, input: {}, bogus: 1 }, 'invalid request body: json: unknown field "bogus"'));

  t.test('tool_ref: required, a string of 1 to 128 characters', async (t) => {
    await invalid(t, { input: {} }, 'tool_ref is required');
    await invalid(t, { tool_ref: 7, input: {} }, 'invalid request body: tool_ref must be string');
    await invalid(t, { tool_ref: '', input: {} }, 'tool_ref must be a string of 1 to 128 characters');
    await invalid(t, { tool_ref: 'x'.repeat(129), input: {} }, 'tool_ref must be a string of 1 to 128 characters');
    // Characters, not bytes or UTF-16 units: 128 emoji are 128 characters.
    await invalid(t, { tool_ref: '😀'.repeat(129), input: {} }, 'tool_ref must be a string of 1 to 128 characters');
  });

  t.test('input: required, a JSON object', async (t) => {
    await invalid(t, { tool_ref: REF }, 'input is required');
    for (const input of [null, [], 'text', 3, true]) {
      await invalid(t, { tool_ref: REF, input }, 'invalid request body: input must be object');
    }
  });

  t.test('input: its JSON at most 1 MiB, although the body may be 4 KiB larger', async (t) => {
    // {"s":"x…"} is the 1 MiB string plus 8 bytes: over the input limit, within the body limit.
    await invalid(t, { tool_ref: REF, input: { s: 'x'.repeat(MIB) } }, `input exceeds ${MIB} bytes as JSON`);
  });

  t.test('timeout_sec: an integer from 1 to 120', async (t) => {
    for (const timeout of [0, -1, 121]) {
      await invalid(t, { tool_ref: REF, input: {}, timeout_sec: timeout }, 'timeout_sec must be an integer from 1 to 120');
    }
    await invalid(t, { tool_ref: REF, input: {}, timeout_sec: 1.5 }, 'invalid request body: timeout_sec must be integer');
    await invalid(t, { tool_ref: REF, input: {}, timeout_sec: '30' }, 'invalid request body: timeout_sec must be integer');
  });

  t.test('413 for a body over 1 MiB + 4 KiB, as JSON', async (t) => {
    const body = JSON.stringify({ tool_ref: REF, input: { s: 'x'.repeat(MIB + 4 * 1024) } });
    await invalid(t, body, `request body exceeds ${MIB + 4 * 1024} bytes`, { status: 413, raw: true });
  });

  t.test('the same rules below /browsers/{id_or_name}/', async (t) => {
    await invalid(t, { tool_ref: REF, input: {}, timeout_sec: 121 }, 'timeout_sec must be an integer from 1 to 120', { path: '/browsers/default/webmcp/invoke' });
    await invalid(t, { tool_ref: '' , input: {} }, 'tool_ref must be a string of 1 to 128 characters', { path: '/browsers/default/webmcp/invoke' });
  });

  t.test('none of that reached the browser', async (t) => {
    t.equal(host.chromium.launched, false, 'no browser was launched');
    t.equal(host.webmcp.running, false, 'the WebMCP monitor never connected');
  });

  t.test('a valid request does go to the browser (here: the discovery error)', async (t) => {
    // 128 characters and timeout_sec at both ends are valid; the request fails only for want of a Chromium.
    for (const body of [{ tool_ref: 'x'.repeat(128), input: {} }, { tool_ref: REF, input: { nested: [1, { a: null }] }, timeout_sec: 1 }, { tool_ref: REF, input: {}, timeout_sec: 120 }]) {
      const response = await api.call('POST', '/webmcp/invoke', body);
      t.equal(response.status, 500, JSON.stringify(body).slice(0, 60));
      t.equal(response.json.code, 'REPL_ERR_BROWSER_NOT_FOUND');
      t.match(response.json.message, /No Chromium-based browser found/);
      t.equal(response.headers['x-should-retry'], 'false');
    }
    const listing = await api.call('GET', '/webmcp/tools');
    t.equal(listing.status, 500);
    t.equal(listing.json.code, 'REPL_ERR_BROWSER_NOT_FOUND');
  });
});

t.test('a host without a browser (browser: false)', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });

  t.test('GET /webmcp/tools answers REPL_ERR_BROWSER_NOT_FOUND, at / and below /browsers/default', async (t) => {
    for (const path of ['/webmcp/tools', '/browsers/default/webmcp/tools']) {
      const response = await api.call('GET', path);
      t.equal(response.status, 500, path);
      t.equal(response.json.code, 'REPL_ERR_BROWSER_NOT_FOUND');
      t.match(response.json.message, /without a browser.*page tools \(WebMCP\) need one/);
    }
  });

  t.test('POST /webmcp/invoke validates first, then answers REPL_ERR_BROWSER_NOT_FOUND', async (t) => {
    const invalid = await api.call('POST', '/webmcp/invoke', { tool_ref: REF });
    t.equal(invalid.status, 400);
    t.equal(invalid.json.message, 'input is required');
    const valid = await api.call('POST', '/webmcp/invoke', { tool_ref: REF, input: {} });
    t.equal(valid.status, 500);
    t.equal(valid.json.code, 'REPL_ERR_BROWSER_NOT_FOUND');
    t.equal(valid.headers['x-should-retry'], 'false');
  });

  t.test('an unknown browser is a 404', async (t) => {
    const response = await api.call('GET', '/browsers/nope/webmcp/tools');
    t.equal(response.status, 404);
    t.equal(response.json.code, 'REPL_ERR_NOT_FOUND');
  });
});
