// `chromium-repl run` as a real process against a real server on loopback (no browser): output
// on the right streams, exit codes 0/1/2, stdin input, images saved to files.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../dist/lib/index.js';
import { imageFormat } from '../helpers/images.mjs';

const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));
// 1×1 PNG.
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The environment of a child: none of the settings of whoever runs the tests. */
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const name of ['BROWSER_REPL_URL', 'BROWSER_REPL_TOKEN']) if (!(name in extra)) delete env[name];
  return env;
}

/** Runs the CLI to its end: `{ code, stdout, stderr }`. */
async function cli(args, { env = {}, input, cwd } = {}) {
  const child = spawn(process.execPath, [MAIN, ...args], { env: childEnv(env), cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  child.stdin.end(input);
  const [code] = await once(child, 'close');
  return { code, stdout, stderr };
}

async function server(t, options = {}) {
  const started = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: false }, ...options });
  t.teardown(() => started.close());
  return started;
}

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-repl-cli-run-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('chromium-repl run', async (t) => {
  const api = await server(t);

  t.test('exit 0: write and console output on stdout, console.error on stderr', async (t) => {
    const { code, stdout, stderr } = await cli(['run', '--url', api.url, 'repl.write("a"); console.log("b"); repl.write("c"); console.error("oops")']);
    t.equal(code, 0, stderr);
    t.equal(stdout, 'a\nb\nc\n', 'a console line starts on a line of its own, and the output ends with a newline');
    t.equal(stderr, 'oops\n');
  });

  t.test('exit 1 for a throwing cell, with the error and stack on stderr', async (t) => {
    const { code, stdout, stderr } = await cli(['run', '--url', api.url, 'repl.write("before"); function boom() { throw new TypeError("bad input") }\nboom()']);
    t.equal(code, 1);
    t.equal(stdout, 'before\n');
    t.match(stderr, /^Uncaught TypeError: bad input\n\s+at boom \(browser-repl-cell-\d+\.mjs:1:\d+\)/);
  });

  t.test('exit 1 for a cell that times out, saying what became of the REPL', async (t) => {
    const { code, stderr } = await cli(['run', '--url', api.url, '--repl', 'slow', '--timeout', '1', 'await new Promise(() => {})']);
    t.equal(code, 1);
    t.match(stderr, /Uncaught .*tim/i);
    t.match(stderr, /\(the cell was interrupted at its timeout: the REPL and its bindings are kept\)/);
    const spin = new URL('../fixtures/modules/spin.mjs', import.meta.url).href;
    const ended = await cli(['run', '--url', api.url, '--repl', 'slow', '--timeout', '1', `(await import(${JSON.stringify(spin)})).spin()`]);
    t.equal(ended.code, 1);
    t.match(ended.stderr, /the REPL was terminated/);
  });

  t.test('the value of the last expression is printed as node -p prints it; --no-print turns it off', async (t) => {
    for (const [cell, printed] of [
      ['1+1', '2\n'],
      ['"abc"', 'abc\n'],
      ['repl.write("a"); const x = 3; ({ list: [1, 2], twice: x * 2 });', 'a\n{ list: [ 1, 2 ], twice: 6 }\n'],
      ['await Promise.resolve(undefined)', ''],
    ]) {
      const { code, stdout, stderr } = await cli(['run', '--url', api.url, '--repl', 'values', cell]);
      t.equal(code, 0, `${cell}: ${stderr}`);
      t.equal(stdout, printed, cell);
    }
    const help = await cli(['run', '--url', api.url, 'repl.help("repl.write")']);
    t.equal(help.stdout.split('repl.write(value: unknown): void').length, 2, 'repl.help writes its text once; its value is not printed again');
    t.equal((await cli(['run', '--url', api.url, '--no-print', '1+1'])).stdout, '');
    const failing = await cli(['run', '--url', api.url, '1 +\n  undefinedName']);
    t.equal(failing.code, 1);
    t.match(failing.stderr, /ReferenceError: undefinedName is not defined\n\s+at browser-repl-cell-\d+\.mjs:2:/, 'the line of the error is the line as written');
  });

  t.test('SIGINT interrupts the cell on the server (exit 130); the REPL and its bindings are kept', async (t) => {
    t.equal((await cli(['run', '--url', api.url, '--repl', 'stopped', 'var keptAcrossSigint = "kept"'])).code, 0);
    const child = spawn(process.execPath, [MAIN, 'run', '--url', api.url, '--repl', 'stopped', 'console.log("started"); while (true) {}'], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    await new Promise((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('started')) resolve();
      });
    });
    child.kill('SIGINT');
    const [code] = await once(child, 'close');
    t.equal(code, 130);
    t.equal(stderr, '(interrupted: the REPL and its bindings are kept)\n');
    const after = await cli(['run', '--url', api.url, '--repl', 'stopped', 'keptAcrossSigint']);
    t.equal(after.stdout, 'kept\n');
  });

  t.test('- reads the cell from stdin; BROWSER_REPL_URL names the server', async (t) => {
    const { code, stdout } = await cli(['run', '-'], { env: { BROWSER_REPL_URL: api.url }, input: 'const answer = 6 * 7;\nrepl.write(answer)\n' });
    t.equal(code, 0);
    t.equal(stdout, '42\n');
  });

  t.test('--repl and --reset address a named REPL and replace it', async (t) => {
    t.equal((await cli(['run', '--url', api.url, '--repl', 'kept', 'var kept = 1'])).code, 0);
    t.equal((await cli(['run', '--url', api.url, '--repl', 'kept', 'repl.write(typeof kept)'])).stdout, 'number\n');
    t.equal((await cli(['run', '--url', api.url, '--repl', 'kept', '--reset', 'repl.write(typeof kept)'])).stdout, 'undefined\n');
  });

  t.test('images are saved to --out-dir as image-<n>.png, their paths on stderr, never overwriting', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'image-1.png'), 'an earlier run');
    const cell = `await repl.emitImage(Buffer.from("${PNG_B64}", "base64")); repl.write("done"); await repl.emitImage("data:image/png;base64,${PNG_B64}")`;
    const { code, stdout, stderr } = await cli(['run', '--url', api.url, '--out-dir', join(dir, 'shots'), cell]);
    t.equal(code, 0, stderr);
    t.equal(stdout, 'done\n');
    const saved = readdirSync(join(dir, 'shots')).sort();
    t.same(saved, ['image-1.png', 'image-2.png']);
    for (const name of saved) {
      const bytes = readFileSync(join(dir, 'shots', name));
      t.equal(imageFormat(bytes), 'png');
      t.same(bytes, Buffer.from(PNG_B64, 'base64'));
    }
    t.match(stderr, `image: ${join(dir, 'shots', 'image-1.png')} (image/png, 70 bytes)\n`);

    const again = await cli(['run', '--url', api.url, `await repl.emitImage(Buffer.from("${PNG_B64}", "base64"))`], { cwd: dir });
    t.equal(again.code, 0);
    t.equal(readFileSync(join(dir, 'image-1.png'), 'utf8'), 'an earlier run', 'the existing file is kept');
    t.same(readdirSync(dir).filter((name) => name.endsWith('.png')).sort(), ['image-1.png', 'image-2.png']);
    t.match(again.stderr, /^image: image-2\.png \(image\/png, 70 bytes\)$/m, 'the default folder is the current directory');
  });

  t.test('exit 2 for usage errors', async (t) => {
    for (const [args, message] of [
      [['run', '--url', api.url], /needs the cell's code/],
      [['run', '--url', api.url, 'a', 'b'], /one argument/],
      [['run', '--url', api.url, '--timeout', 'soon', '1'], /--timeout must be an integer between 1 and 300, got "soon"/],
      [['run', '--url', api.url, '--timeout', '301', '1'], /--timeout must be an integer between 1 and 300/],
      [['run', '--url', 'ftp://example/', '1'], /--url must be an http:\/\/ or https:\/\/ URL/],
      [['run', '--url', api.url, '--frobnicate', '1'], /Unknown option '--frobnicate'/],
      [['run', '--url', api.url, '   '], /the code is empty/],
    ]) {
      const { code, stdout, stderr } = await cli(args);
      t.equal(code, 2, args.join(' '));
      t.equal(stdout, '');
      t.match(stderr, message);
      t.match(stderr, /chromium-repl help run/);
    }
  });

  t.test('exit 2 for a 4xx answer (an unknown browser, an invalid REPL name)', async (t) => {
    const unknown = await cli(['run', '--url', api.url, '--browser', 'nowhere', '1']);
    t.equal(unknown.code, 2);
    t.match(unknown.stderr, /404 REPL_ERR_NOT_FOUND/);
    const invalid = await cli(['run', '--url', api.url, '--repl', 'not a name', '1']);
    t.equal(invalid.code, 2);
    t.match(invalid.stderr, /400 REPL_ERR_INVALID_REQUEST/);
  });
});

t.test('exit 2 when nothing listens at --url', async (t) => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const { code, stdout, stderr } = await cli(['run', '--url', `http://127.0.0.1:${port}`, '1']);
  t.equal(code, 2);
  t.equal(stdout, '');
  t.match(stderr, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  t.match(stderr, /BROWSER_REPL_URL/);
});

t.test('exit 2 for a missing or wrong token; 0 with the right one (flag or environment)', async (t) => {
  const api = await server(t, { token: 'sesame' });
  for (const token of [undefined, 'wrong']) {
    const { code, stderr } = await cli(['run', '--url', api.url, ...(token === undefined ? [] : ['--token', token]), '1']);
    t.equal(code, 2, `token ${token}`);
    t.match(stderr, /refused the token \(REPL_ERR_UNAUTHORIZED\).*--token.*BROWSER_REPL_TOKEN/);
  }
  t.equal((await cli(['run', '--url', api.url, '--token', 'sesame', 'repl.write(1)'])).stdout, '1\n');
  t.equal((await cli(['run', '--url', api.url, 'repl.write(2)'], { env: { BROWSER_REPL_TOKEN: 'sesame' } })).stdout, '2\n');
});

t.test('help', async (t) => {
  const overall = await cli(['--help']);
  t.equal(overall.code, 0);
  t.match(overall.stdout, /chromium-repl run \[options\] '<code>'/);
  t.match(overall.stdout, /chromium-repl shell/);
  for (const command of ['serve', 'run', 'shell', 'install-browser']) {
    const { code, stdout } = await cli(['help', command]);
    t.equal(code, 0, command);
    t.match(stdout, new RegExp(`^Usage: chromium-repl (\\[)?${command}`), command);
  }
  t.same(await cli(['run', '--help']), await cli(['help', 'run']), '<command> --help is help <command>');
  const unknown = await cli(['frobnicate']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown command "frobnicate"/);
});
