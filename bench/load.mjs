#!/usr/bin/env node
// npm run load (issue 13, "Load"): the real server in this process with real headless Chromium,
// 4 browsers (the default one counts), 8 named REPLs and 4 named Playwright executors spread over
// them, and 200 concurrent clients in a bounded loop for `--duration` seconds, all on 127.0.0.1.
// Each client sends small cells (arithmetic, a persistent counter, browser helpers on a fixture
// page, executor calls) and checks every answer. Prints per kind: count, errors, p50/p99; this
// process's RSS at start, after setup (baseline), at its peak and after the clients closed; and
// the counter check (each REPL's `counter` equals the counter cells sent to it; their answers are
// exactly 1..n). Exits 1 on any error or counter mismatch.
//
// Options: --duration <s> (60), --clients <n> (200), --seed <n> (1), --json (the report as JSON).
// Importable: `runLoad(options)` resolves the report; test/reliability/load-smoke.test.mjs uses it.
//
// The server runs in this process, so the RSS figures include the load clients (undici) and every
// REPL and executor worker thread; Chromium's own processes are not counted.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { drive, memorySampler, settleMemory, startFleet, weightedPicker } from '../test/helpers/load-fleet.mjs';
import { ms, summarize } from './stats.mjs';

/** Relative weights of the cell kinds; about half the cells touch a browser. */
export const LOAD_MIX = { counter: 4, arithmetic: 2, title: 1.5, evaluate: 1, snapshot: 0.5, executor: 1.5 };
const MiB = 2 ** 20;
/** Error samples kept in the report (the count is always complete). */
const ERROR_SAMPLES = 10;

/**
 * Runs the load and resolves its report; never leaves a browser or the server running.
 * @param {object} [options]
 * @param {number} [options.duration] seconds of load (60)
 * @param {number} [options.clients] concurrent clients (200)
 * @param {number} [options.browsers] browsers, the default one included (4)
 * @param {number} [options.repls] named REPLs (8)
 * @param {number} [options.executors] named executors (4)
 * @param {number} [options.timeoutSec] `timeout_sec` of every cell (60)
 * @param {number} [options.requestTimeoutSec] client deadline of one request, queueing included (240)
 * @param {number} [options.seed] PRNG seed of the clients' choices (1)
 * @param {Record<string, number>} [options.mix] weights by kind (LOAD_MIX)
 * @param {(line: string) => void} [options.log] progress lines
 */
export async function runLoad(options = {}) {
  const {
    duration = 60, clients = 200, browsers = 4, repls = 8, executors = 4, timeoutSec = 60,
    requestTimeoutSec = 240, seed = 1, mix = LOAD_MIX, log = () => {},
  } = options;
  const rssStart = process.memoryUsage.rss();
  const fleet = await startFleet({ browsers, repls, executors, connections: clients, timeoutSec, requestTimeoutMs: requestTimeoutSec * 1000, log });
  try {
    const warmStarted = performance.now();
    await fleet.warmClients(clients);
    const warmUpMs = performance.now() - warmStarted;
    const baseline = await settleMemory();
    const sampler = memorySampler();
    const kinds = Object.fromEntries(Object.keys(mix).map((kind) => [kind, { times: [], errors: 0 }]));
    const errorSamples = [];
    const pickerOf = new Map();
    const deadline = performance.now() + duration * 1000;
    const started = performance.now();
    log(`load: ${clients} clients for ${duration} s`);
    try {
      await drive({
        clients,
        seed,
        next(client, random) {
          if (performance.now() >= deadline) return undefined;
          if (!pickerOf.has(client)) pickerOf.set(client, weightedPicker(mix, random));
          return pickerOf.get(client)();
        },
        send: fleet.send,
        onOutcome(outcome) {
          const stats = kinds[outcome.kind];
          stats.times.push(outcome.ms);
          if (outcome.error === undefined) return;
          stats.errors++;
          if (errorSamples.length < ERROR_SAMPLES) errorSamples.push(outcome);
        },
      });
    } finally {
      sampler.stop();
    }
    const elapsedSec = (performance.now() - started) / 1000;
    const peakRss = sampler.peakRss;
    const counters = await fleet.verifyCounters();
    await fleet.closeClients();
    const after = await settleMemory();
    const byKind = Object.fromEntries(Object.entries(kinds).map(([kind, { times, errors }]) => [kind, { count: times.length, errors, ...(times.length > 0 ? summarize(times) : { p50: NaN, p99: NaN }) }]));
    const all = Object.values(kinds).flatMap(({ times }) => times);
    const errors = Object.values(kinds).reduce((sum, { errors: count }) => sum + count, 0);
    return {
      options: { duration, clients, browsers, repls, executors, timeoutSec, seed },
      elapsedSec,
      warmUpMs,
      cells: all.length,
      errors,
      errorSamples,
      byKind,
      total: summarize(all.length > 0 ? all : [NaN]),
      rss: { start: rssStart, baseline: baseline.rss, peak: peakRss, after: after.rss },
      heapUsed: { baseline: baseline.heapUsed, after: after.heapUsed },
      counters,
      countersOk: counters.every((row) => row.ok),
      ok: errors === 0 && counters.every((row) => row.ok),
    };
  } finally {
    await fleet.close();
  }
}

/** The report as markdown lines (tables), for the CLI and t.comment. */
export function formatLoadReport(report) {
  const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
  const { options } = report;
  const lines = [
    `Load: ${options.clients} clients, ${options.browsers} browsers, ${options.repls} named REPLs, ${options.executors} named executors, ${report.elapsedSec.toFixed(1)} s, ${report.cells} cells (${(report.cells / report.elapsedSec).toFixed(1)}/s), ${report.errors} errors.`,
    `Latency is from sending a request to reading its whole answer, queueing behind the target's other cells included; the ${options.clients} connections were opened before the clock started (${Math.round(report.warmUpMs)} ms).`,
    '',
    '| Kind | Count | Errors | p50 | p99 |',
    '|---|---|---|---|---|',
    ...Object.entries(report.byKind).map(([kind, row]) => `| ${kind} | ${row.count} | ${row.errors} | ${row.count > 0 ? ms(row.p50) : '–'} | ${row.count > 0 ? ms(row.p99) : '–'} |`),
    `| all | ${report.cells} | ${report.errors} | ${ms(report.total.p50)} | ${ms(report.total.p99)} |`,
    '',
    '| RSS of the server process | |',
    '|---|---|',
    `| at start (before the server) | ${mib(report.rss.start)} |`,
    `| baseline (fleet set up, GC run) | ${mib(report.rss.baseline)} |`,
    `| peak under load | ${mib(report.rss.peak)} |`,
    `| after (clients closed, GC run) | ${mib(report.rss.after)} (${report.rss.after >= report.rss.baseline ? '+' : ''}${mib(report.rss.after - report.rss.baseline)} vs baseline) |`,
    '',
    `Counters: ${report.countersOk ? 'every REPL\'s counter equals the counter cells sent to it, answers exactly 1..n' : 'MISMATCH'}.`,
    ...report.counters.filter((row) => !row.ok).map((row) => `- ${row.target}: sent ${row.sent}, binding ${row.binding}, ${row.answers} answers`),
  ];
  if (report.errorSamples.length > 0) {
    lines.push('', 'First errors:', ...report.errorSamples.map((sample) => `- ${sample.kind} → ${sample.target} after ${ms(sample.ms)}: ${sample.error}`));
  }
  return lines;
}

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      clients: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    },
  });
  const number = (name) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${values[name]}`);
    return value;
  };
  const report = await runLoad({
    duration: number('duration'),
    clients: Math.floor(number('clients')),
    seed: Math.floor(number('seed')),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatLoadReport(report).join('\n')}\n`);
  process.exitCode = report.ok ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
