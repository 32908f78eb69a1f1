// Issue 27: a running cell is interrupted on demand, with the cooperative mechanism behind
// timeouts (docs/lifecycle.md "Interrupted"): repl.interrupt(), POST /repl/interrupt (default and
// named REPLs, /browsers/{id}/…, cell_id), the typed client, an aborted signal. Bindings and
// repl_id are kept; other REPLs run on undisturbed. Real worker threads and HTTP, no browser
// (test/browser/interrupts.test.mjs interrupts a cell waiting on a page).
import t from 'tap';
import { createClient } from '../../dist/lib/client/index.js';
import { createRepl } from '../../dist/lib/index.js';
import { apiServer, texts } from '../helpers/api-server.mjs';
import { openStream } from '../helpers/sse.mjs';

const SPIN_MODULE = JSON.stringify(new URL('../fixtures/modules/spin.mjs', import.meta.url).href);
const KEPT = /^the cell was interrupted after \d+ms; the REPL and its bindings are kept \(same repl_id\)/;
const textsOf = (result) => (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text);

/** Starts `code` (which writes "started" first) and resolves once the worker has produced that output. */
function startCell(repl, code, options = {}) {
  let onStarted;
  const started = new Promise((resolve) => { onStarted = resolve; });
  const result = repl.run(code, { ...options, onOutput: (item) => { if (item.type === 'text' && item.text === 'started') onStarted(); } });
  return { result, started: Promise.race([started, result]) };
}

t.test('library: repl.interrupt()', async (t) => {
  const repl = createRepl({ browser: false });
  t.teardown(() => repl.close());
  const first = await repl.run('let taught = 41; const next = (n) => n + 1');

  t.test('a busy loop is stopped; bindings and repl_id are kept', async (t) => {
    const cell = startCell(repl, 'let late = 1; while (true) if (++late === 100) repl.write("started")');
    await cell.started;
    t.same(await repl.interrupt(), { interrupted: true });
    const result = await cell.result;
    t.match(result, { success: false, interrupted: true, errorCode: 'REPL_ERR_CELL_INTERRUPTED', replId: first.replId });
    t.equal(result.replTerminated, undefined);
    t.match(result.error, KEPT);
    t.same(textsOf(result), ['started'], 'the output before the interrupt is in the result');
    const after = await repl.run('repl.write(`${next(taught)} ${late > 1}`)');
    t.equal(after.replId, first.replId);
    t.same(textsOf(after), ['42 true'], 'the earlier bindings, and the ones the cell initialised');
  });

  t.test('a cell waiting on a timer is stopped, and its timer never fires later', async (t) => {
    const cell = startCell(repl, 'repl.write("started"); await new Promise((resolve) => setTimeout(() => { globalThis.fired = true; resolve(); }, 500)); repl.write("after")');
    await cell.started;
    t.same(await repl.interrupt(), { interrupted: true });
    const result = await cell.result;
    t.equal(result.interrupted, true);
    t.same(textsOf(result), ['started']);
    await new Promise((resolve) => setTimeout(resolve, 700));
    t.same(textsOf(await repl.run('repl.write(String(globalThis.fired))')), ['undefined']);
  });

  t.test('nothing running: interrupted false, and the next cell runs as usual', async (t) => {
    t.same(await repl.interrupt(), { interrupted: false });
    t.same(textsOf(await repl.run('repl.write(String(taught))')), ['41']);
  });

  t.test('by cellId: a queued cell never runs, the running one is left alone until named', async (t) => {
    const running = startCell(repl, 'repl.write("started"); while (true) {}', { cellId: 'running' });
    const queued = repl.run('globalThis.queuedRan = true', { cellId: 'queued' });
    await running.started;
    t.same(await repl.interrupt({ cellId: 'someone-else' }), { interrupted: false }, 'an unknown id stops nothing');
    t.same(await repl.interrupt({ cellId: 'queued' }), { interrupted: true, cellId: 'queued' });
    t.same(await repl.interrupt({ cellId: 'running' }), { interrupted: true, cellId: 'running' });
    t.equal((await running.result).errorCode, 'REPL_ERR_CELL_INTERRUPTED');
    const dropped = await queued;
    t.match(dropped, { success: false, interrupted: true, errorCode: 'REPL_ERR_CELL_INTERRUPTED' });
    t.match(dropped.error, /before it started, so none of it ran/);
    t.same(textsOf(await repl.run('repl.write(String(globalThis.queuedRan))')), ['undefined']);
  });

  t.test('a loop no check reaches ends the worker after the grace period (replTerminated)', async (t) => {
    const before = await repl.run('var lost = 1');
    // No check between the write and the loop of the imported module.
    const cell = startCell(repl, `const { spin } = await import(${SPIN_MODULE}); repl.write("started"); spin()`);
    await cell.started;
    t.same(await repl.interrupt(), { interrupted: true, replTerminated: true });
    const result = await cell.result;
    t.match(result, { success: false, replTerminated: true, errorCode: 'REPL_ERR_CELL_INTERRUPTED' });
    t.match(result.error, /reached no interrupt check within 400ms .*the REPL was destroyed/);
    const next = await repl.run('repl.write(typeof lost)');
    t.not(next.replId, before.replId);
    t.same(textsOf(next), ['undefined']);
  });

  t.test('an aborted run signal interrupts too (REPL_ERR_ABORTED), and the REPL is kept', async (t) => {
    const before = await repl.run('var beforeAbort = "kept"');
    const controller = new AbortController();
    const cell = startCell(repl, 'repl.write("started"); while (true) {}', { signal: controller.signal });
    await cell.started;
    controller.abort();
    await t.rejects(cell.result, { code: 'REPL_ERR_ABORTED' });
    const next = await repl.run('repl.write(beforeAbort)');
    t.equal(next.replId, before.replId);
    t.same(textsOf(next), ['kept']);
  });

  t.test('with interruptChecks: false an interrupt ends the worker, as a timeout does', async (t) => {
    const plain = createRepl({ browser: false, warmSpare: false, interruptChecks: false });
    t.teardown(() => plain.close());
    const before = await plain.run('var gone = 1');
    const cell = startCell(plain, 'repl.write("started"); while (true) {}');
    await cell.started;
    t.same(await plain.interrupt(), { interrupted: true, replTerminated: true });
    t.match((await cell.result).error, /runs without interrupt checks \(interruptChecks: false\)/);
    t.not((await plain.run('1')).replId, before.replId);
  });
});

t.test('HTTP: POST /repl/interrupt', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  const stream = (path, body) => openStream(api.url, path, body);
  /** Opens a streamed cell that writes "started" and resolves once that output arrived. */
  async function running(path, body) {
    const open = await stream(path, body);
    const cell = await open.next();
    t.equal(cell.event, 'cell');
    const content = await open.next();
    t.match(content, { event: 'content', data: { text: 'started' } });
    return { open, cellId: cell.data.cell_id };
  }

  t.test('the default and a named REPL are interrupted while a third REPL\'s cell runs on undisturbed', async (t) => {
    await api.repl('let base = "default kept"');
    await api.repl('let named = "named kept"', { repl: 'worker-a' });
    // The bystander counts to a bound in small steps: it must finish with every step done.
    const bystander = api.repl('repl.write("started"); let steps = 0; for (let i = 0; i < 40; i++) { await new Promise((r) => setTimeout(r, 25)); steps++ } repl.write(` steps=${steps}`)', { repl: 'bystander' });
    const spinning = await running('/repl', { code: 'repl.write("started"); while (true) {}' });
    const named = await running('/repl', { code: 'repl.write("started"); await new Promise(() => {})', repl: 'worker-a' });

    const defaultAnswer = await api.call('POST', '/repl/interrupt', {});
    t.same(defaultAnswer.json, { interrupted: true, repl: 'default', cell_id: spinning.cellId });
    const defaultResult = (await spinning.open.rest()).at(-1);
    t.match(defaultResult, { event: 'result', data: { success: false, interrupted: true } });
    t.match(defaultResult.data.error, KEPT);

    const namedAnswer = await api.call('POST', '/repl/interrupt', { repl: 'worker-a', cell_id: named.cellId });
    t.same(namedAnswer.json, { interrupted: true, repl: 'worker-a', cell_id: named.cellId });
    t.match((await named.open.rest()).at(-1), { event: 'result', data: { interrupted: true } });

    const finished = await bystander;
    t.equal(finished.success, true, 'the bystander REPL was not disturbed');
    t.same(texts(finished), ['started', ' steps=40']);
    t.same(texts(await api.repl('repl.write(base)')), ['default kept']);
    t.same(texts(await api.repl('repl.write(named)', { repl: 'worker-a' })), ['named kept']);
    const stored = await api.call('GET', `/repl/results/${spinning.cellId}`);
    t.match(stored.json, { interrupted: true }, 'the stored result says so too');
  });

  t.test('a cell_id names one cell: another running cell is left alone', async (t) => {
    const spinning = await running('/repl', { code: 'repl.write("started"); while (true) {}' });
    const other = await api.call('POST', '/repl/interrupt', { cell_id: '00000000-0000-4000-8000-000000000000' });
    t.same(other.json, { interrupted: false, repl: 'default' });
    const answer = await api.call('POST', '/browsers/default/repl/interrupt', { cell_id: spinning.cellId });
    t.same(answer.json, { interrupted: true, repl: 'default', cell_id: spinning.cellId }, 'through /browsers/default/ too');
    t.match((await spinning.open.rest()).at(-1).data, { interrupted: true });
  });

  t.test('nothing running: 200 interrupted false; no body is the default REPL', async (t) => {
    const answer = await api.call('POST', '/repl/interrupt');
    t.equal(answer.status, 200);
    t.same(answer.json, { interrupted: false, repl: 'default' });
  });

  t.test('bad input: 400 naming the field, 404 for a named REPL that does not exist', async (t) => {
    const unknownField = await api.call('POST', '/repl/interrupt', { repl: 'default', now: true });
    t.equal(unknownField.status, 400);
    t.match(unknownField.json, { code: 'REPL_ERR_INVALID_REQUEST', message: /now/ });
    const badName = await api.call('POST', '/repl/interrupt', { repl: 'no spaces' });
    t.equal(badName.status, 400);
    t.match(badName.json.message, /repl name must match/);
    const badId = await api.call('POST', '/repl/interrupt', { cell_id: 7 });
    t.equal(badId.status, 400);
    t.match(badId.json.message, /cell_id/);
    const missing = await api.call('POST', '/repl/interrupt', { repl: 'never-made' });
    t.equal(missing.status, 404);
    t.match(missing.json, { code: 'REPL_ERR_NOT_FOUND', message: 'REPL "never-made" not found' });
    const browserMissing = await api.call('POST', '/browsers/nope/repl/interrupt', {});
    t.equal(browserMissing.status, 404);
  });

  t.test('typed client: interrupt(), and an aborted repl() signal that interrupts its own cell', async (t) => {
    const client = createClient({ baseUrl: api.url });
    const before = await client.repl({ code: 'let viaClient = "kept"' });
    const controller = new AbortController();
    const pending = client.repl({ code: 'while (true) {}' }, { signal: controller.signal });
    // The cell is running once the REPL reports busy.
    for (;;) {
      const [info] = await client.repls();
      if (info?.busy === true) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort(new Error('stop'));
    await t.rejects(pending, { message: 'stop' });
    const after = await client.repl({ code: 'repl.write(viaClient)' });
    t.equal(after.repl_id, before.repl_id, 'the disconnect interrupted the cell: same REPL');
    t.same(texts(after), ['kept']);

    const events = client.replStream({ code: 'repl.write("started"); while (true) {}', repl: 'streamed' });
    const { value: cell } = await events.next();
    await events.next();
    t.same(await client.interrupt({ repl: 'streamed', cell_id: cell.data.cell_id }), { interrupted: true, repl: 'streamed', cell_id: cell.data.cell_id });
    const { value: result } = await events.next();
    t.match(result, { event: 'result', data: { interrupted: true } });
    await events.return();
    t.same(await client.interrupt({ repl: 'streamed' }), { interrupted: false, repl: 'streamed' });
    await t.rejects(client.interrupt({ repl: 'never-made' }), { code: 'REPL_ERR_NOT_FOUND', status: 404 });
  });
});
