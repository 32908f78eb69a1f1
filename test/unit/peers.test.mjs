// Routing between servers, the pure part (lib/http/peers.ts): which ids name another server, where
// that server is, and the refusals of a malformed node id, template or peer list.
import t from 'tap';
import { Peers, peerOptionsFromEnv } from '../../dist/lib/http/peers.js';

t.test('ids name their server; only other servers\' ids are foreign', async (t) => {
  const peers = new Peers({ nodeId: 'browser-repl-0', peerUrl: 'http://{node}.browser-repl.ns.svc:10001' });
  t.equal(peers.idPrefix, 'browser-repl-0.');
  t.equal(peers.foreignNodeOf('browser-repl-2.ckx9a8b7c6'), 'browser-repl-2');
  t.equal(peers.foreignNodeOf('browser-repl-0.ckx9a8b7c6'), undefined, 'this server\'s own');
  t.equal(peers.foreignNodeOf('ckx9a8b7c6'), undefined, 'an id without a node (a server without routing)');
  t.equal(peers.foreignNodeOf('my.browser'), 'my', 'a name with a dot looks like an id of node "my" (served here when this server has it: the routing test)');
  t.equal(peers.foreignNodeOf('.hidden'), undefined);
  t.equal(peers.foreignNodeOf('Upper.case'), undefined, 'not a DNS label: not a node');
  t.equal(peers.urlOf('browser-repl-2').href, 'http://browser-repl-2.browser-repl.ns.svc:10001/');
});

t.test('a fixed peer list wins over the template; without either a node is unknown', async (t) => {
  const fixed = new Peers({ nodeId: 'a', peerUrl: 'http://{node}:1', peers: { b: 'http://127.0.0.2:7000' } });
  t.equal(fixed.urlOf('b').href, 'http://127.0.0.2:7000/');
  t.equal(fixed.urlOf('c').href, 'http://c:1/');
  const listOnly = new Peers({ nodeId: 'a', peers: { b: 'http://127.0.0.2:7000' } });
  t.equal(listOnly.urlOf('c'), undefined);
});

t.test('malformed settings are refused, naming what is wrong', async (t) => {
  t.throws(() => new Peers({ nodeId: 'Pod_0' }), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /node id must be one DNS label/ });
  t.throws(() => new Peers({ nodeId: 'a', peerUrl: 'http://peer:1' }), { message: /must contain \{node\}/ });
  t.throws(() => new Peers({ nodeId: 'a', peerUrl: 'ftp://{node}' }), { message: /peer URL template must be an http/ });
  t.throws(() => new Peers({ nodeId: 'a', peers: { b: 'not a url' } }), { message: /URL of peer b must be an http/ });
  t.throws(() => new Peers({ nodeId: 'a', peers: { 'B!': 'http://x' } }), { message: /peer's name must be one DNS label/ });
});

t.test('the environment', async (t) => {
  t.equal(peerOptionsFromEnv({}), undefined, 'no node id: no routing');
  t.same(peerOptionsFromEnv({ BROWSER_REPL_NODE_ID: 'p-1', BROWSER_REPL_PEER_URL: 'http://{node}:1', BROWSER_REPL_PEERS: ' p-0=http://a:1 , p-2=http://b:2 ' }),
    { nodeId: 'p-1', peerUrl: 'http://{node}:1', peers: { 'p-0': 'http://a:1', 'p-2': 'http://b:2' } });
  t.throws(() => peerOptionsFromEnv({ BROWSER_REPL_NODE_ID: 'p', BROWSER_REPL_PEERS: 'p-0' }), { message: /entries are name=url, got "p-0"/ });
});
