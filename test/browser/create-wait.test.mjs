// Waiting for room (docs/deploy.md#waiting-for-room) on one server with room for one browser and
// a create queue of one: a create past the limit waits and gets the browser a delete frees; the
// next one, with the queue full, is refused at once with Retry-After; a request that asks for no
// wait gets today's fast 429; a wait that ends answers 429; a client that goes away leaves the
// queue and nothing is launched for it; /pressure says it all, as JSON and as the text form a load
// balancer checks. Through the official SDK, which waits with x-wait-timeout and obeys x-should-retry.
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { request } from 'undici';
import { apiServer } from '../helpers/api-server.mjs';

t.setTimeout(180_000);

const api = await apiServer(t, { maxBrowsers: 1, createWaitSeconds: 60, createQueue: 1 });
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });

async function until(predicate, what) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const pressure = async () => (await api.call('GET', '/pressure')).json;

t.test('a create waits for room, in a bounded line, and gets the browser a delete frees', async (t) => {
  const first = await kernel.browsers.create({});
  const idle = await pressure();
  t.match(idle, { running: 1, queued: 0, max: 1, queue_max: 1, accepting: false, draining: false }, '/pressure: full');
  t.type(idle.cpu, 'number');
  t.ok(idle.memory >= 0 && idle.memory <= 1, 'memory is a share');
  const text = await api.call('GET', '/pressure?format=text');
  t.equal(text.status, 503, 'the text form answers 503 when full, for a load balancer');
  t.match(text.text, /^full running=1 queued=0 max=1/);

  const waiting = kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } });
  await until(async () => (await pressure()).queued === 1, 'the create to queue');

  const full = await api.call('POST', '/browsers', {});
  t.equal(full.status, 429, 'the queue holds one: the next create is refused at once');
  t.equal(full.json.code, 'REPL_ERR_CAPACITY_QUEUE_FULL');
  t.equal(full.headers['retry-after'], '2', 'with Retry-After');
  t.equal(full.headers['x-should-retry'], 'true', 'and the SDK is told to retry');

  const metrics = await api.call('GET', '/metrics');
  t.match(metrics.text, /^browser_repl_creates_queued 1$/m, 'the queued gauge counts the waiting create');

  await kernel.browsers.deleteByID(first.session_id);
  const second = await waiting;
  t.match(second.session_id, /\S/, 'the waiting create got a browser once the first was deleted');
  t.equal((await pressure()).queued, 0);
  await kernel.browsers.deleteByID(second.session_id);
});

t.test('no wait asked, a wait that ends, a name taken', async (t) => {
  const first = await kernel.browsers.create({ name: 'holder' });
  const fast = await api.call('POST', '/browsers', {}, { headers: { 'x-wait-timeout': '0' } });
  t.equal(fast.status, 429, 'x-wait-timeout 0: today\'s fast refusal');
  t.equal(fast.json.code, 'REPL_ERR_BROWSER_LIMIT');
  t.equal(fast.headers['retry-after'], '2');
  const ended = await api.call('POST', '/browsers', { wait_timeout_seconds: 0.2 });
  t.equal(ended.status, 429, 'the body\'s wait_timeout_seconds shortens the wait');
  t.equal(ended.json.code, 'REPL_ERR_CAPACITY_WAIT_TIMEOUT');
  t.equal(ended.headers['x-should-retry'], 'true');
  const badHeader = await api.call('POST', '/browsers', {}, { headers: { 'x-wait-timeout': 'soon' } });
  t.equal(badHeader.status, 400);
  t.match(badHeader.json.message, /x-wait-timeout/, 'a malformed header is named');
  t.equal(badHeader.headers['x-should-retry'], 'false', 'a bad field is not worth a retry');
  const taken = await api.call('POST', '/browsers', { name: 'holder' });
  t.equal(taken.status, 409);
  t.equal(taken.headers['x-should-retry'], 'false', 'a name taken is not retried (the SDK retries a 409 by default)');
  t.equal((await pressure()).queued, 0, 'nobody is left waiting');
  await kernel.browsers.deleteByID(first.session_id);
});

t.test('a client that goes away leaves the queue; nothing is launched for it', async (t) => {
  const first = await kernel.browsers.create({});
  const controller = new AbortController();
  const gone = request(`${api.url}/browsers`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: controller.signal,
  }).catch((error) => error.name);
  await until(async () => (await pressure()).queued === 1, 'the create to queue');
  controller.abort();
  t.equal(await gone, 'AbortError');
  await until(async () => (await pressure()).queued === 0, 'the abandoned create to leave the queue');
  await kernel.browsers.deleteByID(first.session_id);
  await until(async () => (await pressure()).accepting, 'room');
  // Had the abandoned create kept its place, it would take the freed room now.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await pressure();
  t.equal(after.running + after.starting, 0, 'no browser was launched for the client that left');
  const list = await kernel.browsers.list();
  t.equal(list.getPaginatedItems().length, 0);
});
