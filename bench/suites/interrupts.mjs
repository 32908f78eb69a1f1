// Issue 15: what the interrupt checks cost cell code, and how soon past its deadline a timed-out
// cell answers. Baseline: the same REPL with `interruptChecks: false` (the cells run as lowered,
// and a timeout ends the worker, as in the hosted product), in the same run.
import { createRepl, startServer } from '../../dist/lib/index.js';
import { summarize } from '../stats.mjs';

/**
 * Each workload is a function a setup cell defines (so both REPLs run it optimised, and the
 * checked one runs it with the checks a cell's own functions get), timed inside the cell.
 */
const WORKLOADS = [
  {
    name: 'tight numeric loop, counted `for` (no check by design)',
    define: 'globalThis.work = () => { let s = 0; for (let i = 0; i < 3e7; i++) s += i & 7; return s }',
  },
  {
    name: 'tight numeric loop, `while` (checked each iteration)',
    define: 'globalThis.work = () => { let x = 0, i = 0; while (i < 3e7) { x = (x * 31 + i) | 0; i++ } return x }',
  },
  {
    name: 'numeric loop with work (Collatz lengths)',
    define: 'globalThis.work = () => { let m = 0; for (let n = 1; n < 2e5; n++) { let x = n, c = 0; while (x !== 1) { x = x % 2 ? 3 * x + 1 : x / 2; c++ } if (c > m) m = c } return m }',
  },
  {
    name: 'recursive function (fib 27)',
    define: 'globalThis.work = () => { function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } return fib(27) }',
  },
  {
    name: '`await`-heavy loop (200k `await null`)',
    define: 'globalThis.work = async () => { for (let i = 0; i < 2e5; i++) await null }',
  },
];

const TIME_CELL = '{ const started = performance.now(); await work(); repl.write(String(performance.now() - started)) }';

async function timed(repl) {
  const result = await repl.run(TIME_CELL, { timeoutSec: 120 });
  if (!result.success) throw new Error(`bench cell failed: ${result.error}`);
  return Number(result.content[0].text);
}

/** Past-deadline latency of a 1 s timeout, in ms: what the caller waits for beyond its own timeout. */
async function latencies(repl, code, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await repl.run(code, { timeoutSec: 1 });
    times.push(performance.now() - started - 1000);
    if (result.errorCode !== 'REPL_ERR_CELL_TIMEOUT') throw new Error(`expected a timeout, got ${JSON.stringify(result)}`);
  }
  return summarize(times);
}

/**
 * Issue 27: interrupt → answer. Starts `code` (which writes "started" once it runs), waits for that
 * output, then times from `repl.interrupt()` to the cell's own answer.
 */
async function onDemand(repl, code, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    let running;
    const started = new Promise((resolve) => { running = resolve; });
    const cell = repl.run(code, { timeoutSec: 60, onOutput: (item) => { if (item.type === 'text' && item.text === 'started') running(); } });
    await started;
    const asked = performance.now();
    await repl.interrupt();
    const result = await cell;
    times.push(performance.now() - asked);
    if (result.interrupted !== true && result.replTerminated !== true) throw new Error(`expected an interrupted cell, got ${JSON.stringify(result)}`);
  }
  return summarize(times);
}

/** The same over HTTP: `POST /repl/interrupt` while a streamed cell runs, until that call answers (after the cell stopped). */
async function onDemandHttp(server, code, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${server.url}/repl`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ code, timeout_sec: 60 }),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"text":"started"')) text += decoder.decode((await reader.read()).value, { stream: true });
    const asked = performance.now();
    const answer = await (await fetch(`${server.url}/repl/interrupt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    times.push(performance.now() - asked);
    if (answer.interrupted !== true) throw new Error(`expected an interrupt, got ${JSON.stringify(answer)}`);
    while (!(await reader.read()).done);
  }
  return summarize(times);
}

async function onDemandSection({ quick }) {
  const count = quick ? 10 : 40;
  const checked = createRepl({ browser: false, interruptChecks: true });
  const plain = createRepl({ browser: false, interruptChecks: false, warmSpare: true });
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: false } });
  const rows = [];
  const busy = 'repl.write("started"); while (true) {}';
  const waiting = 'repl.write("started"); await new Promise(() => {})';
  try {
    for (const [name, code] of [['busy loop', busy], ['waiting cell', waiting]]) {
      const ours = await onDemand(checked, code, count);
      const baseline = await onDemand(plain, code, count);
      rows.push({ name: `repl.interrupt() → the cell's answer, ${name} (interrupted vs terminated)`, unit: 'p99', ours: ours.p99, baseline: baseline.p99, verdict: `≤ 50 ms: ${ours.p99 <= 50 ? 'met' : 'NOT met'}` });
      rows.push({ name: `repl.interrupt() → the cell's answer, ${name} (interrupted vs terminated)`, unit: 'p50', ours: ours.p50, baseline: baseline.p50 });
    }
    const httpBusy = await onDemandHttp(server, busy, count);
    const healthz = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      healthz.push(performance.now() - started);
    }
    rows.push({ name: 'POST /repl/interrupt → its answer (the cell stopped), busy loop (vs GET /healthz)', unit: 'p99', ours: httpBusy.p99, baseline: summarize(healthz).p99, verdict: `≤ 50 ms: ${httpBusy.p99 <= 50 ? 'met' : 'NOT met'}` });
  } finally {
    await Promise.all([checked.close(), plain.close(), server.close()]);
  }
  return {
    title: 'Interrupt on demand (issue 27)',
    baselineName: 'the same interrupt of a REPL with `interruptChecks: false`, which ends the worker (its bindings lost); for the HTTP row, GET /healthz on the same server',
    rows,
    notes: [
      'Time from the interrupt (once the cell\'s first output arrived, so it surely runs) to the cell\'s own answer in the',
      'library, or to the answer of `POST /repl/interrupt`, which comes once the cell has stopped. A busy loop is stopped by',
      'the check at its back-edge (no message); a waiting cell by the `interrupt` message. The baseline terminates a worker',
      'instead and keeps nothing.',
    ],
  };
}

export async function run({ quick }) {
  return [await checksSection({ quick }), await onDemandSection({ quick })];
}

async function checksSection({ quick }) {
  const rounds = quick ? 3 : 15;
  const timeouts = quick ? 5 : 20;
  const checked = createRepl({ browser: false, interruptChecks: true });
  const plain = createRepl({ browser: false, interruptChecks: false });
  const rows = [];
  try {
    for (const workload of WORKLOADS) {
      for (const repl of [checked, plain]) {
        const defined = await repl.run(workload.define);
        if (!defined.success) throw new Error(defined.error);
        await timed(repl); // warm-up: both optimised before they are measured
      }
      const ours = [];
      const baseline = [];
      // Alternating rounds, so drift of the machine falls on both sides alike.
      for (let round = 0; round < rounds; round++) {
        ours.push(await timed(checked));
        baseline.push(await timed(plain));
      }
      rows.push({ name: workload.name, unit: 'p50', ours: summarize(ours).p50, baseline: summarize(baseline).p50, target: { ratio: 1.1 } });
    }

    const busy = await latencies(checked, 'while (true) {}', timeouts);
    const busyBaseline = await latencies(plain, 'while (true) {}', timeouts);
    rows.push({ name: 'answer past the deadline, busy loop (interrupted vs terminated)', unit: 'p99', ours: busy.p99, baseline: busyBaseline.p99, verdict: `≤ 50 ms: ${busy.p99 <= 50 ? 'met' : 'NOT met'}` });
    const waiting = await latencies(checked, 'await new Promise(() => {})', timeouts);
    const waitingBaseline = await latencies(plain, 'await new Promise(() => {})', timeouts);
    rows.push({ name: 'answer past the deadline, waiting cell (interrupted vs terminated)', unit: 'p99', ours: waiting.p99, baseline: waitingBaseline.p99, verdict: `≤ 50 ms: ${waiting.p99 <= 50 ? 'met' : 'NOT met'}` });
  } finally {
    await Promise.all([checked.close(), plain.close()]);
  }
  return {
    title: 'Interrupt checks (issue 15)',
    baselineName: 'the same REPL with `interruptChecks: false`: cells without checks, and every timeout ends the worker',
    rows,
    notes: [
      'Loop rows time the function a setup cell defined, inside the cell (median of alternating rounds). The counted `for` loop',
      'carries no check (its body cannot change its trip count; the check around it catches it after one run); the other checks',
      'read a flag V8 folds away until the host raises it through the inspector (issue 26), so they cost nothing. Latency rows: wall time of a',
      '`timeout_sec: 1` call minus 1000 ms. The baseline answers at once because it terminates the worker and loses every',
      'binding; the interrupted cell keeps them. Figures of one loop row move by ±15 % between runs of this machine (the',
      'optimised code of two workers differs), more than the checks cost.',
    ],
  };
}
