// Every browser-scoped method of @onkernel/sdk (docs/api.md: "the Kernel SDK works unchanged")
// asks for a route that openapi.json serves, and every served one is exercised through the SDK by a
// test of the socket or browser tier. The SDK is called with a recording fetch (no server): what
// it asks for is compared with openapi.json's operations, so a new SDK method, or a route renamed
// on one side, fails here before a user meets the 404.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import Kernel from '@onkernel/sdk';

const root = new URL('../../', import.meta.url);
const openapi = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8'));

/** Methods the SDK has that this server does not serve yet, each with the issue that brings it. */
const NOT_SERVED = new Map([
]);

/** openapi.json's operations as [method, regex of the path]. */
const operations = Object.entries(openapi.paths).flatMap(([path, item]) => Object.keys(item)
  .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
  .map((method) => [method.toUpperCase(), new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`), path]));
const served = (method, pathname) => operations.find(([m, pattern]) => m === method && pattern.test(pathname));

/** The SDK's resources below client.browsers, as [dotted name, object, method name]. */
function methodsOf(resource, prefix, out = []) {
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(resource))) {
    if (name !== 'constructor' && typeof resource[name] === 'function') out.push([`${prefix}.${name}`, resource, name]);
  }
  for (const [key, value] of Object.entries(resource)) {
    if (key !== '_client' && value !== null && typeof value === 'object' && '_client' in value) methodsOf(value, `${prefix}.${key}`, out);
  }
  return out;
}

const requests = [];
const BROWSER = { session_id: 'b1', base_url: 'http://sdk.test/browsers/b1', cdp_ws_url: 'ws://sdk.test/browsers/b1/cdp?jwt=cap' };
const client = new Kernel({
  apiKey: 'key', baseURL: 'http://sdk.test', maxRetries: 0,
  fetch: async (url, init) => {
    // The SDK probes its fetch once with a `data:,` URL before its first multipart body: not a request.
    if (new URL(url).protocol === 'data:') return new Response('');
    requests.push([init?.method ?? 'GET', new URL(url).pathname]);
    // A browser object, so the SDK's route cache knows b1's base_url (browsers.fetch needs it).
    return new Response(JSON.stringify(BROWSER), { status: 200, headers: { 'content-type': 'application/json' } });
  },
});
await client.browsers.retrieve('b1');

/** Arguments a method takes: an id, then its params (ids of the parent in `id`). */
const argumentsOf = (name) => name === 'browsers.fs.writeFile' ? ['b1', 'text', { path: '/tmp/x' }]
  : name === 'browsers.fetch' ? ['b1', 'http://127.0.0.1/']
    : ['r1', { id: 'b1' }];

const methods = methodsOf(client.browsers, 'browsers');
const asked = new Map();
for (const [name, resource, method] of methods) {
  requests.length = 0;
  const answer = resource[method](...argumentsOf(name));
  // Streams answer with an async iterable; the request has gone out once the promise settles.
  await Promise.resolve(answer).then(() => undefined, () => undefined);
  asked.set(name, [...requests]);
}

t.ok(methods.length >= 50, `the SDK's browser-scoped methods were found (${methods.length})`);

t.test('every browser-scoped SDK method asks for a route openapi.json serves', async (t) => {
  for (const [name, calls] of asked) {
    if (NOT_SERVED.has(name)) {
      t.ok(calls.every(([method, path]) => !served(method, path)), `${name}: not served yet (${NOT_SERVED.get(name)}); take it out of NOT_SERVED once it is`);
      continue;
    }
    t.ok(calls.length > 0, `${name} sends a request`);
    for (const [method, path] of calls) t.ok(served(method, path), `${name}: ${method} ${path} is an operation of openapi.json`);
  }
});

t.test('every served SDK method is called by a socket- or browser-tier test', async (t) => {
  const sources = ['test/socket', 'test/browser'].flatMap((folder) => readdirSync(new URL(folder, root))
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(new URL(`${folder}/${file}`, root), 'utf8'))).join('\n');
  for (const [name] of asked) {
    if (NOT_SERVED.has(name)) continue;
    // `kernel.browsers.process.spawn(` or `client.browsers.fs.watch.start(`: the last two parts.
    const call = name.split('.').slice(-2).join('.');
    t.ok(new RegExp(`\\b${call.replace('.', '\\.')}\\(`).test(sources), `${name} is called by a test (${call}(…))`);
  }
});
