// Capacity across servers (issue 32, docs/deploy.md#one-service-from-many-servers): many clients
// creating and deleting browsers against a few servers joined as peers, with less room than
// clients, so that creates wait in the servers' queues.
//
//   npm run capacity:servers [-- --clients 50 --servers 3 --room 2 --seconds 60 --hold-ms 500] [-- --write]
//
// Starts `--servers` real `chromium-repl serve` processes on loopback, each with room for
// `--room` browsers and a create wait, joined by BROWSER_REPL_PEERS. `--clients` clients, each an
// @onkernel/sdk client of one server (client i talks to server i mod servers, as a Service would
// spread them), loop for `--seconds`: create a browser (waiting for room), hold it `--hold-ms`,
// delete it. Every 250 ms the bench reads each server's GET /pressure.
//
// It reports:
//   - accounting: every create answered exactly once, with a browser id no other create got (no
//     request doubled), every browser deleted (204), and at the end no browser listed by any
//     server and none running or queued (none lost, none created twice behind one answer);
//   - time to a browser (from the create's request to its answer): p50, p90, p99, max;
//   - the queue over time (creates waiting, summed over the servers) and the browsers running, as
//     an SVG drawn here (no dependency): docs/images/capacity-queue.svg with --write.
// With --write the table goes between the CAPACITY-SERVERS markers of docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import Kernel from '@onkernel/sdk';
import { request } from 'undici';
import { freePorts } from '../test/helpers/loopback.mjs';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    servers: { type: 'string', default: '3' },
    room: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '60' },
    'hold-ms': { type: 'string', default: '500' },
    write: { type: 'boolean', default: false },
  },
});
const integer = (name, min) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer of at least ${min}`);
  return value;
};
const CLIENTS = integer('clients', 1);
const SERVERS = integer('servers', 1);
const ROOM = integer('room', 1);
const SECONDS = integer('seconds', 5);
const HOLD_MS = integer('hold-ms', 0);
const WAIT_SECONDS = 300;
const TOKEN = 'bench-capacity-servers';
const MAIN = new URL('../dist/lib/cli/main.js', import.meta.url).pathname;

const nodes = (await freePorts(SERVERS)).map((port, index) => ({ name: `bench-${index}`, port, url: `http://127.0.0.1:${port}` }));
const peerList = nodes.map((node) => `${node.name}=${node.url}`).join(',');

/** Starts one server; resolves once it prints its listening line. */
async function startServe(node) {
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(node.port), BROWSER_REPL_TOKEN: TOKEN, BROWSER_REPL_NODE_ID: node.name, BROWSER_REPL_PEERS: peerList };
  delete env.NODE_DEBUG;
  const child = spawn(process.execPath, [MAIN, 'serve', '--max-browsers', String(ROOM), '--create-wait-seconds', String(WAIT_SECONDS), '--create-queue', String(CLIENTS)],
    { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = once(child, 'close');
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (/chromium-repl listening on /.test(output)) resolve();
    });
    closed.then(([code]) => reject(new Error(`${node.name} exited with ${code} before listening: ${output}`)));
  });
  return { child, closed };
}

const auth = { authorization: `Bearer ${TOKEN}` };
async function pressureOf(node) {
  const response = await request(`${node.url}/pressure`, { headers: auth });
  return response.body.json();
}

const processes = [];
let sampler;
try {
  for (const node of nodes) processes.push(await startServe(node));

  // The queue and the browsers running, every 250 ms, summed over the servers.
  const started = performance.now();
  const samples = [];
  let sampling = true;
  sampler = (async () => {
    while (sampling) {
      const at = (performance.now() - started) / 1000;
      const pressures = await Promise.all(nodes.map((node) => pressureOf(node).catch(() => undefined)));
      const live = pressures.filter((p) => p !== undefined);
      samples.push({
        at,
        queued: live.reduce((sum, p) => sum + p.queued, 0),
        running: live.reduce((sum, p) => sum + p.running + (p.starting ?? 0), 0),
        perServer: pressures.map((p) => p?.queued ?? null),
      });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  const creates = [];
  const deletes = [];
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
    const server = client % SERVERS;
    const kernel = new Kernel({ apiKey: TOKEN, baseURL: nodes[server].url, maxRetries: 0, timeout: (WAIT_SECONDS + 60) * 1000 });
    // Start the clients over the first second, not all in one instant.
    await new Promise((resolve) => setTimeout(resolve, (client * 1000) / CLIENTS));
    while (performance.now() < deadline) {
      const begin = performance.now();
      const record = { client, server, begin: (begin - started) / 1000, ms: undefined, id: undefined, error: undefined };
      creates.push(record);
      try {
        const browser = await kernel.browsers.create({}, { headers: { 'x-wait-timeout': String(WAIT_SECONDS) } });
        record.ms = performance.now() - begin;
        record.id = browser.session_id;
      } catch (error) {
        record.ms = performance.now() - begin;
        record.error = `${error.status ?? ''} ${error.message}`.trim();
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      try {
        const response = await kernel.browsers.deleteByID(record.id).asResponse();
        deletes.push({ id: record.id, status: response.status });
      } catch (error) {
        deletes.push({ id: record.id, status: error.status ?? 0, error: error.message });
      }
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;

  // Accounting.
  const ok = creates.filter((c) => c.id !== undefined);
  const failed = creates.filter((c) => c.error !== undefined);
  const unanswered = creates.filter((c) => c.id === undefined && c.error === undefined);
  const ids = new Map();
  for (const c of ok) ids.set(c.id, (ids.get(c.id) ?? 0) + 1);
  const doubled = [...ids].filter(([, n]) => n > 1);
  const deleted = deletes.filter((d) => d.status === 204);
  const leftListed = new Set();
  for (const node of nodes) {
    const kernel = new Kernel({ apiKey: TOKEN, baseURL: node.url, maxRetries: 0 });
    for (const row of (await kernel.browsers.list({ limit: 100 })).getPaginatedItems()) leftListed.add(row.session_id);
  }
  // Browsers of POST /browsers (`running`) and waiting creates (`queued`); not `starting`, which
  // also counts browsers still ending after their delete and the warm pool's launches.
  const finalPressure = await Promise.all(nodes.map(pressureOf));
  const leftRunning = finalPressure.reduce((sum, p) => sum + p.running + p.queued, 0);
  const leftStarting = finalPressure.reduce((sum, p) => sum + (p.starting ?? 0), 0);
  const perServer = nodes.map((node) => ok.filter((c) => c.id.startsWith(`${node.name}.`)).length);
  const placedElsewhere = ok.filter((c) => !c.id.startsWith(`${nodes[c.server].name}.`)).length;

  const times = ok.map((c) => c.ms).sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  const seconds = (value) => `${(value / 1000).toFixed(2)} s`;
  const maxQueued = Math.max(0, ...samples.map((s) => s.queued));
  const meanQueued = samples.reduce((sum, s) => sum + s.queued, 0) / Math.max(1, samples.length);
  const maxRunning = Math.max(0, ...samples.map((s) => s.running));
  const lossless = failed.length === 0 && unanswered.length === 0 && doubled.length === 0 && deleted.length === ok.length && leftListed.size === 0 && leftRunning === 0;

  const date = new Date().toISOString().slice(0, 10);
  const report = [
    `\`npm run capacity:servers\` (\`bench/capacity-servers.mjs\`): ${CLIENTS} clients (@onkernel/sdk, each pointed at one of the servers, round robin) creating a browser, holding it ${HOLD_MS} ms and deleting it, for ${SECONDS} s, against ${SERVERS} \`chromium-repl serve\` processes on loopback joined as peers, each with room for ${ROOM} (${SERVERS * ROOM} in all) and a create wait. Real Chromium. ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end, ${date}.`,
    '',
    '| Measure | Value |',
    '|---|---|',
    `| creates answered | ${creates.length - unanswered.length} of ${creates.length} (${ok.length} browsers, ${failed.length} refused or failed) |`,
    `| browser ids given twice | ${doubled.length} |`,
    `| browsers deleted (204) | ${deleted.length} of ${ok.length} |`,
    `| left at the end (listed by any server; running or queued by /pressure) | ${leftListed.size} listed, ${leftRunning} running or queued (${leftStarting} still ending or warming the pool, not counted) |`,
    `| **no request lost or doubled** | **${lossless ? 'yes' : 'NO'}** |`,
    `| placed on another server than the one asked | ${placedElsewhere} of ${ok.length} (per server: ${perServer.join(', ')}) |`,
    `| throughput | ${(ok.length / elapsed).toFixed(2)} browsers/s over ${elapsed.toFixed(1)} s |`,
    `| time to a browser: p50 / p90 / **p99** / max | ${seconds(at(0.5))} / ${seconds(at(0.9))} / **${seconds(at(0.99))}** / ${seconds(times.at(-1) ?? NaN)} |`,
    `| creates waiting (all servers): most / mean | ${maxQueued} / ${meanQueued.toFixed(1)} |`,
    `| browsers alive (running, starting or ending): most | ${maxRunning} of ${SERVERS * ROOM} |`,
    '',
    '![Creates waiting and browsers running over time](images/capacity-queue.svg)',
  ].join('\n');
  process.stdout.write(`${report}\n`);
  if (failed.length > 0) process.stdout.write(`failures: ${[...new Set(failed.map((f) => f.error))].slice(0, 5).join('; ')}\n`);

  const svg = drawQueue(samples, { capacity: SERVERS * ROOM, title: `${CLIENTS} clients, ${SERVERS} servers with room for ${SERVERS * ROOM}: creates waiting and browsers running` });
  if (values.write) {
    writeFileSync(new URL('../docs/images/capacity-queue.svg', import.meta.url), svg);
    const path = new URL('../docs/benchmarks.md', import.meta.url);
    const doc = readFileSync(path, 'utf8');
    const begin = '<!-- BEGIN CAPACITY-SERVERS -->';
    const start = doc.indexOf(begin);
    const stop = doc.indexOf('<!-- END CAPACITY-SERVERS -->');
    if (start === -1 || stop === -1) throw new Error('docs/benchmarks.md lacks the CAPACITY-SERVERS markers');
    writeFileSync(path, `${doc.slice(0, start + begin.length)}\n${report}\n${doc.slice(stop)}`);
    process.stderr.write('docs/benchmarks.md and docs/images/capacity-queue.svg updated\n');
  }
  if (!lossless) process.exitCode = 1;
} finally {
  for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(processes.map(({ closed }) => closed));
}

/** A line chart of the samples as SVG text: creates waiting (filled) and browsers running, over seconds. */
function drawQueue(points, { capacity, title }) {
  const width = 760;
  const height = 320;
  const left = 48;
  const right = 16;
  const top = 56;
  const bottom = 44;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const maxT = Math.max(1, ...points.map((p) => p.at));
  const maxY = Math.max(capacity, ...points.map((p) => Math.max(p.queued, p.running)));
  const step = (range, wanted) => {
    const raw = range / wanted;
    const power = 10 ** Math.floor(Math.log10(raw));
    return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  };
  const yStep = step(maxY, 5);
  const yTop = Math.ceil(maxY / yStep) * yStep;
  const tStep = step(maxT, 8);
  const x = (t) => (left + (t / maxT) * plotWidth).toFixed(1);
  const y = (v) => (top + plotHeight - (v / yTop) * plotHeight).toFixed(1);
  const path = (key) => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.at)},${y(p[key])}`).join(' ');
  const area = points.length === 0 ? '' : `${path('queued')} L${x(points.at(-1).at)},${y(0)} L${x(points[0].at)},${y(0)} Z`;
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="18" font-size="13" font-weight="bold">${escape(title)}</text>`,
  ];
  for (let v = 0; v <= yTop; v += yStep) {
    lines.push(`<line x1="${left}" y1="${y(v)}" x2="${width - right}" y2="${y(v)}" stroke="#e4e4e4"/>`);
    lines.push(`<text x="${left - 6}" y="${(Number(y(v)) + 4).toFixed(1)}" text-anchor="end" fill="#444">${v}</text>`);
  }
  for (let t = 0; t <= maxT; t += tStep) {
    lines.push(`<line x1="${x(t)}" y1="${top + plotHeight}" x2="${x(t)}" y2="${top + plotHeight + 4}" stroke="#444"/>`);
    lines.push(`<text x="${x(t)}" y="${top + plotHeight + 17}" text-anchor="middle" fill="#444">${t}</text>`);
  }
  lines.push(`<text x="${left + plotWidth / 2}" y="${height - 8}" text-anchor="middle" fill="#444">seconds</text>`);
  lines.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="#444"/>`);
  lines.push(`<line x1="${left}" y1="${top + plotHeight}" x2="${width - right}" y2="${top + plotHeight}" stroke="#444"/>`);
  lines.push(`<path d="${area}" fill="#4a7fd6" fill-opacity="0.25" stroke="#2f5fb3" stroke-width="1.5"/>`);
  // The room first: the browsers alive sit on it most of the time, and must stay visible over it.
  lines.push(`<line x1="${left}" y1="${y(capacity)}" x2="${width - right}" y2="${y(capacity)}" stroke="#c0392b" stroke-dasharray="5 4"/>`);
  lines.push(`<path d="${path('running')}" fill="none" stroke="#2e9a48" stroke-width="2.5"/>`);
  const legend = [['#2f5fb3', 'creates waiting (sum of /pressure queued)'], ['#2e9a48', 'browsers alive (running, starting, ending)'], ['#c0392b', `room in all (${capacity})`]];
  legend.forEach(([color, label], i) => {
    const lx = left + 10 + [0, 290, 560][i];
    lines.push(`<line x1="${lx}" y1="36" x2="${lx + 18}" y2="36" stroke="${color}" stroke-width="3"/>`);
    lines.push(`<text x="${lx + 24}" y="40" fill="#222">${escape(label)}</text>`);
  });
  lines.push('</svg>', '');
  return lines.join('\n');
}
