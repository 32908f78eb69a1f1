/**
 * `chromium-repl shell`: an interactive REPL for people, on top of `node:repl` with an `eval` that
 * sends each cell to a server and streams its output back. Multi-line input is recognised by
 * parsing with meriyah (the server's own parser); the value of a cell's last expression is
 * printed (print-value.ts); `.reset`, `.help [name]`, `.browser`, `.repl` and `.result` are shell
 * commands. Ctrl-C during a cell interrupts it on the server (`POST /repl/interrupt`, the REPL and
 * its bindings kept); a second Ctrl-C stops waiting for it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import repl from 'node:repl';
import type { REPLServer } from 'node:repl';
import { parseModule } from 'meriyah';
import { NAME_PATTERN } from '../../common/limits.js';
import { createClient } from '../client/index.js';
import type { ChromiumReplClient, ReplRequest } from '../client/index.js';
import { CONNECTION_FLAGS, connectionFrom, DEFAULT_URL, EXIT, parseFlags, UsageError } from './options.js';
import type { Connection } from './options.js';
import { CellInterrupt, CellOutput, describeFailure, streamCell } from './output.js';
import { withValuePrinted } from './print-value.js';

export const SHELL_USAGE = `Usage: chromium-repl shell [options]

An interactive REPL on a running server: each input is one cell (bindings persist), its output
streams in as it is produced, images are saved as image-<n>.<ext> and their paths printed.
Input continues on the next line while it is incomplete (an open bracket, string or template).

Options:
  --url URL          server (BROWSER_REPL_URL; default ${DEFAULT_URL})
  --token TOKEN      bearer token (BROWSER_REPL_TOKEN)
  --browser ID|NAME  start in that browser; default the default browser
  --repl NAME        start in that named REPL; default "default"
  --timeout SEC      timeout of each cell, 1-300 (server default 60)
  --out-dir DIR      folder for images (default: the current directory)
  --no-print         do not print the value of a cell's last expression

Commands inside the shell:
  .help [name]       the shell's commands and the methods a cell has; with a name, that method's help
  .reset             replace the current REPL with a fresh one (its bindings are gone)
  .browser [id|name|default]   switch browser (without an argument: list them)
  .repl [name]       switch to a named REPL of the browser (without an argument: list them)
  .result [cell_id]  print the result of a cell a second Ctrl-C left running (default: the last one)
  .exit, Ctrl-D      leave

The value of a cell's last expression is printed as Node's REPL prints it (undefined is not).
Ctrl-C while a cell runs interrupts it: the server stops it and keeps the REPL and its bindings,
as at a timeout, and cells typed after it are dropped. A second Ctrl-C before it stopped returns
to the prompt at once and leaves the cell running; .result prints its result later. History:
BROWSER_REPL_HISTORY, default ~/.chromium_repl_history.
`;

// Fragile: recognises meriyah's wording for input that ends too early ("Unexpected token: 'end of
// source'", an unterminated template or comment, "Expected ')'" and its kin). Guarded by
// test/unit/shell-input.test.mjs, which pins the messages of the meriyah we depend on.
const INCOMPLETE_MESSAGES = /'end of source'|Unterminated template literal|Multiline comment was not closed/;
const MISSING_CLOSER = /Expected '([)\]}])'/;
/** More closers than this in a row is not a cell someone types. */
const MAX_CLOSERS = 64;

function parseError(code: string): SyntaxError | undefined {
  try {
    parseModule(code, { next: true, ranges: true });
    return undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return error;
    throw error;
  }
}

/**
 * Whether `code` is the start of a cell rather than a cell: parsing it as a module (as the
 * server does) fails only because the input ended. Answers the parse error when so, else undefined
 * (a complete cell, or one that is wrong whatever follows: the server reports its error).
 *
 * meriyah reports a missing closing bracket at the last token it read, which is the same place for
 * `({a: 1` (incomplete) and `foo(1 2` (wrong). So the closer it asks for is appended, as more input
 * would: when that parses, or the error moves on past what was typed, the input was incomplete.
 */
export function incompleteInput(code: string): SyntaxError | undefined {
  let probe = code;
  let first: SyntaxError | undefined;
  for (let closers = 0; closers <= MAX_CLOSERS; closers += 1) {
    const error = parseError(probe);
    if (error === undefined) return first;
    first ??= error;
    if (INCOMPLETE_MESSAGES.test(error.message)) return first;
    const closer = MISSING_CLOSER.exec(error.message);
    const end = (error as SyntaxError & { end?: unknown }).end;
    // A closer asked for before the end of the input is a mistake, not a cell waiting for more lines.
    if (closer === null || typeof end !== 'number' || end < probe.trimEnd().length) return undefined;
    probe = `${probe}\n${closer[1]!}`;
  }
  return undefined;
}

/** The prompt, naming the browser and REPL when they are not the defaults. */
export function promptFor(browser: string | undefined, replName: string): string {
  const parts = [...(browser === undefined ? [] : [`browser ${browser}`]), ...(replName === 'default' ? [] : [`repl ${replName}`])];
  return parts.length === 0 ? 'chromium-repl> ' : `chromium-repl (${parts.join(', ')})> `;
}

type Listener = (...args: unknown[]) => void;

/** The task that runs now, and what Ctrl-C does to it. */
interface RunningTask {
  readonly controller: AbortController;
  /** A cell's first Ctrl-C interrupts it on the server; without this, Ctrl-C aborts the task. */
  readonly interrupt: (() => void) | undefined;
  interrupting: boolean;
}

/** One interactive session: where cells go, and the cell that runs now. */
class ShellSession {
  readonly #client: ChromiumReplClient;
  readonly #connection: Connection;
  readonly #output: CellOutput;
  readonly #print: boolean;
  #browser: string | undefined;
  #repl: string;
  #server: REPLServer | undefined;
  /** Cells run one after another, also when lines are typed while one runs (node:repl does not wait). */
  #queue: Promise<void> = Promise.resolve();
  /** Bumped by Ctrl-C: tasks queued before it are dropped. */
  #generation = 0;
  /**
   * Tasks submitted and not finished, counted the moment they are submitted: keys typed together
   * (Enter, then Ctrl-C in one read of the terminal) are handled in one go, before any task had
   * its turn, and that Ctrl-C must still reach the cell rather than node:repl.
   */
  #pending = 0;
  #running: RunningTask | undefined;
  /** node:repl's own SIGINT listeners (clear the line; Ctrl-C twice leaves): used when no task is pending. */
  #replSigint: Listener[] = [];
  /** The last cell a second Ctrl-C left running, and the browser it runs in. */
  #lastLeftRunning: { cellId: string; browser: string | undefined } | undefined;

  constructor(client: ChromiumReplClient, connection: Connection, options: { print: boolean }) {
    this.#client = client;
    this.#connection = connection;
    this.#browser = connection.browser;
    this.#repl = connection.repl ?? 'default';
    this.#print = options.print;
    this.#output = new CellOutput({ stdout: process.stdout, stderr: process.stderr }, { outDir: connection.outDir, imageNotes: 'stdout' });
  }

  get prompt(): string {
    return promptFor(this.#browser, this.#repl);
  }

  /**
   * Takes Ctrl-C over for good: one listener decides, at the moment of the key, whether a task is
   * pending (interrupt it) or not (node:repl's own behaviour).
   */
  attach(server: REPLServer): void {
    this.#server = server;
    this.#replSigint = server.listeners('SIGINT') as Listener[];
    server.removeAllListeners('SIGINT');
    server.on('SIGINT', this.#onSigint);
  }

  /** node:repl's `eval`: incomplete input asks for more lines; anything else is a cell. */
  evaluate(code: string, callback: (error: Error | null, result?: unknown) => void): void {
    if (code.trim() === '') {
      callback(null);
      return;
    }
    const incomplete = incompleteInput(code);
    if (incomplete !== undefined) {
      callback(new repl.Recoverable(incomplete));
      return;
    }
    const cell = this.#print ? withValuePrinted(code, { strings: 'inspect', colors: colorsWanted() }) : code;
    this.#cell({ code: cell }).then(() => callback(null), (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
  }

  /** `.reset`: a fresh REPL of the current name. */
  async reset(): Promise<void> {
    // Addressed now: a .repl or .browser typed while earlier cells run applies to what follows it.
    const body = this.#body({ code: '', reset: true });
    const browser = this.#browser;
    const name = this.#repl;
    await this.#exclusive(async (signal) => {
      await this.#client.repl(body, { browser, signal });
      this.#output.note(`(REPL "${name}" reset: its bindings are gone)`);
    });
  }

  /** `.help [name]`: the shell's commands, then the server's `repl.help(name)`. */
  async help(name: string): Promise<void> {
    if (name === '') process.stdout.write(`${SHELL_COMMANDS}\n`);
    await this.#cell({ code: name === '' ? 'repl.help()' : `repl.help(${JSON.stringify(name)})` });
  }

  /** `.browser [id|name|default]`. */
  async browser(target: string): Promise<void> {
    await this.#exclusive(async (signal) => {
      if (target === '') {
        const { browsers } = await this.#client.browsers.list({}, { signal });
        const rows = browsers.map((b) => `  ${b.session_id}${b.name === undefined ? '' : ` (${b.name})`}`);
        this.#output.note(`browser: ${this.#browser ?? 'default'}\n${rows.length === 0 ? '  (no browsers besides the default; POST /browsers creates one)' : rows.join('\n')}`);
        return;
      }
      if (target === 'default') {
        this.#browser = undefined;
      } else {
        // Checked now, so a typo is reported here and not by every following cell.
        await this.#client.browsers.retrieve(target, { signal });
        this.#browser = target;
      }
      this.#updatePrompt();
    });
  }

  /** `.repl [name]`. */
  async replCommand(name: string): Promise<void> {
    if (name === '') {
      await this.#exclusive(async (signal) => {
        const repls = await this.#client.repls({ browser: this.#browser, signal });
        const rows = repls.map((r) => `  ${r.name}${r.busy ? ' (busy)' : ''}${r.url === undefined ? '' : ` ${r.url}`}`);
        this.#output.note(`repl: ${this.#repl}\n${rows.length === 0 ? '  (none yet)' : rows.join('\n')}`);
      });
      return;
    }
    if (!NAME_PATTERN.test(name)) {
      this.#output.note('a REPL name is 1-64 letters, digits, "_" or "-"');
      return;
    }
    this.#repl = name;
    this.#updatePrompt();
  }

  /** `.result [cell_id]`: the result of a cell left running by a second Ctrl-C. */
  async result(cellId: string): Promise<void> {
    const target = cellId === '' ? this.#lastLeftRunning : { cellId, browser: this.#browser };
    if (target === undefined) {
      this.#output.note('no cell was left running; .result <cell_id> fetches a given one');
      return;
    }
    const { cellId: id, browser } = target;
    await this.#exclusive(async (signal) => {
      const answer = await this.#client.replResult(id, { browser, signal });
      if ('status' in answer) {
        this.#output.note(`(cell ${id} is still running; try .result again later)`);
        return;
      }
      this.#output.note(`(cell ${id} ${answer.success ? 'succeeded' : 'failed'}${answer.duration_ms === undefined ? '' : ` in ${answer.duration_ms} ms`}${(answer.content ?? []).length === 0 ? ', no output' : ''})`);
      await this.#output.result(answer, 0);
      this.#output.finish();
    });
  }

  /**
   * Ctrl-C: with no task pending, node:repl's own behaviour. Otherwise the tasks queued behind the
   * running one are dropped, and the running one is interrupted: a cell on the server first (a
   * second Ctrl-C stops waiting for it), anything else by aborting its request.
   */
  readonly #onSigint = (): void => {
    if (this.#pending === 0) {
      for (const listener of this.#replSigint) listener.call(this.#server);
      return;
    }
    this.#generation += 1;
    const task = this.#running;
    if (task === undefined) return;
    if (task.interrupt !== undefined && !task.interrupting) {
      task.interrupting = true;
      task.interrupt();
      return;
    }
    task.controller.abort(new Error('interrupted'));
  };

  #body(extra: Pick<ReplRequest, 'code' | 'reset'>): ReplRequest {
    const body: ReplRequest = { ...extra };
    if (this.#repl !== 'default') body.repl = this.#repl;
    if (this.#connection.timeoutSec !== undefined) body.timeout_sec = this.#connection.timeoutSec;
    return body;
  }

  async #cell(extra: Pick<ReplRequest, 'code' | 'reset'>): Promise<void> {
    // Addressed now, not when its turn comes (see reset).
    const body = this.#body(extra);
    const browser = this.#browser;
    const interrupt = new CellInterrupt(this.#client, body.repl ?? 'default', browser, (message) => this.#output.note(message));
    await this.#exclusive(async (signal) => {
      try {
        await streamCell(this.#client, body, { browser, signal }, this.#output, {
          onCell: (id) => interrupt.cellStarted(id),
          interruptRequested: () => interrupt.requested,
        });
      } finally {
        this.#output.finish();
      }
    }, {
      interrupt: () => interrupt.request(),
      onInterrupted: () => {
        const cellId = interrupt.cellId;
        if (cellId === undefined) {
          this.#output.note('(interrupted: the request was cancelled before the server reported the cell; '
            + 'a server that does not stream stops the cell with its request)');
          return;
        }
        this.#lastLeftRunning = { cellId, browser };
        this.#output.note(`(stopped waiting: the cell keeps running on the server, and the next cell of this REPL waits for it; `
          + `.result prints its result once it ends, or GET ${browser === undefined ? '' : `/browsers/${browser}`}/repl/results/${cellId})`);
      },
      onDropped: () => this.#output.note('(interrupted before it was sent: the cell did not run)'),
    });
  }

  /**
   * Runs `task` after the tasks before it; Ctrl-C reaches it through {@link #onSigint}. A failure
   * is printed here; an abort is reported by `onInterrupted`, a task dropped by a Ctrl-C before
   * its turn by `onDropped`.
   */
  async #exclusive(task: (signal: AbortSignal) => Promise<void>, handlers: {
    interrupt?: () => void;
    onInterrupted?: () => void;
    onDropped?: () => void;
  } = {}): Promise<void> {
    const generation = this.#generation;
    const previous = this.#queue;
    let release: () => void = () => undefined;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#pending += 1;
    try {
      await previous;
      if (generation !== this.#generation) {
        handlers.onDropped?.();
        return;
      }
      const controller = new AbortController();
      this.#running = { controller, interrupt: handlers.interrupt, interrupting: false };
      try {
        await task(controller.signal);
      } catch (error) {
        if (controller.signal.aborted) {
          (handlers.onInterrupted ?? (() => this.#output.note('(interrupted)')))();
          return;
        }
        this.#output.finish();
        this.#output.note(`chromium-repl: ${describeFailure(error, this.#connection.url).message}`);
      } finally {
        this.#running = undefined;
      }
    } finally {
      this.#pending -= 1;
      release();
    }
  }

  #updatePrompt(): void {
    this.#server?.setPrompt(this.prompt);
  }
}

const SHELL_COMMANDS = `Shell commands:
  .help [name]       this list and the cell methods; with a name, that method's help
  .reset             replace the current REPL with a fresh one
  .browser [id|name|default]   switch browser (without an argument: list them)
  .repl [name]       switch REPL (without an argument: list them)
  .result [cell_id]  the result of a cell a second Ctrl-C left running
  .editor, .break, .exit   as in node`;

/** Values are shown in colour on a terminal, as Node's REPL does, unless NO_COLOR is set. */
function colorsWanted(): boolean {
  return process.stdout.isTTY === true && (process.env['NO_COLOR'] ?? '') === '';
}

/** Runs the shell until the user leaves; resolves with the exit code. */
export async function shell(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('shell', { args, allowPositionals: true, options: { ...CONNECTION_FLAGS, 'no-print': { type: 'boolean' } } });
  if (positionals.length > 0) throw new UsageError(`shell takes no arguments, got ${JSON.stringify(positionals[0])}`, 'shell');
  const connection = connectionFrom(values, 'shell');
  const client = createClient({ baseUrl: connection.url, token: connection.token });
  try {
    await client.health();
    if (connection.browser !== undefined) await client.browsers.retrieve(connection.browser);
  } catch (error) {
    const { message, exitCode } = describeFailure(error, connection.url);
    process.stderr.write(`chromium-repl: ${message}\n`);
    return exitCode === EXIT.cellFailed ? EXIT.usage : exitCode;
  }
  process.stdout.write(`Connected to ${connection.url}. Type .help for help, Ctrl-D to leave.\n`);

  const session = new ShellSession(client, connection, { print: values['no-print'] !== true });
  const server = repl.start({
    prompt: session.prompt,
    ignoreUndefined: true,
    preview: false,
    eval: (code, _context, _file, callback) => session.evaluate(code, callback),
    // Completing names from this process's globals would offer what the server does not have.
    completer: (line: string) => {
      const commands = Object.keys(server.commands).map((name) => `.${name}`);
      return [line.startsWith('.') ? commands.filter((name) => name.startsWith(line)) : [], line];
    },
  });
  session.attach(server);
  const command = (name: string, help: string, action: (text: string) => Promise<void>) => {
    server.defineCommand(name, {
      help,
      action: (text: string) => {
        action(text.trim()).then(() => server.displayPrompt(), () => server.displayPrompt());
      },
    });
  };
  command('help', 'The shell\'s commands and the cell methods; .help <name> for one method', (text) => session.help(text));
  command('reset', 'Replace the current REPL with a fresh one', () => session.reset());
  command('browser', 'Switch browser: .browser <id|name|default>; without an argument, list them', (text) => session.browser(text));
  command('repl', 'Switch to a named REPL; without an argument, list them', (text) => session.replCommand(text));
  command('result', 'Print the result of a cell Ctrl-C left running: .result [cell_id]', (text) => session.result(text));

  const historyPath = process.env['BROWSER_REPL_HISTORY'] ?? join(homedir(), '.chromium_repl_history');
  if (historyPath !== '') {
    server.setupHistory(historyPath, (error) => {
      if (error !== null) process.stderr.write(`chromium-repl: history disabled (${historyPath}): ${error.message}\n`);
    });
  }
  await new Promise<void>((resolve) => server.once('exit', () => resolve()));
  return EXIT.ok;
}
