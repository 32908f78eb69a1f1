// gotoUrl(url, { waitUntil }) (issue 27): by default it resolves at the commit (the hosted
// contract), so a title read right after it may still be empty; "domcontentloaded" and "load" wait
// for the new document. The page here holds its resources until the test lets them go, so each
// state is reached exactly when the test says, never by timing.
import t from 'tap';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createRepl } from '../../dist/lib/index.js';

/** A page whose script (before <title>) and image (after it) are held until released. */
async function heldPageServer(t) {
  const held = new Map();
  const arrived = new Map();
  const waiting = (name) => {
    if (!arrived.has(name)) {
      let resolve;
      arrived.set(name, { promise: new Promise((r) => { resolve = r; }), resolve });
    }
    return arrived.get(name);
  };
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://x');
    if (pathname.startsWith('/page')) {
      const script = pathname === '/page-script' ? '<script src="/held.js"></script>' : '';
      response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      response.end(`<!doctype html><html><head>${script}<title>Arrived</title></head><body><p>text</p><img src="/held.png"></body></html>`);
      return;
    }
    const name = pathname.slice(1);
    held.set(name, response);
    waiting(name).resolve();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${server.address().port}`;
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  return {
    url: (path) => `${origin}${path}`,
    /** Resolves once the browser asked for `name`. */
    requested: (name) => waiting(name).promise,
    release(name) {
      const response = held.get(name);
      arrived.delete(name);
      if (name.endsWith('.js')) response.writeHead(200, { 'content-type': 'text/javascript' }).end('window.scriptRan = true;');
      else response.writeHead(404).end();
    },
  };
}

const pages = await heldPageServer(t);
// cdpEndpoint: null, so a CDP_ENDPOINT in the developer's shell cannot turn this into attach mode.
const repl = createRepl({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => repl.close());
const textsOf = (result) => (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text);
const ok = (t, result) => t.equal(result.success, true, result.error ?? 'the cell ran');

t.test('by default gotoUrl resolves at the commit: the title is not there yet', async (t) => {
  const cell = repl.run(`await gotoUrl(${JSON.stringify(pages.url('/page-script'))}); repl.write(JSON.stringify(await pageInfo()))`);
  await pages.requested('held.js');
  const result = await cell;
  ok(t, result);
  const info = JSON.parse(textsOf(result)[0]);
  t.equal(info.title, '', 'the parser waits for the script before <title>');
  t.equal(info.ready_state, 'loading');
  pages.release('held.js');
  await pages.requested('held.png');
  pages.release('held.png');
});

t.test('waitUntil "load" waits for the new document\'s load, then the title is there', async (t) => {
  const cell = repl.run(`const nav = await gotoUrl(${JSON.stringify(pages.url('/page-script'))}, { waitUntil: "load" }); repl.write(JSON.stringify([typeof nav.frameId, (await pageInfo()).title, await js("document.readyState"), await js("window.scriptRan")]))`);
  await pages.requested('held.js');
  pages.release('held.js');
  await pages.requested('held.png');
  pages.release('held.png');
  const result = await cell;
  ok(t, result);
  t.same(JSON.parse(textsOf(result)[0]), ['string', 'Arrived', 'complete', true]);
});

t.test('waitUntil "domcontentloaded" returns while an image still holds the load', async (t) => {
  const cell = repl.run(`await gotoUrl(${JSON.stringify(pages.url('/page-image'))}, { waitUntil: "domcontentloaded" }); repl.write(JSON.stringify([(await pageInfo()).title, await js("document.readyState")]))`);
  await pages.requested('held.png');
  const result = await cell;
  ok(t, result);
  t.same(JSON.parse(textsOf(result)[0]), ['Arrived', 'interactive']);
  const loaded = repl.run('repl.write(String(await waitForLoad(30)))');
  pages.release('held.png');
  t.same(textsOf(await loaded), ['true'], 'a waitForLoad after it still waits for that document');
});

t.test('a document that does not reach the state in timeoutSec throws REPL_ERR_LOAD_TIMEOUT', async (t) => {
  const cell = repl.run(`await gotoUrl(${JSON.stringify(pages.url('/page-script'))}, { waitUntil: "load", timeoutSec: 1 })`);
  await pages.requested('held.js');
  const result = await cell;
  t.equal(result.success, false);
  t.equal(result.errorCode, 'REPL_ERR_LOAD_TIMEOUT');
  t.match(result.error, /^gotoUrl: http:\/\/127\.0\.0\.1:\d+\/page-script committed, but its document did not reach "load" within 1s/);
  pages.release('held.js');
  await pages.requested('held.png');
  pages.release('held.png');
});

t.test('bad options name the option', async (t) => {
  for (const [options, message] of [
    ['{ waitUntil: "idle" }', 'gotoUrl: waitUntil must be "commit", "domcontentloaded" or "load"'],
    ['{ timeoutSec: -1 }', 'gotoUrl: timeoutSec must be a non-negative finite number'],
    ['{ wait: "load" }', 'gotoUrl: unknown option: wait'],
  ]) {
    const result = await repl.run(`await gotoUrl("about:blank", ${options})`);
    t.equal(result.errorCode, 'REPL_ERR_INVALID_ARGUMENT', options);
    t.equal(result.error, message);
  }
});
