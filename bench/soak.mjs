#!/usr/bin/env node
// npm run soak (issue 13, "Soak"; not in CI): 50 000 cells, browser helpers included, over about
// ten minutes against the real server in this process (real headless Chromium, all on
// 127.0.0.1): a handful of named REPLs and executors on two browsers, at a steady concurrency.
// Every `--sample-every` cells it samples this process's RSS, the main thread's heap and the
// latency of the cells since the last sample. It reports RSS growth (from the end of the warm-up,
// the first 10 % of cells, to the end) and a least-squares slope per 10 000 cells, latency drift
// (p50/p99 of the first vs the last 10 % of cells), errors and the counter check (as in
// bench/load.mjs) as markdown on stdout; with `--write` also into docs/reliability.md between
// `<!-- BEGIN SOAK -->` and `<!-- END SOAK -->` (the file is created with just a heading and the
// markers if it does not exist). Exits 1 on any error or counter mismatch.
//
// Every sample also reads each named REPL's worker heap after a forced (ordinary) collection, with
// a probe cell of its own (issue 26): the report compares it at 10 000 cells and at the end.
//
// Options: --cells <n> (50000), --minutes <n> (instead of a cell count: as many cells as fit),
// --mix default|trivial (trivial: every cell is `1`, on one named REPL and no executor), --repls
// <n> (4), --concurrency <n> (16), --sample-every <n> (cells / 100, ≥ 50; 2000 with --minutes),
// --seed <n> (1), --write.
//
// The server runs in this process, so RSS includes the clients and every REPL and executor worker
// thread (their heaps too); the heap figure is the main thread's only. Chromium is not counted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { drive, settleMemory, startFleet, weightedPicker } from '../test/helpers/load-fleet.mjs';
import { ms, summarize } from './stats.mjs';

/** More browser helpers than the load mix: the soak is where a slow leak in them would show. */
export const SOAK_MIX = { counter: 3, arithmetic: 1.5, title: 2, evaluate: 1.5, snapshot: 0.5, executor: 1.5 };
/** `--mix trivial`: the fixed cost of a cell, many times over. */
export const TRIVIAL_MIX = { trivial: 1 };
/**
 * A probe cell: the worker's heap after an ordinary forced collection (not the thorough one the
 * worker runs itself now and then: worker/threads/module-reclaimer.ts), in bytes.
 */
const WORKER_HEAP_PROBE = '{ const v8 = await import("node:v8"); v8.setFlagsFromString("--expose-gc"); (await import("node:vm")).runInNewContext("gc")(); repl.write(String(process.memoryUsage().heapUsed)) }';
/** Cells at which the worker heap is compared with the end's. */
const WORKER_HEAP_REFERENCE_CELLS = 10_000;
/** How far the end's worker heap may be from the reference's (issue 26). */
const WORKER_HEAP_WITHIN_MIB = 10;
const MiB = 2 ** 20;
const BEGIN = '<!-- BEGIN SOAK -->';
const END = '<!-- END SOAK -->';
const ERROR_SAMPLES = 10;
/** The first and last tenth of the cells: warm-up, and the window compared with it. */
const TENTH = 0.1;

/** Least-squares slope of `ys` over `xs`. */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return NaN;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < n; i++) {
    numerator += (xs[i] - meanX) * (ys[i] - meanY);
    denominator += (xs[i] - meanX) ** 2;
  }
  return denominator === 0 ? NaN : numerator / denominator;
}

/**
 * Runs the soak and resolves its report; never leaves a browser or the server running.
 * @param {object} [options]
 * @param {number} [options.cells] cells in all (50 000)
 * @param {number} [options.concurrency] clients sending at once (16)
 * @param {number} [options.sampleEvery] cells between samples (cells / 100, at least 50)
 * @param {number} [options.browsers] browsers, the default one included (2)
 * @param {number} [options.repls] named REPLs (4)
 * @param {number} [options.executors] named executors (2)
 * @param {number} [options.seed] PRNG seed (1)
 * @param {(line: string) => void} [options.log]
 */
export async function runSoak(options = {}) {
  const {
    cells = options.minutes === undefined ? 50_000 : Infinity, minutes, mix = SOAK_MIX, concurrency = 16, browsers = 2, repls = 4,
    executors = mix.executor === undefined ? 0 : 2, seed = 1,
    sampleEvery = Number.isFinite(cells) ? Math.max(50, Math.round(cells / 100)) : 2000, timeoutSec = 60, requestTimeoutSec = 240, log = () => {},
  } = options;
  const deadline = minutes === undefined ? Infinity : performance.now() + minutes * 60_000;
  const fleet = await startFleet({ browsers, repls, executors, connections: concurrency, timeoutSec, requestTimeoutMs: requestTimeoutSec * 1000, log });
  try {
    await fleet.warmClients(concurrency);
    const start = await settleMemory();
    /** Latency of each cell in completion order. */
    const latencies = [];
    const samples = [];
    const errorsByKind = {};
    const errorSamples = [];
    let issued = 0;
    let windowStart = 0;
    const pickerOf = new Map();
    const began = performance.now();
    /** The worker heap of every named REPL, read by a probe cell (queued behind the clients' cells). */
    const probes = [];
    const probeWorkers = (entry) => {
      probes.push(Promise.all(fleet.replTargets.map(async (target) => {
        const answer = await fleet.call('POST', `/browsers/${target.browser}/repl`, { repl: target.name, timeout_sec: timeoutSec, code: WORKER_HEAP_PROBE });
        const bytes = answer.json?.success === true ? Number(answer.json.content.at(-1)?.text) : NaN;
        return [`${target.browser}/${target.name}`, bytes];
      })).then((heaps) => {
        entry.workerHeaps = Object.fromEntries(heaps);
      }));
    };
    const sample = () => {
      const memory = process.memoryUsage();
      const window = summarize(latencies.slice(windowStart));
      windowStart = latencies.length;
      const entry = { cells: latencies.length, seconds: (performance.now() - began) / 1000, rss: memory.rss, heapUsed: memory.heapUsed, p50: window.p50, p99: window.p99 };
      samples.push(entry);
      probeWorkers(entry);
    };
    log(`soak: ${Number.isFinite(cells) ? `${cells} cells` : `${minutes} minutes`}, ${concurrency} at a time, a sample every ${sampleEvery}`);
    await drive({
      clients: concurrency,
      seed,
      next(client, random) {
        if (issued >= cells || performance.now() >= deadline) return undefined;
        issued++;
        if (!pickerOf.has(client)) pickerOf.set(client, weightedPicker(mix, random));
        return pickerOf.get(client)();
      },
      send: fleet.send,
      onOutcome(outcome) {
        latencies.push(outcome.ms);
        if (outcome.error !== undefined) {
          errorsByKind[outcome.kind] = (errorsByKind[outcome.kind] ?? 0) + 1;
          if (errorSamples.length < ERROR_SAMPLES) errorSamples.push(outcome);
        }
        if (latencies.length % sampleEvery === 0 || latencies.length === issued && (issued >= cells || performance.now() >= deadline)) {
          sample();
          const last = samples.at(-1);
          if (samples.length % 10 === 0) log(`soak: ${last.cells} cells, RSS ${(last.rss / MiB).toFixed(0)} MiB, p50 ${ms(last.p50)}, p99 ${ms(last.p99)}`);
        }
      },
    });
    const elapsedSec = (performance.now() - began) / 1000;
    await Promise.all(probes);
    const counters = await fleet.verifyCounters();
    await fleet.closeClients();
    const after = await settleMemory();

    const tenth = Math.max(1, Math.floor(latencies.length * TENTH));
    const afterWarmUp = samples.find((entry) => entry.cells >= tenth) ?? samples[0];
    const steady = samples.filter((entry) => entry.cells >= afterWarmUp.cells);
    const end = samples.at(-1);
    const errors = Object.values(errorsByKind).reduce((a, b) => a + b, 0);
    const reference = samples.find((entry) => entry.cells >= WORKER_HEAP_REFERENCE_CELLS) ?? samples[0];
    const workerHeaps = fleet.replTargets.map((target) => {
      const name = `${target.browser}/${target.name}`;
      const series = samples.map((entry) => entry.workerHeaps?.[name]).filter((bytes) => Number.isFinite(bytes));
      return {
        name,
        atReference: reference.workerHeaps?.[name] ?? NaN,
        end: end.workerHeaps?.[name] ?? NaN,
        max: Math.max(...series),
        growthMiB: ((end.workerHeaps?.[name] ?? NaN) - (reference.workerHeaps?.[name] ?? NaN)) / MiB,
      };
    });
    return {
      options: { cells: latencies.length, minutes, mix, concurrency, browsers, repls, executors, sampleEvery, seed },
      workerHeap: { referenceCells: reference.cells, repls: workerHeaps, withinMiB: WORKER_HEAP_WITHIN_MIB, flat: workerHeaps.every((row) => Math.abs(row.growthMiB) <= WORKER_HEAP_WITHIN_MIB) },
      elapsedSec,
      completed: latencies.length,
      errors,
      errorsByKind,
      errorSamples,
      rss: {
        start: start.rss,
        afterWarmUp: afterWarmUp.rss,
        end: end.rss,
        afterSettle: after.rss,
        growthMiB: (end.rss - afterWarmUp.rss) / MiB,
        slopeMiBPer10k: slope(steady.map((entry) => entry.cells), steady.map((entry) => entry.rss / MiB)) * 10_000,
      },
      heap: {
        afterWarmUp: afterWarmUp.heapUsed,
        end: end.heapUsed,
        afterSettle: after.heapUsed,
        growthMiB: (end.heapUsed - afterWarmUp.heapUsed) / MiB,
        slopeMiBPer10k: slope(steady.map((entry) => entry.cells), steady.map((entry) => entry.heapUsed / MiB)) * 10_000,
      },
      latency: { first: summarize(latencies.slice(0, tenth)), last: summarize(latencies.slice(-tenth)), all: summarize(latencies) },
      samples,
      counters,
      countersOk: counters.every((row) => row.ok),
      ok: errors === 0 && (latencies.length === cells || !Number.isFinite(cells)) && counters.every((row) => row.ok),
    };
  } finally {
    await fleet.close();
  }
}

/** The report as markdown lines: a summary table and ten evenly spaced samples. */
export function formatSoakReport(report) {
  const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
  const signed = (value, unit) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} ${unit}`;
  const { options, rss, heap, latency } = report;
  const drift = (stat) => `${ms(latency.first[stat])} → ${ms(latency.last[stat])} (${(latency.last[stat] / latency.first[stat]).toFixed(2)}×)`;
  const lines = [
    `Soak (\`npm run soak\`, bench/soak.mjs): ${report.completed.toLocaleString('en-US')} cells, ${options.concurrency} at a time, in ${(report.elapsedSec / 60).toFixed(1)} min `
      + `(${(report.completed / report.elapsedSec).toFixed(0)} cells/s) on ${options.browsers} browsers, ${options.repls} named REPLs and ${options.executors} named executors; `
      + `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    `Mix: ${Object.entries(options.mix).map(([kind, weight]) => `${kind} ${weight}`).join(', ')} (relative weights). RSS is the server process's (the server, its worker threads and the clients; not Chromium); heap is the main thread's; a worker heap is a named REPL's, read by a probe cell after an ordinary forced collection.`,
    '',
    '| Measure | Value |',
    '|---|---|',
    `| errors | ${report.errors}${report.errors > 0 ? ` (${Object.entries(report.errorsByKind).map(([kind, count]) => `${kind} ${count}`).join(', ')})` : ''} |`,
    `| counter check (each REPL's counter = counter cells sent, answers exactly 1..n) | ${report.countersOk ? 'held' : 'FAILED'} |`,
    `| RSS at start / after warm-up (first 10 % of cells) / end / after the clients left and GC | ${mib(rss.start)} / ${mib(rss.afterWarmUp)} / ${mib(rss.end)} / ${mib(rss.afterSettle)} |`,
    `| RSS growth, after warm-up → end | ${signed(rss.growthMiB, 'MiB')} |`,
    `| RSS slope (least squares after warm-up) | ${signed(rss.slopeMiBPer10k, 'MiB per 10k cells')} |`,
    `| main-thread heap growth, after warm-up → end | ${signed(heap.growthMiB, 'MiB')} (slope ${signed(heap.slopeMiBPer10k, 'MiB per 10k cells')}; samples are taken between collections, so this is noisy) |`,
    `| main-thread heap after warm-up / after the clients left and GC | ${mib(heap.afterWarmUp)} / ${mib(heap.afterSettle)} |`,
    ...report.workerHeap.repls.map((row) => `| worker heap of ${row.name}, at ${report.workerHeap.referenceCells.toLocaleString('en-US')} cells → end (max) | ${mib(row.atReference)} → ${mib(row.end)} (${signed(row.growthMiB, 'MiB')}; max ${mib(row.max)}) |`),
    `| worker heaps within ${report.workerHeap.withinMiB} MiB of their value at ${report.workerHeap.referenceCells.toLocaleString('en-US')} cells | ${report.workerHeap.flat ? 'yes' : 'NO'} |`,
    `| latency p50, first 10 % → last 10 % of cells | ${drift('p50')} |`,
    `| latency p99, first 10 % → last 10 % of cells | ${drift('p99')} |`,
    '',
    '| Cells | Minutes | RSS | Heap | Worker heaps | p50 | p99 |',
    '|---|---|---|---|---|---|---|',
  ];
  const step = Math.max(1, Math.floor(report.samples.length / 10));
  const shown = report.samples.filter((_, index) => index % step === step - 1 || index === report.samples.length - 1);
  for (const entry of [...new Set(shown)]) {
    const workers = Object.values(entry.workerHeaps ?? {}).map((bytes) => (bytes / MiB).toFixed(1)).join(', ');
    lines.push(`| ${entry.cells.toLocaleString('en-US')} | ${(entry.seconds / 60).toFixed(1)} | ${mib(entry.rss)} | ${mib(entry.heapUsed)} | ${workers} MiB | ${ms(entry.p50)} | ${ms(entry.p99)} |`);
  }
  lines.push('', 'Latency of a cell: from sending its request to reading its whole answer, queueing behind its REPL\'s or executor\'s other cells included; p50/p99 per row are of the cells since the row before.');
  if (!report.countersOk) lines.push(...report.counters.filter((row) => !row.ok).map((row) => `- counter mismatch ${row.target}: sent ${row.sent}, binding ${row.binding}, ${row.answers} answers`));
  if (report.errorSamples.length > 0) lines.push('', 'First errors:', ...report.errorSamples.map((entry) => `- ${entry.kind} → ${entry.target} after ${ms(entry.ms)}: ${entry.error}`));
  return lines;
}

/** Puts `lines` between the soak markers of docs/reliability.md, creating the file (heading and markers) if needed. */
export function writeSoakSection(lines, file = new URL('../docs/reliability.md', import.meta.url)) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `# Reliability\n\n${BEGIN}\n${END}\n`;
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin === -1 || end === -1 || end < begin) throw new Error(`${file.pathname ?? file}: the markers ${BEGIN} and ${END} are missing or out of order`);
  writeFileSync(file, `${text.slice(0, begin + BEGIN.length)}\n${lines.join('\n')}\n${text.slice(end)}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      cells: { type: 'string' },
      minutes: { type: 'string' },
      mix: { type: 'string', default: 'default' },
      repls: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
      'sample-every': { type: 'string' },
      seed: { type: 'string', default: '1' },
      write: { type: 'boolean', default: false },
    },
  });
  const integer = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer, got ${values[name]}`);
    return value;
  };
  if (values.mix !== 'default' && values.mix !== 'trivial') throw new Error(`--mix must be default or trivial, got ${values.mix}`);
  if (values.cells !== undefined && values.minutes !== undefined) throw new Error('--cells and --minutes exclude each other');
  const trivial = values.mix === 'trivial';
  const report = await runSoak({
    ...(values.minutes === undefined ? { cells: values.cells === undefined ? 50_000 : integer('cells') } : { minutes: integer('minutes') }),
    mix: trivial ? TRIVIAL_MIX : SOAK_MIX,
    ...(trivial ? { browsers: 1, repls: 1, executors: 0 } : {}),
    ...(values.repls === undefined ? {} : { repls: integer('repls') }),
    concurrency: integer('concurrency'),
    seed: integer('seed'),
    ...(values['sample-every'] === undefined ? {} : { sampleEvery: integer('sample-every') }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const lines = formatSoakReport(report);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.write) {
    writeSoakSection(lines);
    process.stderr.write('soak: written to docs/reliability.md\n');
  }
  process.exitCode = report.ok && report.workerHeap.flat ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
