// `npm run image:test`: the image `npm run image` built last in this checkout, started the way the
// dev overlay of deploy/kubernetes runs it (test/helpers/kubernetes.mjs reads the pod from the
// rendered manifests; test/helpers/image-container.mjs starts it): uid and gid 10001 with fsGroup,
// no capabilities, no privilege escalation, a read-only root, /tmp and /home/repl on disk and
// /dev/shm in memory, the pod's env and token. Then what a pod's life asks of it: the probes, a cell
// that opens a page served here on loopback in the image's Chromium and takes a screenshot,
// /metrics, the image's HEALTHCHECK, and SIGTERM with a cell still running: the drain lets it
// finish and the container exits 0 within terminationGracePeriodSeconds, leaving nothing behind.
//
// Not part of `npm test` (it needs a built image); CI runs it after `npm run image`.
import t from 'tap';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCheckoutRecord } from '../../scripts/image/storage.mjs';
import { imageInStore, startContainer } from '../helpers/image-container.mjs';
import { decodePng } from '../helpers/images.mjs';
import { DEPLOY, kustomizeBuild, podPlan } from '../helpers/kubernetes.mjs';

t.setTimeout(300_000);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures');
/** What the package names its temporary folders (lib/system/child-lifetime.ts). */
const PACKAGE_TEMP = /^(browser-repl-|chromium-repl-|org\.chromium\.Chromium\.)/;

/**
 * What a container that exited said, for a failure message: its first error line (Node prints the
 * error after the source line and caret), else its last line.
 */
function lastWords(container) {
  const lines = `${container.stdout()}${container.stderr()}`.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /^(\w+Error|Error)\b/.test(line)) ?? lines.at(-1) ?? 'no output';
}

/** Throws, with what the server said last, once the container has exited. */
function assertRunning(container, before) {
  const status = container.exitStatus();
  if (status !== undefined) throw new Error(`the server exited (${status[1] ?? `code ${status[0]}`}) before ${before}: ${lastWords(container)}`);
}

/** Polls `url` until it answers `status`, or fails naming what it saw once `budgetMs` ran out or the container exited. */
async function waitForStatus(url, status, { budgetMs, container, what }) {
  const deadline = Date.now() + budgetMs;
  let last = 'no answer';
  for (;;) {
    assertRunning(container, `${what} answered ${status}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      const body = await response.text();
      if (response.status === status) return body;
      last = `${response.status} ${body}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${status} within ${budgetMs / 1000} s (last: ${last})`);
    await sleep(200);
  }
}

/** A page server on loopback: fixture files, and GET /hold, which answers only when released. */
async function startPageServer() {
  const requests = [];
  let held;
  let holdSeen;
  const holdArrived = new Promise((resolve) => { holdSeen = resolve; });
  const server = createServer((request, response) => {
    requests.push(request.url);
    if (request.url === '/hold') {
      held = response;
      holdSeen();
      return;
    }
    const name = request.url.slice(1);
    const file = join(FIXTURES, name);
    if (!/^[\w.-]+\.html$/.test(name) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    url: (name) => `${origin}/${name}`,
    requests,
    holdArrived,
    release: (text) => held.writeHead(200, { 'content-type': 'text/plain' }).end(text),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const record = readCheckoutRecord(ROOT);
if (record === undefined) {
  t.fail('no image was built in this checkout: run `npm run image` first');
} else if (process.getuid?.() !== 0) {
  t.fail('npm run image:test starts the image with its own namespaces and mounts, which needs root: run `sudo npm run image:test`');
} else {
  const { buildah, image, release } = await imageInStore(record);
  let container;
  // The container first: an image a container still uses cannot be removed.
  t.teardown(async () => {
    await container?.destroy();
    await release();
  });
  const plan = podPlan(await kustomizeBuild(join(DEPLOY, 'overlays/dev')), 'browser-repl');
  const env = new Map(plan.env);
  const token = env.get('BROWSER_REPL_TOKEN');
  const drainSeconds = Number(env.get('BROWSER_REPL_DRAIN_SEC'));
  const auth = { authorization: `Bearer ${token}` };
  t.comment(`image ${record.image} (${record.id.replace(/^sha256:/, '').slice(0, 12)}), built with ${record.builder} at ${record.builtAt}; pod ${plan.podName} of the dev overlay`);

  const pages = await startPageServer();
  t.teardown(() => pages.close());
  // PORT=0: a free port instead of the pod's 10001, which another server on this machine may hold
  // (the network is the host's). The leak check's run id, when there is one, so whatever the
  // container starts counts as this run's.
  const overrides = { PORT: '0', ...(process.env.BROWSER_REPL_LEAK_CHECK === undefined ? {} : { BROWSER_REPL_LEAK_CHECK: process.env.BROWSER_REPL_LEAK_CHECK }) };
  container = await startContainer({ buildah, image, plan, overrides });

  let base;
  /** Once the server did not start, the later steps have nothing to test: they are skipped, not failed again. */
  const notStarted = () => (base === undefined ? 'the server did not start (see above)' : false);
  await t.test('it starts as the manifests say and its probes answer', async (t) => {
    // Whatever fails here, the whole output of the container goes with it.
    t.teardown(() => {
      if (base === undefined) t.comment(`the container's output:\n${container.stdout()}${container.stderr()}`);
    });
    const listening = await (async () => {
      const deadline = Date.now() + plan.startupSeconds * 1000;
      for (;;) {
        const match = /^chromium-repl listening on http:\/\/0\.0\.0\.0:(\d+)$/m.exec(container.stdout());
        if (match !== null) return Number(match[1]);
        assertRunning(container, 'it listened');
        if (Date.now() > deadline) throw new Error(`the server did not listen within the startup probe's ${plan.startupSeconds} s: ${lastWords(container)}`);
        await sleep(100);
      }
    })();
    const origin = `http://127.0.0.1:${listening}`;
    t.pass(`listening on every address, port ${listening}`);
    await waitForStatus(`${origin}${plan.probes.startup}`, 200, { budgetMs: plan.startupSeconds * 1000, container, what: `the startup probe's ${plan.probes.startup}` });
    t.pass(`${plan.probes.startup} answers 200 without the token (startup and liveness probes)`);
    t.same(JSON.parse(await waitForStatus(`${origin}${plan.probes.readiness}`, 200, { budgetMs: 30_000, container, what: `the readiness probe's ${plan.probes.readiness}` })), { status: 'ready' }, `${plan.probes.readiness}: ready`);
    t.equal((await fetch(`${origin}/repls`)).status, 401, 'everything else needs the token');

    t.equal(container.config.user, `${plan.uid}:${plan.gid}`, 'the image\'s USER is the pod\'s runAsUser:runAsGroup');
    const [init, ...rest] = container.processes();
    t.equal(init.pid, container.pid, 'PID 1 of the container is the process the runner started');
    t.equal(init.name, 'tini', 'tini, the image\'s ENTRYPOINT, is PID 1');
    t.ok(rest.some((process) => /^node dist\/lib\/cli\/main\.js serve$/.test(process.cmdline)), 'the server is the image\'s CMD');
    base = origin;
  });

  await t.test('a cell opens a page served on loopback in the image\'s Chromium and takes a screenshot', { skip: notStarted() }, async (t) => {
    const page = pages.url('core-tall.html');
    const response = await fetch(`${base}/repl`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        timeout_sec: 120,
        code: `
          const fs = await import('node:fs');
          const tryWrite = (path) => { try { fs.writeFileSync(path, 'x'); fs.rmSync(path); return 'writable'; } catch (error) { return error.code; } };
          await gotoUrl(${JSON.stringify(page)});
          await waitForLoad();
          await repl.emitImage({ path: await captureScreenshot('/tmp/image-test.png') });
          repl.write(JSON.stringify({
            title: (await pageInfo()).title,
            uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(),
            root: tryWrite('/opt/browser-repl/written-by-a-cell'), etc: tryWrite('/etc/written-by-a-cell'),
            tmp: tryWrite('/tmp/written-by-a-cell'), shm: tryWrite('/dev/shm/written-by-a-cell'), home: tryWrite('/home/repl/written-by-a-cell'),
          }));
        `,
      }),
    });
    const result = await response.json();
    t.equal(response.status, 200);
    t.equal(result.success, true, result.error ?? 'the cell succeeded');
    t.ok(pages.requests.includes('/core-tall.html'), 'Chromium in the container fetched the page from this test\'s server');
    const image = result.content?.find((item) => item.type === 'image');
    t.equal(image?.mime_type, 'image/png', 'the screenshot came back as a PNG');
    const png = decodePng(Buffer.from(image.data_b64, 'base64'));
    t.ok(png.width > 0 && png.height > 0, `${png.width}×${png.height}`);
    t.same(png.pixel(5, 5), [255, 0, 0], 'Chromium rendered the page: its red band is in the screenshot');
    const facts = JSON.parse(result.content.filter((item) => item.type === 'text').map((item) => item.text).join(''));
    t.equal(facts.title, 'Tall fixture', 'the page\'s title, read through CDP');
    t.same([facts.uid, facts.gid], [plan.uid, plan.gid], 'cells run as the pod\'s runAsUser and runAsGroup');
    t.same(facts.groups, [...new Set([plan.gid, ...plan.groups])].sort(), 'with the fsGroup');
    t.equal(facts.root, 'EROFS', 'the root file system is read-only (readOnlyRootFilesystem)');
    t.equal(facts.etc, 'EROFS');
    for (const where of ['tmp', 'shm', 'home']) t.equal(facts[where], 'writable', `${where}: a writable volume`);

    t.ok(readdirSync(container.volumeFolder('/tmp')).some((name) => name.startsWith('browser-repl-profile-')), 'Chromium\'s profile is in the /tmp volume');
    const processes = container.processes();
    t.ok(processes.some((process) => process.name === 'chromium'), 'Chromium runs in the container');
    const offenders = (wrong) => processes.filter(wrong).map((process) => `${process.pid} ${process.cmdline.slice(0, 80)}`);
    t.same(offenders((process) => process.uid !== plan.uid || process.gid !== plan.gid), [], `all ${processes.length} processes run as ${plan.uid}:${plan.gid}`);
    t.same(offenders((process) => !process.noNewPrivileges), [], 'none can gain privileges (no_new_privs: allowPrivilegeEscalation: false)');
    t.same(offenders((process) => process.effectiveCapabilities !== 0n || process.boundingCapabilities !== 0n), [], 'none has or can get a capability (capabilities.drop: ALL)');
  });

  await t.test('/metrics counts the cell, and the image\'s HEALTHCHECK passes inside the container', { skip: notStarted() }, async (t) => {
    const metrics = await fetch(`${base}/metrics`, { headers: auth });
    t.equal(metrics.status, 200);
    const text = await metrics.text();
    t.match(text, /^browser_repl_cell_duration_seconds_count\{outcome="ok"\} 1$/m, 'the cell is counted');
    t.match(text, /^browser_repl_browsers_limit \d+$/m, 'the browser limit is exported');
    const { healthcheck } = container.config;
    if (healthcheck?.Test?.[0] !== 'CMD') {
      t.fail(`the image has no HEALTHCHECK CMD (docker format), but ${JSON.stringify(healthcheck)}`);
      return;
    }
    const port = new URL(base).port;
    const check = await container.exec(healthcheck.Test.slice(1), { ...container.env, PORT: port });
    t.equal(check.code, 0, `HEALTHCHECK ${healthcheck.Test.slice(1).join(' ')} exits 0 ${check.stderr}`);
  });

  await t.test('the image records: a replay of a browser it runs is an MP4 (its ffmpeg, docs/recordings.md)', { skip: notStarted() }, async (t) => {
    const json = { ...auth, 'content-type': 'application/json' };
    const created = await fetch(`${base}/browsers`, { method: 'POST', headers: json, body: JSON.stringify({ start_url: pages.url('core-tall.html') }) });
    const browser = await created.json();
    t.equal(created.status, 200, `POST /browsers ${JSON.stringify(browser).slice(0, 200)}`);
    if (created.status !== 200) return;
    try {
      const started = await fetch(`${base}/browsers/${browser.session_id}/replays`, { method: 'POST', headers: json, body: JSON.stringify({ framerate: 5 }) });
      const replay = await started.json();
      t.equal(started.status, 200, `POST …/replays ${JSON.stringify(replay).slice(0, 300)}`);
      if (started.status !== 200) return;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const stopped = await fetch(`${base}/browsers/${browser.session_id}/replays/${replay.replay_id}/stop`, { method: 'POST', headers: auth });
      t.equal(stopped.status, 204, 'stopped (204, as the SDK expects)');
      await stopped.arrayBuffer();
      const video = await fetch(`${base}/browsers/${browser.session_id}/replays/${replay.replay_id}`, { headers: auth });
      const bytes = Buffer.from(await video.arrayBuffer());
      t.equal(video.status, 200, 'downloaded');
      t.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp', `an MP4 (${bytes.length} bytes, starting with its ftyp box)`);
    } finally {
      const deleted = await fetch(`${base}/browsers/${browser.session_id}`, { method: 'DELETE', headers: auth });
      await deleted.arrayBuffer();
    }
  });

  await t.test('SIGTERM drains: the running cell finishes, then the container exits 0 within terminationGracePeriodSeconds', { skip: notStarted() }, async (t) => {
    const running = fetch(`${base}/repl`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code: `repl.write(await (await fetch(${JSON.stringify(pages.url('hold'))})).text())`, timeout_sec: 60 }),
    });
    // Awaited below; a failure before that must not leave its rejection unhandled.
    running.catch(() => {});
    const endedEarly = await Promise.race([
      pages.holdArrived.then(() => undefined),
      running.then((response) => `it answered ${response.status}`, (error) => error.message),
    ]);
    if (endedEarly !== undefined) throw new Error(`the cell ended before its request reached this test's server: ${endedEarly}`);
    t.pass('a cell is running (its request reached this test\'s server and waits there)');
    const budgetMs = plan.terminationGraceSeconds * 1000;
    const budget = new AbortController();
    t.teardown(() => budget.abort());
    const exit = Promise.race([container.closed, sleep(budgetMs, 'over budget', { signal: budget.signal }).catch(() => 'test ended')]);
    container.signal('SIGTERM');
    t.same(JSON.parse(await waitForStatus(`${base}${plan.probes.readiness}`, 503, { budgetMs: 10_000, container, what: 'the readiness probe while draining' })), { status: 'draining' }, 'readiness 503: the pod leaves the API Service');
    const refused = await fetch(`${base}/browsers`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    t.equal(refused.status, 503, 'no new browsers while draining');
    t.equal((await refused.json()).code, 'REPL_ERR_DRAINING');
    pages.release('finished during the drain');
    const answer = await running;
    const result = await answer.json();
    t.equal(answer.status, 200);
    t.same([result.success, result.content?.map((item) => item.text).join('')], [true, 'finished during the drain'], 'the running cell finished and its answer arrived');
    const outcome = await exit;
    budget.abort();
    t.not(outcome, 'over budget', `PID 1 exited within terminationGracePeriodSeconds (${plan.terminationGraceSeconds} s) of SIGTERM, before the kubelet's SIGKILL`);
    t.same(outcome, [0, null], `exit code 0 ${container.stderr()}`);
    t.match(container.stdout(), new RegExp(`chromium-repl: SIGTERM, draining for up to ${drainSeconds}s, then shutting down\\n$`), `the drain window is BROWSER_REPL_DRAIN_SEC (${drainSeconds} s)`);
  });

  await t.test('nothing is left behind', { skip: container.exitStatus() === undefined && 'the container did not stop (see above)' }, async (t) => {
    t.same(container.processes(), [], 'no process of the container runs');
    const tmp = container.volumeFolder('/tmp');
    t.same(readdirSync(tmp).filter((name) => PACKAGE_TEMP.test(name)), [], 'the server removed its profiles and temporary folders from /tmp');
  });
}
