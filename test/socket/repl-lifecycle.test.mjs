// docs/lifecycle.md, "Outcomes": one test per row of the lifecycle table, checking repl_id,
// repl_terminated and the exact text.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRepl } from '../../dist/lib/index.js';
import { liveWorkerThreads } from '../../dist/lib/repl/repl-worker.js';
import { apiServer, texts } from '../helpers/api-server.mjs';

const fixtureWorker = (name) => new URL(`../fixtures/workers/${name}.mjs`, import.meta.url);
/** A cell that calls a loop of an imported module: no interrupt check reaches it (issue 15). */
const SPIN = `(await import(${JSON.stringify(new URL('../fixtures/modules/spin.mjs', import.meta.url).href)})).spin()`;

t.test('lifecycle over HTTP', async (t) => {
  const api = await apiServer(t);

  t.test('success, JS error, syntax error, static import, TDZ and redeclaration keep the repl_id', async (t) => {
    const first = await api.repl('let keep = 1; repl.write("ok")');
    t.same(first.content, [{ type: 'text', channel: 'write', text: 'ok' }]);
    t.equal(first.content_truncated, false);
    t.type(first.duration_ms, 'number');
    t.notOk('repl_terminated' in first);
    const cases = [
      ['throw new Error("boom")', 'boom'],
      ['let = ;', null],
      ['import fs from "node:fs"', 'static import/export is not supported in the browser REPL; use dynamic import() instead'],
      ['repl.write(String(late)); let late = 1', "Cannot access 'late' before initialization"],
      ['let keep = 2', "Identifier 'keep' has already been declared; use a new name or reset the REPL to retry, or wrap the cell in { … } so its let, const and class are scoped to the block and it can be re-run"],
    ];
    for (const [code, error] of cases) {
      const result = await api.repl(code);
      t.equal(result.success, false, code);
      t.equal(result.repl_id, first.repl_id, code);
      t.notOk('repl_terminated' in result, code);
      if (error !== null) t.equal(result.error, error, code);
      t.type(result.error, 'string');
    }
    const after = await api.repl('repl.write(String(keep))');
    t.equal(after.repl_id, first.repl_id);
    t.same(texts(after), ['1']);
  });

  t.test('a settled unhandled rejection during and between cells is a stderr item; the REPL survives', async (t) => {
    const during = await api.repl('Promise.reject(new Error("nobody listens")); await new Promise((r) => setTimeout(r, 50))');
    t.equal(during.success, true);
    t.notOk('repl_terminated' in during);
    const note = during.content.find((item) => item.channel === 'stderr');
    t.match(note.text, /^browser-repl: unhandled promise rejection \(the REPL survives; only the rejected promise is settled\):\nError: nobody listens/);
    await api.repl('setTimeout(() => Promise.reject("later"), 10)');
    await sleep(100);
    const next = await api.repl('repl.write("next")');
    t.equal(next.repl_id, during.repl_id);
    t.same(next.content.map((item) => item.channel), ['stderr', 'write']);
    t.equal(next.content[0].text, "browser-repl: unhandled promise rejection (the REPL survives; only the rejected promise is settled):\n'later'");
  });

  t.test('reset with empty code answers exactly {success, repl_id} with a new id', async (t) => {
    const before = await api.repl('var gone = 1');
    const response = await api.call('POST', '/repl', { code: '', reset: true });
    t.equal(response.status, 200);
    t.same(Object.keys(response.json).sort(), ['repl_id', 'success']);
    t.equal(response.json.success, true);
    t.not(response.json.repl_id, before.repl_id);
    const after = await api.repl('repl.write(typeof gone)');
    t.equal(after.repl_id, response.json.repl_id);
    t.same(texts(after), ['undefined']);
  });

  t.test('reset with code runs the code in the new REPL', async (t) => {
    const before = await api.repl('var stale = 1');
    const result = await api.repl('repl.write(typeof stale + " " + repl.id)', { reset: true });
    t.not(result.repl_id, before.repl_id);
    t.same(texts(result), [`undefined ${result.repl_id}`]);
    t.notOk('repl_terminated' in result);
  });

  t.test('timeout while the event loop is free: interrupted, partial content, same id, bindings kept', async (t) => {
    const before = await api.repl('var keptAcrossTimeout = "kept"; repl.write("x")');
    const result = await api.repl('repl.write("started"); await new Promise(() => {})', { timeout_sec: 1 });
    t.equal(result.success, false);
    t.equal(result.repl_id, before.repl_id);
    t.equal(result.interrupted, true);
    t.equal(result.repl_terminated, undefined);
    t.match(result.error, /^execution timed out after 1000ms; the cell was interrupted; the REPL and its bindings are kept/);
    t.same(texts(result), ['started']);
    const next = await api.repl('repl.write(keptAcrossTimeout)');
    t.equal(next.repl_id, before.repl_id);
    t.same(texts(next), ['kept']);
  });

  t.test('timeout in code no check reaches (an imported loop): same wording as before, terminated, output before the loop kept', async (t) => {
    const before = await api.repl('repl.write("x")');
    const result = await api.repl(`console.log("spinning"); ${SPIN}`, { timeout_sec: 1 });
    t.equal(result.repl_id, before.repl_id);
    t.equal(result.repl_terminated, true);
    t.equal(result.interrupted, undefined);
    t.match(result.error, /^execution timed out after 1000ms; the REPL was destroyed/);
    t.same(result.content, [{ type: 'text', channel: 'stdout', text: 'spinning' }]);
    const next = await api.repl('repl.write("fresh")');
    t.not(next.repl_id, before.repl_id);
  });

  t.test('uncaught exception while a cell runs: error, stack, partial content, terminated', async (t) => {
    const before = await api.repl('repl.write("x")');
    const result = await api.repl(
      'repl.write("before"); setTimeout(() => { throw new Error("kaboom") }, 10); await new Promise((r) => setTimeout(r, 2000))');
    t.equal(result.success, false);
    t.equal(result.repl_id, before.repl_id);
    t.equal(result.repl_terminated, true);
    t.equal(result.error, 'uncaught exception in browser REPL process: kaboom');
    t.match(result.stack, /kaboom/);
    t.same(texts(result), ['before']);
    const next = await api.repl('repl.write("fresh")');
    t.not(next.repl_id, before.repl_id);
  });

  t.test('uncaught exception between cells: the next call silently gets a fresh REPL', async (t) => {
    const before = await api.repl('setTimeout(() => { throw new Error("between") }, 10)');
    t.equal(before.success, true);
    await sleep(200);
    const next = await api.repl('repl.write("normal")');
    t.equal(next.success, true);
    t.not(next.repl_id, before.repl_id);
    t.notOk('repl_terminated' in next);
    t.same(next.content, [{ type: 'text', channel: 'write', text: 'normal' }]);
  });

  t.test('worker killed during a cell (process.exit): terminated with the exit code', async (t) => {
    const before = await api.repl('repl.write("x")');
    const result = await api.repl('repl.write("bye"); process.exit(7)');
    t.equal(result.repl_id, before.repl_id);
    t.equal(result.repl_terminated, true);
    t.equal(result.error, 'browser REPL process terminated during execution (exit code 7)');
    t.same(texts(result), ['bye']);
  });

  t.test('worker died between cells: silently fresh', async (t) => {
    const before = await api.repl('setTimeout(() => process.exit(0), 10)');
    await sleep(200);
    const next = await api.repl('repl.write("ok")');
    t.not(next.repl_id, before.repl_id);
    t.equal(next.success, true);
  });

  t.test('no replacement starts until the next request', async (t) => {
    await api.repl(SPIN, { timeout_sec: 1 });
    await sleep(100);
    t.equal(api.server.app.browsers.primary.repl().id, null);
  });

  t.test('output scheduled by a timed-out cell never leaks into a later response', async (t) => {
    const interrupted = await api.repl('setInterval(() => repl.write("ghost"), 5); await new Promise(() => {})', { timeout_sec: 1 });
    t.equal(interrupted.interrupted, true, 'the interval was cleared with the cell');
    await sleep(100);
    const next = await api.repl('repl.write("clean")');
    t.same(next.content, [{ type: 'text', channel: 'write', text: 'clean' }]);
    // And when the worker had to be ended: its interval dies with it.
    const terminated = await api.repl(`setInterval(() => repl.write("ghost"), 5); ${SPIN}`, { timeout_sec: 1 });
    t.equal(terminated.repl_terminated, true);
    await sleep(100);
    const fresh = await api.repl('repl.write("clean")');
    t.same(fresh.content, [{ type: 'text', channel: 'write', text: 'clean' }]);
  });

  t.test('client cancel after dispatch interrupts the cell; the REPL and its id are kept', async (t) => {
    const before = await api.repl('var beforeCancel = 1; repl.write("x")');
    const controller = new AbortController();
    const pending = fetch(`${api.url}/repl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'await new Promise((r) => setTimeout(r, 5000))' }),
      signal: controller.signal,
    }).catch((error) => error);
    await sleep(300);
    controller.abort();
    await pending;
    await sleep(100);
    const next = await api.repl('repl.write(String(beforeCancel))');
    t.equal(next.repl_id, before.repl_id);
    t.same(texts(next), ['1']);
  });

  t.test('a request dropped while waiting for admission never runs', async (t) => {
    await api.repl('var ranDropped = false');
    const busy = api.repl('await new Promise((r) => setTimeout(r, 600))');
    const controller = new AbortController();
    const dropped = fetch(`${api.url}/repl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'ranDropped = true' }),
      signal: controller.signal,
    }).catch((error) => error);
    await sleep(150);
    controller.abort();
    await dropped;
    await busy;
    const check = await api.repl('repl.write(String(ranDropped))');
    t.same(texts(check), ['false']);
  });
});

t.test('API shutdown: a new server starts a new REPL', async (t) => {
  const first = await apiServer(t);
  const before = await first.repl('repl.write("x")');
  await first.server.close();
  const second = await apiServer(t);
  const after = await second.repl('repl.write("y")');
  t.not(after.repl_id, before.repl_id);
  t.equal(liveWorkerThreads() >= 1, true);
});

t.test('8 concurrent requests to one REPL run one at a time', async (t) => {
  const api = await apiServer(t);
  await api.repl('var active = 0; var maxActive = 0');
  const cells = Array.from({ length: 8 }, (_, i) => api.repl(
    `active++; maxActive = Math.max(maxActive, active); await new Promise((r) => setTimeout(r, 20)); active--; repl.write("cell ${i}")`));
  const results = await Promise.all(cells);
  t.same(results.map((result) => texts(result)[0]).sort(), Array.from({ length: 8 }, (_, i) => `cell ${i}`));
  t.equal(new Set(results.map((result) => result.repl_id)).size, 1);
  t.ok(results.every((result) => result.success));
  const check = await api.repl('repl.write(String(maxActive))');
  t.same(texts(check), ['1']);
});

t.test('20 timed-out loops no check reaches in a row: each terminates, the next call works, no thread left', async (t) => {
  const repl = createRepl();
  t.teardown(() => repl.close());
  const ids = new Set();
  for (let i = 0; i < 20; i++) {
    const result = await repl.run(SPIN, { timeoutSec: 1 });
    t.equal(result.replTerminated, true);
    t.match(result.error, /^execution timed out after 1000ms; the REPL was destroyed/);
    ids.add(result.replId);
  }
  t.equal(ids.size, 20, 'every timeout destroyed a different REPL');
  const ok = await repl.run('repl.write("alive")');
  t.equal(ok.success, true);
  t.notOk(ids.has(ok.replId));
  await repl.close();
  let waited = 0;
  while (liveWorkerThreads() > 0 && waited < 5000) { await sleep(50); waited += 50; }
  t.equal(liveWorkerThreads(), 0);
});

t.test('heap cap: an allocation loop fails with repl_terminated; another REPL is unaffected', async (t) => {
  const small = createRepl({ heapMb: 64 });
  const other = createRepl();
  t.teardown(() => Promise.all([small.close(), other.close()]));
  await other.run('var survivor = "intact"');
  const result = await small.run('const hog = []; while (true) hog.push(new Array(1e6).fill(Math.random()))', { timeoutSec: 60 });
  t.equal(result.success, false);
  t.equal(result.replTerminated, true);
  t.equal(result.errorCode, 'REPL_ERR_OUT_OF_MEMORY');
  t.match(result.error, /^browser REPL process terminated during execution \(out of memory: the 64 MiB heap limit was reached\)/);
  const check = await other.run('repl.write(survivor)');
  t.same(check.content, [{ type: 'text', channel: 'write', text: 'intact' }]);
  const again = await small.run('repl.write("recovered")');
  t.equal(again.success, true);
  t.not(again.replId, result.replId);
});

t.test('protocol corruption (response id mismatch) destroys the REPL', async (t) => {
  const repl = createRepl({ workerUrl: fixtureWorker('wrong-id') });
  t.teardown(() => repl.close());
  const result = await repl.run('anything');
  t.equal(result.success, false);
  t.equal(result.replTerminated, true);
  t.equal(result.errorCode, 'REPL_ERR_PROTOCOL');
  t.match(result.error, /^response ID mismatch: expected 1, got 101$/);
  t.same(result.content, [{ type: 'text', channel: 'write', text: 'before' }]);
});

t.test('an environment update the REPL cannot take terminates it', async (t) => {
  const repl = createRepl({ workerUrl: fixtureWorker('wrong-id') });
  t.teardown(() => repl.close());
  await repl.reset();
  t.not(repl.id, null);
  const outcome = await repl.setEnv({ FOO: 'bar' });
  t.same(outcome, { replTerminated: true });
  t.equal(repl.id, null);
});

t.test('startup failures give the contract messages', async (t) => {
  const dies = createRepl({ workerUrl: fixtureWorker('exit-at-start') });
  await t.rejects(dies.run('1'), {
    code: 'REPL_ERR_START_FAILED',
    message: /^failed to start browser REPL: browser REPL exited during startup: /,
  });
  const silent = createRepl({ workerUrl: fixtureWorker('never-ready'), startupTimeoutMs: 300 });
  await t.rejects(silent.run('1'), {
    code: 'REPL_ERR_START_FAILED',
    message: 'failed to start browser REPL: browser REPL failed to start within 0.3s',
  });
  await Promise.all([dies.close(), silent.close()]);
});

t.test('process.exit() right after output: the cell ran exactly once and its output is kept (25×)', async (t) => {
  // The thread's last messages (`started`, the output) can wait in the port behind its 'exit'
  // event; read too late, the cell looked unstarted and ran again on a fresh worker.
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'browser-repl-exit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const runs = join(dir, 'runs');
  const repl = createRepl({ browser: false });
  t.teardown(() => repl.close());
  const rounds = 25;
  for (let round = 0; round < rounds; round++) {
    const before = await repl.run('repl.write("x")');
    const result = await repl.run(`(await import("node:fs")).appendFileSync(${JSON.stringify(runs)}, "x"); repl.write("bye"); process.exit(7)`);
    t.equal(result.replId, before.replId, `round ${round}: the worker that began the cell is the one reported`);
    t.equal(result.error, 'browser REPL process terminated during execution (exit code 7)');
    t.same(result.content.map((item) => item.text), ['bye'], 'the output before the exit is kept');
  }
  t.equal(readFileSync(runs, 'utf8').length, rounds, 'every cell ran exactly once');
});

t.test('close() and destroy(): concurrent callers share one end, and destroy() overtakes a close() that waits', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.destroy());
  await repl.run('var kept = 1');
  // A cell that keeps the queue busy: close() waits for it, destroy() does not.
  const running = repl.run('await new Promise((resolve) => setTimeout(resolve, 60_000))', { timeoutSec: 120 });
  const closing = repl.close();
  t.equal(repl.close(), closing, 'a second close() gets the same promise');
  t.equal(repl.state, 'closing');
  const destroying = repl.destroy();
  t.equal(repl.destroy(), destroying, 'a second destroy() gets the same promise');
  t.equal(repl.close(), destroying, 'close() after destroy() resolves with the destruction');
  await destroying;
  t.equal(repl.state, 'closed');
  const outcome = await running.then((result) => result, (error) => error);
  t.ok(outcome instanceof Error ? outcome.code === 'REPL_ERR_CLOSED' || outcome.code === 'REPL_ERR_WORKER_CRASHED' : outcome.success === false,
    `the running cell ended with the REPL (${outcome.code ?? outcome.errorCode ?? outcome.error})`);
  await closing;
  t.equal(liveWorkerThreads(), 0, 'no worker thread is left');
  await t.rejects(repl.run('1'), { code: 'REPL_ERR_CLOSED' }, 'a closed REPL takes no more cells');
});

t.test('a library caller\'s own Operation bounds the cell from its turn; mixing it with timeoutSec is refused', async (t) => {
  const { Operation } = await import('../../dist/lib/index.js');
  const repl = createRepl({ browser: false });
  t.teardown(() => repl.close());
  await t.rejects(repl.run('1', { operation: new Operation({ timeoutMs: 1000 }), timeoutSec: 5 }), { code: 'REPL_ERR_INVALID_REQUEST', message: /either operation or timeoutSec/ });
  t.throws(() => Operation.fromTimeoutSec(0, { min: 1, max: 5, defaultSec: 2, refusal: 'timeout_sec must be 1..5' }), { code: 'REPL_ERR_INVALID_REQUEST', message: 'timeout_sec must be 1..5' });
  // Queued behind a 600 ms cell, a 1 s budget still has all of its second: the clock starts at its turn.
  const first = repl.run('await new Promise((r) => setTimeout(r, 600)); repl.write("first")');
  const second = repl.run('await new Promise((r) => setTimeout(r, 700)); repl.write("second")', { operation: new Operation({ timeoutMs: 1000 }) });
  t.same(texts(await first), ['first']);
  const answered = await second;
  t.equal(answered.success, true, answered.error);
  t.same(texts(answered), ['second']);
  const late = await repl.run('while (true) {}', { operation: new Operation({ timeoutMs: 300 }) });
  t.equal(late.errorCode, 'REPL_ERR_CELL_TIMEOUT');
  t.match(late.error, /^execution timed out after 300ms/);
  t.equal(late.replId, answered.replId, 'the REPL is kept (an interrupt check reached the loop)');
  const controller = new AbortController();
  const aborted = repl.run('await new Promise(() => {})', { operation: new Operation({ timeoutMs: 60_000, signal: controller.signal }) });
  setTimeout(() => controller.abort(new Error('caller gave up')), 100);
  await t.rejects(aborted, { code: 'REPL_ERR_ABORTED' });
});
