/**
 * Routers that only see the paths they serve. Express walks every layer of every router in order,
 * testing each route's pattern against the path: a `POST /repl` used to be tested against some
 * sixty patterns of the Kernel-compatible routers (profiles, pools, proxies, extensions, …) before
 * it reached its own, about a tenth of the time the server spends on a trivial cell outside it
 * (issue 26, docs/architecture.md "The fixed cost of a cell"). A gate looks at the path's first
 * segments once and hands the request to the router only when one of its routes can match.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The first three segments of a path (`/browsers/b1/replays/r1` → `browsers`, `b1`, `replays`),
 * and how many segments it has in all. A trailing slash adds no segment, as Express's non-strict
 * routing ignores it.
 */
export interface PathShape {
  readonly first: string;
  readonly second: string;
  readonly third: string;
  readonly count: number;
}

export function pathShape(path: string): PathShape {
  // Express matches case-insensitively and, without strict routing, ignores one trailing slash.
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.toLowerCase().split('/');
  return { first: segments[1] ?? '', second: segments[2] ?? '', third: segments[3] ?? '', count: segments.length - 1 };
}

/** A request's shape, read once for all the gates it passes (its path, rewritten by a mount, is compared). */
const shapes = new WeakMap<Request, { path: string; shape: PathShape }>();

function shapeOf(req: Request): PathShape {
  const { path } = req;
  const known = shapes.get(req);
  if (known?.path === path) return known.shape;
  const shape = pathShape(path);
  shapes.set(req, { path, shape });
  return shape;
}

/**
 * `router` for the requests whose path `serves` accepts; every other request goes straight to the
 * next layer. `serves` must accept every path one of the router's routes or middleware handles
 * (test/unit/route-gate.test.mjs checks that for each gated router).
 */
export function gated(serves: (shape: PathShape) => boolean, router: RequestHandler): GatedRouter {
  const gate = function gate(req: Request, res: Response, next: NextFunction): void {
    if (serves(shapeOf(req))) router(req, res, next);
    else next();
  };
  return Object.assign(gate, { gatedRouter: router, serves });
}

/** A gate, with what it guards: for tests and diagnostics. */
export type GatedRouter = RequestHandler & {
  readonly gatedRouter: RequestHandler;
  readonly serves: (shape: PathShape) => boolean;
};
