// The cap on memory outside the V8 heap (lib/threads/memory-watch.ts): a cell filling Buffers or
// ArrayBuffers is stopped at BROWSER_REPL_EXTERNAL_MEMORY_MB, answered REPL_ERR_OUT_OF_MEMORY,
// and only its own REPL is replaced. Runs on Node 20 (process-wide measure) and Node ≥ 22.16
// (each worker's external_memory): both paths are the one this process takes.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Read when each worker starts; set before any REPL exists. tap runs each file in its own
// process, so the process-wide measure sees only this file's memory.
process.env.BROWSER_REPL_EXTERNAL_MEMORY_MB = '64';

const { createRepl } = await import('../../dist/lib/index.js');
const { perWorkerMeasureAvailable } = await import('../../dist/lib/threads/memory-watch.js');
const { apiServer, texts } = await import('../helpers/api-server.mjs');

t.comment(`measure: ${perWorkerMeasureAvailable ? "each worker's external_memory" : "the process's memory (Node without Worker#getHeapStatistics)"}`);

/**
 * [name, cell]: each allocates without end, far faster than a 100 ms poll can miss. The
 * process-wide measure (Node 20) reads the resident set, so there the memory is written: pages
 * never written cost nothing physical, threaten nobody, and are not counted.
 */
const HOGS = perWorkerMeasureAvailable
  ? [
    ['Buffers, yielding to microtasks', 'const b = []; for (;;) { b.push(Buffer.alloc(16 << 20)); await null }'],
    ['ArrayBuffers in a synchronous loop', 'const b = []; for (;;) b.push(new ArrayBuffer(16 << 20))'],
    ['written typed arrays in a synchronous loop', 'const b = []; for (;;) { const a = new Uint8Array(16 << 20); a.fill(1); b.push(a) }'],
  ]
  : [
    ['written Buffers, yielding to microtasks', 'const b = []; for (;;) { b.push(Buffer.alloc(16 << 20, 1)); await null }'],
    ['written ArrayBuffers in a synchronous loop', 'const b = []; for (;;) { const a = new ArrayBuffer(16 << 20); new Uint8Array(a).fill(1); b.push(a) }'],
    ['written typed arrays in a synchronous loop', 'const b = []; for (;;) { const a = new Uint8Array(16 << 20); a.fill(1); b.push(a) }'],
  ];

function assertStopped(t, result, name) {
  t.equal(result.success, false, `${name}: failed`);
  t.equal(result.errorCode, 'REPL_ERR_OUT_OF_MEMORY', `${name}: out of memory`);
  t.equal(result.replTerminated, true, `${name}: the REPL was replaced`);
  t.match(result.error, /64 MiB cap on memory outside the heap/, `${name}: names the cap`);
  t.match(result.error, /BROWSER_REPL_EXTERNAL_MEMORY_MB/, `${name}: names the variable`);
}

t.test('library: the cell is stopped, the next call gets a fresh REPL, another REPL is untouched', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  const other = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => Promise.all([repl.close(), other.close()]));
  const kept = await other.run('var kept = "intact"; const held = Buffer.alloc(8 << 20, 1)');
  t.equal(kept.success, true);
  for (const [name, code] of HOGS) {
    const before = await repl.run('var mine = 1; repl.write("ready")');
    // The cell timeout is the fallback that must not be needed: 120 s, far beyond the cap's reach.
    const result = await repl.run(`repl.write("before"); ${code}`, { timeoutSec: 120 });
    assertStopped(t, result, name);
    t.equal(result.replId, before.replId, `${name}: answered for the REPL that allocated`);
    t.same(result.content, [{ type: 'text', channel: 'write', text: 'before' }], `${name}: output so far is kept`);

    const next = await repl.run('repl.write(typeof mine)');
    t.equal(next.success, true, `${name}: the next call works`);
    t.not(next.replId, result.replId, `${name}: on a new worker`);
    t.same(next.content, [{ type: 'text', channel: 'write', text: 'undefined' }], `${name}: a fresh REPL`);
    const check = await other.run('repl.write(`${kept} ${held.length}`)');
    t.same(check.content, [{ type: 'text', channel: 'write', text: `intact ${8 << 20}` }], `${name}: the other REPL is untouched`);
    t.equal(check.replId, kept.replId, `${name}: the other REPL kept its worker`);
  }
});

t.test('two REPLs busy at once: the one that allocates is stopped, the other finishes its cell', async (t) => {
  const hog = createRepl({ browser: false, warmSpare: false });
  const bystander = createRepl({ browser: false, warmSpare: false });
  const dir = mkdtempSync(path.join(tmpdir(), 'browser-repl-test-memory-'));
  t.teardown(async () => {
    await Promise.all([hog.close(), bystander.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  await Promise.all([hog.run('1'), bystander.run('var mine = "kept"')]);
  // The bystander's request starts first and lasts through the whole overrun (it waits for a file
  // the test writes once the hog was stopped), so on Node 20 it sees the same growth of the process.
  const release = path.join(dir, 'release');
  const waiting = bystander.run(`
    const { existsSync } = await import('node:fs');
    while (!existsSync(${JSON.stringify(release)})) await new Promise((resolve) => setTimeout(resolve, 50));
    repl.write(mine)
  `, { timeoutSec: 120 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stopped = await hog.run(HOGS[0][1], { timeoutSec: 120 });
  assertStopped(t, stopped, 'the hog');
  writeFileSync(release, '');
  const finished = await waiting;
  t.equal(finished.success, true, finished.error);
  t.same(texts(finished), ['kept'], 'the bystander finished its cell on its own worker');
});

t.test('memory held under the cap is no overrun, however long the cell runs', async (t) => {
  const repl = createRepl({ browser: false, warmSpare: false });
  t.teardown(() => repl.close());
  // 24 MiB, held across many polls (about 100 ms apart), well under the 64 MiB cap.
  const result = await repl.run(`
    const held = [Buffer.alloc(8 << 20, 1), new Uint8Array(8 << 20).fill(2), new ArrayBuffer(8 << 20)];
    for (let round = 0; round < 30; round++) await new Promise((resolve) => setTimeout(resolve, 50));
    repl.write(String(held.length));
  `, { timeoutSec: 120 });
  t.equal(result.success, true, result.error);
  t.same(texts(result), ['3']);
});

t.test('HTTP: the call answers repl_terminated and REPL_ERR_OUT_OF_MEMORY; the server keeps serving', async (t) => {
  const api = await apiServer(t);
  const first = await api.repl('var bound = 1; repl.write("ok")');
  const broken = await api.repl('const b = []; for (;;) { b.push(Buffer.alloc(16 << 20, 1)); await null }', { timeout_sec: 120 });
  t.equal(broken.success, false);
  t.equal(broken.repl_terminated, true);
  t.match(broken.error, /out of memory/, 'the wire result has no code field: the message says it');
  t.equal(broken.repl_id, first.repl_id);
  t.match(broken.error, /BROWSER_REPL_EXTERNAL_MEMORY_MB/);
  const health = await api.call('GET', '/healthz');
  t.equal(health.status, 200, '/healthz');
  const next = await api.repl('repl.write(typeof bound)');
  t.equal(next.success, true);
  t.not(next.repl_id, broken.repl_id);
  t.same(texts(next), ['undefined']);
});
