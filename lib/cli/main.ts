#!/usr/bin/env node
/**
 * `chromium-repl` command line: a thin dispatcher. `serve` (the default) starts the HTTP server,
 * `run` and `shell` are clients of a running one (through `chromium-repl/client`), `mcp` serves
 * the MCP server over stdio, `install-browser` finds or installs a Chromium, `wait-idle` is a pod's
 * preStop hook. docs/cli.md is the reference.
 */
import { mcp, MCP_USAGE } from './mcp.js';
import { EXIT, UsageError } from './options.js';
import { run, RUN_USAGE } from './run.js';
import { serve, SERVE_USAGE } from './serve.js';
import { shell, SHELL_USAGE } from './shell.js';
import { waitIdle, WAIT_IDLE_USAGE } from './wait-idle.js';

const USAGE = `Usage: chromium-repl [serve] [options]       start the HTTP API (default 127.0.0.1:10001)
       chromium-repl run [options] '<code>'   run one cell on a running server, stream its output
       chromium-repl shell [options]          interactive REPL on a running server
       chromium-repl mcp [options]            MCP server over stdio (browser tools, REPL, Playwright)
       chromium-repl install-browser [--ffmpeg]  find a Chromium (and ffmpeg), or install it (apt-get)
       chromium-repl wait-idle [options]      stop a running server's new browsers, wait until it holds none (preStop)
       chromium-repl help [command]           this text, or one command's options

Environment: BROWSER_REPL_URL (run, shell), BROWSER_REPL_TOKEN (all), PORT, HOST, BROWSER_REPL_HEAP_MB,
BROWSER_REPL_VIEWPORT, BROWSER_REPL_CHROME, CDP_ENDPOINT (serve), BROWSER_REPL_HISTORY (shell),
BROWSER_REPL_TOOLS_PERMISSION (serve, mcp).
Exit codes: 0 success, 1 a failed cell or server failure, 2 a usage or connection error.
`;

const INSTALL_BROWSER_USAGE = `Usage: chromium-repl install-browser [--ffmpeg]

Finds a Chromium-based browser (BROWSER_REPL_CHROME, CHROME_PATH, PATH, Playwright's and
Puppeteer's caches); when none is found, says what it will install (Debian's chromium package)
and installs it with apt-get.

  --ffmpeg   also find ffmpeg (BROWSER_REPL_FFMPEG, PATH, /usr/bin/ffmpeg), which recordings
             need (docs/recordings.md); when none is found, say so and install Debian's ffmpeg
             package the same way
`;

const COMMAND_USAGE: Record<string, string> = {
  serve: SERVE_USAGE,
  run: RUN_USAGE,
  shell: SHELL_USAGE,
  mcp: MCP_USAGE,
  'install-browser': INSTALL_BROWSER_USAGE,
  'wait-idle': WAIT_IDLE_USAGE,
};

/** Resolves with the exit code, except for `serve`, which keeps the process until a signal. */
async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (command === 'help') {
    const topic = rest[0];
    if (topic === undefined) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    const text = COMMAND_USAGE[topic];
    if (text === undefined) throw new UsageError(`no command "${topic}"`);
    process.stdout.write(text);
    return EXIT.ok;
  }
  // `<command> --help` is the same as `help <command>`.
  if (command !== undefined && COMMAND_USAGE[command] !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(COMMAND_USAGE[command]!);
    return EXIT.ok;
  }
  if (command === undefined || command.startsWith('--')) {
    await serve(argv);
    return undefined;
  }
  switch (command) {
    case 'serve':
      await serve(rest);
      return undefined;
    case 'run':
      return run(rest);
    case 'shell':
      return shell(rest);
    case 'mcp':
      await mcp(rest);
      return undefined;
    case 'wait-idle':
      return waitIdle(rest);
    case 'install-browser': {
      const unknown = rest.find((arg) => arg !== '--ffmpeg');
      if (unknown !== undefined) throw new UsageError(`unknown option "${unknown}"`, 'install-browser');
      const { installBrowser, installFfmpeg } = await import('../install-browser.js');
      await installBrowser();
      if (rest.includes('--ffmpeg')) await installFfmpeg();
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then((code) => {
  // Not process.exit(): stdout may be a pipe that still holds the cell's output.
  if (code !== undefined) process.exitCode = code;
}, (error: unknown) => {
  if (error instanceof UsageError) {
    const hint = error.command === undefined ? `\n\n${USAGE}` : ` (see chromium-repl help ${error.command})\n`;
    process.stderr.write(`chromium-repl: ${error.message}${hint}`);
    process.exitCode = EXIT.usage;
    return;
  }
  process.stderr.write(`chromium-repl: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
