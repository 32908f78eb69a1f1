/**
 * `chromium-repl run '<code>'`: one cell against a running server, its output streamed to this
 * process's stdout and stderr, images saved to files. Exit code 0 when the cell succeeded, 1 when
 * it failed (or the server failed under it), 2 for a usage or connection problem.
 */
import { createClient } from '../client/index.js';
import type { ReplRequest } from '../client/index.js';
import { CONNECTION_FLAGS, connectionFrom, DEFAULT_URL, EXIT, parseFlags, UsageError } from './options.js';
import { CellOutput, describeFailure, streamCell } from './output.js';

export const RUN_USAGE = `Usage: chromium-repl run [options] '<code>'
       chromium-repl run [options] -        (read the cell from stdin)

Runs one cell on a running server and streams its output: repl.write and console.log output to
stdout, console.error output to stderr, images saved as image-<n>.<ext> (their paths on stderr).

Options:
  --url URL          server (BROWSER_REPL_URL; default ${DEFAULT_URL})
  --token TOKEN      bearer token (BROWSER_REPL_TOKEN)
  --browser ID|NAME  run in that browser (/browsers/{id_or_name}/repl); default the default browser
  --repl NAME        a named REPL of that browser (its own bindings and tab); default "default"
  --timeout SEC      cell timeout, 1-300 (server default 60)
  --reset            replace the REPL with a fresh one before running the cell
  --out-dir DIR      folder for images (default: the current directory)

Exit codes: 0 the cell succeeded; 1 it failed (error and stack on stderr) or the server failed;
2 usage error, server unreachable, token refused, or another 4xx answer.
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs the command; resolves with the exit code (the caller sets it, so piped output is flushed first). */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('run', {
    args,
    allowPositionals: true,
    options: { ...CONNECTION_FLAGS, reset: { type: 'boolean' } },
  });
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? "run needs the cell's code (or - to read it from stdin)" : 'run takes one argument, the code (quote it)', 'run');
  }
  const connection = connectionFrom(values, 'run');
  const code = positionals[0] === '-' ? await readStdin() : positionals[0]!;
  const reset = values.reset === true;
  if (code.trim() === '' && !reset) throw new UsageError('the code is empty (an empty cell is allowed only with --reset)', 'run');

  const client = createClient({ baseUrl: connection.url, token: connection.token });
  const body: ReplRequest = { code };
  if (connection.timeoutSec !== undefined) body.timeout_sec = connection.timeoutSec;
  if (reset) body.reset = true;
  if (connection.repl !== undefined) body.repl = connection.repl;
  const output = new CellOutput({ stdout: process.stdout, stderr: process.stderr }, { outDir: connection.outDir, imageNotes: 'stderr' });
  // Ctrl-C ends the request; whether the cell goes on depends on the server (see docs/cli.md).
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    const { result } = await streamCell(client, body, { browser: connection.browser, signal: controller.signal }, output);
    output.finish();
    return result.success ? EXIT.ok : EXIT.cellFailed;
  } catch (error) {
    output.finish();
    if (controller.signal.aborted) {
      process.stderr.write('chromium-repl: interrupted\n');
      return 130;
    }
    const { message, exitCode } = describeFailure(error, connection.url);
    process.stderr.write(`chromium-repl: ${message}\n`);
    return exitCode;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
