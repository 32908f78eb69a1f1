#!/usr/bin/env node
// npm run bench: runs every suite and writes docs/benchmarks.md. `--quick` for fewer iterations;
// `--only <suite>` (e.g. `--only flows`) runs one suite and prints its rows without writing the file.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { ms } from './stats.mjs';

const quick = process.argv.includes('--quick');
const ALL_SUITES = ['repl-core', 'cell-speed', 'interrupts', 'named-repls', 'playwright', 'interaction', 'browser-core', 'flows', 'browsers', 'agent-tools', 'agent-task', 'webmcp'];
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? undefined : process.argv[onlyIndex + 1];
if (only !== undefined && !ALL_SUITES.includes(only)) throw new Error(`--only: unknown suite ${only}; one of ${ALL_SUITES.join(', ')}`);
const suites = (only === undefined ? ALL_SUITES : [only]).map((name) => `./suites/${name}.mjs`);
const sections = [];
for (const path of suites) {
  const suite = await import(path);
  process.stdout.write(`bench: ${path}\n`);
  // A suite returns one section or several.
  sections.push(...[await suite.run({ quick })].flat());
}

function verdict(row) {
  if (row.verdict !== undefined) return row.verdict;
  if (row.target === undefined) return '';
  if (row.target.ratio !== undefined) {
    const met = row.ours / row.baseline <= row.target.ratio;
    return `≤ ${row.target.ratio}× baseline: ${met ? 'met' : 'NOT met'}`;
  }
  const met = row.ours <= row.target.absoluteMs;
  return `≤ ${row.target.absoluteMs} ms: ${met ? 'met' : 'NOT met'}`;
}

const lines = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (`bench/run.mjs`); every figure is measured in the same run as its',
  'baseline, on the same machine, and compared as a ratio (lower is better for us).',
  '',
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}${quick ? ' (quick run)' : ''}.`,
  '',
];
for (const section of sections) {
  lines.push(`## ${section.title}`, '', `Baseline: ${section.baselineName}.`, '',
    '| Measure | Stat | chromium-repl | Baseline | Ratio | Target |', '|---|---|---|---|---|---|');
  for (const row of section.rows) {
    // A row may measure something other than time (`format: 'MiB'`, `'chars'`, `'count'`).
    const value = row.format === 'MiB' ? (v) => `${v.toFixed(1)} MiB`
      : row.format === 'chars' ? (v) => `${v.toLocaleString('en-US')} chars`
        : row.format === 'count' ? (v) => String(v) : ms;
    lines.push(`| ${row.name} | ${row.unit} | ${value(row.ours)} | ${value(row.baseline)} | ${(row.ours / row.baseline).toFixed(2)}× | ${verdict(row)} |`);
  }
  if (section.notes) lines.push('', ...section.notes);
  lines.push('');
}
if (only === undefined) writeFileSync(new URL('../docs/benchmarks.md', import.meta.url), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
