/**
 * The Express application, without listening: tests and embedders mount or `listen()` it.
 * One registry of browsers (lib/browsers) serves every route. The router of one browser is
 * mounted once, at `{/browsers/:id_or_name}` (the part in braces is optional): a resolver finds
 * the browser the path names, or the registry's own at the top level.
 * WebSocket upgrades (`cdp_ws_url`, the live view's) go to `app.handleUpgrade`. `/mcp` serves the MCP server
 * (lib/mcp) over streamable HTTP, once, at the top level: its code tools take a `browser` argument.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { Router } from 'express';
import type { Express, Request, Response } from 'express';
import { Browsers } from '../browsers/browsers.js';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CdpProxy } from './cdp-proxy.js';
import { browserCapabilityAuth } from './browser-capability.js';
import { curlRoutes } from './routes/curl-routes.js';
import { browsersRoutes, resolveBrowser } from './routes/browsers-routes.js';
import { browserPoolsRoutes } from './routes/browser-pools-routes.js';
import { profilesRoutes } from './routes/profiles-routes.js';
import { ProfileStore } from '../profiles/profile-store.js';
import { accessGuard, bearerAuth, errorHandler, browserFromLocals, notFound } from './middleware.js';
import type { BrowserOf } from './middleware.js';
import { replRoutes } from './routes/repl-routes.js';
import { playwrightRoutes } from './routes/playwright-routes.js';
import { processRoutes } from './routes/process-routes.js';
import { SpawnedProcesses } from '../system/process-spawn.js';
import { computerRoutes } from './routes/computer-routes.js';
import { fsRoutes } from './routes/fs-routes.js';
import { telemetryRoutes } from './routes/telemetry-routes.js';
import { logsRoutes } from './routes/logs-routes.js';
import { ServerLog } from '../telemetry/server-log.js';
import { webmcpRoutes } from './routes/webmcp-routes.js';
import { mcpRoutes } from './routes/mcp-routes.js';
import { McpHttpSessions } from '../mcp/http-sessions.js';
import { BrowserTools } from '../tools/tool-service.js';
import { ServerMetrics } from './metrics.js';
import { Peers } from './peers.js';
import { PeerDirectory } from './peer-directory.js';
import { pressureRoute } from './pressure.js';
import { InFlightRequests } from './in-flight.js';
import { MountPrefixes } from './public-url.js';
import { LiveViewKeys } from '../live-view/capability.js';
import { LiveViews } from '../live-view/live-view.js';
import { LiveViewUpgrades, livePageRoutes, liveViewUrl } from './routes/live-view-routes.js';
import { Replays } from '../recordings/replays.js';
import { replayPageRoutes, replaysRoutes } from './routes/replays-routes.js';
import { waitAtMost } from '../../common/wait.js';
import { serverSettings } from './settings.js';
import { ExtensionStore } from '../extensions/extension-store.js';
import { LiveExtensions } from '../extensions/live-extensions.js';
import { extensionsRoutes } from './routes/extensions-routes.js';
import { ProxyStore } from '../proxies/store.js';
import { proxiesRoutes } from './routes/proxies-routes.js';
import { gated } from './route-gate.js';
import type { PathShape } from './route-gate.js';
import type { AppOptions, ServerSettings } from './settings.js';

export type { AppOptions } from './settings.js';

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

/**
 * Which paths each gated router serves: a superset of its routes' patterns, by their literal
 * segments (lib/http/route-gate.ts; test/unit/route-gate.test.mjs holds every route to it).
 */
const SERVES = {
  livePage: (path: PathShape) => path.first === 'browsers' && path.third === 'live',
  mcp: (path: PathShape) => path.first === 'mcp',
  extensions: (path: PathShape) => path.first === 'extensions' || (path.first === 'browsers' && path.third === 'extensions'),
  profiles: (path: PathShape) => path.first === 'profiles',
  browsers: (path: PathShape) => path.first === 'browsers' && (path.count <= 2 || path.third === 'live_view'),
  browserPools: (path: PathShape) => path.first === 'browser_pools',
  replays: (path: PathShape) => path.first === 'browsers' && path.third === 'replays',
  proxies: (path: PathShape) => path.first === 'proxies',
} as const;

/** The routes of one browser (the one the resolver left in `res.locals`). */
function browserRoutes(browserOf: BrowserOf, serverLog: ServerLog, processes: SpawnedProcesses, settings: ServerSettings): Router[] {
  return [replRoutes(browserOf), playwrightRoutes(browserOf), webmcpRoutes(browserOf), processRoutes(browserOf, processes), fsRoutes(browserOf, settings.files),
    telemetryRoutes(browserOf), logsRoutes(browserOf, { serverLog }), computerRoutes(browserOf), curlRoutes(browserOf)];
}

export function createApp(options: AppOptions = {}): BrowserReplApp {
  // Every option and variable is read and checked here, once, before anything starts.
  return appOf(serverSettings(options));
}

/** The app of checked settings (`startServer` reads its own, the listener's included). */
export function appOf(settings: ServerSettings): BrowserReplApp {
  const { token, access, metricsPublic } = settings;
  const peers = settings.peers === undefined ? undefined : new Peers(settings.peers, (idOrName) => {
    try {
      browsers.get(idOrName);
      return true;
    } catch {
      return false;
    }
  });
  // The proxies of /proxies (docs/browsers.md#proxies) and the stored profiles
  // (docs/browsers.md#profiles), in the data directory.
  const proxyStore = new ProxyStore(settings.dataDir);
  const profiles = new ProfileStore({ dir: path.join(settings.dataDir, 'profiles'), key: settings.profileKey });
  const browsers = new Browsers({
    proxies: proxyStore,
    profiles,
    primary: settings.primaryBrowser,
    idPrefix: peers?.idPrefix,
    pool: settings.browserPool,
    maxBrowsers: settings.maxBrowsers,
    createWaitMs: settings.createWaitSeconds * 1000,
    createQueue: settings.createQueue,
  });
  const directory = peers === undefined ? undefined : new PeerDirectory({
    peers, dnsName: settings.peers?.peerDns, dnsPort: settings.peers?.peerPort, token,
  });
  if (peers !== undefined && directory !== undefined) {
    // Names are owned by one server of the deployment; ids name theirs (lib/http/peers.ts).
    peers.nameOwner = (name) => directory.ownerOf(name);
    // A renamed browser stays on its server, whoever owns its new name.
    peers.holderOf = (name) => directory.holderOf(name);
    peers.discovered = (node) => directory.urlOf(node);
  }
  const proxy = new CdpProxy({ token, access, resolve: (idOrName) => browsers.get(idOrName) });
  // The live views' key: the token, or a secret of this process (a capability is always needed).
  const liveViewKeys = new LiveViewKeys(token);
  const liveViews = new LiveViews();
  const liveUpgrades = new LiveViewUpgrades({ browsers, keys: liveViewKeys, access, views: liveViews });
  // The recordings (docs/recordings.md); their capabilities use the live views' key.
  const replays = new Replays(settings.recordings);
  // The background processes of every browser (docs/process-and-files.md#background-processes).
  const processes = new SpawnedProcesses(settings.processes);
  const tools = new BrowserTools({ ...settings.tools, host: browsers.primary });
  const mcp = new McpHttpSessions({
    tools, caps: settings.mcpCaps,
    // The MCP sessions' pages are tabs of the primary browser: its live view shows them.
    handOver: (req, res) => {
      const primary = browsers.primary;
      if (primary.chromium === null) return undefined;
      return {
        liveViewUrl: liveViewUrl(req as Request, res as Response, primary.id, liveViewKeys.mint(primary.id)),
        request: (options) => primary.humanRequests.request(options),
      };
    },
  });
  const metrics = new ServerMetrics({ browsers, mcp });
  // The server's own log (docs/telemetry.md#logs): it writes no file, so its lines live in a ring.
  const serverLog = new ServerLog();
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
        // Dispatch by path: a live view's viewers, else the CDP proxy (which refuses unknown paths).
        if (LiveViewUpgrades.matches(request.url)) void liveUpgrades.handleUpgrade(request, socket, head);
        else void proxy.handleUpgrade(request, socket, head);
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
          serverLog.close();
          // The tools' pages live in the server's own browser: they close before the browsers end.
          const toolsClosed = mcp.close().then(() => tools.close());
          await Promise.allSettled([proxy.close(), liveViews.close(), replays.close(), processes.close(), toolsClosed]);
          await Promise.all([browsers.destroy(), peers?.close(), directory?.destroy()]);
          await toolsClosed;
        })();
        return destroying;
      },
    },
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  // Unset, a mounted app follows its parent's `trust proxy` (Express's rule for sub-apps).
  const { trustProxy } = settings;
  if (trustProxy !== false) app.set('trust proxy', typeof trustProxy === 'object' ? [...trustProxy] : trustProxy);
  // Before anything answers: every URL the server returns keeps the path it is mounted at.
  app.use(mounts.middleware());
  // Counted first, so that refusals (403, 401) count too.
  app.use(metrics.countRequests());
  // The live-view page is opened by a person's browser, often in another site's iframe, with no
  // token: its capability admits it, after the Host check (lib/http/routes/live-view-routes.ts).
  app.use(gated(SERVES.livePage, livePageRoutes({ browsers, keys: liveViewKeys, access })));
  app.use(gated(SERVES.replays, replayPageRoutes({ browsers, replays, keys: liveViewKeys, access })));
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
  // The pressure is as public as the metrics: what a load balancer or scraper reads.
  const servePressure = pressureRoute(browsers, peers?.nodeId ?? '');
  if (metricsPublic) {
    app.get('/metrics', serveMetrics);
    app.get('/pressure', servePressure);
  }
  if (token !== undefined && token !== '') {
    // The capability of cdp_ws_url admits the routes the SDK sends to base_url (docs/curl.md).
    app.use(browserCapabilityAuth(token));
    app.use(bearerAuth(token));
  }
  if (!metricsPublic) {
    app.get('/metrics', serveMetrics);
    app.get('/pressure', servePressure);
  }
  app.use(inFlight.middleware());
  // Before any route reads a body: a forwarded request's body streams on as it arrives.
  if (peers !== undefined) app.use(peers.forwardHttp());
  app.use(gated(SERVES.mcp, mcpRoutes({ sessions: mcp, token, access })));
  // cdp_ws_url always carries a capability, as the SDK reads base_url's from it: the token's HMAC,
  // or, without a token (nothing is checked then), one of a secret of this process.
  const capabilityKey = token !== undefined && token !== '' ? token : randomBytes(32).toString('base64url');
  // Uploaded extensions (docs/browsers.md#extensions), before the per-browser router takes /browsers/{id}/….
  const extensionStore = new ExtensionStore({ dataDir: settings.dataDir, limits: settings.files });
  app.use(gated(SERVES.extensions, extensionsRoutes({ browsers, store: extensionStore, live: new LiveExtensions(settings.files), files: settings.files })));
  const resolveExtensions = (references: ReadonlyArray<{ id?: string; name?: string }>, field: string) => extensionStore.resolve(references, field);
  app.use(gated(SERVES.profiles, profilesRoutes({ profiles })));
  app.use(gated(SERVES.browsers, browsersRoutes({ browsers, capabilityKey, liveViewKeys, resolveExtensions, directory })));
  app.use(gated(SERVES.browserPools, browserPoolsRoutes({ browsers, capabilityKey, liveViewKeys, resolveExtensions })));
  app.use(gated(SERVES.replays, replaysRoutes({ browsers, replays, keys: liveViewKeys })));
  app.use(gated(SERVES.proxies, proxiesRoutes({ proxies: proxyStore, checkUrl: settings.proxyCheckUrl })));
  // One router for one browser, mounted once at a path whose /browsers/{id_or_name} part is
  // optional (mergeParams: the id is the mount's): without an id in the path, the resolver picks
  // the registry's own browser.
  const perBrowser = Router({ mergeParams: true });
  perBrowser.use(resolveBrowser(browsers), ...browserRoutes(browserFromLocals, serverLog, processes, settings));
  app.use('{/browsers/:id_or_name}', perBrowser);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
