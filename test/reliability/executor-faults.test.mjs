// Faults of Playwright executors (issue 13), against a real headless Chromium and real worker
// threads: a worker start slower than the fixed startup budget (the budget follows the call's
// timeout_sec, and a call that runs out of it times out while the worker goes on starting), executor code that exhausts its heap, and executor code that posts a corrupt reply
// on its own worker port. Each time: the documented answer, the next call works on a fresh worker,
// and the other executors keep their worker, their page and their globals.
import t from 'tap';
import { BrowserManager, PlaywrightExecutors } from '../../dist/lib/index.js';
import { ExecutorWorker } from '../../dist/lib/executor/executor-worker.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

t.setTimeout(300_000);

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const PAGE = fixtures.url('basic.html');

/**
 * An executor worker that waits `delayMs` before it starts the real one (so before its handshake):
 * a start made slow on purpose, as a loaded machine makes it, through the `workerUrl` seam.
 */
function slowStartWorker(delayMs) {
  const main = new URL('../../dist/worker/executor/main.js', import.meta.url).href;
  const source = `await new Promise((resolve) => setTimeout(resolve, ${delayMs}));\nawait import(${JSON.stringify(main)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

t.test('startup budget: a call may spend its whole timeout_sec on a slow worker start; a spare nobody waits for has the fixed one', async (t) => {
  const browser = new BrowserManager();
  // Fixed budget 1 s, start 4 s: only a budget that follows the call can let it succeed.
  const executors = new PlaywrightExecutors({ browser, warmSpare: false, startupTimeoutMs: 1000, workerUrl: slowStartWorker(4000) });
  t.teardown(async () => { await executors.close(); await browser.close(); });

  const slow = await executors.execute({ code: 'return 6 * 7', timeoutSec: 120 });
  t.match(slow, { success: true, result: 42, stdout: '', stderr: '' }, 'timeout_sec longer than the fixed budget: the slow start succeeds');
  const firstWorker = executors.get('default').workerId;
  t.type(firstWorker, 'string');

  await executors.delete('default');
  const short = await executors.execute({ code: 'return 1', timeoutSec: 2 });
  t.match(short, {
    success: false,
    error: "execution timed out after 2000ms; the executor's worker was still starting, so the code did not run (it goes on starting, for the next call)",
    stdout: '',
    stderr: '',
  }, 'timeout_sec shorter than the start: a timeout of the call (200 over HTTP), not a failed start');
  const leftStarting = executors.get('default').workerId;
  t.type(leftStarting, 'string', 'the worker still starting stays the executor\'s');
  t.not(leftStarting, firstWorker);

  const again = await executors.execute({ code: 'return "again"', timeoutSec: 120 });
  t.match(again, { success: true, result: 'again', stdout: '', stderr: '' }, 'the next call waits for that worker and works');
  t.equal(executors.get('default').workerId, leftStarting, 'the worker the timed-out call left starting, not a new one');

  // A warm spare is started with no call waiting: the fixed budget ends it, and a call that
  // comes later is not given a dead worker back (ExecutorWorkerSupply.take() checks `alive`).
  const spare = new ExecutorWorker({
    engine: 'playwright-core', heapMb: 256, startupTimeoutMs: 300, workerUrl: slowStartWorker(4000),
    onEndpointRequest: async () => { throw new Error('a spare never connects'); },
  });
  t.teardown(() => spare.destroy());
  const exit = await spare.exited;
  t.equal(exit.deliberate, true, 'the spare was ended by its fixed budget');
  t.equal(spare.alive, false);
  await t.rejects(spare.readyWithin(60_000), {
    code: 'REPL_ERR_EXECUTOR_START_FAILED', message: 'failed to set up playwright executor: not ready within 0.3s',
  }, 'a worker whose budget ran out is not revived by a later call');

  // A call that stops waiting leaves the start going past the fixed budget, for at least the
  // grace after its own timeout, then the start is abandoned.
  const waited = new ExecutorWorker({
    engine: 'playwright-core', heapMb: 256, startupTimeoutMs: 300, workerUrl: slowStartWorker(60_000),
    onEndpointRequest: async () => { throw new Error('never connects'); },
  });
  t.teardown(() => waited.destroy());
  t.equal(await waited.readyWithin(500), false, 'the call\'s wait ran out: false, not a rejection');
  t.equal(waited.alive, true, 'still starting after the fixed budget, because a call waited longer');
  const abandoned = await waited.exited;
  t.equal(abandoned.deliberate, true, 'then abandoned');
  await t.rejects(waited.readyWithin(60_000), {
    code: 'REPL_ERR_EXECUTOR_START_FAILED', message: /^failed to set up playwright executor: not ready within 1\.5\d*s$/,
  }, 'abandoned at the call\'s wait plus the grace, counted from the start');
});

t.test('heap exhaustion and corrupt replies end only that worker; the next call works; other executors are untouched', async (t) => {
  // A small heap cap keeps the exhaustion quick; read when the registry is made.
  const savedHeap = process.env.BROWSER_REPL_HEAP_MB;
  process.env.BROWSER_REPL_HEAP_MB = '128';
  const browser = new BrowserManager();
  const executors = new PlaywrightExecutors({ browser });
  if (savedHeap === undefined) delete process.env.BROWSER_REPL_HEAP_MB;
  else process.env.BROWSER_REPL_HEAP_MB = savedHeap;
  t.teardown(async () => { await executors.close(); await browser.close(); });

  const setUp = await executors.execute({
    executor: 'bystander',
    code: `await page.goto(${JSON.stringify(PAGE)}); globalThis.kept = "kept"; return await page.title();`,
    timeoutSec: 60,
  });
  t.match(setUp, { success: true, result: 'Basic fixture' }, setUp.error);
  const bystanderWorker = executors.get('bystander').workerId;
  const bystanderTab = executors.get('bystander').targetId;
  const checkBystander = async (when) => {
    const seen = await executors.execute({ executor: 'bystander', code: 'return [globalThis.kept, page.url(), await page.title()]', timeoutSec: 60 });
    t.same(seen.result, ['kept', PAGE, 'Basic fixture'], `${when}: the bystander keeps its globals and its page (${seen.error ?? 'ok'})`);
    t.equal(executors.get('bystander').workerId, bystanderWorker, `${when}: the bystander keeps its worker`);
    t.equal(executors.get('bystander').targetId, bystanderTab, `${when}: the bystander keeps its tab`);
  };

  const warm = await executors.execute({ executor: 'victim', code: 'return await page.evaluate(() => 1 + 1)', timeoutSec: 60 });
  t.match(warm, { success: true, result: 2 }, warm.error);
  const victimTab = executors.get('victim').targetId;

  await t.test('heap exhaustion', async (t) => {
    const before = executors.get('victim').workerId;
    const oom = await executors.execute({
      executor: 'victim',
      code: 'const kept = []; for (;;) kept.push({ index: kept.length, text: "x".repeat(32) + kept.length });',
      timeoutSec: 120,
    });
    t.equal(oom.success, false);
    t.equal(oom.error, 'execution failed: executor worker ran out of memory (the 128 MiB heap limit was reached); the next call starts a fresh worker');
    t.same(oom.tab, { targetId: victimTab, created: false }, 'the answer names the executor\'s tab');
    t.equal(executors.get('victim').workerId, null, 'the worker is gone');

    const next = await executors.execute({ executor: 'victim', code: 'return [typeof globalThis.kept, await page.evaluate(() => 2 + 2)]', timeoutSec: 60 });
    t.same(next.result, ['undefined', 4], `the next call works (${next.error ?? 'ok'})`);
    t.not(executors.get('victim').workerId, before, 'on a fresh worker');
    t.equal(executors.get('victim').targetId, victimTab, 'with the same tab');
    t.ok(process.memoryUsage().heapUsed < 512 * 1024 * 1024, 'the server\'s own heap is not the one that filled');
    await checkBystander('after heap exhaustion');
  });

  // The executor's worker port is in `workerData`; code can post anything on it. The main thread
  // validates every message, so a corrupt one is answered as protocol corruption of that worker.
  const corrupt = [
    ['a reply for another call', '{ type: "reply", requestId: 999, success: true, stdout: "", stderr: "" }', /^execution failed: response ID mismatch: expected \d+, got 999$/],
    ['a message without a type', '{ hello: "world" }', /^execution failed: executor worker sent a malformed message \(message type must be a string, got undefined\)$/],
    ['a reply of the wrong shape', '{ type: "reply", requestId: -1, success: "yes" }', /^execution failed: (executor worker sent a malformed message \(reply message: .+\)|response ID mismatch: expected \d+, got -1)$/],
    ['a value that cannot be a message', '42', /^execution failed: executor worker sent a malformed message \(expected a message object, got number\)$/],
  ];
  for (const [name, message, expected] of corrupt) {
    await t.test(`corrupt reply: ${name}`, async (t) => {
      const before = executors.get('victim').workerId;
      const broken = await executors.execute({
        executor: 'victim',
        code: `const { workerData } = await import("node:worker_threads"); workerData.port.postMessage(${message}); await new Promise(() => {});`,
        timeoutSec: 60,
      });
      t.equal(broken.success, false);
      t.match(broken.error, expected);
      t.equal(executors.get('victim').workerId, null, 'the corrupt worker was ended');

      const next = await executors.execute({ executor: 'victim', code: 'return await page.evaluate(() => 3 + 3)', timeoutSec: 60 });
      t.same(next.result, 6, `the next call works (${next.error ?? 'ok'})`);
      t.not(executors.get('victim').workerId, before, 'on a fresh worker');
      t.equal(executors.get('victim').targetId, victimTab, 'with the same tab');
      await checkBystander(`after ${name}`);
    });
  }
});
