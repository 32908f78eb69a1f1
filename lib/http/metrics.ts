/**
 * `GET /metrics`: Prometheus text format through prom-client (docs/metrics.md).
 *
 * Gauges are read from the server's registries when scraped, so they cannot drift from the truth.
 * Counters and histograms follow the named `diagnostics_channel`s of common/diagnostics.ts, which
 * the REPLs, executors, worker handles and browser managers publish on: those modules know nothing
 * of metrics. The channels are process-wide, so the counters count every server in the process:
 * one server per process is the deployment (a pod, a container), and a test reads differences.
 * Process metrics (`process_*`, `nodejs_*`) come from one registry per process, because
 * prom-client's collectors start observers that nothing stops.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { channels } from '../../common/diagnostics.js';
import type {
  CellFinishMessage, ChromiumExitMessage, ChromiumLaunchMessage, ExecuteFinishMessage, WorkerExitMessage,
} from '../../common/diagnostics.js';
import type { Browsers } from '../browsers/browsers.js';
import type { McpHttpSessions } from '../mcp/http-sessions.js';
import { appBasePath } from './public-url.js';
import { FORWARDED_LOCAL } from './peers.js';
import { openapiDocument } from './schema-validator.js';

/** Seconds: from a helper call of a few milliseconds to the 300 s `timeout_sec` limit. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export interface MetricsSources {
  /** The registry of the server's browsers: its own and those of `POST /browsers`. */
  browsers: Browsers;
  /** The MCP sessions of `/mcp`. */
  mcp: McpHttpSessions;
}

let processRegistry: Registry | undefined;

/** `process_*` and `nodejs_*`, collected once per process. */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** How a cell ended, as the `outcome` label says it. */
function cellOutcome(message: CellFinishMessage): 'ok' | 'error' | 'timeout' | 'terminated' {
  if (message.success) return 'ok';
  if (message.errorCode === 'REPL_ERR_CELL_TIMEOUT') return 'timeout';
  return message.replTerminated ? 'terminated' : 'error';
}

/** The metrics of one server. `close()` stops following the channels. */
export class ServerMetrics {
  readonly #registry = new Registry();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #httpRequests: Counter<'method' | 'route' | 'status'>;

  constructor(sources: MetricsSources) {
    const registers = [this.#registry];
    const { browsers } = sources;
    new Gauge({
      name: 'browser_repl_browsers',
      help: 'Browsers of POST /browsers alive now (the warm pool and the default browser not counted): the autoscaling metric.',
      registers,
      collect() {
        this.set(browsers.list().length);
      },
    });
    new Gauge({
      name: 'browser_repl_browsers_pooled',
      help: 'Launched, unused browsers of the warm pool.',
      registers,
      collect() {
        this.set(browsers.pooled);
      },
    });
    new Gauge({
      name: 'browser_repl_browsers_limit',
      help: 'Most browsers POST /browsers may run at once, pool included (--max-browsers, else derived from the memory limit).',
      registers,
      collect() {
        this.set(browsers.maxBrowsers);
      },
    });
    new Gauge({
      name: 'browser_repl_creates_queued',
      help: 'POST /browsers waiting for room now (--create-wait-seconds): demand the server cannot yet meet. Autoscale on browser_repl_browsers + this.',
      registers,
      collect() {
        this.set(browsers.queued);
      },
    });
    new Gauge({
      name: 'browser_repl_create_queue_limit',
      help: 'Most POST /browsers that may wait for room at once (--create-queue); 0: a full server refuses at once.',
      registers,
      collect() {
        this.set(browsers.queueCapacity);
      },
    });
    new Gauge({
      name: 'browser_repl_repls',
      help: 'REPLs alive now, in every browser: named ones, default ones and agent-tool sessions\'.',
      registers,
      collect() {
        this.set(browsers.all().reduce((sum, browser) => sum + browser.counts().repls, 0));
      },
    });
    new Gauge({
      name: 'browser_repl_executors',
      help: 'Playwright executors alive now, in every browser: named ones, and default ones while they have a worker.',
      registers,
      collect() {
        this.set(browsers.all().reduce((sum, browser) => sum + browser.counts().executors, 0));
      },
    });
    new Gauge({
      name: 'browser_repl_mcp_sessions',
      help: 'MCP sessions of /mcp alive now.',
      registers,
      collect() {
        this.set(sources.mcp.size);
      },
    });

    const durationByOutcome = (name: string, help: string): Histogram<'outcome'> =>
      new Histogram({ name, help, labelNames: ['outcome'] as const, buckets: DURATION_BUCKETS, registers });
    const cells = durationByOutcome(
      'browser_repl_cell_duration_seconds',
      'Cells of POST /repl (and the MCP code tools), from their turn in the REPL\'s queue to their answer, by outcome: ok, error, timeout, terminated (the worker died: crash, memory cap).',
    );
    const executes = durationByOutcome(
      'browser_repl_execute_duration_seconds',
      'Calls of POST /playwright/execute, from their turn in the executor\'s queue to their answer, by outcome: ok, error, timeout, blocked (no answer; worker terminated), crashed.',
    );
    const timeouts = new Counter({
      name: 'browser_repl_timeouts_total',
      help: 'Cells (kind="cell") and executor calls (kind="execute") that ran past their timeout_sec.',
      labelNames: ['kind'] as const,
      registers,
    });
    const timedOutCells = new Counter({
      name: 'browser_repl_cell_timeouts_total',
      help: 'Cells that ran past their timeout_sec, by what became of their REPL: kept (the cell was interrupted, bindings and repl_id kept) or terminated (no check reached it in time; the worker was ended).',
      labelNames: ['repl'] as const,
      registers,
    });
    const restarts = new Counter({
      name: 'browser_repl_worker_restarts_total',
      help: 'Worker threads lost to a fault (cause: out-of-memory, uncaught, exit-code, protocol); the next call starts a fresh one. Timeouts are in browser_repl_timeouts_total.',
      labelNames: ['kind', 'cause'] as const,
      registers,
    });
    const oomKills = new Counter({
      name: 'browser_repl_oom_kills_total',
      help: 'Worker threads ended at a memory cap (limit: heap, external-memory).',
      labelNames: ['kind', 'limit'] as const,
      registers,
    });
    const chromiumRestarts = new Counter({
      name: 'browser_repl_chromium_restarts_total',
      help: 'Chromium relaunches by a browser manager after its browser exited.',
      registers,
    });
    const chromiumCrashes = new Counter({
      name: 'browser_repl_chromium_crashes_total',
      help: 'Chromium processes of this server that exited without being closed.',
      registers,
    });
    this.#httpRequests = new Counter({
      name: 'browser_repl_http_requests_total',
      help: 'HTTP requests answered, by method, route (the route\'s pattern; "unmatched" for a 404 without one) and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    });
    // Series that exist from the first scrape, at 0, so that rate() sees their first increase.
    for (const kind of ['cell', 'execute']) timeouts.inc({ kind }, 0);
    for (const repl of ['kept', 'terminated']) timedOutCells.inc({ repl }, 0);
    chromiumRestarts.inc(0);
    chromiumCrashes.inc(0);

    this.#follow<CellFinishMessage>(channels.cellFinish, (message) => {
      const outcome = cellOutcome(message);
      cells.observe({ outcome }, message.durationMs / 1000);
      if (outcome === 'timeout') {
        timeouts.inc({ kind: 'cell' });
        timedOutCells.inc({ repl: message.interrupted ? 'kept' : 'terminated' });
      }
    });
    this.#follow<ExecuteFinishMessage>(channels.executeFinish, (message) => {
      executes.observe({ outcome: message.outcome }, message.durationMs / 1000);
      if (message.outcome === 'timeout' || message.outcome === 'blocked') timeouts.inc({ kind: 'execute' });
    });
    this.#follow<WorkerExitMessage>(channels.workerExit, (message) => {
      if (message.violation) restarts.inc({ kind: message.kind, cause: 'protocol' });
      else if (message.cause !== 'destroyed') restarts.inc({ kind: message.kind, cause: message.cause });
      if (message.cause === 'out-of-memory') oomKills.inc({ kind: message.kind, limit: message.limit ?? 'heap' });
    });
    this.#follow<ChromiumLaunchMessage>(channels.chromiumLaunch, (message) => {
      if (message.relaunch) chromiumRestarts.inc();
    });
    this.#follow<ChromiumExitMessage>(channels.chromiumExit, (message) => {
      if (!message.expected) chromiumCrashes.inc();
    });
  }

  /** Counts every answered request; mount it first, so that refusals (401, 403, 404) count too. */
  countRequests(): RequestHandler {
    return (req, res, next) => {
      res.once('finish', () => {
        this.#httpRequests.inc({ method: req.method, route: routeOf(req, res), status: String(res.statusCode) });
      });
      next();
    };
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  /** The exposition: this server's metrics and the process's. */
  async text(): Promise<string> {
    return Registry.merge([this.#registry, processMetrics()]).metrics();
  }

  /** Stops following the channels. Idempotent. */
  close(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  #follow<T>(channel: diagnosticsChannel.Channel, onMessage: (message: T) => void): void {
    // A subscriber's throw would become an uncaught exception (common/diagnostics.ts): never let one out.
    const subscriber = (message: unknown): void => {
      try {
        onMessage(message as T);
      } catch {
        // A metric that cannot take a value (a label it does not know) is not worth a crash.
      }
    };
    channel.subscribe(subscriber);
    this.#unsubscribe.push(() => channel.unsubscribe(subscriber));
  }
}

/**
 * The route's pattern, so that ids do not explode the label set: `/repl`, and `/browsers/{id_or_name}/repl` for
 * the same routes of another browser; `unmatched` when no route took the request.
 */
function routeOf(req: Request, res: Response): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  // A request a peer answered matched no route here: its pattern is the documented path it fits.
  if (typeof route !== 'string') return res.locals[FORWARDED_LOCAL] === true ? documentedRoute(req.path) ?? 'forwarded' : 'unmatched';
  // The app's own base: a parent's mount path (`/browser`) is no part of the route.
  const base = appBasePath(req, res);
  const prefix = base.startsWith('/browsers/') ? '/browsers/{id_or_name}' : base;
  const key = `${prefix}\n${route}`;
  let label = routeLabels.get(key);
  if (label === undefined) {
    label = `${prefix}${route}`.replace(/:([A-Za-z_]+)/g, '{$1}');
    // Bounded by the app's routes and mount points (a handful of prefixes).
    if (routeLabels.size < 1_000) routeLabels.set(key, label);
  }
  return label;
}

/** Route labels by prefix and Express pattern: every request asks again (issue 26's fixed cost). */
const routeLabels = new Map<string, string>();

/** The path templates of openapi.json, as patterns, literal ones before those with more parameters. */
let templates: Array<{ template: string; pattern: RegExp; params: number }> | undefined;

/** The openapi.json path template `path` fits (`/browsers/{id_or_name}/repl`), or undefined. */
export function documentedRoute(path: string): string | undefined {
  templates ??= Object.keys((openapiDocument['paths'] ?? {}) as Record<string, unknown>).map((template) => ({
    template,
    pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}/?$`),
    params: (template.match(/\{/g) ?? []).length,
  })).sort((a, b) => a.params - b.params);
  return templates.find(({ pattern }) => pattern.test(path))?.template;
}
