// Routing between pods (issue 14), simulated on loopback: three real `chromium-repl serve`
// processes play three pods of the StatefulSet, each with its node id (the pod's name), and a
// fixed peer list (BROWSER_REPL_PEERS) stands in for the headless Service's DNS names. A browser
// created through one is driven through the others: its REST routes, a streamed cell, and its
// cdp_ws_url with Playwright. The owner's drain: its running cell, reached through another pod,
// finishes; once it is gone, a request for its browser fails at once with a clear 502, and no
// request is handed to it.
import t from 'tap';
import { chromium } from 'playwright-core';
import { request } from 'undici';
import { MAIN, serveEnv, spawnServe } from '../helpers/serve-process.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { freePorts } from '../helpers/loopback.mjs';

t.setTimeout(240_000);

const TOKEN = 'test-token-pod-routing';
const auth = { authorization: `Bearer ${TOKEN}` };
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());

const ports = await freePorts(3);
const nodes = ports.map((port, index) => ({ name: `browser-repl-${index}`, port, url: `http://127.0.0.1:${port}` }));
const peerList = nodes.map((node) => `${node.name}=${node.url}`).join(',');
const pods = [];
for (const node of nodes) {
  pods.push(await spawnServe(t, {
    argv: [process.execPath, MAIN, 'serve'],
    env: serveEnv({
      HOST: '127.0.0.1', PORT: String(node.port), BROWSER_REPL_TOKEN: TOKEN,
      BROWSER_REPL_NODE_ID: node.name, BROWSER_REPL_PEERS: peerList, BROWSER_REPL_DRAIN_SEC: '60',
    }),
  }));
}

async function call(pod, method, path, body, headers = {}) {
  const response = await request(`${nodes[pod].url}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.statusCode, headers: response.headers, json, text };
}

t.test('a browser created through one pod is driven through the others', async (t) => {
  const created = await call(0, 'POST', '/browsers', {});
  t.equal(created.status, 200, created.text);
  const id = created.json.session_id;
  t.match(id, /^browser-repl-0\.[a-z0-9]+$/, 'the id names the pod that holds the browser');

  const set = await call(1, 'POST', `/browsers/${id}/repl`, { code: `await gotoUrl(${JSON.stringify(fixtures.url('basic.html'))}); await waitForLoad(); globalThis.seen = (await pageInfo()).title; repl.write(seen)` });
  t.equal(set.status, 200, set.text);
  t.match(set.json, { success: true, content: [{ text: 'Basic fixture' }] }, 'a cell through pod 1 ran on pod 0\'s browser');
  const read = await call(2, 'POST', `/browsers/${id}/repl`, { code: 'repl.write(globalThis.seen)' });
  t.match(read.json, { success: true, content: [{ text: 'Basic fixture' }] }, 'pod 2 reaches the same REPL and its state');

  const got = await call(2, 'GET', `/browsers/${id}`);
  t.equal(got.status, 200);
  t.equal(got.json.session_id, id, 'GET /browsers/{id} through another pod');
  t.match(got.json.cdp_ws_url, new RegExp(`^ws://127\\.0\\.0\\.1:${nodes[2].port}/browsers/`), 'cdp_ws_url names the host the client used: the Service, in a cluster');
  t.equal(got.json.base_url, `${nodes[2].url}/browsers/${id}`, 'so does base_url, answered by the owner (docs/curl.md#base_url)');
  // The SDK's fetch through base_url, as it sends it: the capability, no token, through a pod that is not the owner.
  const jwt = new URL(got.json.cdp_ws_url).searchParams.get('jwt');
  const fetched = await request(`${got.json.base_url}/curl/raw?url=${encodeURIComponent(fixtures.url('basic.html'))}&jwt=${jwt}`);
  t.equal(fetched.statusCode, 200, 'curl/raw with the capability through another pod');
  t.match(await fetched.body.text(), /Hello from the fixture server/, 'the owner\'s browser fetched the page');

  const listed = await call(0, 'GET', '/browsers');
  t.ok(listed.json.some((row) => row.session_id === id), 'the owner lists it');

  const streamed = await request(`${nodes[2].url}/browsers/${id}/repl`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ code: 'repl.write("a"); await waitMs(300); repl.write("b")' }),
  });
  t.match(streamed.headers['content-type'], /^text\/event-stream/, 'a streamed cell stays a stream through the forward');
  const events = await streamed.body.text();
  t.match(events, /event: content[\s\S]*"a"[\s\S]*event: content[\s\S]*"b"[\s\S]*event: result/, 'its events arrive in order');

  const lookalike = await call(1, 'POST', '/browsers', { name: 'browser-repl-0.mine' });
  t.equal(lookalike.status, 200, lookalike.text);
  const byName = await call(1, 'GET', '/browsers/browser-repl-0.mine');
  t.equal(byName.json?.session_id, lookalike.json.session_id, 'a name that looks like pod 0\'s id is served by the pod that has it');
  t.equal((await call(1, 'DELETE', `/browsers/${lookalike.json.session_id}`)).status, 204);

  const unknown = await call(1, 'GET', '/browsers/browser-repl-9.nosuchbrowser');
  t.equal(unknown.status, 404, 'an id of a pod nobody knows is just unknown');
  const looped = await call(1, 'GET', `/browsers/${id}`, undefined, { 'x-browser-repl-forwarded-by': 'browser-repl-2' });
  t.equal(looped.status, 404, 'a request a peer already forwarded is never forwarded again');
  const unauthorized = await request(`${nodes[1].url}/browsers/${id}`, { method: 'GET' });
  t.equal(unauthorized.statusCode, 401, 'the token is checked before anything is forwarded');
  await unauthorized.body.dump();

  // cdp_ws_url through another pod than the owner, as a client behind the Service connects.
  const wsUrl = new URL(created.json.cdp_ws_url);
  wsUrl.host = `127.0.0.1:${nodes[1].port}`;
  const browser = await chromium.connectOverCDP(wsUrl.href);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.goto(fixtures.url('basic.html'));
    t.equal(await page.title(), 'Basic fixture', 'Playwright drove pod 0\'s Chromium through pod 1');
    // Longer than the forward's connect budget (5 s): that budget ends when the upgrade succeeds,
    // or an idle CDP client behind another pod would be cut off.
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    t.equal(await page.evaluate(() => 6 * 7), 42, 'a forwarded CDP connection idle past the connect budget still answers');
    t.ok(browser.isConnected(), 'and stayed connected');
    await page.close();
  } finally {
    await browser.close();
  }
  const badCapability = new URL(wsUrl);
  badCapability.searchParams.set('jwt', 'forged');
  await t.rejects(chromium.connectOverCDP(badCapability.href, { timeout: 20_000 }), /401|Unauthorized/, 'the owner checks the capability of a forwarded upgrade');

  const deleted = await call(2, 'DELETE', `/browsers/${id}`);
  t.equal(deleted.status, 204, 'DELETE through another pod');
  t.equal((await call(0, 'GET', `/browsers/${id}`)).status, 404, 'the owner no longer has it');
});

t.test('the owner drains: its running cell finishes through another pod; then nothing is handed to it', async (t) => {
  const created = await call(0, 'POST', '/browsers', {});
  const id = created.json.session_id;
  const running = call(1, 'POST', `/browsers/${id}/repl`, { code: 'await waitMs(2000); repl.write("finished")', timeout_sec: 60 });
  // The cell is running on pod 0 before it drains.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const rows = await call(0, 'GET', `/browsers/${id}/repls`);
    if (rows.json?.repls?.some((row) => row.busy)) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  pods[0].child.kill('SIGTERM');
  let ready;
  while (Date.now() < until) {
    ready = await call(0, 'GET', '/readyz');
    if (ready.status === 503) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  t.same(ready.json, { status: 'draining' }, 'the owner is draining: the Service stops sending it new work');
  const handed = await call(0, 'POST', '/browsers', {});
  t.equal(handed.status, 200, handed.text);
  t.match(handed.json?.session_id, /^browser-repl-[12]\./, 'it takes no new browser: it hands the create to a peer (docs/deploy.md#one-service-from-many-servers)');
  t.equal((await call(1, 'DELETE', `/browsers/${handed.json.session_id}`)).status, 204);
  const answer = await running;
  t.match(answer.json, { success: true, content: [{ text: 'finished' }] }, 'the running cell, reached through pod 1, finished');
  const [code] = await pods[0].closed;
  t.equal(code, 0, 'the owner exited');

  const gone = await call(1, 'POST', `/browsers/${id}/repl`, { code: 'repl.write(1)' });
  t.equal(gone.status, 502);
  t.equal(gone.json.code, 'REPL_ERR_PEER_UNAVAILABLE');
  t.match(gone.json.message, /browser-repl-0, which holds this browser, cannot be reached/);
  const fresh = await call(1, 'POST', '/browsers', {});
  t.equal(fresh.status, 200, 'the other pods take new browsers');
  t.match(fresh.json.session_id, /^browser-repl-1\./);
  t.equal((await call(1, 'DELETE', `/browsers/${fresh.json.session_id}`)).status, 204);
});
