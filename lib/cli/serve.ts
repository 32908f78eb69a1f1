/**
 * `chromium-repl serve` (the default command): validates the flags (exit code 2 with a message
 * naming the flag), maps them onto `startServer`, prints the URL and shuts down gracefully on
 * SIGINT or SIGTERM.
 */
import { parseViewport } from '../chromium/viewport.js';
import type { Viewport } from '../chromium/viewport.js';
import type { BrowserManagerOptions } from '../chromium/browser-manager.js';
import type { BrowserOptions } from '../browsers/browser.js';
import { DEFAULT_DRAIN_MS, isLoopback, startServer } from '../http/server.js';
import { parseHostPattern, parseOrigin, splitList } from '../http/middleware.js';
import { parseTrustProxy, serverSettings } from '../http/settings.js';
import type { ServerOptions, ServerSettings } from '../http/settings.js';
import { integerFlag, parseFlags, UsageError } from './options.js';
import { readCapabilities } from '../mcp/capabilities.js';

export const SERVE_USAGE = `Usage: chromium-repl [serve] [options]

Starts the HTTP API (docs/api.md, openapi.json) with one default browser, launched on first use.

Options:
  --port N               listening port; 0 picks a free one (PORT; default 10001)
  --host ADDRESS         listening address (HOST; default 127.0.0.1); beyond loopback a token is required
  --token TOKEN          require Authorization: Bearer TOKEN on every route (BROWSER_REPL_TOKEN;
                         prefer the variable: arguments show in process listings)
  --allowed-hosts LIST   host names served besides loopback ones, comma separated: name, name:port,
                         *.domain (BROWSER_REPL_ALLOWED_HOSTS); with a token, only these and loopback
  --allowed-origins LIST web origins whose pages may call the server, with CORS, comma separated
                         (BROWSER_REPL_ALLOWED_ORIGINS; default none)
  --executable PATH      the Chromium, Chrome or Edge to launch (BROWSER_REPL_CHROME; default: discovery)
  --cdp-endpoint URL     attach the default browser to a running one (ws://… or http://host:port; CDP_ENDPOINT)
  --headful              show the launched browser's window (needs a display)
  --browser-pool N       keep N launched, unused browsers ready for POST /browsers (default 0)
  --max-browsers N       most browsers POST /browsers may run at once (BROWSER_REPL_MAX_BROWSERS; default:
                         one per 512 MiB of the memory limit, the container's when there is one, minus one)
  --create-wait-seconds N  how long POST /browsers on a full server waits for room before its 429
                         (BROWSER_REPL_CREATE_WAIT_SECONDS; default 0: answer 429 at once)
  --create-queue N       most creates waiting for room at once (BROWSER_REPL_CREATE_QUEUE; default 100
                         when waiting is on)
  --heap-mb N            heap cap of each REPL worker in MiB (BROWSER_REPL_HEAP_MB; default 512, or an
                         eighth of a smaller memory limit, at least 128)
  --viewport WxH         page size of the tabs it opens (BROWSER_REPL_VIEWPORT; default 1280x720)
  --mcp-caps LIST        capabilities of /mcp beyond the page tools, comma separated (BROWSER_REPL_MCP_CAPS;
                         default none): code lists browser_repl and execute_playwright_code
  --data-dir DIR         where stored profiles live (<DIR>/profiles; BROWSER_REPL_DATA_DIR; default
                         $XDG_STATE_HOME/chromium-repl, else ~/.local/state/chromium-repl); with
                         BROWSER_REPL_PROFILE_KEY (32 bytes, hex or base64) profiles are encrypted at rest
  --trust-proxy VALUE    proxies whose X-Forwarded-Proto/-Host/-Prefix shape the URLs it returns
                         (cdp_ws_url, result_url): true, a hop count, or addresses and subnets such as
                         loopback or 10.0.0.0/8 (BROWSER_REPL_TRUST_PROXY; default none)
  --data-dir PATH        where stored things are kept: the proxies of /proxies (BROWSER_REPL_DATA_DIR;
                         default $XDG_STATE_HOME/chromium-repl, else ~/.local/state/chromium-repl)
  --proxy-check-url URL  what POST /proxies/{id}/check asks through the proxy when its body names no url
                         (BROWSER_REPL_PROXY_CHECK_URL; default https://example.com/)

The browser tools of /mcp (docs/mcp.md) approve navigations as BROWSER_REPL_TOOLS_PERMISSION says:
ask (default: the MCP client asks the user), allow or deny. Its code tools (browser_repl,
execute_playwright_code) are listed only with --mcp-caps code (BROWSER_REPL_MCP_CAPS=code): they
run code with this server's rights (docs/security.md).

GET /healthz and GET /readyz answer without the token; GET /metrics (Prometheus) needs it unless
BROWSER_REPL_METRICS_PUBLIC=1. SIGTERM drains (no new browsers, /readyz answers 503) for up to
BROWSER_REPL_DRAIN_SEC seconds (default 30) while running cells finish, then shuts down; SIGINT or a
second signal shuts down at once. SIGUSR2 only stops new browsers (chromium-repl wait-idle).

Exit codes: 2 for an invalid flag; 1 when the server cannot start (e.g. the port is taken).
`;

/** The flags of `serve`, as `startServer` options. Exported for the tests of the mapping. */
export function serveOptions(args: string[], env: NodeJS.ProcessEnv = process.env): ServerOptions {
  // Strict parsing without allowPositionals: a stray argument is a usage error of its own.
  const { values } = parseFlags('serve', {
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'allowed-origins': { type: 'string' },
      executable: { type: 'string' },
      'cdp-endpoint': { type: 'string' },
      headful: { type: 'boolean' },
      'browser-pool': { type: 'string' },
      'max-browsers': { type: 'string' },
      'create-wait-seconds': { type: 'string' },
      'create-queue': { type: 'string' },
      'heap-mb': { type: 'string' },
      viewport: { type: 'string' },
      'mcp-caps': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'data-dir': { type: 'string' },
      'proxy-check-url': { type: 'string' },
    },
  });
  const port = integerFlag(values.port, '--port', 0, 65535, 'serve');
  const browserPool = integerFlag(values['browser-pool'], '--browser-pool', 0, 1024, 'serve');
  const maxBrowsers = integerFlag(values['max-browsers'], '--max-browsers', 1, 1024, 'serve');
  const createWaitSeconds = integerFlag(values['create-wait-seconds'], '--create-wait-seconds', 0, 3600, 'serve');
  const createQueue = integerFlag(values['create-queue'], '--create-queue', 0, 100_000, 'serve');
  // 16 MiB is below what a worker needs to start; the server would fail every cell instead.
  const heapMb = integerFlag(values['heap-mb'], '--heap-mb', 32, 65536, 'serve');
  if (browserPool !== undefined && maxBrowsers !== undefined && browserPool > maxBrowsers) {
    throw new UsageError(`--browser-pool (${browserPool}) cannot exceed --max-browsers (${maxBrowsers}): the pool counts against the limit`, 'serve');
  }
  if (values.executable !== undefined && values['cdp-endpoint'] !== undefined) {
    throw new UsageError('--executable and --cdp-endpoint exclude each other: launch a browser or attach to one', 'serve');
  }
  if (values.headful === true && values['cdp-endpoint'] !== undefined) {
    throw new UsageError('--headful applies to a browser this server launches, not to one attached with --cdp-endpoint', 'serve');
  }
  for (const flag of ['host', 'token', 'executable', 'cdp-endpoint', 'trust-proxy', 'data-dir', 'proxy-check-url'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} must not be empty`, 'serve');
  }
  const endpoint = values['cdp-endpoint'];
  if (endpoint !== undefined && !/^(wss?|https?):\/\/./.test(endpoint)) {
    throw new UsageError(`--cdp-endpoint must be a ws://, wss://, http:// or https:// URL, got ${JSON.stringify(endpoint)}`, 'serve');
  }
  let viewport: Viewport | undefined;
  if (values.viewport !== undefined) {
    try {
      viewport = parseViewport(values.viewport, '--viewport');
    } catch (error) {
      throw new UsageError((error as Error).message, 'serve');
    }
  }
  let mcpCaps: ServerOptions['mcpCaps'];
  try {
    if (values['mcp-caps'] !== undefined) mcpCaps = readCapabilities(values['mcp-caps'].split(','), '--mcp-caps');
  } catch (error) {
    throw new UsageError((error as Error).message, 'serve');
  }
  const allowedHosts = listFlag(values['allowed-hosts'], '--allowed-hosts', parseHostPattern);
  const allowedOrigins = listFlag(values['allowed-origins'], '--allowed-origins', parseOrigin);

  const browser: BrowserManagerOptions = {};
  if (values.executable !== undefined) browser.executable = values.executable;
  if (endpoint !== undefined) browser.cdpEndpoint = endpoint;
  if (values.headful === true) browser.headless = false;
  const primaryBrowser: BrowserOptions = {};
  if (heapMb !== undefined) primaryBrowser.heapMb = heapMb;
  if (Object.keys(browser).length > 0) primaryBrowser.browser = browser;

  // What the flags say; the environment fills in the rest, read and checked once by the server's
  // own serverSettings, here so that a bad variable is a usage error (exit 2) before anything starts.
  const options: ServerOptions = {};
  if (values.token !== undefined) options.token = values.token;
  if (values.host !== undefined) options.host = values.host;
  if (port !== undefined) options.port = port;
  if (viewport !== undefined) options.viewport = viewport;
  if (values['trust-proxy'] !== undefined) options.trustProxy = parseTrustProxy(values['trust-proxy']);
  if (allowedHosts !== undefined) options.allowedHosts = allowedHosts;
  if (allowedOrigins !== undefined) options.allowedOrigins = allowedOrigins;
  if (Object.keys(primaryBrowser).length > 0) options.primaryBrowser = primaryBrowser;
  if (browserPool !== undefined) options.browserPool = browserPool;
  if (maxBrowsers !== undefined) options.maxBrowsers = maxBrowsers;
  if (createWaitSeconds !== undefined) options.createWaitSeconds = createWaitSeconds;
  if (createQueue !== undefined) options.createQueue = createQueue;
  if (mcpCaps !== undefined) options.mcpCaps = mcpCaps;
  if (values['data-dir'] !== undefined) options.dataDir = values['data-dir'];
  if (values['proxy-check-url'] !== undefined) options.proxyCheckUrl = values['proxy-check-url'];
  let settings: ServerSettings;
  try {
    settings = serverSettings(options, env);
  } catch (error) {
    throw new UsageError((error as Error).message, 'serve');
  }
  // startServer refuses this too; saying it here makes it a usage error (exit 2) before anything starts.
  if (!isLoopback(settings.host) && (settings.token === undefined || settings.token === '')) {
    throw new UsageError(`refusing to listen on ${settings.host} without a token: pass --token or set BROWSER_REPL_TOKEN (or listen on 127.0.0.1)`, 'serve');
  }

  // The options carry what the environment said of the token, the lists and the capabilities too.
  const mapped: ServerOptions = { token: settings.token === '' ? undefined : settings.token, ...options };
  if (allowedHosts === undefined && settings.allowedHosts !== undefined) mapped.allowedHosts = nonEmpty(settings.allowedHosts, '--allowed-hosts');
  if (allowedOrigins === undefined && settings.allowedOrigins !== undefined) mapped.allowedOrigins = nonEmpty(settings.allowedOrigins, '--allowed-origins');
  if (mcpCaps === undefined && settings.mcpCaps.length > 0) mapped.mcpCaps = [...settings.mcpCaps];
  // A knob of the command line (and of `mcp`), not of the library: the app's default is ask.
  const permission = env['BROWSER_REPL_TOOLS_PERMISSION'];
  if (permission !== undefined && permission !== '') {
    if (permission !== 'ask' && permission !== 'allow' && permission !== 'deny') {
      throw new UsageError(`BROWSER_REPL_TOOLS_PERMISSION must be ask, allow or deny, got ${JSON.stringify(permission)}`, 'serve');
    }
    mapped.tools = { permission };
  }
  return mapped;
}

/**
 * A comma-separated list of a flag, each entry checked by `parse` (which throws naming the entry;
 * that becomes a usage error). Undefined when the flag is not given.
 */
function listFlag(flag: string | undefined, flagName: string, parse: (entry: string, source: string) => unknown): string[] | undefined {
  if (flag === undefined) return undefined;
  const entries = nonEmpty(splitList(flag), flagName);
  for (const entry of entries) {
    try {
      parse(entry, flagName);
    } catch (error) {
      throw new UsageError((error as Error).message, 'serve');
    }
  }
  return entries;
}

/** A list of a flag or its variable that names nothing (`,`) is a usage error. */
function nonEmpty(entries: readonly string[], flagName: string): string[] {
  if (entries.length === 0) throw new UsageError(`${flagName} must list at least one entry`, 'serve');
  return [...entries];
}

/**
 * Starts the server and keeps it until SIGTERM or SIGINT. SIGTERM (what Kubernetes and container
 * runtimes send) drains first: no new browsers, running cells get up to `BROWSER_REPL_DRAIN_SEC`
 * (default 30) to answer. SIGINT (Ctrl-C), or a second signal, closes at once. SIGUSR2 only stops
 * new browsers (`chromium-repl wait-idle`).
 */
export async function serve(args: string[]): Promise<void> {
  const drainMs = drainWindowMs(process.env['BROWSER_REPL_DRAIN_SEC']);
  const server = await startServer(serveOptions(args));
  process.stdout.write(`chromium-repl listening on ${server.url}\n`);
  let stopping = false;
  const stop = (signal: string, graceful: boolean) => {
    const now = stopping ? 'closing now' : graceful ? `draining for up to ${drainMs / 1000}s, then shutting down` : 'shutting down';
    process.stdout.write(`chromium-repl: ${signal}, ${now}\n`);
    const done = stopping || !graceful ? server.close() : server.shutdown({ graceMs: drainMs });
    stopping = true;
    done.then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`chromium-repl: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT', false));
  process.on('SIGTERM', () => stop('SIGTERM', true));
  // `chromium-repl wait-idle` (a pod's preStop hook): no new browsers, the live ones keep working
  // until their clients delete them; SIGTERM then drains and ends as always (docs/deploy.md#autoscaling).
  process.on('SIGUSR2', () => {
    if (stopping || server.app.browsers.draining) return;
    process.stdout.write('chromium-repl: SIGUSR2, taking no new browsers; the live ones keep working\n');
    server.app.browsers.drain();
  });
}

/** `BROWSER_REPL_DRAIN_SEC`: seconds (0..3600) a SIGTERM waits for running requests. */
export function drainWindowMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_DRAIN_MS;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 3600) {
    throw new UsageError(`BROWSER_REPL_DRAIN_SEC must be a whole number of seconds from 0 to 3600, got ${JSON.stringify(value)}`, 'serve');
  }
  // 0: no wait for running cells, but answers already being written still go out before the close.
  return Math.max(1, seconds * 1000);
}
