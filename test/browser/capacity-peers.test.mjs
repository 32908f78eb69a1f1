// Capacity as one service (issue 32, docs/deploy.md#one-service-from-many-servers): three real
// `chromium-repl serve` processes on loopback, each with room for 2 browsers and a create wait,
// joined by BROWSER_REPL_PEERS; the official SDK talks to server 0 only. Six concurrent creates are
// placed across the servers; the list from another server shows all six; a seventh waits and gets
// the room a delete on another server frees; a name taken through one server is refused through
// another and retrieved through a third; SIGKILL of a server drops its browsers from the lists.
import { readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { request } from 'undici';
import { MAIN, serveEnv, spawnServe } from '../helpers/serve-process.mjs';

t.setTimeout(240_000);

const TOKEN = 'test-token-capacity-peers';
async function freePorts(count) {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
const ports = await freePorts(3);
const nodes = ports.map((port, index) => ({ name: `cap-${index}`, port, url: `http://127.0.0.1:${port}` }));
const peerList = nodes.map((node) => `${node.name}=${node.url}`).join(',');
const pods = [];
for (const node of nodes) {
  pods.push(await spawnServe(t, {
    argv: [process.execPath, MAIN, 'serve', '--max-browsers', '2', '--create-wait-seconds', '60'],
    teardownSignal: 'SIGTERM',
    env: serveEnv({ HOST: '127.0.0.1', PORT: String(node.port), BROWSER_REPL_TOKEN: TOKEN, BROWSER_REPL_NODE_ID: node.name, BROWSER_REPL_PEERS: peerList }),
  }));
}
// A server killed with SIGKILL cannot remove its browsers' profiles: the test does, once every server ended.
t.teardown(async () => {
  for (const pod of pods) if (pod.child.exitCode === null && pod.child.signalCode === null) pod.child.kill('SIGTERM');
  await Promise.all(pods.map((pod) => pod.closed));
  // Chromium of a killed server exits once its parent's pipe closes; give it a moment before removing its folders.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const pids = new Set(pods.map((pod) => String(pod.child.pid)));
  for (const entry of readdirSync(tmpdir())) {
    const match = /^browser-repl-profile-(\d+)-/.exec(entry);
    if (match !== null && pids.has(match[1])) rmSync(join(tmpdir(), entry), { recursive: true, force: true, maxRetries: 5 });
  }
});
const kernelAt = (index) => new Kernel({ apiKey: TOKEN, baseURL: nodes[index].url, maxRetries: 0 });
const kernel = kernelAt(0);
const listAll = async (index) => (await kernelAt(index).browsers.list({ limit: 100 })).getPaginatedItems();
const queuedAt = async (index) => {
  const response = await request(`${nodes[index].url}/pressure`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await response.body.json()).queued;
};

t.test('six creates through one server are placed across all three; any server lists them', async (t) => {
  const created = await Promise.all(Array.from({ length: 6 }, () => kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } })));
  const perNode = new Map();
  for (const browser of created) {
    const node = browser.session_id.split('.')[0];
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  t.same([...perNode.entries()].sort(), [['cap-0', 2], ['cap-1', 2], ['cap-2', 2]], 'two on each server');
  const ids = created.map((browser) => browser.session_id).sort();
  t.same((await listAll(2)).map((row) => row.session_id).sort(), ids, 'server 2 lists all six');
  const page = await kernelAt(1).browsers.list({ limit: 4 });
  t.equal(page.getPaginatedItems().length, 4, 'one paging over every server');

  const seventh = kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } });
  const until = Date.now() + 60_000;
  while (Date.now() < until && await queuedAt(0) === 0) await new Promise((resolve) => setTimeout(resolve, 25));
  t.equal(await queuedAt(0), 1, 'the seventh waits on server 0');
  const onOther = created.find((browser) => browser.session_id.startsWith('cap-2.'));
  await kernel.browsers.deleteByID(onOther.session_id);
  const placed = await seventh;
  t.match(placed.session_id, /^cap-2\./, 'it got the room the delete freed on server 2');
  for (const browser of [...created.filter((b) => b !== onOther), placed]) await kernel.browsers.deleteByID(browser.session_id);
  t.equal((await listAll(1)).length, 0, 'all gone');
});

t.test('a name is unique across the servers and found from any', async (t) => {
  const named = await kernelAt(0).browsers.create({ name: 'shared-name' });
  const again = await request(`${nodes[1].url}/browsers`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shared-name' }),
  });
  t.equal(again.statusCode, 409, 'refused through another server');
  await again.body.dump();
  const got = await kernelAt(2).browsers.retrieve('shared-name');
  t.equal(got.session_id, named.session_id, 'retrieved through a third');
  await kernelAt(1).browsers.deleteByID('shared-name');
});

t.test('SIGKILL of a server: its browsers leave the lists, the others keep working', async (t) => {
  const created = await Promise.all(Array.from({ length: 4 }, () => kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } })));
  const victim = created.find((browser) => !browser.session_id.startsWith('cap-0.')).session_id.split('.')[0];
  const index = nodes.findIndex((node) => node.name === victim);
  pods[index].child.kill('SIGKILL');
  await pods[index].closed;
  const rows = await listAll(0);
  t.notOk(rows.some((row) => row.session_id.startsWith(`${victim}.`)), 'the killed server\'s browsers are not listed');
  const survivors = created.filter((browser) => !browser.session_id.startsWith(`${victim}.`));
  t.same(rows.map((row) => row.session_id).sort(), survivors.map((browser) => browser.session_id).sort(), 'the others are');
  for (const browser of survivors) await kernel.browsers.deleteByID(browser.session_id);
});
