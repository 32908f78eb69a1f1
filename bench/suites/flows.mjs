// Issue 9: waitForDownload of a 10 MiB file against the raw CDP download flow on the same tab.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createRepl } from '../../dist/lib/index.js';
import { check, interleaved } from '../bench-page.mjs';

const BYTES = 10 * 1024 * 1024;

/** A raw CDP client that also delivers events (raw-cdp.mjs answers commands only). */
async function rawClient(endpoint) {
  const ws = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await once(ws, 'open');
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id === undefined) {
      for (const listener of listeners) listener(message);
      return;
    }
    const callback = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) callback?.reject(new Error(message.error.message));
    else callback?.resolve(message.result);
  });
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }));
  });
  const waitFor = (predicate) => new Promise((resolve) => {
    const listener = (message) => {
      if (!predicate(message)) return;
      listeners.delete(listener);
      resolve(message);
    };
    listeners.add(listener);
  });
  return { send, waitFor, close: () => ws.close() };
}

export async function run({ quick }) {
  const body = Buffer.alloc(BYTES, 7);
  const server = createServer((request, response) => {
    if (request.url.startsWith('/big')) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="big.bin"', 'content-length': String(BYTES) }).end(body);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>downloads</title><a id="big" href="/big">big</a>');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${server.address().port}/`;
  const repl = createRepl();
  check(await repl.run(`await gotoUrl(${JSON.stringify(url)}); await waitForLoad();`));
  const targetId = check(await repl.run('repl.write((await currentTab()).targetId)')).content[0].text;
  const raw = await rawClient(await repl.browser.endpoint());
  const { sessionId } = await raw.send('Target.attachToTarget', { targetId, flatten: true });
  const rawDir = mkdtempSync(join(tmpdir(), 'chromium-repl-bench-downloads-'));

  // Both start the download the same way (a script click on the link) and end when the file is on disk.
  const oursCell = 'await waitForDownload(() => js("document.getElementById(\'big\').click()"))';
  const rawFlow = async () => {
    await raw.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: rawDir, eventsEnabled: true });
    const began = raw.waitFor((message) => message.method === 'Browser.downloadWillBegin');
    await raw.send('Runtime.evaluate', { expression: 'document.getElementById("big").click()' }, sessionId);
    const { params } = await began;
    await raw.waitFor((message) => message.method === 'Browser.downloadProgress' && message.params.guid === params.guid && message.params.state === 'completed');
  };
  const iterations = quick ? 5 : 30;
  let ours;
  let baseline;
  try {
    [ours, baseline] = await interleaved(iterations, 3, [
      () => repl.run(oursCell).then(check),
      rawFlow,
    ]);
  } finally {
    raw.close();
    await repl.close();
    rmSync(rawDir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  }
  return [{
    title: 'Real-world flows (issue 9): downloads',
    baselineName: 'the raw CDP download flow on the same tab: Browser.setDownloadBehavior (allowAndName, events), a script click on the link, then Browser.downloadProgress "completed"',
    rows: [
      { name: 'waitForDownload of a 10 MiB file, whole REPL call (library)', unit: 'p50', ours: ours.p50, baseline: baseline.p50, target: { ratio: 1.1 } },
      { name: 'waitForDownload of a 10 MiB file, whole REPL call (library)', unit: 'p99', ours: ours.p99, baseline: baseline.p99 },
    ],
    notes: [
      'waitForDownload also has the host set its download behaviour again, and links the finished file into the REPL\'s folder under its suggested name (a hard link: no copy). ' +
        'The raw flow leaves the file named by its guid.',
    ],
  }];
}
