// `chromium-repl shell` driven through a pseudo-terminal (util-linux `script`), as a person would
// use it: multi-line input, values printed, .reset, Ctrl-C during a long cell (and typed together
// with its Enter), switching REPLs, the history file. Waits are for output to appear (each
// bounded so a failure ends the test), never for time.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// node:repl's prompt for a line that continues a cell: `... ` up to Node 22, `| ` from Node 24.
const CONTINUATION = /(?:\.\.\.|\|) $/;
import { startServer } from '../../dist/lib/index.js';

const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));
const SCRIPT = '/usr/bin/script';
// 1×1 PNG.
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** Bound of one wait, so that a shell that never answers fails the test instead of hanging it. */
const WAIT_BOUND_MS = 60_000;

const quote = (value) => `'${value.replaceAll("'", "'\\''")}'`;
// Cursor moves and line clearing of readline: what remains is the text a person reads.
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/** A shell in a pseudo-terminal: `send` keystrokes, `expect` output after the last mark. */
function ptyShell(t, args, env) {
  const command = [process.execPath, MAIN, 'shell', ...args].map(quote).join(' ');
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let mark = 0;
  const waiters = new Set();
  const check = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    output += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    output += chunk;
    check();
  });
  const closed = once(child, 'close');
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await closed;
    }
  });
  return {
    get output() {
      return stripAnsi(output);
    },
    send(keys) {
      mark = stripAnsi(output).length;
      child.stdin.write(keys);
    },
    /** Resolves with the cleaned output after the last `send` once it matches `pattern`. */
    expect(pattern) {
      return new Promise((resolve, reject) => {
        const waiter = () => {
          const text = stripAnsi(output).slice(mark);
          if (pattern.test(text)) {
            cleanup();
            resolve(text);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in the shell's output after the last input; it was:\n${stripAnsi(output).slice(mark)}`));
        }, WAIT_BOUND_MS);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        waiters.add(waiter);
        waiter();
      });
    },
    closed,
  };
}

t.test('chromium-repl shell', async (t) => {
  if (!existsSync(SCRIPT)) {
    // Like the browser tier without Chromium: say what is missing instead of skipping.
    t.fail(`${SCRIPT} is needed to give the shell a terminal: apt-get install util-linux`);
    return;
  }
  // A long interrupt grace: a cell no interrupt check reaches stays running after a Ctrl-C for as
  // long as the test needs (the second Ctrl-C, .result), and ends when the test deletes its REPL.
  const api = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: false, interruptGraceMs: 120_000 } });
  t.teardown(() => api.close());
  const home = mkdtempSync(join(tmpdir(), 'chromium-repl-shell-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const history = join(home, 'history');
  const env = { ...process.env, HOME: home, BROWSER_REPL_HISTORY: history, TERM: 'xterm' };
  delete env.BROWSER_REPL_URL;
  delete env.BROWSER_REPL_TOKEN;
  const shell = ptyShell(t, ['--url', api.url, '--out-dir', home], env);

  await shell.expect(/Connected to .*\nchromium-repl> $/);

  t.test('multi-line input: a function spread over lines, then called', async (t) => {
    shell.send('function add(a, b) {\r');
    await shell.expect(CONTINUATION);
    shell.send('  return a +\r');
    await shell.expect(CONTINUATION);
    shell.send('    b\r');
    await shell.expect(CONTINUATION);
    shell.send('}\r');
    await shell.expect(/chromium-repl> $/);
    shell.send('repl.write(add(2, 3))\r');
    const text = await shell.expect(/\n5\nchromium-repl> $/);
    t.notMatch(text, /Uncaught/);
  });

  t.test('a failing cell prints its error and returns to the prompt', async (t) => {
    shell.send('null.boom\r');
    t.match(await shell.expect(/chromium-repl> $/), /Uncaught TypeError: Cannot read properties of null/);
  });

  t.test('.reset: the bindings are gone afterwards', async (t) => {
    shell.send('repl.write(typeof add)\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\nfunction\n/);
    shell.send('.reset\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\(REPL "default" reset: its bindings are gone\)/);
    shell.send('repl.write(typeof add)\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\nundefined\n/);
  });

  t.test('the value of the last expression is printed as Node\'s REPL prints it', async (t) => {
    shell.send('1 + 1\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\n2\n/);
    shell.send('"text"\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\n'text'\n/);
    shell.send('const point = { x: 1, tags: ["a"] }; point\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\n\{ x: 1, tags: \[ 'a' \] \}\n/);
    shell.send('undefined\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /^undefined\nchromium-repl> $/, 'undefined prints nothing (the line is the echo of the input)');
  });

  t.test('Ctrl-C during a running cell interrupts it; the REPL and its bindings are kept', async (t) => {
    shell.send('let counted = 0\r');
    await shell.expect(/\nchromium-repl> $/);
    shell.send('console.log("started"); while (true) counted++\r');
    await shell.expect(/\nstarted\n/);
    shell.send('\x03');
    const text = await shell.expect(/\nchromium-repl> $/);
    t.match(text, /\(interrupted: the REPL and its bindings are kept\)\nchromium-repl> $/);
    t.notMatch(text, /Uncaught/);
    shell.send('counted > 0\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\ntrue\n/, 'the binding is there, with what the cell did to it');
  });

  // The cause of the Ctrl-C the issue saw ignored: keys that arrive in one read of the terminal
  // (Enter, then Ctrl-C, typed fast or while the shell was busy) are handled in one go, before the
  // cell had its turn; the shell took Ctrl-C over only then, so node:repl's own handler got it
  // ("To exit, press Ctrl+C again", and a second one closed the shell while the cell ran on to
  // its timeout).
  t.test('Ctrl-C typed together with Enter stops the cell before it is sent, not the shell', async (t) => {
    shell.send('globalThis.sentAnyway = true; while (true) {}\r\x03\x03');
    const text = await shell.expect(/\(interrupted before it was sent: the cell did not run\)\n(?:.|\n)*chromium-repl> $/);
    t.notMatch(text, /To exit/);
    shell.send('typeof globalThis.sentAnyway\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /\n'undefined'\n/, 'the cell never ran, and the shell answers at once');
  });

  t.test('a second Ctrl-C stops waiting for a cell no check reaches; .result fetches it once it ended', async (t) => {
    shell.send('.repl slow\r');
    await shell.expect(/chromium-repl \(repl slow\)> $/);
    // A loop inside an imported module reaches no interrupt check: the interrupt waits for the grace period.
    const spin = JSON.stringify(new URL('../fixtures/modules/spin.mjs', import.meta.url).href);
    shell.send(`const { spin } = await import(${spin}); console.log("started"); spin()\r`);
    await shell.expect(/\nstarted\n/);
    // The first Ctrl-C asks the server to interrupt it; the second, before the answer, detaches.
    shell.send('\x03');
    shell.send('\x03');
    const text = await shell.expect(/the cell keeps running on the server[^\n]*\nchromium-repl \(repl slow\)> $/);
    t.match(text, /\.result prints its result/);

    shell.send('.result\r');
    t.match(await shell.expect(/\nchromium-repl \(repl slow\)> $/), /is still running; try \.result again later\)/);
    // Deleting the REPL ends the cell (its worker); its result is kept.
    const deleted = await fetch(`${api.url}/repls/slow`, { method: 'DELETE' });
    t.equal(deleted.status, 204);
    for (;;) {
      shell.send('.result\r');
      const answer = await shell.expect(/\nchromium-repl \(repl slow\)> $/);
      if (answer.includes('still running')) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      t.match(answer, /\(cell [0-9a-f-]{36} failed in \d+ ms\)\nstarted\n/, 'the whole output of the cell, once it ended');
      break;
    }
    shell.send('.repl default\r');
    await shell.expect(/\nchromium-repl> $/);
  });

  t.test('an image is saved to --out-dir and its path printed', async (t) => {
    shell.send(`await repl.emitImage(Buffer.from("${PNG_B64}", "base64"))\r`);
    const text = await shell.expect(/\nchromium-repl> $/);
    t.match(text, `image: ${join(home, 'image-1.png')} (image/png, 70 bytes)\n`);
    t.same(readFileSync(join(home, 'image-1.png')), Buffer.from(PNG_B64, 'base64'));
  });

  t.test('.help name prints the server\'s help of that method', async (t) => {
    shell.send('.help repl.write\r');
    t.match(await shell.expect(/\nchromium-repl> $/), /repl\.write\(value: unknown\): void/);
  });

  t.test('leaving writes the history file', async (t) => {
    shell.send('.exit\r');
    const [code] = await shell.closed;
    t.equal(code, 0);
    const lines = readFileSync(history, 'utf8').split('\n');
    t.ok(lines.includes('repl.write(add(2, 3))'), lines.join(' | '));
    t.ok(lines.includes('.reset'));
  });
});
