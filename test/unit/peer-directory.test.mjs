// The deployment's servers as one server sees them (lib/http/peer-directory.ts,
// docs/deploy.md#one-service-from-many-servers): names owned by rendezvous hashing (every server
// computes the same owner, a peer that joins or leaves moves only the names it wins or held, the
// names spread evenly), and peers found through DNS with a fake resolver whose addresses are
// real HTTP servers on loopback answering /pressure.
import { createServer } from 'node:http';
import t from 'tap';
import { PeerDirectory } from '../../dist/lib/http/peer-directory.js';
import { Peers } from '../../dist/lib/http/peers.js';

/** A directory of `self` whose fixed peers are `others` (no DNS). */
function directory(t, self, others, options = {}) {
  const peers = new Peers({ nodeId: self, peers: Object.fromEntries(others.map((node, i) => [node, `http://127.0.0.1:${20000 + i}`])) });
  const made = new PeerDirectory({ peers, ...options });
  t.teardown(async () => {
    await made.close();
    await peers.close();
  });
  return made;
}

const NAMES = Array.from({ length: 3000 }, (_, i) => `browser-name-${i}`);
const ownersOf = (dir) => new Map(NAMES.map((name) => [name, dir.ownerOf(name)]));

t.test('every server computes the same owner, whatever its own place and the order it knows the others in', async (t) => {
  const nodes = ['pod-0', 'pod-1', 'pod-2', 'pod-3'];
  const views = nodes.map((self, i) => {
    const others = nodes.filter((node) => node !== self);
    return directory(t, self, i % 2 === 0 ? others : others.reverse());
  });
  for (const view of views) t.same(view.members(), nodes, `${view.nodeId} knows every member, sorted`);
  const reference = ownersOf(views[0]);
  for (const view of views.slice(1)) t.same(ownersOf(view), reference, `${view.nodeId} agrees with pod-0 on all ${NAMES.length} names`);
  t.equal(views[2].ownerOf('shared-name'), views[2].ownerOf('shared-name'), 'stable from call to call');
  t.equal(directory(t, 'alone', []).ownerOf('anything'), 'alone', 'a server alone owns every name');
});

t.test('the names spread evenly over the members', async (t) => {
  const nodes = ['pod-0', 'pod-1', 'pod-2', 'pod-3', 'pod-4'];
  const counts = new Map(nodes.map((node) => [node, 0]));
  for (const owner of ownersOf(directory(t, 'pod-0', nodes.slice(1))).values()) counts.set(owner, counts.get(owner) + 1);
  const fair = NAMES.length / nodes.length;
  for (const [node, count] of counts) t.ok(Math.abs(count - fair) < fair * 0.15, `${node} owns ${count} of ${NAMES.length} names (fair share ${fair}, within 15 %)`);
});

t.test('a peer that joins takes only names from others; one that leaves gives only its own', async (t) => {
  const before = ownersOf(directory(t, 'pod-0', ['pod-1', 'pod-2', 'pod-3']));
  const joined = ownersOf(directory(t, 'pod-0', ['pod-1', 'pod-2', 'pod-3', 'pod-4']));
  const moved = NAMES.filter((name) => before.get(name) !== joined.get(name));
  t.ok(moved.every((name) => joined.get(name) === 'pod-4'), 'every name that moved went to the new peer');
  t.ok(moved.length > NAMES.length / 5 * 0.8 && moved.length < NAMES.length / 5 * 1.2, `about a fifth moved (${moved.length} of ${NAMES.length})`);

  const left = ownersOf(directory(t, 'pod-0', ['pod-1', 'pod-3']));
  const lost = NAMES.filter((name) => before.get(name) !== left.get(name));
  t.ok(lost.length > 0, 'the names of pod-2 moved');
  t.ok(lost.every((name) => before.get(name) === 'pod-2'), 'only names pod-2 owned moved');
  t.ok(NAMES.filter((name) => before.get(name) === 'pod-2').every((name) => left.get(name) !== 'pod-2'), 'none stays with the gone peer');
});

/** An HTTP server on `address` answering /pressure as `node`; resolves its port. */
async function pressureServer(t, address, node, port = 0) {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization, forwardedBy: req.headers['x-browser-repl-forwarded-by'] });
    if (req.url !== '/pressure') {
      res.writeHead(404).end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ node, running: 1, starting: 0, queued: 0, max: 4, queue_max: 8, cpu: 0, memory: 0, accepting: true, draining: false }));
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, address, resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { port: server.address().port, seen };
}

t.test('DNS discovery: each address the name resolves to is asked its /pressure, which names its node', async (t) => {
  // 127.0.0.2 and 127.0.0.3 are loopback too (127.0.0.0/8), so two servers share one port as pods do.
  const first = await pressureServer(t, '127.0.0.2', 'pod-1');
  const second = await pressureServer(t, '127.0.0.3', 'pod-2', first.port);
  const asked = [];
  let answer = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
  const peers = new Peers({ nodeId: 'pod-0' });
  t.teardown(() => peers.close());
  const dir = new PeerDirectory({
    peers, dnsName: 'browser-repl.ns.svc.cluster.local', dnsPort: first.port, token: 'secret-token',
    resolve: async (name) => {
      asked.push(name);
      return answer;
    },
  });
  t.teardown(() => dir.close());
  t.same(dir.members(), ['pod-0'], 'nothing known before the first question');
  const others = await dir.others();
  t.same(asked, ['browser-repl.ns.svc.cluster.local'], 'the Service name was resolved');
  t.same(others.map(({ node, url }) => [node, url.href]), [['pod-1', `http://127.0.0.2:${first.port}/`], ['pod-2', `http://127.0.0.3:${first.port}/`]],
    'the two that answered, by the node their /pressure names; 127.0.0.4 (nothing listens) is left out');
  t.same(dir.members(), ['pod-0', 'pod-1', 'pod-2']);
  t.match(first.seen[0], { url: '/pressure', authorization: 'Bearer secret-token', forwardedBy: 'pod-0' }, 'asked with the token, marked as a peer\'s question');
  t.equal(dir.ownerOf('some-name'), directory(t, 'pod-1', ['pod-0', 'pod-2']).ownerOf('some-name'), 'owners agree with a server that knows the same members from a fixed list');

  answer = ['127.0.0.2'];
  await dir.others();
  t.equal(asked.length, 1, 'a fresh answer is reused (5 s), not asked again at once');
  t.same((await dir.pressures()).map(({ node, pressure }) => [node, pressure.max]), [['pod-1', 4], ['pod-2', 4]], 'pressures of the known peers');
  t.equal(second.seen.filter((r) => r.url === '/pressure').length, 2, 'the second peer was asked again for its pressure');
});

t.test('DNS discovery: a failing resolver leaves the fixed peers', async (t) => {
  const peers = new Peers({ nodeId: 'pod-0', peers: { 'pod-9': 'http://127.0.0.1:9' } });
  t.teardown(() => peers.close());
  const dir = new PeerDirectory({ peers, dnsName: 'nowhere.invalid', resolve: async () => { throw Object.assign(new Error('queryA ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' }); } });
  t.teardown(() => dir.close());
  t.same((await dir.others()).map(({ node }) => node), ['pod-9']);
  t.same(dir.members(), ['pod-0', 'pod-9']);
});

t.test('holderOf: the name\'s owner is asked first, then every other peer; assertNameFree refuses a held name', async (t) => {
  // Three peers on loopback, each answering GET /browsers/{name} for the names it "holds".
  const holds = { 'pod-1': new Set(), 'pod-2': new Set(), 'pod-3': new Set() };
  const asked = [];
  const urls = {};
  for (const node of Object.keys(holds)) {
    const server = createServer((req, res) => {
      const name = decodeURIComponent(req.url.replace(/^\/browsers\//, ''));
      asked.push([node, name, req.headers['x-browser-repl-forwarded-by']]);
      if (holds[node].has(name)) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ session_id: `${node}.x`, name }));
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"REPL_ERR_NOT_FOUND"}');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise((resolve) => server.close(resolve)));
    urls[node] = `http://127.0.0.1:${server.address().port}`;
  }
  const peers = new Peers({ nodeId: 'pod-0', peers: urls });
  const dir = new PeerDirectory({ peers });
  t.teardown(async () => {
    await dir.close();
    await peers.close();
  });
  const name = Array.from({ length: 100 }, (_, i) => `n-${i}`).find((n) => dir.ownerOf(n) === 'pod-1');
  holds['pod-1'].add(name);
  t.equal(await dir.holderOf(name), 'pod-1', 'held by its owner');
  t.same(asked, [['pod-1', name, 'pod-0']], 'only the owner was asked, marked as a peer\'s question');

  asked.length = 0;
  holds['pod-1'].delete(name);
  holds['pod-3'].add(name);
  t.equal(await dir.holderOf(name), 'pod-3', 'renamed onto another server: found there');
  t.same(asked.map(([node]) => node).sort(), ['pod-1', 'pod-2', 'pod-3'], 'the owner, then every other peer');
  await t.rejects(dir.assertNameFree(name), { code: 'REPL_ERR_CONFLICT', message: `a browser named "${name}" already exists (on the server pod-3)` });

  holds['pod-3'].delete(name);
  t.equal(await dir.holderOf(name), undefined, 'held nowhere');
  await dir.assertNameFree(name);
});
