#!/usr/bin/env node
// npm run bench: runs every suite and writes docs/benchmarks.md. `--quick` for fewer iterations;
// `--only <suite>` (e.g. `--only flows`) runs one suite and prints its rows without writing the file;
// with `--write` too, its sections replace the ones of the same title in docs/benchmarks.md (or are
// added at its end), and the rest of the file is kept as it was measured.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { ms } from './stats.mjs';

const quick = process.argv.includes('--quick');
const ALL_SUITES = ['repl-core', 'cell-speed', 'interrupts', 'named-repls', 'playwright', 'interaction', 'browser-core', 'flows', 'browsers', 'agent-tools', 'agent-task', 'webmcp', 'live-view', 'computer', 'recordings', 'proxies', 'profiles', 'pools', 'reteach'];
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
  if (row.target.extraMs !== undefined) {
    const met = row.ours - row.baseline <= row.target.extraMs;
    return `≤ baseline + ${row.target.extraMs} ms: ${met ? 'met' : 'NOT met'}`;
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
/** The Markdown of one section, from its `## ` title to the blank line after it. */
function sectionLines(section) {
  const out = [`## ${section.title}`, '', `Baseline: ${section.baselineName}.`, '',
    '| Measure | Stat | chromium-repl | Baseline | Ratio | Target |', '|---|---|---|---|---|---|'];
  for (const row of section.rows) {
    // A row may measure something other than time (`format: 'MiB'`, `'chars'`, `'count'`).
    // `baseline: null`: a figure with nothing to compare it to (a part only one arm has); a zero baseline has no ratio.
    const value = row.format === 'MiB' ? (v) => `${v.toFixed(1)} MiB`
      : row.format === 'percent' ? (v) => `${v.toFixed(1)} %`
      : row.format === 'chars' ? (v) => `${v.toLocaleString('en-US')} chars`
        : row.format === 'count' ? (v) => String(v) : ms;
    const baseline = row.baseline === null ? '—' : value(row.baseline);
    const ratio = row.baseline === null || row.baseline === 0 ? '—' : `${(row.ours / row.baseline).toFixed(2)}×`;
    out.push(`| ${row.name} | ${row.unit} | ${value(row.ours)} | ${baseline} | ${ratio} | ${verdict(row)} |`);
  }
  if (section.notes) out.push('', ...section.notes);
  out.push('');
  return out;
}
for (const section of sections) lines.push(...sectionLines(section));
const benchmarksFile = new URL('../docs/benchmarks.md', import.meta.url);
if (only === undefined) writeFileSync(benchmarksFile, [...lines, ...keptSections(readFileSync(benchmarksFile, 'utf8'))].join('\n'));
else if (process.argv.includes('--write')) writeFileSync(benchmarksFile, mergeSections(readFileSync(benchmarksFile, 'utf8'), sections));

/** `text` with each section of `measured` in place of the one of the same title, or added at the end. */
function mergeSections(text, measured) {
  const stamp = `(this section: Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, \`npm run bench -- --only ${only} --write\`${quick ? ', quick run' : ''})`;
  let merged = text.endsWith('\n') ? text : `${text}\n`;
  for (const section of measured) {
    const block = sectionLines({ ...section, notes: [...(section.notes ?? []), stamp] }).join('\n');
    const start = merged.indexOf(`\n## ${section.title}\n`);
    if (start === -1) {
      merged = `${merged}${merged.endsWith('\n\n') ? '' : '\n'}${block}\n`;
      continue;
    }
    const next = merged.indexOf('\n## ', start + 1);
    merged = `${merged.slice(0, start + 1)}${block}\n${next === -1 ? '' : merged.slice(next + 1)}`;
  }
  return merged;
}
process.stdout.write(`${lines.join('\n')}\n`);

/**
 * The sections other scripts write between `<!-- BEGIN … -->` markers (bench/capacity-servers.mjs):
 * a full run keeps them as they are, since it does not measure them.
 */
function keptSections(text) {
  return text.split(/\n(?=## )/).filter((section) => section.startsWith('## ') && /<!-- BEGIN [A-Z-]+ -->/.test(section))
    .map((section) => section.replace(/\n*$/, '\n'));
}
