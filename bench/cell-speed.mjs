#!/usr/bin/env node
// Issue 26: the same source timed as REPL cells and as a plain ES module, and the fixed cost of a
// trivial cell, on the Node binary that runs this file. bench/suites/cell-speed.mjs runs it for
// this Node and, in a child process, for the other of Node 20 and 24; run on its own it prints
// one Node's figures:
//
//   node bench/cell-speed.mjs [--quick] [--json] [--only <row name substring>] [--no-fixed-cost]
//
// Cell side: a fresh REPL (`createRepl({ browser: false, warmSpare: false })`, interrupt checks
// on, as served), its setup cells run untimed, then the timed cells, each timed as the host sees
// it: the wall time of `repl.run()` (lowering, compiling, the worker round trip and the run).
// Plain side: the setup and the timed source as one ES module in a fresh `node` process of the
// same binary, `performance.now()` around the timed source. Both sides write the same check value,
// compared, so neither can skip work. Best of three, each a fresh REPL and a fresh process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import vm from 'node:vm';
import { once } from 'node:events';
import { MessageChannel, Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { sample } from './stats.mjs';

/** A deterministic PRNG both sides define identically (a setup cell, the module's preamble). */
const PRNG = 'let seed = 42; const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;';

/**
 * The rows. `setup` cells run first, untimed; `cells` are timed (their times summed). Each row
 * writes one check value with `repl.write` (a plain module gets a `repl.write` that collects it).
 * Where the row is not about a top-level accumulator, the loop's accumulator is block-scoped, as
 * a user who re-runs a cell would write it (docs/repl.md, "Re-running a cell").
 */
export const ROWS = [
  {
    name: 'top-level loop, `Math.sqrt`, top-level accumulator (3·10⁶)',
    cells: ['let s = 0; for (let i = 0; i < 3e6; i++) s += Math.sqrt(i); repl.write(String(s))'],
  },
  {
    name: 'the same loop inside `{ … }`',
    cells: ['{ let s = 0; for (let i = 0; i < 3e6; i++) s += Math.sqrt(i); repl.write(String(s)) }'],
  },
  {
    name: 'a function taught in an earlier cell, called in a later one (3·10⁶ calls)',
    setup: ['function score(i) { return Math.sqrt(i) * 2 + (i % 7) }'],
    cells: ['{ let s = 0; for (let i = 0; i < 3e6; i++) s += score(i); repl.write(String(s)) }'],
  },
  {
    name: "an earlier cell's `let counter` bumped by its function in a hot loop (3·10⁶)",
    setup: ['let counter = 0; function bump() { counter++ }'],
    cells: ['for (let i = 0; i < 3e6; i++) bump(); repl.write(String(counter))'],
  },
  {
    name: 'a class from an earlier cell, 10⁶ instances',
    setup: ['class Point { constructor(x, y) { this.x = x; this.y = y } plus(other) { return new Point(this.x + other.x, this.y + other.y) } get norm() { return Math.hypot(this.x, this.y) } }'],
    cells: ['{ let p = new Point(0, 0); for (let i = 0; i < 1e6; i++) p = p.plus(new Point(i % 3, 1)); repl.write(String(p.norm)) }'],
  },
  {
    name: 'JSON round trip of a 2 MB array ×5',
    setup: [PRNG, 'const records = Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `row ${i}`, score: Math.floor(random() * 1000), tags: ["a", "b"], ok: i % 2 === 0 }))'],
    cells: ['{ let n = 0; for (let k = 0; k < 5; k++) n += JSON.parse(JSON.stringify(records)).length; repl.write(String(n + JSON.stringify(records).length)) }'],
  },
  {
    name: 'sort/map/filter/reduce of 10⁶ numbers',
    setup: [PRNG, 'const numbers = Array.from({ length: 1e6 }, () => random())'],
    cells: ['{ const sorted = [...numbers].sort((a, b) => a - b); const total = sorted.map((x) => x * 2).filter((x) => x > 0.5).reduce((a, b) => a + b, 0); repl.write(String(total)) }'],
  },
  {
    name: 'regex and string building over 1 MB',
    setup: [PRNG, 'const text = Array.from({ length: 40000 }, (_, i) => `item-${i} price=${Math.floor(random() * 100)}.${i % 100} sku:${(i * 7919).toString(36)}`).join("\\n")'],
    cells: ['{ let out = ""; for (const m of text.matchAll(/price=(\\d+)\\.(\\d+) sku:(\\w+)/g)) out += `${m[3].toUpperCase()}:${Number(m[1]) + Number(m[2]) / 100};`; repl.write(String(out.length + text.replace(/\\d/g, "#").length)) }'],
  },
  {
    name: 'a generator pipeline (10⁶ values through three generators)',
    setup: ['function* range(n) { for (let i = 0; i < n; i++) yield i } function* mapped(it, f) { for (const x of it) yield f(x) } function* kept(it, p) { for (const x of it) if (p(x)) yield x }'],
    cells: ['{ let s = 0; for (const x of kept(mapped(range(1e6), (x) => x * 3), (x) => x % 2 === 0)) s += x; repl.write(String(s)) }'],
  },
  {
    name: 'an `async` function awaiting in a hot loop (3·10⁵ awaits)',
    setup: ['async function fetchLike(i) { return i * 2 } async function drive(n) { let s = 0; for (let i = 0; i < n; i++) s += await fetchLike(i); return s }'],
    cells: ['repl.write(String(await drive(3e5)))'],
  },
  {
    name: 'closures capturing loop variables (10⁶ closures)',
    cells: ['{ const fns = []; for (let i = 0; i < 1e6; i++) fns.push(() => i * 2); let s = 0; for (const f of fns) s += f(); repl.write(String(s)) }'],
  },
  {
    name: 'destructuring in a loop (2·10⁶)',
    setup: ['const pairs = Array.from({ length: 1000 }, (_, i) => ({ id: i, pos: [i, i * 2], meta: { w: i % 5 } }))'],
    cells: ['{ let s = 0; for (let k = 0; k < 2000; k++) for (const { id, pos: [x, y], meta: { w } } of pairs) { const [a, b] = [x + w, y - id]; s += a + b } repl.write(String(s)) }'],
  },
  {
    name: 'Map/Set-heavy code (10⁶ operations)',
    cells: ['{ const m = new Map(); const seen = new Set(); for (let i = 0; i < 5e5; i++) { const k = `k${i % 50000}`; m.set(k, (m.get(k) ?? 0) + i); seen.add(i % 70000) } let s = 0; for (const [k, v] of m) s += v + k.length; repl.write(String(s + seen.size)) }'],
  },
  {
    name: 'try/catch inside a loop (3·10⁶, one throw in 1000)',
    setup: ['function parseOrThrow(i) { if (i % 1000 === 999) throw new RangeError("bad " + i); return i & 255 }'],
    cells: ['{ let s = 0, failed = 0; for (let i = 0; i < 3e6; i++) { try { s += parseOrThrow(i) } catch (e) { failed++ } } repl.write(`${s} ${failed}`) }'],
  },
  {
    name: 'template strings (10⁶)',
    cells: ['{ let n = 0; for (let i = 0; i < 1e6; i++) { const row = `<tr><td>${i}</td><td>${i % 7 ? "odd" : "even"}</td><td>${(i / 3).toFixed(2)}</td></tr>`; n += row.length } repl.write(String(n)) }'],
  },
  {
    name: 'a recursive walk of a 10 000-node object tree (×100)',
    setup: [
      PRNG,
      'function build(count) { const root = { value: 0, children: [] }; const nodes = [root]; for (let i = 1; i < count; i++) { const parent = nodes[Math.floor(random() * nodes.length)]; const node = { value: i, children: [] }; parent.children.push(node); nodes.push(node) } return root }\nconst tree = build(10000)',
      'function walk(node, depth) { let s = node.value * depth; for (const child of node.children) s += walk(child, depth + 1); return s }',
    ],
    cells: ['{ let s = 0; for (let k = 0; k < 100; k++) s += walk(tree, 1); repl.write(String(s)) }'],
  },
  {
    name: 'a taught function called 10⁵ times across 100 later cells',
    // Heavy enough (about 3 µs a call) that the row times the calls, not the hundred cells' fixed cost (its own rows below).
    setup: ['let total = 0; function taught(n) { let h = n | 0; for (let k = 0; k < 2000; k++) h = (h * 31 + k) | 0; return h & 1023 }'],
    cells: Array.from({ length: 100 }, (_, cell) => `{ let local = 0; for (let i = 0; i < 1000; i++) local += taught(i + ${cell * 1000}); total += local }${cell === 99 ? '\nrepl.write(String(total))' : ''}`),
  },
];

/** The plain side of a row: one ES module, timing only the row's cells. */
function plainModule(row) {
  return [
    'const written = []; const repl = { write: (value) => { written.push(String(value)) } };',
    ...(row.setup ?? []),
    'const benchStarted = performance.now();',
    ...row.cells,
    'const benchMs = performance.now() - benchStarted;',
    'process.stdout.write(JSON.stringify({ ms: benchMs, written }));',
  ].join('\n');
}

async function plainOnce(row, folder) {
  const file = path.join(folder, 'row.mjs');
  writeFileSync(file, plainModule(row));
  const answer = JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }));
  return { ms: answer.ms, written: answer.written };
}

async function cellOnce(row, createRepl) {
  const repl = createRepl({ browser: false, warmSpare: false, ...(process.env.CELL_SPEED_NO_CHECKS === '1' ? { interruptChecks: false } : {}) });
  try {
    // The worker starts with the REPL's first cell: not part of any row.
    await repl.run('0');
    for (const code of row.setup ?? []) {
      const result = await repl.run(code, { timeoutSec: 300 });
      if (!result.success) throw new Error(`setup cell failed (${row.name}): ${result.error}`);
    }
    let ms = 0;
    const written = [];
    for (const code of row.cells) {
      const started = performance.now();
      const result = await repl.run(code, { timeoutSec: 300 });
      ms += performance.now() - started;
      if (!result.success) throw new Error(`cell failed (${row.name}): ${result.error}`);
      for (const item of result.content) if (item.type === 'text' && item.channel === 'write') written.push(item.text);
    }
    return { ms, written };
  } finally {
    await repl.close();
  }
}

/** Best of `rounds` for both sides of every row, alternating sides so drift falls on both. */
export async function measureRows({ quick = false, only, log = () => {} } = {}) {
  const { createRepl } = await import('../dist/lib/index.js');
  const rounds = quick ? 1 : 3;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'browser-repl-cell-speed-'));
  const rows = [];
  try {
    for (const row of ROWS) {
      if (only !== undefined && !row.name.includes(only)) continue;
      let cell = Infinity;
      let plain = Infinity;
      for (let round = 0; round < rounds; round++) {
        const ours = await cellOnce(row, createRepl);
        const theirs = await plainOnce(row, folder);
        if (JSON.stringify(ours.written) !== JSON.stringify(theirs.written)) {
          throw new Error(`${row.name}: the cell wrote ${JSON.stringify(ours.written)}, the module ${JSON.stringify(theirs.written)}`);
        }
        cell = Math.min(cell, ours.ms);
        plain = Math.min(plain, theirs.ms);
      }
      log(`${process.version} ${row.name}: cell ${cell.toFixed(1)} ms, plain ${plain.toFixed(1)} ms (${(cell / plain).toFixed(2)}×)`);
      rows.push({ name: row.name, cell, plain });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

/** A bare message round trip to a worker thread that echoes: what no cell can beat. */
async function workerRoundTrip(iterations) {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker('require("node:worker_threads").workerData.port.on("message", function (m) { this.postMessage(m) })', {
    eval: true, workerData: { port: port2 }, transferList: [port2],
  });
  try {
    return await sample(iterations, () => new Promise((resolve) => {
      port1.once('message', resolve);
      port1.postMessage({ type: 'execute', requestId: 1, code: '1' });
    }), { warmup: 500 });
  } finally {
    port1.close();
    await worker.terminate();
  }
}

/**
 * The fixed cost of a trivial cell `1` (p50 of many): in process (`repl.run`) against a bare
 * worker round trip, and over HTTP (keep-alive, one connection) against `GET /healthz` of the same
 * server, with the parts measured on their own for the breakdown.
 */
export async function measureFixedCost({ quick = false } = {}) {
  const { createRepl, startServer } = await import('../dist/lib/index.js');
  const iterations = quick ? 1000 : 5000;
  const roundTrip = await workerRoundTrip(iterations);
  const repl = createRepl({ browser: false, warmSpare: false });
  let inProcess;
  try {
    inProcess = await sample(iterations, () => repl.run('1'), { warmup: 500 });
  } finally {
    await repl.close();
  }
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: false } });
  const pool = new Pool(server.url, { connections: 1 });
  const body = JSON.stringify({ code: '1' });
  let healthz;
  let http;
  try {
    const get = async () => (await pool.request({ path: '/healthz', method: 'GET' })).body.text();
    const post = async () => (await pool.request({ path: '/repl', method: 'POST', headers: { 'content-type': 'application/json' }, body })).body.text();
    // Alternating blocks, so that drift of the machine falls on both.
    const gets = [];
    const posts = [];
    for (let block = 0; block < 4; block++) {
      gets.push(await sample(iterations / 4, get, { warmup: 200 }));
      posts.push(await sample(iterations / 4, post, { warmup: 200 }));
    }
    healthz = median(gets.map((stats) => stats.p50));
    http = median(posts.map((stats) => stats.p50));
  } finally {
    await pool.close();
    await server.close();
  }
  const parts = await workerParts(iterations);
  return {
    roundTripMs: roundTrip.p50,
    inProcessMs: inProcess.p50,
    healthzMs: healthz,
    httpMs: http,
    ...parts,
  };
}

/**
 * The worker's own parts of a trivial cell, timed in a worker thread of their own (cells need
 * `--experimental-vm-modules`): the cell through the evaluator (lowering, compiling, linking,
 * evaluating), and one full restore of the built-ins.
 */
async function workerParts(iterations) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { cellSpeedParts: iterations }, execArgv: ['--experimental-vm-modules', '--no-warnings'] });
  try {
    const [parts] = await once(worker, 'message');
    return parts;
  } finally {
    await worker.terminate();
  }
}

async function timeWorkerParts(iterations) {
  const { CellEvaluator } = await import('../dist/worker/repl/cell-evaluator.js');
  const { RealmSnapshot } = await import('../dist/worker/threads/realm-integrity.js');
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  const evaluator = new CellEvaluator({ context, interruptChecks: { token: '__repl_0123456789abcdef' } });
  const evaluate = await sample(iterations, () => evaluator.evaluate('1'), { warmup: 500 });
  const snapshot = RealmSnapshot.capture();
  const restore = await sample(iterations, () => snapshot.restore(), { warmup: 500 });
  return { evaluateMs: evaluate.p50, restoreMs: restore.p50 };
}

if (!isMainThread && workerData?.cellSpeedParts !== undefined) parentPort.postMessage(await timeWorkerParts(workerData.cellSpeedParts));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-fixed-cost': { type: 'boolean', default: false },
    },
  });
  const log = values.json ? () => {} : (line) => process.stderr.write(`${line}\n`);
  const rows = await measureRows({ quick: values.quick, only: values.only, log });
  const fixedCost = values['no-fixed-cost'] ? undefined : await measureFixedCost({ quick: values.quick });
  if (values.json) process.stdout.write(JSON.stringify({ node: process.version, rows, fixedCost }));
  else if (fixedCost !== undefined) log(`${process.version} fixed cost: ${JSON.stringify(fixedCost)}`);
}

export const CELL_SPEED_SCRIPT = fileURLToPath(import.meta.url);
