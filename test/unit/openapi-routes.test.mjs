// House style point 7: every Express route is in openapi.json and every documented path is served.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createApp } from '../../dist/lib/index.js';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function routesOf(app) {
  const found = [];
  // A router mounted at a path (`/browsers/:id_or_name`) prefixes the routes inside it; a mount
  // path with an optional part (`{/browsers/:id_or_name}`) serves them with and without it.
  const visit = (stack, prefix) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) found.push(`${method.toUpperCase()} ${prefix}${layer.route.path}`);
      } else if ((layer.handle?.gatedRouter ?? layer.handle)?.stack) {
        // A gated router (lib/http/route-gate.ts) serves its routes as an ungated one would.
        const router = layer.handle.gatedRouter ?? layer.handle;
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        const optional = /^\{(.*)\}$/.exec(mount);
        for (const path of optional === null ? [mount] : ['', optional[1]]) visit(router.stack, `${prefix}${path}`);
      }
    }
  };
  visit(app.router.stack, '');
  return found.sort();
}

t.test('openapi.json and the Express routes agree', async (t) => {
  const app = createApp({ token: undefined });
  t.teardown(() => app.destroy());
  const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  // WebSocket routes (x-websocket) are served by the upgrade handler, not by Express.
  const documented = Object.entries(openapi.paths)
    .flatMap(([path, ops]) => Object.keys(ops).filter((method) => HTTP_METHODS.has(method) && !ops[method]['x-websocket']).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`))
    .sort();
  t.same(routesOf(app), documented);
});

t.test('openapi.json is valid OpenAPI 3.1 in the parts we rely on', async (t) => {
  const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  t.equal(openapi.openapi, '3.1.0');
  const refs = JSON.stringify(openapi).match(/"#\/components\/[^"]+"/g) ?? [];
  for (const ref of new Set(refs)) {
    const path = JSON.parse(ref).slice(2).split('/');
    let node = openapi;
    for (const part of path) node = node?.[part];
    t.ok(node, `${ref} resolves`);
  }
});
