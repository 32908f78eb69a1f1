// Issue 33 part 4 (docs/repl.md, "Re-teach after a crash"): a REPL with its journal on, taught 20
// functions and 5 classes, dies of heap exhaustion; its next call starts a new worker and declares
// the 25 again before the cell. Baseline: the same REPL without a journal, after the same death:
// its next call pays the new worker alone. The difference is what the re-teaching costs.
import { createRepl } from '../../dist/lib/index.js';
import { summarize } from '../stats.mjs';

const EXHAUST = 'const hog = []; while (true) hog.push(new Array(1e6).fill(Math.random()))';
const FUNCTIONS = Array.from({ length: 20 }, (_, i) => `function taught${i}(x) { let s = 0; for (let k = 0; k < x; k++) s += k * ${i + 1}; return s }`);
const CLASSES = [
  'class Shape { constructor(sides) { this.sides = sides } describe() { return `${this.constructor.name}:${this.sides}` } }',
  'class Triangle extends Shape { constructor() { super(3) } }',
  'class Square extends Shape { constructor() { super(4) } static unit = 1 }',
  'class Counter { count = 0; bump() { return ++this.count } }',
  'class Registry { #items = new Map(); add(key, value) { this.#items.set(key, value); return this.#items.size } }',
];
/** The next call after the death: it uses what was taught, so a missing name fails the run. */
const NEXT = `repl.write(String(taught19(10) + new Triangle().sides + new Registry().add("k", 1)))`;

async function nextCallAfterDeath(journal, rounds) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const repl = createRepl({ browser: false, heapMb: 64, journal });
    try {
      for (let i = 0; i < FUNCTIONS.length; i += 5) await repl.run(FUNCTIONS.slice(i, i + 5).join('\n'));
      for (const source of CLASSES) await repl.run(source);
      const death = await repl.run(EXHAUST, { timeoutSec: 60 });
      if (death.errorCode !== 'REPL_ERR_OUT_OF_MEMORY') throw new Error(`the worker did not run out of memory: ${death.errorCode}`);
      // The warm spare refills after the death, as it would between an agent's calls.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      const next = await repl.run(journal ? NEXT : '1');
      times.push(performance.now() - started);
      if (!next.success) throw new Error(`the call after the death failed: ${next.error}`);
      if (journal && next.restored?.restored.length !== 25) throw new Error(`restored ${next.restored?.restored.length} of 25`);
    } finally {
      await repl.close();
    }
  }
  return summarize(times);
}

export async function run({ quick }) {
  const rounds = quick ? 3 : 10;
  const ours = await nextCallAfterDeath(true, rounds);
  const baseline = await nextCallAfterDeath(false, rounds);
  return {
    title: 'Re-teach after a crash (issue 33)',
    baselineName: 'the same REPL without its journal, after the same death (heap exhaustion): its next call, a new worker and a trivial cell',
    rows: [
      { name: 'next call after the death, 20 functions and 5 classes declared again', unit: 'p50', ours: ours.p50, baseline: baseline.p50, target: { extraMs: 100 } },
      { name: 'next call after the death, 20 functions and 5 classes declared again', unit: 'p99', ours: ours.p99, baseline: baseline.p99, target: { extraMs: 100 } },
    ],
    notes: [`${rounds} rounds each, a fresh REPL (64 MiB heap) per round; the call after the death uses a taught function and two classes, and the answer's \`restored\` must name all 25.`],
  };
}
