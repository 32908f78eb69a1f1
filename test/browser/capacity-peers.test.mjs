// Capacity as one service (issue 32, docs/deploy.md#one-service-from-many-servers): three real
// `chromium-repl serve` processes on loopback, each with room for 2 browsers and a create wait,
// joined by BROWSER_REPL_PEERS; the official SDK talks to server 0 only. Six concurrent creates are
// placed across the servers; the list from another server shows all six; a seventh waits and gets
// the room a delete on another server frees; a name taken through one server is refused through
// another and retrieved through a third, and so is a new name given by a rename; a request forwarded to a browser's server is counted under
// its documented route; SIGKILL of a server drops its browsers from every list within 15 s while
// the others keep working; at the end no Chromium process of any server is left.
import { readFileSync, readdirSync } from 'node:fs';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { request } from 'undici';
import { MAIN, serveEnv, spawnServe } from '../helpers/serve-process.mjs';
import { PeerDirectory } from '../../dist/lib/http/peer-directory.js';
import { Peers } from '../../dist/lib/http/peers.js';
import { freePorts } from '../helpers/loopback.mjs';

t.setTimeout(240_000);

const TOKEN = 'test-token-capacity-peers';
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
// The servers still running end politely and remove their browsers' folders; what the one killed
// with SIGKILL left (profiles, Chromium's singleton-socket folders) spawnServe's teardown removes
// once its Chromium is gone (test/helpers/serve-process.mjs).
t.teardown(async () => {
  for (const pod of pods) if (pod.child.exitCode === null && pod.child.signalCode === null) pod.child.kill('SIGTERM');
  await Promise.all(pods.map((pod) => pod.closed));
});
// The owners of names as the servers compute them (the same members, the same hashing).
const ownersPeers = new Peers({ nodeId: nodes[0].name, peers: Object.fromEntries(nodes.map((node) => [node.name, node.url])) });
const owners = new PeerDirectory({ peers: ownersPeers });
t.teardown(async () => {
  await owners.close();
  await ownersPeers.close();
});
const kernelAt = (index) => new Kernel({ apiKey: TOKEN, baseURL: nodes[index].url, maxRetries: 0 });
const kernel = kernelAt(0);
const listAll = async (index) => (await kernelAt(index).browsers.list({ limit: 100 })).getPaginatedItems();
/** The processes descended from `pid` (from /proc), e.g. a server's Chromium and its renderers. */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // Ended while listed.
    }
  }
  const out = [];
  const walk = (parent) => {
    for (const child of children.get(parent) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}
const commandOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
};
/** Chromium processes seen under the servers during the test, pid → command line. */
const chromiumSeen = new Map();
const noteChromium = () => {
  for (const pod of pods) {
    for (const pid of descendants(pod.child.pid)) {
      const command = commandOf(pid);
      if (command !== undefined && /chrom/i.test(command)) chromiumSeen.set(pid, command);
    }
  }
};
const stillRunning = () => [...chromiumSeen].filter(([pid, command]) => commandOf(pid) === command);
const eventually = async (check, ms) => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
const metricValue = async (index, name, labels) => {
  const response = await request(`${nodes[index].url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await response.body.text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && wanted.every((w) => l.includes(w)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
};
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
  noteChromium();
  t.ok(chromiumSeen.size >= 6, `Chromium processes run under the servers (${chromiumSeen.size})`);

  // Server 0 forwards a per-browser call to cap-1 and counts it under the documented route.
  const onCap1 = created.find((browser) => browser.session_id.startsWith('cap-1.'));
  const labels = { method: 'POST', route: '/browsers/{id_or_name}/playwright/execute', status: '200' };
  const before = await metricValue(0, 'browser_repl_http_requests_total', labels);
  const unmatchedBefore = await metricValue(0, 'browser_repl_http_requests_total', { method: 'POST', route: 'unmatched' });
  const executed = await kernel.browsers.playwright.execute(onCap1.session_id, { code: 'return 6 * 7' });
  t.same([executed.success, executed.result], [true, 42], 'the call ran on cap-1');
  t.equal(await metricValue(0, 'browser_repl_http_requests_total', labels) - before, 1, 'the forwarding server counts it under its route');
  t.equal(await metricValue(0, 'browser_repl_http_requests_total', { method: 'POST', route: 'unmatched' }) - unmatchedBefore, 0, 'not as unmatched');

  let settled = false;
  const seventh = kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } }).finally(() => {
    settled = true;
  });
  const until = Date.now() + 60_000;
  while (Date.now() < until && await queuedAt(0) === 0) await new Promise((resolve) => setTimeout(resolve, 25));
  t.equal(await queuedAt(0), 1, 'the seventh waits on server 0');
  t.equal(await metricValue(0, 'browser_repl_creates_queued', {}), 1, 'and /metrics counts it in browser_repl_creates_queued, the autoscaler\'s demand');
  t.notOk(settled, 'it has no answer before the delete');
  const onOther = created.find((browser) => browser.session_id.startsWith('cap-2.'));
  await kernel.browsers.deleteByID(onOther.session_id);
  const placed = await seventh;
  t.equal(await queuedAt(0), 0, 'no create waits any more');
  t.match(placed.session_id, /^cap-2\./, 'it got the room the delete freed on server 2');
  for (const browser of [...created.filter((b) => b !== onOther), placed]) await kernel.browsers.deleteByID(browser.session_id);
  t.equal((await listAll(1)).length, 0, 'all gone');
});

t.test('a name, given at create or by a rename, is unique across the servers and found from any', async (t) => {
  const named = await kernelAt(0).browsers.create({ name: 'shared-name' });
  const again = await request(`${nodes[1].url}/browsers`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shared-name' }),
  });
  t.equal(again.statusCode, 409, 'refused through another server');
  await again.body.dump();
  const got = await kernelAt(2).browsers.retrieve('shared-name');
  t.equal(got.session_id, named.session_id, 'retrieved through a third');

  // A rename: the browser stays on its server, whoever owns the new name.
  const [first, second] = await Promise.all([kernelAt(0).browsers.create({}), kernelAt(0).browsers.create({})]);
  const holder = first.session_id.split('.')[0];
  const newName = Array.from({ length: 50 }, (_, i) => `renamed-${i}`).find((name) => owners.ownerOf(name) !== holder);
  const [through, third] = [0, 1, 2].filter((i) => nodes[i].name !== holder);
  const renamed = await kernelAt(through).browsers.update(first.session_id, { name: newName });
  t.same([renamed.session_id, renamed.name], [first.session_id, newName], `renamed through ${nodes[through].name} (the name's owner is ${owners.ownerOf(newName)}, the browser on ${holder})`);
  t.equal((await kernelAt(third).browsers.retrieve(newName)).session_id, first.session_id, `retrieved by its new name through ${nodes[third].name}`);
  t.equal((await kernelAt(through).browsers.playwright.execute(newName, { code: 'return 7' })).result, 7, 'a call by the new name reaches it');
  const takenBy = async (index, method, path, body) => {
    const answer = await request(`${nodes[index].url}${path}`, {
      method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    return { status: answer.statusCode, body: await answer.body.json() };
  };
  const renameAgain = await takenBy(third, 'PATCH', `/browsers/${encodeURIComponent(second.session_id)}`, { name: newName });
  t.match(renameAgain, { status: 409, body: { code: 'REPL_ERR_CONFLICT', message: new RegExp(`"${newName}" already exists`) } }, 'a second browser cannot be renamed to it, through another server');
  const createAgain = await takenBy(third, 'POST', '/browsers', { name: newName });
  t.match(createAgain, { status: 409, body: { code: 'REPL_ERR_CONFLICT' } }, 'nor created with it');
  t.equal((await kernelAt(2).browsers.retrieve(second.session_id)).name, undefined, 'the second keeps no name');
  await kernelAt(third).browsers.deleteByID(newName);
  const gone = await request(`${nodes[through].url}/browsers/${newName}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(gone.statusCode, 404, 'deleted by its name through a third server: gone');
  await gone.body.dump();
  const reuse = await kernelAt(third).browsers.update(second.session_id, { name: newName });
  t.equal(reuse.name, newName, 'the freed name can be taken again');
  for (const id of ['shared-name', second.session_id]) await kernelAt(1).browsers.deleteByID(id);
});

t.test('SIGKILL of a server: within 15 s its browsers leave every list, the others keep working', async (t) => {
  const created = await Promise.all(Array.from({ length: 4 }, () => kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } })));
  noteChromium();
  const victim = created.find((browser) => !browser.session_id.startsWith('cap-0.')).session_id.split('.')[0];
  const index = nodes.findIndex((node) => node.name === victim);
  const survivorsAt = [0, 1, 2].filter((i) => i !== index);
  pods[index].child.kill('SIGKILL');
  await pods[index].closed;
  const survivors = created.filter((browser) => !browser.session_id.startsWith(`${victim}.`));
  const expected = survivors.map((browser) => browser.session_id).sort();
  for (const at of survivorsAt) {
    const rows = await eventually(async () => {
      const ids = (await listAll(at)).map((row) => row.session_id).sort();
      return JSON.stringify(ids) === JSON.stringify(expected) ? ids : undefined;
    }, 15_000);
    t.same(rows, expected, `${nodes[at].name} lists the survivors and none of ${victim}'s browsers within 15 s`);
  }
  // The survivors still serve: a call to each surviving browser through the other surviving
  // server, a new create through server 0 (placed wherever there is room), and its deletion.
  const other = survivorsAt.find((i) => i !== 0);
  for (const browser of survivors) {
    const through = browser.session_id.startsWith('cap-0.') ? other : 0;
    const executed = await kernelAt(through).browsers.playwright.execute(browser.session_id, { code: 'return 1 + 1' });
    t.equal(executed.result, 2, `${browser.session_id} answers through ${nodes[through].name}`);
  }
  const fresh = await kernel.browsers.create({}, { headers: { 'x-wait-timeout': '60' } });
  t.notOk(fresh.session_id.startsWith(`${victim}.`), `a new create is placed on a live server (${fresh.session_id.split('.')[0]})`);
  noteChromium();
  for (const browser of [...survivors, fresh]) await kernel.browsers.deleteByID(browser.session_id);
  t.same(await listAll(other), [], 'all gone');
});

t.test('at the end no Chromium process of any server is left', async (t) => {
  for (const pod of pods) if (pod.child.exitCode === null && pod.child.signalCode === null) pod.child.kill('SIGTERM');
  await Promise.all(pods.map((pod) => pod.closed));
  t.ok(chromiumSeen.size > 0, `${chromiumSeen.size} Chromium processes were seen during the test`);
  // The killed server's Chromium ends once the pipe to its parent closes: give it a moment.
  const left = await eventually(() => stillRunning().length === 0 ? [] : undefined, 15_000) ?? stillRunning();
  t.same(left.map(([pid, command]) => `${pid} ${command.slice(0, 120)}`), [], 'none still runs');
});
