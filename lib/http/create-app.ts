/**
 * The Express application, without listening: tests and embedders mount or `listen()` it.
 * The routes of one browser are mounted twice: at `/` for the default browser, and below
 * `/browsers/:id_or_name` for every browser (sessions of `POST /browsers`, and `default`).
 * WebSocket upgrades (`cdp_ws_url`) go to `app.handleUpgrade`. `/mcp` serves the MCP server
 * (lib/mcp) over streamable HTTP, once, at the top level: its code tools take a `browser` argument.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { Router } from 'express';
import type { Express } from 'express';
import { BrowserManager } from '../browser/browser-manager.js';
import { resolveViewport } from '../browser/viewport.js';
import { BrowserSessions, DEFAULT_BROWSER_ID } from '../host/browser-sessions.js';
import { CdpProxy } from './cdp-proxy.js';
import { browsersRoutes, resolveBrowser } from './routes/browsers-routes.js';
import { HostRegistry } from '../host/host-registry.js';
import type { BrowserHostOptions } from '../host/browser-host.js';
import type { Viewport } from '../browser/viewport.js';
import { accessGuard, accessPolicy, bearerAuth, errorHandler, hostFromLocals, notFound } from './middleware.js';
import type { HostOf } from './middleware.js';
import { replRoutes } from './routes/repl-routes.js';
import { playwrightRoutes } from './routes/playwright-routes.js';
import { processRoutes } from './routes/process-routes.js';
import { fsRoutes } from './routes/fs-routes.js';
import { webmcpRoutes } from './routes/webmcp-routes.js';
import { mcpRoutes } from './routes/mcp-routes.js';
import { McpHttpSessions } from '../mcp/http-sessions.js';
import { capabilitiesFromEnv, readCapabilities } from '../mcp/capabilities.js';
import type { McpCapability } from '../mcp/capabilities.js';
import { BrowserTools } from '../tools/tool-service.js';
import { ServerMetrics } from './metrics.js';
import { Peers, peerOptionsFromEnv } from './peers.js';
import { InFlightRequests } from './in-flight.js';
import { waitAtMost } from '../../common/wait.js';
import type { PeerOptions } from './peers.js';
import type { BrowserToolsOptions } from '../tools/types.js';

export interface AppOptions {
  /** Hosts to serve; a registry with one `default` host is created when omitted. */
  registry?: HostRegistry;
  /** Options of the default host when the app creates the registry. */
  defaultHost?: BrowserHostOptions;
  /** When set, every route requires `Authorization: Bearer <token>` (default `BROWSER_REPL_TOKEN`). */
  token?: string | undefined;
  /**
   * Host names the server answers to besides the loopback ones (DNS-rebinding protection,
   * docs/security.md): `name`, `name:port`, `*.domain`, `[v6]`. Without a token the Host check
   * always applies; with one, only when this is given. Default `BROWSER_REPL_ALLOWED_HOSTS`
   * (comma separated), else none.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Web origins whose pages may call the server (`https://app.example`); they get CORS headers.
   * Requests from any other page (an `Origin` of another origin, `Sec-Fetch-Site: cross-site`)
   * are refused. Default `BROWSER_REPL_ALLOWED_ORIGINS` (comma separated), else none.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Default viewport of the default host's tabs (`BrowserHostOptions.viewport`; it wins over
   * `defaultHost.viewport`). Default `BROWSER_REPL_VIEWPORT`, else 1280×720. Ignored with `registry`.
   */
  viewport?: Viewport | undefined;
  /** Launched, unused browsers kept ready for `POST /browsers` (`--browser-pool`). Default 0. */
  browserPool?: number | undefined;
  /**
   * Most browsers `POST /browsers` may run at once, pool included, the default browser not counted
   * (`--max-browsers`, `BROWSER_REPL_MAX_BROWSERS`). Default: total memory / 512 MiB, minus one.
   */
  maxBrowsers?: number | undefined;
  /**
   * Options of the agent browser tools behind `/mcp` (docs/mcp.md); they run on the default
   * browser. Default: `permission: "ask"` (approval through the MCP client's elicitation).
   */
  tools?: BrowserToolsOptions | undefined;
  /**
   * Capabilities of `/mcp` beyond the page tools (docs/mcp.md): `code` lists `browser_repl` and
   * `execute_playwright_code`, which run code with the server's rights (docs/security.md).
   * Default `BROWSER_REPL_MCP_CAPS` (comma separated), else none.
   */
  mcpCaps?: readonly McpCapability[] | undefined;
  /**
   * Serve `GET /metrics` without the token (for a scraper that cannot send one). Default
   * `BROWSER_REPL_METRICS_PUBLIC` (`1` or `true`), else false: the metrics sit behind the token.
   */
  metricsPublic?: boolean | undefined;
  /**
   * Routing between servers (pods, docs/deploy.md#routing-between-pods): this server's node id,
   * which its browsers' ids then start with, and where its peers are; a request for a browser of
   * another server is forwarded there. Default from `BROWSER_REPL_NODE_ID`, `BROWSER_REPL_PEER_URL`
   * and `BROWSER_REPL_PEERS`; `false`: no routing, whatever the environment says.
   */
  peers?: PeerOptions | false | undefined;
}

/** What `GET /readyz` says: `ready` takes new browsers; `draining` and `full` answer 503. */
export type Readiness = 'ready' | 'draining' | 'full';

export interface BrowserReplApp extends Express {
  /** The registry behind the top-level routes (the default browser); close it to end every REPL. */
  readonly registry: HostRegistry;
  /** The browsers of `POST /browsers`. */
  readonly browsers: BrowserSessions;
  /** The agent browser tools of `/mcp`: one tool session per MCP session. */
  readonly tools: BrowserTools;
  /** The MCP sessions of `/mcp`. */
  readonly mcp: McpHttpSessions;
  /**
   * Serves the WebSocket routes (`cdp_ws_url`): hand it the HTTP server's `upgrade` events
   * (`startServer` does). An upgrade to any other path is refused with a JSON 404.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Prometheus metrics of this server (`GET /metrics`). */
  readonly metrics: ServerMetrics;
  /** Whether it takes new browsers now (`GET /readyz`). */
  readiness(): Readiness;
  /**
   * Graceful shutdown, first step: takes no new browsers (`POST /browsers` answers 503
   * `REPL_ERR_DRAINING`, `/readyz` 503), then resolves once no API request is in flight (running
   * cells have answered), or when `timeoutMs` has passed or `signal` fired, whichever comes
   * first. It ends nothing: `destroy()` (or the server's `close()`) does, after it.
   */
  drain(options?: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined }): Promise<void>;
  /** Ends every browser, REPL and proxied connection now (running cells are cancelled). Idempotent. */
  destroy(): Promise<void>;
}


/** The routes of one browser, mounted at `/` for the default one and below `/browsers/{id_or_name}`. */
function browserRoutes(hostOf: HostOf): Router[] {
  return [replRoutes(hostOf), playwrightRoutes(hostOf), webmcpRoutes(hostOf), processRoutes(hostOf), fsRoutes(hostOf)];
}

export function createApp(options: AppOptions = {}): BrowserReplApp {
  const token = 'token' in options ? options.token : process.env['BROWSER_REPL_TOKEN'];
  // Built first: a malformed allowedHosts or allowedOrigins entry throws before anything starts.
  const access = accessPolicy({ token, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins });
  const registry = options.registry ?? new HostRegistry();
  if (registry.size === 0) {
    const host = options.defaultHost ?? {};
    registry.add(options.viewport === undefined ? host : { ...host, viewport: options.viewport });
  }
  const defaultHost = registry.get('default');
  const defaultBrowser = options.defaultHost?.browser;
  const launchOptions = defaultBrowser === undefined || defaultBrowser === false || defaultBrowser instanceof BrowserManager ? undefined : defaultBrowser;
  const { id: _id, browser: _browser, viewport: _viewport, ...hostDefaults } = options.defaultHost ?? {};
  const viewport = options.viewport ?? options.defaultHost?.viewport;
  // Built before anything starts: a malformed node id or peer URL throws here.
  const peerOptions = options.peers === false ? undefined : options.peers ?? peerOptionsFromEnv();
  const peers = peerOptions === undefined ? undefined : new Peers(peerOptions, (idOrName) => {
    try {
      browsers.get(idOrName);
      return true;
    } catch {
      return false;
    }
  });
  const browsers = new BrowserSessions({
    idPrefix: peers?.idPrefix,
    hostDefaults,
    browser: launchOptions,
    viewport,
    pool: options.browserPool,
    maxBrowsers: options.maxBrowsers,
  });
  const proxy = new CdpProxy({
    token,
    access,
    resolve: (idOrName) => {
      if (idOrName === DEFAULT_BROWSER_ID) return { id: DEFAULT_BROWSER_ID, host: defaultHost, hold: () => () => undefined };
      const session = browsers.get(idOrName);
      return { id: session.id, host: session.host, hold: () => session.hold() };
    },
  });
  const tools = new BrowserTools({ ...options.tools, host: defaultHost });
  const mcp = new McpHttpSessions({
    tools,
    caps: options.mcpCaps === undefined ? capabilitiesFromEnv() : readCapabilities(options.mcpCaps, 'mcpCaps'),
  });
  const metrics = new ServerMetrics({ sessions: browsers, defaultHost, mcp });
  const metricsPublic = options.metricsPublic ?? /^(1|true)$/i.test(process.env['BROWSER_REPL_METRICS_PUBLIC'] ?? '');
  let destroying: Promise<void> | undefined;
  const inFlight = new InFlightRequests();
  const readiness = (): Readiness => {
    if (browsers.draining || browsers.closed) return 'draining';
    return browsers.list().length >= browsers.maxBrowsers ? 'full' : 'ready';
  };

  const app = express() as unknown as BrowserReplApp;
  Object.defineProperties(app, {
    registry: { value: registry, enumerable: true },
    browsers: { value: browsers, enumerable: true },
    tools: { value: tools, enumerable: true },
    mcp: { value: mcp, enumerable: true },
    handleUpgrade: {
      value: (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (peers?.forwardUpgrade(request, socket, head) === true) return;
        void proxy.handleUpgrade(request, socket, head);
      },
    },
    metrics: { value: metrics, enumerable: true },
    readiness: { value: readiness },
    drain: {
      value: async (drainOptions: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {}) => {
        browsers.drain();
        await waitAtMost(inFlight.idle(), drainOptions.timeoutMs, drainOptions.signal);
      },
    },
    destroy: {
      value: () => {
        destroying ??= (async () => {
          metrics.close();
          // The tools' pages live in the default browser: they close before the browsers end.
          const toolsClosed = mcp.close().then(() => tools.close());
          await Promise.allSettled([proxy.close(), toolsClosed]);
          await Promise.all([browsers.destroy(), registry.destroy(), peers?.close()]);
          await toolsClosed;
        })();
        return destroying;
      },
    },
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  // Counted first, so that refusals (403, 401) count too.
  app.use(metrics.countRequests());
  // Order matters: Host (DNS rebinding), then Origin (cross-site pages, CORS preflights), then
  // the token, so that no refusal tells a page anything about the token.
  app.use(accessGuard(access));
  app.use((_req, res, next) => {
    // No answer of this API is a page to render: a file of /fs/read_file must never become one.
    res.setHeader('x-content-type-options', 'nosniff');
    next();
  });
  // Probes answer without the token: a Kubernetes httpGet probe cannot send a secret, and they
  // say nothing an attacker can use (docs/security.md). The Host and Origin checks still apply.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    const status = readiness();
    res.status(status === 'ready' ? 200 : 503).json({ status });
  });
  const serveMetrics: express.RequestHandler = (_req, res, next) => {
    metrics.text().then((text) => {
      res.setHeader('content-type', metrics.contentType);
      res.end(text);
    }, next);
  };
  if (metricsPublic) app.get('/metrics', serveMetrics);
  if (token !== undefined && token !== '') app.use(bearerAuth(token));
  if (!metricsPublic) app.get('/metrics', serveMetrics);
  app.use(inFlight.middleware());
  // Before any route reads a body: a forwarded request's body streams on as it arrives.
  if (peers !== undefined) app.use(peers.forwardHttp());
  app.use(mcpRoutes({ sessions: mcp, token, access }));
  // The top-level routes drive the default browser.
  app.use(...browserRoutes(() => defaultHost));
  app.use(browsersRoutes({
    sessions: browsers,
    defaultHost,
    defaultInfo: {
      headless: launchOptions?.headless ?? true,
      viewport: defaultHost.browser?.viewport ?? resolveViewport(viewport, process.env),
      createdAt: new Date(),
    },
    token,
  }));
  // Every per-browser route again below /browsers/{id_or_name}/ (mergeParams: the id is the mount's).
  const perBrowser = Router({ mergeParams: true });
  perBrowser.use(resolveBrowser(browsers, defaultHost), ...browserRoutes(hostFromLocals));
  app.use('/browsers/:id_or_name', perBrowser);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
