/**
 * `chromium-repl mcp`: the MCP server over stdio (docs/mcp.md). stdout is the MCP channel, so
 * nothing else may be written there: console output of our own code goes to stderr. The server
 * runs until stdin ends (the client closed it) or a signal arrives, then closes the tool session,
 * the browser and its profile, and exits.
 */
import { capabilitiesFromEnv, readCapabilities } from '../mcp/capabilities.js';
import type { BrowserManagerOptions } from '../chromium/browser-manager.js';
import type { McpCapability } from '../mcp/capabilities.js';
import type { BrowserToolsOptions } from '../tools/types.js';
import { integerFlag, parseFlags, UsageError } from './options.js';
import { PROFILE_NAME_PATTERN } from '../profiles/profile-rules.js';

export const MCP_USAGE = `Usage: chromium-repl mcp [options]

Runs the MCP server over stdio (stdin and stdout carry MCP messages; logs go to stderr): browser
tools (browser_open, browser_snapshot, browser_click, …) on one page of a Chromium it launches on
first use, the tools that page declares (webmcp_list_tools, webmcp_invoke_tool), with --caps code
browser_repl and execute_playwright_code on the same page, and the session's screenshots,
downloads and snapshots as resources. The HTTP server serves the same at /mcp.

Options:
  --executable PATH        the Chromium, Chrome or Edge to launch (BROWSER_REPL_CHROME; default: discovery)
  --headless, --no-headless  run the browser without a window (default) or with one (needs a display)
  --no-sandbox             launch Chromium with --no-sandbox (default: automatic for root and for containers that deny user namespaces)
  --permission MODE        ask|allow|deny: whether browser_open may navigate (BROWSER_REPL_TOOLS_PERMISSION;
                           default ask: the client asks the user, or the call is refused saying how to allow)
  --allowed-origin ORIGIN  an origin browser_open may reach (https://example.com, *.example.com); repeatable
  --blocked-origin ORIGIN  an origin browser_open may never reach; repeatable; wins over --allowed-origin
  --timeout-ms N           navigation, wait and command timeout (default 30000)
  --settle-ms N            longest wait after an action for client-side rendering, ended once the page is quiet (default 250; 0 disables)
  --idle-ms N              close the page after this long unused (default 900000; 0 disables)
  --max-text-chars N       visible text kept per snapshot (default 12000)
  --max-elements N         interactive elements kept per snapshot (default 120)
  --isolation MODE         context (default: a browser context of the shared browser), process (a browser of its own)
                           or none (the shared browser's default context, shared by every session)
  --profile NAME           start the browser from the stored profile NAME (created if missing) and save its user data
                           back when the server ends, so logins survive restarts (docs/browsers.md#profiles); implies
                           --isolation none
  --data-dir DIR           where stored profiles live (<DIR>/profiles; BROWSER_REPL_DATA_DIR; default
                           $XDG_STATE_HOME/chromium-repl, else ~/.local/state/chromium-repl); with
                           BROWSER_REPL_PROFILE_KEY (32 bytes, hex or base64) the profile is encrypted at rest
  --workspace DIR          where screenshots, downloads and full snapshots are saved (default: a temporary folder, removed on exit)
  --caps LIST              capabilities beyond the page tools, comma separated (BROWSER_REPL_MCP_CAPS; default none):
                           code lists browser_repl and execute_playwright_code, which run code with this process's
                           rights on the session's page (docs/security.md)

Exit codes: 2 for an invalid flag; 0 when the client closes stdin or on SIGINT/SIGTERM.
`;

/** What `mcp` starts: the tool service's options, its browser and the capabilities of the server. */
export interface McpCommandOptions {
  tools: BrowserToolsOptions;
  browser: BrowserManagerOptions;
  caps: McpCapability[];
  /** `--profile`: the stored profile the browser starts from and saves to, and the data folder that holds it. */
  profile?: { name: string; dataDir: string | undefined } | undefined;
}

const PERMISSIONS = ['ask', 'allow', 'deny'] as const;
const ISOLATIONS = ['context', 'process', 'none'] as const;

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, 'mcp');
  return value as T;
}

/** The flags of `mcp`, as options. Exported for the tests of the mapping. */
export function mcpOptions(args: string[], env: NodeJS.ProcessEnv = process.env): McpCommandOptions {
  const { values } = parseFlags('mcp', {
    args,
    options: {
      executable: { type: 'string' },
      headless: { type: 'boolean' },
      'no-headless': { type: 'boolean' },
      'no-sandbox': { type: 'boolean' },
      permission: { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true },
      'blocked-origin': { type: 'string', multiple: true },
      'timeout-ms': { type: 'string' },
      'settle-ms': { type: 'string' },
      'idle-ms': { type: 'string' },
      'max-text-chars': { type: 'string' },
      'max-elements': { type: 'string' },
      isolation: { type: 'string' },
      workspace: { type: 'string' },
      caps: { type: 'string' },
      profile: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  if (values.headless === true && values['no-headless'] === true) throw new UsageError('--headless and --no-headless exclude each other', 'mcp');
  for (const flag of ['executable', 'workspace', 'profile', 'data-dir'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} must not be empty`, 'mcp');
  }
  for (const flag of ['allowed-origin', 'blocked-origin'] as const) {
    if (values[flag]?.some((origin) => origin === '') === true) throw new UsageError(`--${flag} must not be empty`, 'mcp');
  }
  const envPermission = env['BROWSER_REPL_TOOLS_PERMISSION'] === '' ? undefined : env['BROWSER_REPL_TOOLS_PERMISSION'];
  const permission = values.permission !== undefined
    ? oneOf(values.permission, PERMISSIONS, '--permission')
    : oneOf(envPermission, PERMISSIONS, 'BROWSER_REPL_TOOLS_PERMISSION');
  let isolation = oneOf(values.isolation, ISOLATIONS, '--isolation');
  if (values.profile !== undefined) {
    if (!PROFILE_NAME_PATTERN.test(values.profile)) throw new UsageError('--profile must be 1 to 255 letters, digits, ".", "_" or "-"', 'mcp');
    // A session's own context or browser would not see the profile's cookies, nor save its own.
    if (isolation !== undefined && isolation !== 'none') throw new UsageError(`--profile needs --isolation none (the sessions share the profile's default context), got --isolation ${isolation}`, 'mcp');
    isolation = 'none';
  } else if (values['data-dir'] !== undefined) {
    throw new UsageError('--data-dir only matters with --profile', 'mcp');
  }
  const numbers = {
    timeoutMs: integerFlag(values['timeout-ms'], '--timeout-ms', 1, 600_000, 'mcp'),
    settleMs: integerFlag(values['settle-ms'], '--settle-ms', 0, 60_000, 'mcp'),
    idleMs: integerFlag(values['idle-ms'], '--idle-ms', 0, undefined, 'mcp'),
    maxTextChars: integerFlag(values['max-text-chars'], '--max-text-chars', 1, 10_000_000, 'mcp'),
    maxElements: integerFlag(values['max-elements'], '--max-elements', 1, 100_000, 'mcp'),
  };

  const tools: BrowserToolsOptions = {};
  const browser: BrowserManagerOptions = {};
  if (values.executable !== undefined) tools.executable = browser.executable = values.executable;
  if (values.headless === true) tools.headless = browser.headless = true;
  if (values['no-headless'] === true) tools.headless = browser.headless = false;
  if (values['no-sandbox'] === true) tools.noSandbox = browser.noSandbox = true;
  if (permission !== undefined) tools.permission = permission;
  if (values['allowed-origin'] !== undefined) tools.allowedOrigins = values['allowed-origin'];
  if (values['blocked-origin'] !== undefined) tools.blockedOrigins = values['blocked-origin'];
  for (const [key, value] of Object.entries(numbers) as Array<[keyof typeof numbers, number | undefined]>) {
    if (value !== undefined) tools[key] = value;
  }
  if (isolation !== undefined) tools.isolation = isolation;
  if (values.workspace !== undefined) tools.workspace = values.workspace;
  let caps: McpCapability[];
  try {
    caps = values.caps !== undefined ? readCapabilities(values.caps.split(','), '--caps') : capabilitiesFromEnv(env);
  } catch (error) {
    throw new UsageError((error as Error).message, 'mcp');
  }
  if (values.profile === undefined) return { tools, browser, caps };
  return { tools, browser, caps, profile: { name: values.profile, dataDir: values['data-dir'] } };
}

/** The one MCP session of a stdio server. */
const STDIO_SESSION_ID = 'mcp-stdio';

/** Serves MCP on stdin/stdout until stdin ends or a signal; then cleans up and exits. */
export async function mcp(args: string[]): Promise<void> {
  const options = mcpOptions(args);
  // stdout belongs to MCP: whatever our code (or a dependency) logs goes to stderr.
  for (const method of ['log', 'info', 'debug', 'dir', 'table'] as const) {
    console[method] = (...items: unknown[]) => console.error(...items);
  }
  // Loaded here, not at the top: `run` and `shell` import this module for its usage text only.
  const [{ StdioServerTransport }, { Browser }, { createMcpServer }, { BrowserTools }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../browsers/browser.js'),
    import('../mcp/mcp-server.js'),
    import('../tools/tool-service.js'),
  ]);
  const userData = options.profile === undefined ? undefined : await profileUserData(options.profile);
  const host = new Browser({ browser: userData === undefined ? options.browser : { ...options.browser, userData } });
  const tools = new BrowserTools({ ...options.tools, host });
  const server = createMcpServer({ tools, sessionId: STDIO_SESSION_ID, caps: options.caps });
  const transport = new StdioServerTransport();

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    // Cleanup that hangs (a browser that does not exit) must not keep the process.
    const deadline = setTimeout(() => {
      process.stderr.write(`chromium-repl mcp: cleanup after ${reason} took too long, exiting\n`);
      process.exit(1);
    }, 15_000);
    void (async () => {
      await server.close().catch(() => undefined);
      await tools.close().catch((error: unknown) => process.stderr.write(`chromium-repl mcp: closing the tools failed: ${error instanceof Error ? error.message : String(error)}\n`));
      await host.close().catch(() => undefined);
      clearTimeout(deadline);
      process.exit(0);
    })();
  };
  process.stdin.once('end', () => stop('end of stdin'));
  process.stdin.once('close', () => stop('stdin closed'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  server.server.onclose = () => stop('transport closed');
  await server.connect(transport);
}

/**
 * The browser's part of `--profile NAME`: the stored profile of that name (created when missing)
 * under the data folder, copied in at each launch and saved back, atomically, when the browser
 * ends (the server's close on end of stdin or a signal).
 */
async function profileUserData(profile: { name: string; dataDir: string | undefined }): Promise<NonNullable<BrowserManagerOptions['userData']>> {
  const [{ ProfileStore }, { dataDirOf, profileKeyOf }, { default: path }] = await Promise.all([
    import('../profiles/profile-store.js'),
    import('../http/settings.js'),
    import('node:path'),
  ]);
  let dataDir: string;
  let key: Buffer | undefined;
  try {
    dataDir = dataDirOf(profile.dataDir, process.env);
    key = profileKeyOf(undefined);
  } catch (error) {
    throw new UsageError((error as Error).message, 'mcp');
  }
  const store = new ProfileStore({ dir: path.join(dataDir, 'profiles'), key });
  const stored = await store.get(profile.name).catch(async (error: unknown) => {
    if ((error as { code?: unknown }).code !== 'REPL_ERR_PROFILE_NOT_FOUND') throw error;
    return store.create({ name: profile.name });
  });
  process.stderr.write(`chromium-repl mcp: profile "${profile.name}" (${stored.id}) in ${store.dir}\n`);
  return {
    seed: (userDataDir) => store.copyInto(stored.id, userDataDir),
    save: async (userDataDir) => {
      await store.save(stored.id, userDataDir);
    },
  };
}
