// The fleet that bench/load.mjs, bench/soak.mjs and test/reliability/load-smoke.test.mjs drive:
// the real server in this process (startServer on 127.0.0.1:0, real headless Chromium), the
// fixture server (test/fixtures on 127.0.0.1), browsers (the default one counts as one), named
// REPLs spread round-robin over them, named Playwright executors likewise, and one undici Agent
// with a connection per client so that no client waits for a socket another one holds.
//
// Every cell a client sends has an answer the fleet can check: arithmetic answers its sum, a
// counter cell answers the REPL's `counter` binding after its own increment, a browser helper
// answers what the REPL's fixture page says. Anything else is an error. Counter answers are
// kept per REPL, so the end of a run can prove that no cell was lost or ran twice: the answers
// are exactly 1..sent and the binding equals sent.
import { Agent, request } from 'undici';
import { startServer } from '../../dist/lib/index.js';
import { startFixtureServer } from './fixture-server.mjs';

const REPL_PAGE = { file: 'basic.html', title: 'Basic fixture', heading: 'Hello from the fixture server' };
const EXECUTOR_PAGE = { file: 'playwright-executor.html', title: 'Executor fixture' };
/** Kept in full in an error sample; the rest of a long answer is cut. */
const SAMPLE_CHARS = 400;

/** Deterministic PRNG (mulberry32): a seed replays the same choice of cells. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

const writes = (json) => (json?.content ?? []).filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

/**
 * The kinds of cell, each with the target it needs, the request it sends and the check of its
 * answer. `check` returns undefined when the answer is the expected one, else why not.
 */
export const CELL_KINDS = {
  trivial: {
    target: 'repl',
    body: () => ({ code: '1' }),
    check: (json) => (writes(json).length === 0 ? undefined : `expected no output, got ${JSON.stringify(writes(json))}`),
  },
  counter: {
    target: 'repl',
    body: () => ({ code: 'counter += 1; repl.write(String(counter))' }),
    check(json, target) {
      const value = Number(writes(json).at(-1));
      if (!Number.isInteger(value) || value < 1) return `expected the counter, got ${JSON.stringify(writes(json))}`;
      target.counterAnswers.push(value);
      return undefined;
    },
  },
  arithmetic: {
    target: 'repl',
    body(random) {
      const a = Math.floor(random() * 1000);
      const b = Math.floor(random() * 1000);
      return { code: `repl.write(String(${a} * ${b}))`, expected: String(a * b) };
    },
    check: (json, _target, sent) => (writes(json).at(-1) === sent.expected ? undefined : `expected ${sent.expected}, got ${JSON.stringify(writes(json))}`),
  },
  title: {
    target: 'repl',
    body: () => ({ code: 'repl.write(await js("document.title"))' }),
    check: (json) => (writes(json).at(-1) === REPL_PAGE.title ? undefined : `expected the title ${REPL_PAGE.title}, got ${JSON.stringify(writes(json))}`),
  },
  evaluate: {
    target: 'repl',
    body(random) {
      const n = Math.floor(random() * 1000);
      return { code: `repl.write(String(await js((n) => n + document.querySelectorAll("h1").length, { arg: ${n} })))`, expected: String(n + 1) };
    },
    check: (json, _target, sent) => (writes(json).at(-1) === sent.expected ? undefined : `expected ${sent.expected}, got ${JSON.stringify(writes(json))}`),
  },
  snapshot: {
    target: 'repl',
    // A block: its `const` is scoped to the cell, so the cell can run again in the same REPL.
    body: () => ({ code: '{ const { nodes } = await accessibilitySnapshot(); repl.write(nodes.find((node) => node.role === "heading")?.name ?? "no heading") }' }),
    check: (json) => (writes(json).at(-1) === REPL_PAGE.heading ? undefined : `expected the heading "${REPL_PAGE.heading}", got ${JSON.stringify(writes(json))}`),
  },
  executor: {
    target: 'executor',
    body(random) {
      const n = Math.floor(random() * 1000);
      return { code: `return [await page.title(), await page.evaluate((n) => n * 2, ${n})]`, expected: [EXECUTOR_PAGE.title, n * 2] };
    },
    check: (json, _target, sent) => (JSON.stringify(json?.result) === JSON.stringify(sent.expected) ? undefined : `expected ${JSON.stringify(sent.expected)}, got ${JSON.stringify(json?.result)}`),
  },
};

/** Picks a kind by weight (`{kind: weight}`). */
export function weightedPicker(weights, random) {
  const entries = Object.entries(weights).filter(([, weight]) => weight > 0);
  for (const [kind] of entries) if (!(kind in CELL_KINDS)) throw new Error(`unknown cell kind ${kind}; one of ${Object.keys(CELL_KINDS).join(', ')}`);
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  return () => {
    let left = random() * total;
    for (const [kind, weight] of entries) {
      left -= weight;
      if (left < 0) return kind;
    }
    return entries.at(-1)[0];
  };
}

/**
 * Runs `clients` concurrent clients, each in a loop: `next(client)` names the next cell's kind or
 * says stop (undefined); the cell is sent and its outcome handed to `onOutcome`. Each client has
 * its own PRNG (`seed + client`), so a run's choices are reproducible.
 */
export async function drive({ clients, seed, next, send, onOutcome }) {
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    const random = seededRandom(seed + client);
    for (let kind = next(client, random); kind !== undefined; kind = next(client, random)) onOutcome(await send(kind, random));
  }));
}

/** Samples this process's RSS every `intervalMs` and keeps the peak. */
export function memorySampler(intervalMs = 200) {
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, intervalMs);
  // A sampler must never keep a finished run alive.
  timer.unref();
  return {
    get peakRss() {
      return Math.max(peakRss, process.memoryUsage.rss());
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Lets garbage collection run before a memory reading: `global.gc` when the process was started
 * with --expose-gc, else V8's flag set at run time (the `gc` function of a fresh context), else
 * time alone. Worker heaps collect on their own; the pause gives them the chance.
 */
export async function settleMemory({ pauseMs = 3000 } = {}) {
  let gc = globalThis.gc;
  if (typeof gc !== 'function') {
    try {
      const [{ setFlagsFromString }, { runInNewContext }] = await Promise.all([import('node:v8'), import('node:vm')]);
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
      // Only this context gets it: REPL workers started later must not find a `gc` global.
      setFlagsFromString('--no-expose-gc');
    } catch {
      gc = undefined;
    }
  }
  const collected = typeof gc === 'function';
  for (let round = 0; round < 3; round++) {
    if (typeof gc === 'function') gc();
    await new Promise((resolve) => setTimeout(resolve, pauseMs / 3));
  }
  return { ...process.memoryUsage(), collected };
}

/**
 * Starts the fleet. Throws (after cleaning up what it started) if any part does not come up.
 * @param {object} options
 * @param {number} options.browsers browsers including the default one (≥ 1)
 * @param {number} options.repls named REPLs, spread round-robin over the browsers
 * @param {number} options.executors named executors, spread likewise
 * @param {number} options.connections sockets of the client pool (one per concurrent client)
 * @param {number} options.timeoutSec `timeout_sec` of every cell and call (the server's own deadline)
 * @param {number} options.requestTimeoutMs client-side deadline of one request, queueing included
 * @param {(line: string) => void} [options.log]
 */
export async function startFleet({ browsers, repls, executors, connections, timeoutSec, requestTimeoutMs, log: print = () => {} }) {
  const began = performance.now();
  const log = (line) => print(`${line} (${((performance.now() - began) / 1000).toFixed(1)} s)`);
  if (!(browsers >= 1)) throw new Error('browsers must be at least 1 (the default browser)');
  const cleanups = [];
  const close = async () => {
    // Reverse order: the browsers (deleted over the control pool), the pools, the server, the fixtures.
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleanup failed: ${error?.stack ?? error}`);
      }
    }
  };
  try {
    const fixtures = await startFixtureServer();
    cleanups.push(() => fixtures.close());
    // Enough room for the sessions whatever the machine's memory (the default browser is not counted).
    const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: browsers });
    cleanups.push(() => server.close());
    // Two pools. The clients' pool has one socket per client, kept alive: a client never queues
    // behind another for a connection, so the server's per-REPL queue is the only queue measured,
    // and closing it is "the clients went away" before the memory is read again. The control
    // pool (setup, counter checks, teardown) outlives it.
    const clientPool = new Agent({ connections, pipelining: 1, headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs });
    let clientsClosed;
    // undici's close() rejects when called twice; the run closes the clients early, cleanup again.
    const closeClients = () => (clientsClosed ??= clientPool.close());
    cleanups.push(closeClients);
    const controlPool = new Agent({ connections: 8, headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs });
    cleanups.push(() => controlPool.close());

    const call = async (method, path, body, dispatcher = controlPool) => {
      const response = await request(`${server.url}${path}`, {
        method,
        dispatcher,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const text = await response.body.text();
      let json;
      try { json = JSON.parse(text); } catch { json = undefined; }
      return { status: response.statusCode, json, text };
    };
    const must = async (what, method, path, body, ok = (answer) => answer.status === 200) => {
      const answer = await call(method, path, body);
      if (!ok(answer)) throw new Error(`${what}: ${method} ${path} answered ${answer.status}: ${answer.text.slice(0, SAMPLE_CHARS)}`);
      return answer.json;
    };

    const browserIds = ['default'];
    for (let index = 1; index < browsers; index++) {
      // Long inactivity timeout: a browser must not be reaped while its clients queue elsewhere.
      const session = await must('create a browser', 'POST', '/browsers', { name: `load-${index}`, timeout_seconds: 86_400 });
      browserIds.push(session.session_id);
      cleanups.push(async () => {
        const answer = await call('DELETE', `/browsers/${session.session_id}`);
        if (answer.status !== 204) throw new Error(`DELETE /browsers/${session.session_id} answered ${answer.status}: ${answer.text.slice(0, SAMPLE_CHARS)}`);
      });
    }
    log(`fleet: ${browserIds.length} browsers up`);

    const replTargets = Array.from({ length: repls }, (_, index) => ({
      kind: 'repl', browser: browserIds[index % browserIds.length], name: `load-repl-${index}`, counterSent: 0, counterAnswers: [],
    }));
    const executorTargets = Array.from({ length: executors }, (_, index) => ({
      kind: 'executor', browser: browserIds[index % browserIds.length], name: `load-executor-${index}`,
    }));
    // One at a time: on a loaded machine a burst of tabs opening and workers connecting at the
    // same instant is a test of its own, not the setup of this one.
    for (const browser of browserIds) {
      for (const target of replTargets.filter((candidate) => candidate.browser === browser)) {
        const page = JSON.stringify(fixtures.url(REPL_PAGE.file));
        const result = await must(`set up REPL ${target.name}`, 'POST', `/browsers/${browser}/repl`,
          { repl: target.name, timeout_sec: timeoutSec, code: `var counter = 0; await gotoUrl(${page}); await waitForLoad(); repl.write(await js("document.title"))` });
        if (result.success !== true || writes(result).at(-1) !== REPL_PAGE.title) throw new Error(`set up REPL ${target.name}: ${JSON.stringify(result).slice(0, SAMPLE_CHARS)}`);
      }
      for (const target of executorTargets.filter((candidate) => candidate.browser === browser)) {
        const page = JSON.stringify(fixtures.url(EXECUTOR_PAGE.file));
        const result = await must(`set up executor ${target.name}`, 'POST', `/browsers/${browser}/playwright/execute`,
          { executor: target.name, timeout_sec: timeoutSec, code: `await page.goto(${page}); return await page.title()` });
        if (result.success !== true || result.result !== EXECUTOR_PAGE.title) throw new Error(`set up executor ${target.name}: ${JSON.stringify(result).slice(0, SAMPLE_CHARS)}`);
      }
    }
    log(`fleet: ${replTargets.length} named REPLs and ${executorTargets.length} named executors ready`);

    /**
     * Sends one cell of `kind` to a target picked with `random`, checks its answer and resolves
     * `{kind, target, ms, error?}`; it never rejects (a failed request is an outcome).
     */
    const send = async (kind, random) => {
      const spec = CELL_KINDS[kind];
      const pool = spec.target === 'repl' ? replTargets : executorTargets;
      const target = pool[Math.floor(random() * pool.length)];
      const sent = spec.body(random);
      const path = spec.target === 'repl' ? `/browsers/${target.browser}/repl` : `/browsers/${target.browser}/playwright/execute`;
      const body = spec.target === 'repl'
        ? { repl: target.name, code: sent.code, timeout_sec: timeoutSec }
        : { executor: target.name, code: sent.code, timeout_sec: timeoutSec };
      if (kind === 'counter') target.counterSent++;
      const started = performance.now();
      let error;
      try {
        const answer = await call('POST', path, body, clientPool);
        if (answer.status !== 200) error = `HTTP ${answer.status}: ${answer.text.slice(0, SAMPLE_CHARS)}`;
        else if (answer.json?.success !== true) error = `success false: ${answer.json?.error ?? answer.text.slice(0, SAMPLE_CHARS)}`;
        else error = spec.check(answer.json, target, sent);
      } catch (thrown) {
        error = `request failed: ${thrown?.code ?? ''} ${thrown?.message ?? thrown}`;
      }
      return { kind, target: `${target.browser}/${target.name}`, ms: performance.now() - started, error };
    };

    /**
     * Reads each REPL's counter and compares it with the counter cells sent to it and the answers
     * they gave: equal to sent, and the answers exactly 1..sent (none lost, none run twice).
     */
    const verifyCounters = async () => {
      const rows = [];
      for (const target of replTargets) {
        const result = await call('POST', `/browsers/${target.browser}/repl`, { repl: target.name, timeout_sec: timeoutSec, code: 'repl.write(String(counter))' });
        const binding = result.json?.success === true ? Number(writes(result.json).at(-1)) : NaN;
        const answers = [...target.counterAnswers].sort((a, b) => a - b);
        const exact = answers.length === target.counterSent && answers.every((value, index) => value === index + 1);
        rows.push({ target: `${target.browser}/${target.name}`, sent: target.counterSent, binding, answers: answers.length, ok: binding === target.counterSent && exact });
      }
      return rows;
    };

    /**
     * Opens the clients' connections before the clock starts: `count` concurrent `GET /healthz`.
     * With the clients in the server's process, a burst of new connections waits for the event
     * loop to accept it (seconds on a busy 2-core machine), which would otherwise land in the
     * first cells' latency as a one-off.
     */
    const warmClients = async (count) => {
      await Promise.all(Array.from({ length: count }, async () => {
        const answer = await call('GET', '/healthz', undefined, clientPool);
        if (answer.status !== 200) throw new Error(`GET /healthz answered ${answer.status}: ${answer.text.slice(0, SAMPLE_CHARS)}`);
      }));
    };

    return {
      server, fixtures, warmClients, browserIds, replTargets, executorTargets, call, send, verifyCounters, close,
      /** Closes the clients' sockets (idempotent); `send` cannot be used afterwards. */
      closeClients,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
