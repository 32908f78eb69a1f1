// Gated routers (lib/http/route-gate.ts, docs/architecture.md "The fixed cost of a cell"): a gate
// hands a request to its router only when one of the router's routes can match, so every route
// of every gated router must pass its gate, in every form Express matches it in.
import t from 'tap';
import { createApp } from '../../dist/lib/index.js';
import { pathShape } from '../../dist/lib/http/route-gate.js';

t.test('pathShape reads the first three segments as Express matches them', async (t) => {
  t.same(pathShape('/'), { first: '', second: '', third: '', count: 1 });
  t.same(pathShape('/repl'), { first: 'repl', second: '', third: '', count: 1 });
  t.same(pathShape('/browsers/b1/replays/r1/view'), { first: 'browsers', second: 'b1', third: 'replays', count: 5 });
  // Non-strict routing ignores one trailing slash; routing is case-insensitive.
  t.same(pathShape('/Browsers/B1/'), { first: 'browsers', second: 'b1', third: '', count: 2 });
  t.same(pathShape('/browsers//x'), { first: 'browsers', second: '', third: 'x', count: 3 });
});

/** The gates of the app's top-level stack, each with the route paths of the router it guards. */
function gatesOf(app) {
  const gates = [];
  for (const layer of app.router.stack) {
    const gate = layer.handle;
    if (typeof gate?.serves !== 'function') continue;
    const paths = [];
    for (const inner of gate.gatedRouter.stack) if (inner.route) paths.push(inner.route.path);
    gates.push({ serves: gate.serves, paths });
  }
  return gates;
}

/** Concrete paths a route pattern matches: its parameters filled, with a trailing slash, in capitals. */
function concretePaths(pattern) {
  const filled = pattern.replace(/:(\w+)/g, 'x1');
  return [filled, `${filled}/`, filled.toUpperCase()];
}

t.test('every route of every gated router passes its gate', async (t) => {
  const app = createApp({ token: undefined });
  t.teardown(() => app.destroy());
  const gates = gatesOf(app);
  // The Kernel-compatible routers, MCP and the live-view and replay pages.
  t.ok(gates.length >= 9, `${gates.length} gated routers`);
  for (const { serves, paths } of gates) {
    t.ok(paths.length > 0, 'a gated router has routes');
    for (const pattern of paths) for (const path of concretePaths(pattern)) t.ok(serves(pathShape(path)), `${path} passes the gate of ${pattern}`);
  }
});

t.test('the REPL routes pass no gate: a cell skips every gated router', async (t) => {
  const app = createApp({ token: undefined });
  t.teardown(() => app.destroy());
  const gates = gatesOf(app);
  for (const path of ['/repl', '/repl/results/c1', '/browsers/b1/repl', '/browsers/b1/playwright/execute', '/healthz']) {
    t.notOk(gates.some(({ serves }) => serves(pathShape(path))), `${path} reaches no gated router`);
  }
});
