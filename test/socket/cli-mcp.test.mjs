// `chromium-repl mcp`: how its flags map onto the tool service's options, the usage errors (exit
// code 2, nothing on stdout), and a real stdio server that lists its tools to an MCP client and
// exits when the client closes stdin or on SIGTERM (no browser starts: no tool is called).
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpOptions } from '../../dist/lib/cli/mcp.js';
import { serveOptions } from '../../dist/lib/cli/serve.js';

const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));

function childEnv() {
  const env = { ...process.env };
  for (const name of ['BROWSER_REPL_TOKEN', 'CDP_ENDPOINT', 'BROWSER_REPL_TOOLS_PERMISSION']) delete env[name];
  return env;
}

t.test('mcpOptions', async (t) => {
  t.test('maps every flag onto the tool service and the browser', async (t) => {
    t.same(mcpOptions([
      '--executable', '/opt/chromium/chrome', '--no-headless', '--no-sandbox', '--permission', 'deny',
      '--allowed-origin', 'https://example.com', '--allowed-origin', '*.example.org', '--blocked-origin', 'https://bad.example.com',
      '--timeout-ms', '5000', '--settle-ms', '0', '--idle-ms', '60000', '--max-text-chars', '4000', '--max-elements', '50',
      '--isolation', 'process', '--workspace', '/tmp/ws',
    ], {}), {
      tools: {
        executable: '/opt/chromium/chrome', headless: false, noSandbox: true, permission: 'deny',
        allowedOrigins: ['https://example.com', '*.example.org'], blockedOrigins: ['https://bad.example.com'],
        timeoutMs: 5000, settleMs: 0, idleMs: 60000, maxTextChars: 4000, maxElements: 50, isolation: 'process', workspace: '/tmp/ws',
      },
      browser: { executable: '/opt/chromium/chrome', headless: false, noSandbox: true },
      caps: [],
    });
    t.same(mcpOptions([], {}), { tools: {}, browser: {}, caps: [] }, 'no flags: the service\'s own defaults, no code tools');
    t.same(mcpOptions(['--headless'], { BROWSER_REPL_TOOLS_PERMISSION: 'allow' }), { tools: { headless: true, permission: 'allow' }, browser: { headless: true }, caps: [] }, 'permission from the environment');
    t.same(mcpOptions(['--caps', 'code'], {}).caps, ['code'], '--caps code');
    t.same(mcpOptions([], { BROWSER_REPL_MCP_CAPS: ' code, ' }).caps, ['code'], 'caps from the environment');
    t.same(mcpOptions(['--caps', ''], { BROWSER_REPL_MCP_CAPS: 'code' }).caps, [], 'the flag wins, even empty');
    t.same(mcpOptions(['--permission', 'ask'], { BROWSER_REPL_TOOLS_PERMISSION: 'allow' }).tools, { permission: 'ask' }, 'the flag wins');
  });

  t.test('throws a UsageError naming the flag', async (t) => {
    for (const [args, message, env = {}] of [
      [['--permission', 'maybe'], /--permission must be one of ask, allow, deny, got "maybe"/],
      [[], /BROWSER_REPL_TOOLS_PERMISSION must be one of ask, allow, deny/, { BROWSER_REPL_TOOLS_PERMISSION: 'yes' }],
      [['--isolation', 'thread'], /--isolation must be one of context, process/],
      [['--headless', '--no-headless'], /--headless and --no-headless exclude each other/],
      [['--timeout-ms', 'soon'], /--timeout-ms must be an integer between 1 and 600000/],
      [['--settle-ms=-1'], /--settle-ms must be an integer between 0 and 60000/],
      [['--max-elements', '0'], /--max-elements must be an integer between 1 and 100000/],
      [['--workspace', ''], /--workspace must not be empty/],
      [['--allowed-origin', ''], /--allowed-origin must not be empty/],
      [['--port', '1'], /Unknown option '--port'/],
      [['--caps', 'code,vision'], /--caps: unknown capability "vision"; known: code/],
      [[], /BROWSER_REPL_MCP_CAPS: unknown capability "all"/, { BROWSER_REPL_MCP_CAPS: 'all' }],
    ]) {
      t.throws(() => mcpOptions(args, env), { name: 'UsageError', message, command: 'mcp' }, args.join(' ') || JSON.stringify(env));
    }
  });

  t.test('serve takes the tools\' permission from BROWSER_REPL_TOOLS_PERMISSION', async (t) => {
    t.same(serveOptions([], { BROWSER_REPL_TOOLS_PERMISSION: 'allow' }).tools, { permission: 'allow' });
    t.equal(serveOptions([], {}).tools, undefined, 'unset: the app\'s default (ask)');
    t.throws(() => serveOptions([], { BROWSER_REPL_TOOLS_PERMISSION: 'sometimes' }), { name: 'UsageError', message: /must be ask, allow or deny/ });
  });

  t.test('serve takes the code capability from --mcp-caps or BROWSER_REPL_MCP_CAPS', async (t) => {
    t.same(serveOptions(['--mcp-caps', 'code'], {}).mcpCaps, ['code']);
    t.same(serveOptions([], { BROWSER_REPL_MCP_CAPS: 'code' }).mcpCaps, ['code']);
    t.equal(serveOptions([], {}).mcpCaps, undefined, 'unset: none (the app reads the variable)');
    t.throws(() => serveOptions(['--mcp-caps', 'everything'], {}), { name: 'UsageError', message: /--mcp-caps: unknown capability "everything"/ });
  });
});

t.test('chromium-repl mcp', async (t) => {
  t.test('exits 2 on an invalid flag, with nothing on stdout', async (t) => {
    const child = spawn(process.execPath, [MAIN, 'mcp', '--permission', 'maybe'], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    const [code] = await once(child, 'close');
    t.equal(code, 2);
    t.equal(stdout, '');
    t.match(stderr, /--permission must be one of ask, allow, deny.*\(see chromium-repl help mcp\)/);
  });

  t.test('help mcp prints the options', async (t) => {
    const child = spawn(process.execPath, [MAIN, 'help', 'mcp'], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    const [code] = await once(child, 'close');
    t.equal(code, 0);
    t.match(stdout, /^Usage: chromium-repl mcp/);
    t.match(stdout, /--permission MODE/);
  });

  t.test('serves MCP on stdio and exits when the client closes stdin', async (t) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, 'mcp'], env: childEnv(), stderr: 'pipe' });
    const client = new Client({ name: 'cli-mcp-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid;
    const { tools } = await client.listTools();
    t.ok(tools.some((tool) => tool.name === 'browser_open'), 'tools/list over stdio');
    t.notOk(tools.some((tool) => tool.name === 'browser_repl' || tool.name === 'execute_playwright_code'), 'no code tools unless --caps code');
    t.equal(client.getServerVersion().name, 'chromium-repl');
    const started = Date.now();
    await client.close();
    await waitForExit(pid);
    t.ok(Date.now() - started < 10_000, 'the child exited');
  });

  t.test('exits 0 on SIGTERM', async (t) => {
    const child = spawn(process.execPath, [MAIN, 'mcp'], { env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const closed = once(child, 'close');
    t.teardown(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    // An initialize answer proves the server is up before the signal.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    while (!stdout.includes('"id":1')) await once(child.stdout, 'data');
    t.match(JSON.parse(stdout.split('\n')[0]), { jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'chromium-repl' } } }, 'stdout holds only MCP messages');
    child.kill('SIGTERM');
    const [code] = await closed;
    t.equal(code, 0);
  });
});

async function waitForExit(pid) {
  for (let i = 0; i < 100; i += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`process ${pid} still runs`);
}
