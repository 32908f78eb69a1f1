/**
 * `GET /pressure` (docs/deploy.md#pressure): how full this server is, for the machines that place
 * work: a load balancer's health check (the text form answers 503 when the server takes no
 * browser now), and the peers, which hand a create to the server with the most room.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';
import type { Request, RequestHandler } from 'express';
import type { components } from '../client/openapi-types.js';
import type { Browsers } from '../browsers/browsers.js';
import { memoryLimit } from '../../common/memory-budget.js';

export type Pressure = components['schemas']['Pressure'];

/** The pressure of one server now. `node`: its node id, "" without one. */
export function pressureOf(browsers: Browsers, node: string): Pressure {
  const running = browsers.list().length;
  return {
    node,
    running,
    starting: Math.max(0, browsers.liveBrowsers - running),
    queued: browsers.queued,
    max: browsers.maxBrowsers,
    queue_max: browsers.queueCapacity,
    cpu: round(loadavg()[0]! / Math.max(1, availableParallelism())),
    memory: round(memoryInUse()),
    accepting: browsers.hasRoom,
    draining: browsers.draining || browsers.closed,
  };
}

/** The share of the memory limit in use: the cgroup's (v2) when the process has one, else the machine's. */
function memoryInUse(): number {
  const limit = memoryLimit();
  if (limit.source === 'cgroup') {
    try {
      const current = Number(readFileSync('/sys/fs/cgroup/memory.current', 'utf8').trim());
      if (Number.isFinite(current) && limit.bytes > 0) return Math.min(1, current / limit.bytes);
    } catch {
      // cgroup v1, or no such file: the machine's figures below.
    }
  }
  const total = totalmem();
  return total > 0 ? 1 - freemem() / total : 0;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Whether the request asks for the one-line text form (`?format=text`, or text/plain preferred to JSON). */
function wantsText(req: Request): boolean {
  const format = req.query['format'];
  if (format === 'text') return true;
  if (format === 'json') return false;
  return req.accepts(['application/json', 'text/plain']) === 'text/plain' && !/application\/json/.test(req.headers.accept ?? '');
}

/** The route: JSON (always 200), or the text form (503 when the server takes no browser now). */
export function pressureRoute(browsers: Browsers, node: string): RequestHandler {
  return (req, res) => {
    const pressure = pressureOf(browsers, node);
    if (!wantsText(req)) {
      res.json(pressure);
      return;
    }
    const state = pressure.draining ? 'draining' : pressure.accepting ? 'ok' : 'full';
    res.status(state === 'ok' ? 200 : 503).type('text/plain')
      .send(`${state} running=${pressure.running} queued=${pressure.queued} max=${pressure.max} cpu=${pressure.cpu} memory=${pressure.memory}\n`);
  };
}
