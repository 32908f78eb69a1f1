// Issue 5: the execute-call round trip (`return 1`) against the REPL round trip on the same server,
// and the cost of a new executor's first call (worker + Playwright import + connect + tab) against
// a child process that runs the same executor loop over IPC and does the same steps.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Pool } from 'undici';
import { BrowserManager, PlaywrightExecutors, startServer } from '../../dist/lib/index.js';
import { TabRegistry } from '../../dist/lib/chromium/tab-registry.js';
import { summarize } from '../stats.mjs';

const CHILD_FLAG = 'BROWSER_REPL_BENCH_EXECUTOR_CHILD';

// This file is also the baseline's child entry: the executor worker loop over child-process IPC.
if (process.env[CHILD_FLAG] === '1') {
  const { serveExecutor } = await import('../../dist/worker/executor/serve-executor.js');
  serveExecutor({
    workerId: process.env.BENCH_WORKER_ID,
    engine: 'playwright-core',
    port: {
      postMessage: (message) => process.send(message),
      on: (_event, listener) => process.on('message', listener),
    },
  });
}

/** The baseline: open the tab ∥ fork the child, handshake, run `return 1` on that tab, kill the child, close the tab. */
async function childFirstCall(manager, tabs) {
  const workerId = randomUUID();
  const child = fork(new URL(import.meta.url), [], { env: { ...process.env, [CHILD_FLAG]: '1', BENCH_WORKER_ID: workerId } });
  const exited = once(child, 'exit');
  let onReply;
  const replied = new Promise((resolve) => { onReply = resolve; });
  let onReady;
  const ready = new Promise((resolve) => { onReady = resolve; });
  child.on('message', async (message) => {
    if (message.type === 'ready') onReady();
    else if (message.type === 'reply') onReply(message);
    else if (message.type === 'endpoint-request') {
      child.send({ type: 'endpoint-reply', requestId: message.requestId, endpoint: await manager.endpoint() });
    }
  });
  const [targetId] = await Promise.all([tabs.openTab(), ready]);
  child.send({ type: 'run', requestId: 1, code: 'return 1', timeoutMs: 60_000, targetId, tabCreated: true });
  const reply = await replied;
  if (!reply.success) throw new Error(`baseline call failed: ${reply.error?.message ?? "no error"}`);
  child.kill('SIGKILL');
  await exited;
  await tabs.closeTab(targetId);
}

async function ourFirstCall(executors) {
  const answer = await executors.execute({ code: 'return 1', executor: 'bench' });
  if (!answer.success) throw new Error(`first call failed: ${answer.error}`);
  await executors.delete('bench');
}

/** Both round trips over HTTP, interleaved call by call so that machine noise hits both alike. */
async function interleavedHttp(url, iterations) {
  const pool = new Pool(url, { connections: 1 });
  const post = async (path, body) => {
    const response = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const json = await response.body.json();
    if (json.success !== true) throw new Error(`${path} failed: ${JSON.stringify(json)}`);
  };
  const calls = {
    execute: () => post('/playwright/execute', JSON.stringify({ code: 'return 1' })),
    repl: () => post('/repl', JSON.stringify({ code: 'repl.write("1")' })),
  };
  const times = { execute: [], repl: [] };
  for (let i = 0; i < 200; i++) { await calls.execute(); await calls.repl(); }
  for (let i = 0; i < iterations; i++) {
    for (const name of i % 2 === 0 ? ['execute', 'repl'] : ['repl', 'execute']) {
      const start = process.hrtime.bigint();
      await calls[name]();
      times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  await pool.close();
  return { execute: summarize(times.execute), repl: summarize(times.repl) };
}

export async function run({ quick }) {
  const iterations = quick ? 300 : 2000;
  const coldIterations = quick ? 5 : 15;
  const rows = [];

  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: { cdpEndpoint: null } } });
  const { execute, repl } = await interleavedHttp(server.url, iterations);
  rows.push({ name: 'execute `return 1` round trip over HTTP vs REPL cell', unit: 'p50', ours: execute.p50, baseline: repl.p50 });
  rows.push({ name: 'execute `return 1` round trip over HTTP vs REPL cell', unit: 'p99', ours: execute.p99, baseline: repl.p99 });
  await server.close();

  const manager = new BrowserManager({ cdpEndpoint: null });
  await manager.endpoint();
  const tabs = new TabRegistry({ endpoint: () => manager.endpoint() });
  const warm = new PlaywrightExecutors({ browser: manager });
  const cold = new PlaywrightExecutors({ browser: manager, warmSpare: false });
  await warm.execute({ code: 'return 1' }); // starts the warm spare
  // Spaced like an agent's calls (the spare needs about a second to refill), and interleaved so
  // that machine noise hits the three alike.
  const pauseMs = 1500;
  const runs = { baseline: () => childFirstCall(manager, tabs), withSpare: () => ourFirstCall(warm), withoutSpare: () => ourFirstCall(cold) };
  const times = { baseline: [], withSpare: [], withoutSpare: [] };
  for (const run of Object.values(runs)) await run();
  for (let i = 0; i < coldIterations; i++) {
    for (const [name, run] of Object.entries(runs)) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const start = process.hrtime.bigint();
      await run();
      times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const [baseline, withSpare, withoutSpare] = [times.baseline, times.withSpare, times.withoutSpare].map(summarize);
  rows.push({ name: 'new named executor, first call (tab + worker + connect)', unit: 'p50', ours: withSpare.p50, baseline: baseline.p50, target: { ratio: 0.6 } });
  rows.push({ name: 'same, without the warm spare (thread start + Playwright import)', unit: 'p50', ours: withoutSpare.p50, baseline: baseline.p50 });
  await Promise.all([warm.close(), cold.close(), tabs.close()]);
  await manager.close();

  return {
    title: 'Playwright executors (issue 5)',
    baselineName: 'the REPL round trip on the same server (first two rows); a child process running the same executor loop over IPC, forked per call (other rows)',
    rows,
    notes: [
      'The round trips are interleaved call by call on one server. Each first call opens a tab, starts a worker (or forks the',
      'child), imports Playwright, connects over CDP, binds `page` and runs `return 1`; the executor is then deleted (its tab',
      `closed). First calls are ${pauseMs} ms apart, so that the warm spare can refill as it does between an agent's calls, and interleaved.`,
    ],
  };
}
