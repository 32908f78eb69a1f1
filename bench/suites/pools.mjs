// Issue 31: browser pools with profiles (docs/browsers.md#pools-with-a-profile). (1) `acquire`
// from a warm pool → the first cell's result (a js() round trip in the acquired browser), against
// POST /browsers → the first cell in a freshly launched browser (no warm pool), both on one server
// in the same run, samples alternating; every sample starts at rest (the pool full again, every
// launch and teardown done) and the release or delete after it is not timed. (2) What a pool
// browser's profile save costs when it ends: the store's save of a typical 20 MiB user-data tree
// (many small files and some larger ones, as Chromium's Default/ holds), in the clear and encrypted
// at rest, against `fs.cp` of the same tree.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { startServer } from '../../dist/lib/index.js';
import { ProfileStore } from '../../dist/lib/profiles/profile-store.js';
import { interleaved } from '../bench-page.mjs';
import { summarize } from '../stats.mjs';
import { makeUserData } from './profiles.mjs';

const MIB = 1024 * 1024;
const POOL_SIZE = 2;
const FIRST_CELL = { code: 'repl.write(String(await js("1 + 1")))' };

async function call(url, method, route, body) {
  const response = await request(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${route} answered ${response.statusCode}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

async function firstCell(url, sessionId) {
  const cell = await call(url, 'POST', `/browsers/${sessionId}/repl`, FIRST_CELL);
  if (cell.success !== true || cell.content[0]?.text !== '2') throw new Error(`first cell failed: ${JSON.stringify(cell)}`);
}

/** Waits until the pool holds `POOL_SIZE` idle browsers and nothing else runs, launches, or ends. */
async function atRest(server, poolId) {
  const until = Date.now() + 60_000;
  for (;;) {
    const pool = await call(server.url, 'GET', `/browser_pools/${poolId}`);
    if (pool.available_count === POOL_SIZE && server.app.browsers.liveBrowsers === POOL_SIZE) return;
    if (Date.now() > until) throw new Error('the server did not come to rest within 60 s');
    await sleep(20);
  }
}

async function acquireSamples(iterations) {
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, maxBrowsers: POOL_SIZE + 1, primaryBrowser: { browser: false } });
  const acquired = [];
  const created = [];
  try {
    const pool = await call(server.url, 'POST', '/browser_pools', { name: 'bench', size: POOL_SIZE });
    const viaPool = async () => {
      const started = performance.now();
      const browser = await call(server.url, 'POST', `/browser_pools/${pool.id}/acquire`, { acquire_timeout_seconds: 60 });
      await firstCell(server.url, browser.session_id);
      const elapsed = performance.now() - started;
      await call(server.url, 'POST', `/browser_pools/${pool.id}/release`, { session_id: browser.session_id, reuse: true });
      return elapsed;
    };
    const viaCreate = async () => {
      const started = performance.now();
      const browser = await call(server.url, 'POST', '/browsers', {});
      await firstCell(server.url, browser.session_id);
      const elapsed = performance.now() - started;
      await call(server.url, 'DELETE', `/browsers/${browser.session_id}`);
      return elapsed;
    };
    // Warm-up: one of each (module loading, the first worker), not measured.
    for (const measure of [viaPool, viaCreate]) {
      await atRest(server, pool.id);
      await measure();
    }
    for (let i = 0; i < iterations; i++) {
      const order = i % 2 === 0 ? [[viaPool, acquired], [viaCreate, created]] : [[viaCreate, created], [viaPool, acquired]];
      for (const [measure, samples] of order) {
        await atRest(server, pool.id);
        samples.push(await measure());
      }
    }
  } finally {
    await server.close();
  }
  return { acquired: summarize(acquired), created: summarize(created) };
}

async function saveSamples(iterations) {
  const scratch = await mkdtemp(path.join(tmpdir(), 'chromium-repl-bench-pools-'));
  try {
    const source = path.join(scratch, 'user-data');
    const tree = await makeUserData(source);
    const store = new ProfileStore({ dir: path.join(scratch, 'profiles') });
    const profile = await store.create({ name: 'pool-bench' });
    const sealedStore = new ProfileStore({ dir: path.join(scratch, 'sealed'), key: Buffer.alloc(32, 7) });
    const sealed = await sealedStore.create({ name: 'pool-bench-sealed' });
    let copies = 0;
    // Each copy goes to a new folder, removed untimed before the next measure, so the disk holds a few at most.
    const fresh = async () => {
      for (let i = 0; i < copies; i++) await rm(path.join(scratch, `copy-${i}`), { recursive: true, force: true });
    };
    const [save, plainCopy, sealedSave] = await interleaved(iterations, 2, [
      () => store.save(profile.id, source),
      () => cp(source, path.join(scratch, `copy-${copies++}`), { recursive: true }),
      () => sealedStore.save(sealed.id, source),
    ], [undefined, fresh, undefined]);
    return { tree, save, plainCopy, sealedSave };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function run({ quick }) {
  const iterations = quick ? 5 : 20;
  const { acquired, created } = await acquireSamples(iterations);
  const { tree, save, plainCopy, sealedSave } = await saveSamples(quick ? 5 : 20);
  return [
    {
      title: 'Browser pools (issue 31): acquire from a warm pool → first cell',
      baselineName: `POST /browsers → first cell in a freshly launched browser (no warm pool), same server, samples alternating (p50 ${created.p50.toFixed(1)} ms)`,
      rows: [
        { name: `acquire (pool of ${POOL_SIZE}, warm) → first cell (js round trip)`, unit: 'p50', ours: acquired.p50, baseline: created.p50 },
        { name: `acquire (pool of ${POOL_SIZE}, warm) → first cell (js round trip)`, unit: 'p50 (absolute)', ours: acquired.p50, baseline: created.p50, target: { absoluteMs: 50 } },
        { name: `acquire (pool of ${POOL_SIZE}, warm) → first cell (js round trip)`, unit: 'p99', ours: acquired.p99, baseline: created.p99 },
      ],
      notes: [
        'Every sample starts at rest: the pool holds its browsers idle again (a reused one was cleaned: lib/browsers/browser-recycle.ts) and every teardown of a baseline browser is done; the release and the delete after a sample are not timed.',
      ],
    },
    {
      title: 'Browser pools (issue 31): saving a pool browser\'s 20 MiB profile',
      baselineName: '`fs.cp` of the same tree (no filter, no fsync), samples alternating',
      rows: [
        { name: `profile save, in the clear (${tree.files} files, ${(tree.bytes / MIB).toFixed(0)} MiB: filtered copy, fsync, atomic rename)`, unit: 'p50', ours: save.p50, baseline: plainCopy.p50 },
        { name: 'profile save, encrypted at rest (AES-256-GCM per file)', unit: 'p50', ours: sealedSave.p50, baseline: plainCopy.p50 },
        { name: 'profile save, in the clear', unit: 'p99', ours: save.p99, baseline: plainCopy.p99 },
      ],
      notes: [
        'A pool browser with `save_changes` saves once, when it ends (deleted, reaped, released without reuse, flushed or drained), after its Chromium exited; a release with reuse saves nothing.',
      ],
    },
  ];
}
