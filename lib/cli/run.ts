/**
 * `chromium-repl run '<code>'`: one cell against a running server, its output streamed to this
 * process's stdout and stderr, images saved to files, the value of its last expression printed.
 * Exit code 0 when the cell succeeded, 1 when it failed (or the server failed under it), 2 for a
 * usage or connection problem, 130 when SIGINT interrupted it.
 */
import { createClient } from '../client/index.js';
import type { ReplRequest } from '../client/index.js';
import { CONNECTION_FLAGS, connectionFrom, DEFAULT_URL, EXIT, parseFlags, UsageError } from './options.js';
import { CellInterrupt, CellOutput, describeFailure, streamCell } from './output.js';
import { withValuePrinted } from './print-value.js';

export const RUN_USAGE = `Usage: chromium-repl run [options] '<code>'
       chromium-repl run [options] -        (read the cell from stdin)

Runs one cell on a running server and streams its output: repl.write and console.log output to
stdout, console.error output to stderr, images saved as image-<n>.<ext> (their paths on stderr).
The value of the cell's last expression is printed on stdout, as node -p prints it (strings as
they are, other values as util.inspect shows them; undefined prints nothing).

Options:
  --url URL          server (BROWSER_REPL_URL; default ${DEFAULT_URL})
  --token TOKEN      bearer token (BROWSER_REPL_TOKEN)
  --browser ID|NAME  run in that browser (/browsers/{id_or_name}/repl); default the default browser
  --repl NAME        a named REPL of that browser (its own bindings and tab); default "default"
  --timeout SEC      cell timeout, 1-300 (server default 60)
  --reset            replace the REPL with a fresh one before running the cell
  --out-dir DIR      folder for images (default: the current directory)
  --no-print         do not print the value of the last expression

Ctrl-C (SIGINT) interrupts the cell on the server, which keeps the REPL and its bindings, as at a
timeout; a second one stops waiting at once and leaves the cell running.

Exit codes: 0 the cell succeeded; 1 it failed (error and stack on stderr) or the server failed;
2 usage error, server unreachable, token refused, or another 4xx answer; 130 interrupted.
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
    options: { ...CONNECTION_FLAGS, reset: { type: 'boolean' }, 'no-print': { type: 'boolean' } },
  });
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? "run needs the cell's code (or - to read it from stdin)" : 'run takes one argument, the code (quote it)', 'run');
  }
  const connection = connectionFrom(values, 'run');
  const code = positionals[0] === '-' ? await readStdin() : positionals[0]!;
  const reset = values.reset === true;
  if (code.trim() === '' && !reset) throw new UsageError('the code is empty (an empty cell is allowed only with --reset)', 'run');

  const client = createClient({ baseUrl: connection.url, token: connection.token });
  const body: ReplRequest = { code: values['no-print'] === true ? code : withValuePrinted(code, { strings: 'print', colors: false }) };
  if (connection.timeoutSec !== undefined) body.timeout_sec = connection.timeoutSec;
  if (reset) body.reset = true;
  if (connection.repl !== undefined) body.repl = connection.repl;
  const output = new CellOutput({ stdout: process.stdout, stderr: process.stderr }, { outDir: connection.outDir, imageNotes: 'stderr' });
  // The first SIGINT interrupts the cell on the server, which answers it as interrupted; the
  // second stops waiting (the cell goes on).
  const interrupt = new CellInterrupt(client, connection.repl ?? 'default', connection.browser, (message) => output.note(message));
  const controller = new AbortController();
  const onSigint = () => {
    if (interrupt.requested) controller.abort(new Error('interrupted'));
    else interrupt.request();
  };
  process.on('SIGINT', onSigint);
  try {
    const { result } = await streamCell(client, body, { browser: connection.browser, signal: controller.signal }, output, {
      onCell: (id) => interrupt.cellStarted(id),
      interruptRequested: () => interrupt.requested,
    });
    output.finish();
    if (interrupt.requested && (result.interrupted === true || result.repl_terminated === true)) return EXIT.interrupted;
    return result.success ? EXIT.ok : EXIT.cellFailed;
  } catch (error) {
    output.finish();
    if (controller.signal.aborted) {
      const cell = interrupt.cellId === undefined ? '' : ` (cell ${interrupt.cellId} keeps running on the server; GET ${connection.browser === undefined ? '' : `/browsers/${connection.browser}`}/repl/results/${interrupt.cellId} fetches its result)`;
      process.stderr.write(`chromium-repl: interrupted${cell}\n`);
      return EXIT.interrupted;
    }
    const { message, exitCode } = describeFailure(error, connection.url);
    process.stderr.write(`chromium-repl: ${message}\n`);
    return exitCode;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
