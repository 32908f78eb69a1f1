// Load smoke (issue 13, "Load", 15 s in CI; LOAD_DURATION_SEC overrides): bench/load.mjs's
// runLoad against the real server in this process, with real headless Chromium: 4 browsers,
// 8 named REPLs, 4 named executors, 200 concurrent clients. What must hold on any machine:
// zero errors (every answer 200, success, and the expected value), no lost or doubled cell
// (each REPL's counter equals the counter cells sent to it and their answers are exactly 1..n),
// every kind of cell exercised, memory after the clients left not wildly above the baseline,
// and nothing of the run left behind (REPL and executor threads, Chromium child processes).
// Latency and RSS figures are printed, never asserted: a loaded CI machine may be slow.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { liveExecutorThreads } from '../../dist/lib/executor/executor-worker.js';
import { liveWorkerThreads } from '../../dist/lib/repl/repl-worker.js';
import { LOAD_MIX, formatLoadReport, runLoad } from '../../bench/load.mjs';

const GiB = 2 ** 30;
const duration = process.env.LOAD_DURATION_SEC === undefined ? 15 : Number(process.env.LOAD_DURATION_SEC);
if (!(duration > 0)) throw new Error(`LOAD_DURATION_SEC must be a positive number of seconds, got ${process.env.LOAD_DURATION_SEC}`);

/** Pids of this process's direct children whose command is Chromium (the launcher starts them). */
function chromiumChildren() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, command, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (rest !== undefined && Number(rest.split(' ')[1]) === process.pid && /chrom/i.test(command)) pids.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return pids;
}

/** Waits (≤ 30 s, for a loaded machine) until `check()` holds: threads and processes exit a moment after close. */
async function eventually(check) {
  const until = Date.now() + 30_000;
  while (!check() && Date.now() < until) await sleep(100);
  return check();
}

t.test(`200 clients for ${duration} s over 8 named REPLs, 4 executors and 4 browsers`, async (t) => {
  const threadsBefore = { repl: liveWorkerThreads(), executor: liveExecutorThreads() };
  // Generous deadlines: on 2 shared cores with another test file beside this one, a cell can
  // wait seconds behind the 20-odd clients queued on its REPL.
  const report = await runLoad({ duration, clients: 200, timeoutSec: 60, requestTimeoutSec: 240, log: (line) => t.comment(line) });
  for (const line of formatLoadReport(report)) t.comment(line);

  t.equal(report.errors, 0, 'no request failed, and every answer was the expected one',
    { samples: report.errorSamples.map((sample) => `${sample.kind} → ${sample.target}: ${sample.error}`) });
  t.ok(report.countersOk, 'every REPL\'s counter equals the counter cells sent to it; their answers are exactly 1..n',
    { mismatches: report.counters.filter((row) => !row.ok) });
  t.equal(report.counters.length, 8, 'all 8 named REPLs were checked');
  for (const kind of Object.keys(LOAD_MIX)) t.ok(report.byKind[kind].count > 0, `${kind} cells were sent (${report.byKind[kind].count})`);
  // Not a threshold a slow machine could miss: a leak of the run's size would show as far more.
  t.ok(report.rss.after < report.rss.baseline + GiB,
    `RSS after the clients left (${(report.rss.after / 2 ** 20).toFixed(0)} MiB) is below the baseline (${(report.rss.baseline / 2 ** 20).toFixed(0)} MiB) + 1 GiB`);

  t.ok(await eventually(() => liveWorkerThreads() === threadsBefore.repl), 'every REPL worker thread exited');
  t.ok(await eventually(() => liveExecutorThreads() === threadsBefore.executor), 'every executor worker thread exited');
  t.ok(await eventually(() => chromiumChildren().length === 0), 'no Chromium started by the run is left', { left: chromiumChildren() });
});
