// Issue 9, item 11: the node --test fixture's channels and error codes, the redeclaration and
// timeout messages, and the REPL worker's warnings on a real server's stderr.
import t from 'tap';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRepl } from '../../dist/lib/index.js';
import { createTestRepl } from '../../dist/lib/testing.js';

t.test('createTestRepl', async (t) => {
  const testRepl = createTestRepl({ browser: false, warmSpare: false });
  t.teardown(() => testRepl.close());
  const mixed = 'repl.write("a"); console.log("b"); console.error("c"); console.info("d"); console.warn("e"); repl.write("f")';

  t.test('#text returns the write channel only; #stdout and #stderr their own channel', async (t) => {
    t.equal(await testRepl.text(mixed), 'af');
    t.equal(await testRepl.stdout(mixed), 'bd');
    t.equal(await testRepl.stderr(mixed), 'ce');
  });

  t.test('#run rejects a failed cell with the cell error code, message, stack and result', async (t) => {
    await t.rejects(testRepl.run('throw Object.assign(new Error("custom"), { code: "E_CUSTOM" })'),
      { code: 'E_CUSTOM', message: 'cell failed: custom', stack: /--- cell stack ---\nError: custom\n {4}at /, result: { success: false } });
    await t.rejects(testRepl.run('let (;'), { code: 'REPL_ERR_CELL_SYNTAX' });
    await testRepl.run('let declaredOnce = 1');
    await t.rejects(testRepl.run('let declaredOnce = 2'), { code: 'REPL_ERR_BINDING' });
    await t.rejects(testRepl.text('repl.write("partial"); throw new TypeError("plain")'),
      { message: 'cell failed: plain', result: { content: [{ type: 'text', channel: 'write', text: 'partial' }] } });
    const plain = await testRepl.run('throw new Error("no code")').catch((error) => error);
    t.equal(plain.code, undefined, 'a thrown value without a code gives none');
  });

  t.test('#run rejects a timed-out cell with REPL_ERR_CELL_TIMEOUT', async (t) => {
    await t.rejects(testRepl.run('await new Promise(() => {})', { timeoutSec: 1 }),
      { code: 'REPL_ERR_CELL_TIMEOUT', message: /^cell failed: execution timed out after 1000ms; /, result: { interrupted: true } });
  });
});

t.test('the redeclaration error suggests a block, and a block-wrapped cell runs again', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  await repl.run('let counter = 1');
  const again = await repl.run('let counter = 2');
  t.equal(again.errorCode, 'REPL_ERR_BINDING');
  t.equal(again.error, "Identifier 'counter' has already been declared; use a new name or reset the REPL to retry, "
    + 'or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run');
  const block = '{ let counter = 10; const step = 1; class Step {} repl.write(String(counter + step)); }';
  const first = await repl.run(block);
  const second = await repl.run(block);
  t.same([first.success, second.success], [true, true], second.error);
  t.same([first.content, second.content], [[{ type: 'text', channel: 'write', text: '11' }], [{ type: 'text', channel: 'write', text: '11' }]]);
});

t.test('a timed-out cell says what happened to the REPL, and it is true', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  await repl.run('var kept = "yes"');
  const interrupted = await repl.run('await new Promise(() => {})', { timeoutSec: 1 });
  t.equal(interrupted.errorCode, 'REPL_ERR_CELL_TIMEOUT');
  t.equal(interrupted.error,
    'execution timed out after 1000ms; the cell was interrupted; the REPL and its bindings are kept (same repl_id), and bindings the cell had not initialised yet stay uninitialised');
  const kept = await repl.run('repl.write(typeof kept)');
  t.equal(kept.replId, interrupted.replId);
  t.same(kept.content, [{ type: 'text', channel: 'write', text: 'string' }], 'what the interrupted message says is true');

  const spin = new URL('../fixtures/modules/spin.mjs', import.meta.url).href;
  const timedOut = await repl.run(`(await import(${JSON.stringify(spin)})).spin()`, { timeoutSec: 1 });
  t.equal(timedOut.errorCode, 'REPL_ERR_CELL_TIMEOUT');
  t.equal(timedOut.error,
    "execution timed out after 1000ms; the REPL was destroyed, so the next call starts a fresh REPL and this REPL's bindings are gone");
  const next = await repl.run('repl.write(typeof kept)');
  t.not(next.replId, timedOut.replId);
  t.same(next.content, [{ type: 'text', channel: 'write', text: 'undefined' }], 'what the destroyed message says is true');
});

const CLI = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));

/**
 * `chromium-repl serve` as a child process of this Node, on a free port. Its environment lacks
 * NODE_OPTIONS, so no warning flag of the test runner's reaches it. Ended in a teardown.
 */
async function serveChild(t) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  let stdout = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match !== null) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    /** Shuts the server down the way a service manager would and resolves its whole stderr. */
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return stderr;
    },
  };
}

t.test("REPL and executor workers print no warning for the runtime's own experimental features, and every other one", async (t) => {
  const server = await serveChild(t);
  const response = await fetch(`${server.url}/repl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code: `
        // Every cell is a vm.SourceTextModule (the VM Modules warning); a script compiled with
        // USE_MAIN_CONTEXT_DEFAULT_LOADER warns on import() (Node versions that have the constant).
        const vm = await import("node:vm");
        const loader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
        if (loader !== undefined) await new vm.Script('import("node:path")', { importModuleDynamically: loader }).runInThisContext();
        process.emitWarning("Probe feature is an experimental feature and might change at any time", "ExperimentalWarning");
        repl.write(String(loader !== undefined));
      `,
    }),
  });
  const result = await response.json();
  t.equal(result.success, true, result.error);
  t.equal(result.content[0].text, 'true', 'this Node has vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER');
  // Executor code runs in a script compiled with that loader: its import() must not warn either.
  const executed = await fetch(`${server.url}/playwright/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'return (await import("node:path")).sep' }),
  }).then((answer) => answer.json());
  t.same({ success: executed.success, result: executed.result }, { success: true, result: '/' }, executed.error ?? 'the executor imported a module');
  const stderr = await server.stop();
  t.match(stderr, /ExperimentalWarning: Probe feature is an experimental feature/, 'other experimental warnings are printed');
  t.notMatch(stderr, /VM Modules/);
  t.notMatch(stderr, /USE_MAIN_CONTEXT_DEFAULT_LOADER/);
});
