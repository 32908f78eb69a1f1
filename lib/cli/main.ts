#!/usr/bin/env node
/**
 * `chromium-repl` command line: `serve` (default) starts the HTTP server; `install-browser` finds
 * or installs a Chromium. Kept thin: everything it does is available from the library.
 */
import { parseArgs } from 'node:util';
import { parseViewport } from '../browser/viewport.js';
import { startServer } from '../http/server.js';

const USAGE = `Usage: chromium-repl [serve] [--port N] [--host ADDRESS] [--viewport WIDTHxHEIGHT]
       chromium-repl install-browser

Commands:
  serve             Start the HTTP API (default). PORT/HOST env vars work too; default 127.0.0.1:10001.
                    Set BROWSER_REPL_TOKEN to require a bearer token (mandatory beyond loopback).
                    --viewport (or BROWSER_REPL_VIEWPORT) sets the page size of the tabs it opens; default 1280x720.
  install-browser   Find a Chromium, or install one (Debian/Ubuntu: apt-get install chromium) when none is found.
`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, viewport: { type: 'string' } },
    strict: true,
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--port must be an integer between 0 and 65535, got ${values.port}`);
  }
  const viewport = values.viewport === undefined ? undefined : parseViewport(values.viewport, '--viewport');
  const server = await startServer({
    ...(port === undefined ? {} : { port }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(viewport === undefined ? {} : { viewport }),
  });
  process.stdout.write(`chromium-repl listening on ${server.url}\n`);
  const shutdown = (signal: string) => {
    process.stdout.write(`chromium-repl: ${signal}, shutting down\n`);
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
  } else if (command === undefined || command.startsWith('--')) {
    await serve(argv);
  } else if (command === 'serve') {
    await serve(rest);
  } else if (command === 'install-browser') {
    const { installBrowser } = await import('../install-browser.js');
    await installBrowser();
  } else {
    process.stderr.write(`chromium-repl: unknown command "${command}"\n\n${USAGE}`);
    process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`chromium-repl: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
