/**
 * The Express application, without listening: tests and embedders mount or `listen()` it.
 * One registry of browsers (lib/browsers) serves every route. The router of one browser is
 * mounted once, at `{/browsers/:id_or_name}` (the part in braces is optional): a resolver finds
 * the browser the path names, or the registry's own at the top level.
 * WebSocket upgrades (`cdp_ws_url`) go to `app.handleUpgrade`. `/mcp` serves the MCP server
 * (lib/mcp) over streamable HTTP, once, at the top level: its code tools take a `browser` argument.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { Router } from 'express';
import type { Express } from 'express';
import { Browsers } from '../browsers/browsers.js';
import { CdpProxy } from './cdp-proxy.js';
import { browsersRoutes, resolveBrowser } from './routes/browsers-routes.js';
import { Browser } from '../browsers/browser.js';
import type { BrowserOptions } from '../browsers/browser.js';
import type { Viewport } from '../chromium/viewport.js';
import { accessGuard, accessPolicy, bearerAuth, errorHandler, browserFromLocals, notFound } from './middleware.js';
import type { BrowserOf } from './middleware.js';
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
import { MountPrefixes } from './public-url.js';
import { waitAtMost } from '../../common/wait.js';
import type { PeerOptions } from './peers.js';
import type { BrowserToolsOptions } from '../tools/types.js';

export interface AppOptions {
  /**
   * The server's own browser (`default`, what the top-level routes drive): its options, which the
   * browsers of `POST /browsers` also start from, or a `Browser` built by the caller (it is closed
   * with the app's registry). Default `{}`.
   */
  primaryBrowser?: BrowserOptions | Browser;
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
   * Default viewport of the server's own browser and of `POST /browsers`' (`BrowserOptions.viewport`;
   * it wins over `primaryBrowser.viewport`). Default `BROWSER_REPL_VIEWPORT`, else 1280×720. Ignored
   * when `primaryBrowser` is a `Browser`.
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
   * Which proxies in front of the server may say what the client asked for: when the request
   * comes through one, the URLs the server returns (`cdp_ws_url`, `result_url`) follow its
   * `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix`. Express's `trust proxy`
   * values: `true` (any), a hop count, or addresses and subnets (`'loopback'`, `'10.0.0.0/8'`,
   * a comma-separated list). Default `BROWSER_REPL_TRUST_PROXY`, else none: those headers are
   * ignored, since any client could send them (docs/security.md); an app mounted in a parent
   * Express app then follows the parent's `trust proxy` setting.
   */
  trustProxy?: boolean | number | string | readonly string[] | undefined;
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
  /** The registry of every browser: the server's own (`browsers.primary`) and those of `POST /browsers`; close it to end every REPL. */
  readonly browsers: Browsers;
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

/** The routes of one browser (the one the resolver left in `res.locals`). */
function browserRoutes(browserOf: BrowserOf): Router[] {
  return [replRoutes(browserOf), playwrightRoutes(browserOf), webmcpRoutes(browserOf), processRoutes(browserOf), fsRoutes(browserOf)];
}

export function createApp(options: AppOptions = {}): BrowserReplApp {
  const token = 'token' in options ? options.token : process.env['BROWSER_REPL_TOKEN'];
  // Built first: a malformed allowedHosts or allowedOrigins entry throws before anything starts.
  const access = accessPolicy({ token, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins });
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
  const primary = options.primaryBrowser ?? {};
  const browsers = new Browsers({
    primary: primary instanceof Browser || options.viewport === undefined ? primary : { ...primary, viewport: options.viewport },
    idPrefix: peers?.idPrefix,
    pool: options.browserPool,
    maxBrowsers: options.maxBrowsers,
  });
  const proxy = new CdpProxy({ token, access, resolve: (idOrName) => browsers.get(idOrName) });
  const tools = new BrowserTools({ ...options.tools, host: browsers.primary });
  const mcp = new McpHttpSessions({
    tools,
    caps: options.mcpCaps === undefined ? capabilitiesFromEnv() : readCapabilities(options.mcpCaps, 'mcpCaps'),
  });
  const metrics = new ServerMetrics({ browsers, mcp });
  const metricsPublic = options.metricsPublic ?? /^(1|true)$/i.test(process.env['BROWSER_REPL_METRICS_PUBLIC'] ?? '');
  let destroying: Promise<void> | undefined;
  const inFlight = new InFlightRequests();
  const readiness = (): Readiness => {
    if (browsers.draining || browsers.closed) return 'draining';
    return browsers.list().length >= browsers.maxBrowsers ? 'full' : 'ready';
  };

  const app = express() as unknown as BrowserReplApp;
  // Mounted under a path (`parent.use('/browser', app)`), upgrades still arrive with it in front.
  const mounts = new MountPrefixes(() => (app as unknown as { mountpath?: unknown }).mountpath);
  Object.defineProperties(app, {
    browsers: { value: browsers, enumerable: true },
    tools: { value: tools, enumerable: true },
    mcp: { value: mcp, enumerable: true },
    handleUpgrade: {
      value: (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = request.url ?? '/';
        const stripped = mounts.strip(path);
        if (stripped !== path) request.url = stripped;
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
          // The tools' pages live in the server's own browser: they close before the browsers end.
          const toolsClosed = mcp.close().then(() => tools.close());
          await Promise.allSettled([proxy.close(), toolsClosed]);
          await Promise.all([browsers.destroy(), peers?.close()]);
          await toolsClosed;
        })();
        return destroying;
      },
    },
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  // Unset, a mounted app follows its parent's `trust proxy` (Express's rule for sub-apps).
  const trustProxy = trustProxySetting(options.trustProxy);
  if (trustProxy !== false) app.set('trust proxy', trustProxy);
  // Before anything answers: every URL the server returns keeps the path it is mounted at.
  app.use(mounts.middleware());
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
  app.use(browsersRoutes({ browsers, token }));
  // One router for one browser, mounted once at a path whose /browsers/{id_or_name} part is
  // optional (mergeParams: the id is the mount's): without an id in the path, the resolver picks
  // the registry's own browser.
  const perBrowser = Router({ mergeParams: true });
  perBrowser.use(resolveBrowser(browsers), ...browserRoutes(browserFromLocals));
  app.use('{/browsers/:id_or_name}', perBrowser);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/**
 * Express's `trust proxy` value from `AppOptions.trustProxy` or `BROWSER_REPL_TRUST_PROXY`
 * (`true`/`1`… for any proxy, a hop count, or a list of addresses and subnets); false by default.
 */
export function trustProxySetting(option: AppOptions['trustProxy'], env: NodeJS.ProcessEnv = process.env): boolean | number | string | string[] {
  if (option !== undefined) return typeof option === 'object' ? [...option] : option;
  const value = (env['BROWSER_REPL_TRUST_PROXY'] ?? '').trim();
  if (value === '' || /^(0|false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
