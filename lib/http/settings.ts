/**
 * The server's configuration, parsed and checked once, at the edge: `serverSettings` reads every
 * server-level option of `createApp` and `startServer`, the library option first, else its
 * environment variable, else the default, checks each, and returns one frozen `ServerSettings`.
 * The parts (the access policy, the browser registry, the peers, `/mcp`, the listener) receive
 * these checked values; none of them reads the environment for them. The command line maps its
 * flags onto the same options and calls this too, so that a bad variable is a usage error.
 *
 * Knobs of one REPL or browser that their own modules read (`BROWSER_REPL_HEAP_MB`,
 * `BROWSER_REPL_CHROME`, `CDP_ENDPOINT`, …) are not server settings, and stay where they are used.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import { derivedMaxBrowsers } from '../../common/memory-budget.js';
import { ReplError } from '../../common/errors.js';
import { Browser } from '../browsers/browser.js';
import type { BrowserOptions } from '../browsers/browser.js';
import { checkBrowserCount } from '../browsers/browsers.js';
import { parseProfileKey } from '../profiles/encryption.js';
import { BrowserManager } from '../chromium/browser-manager.js';
import { checkViewport, resolveViewport } from '../chromium/viewport.js';
import type { Viewport } from '../chromium/viewport.js';
import { readCapabilities } from '../mcp/capabilities.js';
import type { McpCapability } from '../mcp/capabilities.js';
import type { BrowserToolsOptions } from '../tools/types.js';
import { accessPolicy, parseHostPattern, parseOrigin, splitList } from './middleware.js';
import type { AccessPolicy } from './middleware.js';
import { checkPeerOptions, peerOptionsFromEnv } from './peers.js';
import type { PeerOptions } from './peers.js';
import { recordingSettings } from '../recordings/replays.js';
import type { RecordingOptions, RecordingSettings } from '../recordings/replays.js';
import { processSettings } from '../system/process-spawn.js';
import type { ProcessOptions, ProcessSettings } from '../system/process-spawn.js';
import { fileSettings } from '../system/file-upload.js';
import type { FileOptions, FileSettings } from '../system/file-upload.js';

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
   * Longest wait of `POST /browsers` for room when the server is full, in seconds; a request may
   * ask for less (docs/deploy.md#waiting-for-room). Default `BROWSER_REPL_CREATE_WAIT_SECONDS`,
   * else 0: a full server answers 429 at once, as before.
   */
  createWaitSeconds?: number | undefined;
  /** Most creates waiting for room at once (`--create-queue`). Default `BROWSER_REPL_CREATE_QUEUE`, else 100 when waiting is on. */
  createQueue?: number | undefined;
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
  /**
   * Limits of the recordings (`/browsers/{id}/replays`, docs/recordings.md): how many per browser,
   * the disk space of all, the longest, and how long they stay after their browser ended. Each
   * field defaults to its `BROWSER_REPL_RECORDINGS_*` variable, else its default.
   */
  recordings?: RecordingOptions | undefined;
  /**
   * Limits of the background processes (`process/spawn`, docs/process-and-files.md): how many run
   * per browser and in all, and how long an exited one's record stays. Each field defaults to its
   * `BROWSER_REPL_PROCESSES_*` variable, else its default.
   */
  processes?: ProcessOptions | undefined;
  /**
   * Limits of the file transfers and watches (`/fs/upload`, `/fs/upload_zip`,
   * `/fs/download_dir_zip`, `/fs/watch`; docs/process-and-files.md#limits). Each field defaults to
   * its `BROWSER_REPL_*` variable, else its default.
   */
  files?: FileOptions | undefined;
  /**
   * Where the server keeps what it stores (`--data-dir`, `BROWSER_REPL_DATA_DIR`): uploaded
   * extensions (docs/browsers.md#extensions), the proxies of `/proxies` (`proxies.json`, 0600) and stored
   * profiles (`<dataDir>/profiles`, 0700; docs/browsers.md#profiles). Default `$XDG_STATE_HOME/chromium-repl`, else
   * `~/.local/state/chromium-repl`. Nothing is written there until something is stored.
   */
  dataDir?: string | undefined;
  /**
   * What `POST /proxies/{id}/check` asks through the proxy when its body names no `url`
   * (`--proxy-check-url`, `BROWSER_REPL_PROXY_CHECK_URL`). Default `https://example.com/`.
   */
  proxyCheckUrl?: string | undefined;
  /**
   * The key stored profiles are encrypted with at rest (AES-256-GCM, docs/browsers.md#profiles):
   * 32 bytes, or their 64 hex digits or base64. Default `BROWSER_REPL_PROFILE_KEY`, else none
   * (profiles are stored plain, mode 0700).
   */
  profileKey?: string | Buffer | undefined;
}

export interface ServerOptions extends AppOptions {
  /** Default `PORT` or 10001; 0 picks a free port. */
  port?: number;
  /** Default `HOST` or 127.0.0.1. Anything beyond loopback requires a token. */
  host?: string;
  /** Most time to receive a request's headers, in ms (then 408 `REPL_ERR_REQUEST_TIMEOUT`). Default 30 000. */
  headersTimeoutMs?: number | undefined;
  /** Most time to receive a whole request, body included, in ms (not the response). Default 300 000. */
  requestTimeoutMs?: number | undefined;
}

/** What `serverSettings` returns: every server-level setting, checked, defaults applied, frozen. */
export interface ServerSettings {
  /** The bearer token; undefined or `''`: none. */
  readonly token: string | undefined;
  /** The `allowedHosts` entries as configured (each checked); undefined: none configured. */
  readonly allowedHosts: readonly string[] | undefined;
  /** The `allowedOrigins` entries as configured (each checked); undefined: none configured. */
  readonly allowedOrigins: readonly string[] | undefined;
  /** The Host and Origin policy built from the token and those entries, parsed. */
  readonly access: AccessPolicy;
  /** Express's `trust proxy` value; false: not set (a mounted app follows its parent). */
  readonly trustProxy: boolean | number | string | readonly string[];
  readonly metricsPublic: boolean;
  readonly mcpCaps: readonly McpCapability[];
  /** The options of the browser tools of `/mcp` (which check their own fields). */
  readonly tools: Readonly<BrowserToolsOptions>;
  /**
   * The default viewport of the server's own browser and of `POST /browsers`'; undefined when the
   * primary browser brings its own (a `Browser`, or options with an existing `BrowserManager`).
   */
  readonly viewport: Readonly<Viewport> | undefined;
  /** The primary browser: a caller's `Browser` as given, or its options with `viewport` resolved. */
  readonly primaryBrowser: BrowserOptions | Browser;
  readonly browserPool: number;
  readonly maxBrowsers: number;
  readonly createWaitSeconds: number;
  readonly createQueue: number;
  /** Routing between servers, checked; undefined: none. */
  readonly peers: Readonly<PeerOptions> | undefined;
  /** The recordings' limits, checked. */
  readonly recordings: RecordingSettings;
  /** The background processes' limits, checked. */
  readonly processes: ProcessSettings;
  /** The file transfers' and watches' limits, checked. */
  readonly files: FileSettings;
  /** The data directory, absolute. */
  readonly dataDir: string;
  /** The default target of a proxy check (an http: or https: URL). */
  readonly proxyCheckUrl: string;
  /** The profiles' key, 32 bytes, or undefined: stored plain. */
  readonly profileKey: Buffer | undefined;
  /** Where `startServer` listens. */
  readonly host: string;
  readonly port: number;
  readonly headersTimeoutMs: number;
  /** At least `headersTimeoutMs`. */
  readonly requestTimeoutMs: number;
}

/** The create queue's length when waiting is on and `createQueue` is not given. */
const DEFAULT_CREATE_QUEUE = 100;

/** A count option, else its variable when set, checked; undefined when neither is. */
function countOf(value: number | undefined, field: string, env: NodeJS.ProcessEnv, variable: string): number | undefined {
  if (value !== undefined) return checkBrowserCount(value, field);
  const text = env[variable] ?? '';
  return text === '' ? undefined : checkBrowserCount(Number(text), variable);
}

/**
 * How long a client may take to send its request line and headers. They fit in one packet for
 * any real client; a slow one past this is holding a connection open on purpose (slowloris).
 */
const HEADERS_TIMEOUT_MS = 30_000;
/**
 * How long a client may take to send its whole request, body included (Node's `requestTimeout`;
 * it does not limit the response, so a `/repl` cell of five minutes is not affected). Five
 * minutes covers the largest body (64 MiB of `PUT /fs/write_file`) at about 220 KiB/s.
 */
const REQUEST_TIMEOUT_MS = 300_000;

/**
 * The settings of a server: each option of `options`, else its variable of `env`, else its
 * default, checked once. Throws, naming the option or variable, what `createApp` and
 * `startServer` refuse: `REPL_ERR_INVALID_REQUEST` for a malformed host or origin entry or
 * timeout, `REPL_ERR_INVALID_ARGUMENT` for the rest.
 */
export function serverSettings(options: ServerOptions = {}, env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const token = 'token' in options ? options.token : env['BROWSER_REPL_TOKEN'];
  // The access policy first: a malformed allowedHosts or allowedOrigins entry is the first refusal.
  const hosts = options.allowedHosts !== undefined
    ? { entries: [...options.allowedHosts], source: 'allowedHosts' }
    : listVariable(env, 'BROWSER_REPL_ALLOWED_HOSTS');
  const origins = options.allowedOrigins !== undefined
    ? { entries: [...options.allowedOrigins], source: 'allowedOrigins' }
    : listVariable(env, 'BROWSER_REPL_ALLOWED_ORIGINS');
  const access = accessPolicy({
    token,
    allowedHosts: hosts?.entries.map((entry) => Object.freeze(parseHostPattern(entry, hosts.source))),
    allowedOrigins: origins?.entries.map((entry) => parseOrigin(entry, origins.source)),
  });
  let peers: PeerOptions | undefined;
  if (options.peers !== false) {
    peers = options.peers ?? peerOptionsFromEnv(env);
    if (peers !== undefined) checkPeerOptions(peers);
  }
  const maxBrowsers = options.maxBrowsers !== undefined
    ? checkBrowserCount(options.maxBrowsers, 'maxBrowsers')
    : (env['BROWSER_REPL_MAX_BROWSERS'] ?? '') !== ''
      ? checkBrowserCount(Number(env['BROWSER_REPL_MAX_BROWSERS']), 'BROWSER_REPL_MAX_BROWSERS')
      : derivedMaxBrowsers();
  const browserPool = checkBrowserCount(options.browserPool ?? 0, 'pool');
  const createWaitSeconds = countOf(options.createWaitSeconds, 'createWaitSeconds', env, 'BROWSER_REPL_CREATE_WAIT_SECONDS') ?? 0;
  const createQueue = countOf(options.createQueue, 'createQueue', env, 'BROWSER_REPL_CREATE_QUEUE') ?? (createWaitSeconds > 0 ? DEFAULT_CREATE_QUEUE : 0);
  const { primaryBrowser, viewport } = primaryBrowserOf(options, env);
  const mcpCaps = options.mcpCaps !== undefined
    ? readCapabilities(options.mcpCaps, 'mcpCaps')
    : readCapabilities((env['BROWSER_REPL_MCP_CAPS'] ?? '').split(','), 'BROWSER_REPL_MCP_CAPS');
  const headersTimeoutMs = positiveMs(options.headersTimeoutMs, 'headersTimeoutMs') ?? HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = Math.max(positiveMs(options.requestTimeoutMs, 'requestTimeoutMs') ?? REQUEST_TIMEOUT_MS, headersTimeoutMs);
  return frozen<ServerSettings>({
    token,
    allowedHosts: hosts?.entries,
    allowedOrigins: origins?.entries,
    access,
    trustProxy: options.trustProxy !== undefined
      ? (typeof options.trustProxy === 'object' ? [...options.trustProxy] : options.trustProxy)
      : parseTrustProxy(env['BROWSER_REPL_TRUST_PROXY'] ?? ''),
    metricsPublic: options.metricsPublic ?? /^(1|true)$/i.test(env['BROWSER_REPL_METRICS_PUBLIC'] ?? ''),
    mcpCaps,
    tools: options.tools ?? {},
    viewport,
    primaryBrowser,
    browserPool,
    maxBrowsers,
    createWaitSeconds,
    createQueue,
    peers,
    recordings: recordingSettings(options.recordings, env),
    processes: processSettings(options.processes, env),
    files: fileSettings(options.files, env),
    dataDir: dataDirOf(options.dataDir, env),
    proxyCheckUrl: proxyCheckUrlOf(options.proxyCheckUrl ?? nonBlank(env['BROWSER_REPL_PROXY_CHECK_URL']), options.proxyCheckUrl === undefined ? 'BROWSER_REPL_PROXY_CHECK_URL' : 'proxyCheckUrl'),
    profileKey: profileKeyOf(options.profileKey, env),
    host: options.host ?? env['HOST'] ?? '127.0.0.1',
    // Not checked here, as before: listen() refuses a port that is not one.
    port: options.port ?? (env['PORT'] === undefined ? 10001 : Number(env['PORT'])),
    headersTimeoutMs,
    requestTimeoutMs,
  });
}

function proxyCheckUrlOf(value: string | undefined, name: string): string {
  if (value === undefined) return 'https://example.com/';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${name} must be an absolute http: or https: URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${name} must be an absolute http: or https: URL, got ${JSON.stringify(value)}`);
  return url.href;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * Express's `trust proxy` value of `BROWSER_REPL_TRUST_PROXY` or `--trust-proxy`: `true`/`yes`/`on`
 * for any proxy, a hop count, or addresses and subnets as given; false when blank or `0`/`false`/`no`/`off`.
 */
export function parseTrustProxy(text: string): boolean | number | string {
  const value = text.trim();
  if (value === '' || /^(0|false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** `dataDir`, else `BROWSER_REPL_DATA_DIR`, else the OS state folder's `chromium-repl`, made absolute. */
export function dataDirOf(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const [value, source] = given !== undefined ? [given, 'dataDir']
    : (env['BROWSER_REPL_DATA_DIR'] ?? '') !== '' ? [env['BROWSER_REPL_DATA_DIR']!, 'BROWSER_REPL_DATA_DIR']
      // A relative XDG_STATE_HOME is ignored, as the XDG rule says.
      : [join(absoluteOnly(nonEmpty(env['XDG_STATE_HOME'])) ?? join(nonEmpty(env['HOME']) ?? homedir(), '.local', 'state'), 'chromium-repl'), 'dataDir'];
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\u0000')) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${source} must be a non-empty path`);
  return resolvePath(value);
}

function absoluteOnly(value: string | undefined): string | undefined {
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The profiles' key of `profileKey`, else of `BROWSER_REPL_PROFILE_KEY`; undefined when neither is set. */
export function profileKeyOf(profileKey: string | Buffer | undefined, env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  if (Buffer.isBuffer(profileKey)) {
    if (profileKey.length !== 32) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `profileKey must be 32 bytes, got ${profileKey.length}`);
    return Buffer.from(profileKey);
  }
  if (profileKey !== undefined) return parseProfileKey(profileKey, 'profileKey');
  const variable = env['BROWSER_REPL_PROFILE_KEY'];
  return variable === undefined || variable === '' ? undefined : parseProfileKey(variable, 'BROWSER_REPL_PROFILE_KEY');
}

/** The entries of a comma-separated variable; undefined when it is unset or blank. */
function listVariable(env: NodeJS.ProcessEnv, name: string): { entries: string[]; source: string } | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : { entries: splitList(value), source: name };
}

/**
 * The primary browser with its viewport resolved once: `options.viewport`, else its own option,
 * else `BROWSER_REPL_VIEWPORT` of its launch environment (what its `BrowserManager` would read),
 * else 1280×720. A caller's `Browser`, or an existing `BrowserManager`, keeps its own.
 */
function primaryBrowserOf(options: AppOptions, env: NodeJS.ProcessEnv): { primaryBrowser: BrowserOptions | Browser; viewport: Viewport | undefined } {
  const primary = options.primaryBrowser ?? {};
  if (primary instanceof Browser) return { primaryBrowser: primary, viewport: undefined };
  const configured = options.viewport ?? primary.viewport;
  const launch = primary.browser;
  if (configured === undefined && launch instanceof BrowserManager) return { primaryBrowser: { ...primary }, viewport: undefined };
  const viewport = configured !== undefined
    ? checkViewport(configured)
    : resolveViewport(undefined, launch === undefined || launch === false || launch instanceof BrowserManager ? env : launch.env ?? env);
  return { primaryBrowser: { ...primary, viewport }, viewport };
}

/** `value` when a positive integer of milliseconds, undefined when unset; else `REPL_ERR_INVALID_REQUEST` naming it. */
export function positiveMs(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value <= 0) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be a positive integer of milliseconds, got ${String(value)}`);
  return value;
}

/**
 * `value` with its plain objects and arrays copied and frozen, all the way down. Anything else
 * (a `Browser`, a `BrowserManager`, a function, `process.env`) is kept as it is: those are live.
 */
function frozen<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value === process.env) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((item: unknown) => frozen(item))) as T;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  if (Object.isFrozen(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = frozen(item);
  return Object.freeze(copy) as T;
}
