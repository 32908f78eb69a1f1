// Capacity of one server (one pod): the memory one more browser costs, measured, so that
// docs/deploy.md can say how many browsers, REPLs and cells a pod of a given size takes.
//
//   npm run capacity [-- --browsers 6] [-- --write]
//
// Starts the real server on loopback, creates browsers through POST /browsers one by one, and in
// each runs a cell that opens a fixture page (a form, a table, an image) and takes an
// accessibility snapshot, as an agent's first step does. After each browser it reads:
//   - Chromium: the PSS of every process of that browser (all processes whose command line names
//     its profile), from /proc/<pid>/smaps_rollup. PSS shares each shared page among the
//     processes that map it, which is how a cgroup's memory is charged, not RSS (which would
//     count Chromium's shared libraries once per process).
//   - the server: this process's PSS growth (the browser's host, its REPL worker thread).
// With --write the table goes between the CAPACITY markers of docs/deploy.md.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startServer } from '../dist/lib/index.js';
import { startFixtureServer } from '../test/helpers/fixture-server.mjs';

const { values } = parseArgs({ options: { browsers: { type: 'string', default: '6' }, write: { type: 'boolean', default: false } } });
const count = Number(values.browsers);
if (!Number.isInteger(count) || count < 2) throw new Error('--browsers must be an integer of at least 2');

const MiB = 1024 * 1024;

function pssOf(pid) {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0; // exited meanwhile
  }
}

/** PSS of every process whose command line names `needle`. */
function pssOfProcessesNaming(needle) {
  let total = 0;
  let processes = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline;
    try { cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmdline.includes(needle)) continue;
    total += pssOf(Number(entry));
    processes += 1;
  }
  return { bytes: total, processes };
}

async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  globalThis.gc?.();
}

const fixtures = await startFixtureServer();
const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, maxBrowsers: count, primaryBrowser: { browser: { cdpEndpoint: null } } });
const call = async (method, path, body) => {
  const response = await request(`${server.url}${path}`, {
    method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
};
const page = fixtures.url('flows-booking.html');
const firstCell = `await gotoUrl(${JSON.stringify(page)}); await waitForLoad(); const snapshot = await accessibilitySnapshot(); repl.write(String(snapshot.nodes.length));`;

const rows = [];
try {
  await settle();
  let serverBefore = pssOf(process.pid);
  for (let index = 0; index < count; index++) {
    const created = await call('POST', '/browsers', {});
    const result = await call('POST', `/browsers/${created.session_id}/repl`, { code: firstCell, timeout_sec: 120 });
    if (!result.success) throw new Error(`the first cell failed: ${result.error}`);
    await settle();
    const profile = server.app.browsers.get(created.session_id).chromium.userDataDir;
    const chromium = pssOfProcessesNaming(profile);
    const serverNow = pssOf(process.pid);
    rows.push({ chromium: chromium.bytes, processes: chromium.processes, server: serverNow - serverBefore });
    serverBefore = serverNow;
    process.stderr.write(`browser ${index + 1}: Chromium ${(chromium.bytes / MiB).toFixed(1)} MiB in ${chromium.processes} processes, server +${((rows.at(-1).server) / MiB).toFixed(1)} MiB\n`);
  }
} finally {
  await server.close();
  await fixtures.close();
}

// The first browser also pays for the server's one-time costs (the first REPL worker's code, the
// pool of the first launch): the steady cost is the mean of the others.
const steady = rows.slice(1);
const mean = (pick) => steady.reduce((sum, row) => sum + pick(row), 0) / steady.length;
const chromiumMiB = mean((row) => row.chromium) / MiB;
const serverMiB = mean((row) => row.server) / MiB;
const perBrowserMiB = chromiumMiB + serverMiB;
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  `\`npm run capacity\` (\`bench/capacity.mjs\`): ${count} browsers created one by one through \`POST /browsers\`, each`,
  'opening a fixture booking page and taking an accessibility snapshot in its first cell; PSS read',
  `after each (steady figures: browsers 2..${count}). ${cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| Measure | Value |',
  '|---|---|',
  `| Chromium per browser (PSS of its ${Math.round(mean((row) => row.processes))} processes, one tab) | ${chromiumMiB.toFixed(0)} MiB |`,
  `| server per browser (its host and REPL worker thread) | ${serverMiB.toFixed(0)} MiB |`,
  `| **one live browser** | **${perBrowserMiB.toFixed(0)} MiB** |`,
  `| first browser, Chromium + server (one-time costs included) | ${((rows[0].chromium + rows[0].server) / MiB).toFixed(0)} MiB |`,
];
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
if (values.write) {
  const path = new URL('../docs/deploy.md', import.meta.url);
  const doc = readFileSync(path, 'utf8');
  const begin = '<!-- BEGIN CAPACITY -->';
  const end = '<!-- END CAPACITY -->';
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end);
  if (start === -1 || stop === -1) throw new Error('docs/deploy.md lacks the CAPACITY markers');
  writeFileSync(path, `${doc.slice(0, start + begin.length)}\n${report}\n${doc.slice(stop)}`);
  process.stderr.write('docs/deploy.md updated\n');
}
