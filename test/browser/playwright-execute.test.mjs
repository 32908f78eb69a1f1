// POST /playwright/execute, GET /playwright/executors and DELETE /playwright/executors/{name}
// against a real headless Chromium (launched lazily by the server) and fixture pages on loopback.
// The only timing assertions are the concurrency case of the issue: two 1 s calls on different
// executors finish together in < 1.8 s, two on the same executor take ≥ 2 s.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrowserManager, PlaywrightExecutors } from '../../dist/lib/index.js';
import { liveExecutorThreads } from '../../dist/lib/executor/executor-worker.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { openStream } from '../helpers/sse.mjs';

// Some twenty executor workers start here, each importing Playwright (CPU-bound): on a busy
// two-core CI machine the file can approach the default 300 s, so it asks for more.
t.setTimeout(600_000);

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const FIXTURE = fixtures.url('playwright-executor.html');
// A loop in an imported module: no liveness check reaches it.
const SPIN_MODULE = new URL('../fixtures/modules/spin.mjs', import.meta.url).href;


// The browser is launched, never attached: a CDP_ENDPOINT in the developer's shell must not leak in.
const hostOptions = { primaryBrowser: { browser: { cdpEndpoint: null } } };

/** POST /playwright/execute, asserting 200, returning the body. */
async function execute(api, body) {
  const response = await api.call('POST', '/playwright/execute', body);
  if (response.status !== 200) throw new Error(`POST /playwright/execute answered ${response.status}: ${response.text}`);
  return response.json;
}

/** Target ids of every open page, read through the default executor. */
async function pageTargetIds(api) {
  // Through a REPL: an executor's own connection leaves out the tabs other executors own
  // (docs/playwright.md#scoped-endpoints), so it cannot tell whether they are open.
  const answer = await api.repl('repl.write(JSON.stringify((await listTabs()).map((tab) => tab.targetId)))');
  if (!answer.success) throw new Error(answer.error);
  return JSON.parse(answer.content.at(-1).text);
}

/** Deletes every named executor (closing their tabs), so each subtest starts from `default` alone. */
async function deleteNamed(api) {
  const { json } = await api.call('GET', '/playwright/executors');
  for (const { name } of json.executors.filter((executor) => executor.name !== 'default')) {
    await api.call('DELETE', `/playwright/executors/${name}`);
  }
}

t.test('execute API on a real Chromium', async (t) => {
  const api = await apiServer(t, hostOptions);
  const executors = api.server.app.browsers.primary.executors;
  t.afterEach(() => deleteNamed(api));

  t.test('return await page.title() on the default executor, bound to the active tab', async (t) => {
    const answer = await execute(api, { code: `await page.goto(${JSON.stringify(FIXTURE)}); return await page.title();` });
    t.same(Object.keys(answer).sort(), ['result', 'stderr', 'stdout', 'success', 'tab']);
    t.equal(answer.success, true);
    t.equal(answer.result, 'Executor fixture');
    t.match(answer.tab, { target_id: /^[0-9A-F]{32}$/, created: false });
    const again = await execute(api, { code: 'return { url: page.url(), same: context === page.context() }', executor: 'default' });
    t.same(again.result, { url: FIXTURE, same: true });
    t.equal(again.tab.target_id, answer.tab.target_id);
  });

  t.test('TypeScript syntax is stripped; positions in stacks are the user\'s', async (t) => {
    const typed = await execute(api, {
      code: [
        'interface Item { n: number }',
        'type Total = number;',
        'enum Unit { One = 1 }',
        'const items: Item[] = [{ n: Unit.One }, { n: 2 }];',
        'const total: Total = items.reduce((sum: number, item: Item) => sum + item.n, 0);',
        'const doubled = await page.evaluate<number>(() => 21 * 2);',
        'return { total: total as number, doubled } satisfies Record<string, number>;',
      ].join('\n'),
    });
    t.equal(typed.success, true, typed.error);
    t.same(typed.result, { total: 3, doubled: 42 });

    const thrown = await execute(api, { code: 'const a: string = "x";\n\nthrow new Error(`boom ${a}`);' });
    t.equal(thrown.success, false);
    t.equal(thrown.error, 'boom x');
    t.match(thrown.stderr, /^Error: boom x\n\s+at code\.ts:3:7/);
    t.notMatch(thrown.stderr, /worker\/executor/, 'executor frames are hidden');

    const broken = await execute(api, { code: 'const ok = 1;\nconst x: = 2;' });
    t.equal(broken.success, false);
    t.match(broken.error, /^TypeScript transform error: .+ \(line 2, column 10\)$/);
    t.match(broken.stderr, /2 \| const x: = 2;/);
    t.notOk('tab' in broken, 'no tab is bound when the code does not compile');
  });

  t.test('console output is captured into stdout and stderr', async (t) => {
    const answer = await execute(api, {
      code: 'console.log("hello", { a: 1 }); console.info("info"); console.warn("careful"); console.error(new Error("shown").message); return undefined;',
    });
    t.equal(answer.success, true);
    t.equal(answer.result, null, 'undefined comes back as null');
    t.equal(answer.stdout, 'hello { a: 1 }\ninfo\n');
    t.equal(answer.stderr, 'careful\nshown\n');
    const next = await execute(api, { code: 'return 1' });
    t.equal(next.stdout, '', 'output belongs to its own call');
  });

  t.test('values that cannot be JSON fail clearly; webmcp is a closure variable', async (t) => {
    const bigint = await execute(api, { code: 'return 1n' });
    t.equal(bigint.success, false);
    t.match(bigint.error, /^result is not JSON-serializable: /);
    t.ok(bigint.tab, 'the tab of the call is still reported');
    const cycle = await execute(api, { code: 'const a = {}; a.self = a; return a' });
    t.match(cycle.error, /^result is not JSON-serializable: .*circular/i);
    const handle = await execute(api, { code: 'return { page }' });
    t.match(handle.error, /^result is not JSON-serializable: it contains a Playwright Page object/);
    const json = await execute(api, { code: 'return { d: new Date(0), m: new Map([[1, 2]]), n: NaN, f() {} }' });
    t.same(json.result, { d: '1970-01-01T00:00:00.000Z', m: {}, n: null });
    t.equal((await execute(api, { code: 'return Object.isFrozen(webmcp)' })).result, true);
    const thrown = await execute(api, { code: 'throw "boom"' });
    t.equal(thrown.error, 'boom', 'a thrown string is its own message');
    const counter = 'var count = (typeof count === "number" ? count : 0) + 1; return count;';
    t.equal((await execute(api, { code: counter })).result, 1);
    t.equal((await execute(api, { code: counter })).result, 1, 'the same code again starts from fresh locals');
    const own = await execute(api, { code: 'const webmcp = "user-defined"; return webmcp' });
    t.equal(own.result, 'user-defined');
  });

  t.test('two named executors run concurrently; one executor serialises', async (t) => {
    const sleep1s = 'await new Promise((resolve) => setTimeout(resolve, 1000)); return Date.now();';
    await Promise.all([execute(api, { code: 'return 1', executor: 'a' }), execute(api, { code: 'return 1', executor: 'b' })]);
    let started = performance.now();
    const parallel = await Promise.all([execute(api, { code: sleep1s, executor: 'a' }), execute(api, { code: sleep1s, executor: 'b' })]);
    const together = performance.now() - started;
    t.ok(parallel.every((answer) => answer.success));
    t.ok(together < 1800, `different executors: ${Math.round(together)} ms < 1800 ms`);
    started = performance.now();
    const serial = await Promise.all([execute(api, { code: sleep1s, executor: 'a' }), execute(api, { code: sleep1s, executor: 'a' })]);
    const oneByOne = performance.now() - started;
    t.ok(serial.every((answer) => answer.success));
    t.ok(oneByOne >= 2000, `same executor: ${Math.round(oneByOne)} ms ≥ 2000 ms`);
    t.ok(Math.abs(serial[1].result - serial[0].result) >= 1000, 'the second call ran after the first');
  });

  t.test('a named executor owns a background tab and keeps it', async (t) => {
    await execute(api, { code: `await page.goto(${JSON.stringify(FIXTURE)}); await page.bringToFront(); return 1` });
    const first = await execute(api, { code: 'return page.url()', executor: 'owner' });
    t.equal(first.result, 'about:blank');
    t.equal(first.tab.created, true);
    const second = await execute(api, { code: 'await page.goto(' + JSON.stringify(`${FIXTURE}?owner`) + '); return page.url()', executor: 'owner' });
    t.same(second.tab, { target_id: first.tab.target_id, created: false });
    const active = await execute(api, { code: 'return page.url()' });
    t.equal(active.result, FIXTURE, 'opening the executor tab did not change the active tab');
    t.not(active.tab.target_id, first.tab.target_id);
    const { json } = await api.call('GET', '/playwright/executors');
    t.match(json.executors[1], { name: 'owner', busy: false, target_id: first.tab.target_id, url: `${FIXTURE}?owner` });
    t.notOk('target_id' in json.executors[0], 'default owns no tab');
  });

  t.test('a closed executor tab comes back with tab.created: true', async (t) => {
    const first = await execute(api, { code: 'return 1', executor: 'reopen' });
    const closing = await execute(api, { code: 'await page.close(); return page.isClosed()', executor: 'reopen' });
    t.equal(closing.result, true);
    const reopened = await execute(api, { code: 'return page.url()', executor: 'reopen' });
    t.equal(reopened.success, true);
    t.equal(reopened.result, 'about:blank');
    t.equal(reopened.tab.created, true);
    t.not(reopened.tab.target_id, first.tab.target_id);
    t.ok((await pageTargetIds(api)).includes(reopened.tab.target_id), 'the new tab is open');
    const after = await execute(api, { code: 'return 1', executor: 'reopen' });
    t.same(after.tab, { target_id: reopened.tab.target_id, created: false });
  });

  t.test('the ninth named executor gets 409 listing the executors', async (t) => {
    const names = Array.from({ length: 8 }, (_, i) => `e${i}`);
    // Two at a time: each new worker imports Playwright, which is CPU-bound (CI has two cores).
    for (let i = 0; i < names.length; i += 2) {
      const created = await Promise.all(names.slice(i, i + 2).map((name) => execute(api, { code: 'return 1', executor: name })));
      t.ok(created.every((answer) => answer.success && answer.tab.created), names.slice(i, i + 2).join(', '));
    }
    const refused = await api.call('POST', '/playwright/execute', { code: 'return 1', executor: 'one-too-many' });
    t.equal(refused.status, 409);
    t.equal(refused.json.code, 'REPL_ERR_CONFLICT');
    t.equal(refused.json.message, 'named executor limit (8) reached; delete one with DELETE /playwright/executors/{name}');
    const listed = refused.json.executors.map((executor) => executor.name);
    t.equal(listed[0], 'default', 'default first');
    t.same(listed.slice(1).sort(), names, 'then the eight named executors (oldest first; each batch of two arrives in any order)');
    t.ok(refused.json.executors.slice(1).every((executor) => typeof executor.target_id === 'string'));
    t.equal((await execute(api, { code: 'return 2', executor: 'e0' })).result, 2, 'existing executors keep working');
    t.equal((await execute(api, { code: 'return 3' })).result, 3, 'default takes no slot');
    t.equal((await api.call('DELETE', '/playwright/executors/e0')).status, 204);
    t.equal((await execute(api, { code: 'return 4', executor: 'one-too-many' })).result, 4);
  });

  t.test('delete with and without close_tab', async (t) => {
    const kept = await execute(api, { code: 'return 1', executor: 'keep-tab' });
    const closed = await execute(api, { code: 'return 1', executor: 'close-tab' });
    t.equal((await api.call('DELETE', '/playwright/executors/keep-tab?close_tab=false')).status, 204);
    t.equal((await api.call('DELETE', '/playwright/executors/close-tab')).status, 204);
    const open = await pageTargetIds(api);
    t.ok(open.includes(kept.tab.target_id), 'close_tab=false leaves the tab open');
    t.notOk(open.includes(closed.tab.target_id), 'the default closes the tab');
    const { json } = await api.call('GET', '/playwright/executors');
    t.same(json.executors.map((executor) => executor.name), ['default']);

    const again = await api.call('DELETE', '/playwright/executors/close-tab');
    t.equal(again.status, 404);
    t.same(again.json, { message: 'executor "close-tab" not found', code: 'REPL_ERR_NOT_FOUND' });
    const invalid = await api.call('DELETE', '/playwright/executors/not%20valid');
    t.equal(invalid.status, 400);
    t.equal(invalid.json.message, 'executor name must match ^[A-Za-z0-9_-]{1,64}$');
    t.equal((await api.call('DELETE', '/playwright/executors/x?close_tab=maybe')).status, 400);
    const reused = await execute(api, { code: 'return 1', executor: 'close-tab' });
    t.equal(reused.tab.created, true, 'the name can be reused: a new executor and tab');
    t.not(reused.tab.target_id, closed.tab.target_id);
    // Tidy the tab left open on purpose above.
    await execute(api, { code: `for (const p of context.pages()) if (p !== page && p.url() === 'about:blank') await p.close(); return 1` });
  });

  t.test('deleting an executor fails its running call; deleting default restarts it', async (t) => {
    await execute(api, { code: 'return 1', executor: 'doomed' });
    const running = execute(api, { code: 'await new Promise((r) => setTimeout(r, 10_000)); return 1', executor: 'doomed' });
    while (!executors.get('doomed')?.busy) await sleep(20);
    t.equal((await api.call('DELETE', '/playwright/executors/doomed')).status, 204);
    const failed = await running;
    t.same(failed, { success: false, error: 'execution failed: executor was deleted', stdout: '', stderr: '' });

    await execute(api, { code: 'return 1' });
    const before = executors.get('default').workerId;
    const inFlight = execute(api, { code: 'await new Promise((r) => setTimeout(r, 10_000)); return 1' });
    const queued = execute(api, { code: 'return "queued"' });
    while (!executors.get('default').busy) await sleep(20);
    t.equal((await api.call('DELETE', '/playwright/executors/default?close_tab=true')).status, 204);
    t.equal((await inFlight).error, 'execution failed: executor was restarted');
    t.equal((await queued).result, 'queued', 'queued calls run on the new worker');
    t.not(executors.get('default').workerId, before);
    const { json } = await api.call('GET', '/playwright/executors');
    t.same(json.executors.map((executor) => executor.name), ['default']);
  });

  t.test('a timed-out call is stopped with its worker and browser connection kept; its code never reaches the page', async (t) => {
    const setup = await execute(api, {
      code: `globalThis.connectionOfSetup = browser; await page.goto(${JSON.stringify(FIXTURE)}); return await page.evaluate(() => document.body.dataset.mark = 'initial');`,
      executor: 'slow',
    });
    t.equal(setup.result, 'initial');
    const worker = executors.get('slow').workerId;
    const timedOut = await execute(api, {
      code: 'await page.waitForTimeout(2500); await page.evaluate(() => document.body.dataset.mark = "late"); return 1',
      executor: 'slow',
      timeout_sec: 1,
    });
    t.equal(timedOut.success, false);
    t.equal(timedOut.error, 'execution timed out after 1000ms; the code was stopped (the Playwright calls it waited for were aborted), '
      + 'and the executor kept its worker and its browser connection');
    t.same(timedOut.tab, { target_id: setup.tab.target_id, created: false });
    const next = await execute(api, { code: 'return [globalThis.connectionOfSetup === browser, browser.isConnected(), await page.evaluate(() => document.body.dataset.mark)]', executor: 'slow' });
    t.equal(next.success, true, next.error);
    t.same(next.result, [true, true, 'initial'], 'the same Playwright connection, still connected');
    t.same(next.tab, { target_id: setup.tab.target_id, created: false });
    t.equal(executors.get('slow').workerId, worker, 'the worker was kept');
    await sleep(2000);
    const later = await execute(api, { code: 'return await page.evaluate(() => document.body.dataset.mark)', executor: 'slow' });
    t.equal(later.result, 'initial', 'the abandoned code never reached the page');
  });

  t.test('POST /playwright/interrupt stops a waiting call and a busy one; the next call reuses the connection', async (t) => {
    const setup = await execute(api, { code: `globalThis.connectionBefore = browser; await page.goto(${JSON.stringify(FIXTURE)}); return 1`, executor: 'stoppable' });
    const worker = executors.get('stoppable').workerId;
    // Streamed, so the test knows the code runs: its first console line has arrived.
    const waiting = await openStream(api.url, '/playwright/execute', { code: 'console.log("waiting"); await page.waitForSelector("#never-there", { timeout: 0 }); return "found"', executor: 'stoppable' });
    t.match(await waiting.next(), { event: 'stdout', data: { text: 'waiting\n' } });
    const stopped = await api.call('POST', '/playwright/interrupt', { executor: 'stoppable' });
    t.same(stopped.json, { interrupted: true, executor: 'stoppable' });
    const { data: answer } = (await waiting.rest()).at(-1);
    t.equal(answer.success, false);
    t.match(answer.error, /^execution interrupted after \d+ms; the code was stopped .*kept its worker and its browser connection$/);
    t.same(answer.tab, { target_id: setup.tab.target_id, created: false });

    const busy = await openStream(api.url, '/playwright/execute', { code: 'console.log("spinning"); let spins = 0; while (true) spins++', executor: 'stoppable' });
    t.match(await busy.next(), { event: 'stdout', data: { text: 'spinning\n' } });
    t.same((await api.call('POST', '/playwright/interrupt', { executor: 'stoppable' })).json, { interrupted: true, executor: 'stoppable' });
    t.match((await busy.rest()).at(-1).data.error, /^execution interrupted after/);

    const next = await execute(api, { code: 'return [globalThis.connectionBefore === browser, browser.isConnected(), await page.title()]', executor: 'stoppable' });
    t.same(next.result, [true, true, 'Executor fixture'], 'the next call reuses the same Playwright connection');
    t.equal(executors.get('stoppable').workerId, worker, 'and the same worker');
    t.same((await api.call('POST', '/playwright/interrupt', { executor: 'stoppable' })).json, { interrupted: false, executor: 'stoppable' }, 'nothing running');
    const missing = await api.call('POST', '/playwright/interrupt', { executor: 'never-made' });
    t.equal(missing.status, 404);
    const invalid = await api.call('POST', '/playwright/interrupt', { executor: 'no spaces' });
    t.equal(invalid.status, 400);
    t.match(invalid.json.message, /executor name must match/);
  });

  t.test('a loop no check reaches gets the worker replaced', async (t) => {
    const first = await execute(api, { code: 'return 1', executor: 'spin' });
    const worker = executors.get('spin').workerId;
    const blocked = await execute(api, { code: `(await import(${JSON.stringify(SPIN_MODULE)})).spin()`, executor: 'spin', timeout_sec: 1 });
    t.equal(blocked.success, false);
    t.match(blocked.error, /^execution failed: no answer within 6s .*event loop is blocked/);
    t.same(blocked.tab, { target_id: first.tab.target_id, created: false });
    const next = await execute(api, { code: 'return "fresh"', executor: 'spin' });
    t.equal(next.result, 'fresh');
    t.same(next.tab, { target_id: first.tab.target_id, created: false }, 'the fresh worker gets the same tab');
    t.not(executors.get('spin').workerId, worker, 'a new worker');
  });

  t.test('while (true) {} is stopped by the checks at its timeout: the worker is kept', async (t) => {
    await execute(api, { code: 'return 1', executor: 'loop' });
    const worker = executors.get('loop').workerId;
    const stopped = await execute(api, { code: 'while (true) {}', executor: 'loop', timeout_sec: 1 });
    t.match(stopped.error, /^execution timed out after 1000ms; the code was stopped/);
    t.equal((await execute(api, { code: 'return (() => { while (true) break; }).toString().includes("__pw_")', executor: 'loop' })).result, false,
      'a function\'s source is as written, without the checks');
    t.equal(executors.get('loop').workerId, worker);
  });

  t.test('a worker that exits mid-call is replaced by the next call', async (t) => {
    await execute(api, { code: 'return 1', executor: 'crash' });
    const crashed = await execute(api, { code: 'process.exit(3)', executor: 'crash' });
    t.equal(crashed.success, false);
    t.match(crashed.error, /^execution failed: executor worker exited \(exit code 3\)/);
    t.equal(crashed.tab.created, false);
    t.equal((await execute(api, { code: 'return 5', executor: 'crash' })).result, 5);
  });

  t.test('validation answers 400 naming the field', async (t) => {
    const cases = [
      [{ code: '' }, 'code is required'],
      [{}, 'code is required'],
      [{ code: 'return 1', executor: '' }, 'executor name must match ^[A-Za-z0-9_-]{1,64}$'],
      [{ code: 'return 1', executor: 'x'.repeat(65) }, 'executor name must match ^[A-Za-z0-9_-]{1,64}$'],
      [{ code: 'return 1', timeout_sec: 301 }, 'timeout_sec must be between 1 and 300'],
      [{ code: 'return 1', timeout_sec: 1.5 }, 'invalid request body: timeout_sec must be integer'],
      [{ code: 1 }, 'invalid request body: code must be string'],
      [{ code: 'return 1', extra: true }, 'invalid request body: json: unknown field "extra"'],
    ];
    for (const [body, message] of cases) {
      const response = await api.call('POST', '/playwright/execute', body);
      t.equal(response.status, 400, JSON.stringify(body));
      t.same(response.json, { message, code: 'REPL_ERR_INVALID_REQUEST' }, JSON.stringify(body));
    }
  });

  t.test('after a Chromium restart the default executor reconnects', async (t) => {
    const host = api.server.app.browsers.primary;
    const before = await execute(api, { code: 'return await page.evaluate(() => navigator.userAgent)' });
    t.equal(before.success, true);
    const pid = host.chromium.pid;
    process.kill(pid, 'SIGKILL');
    while (host.chromium.launched) await sleep(20);
    let after;
    for (let attempt = 0; attempt < 5 && !after?.success; attempt++) {
      after = await execute(api, { code: 'return await page.evaluate(() => navigator.userAgent)' });
    }
    t.equal(after.success, true, after.error);
    t.type(after.result, 'string');
    t.not(host.chromium.pid, pid, 'a new Chromium');
  });
});

t.test('patchright engine', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null }, playwright: { engine: 'patchright' } } });
  const answer = await execute(api, {
    code: `await page.goto(${JSON.stringify(FIXTURE)});
      const patchright = await import('patchright');
      return { title: await page.title(), patchright: browser.browserType().constructor === patchright.chromium.constructor };`,
  });
  t.equal(answer.success, true, answer.error);
  t.same(answer.result, { title: 'Executor fixture', patchright: true });
  const setup = await execute(api, { code: 'globalThis.patchrightConnection = browser; return 1' });
  t.equal(setup.success, true);
  const timedOut = await execute(api, { code: 'await page.waitForTimeout(5000)', timeout_sec: 1 });
  t.match(timedOut.error, /kept its worker and its browser connection$/, 'patchright\'s calls are aborted too');
  t.equal((await execute(api, { code: 'return globalThis.patchrightConnection === browser && browser.isConnected()' })).result, true);
});

t.test('shutdown ends every executor worker and closes their tabs', async (t) => {
  // A browser the host does not own survives the server, so its tabs can be checked afterwards.
  const manager = new BrowserManager({ cdpEndpoint: null });
  t.teardown(() => manager.close());
  const api = await apiServer(t, { primaryBrowser: { browser: manager } });
  const engine = await execute(api, {
    code: 'const core = await import("playwright-core"); return browser.browserType().constructor === core.chromium.constructor',
  });
  t.equal(engine.result, true, 'playwright-core by default');
  const named = await execute(api, { code: 'return 1', executor: 'left-open' });
  const pending = execute(api, { code: 'await new Promise((r) => setTimeout(r, 10_000))', executor: 'busy' });
  const executors = api.server.app.browsers.primary.executors;
  while (!executors.get('busy')?.busy) await sleep(20);
  t.ok(liveExecutorThreads() >= 3);
  await api.server.close();
  t.equal(liveExecutorThreads(), 0, 'no executor thread outlives the server');
  // The server may cut the connection before the answer is written; if it was written, it says why.
  await pending.then(
    (answer) => t.equal(answer.error, 'execution failed: playwright executors are shutting down'),
    () => t.pass('the in-flight request was cut off'));
  t.same(await executors.list(), []);
  t.same(await executors.execute({ code: 'return 1' }), {
    success: false, error: 'execution failed: playwright executors are shutting down', stdout: '', stderr: '',
  });

  const { host } = new URL(await manager.endpoint());
  const targets = await (await fetch(`http://${host}/json/list`)).json();
  t.notOk(targets.some((target) => target.id === named.tab.target_id), 'the executor tab was closed');
  t.ok(targets.some((target) => target.type === 'page'), 'other tabs are left alone');

  // The library form on the same browser, ended through Symbol.asyncDispose.
  const library = new PlaywrightExecutors({ browser: manager, warmSpare: false });
  const own = await library.execute({ code: 'return page.url()', executor: 'library' });
  t.same(own, { success: true, result: 'about:blank', stdout: '', stderr: '', tab: { targetId: own.tab.targetId, created: true } });
  t.equal(liveExecutorThreads(), 1);
  await library[Symbol.asyncDispose]();
  t.equal(liveExecutorThreads(), 0);
  const remaining = await (await fetch(`http://${host}/json/list`)).json();
  t.notOk(remaining.some((target) => target.id === own.tab.targetId), 'dispose closed the library executor tab');
});
