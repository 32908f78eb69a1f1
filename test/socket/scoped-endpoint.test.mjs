// The scoped endpoint (common/cdp/scoped-endpoint.ts) between a real WebSocket client on
// loopback and a scripted browser: what an owner's Playwright may see, the commands it may send,
// and the downloads it keeps to itself (issue 9).
import t from 'tap';
import WebSocket from 'ws';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScopedEndpoint } from '../../dist/common/cdp/scoped-endpoint.js';
import { FakeBrowser } from '../helpers/fake-browser.mjs';

const TARGETS = [
  { targetId: 'shared-tab', type: 'page', url: 'http://127.0.0.1/shared', title: 'Shared' },
  { targetId: 'other-tab', type: 'page', url: 'http://127.0.0.1/other', title: 'Other' },
  { targetId: 'own-tab', type: 'page', url: 'http://127.0.0.1/own', title: 'Own' },
];
const info = (targetId, extra = {}) => ({ targetId, type: 'page', url: '', title: '', attached: true, canAccessOpener: false, browserContextId: 'ctx', ...extra });

async function setup(t, scope) {
  const browser = new FakeBrowser(TARGETS);
  const scopeCalls = [];
  const endpoint = new ScopedEndpoint({
    upstream: async () => 'ws://browser.invalid/devtools/browser/x',
    scope: async () => { scopeCalls.push(Date.now()); return scope(); },
    connect: browser.connect,
  });
  t.teardown(() => endpoint.close());
  const url = await endpoint.url();
  t.match(url, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[0-9a-f-]{36}$/, 'a loopback URL with an unguessable path');
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  t.teardown(() => ws.terminate());
  const received = [];
  const waiters = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    received.push(message);
    for (const waiter of [...waiters]) if (waiter.match(message)) { waiters.splice(waiters.indexOf(waiter), 1); waiter.resolve(message); }
  });
  const next = (match) => {
    const seen = received.find(match);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  let id = 0;
  const send = async (method, params = {}, sessionId) => {
    const callId = ++id;
    ws.send(JSON.stringify({ id: callId, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    return next((message) => message.id === callId);
  };
  // The upstream connection opens once the client is there.
  while (browser.connections.length === 0) await new Promise((resolve) => setImmediate(resolve));
  return { browser, endpoint, send, next, received, scopeCalls };
}

t.test('shared mode hides the tabs other owners have, in answers and auto-attach', async (t) => {
  const { browser, send, next, received } = await setup(t, () => ({ mode: 'shared', ownTargetIds: [], foreign: { 'other-tab': 'repl:search' } }));
  const targets = await send('Target.getTargets');
  t.same(targets.result.targetInfos.map((target) => target.targetId), ['shared-tab', 'own-tab'], 'getTargets leaves out the foreign tab');

  browser.emit('Target.attachedToTarget', { sessionId: 'S-other', targetInfo: info('other-tab'), waitingForDebugger: true });
  browser.emit('Target.attachedToTarget', { sessionId: 'S-shared', targetInfo: info('shared-tab'), waitingForDebugger: true });
  const attached = await next((message) => message.method === 'Target.attachedToTarget');
  t.equal(attached.params.sessionId, 'S-shared', 'the shared tab is attached for the client');
  t.notOk(received.some((message) => message.params?.sessionId === 'S-other'), 'the foreign tab never reached the client');
  t.same(browser.sent('Runtime.runIfWaitingForDebugger').map((command) => command.sessionId), ['S-other'], 'the hidden tab was resumed');
  t.same(browser.sent('Target.detachFromTarget').map((command) => command.params.sessionId), ['S-other'], 'and detached');

  // Events of the hidden session never leak, and commands naming the hidden tab fail as for a missing one.
  browser.emit('Page.javascriptDialogOpening', { type: 'confirm', message: 'theirs' }, 'S-other');
  browser.emit('Target.targetInfoChanged', { targetInfo: info('other-tab', { title: 'changed' }) });
  const refused = await send('Target.attachToTarget', { targetId: 'other-tab', flatten: true });
  t.same(refused.error, { code: -32602, message: 'No target with given id found' });
  const activated = await send('Target.activateTarget', { targetId: 'shared-tab' });
  t.same(activated.result, {}, 'the visible tab can be driven');
  t.notOk(received.some((message) => message.method === 'Page.javascriptDialogOpening' || message.method === 'Target.targetInfoChanged'),
    'nothing about the hidden tab reached the client');
  t.equal(browser.sent('Target.attachToTarget').length, 0, 'the refused attach never reached the browser');

  // A popup of a hidden tab is hidden too.
  browser.emit('Target.targetCreated', { targetInfo: info('popup-of-other', { openerId: 'other-tab' }) });
  browser.emit('Target.targetCreated', { targetInfo: info('popup-of-shared', { openerId: 'shared-tab' }) });
  const created = await next((message) => message.method === 'Target.targetCreated');
  t.equal(created.params.targetInfo.targetId, 'popup-of-shared');
});

t.test('own mode shows only the owner\'s tabs and the tabs its client creates', async (t) => {
  const { browser, send, next, received } = await setup(t, () => ({ mode: 'own', ownTargetIds: ['own-tab'], foreign: {} }));
  const targets = await send('Target.getTargets');
  t.same(targets.result.targetInfos.map((target) => target.targetId), ['own-tab']);
  // Chromium reports the attach of a created tab before it answers createTarget.
  browser.handlers.set('Target.createTarget', (params, frame, transport) => {
    transport.emit('Target.attachedToTarget', { sessionId: 'S-new', targetInfo: info('new-tab'), waitingForDebugger: true });
    return { targetId: 'new-tab' };
  });
  const created = await send('Target.createTarget', { url: 'about:blank' });
  t.equal(created.result.targetId, 'new-tab');
  const attached = await next((message) => message.method === 'Target.attachedToTarget');
  t.equal(attached.params.targetInfo.targetId, 'new-tab', 'the created tab is the client\'s');
  t.ok(received.indexOf(attached) < received.indexOf(created), 'events keep their order');
  browser.emit('Target.attachedToTarget', { sessionId: 'S-shared', targetInfo: info('shared-tab'), waitingForDebugger: true });
  browser.emit('Target.attachedToTarget', { sessionId: 'S-own', targetInfo: info('own-tab'), waitingForDebugger: true });
  const own = await next((message) => message.method === 'Target.attachedToTarget' && message.params.sessionId === 'S-own');
  t.ok(own, 'the own tab is attached');
  t.notOk(received.some((message) => message.params?.sessionId === 'S-shared'), 'an unowned tab is not an owned REPL\'s');
});

t.test('a tab frozen by a dialog is left out instead of blocking the connect', async (t) => {
  const { browser, next, received } = await setup(t, () => ({ mode: 'shared', ownTargetIds: [], foreign: {} }));
  browser.hang.add('Runtime.evaluate');
  browser.emit('Target.attachedToTarget', { sessionId: 'S-frozen', targetInfo: info('shared-tab'), waitingForDebugger: false });
  browser.emit('Target.attachedToTarget', { sessionId: 'S-fine', targetInfo: info('own-tab'), waitingForDebugger: true });
  const attached = await next((message) => message.method === 'Target.attachedToTarget');
  t.equal(attached.params.sessionId, 'S-fine');
  t.notOk(received.some((message) => message.params?.sessionId === 'S-frozen'));
  t.same(browser.sent('Target.detachFromTarget').map((command) => command.params.sessionId), ['S-frozen']);
});

t.test('the client\'s download settings stay here; it gets events and its file', async (t) => {
  const incoming = mkdtempSync(join(tmpdir(), 'chromium-repl-scoped-in-'));
  const clientDir = mkdtempSync(join(tmpdir(), 'chromium-repl-scoped-out-'));
  t.teardown(() => { rmSync(incoming, { recursive: true, force: true }); rmSync(clientDir, { recursive: true, force: true }); });
  const { browser, send, next } = await setup(t, () => ({ mode: 'shared', ownTargetIds: [], foreign: {}, downloadsFolder: incoming }));
  const answer = await send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: clientDir, eventsEnabled: true });
  t.same(answer.result, {}, 'answered');
  t.equal(browser.sent('Browser.setDownloadBehavior').length, 0, 'never sent to the browser, so leaving cannot reset it');
  const context = await send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId: 'own-context' });
  t.same(context.result, {}, 'a context of its own is the browser\'s business');
  t.equal(browser.sent('Browser.setDownloadBehavior').length, 1);

  browser.emit('Target.attachedToTarget', { sessionId: 'S-shared', targetInfo: info('shared-tab'), waitingForDebugger: true });
  await next((message) => message.method === 'Target.attachedToTarget');
  browser.emit('Page.downloadWillBegin', { frameId: 'shared-tab', guid: 'g-1', url: 'http://127.0.0.1/f', suggestedFilename: 'f.bin' }, 'S-shared');
  const began = await next((message) => message.method === 'Browser.downloadWillBegin');
  t.same(began.params, { frameId: 'shared-tab', guid: 'g-1', url: 'http://127.0.0.1/f', suggestedFilename: 'f.bin' });
  writeFileSync(join(incoming, 'g-1'), 'payload');
  browser.emit('Page.downloadProgress', { guid: 'g-1', totalBytes: 7, receivedBytes: 7, state: 'completed' }, 'S-shared');
  const done = await next((message) => message.method === 'Browser.downloadProgress');
  t.equal(done.params.state, 'completed');
  t.ok(existsSync(join(clientDir, 'g-1')), 'the file is where the client asked for it when it hears of it');
  t.equal(readFileSync(join(clientDir, 'g-1'), 'utf8'), 'payload');
});

t.test('closing the endpoint closes its clients', async (t) => {
  const { endpoint, browser } = await setup(t, () => ({ mode: 'shared', ownTargetIds: [], foreign: {} }));
  t.equal(endpoint.clientCount, 1);
  await endpoint.close();
  t.equal(browser.openConnections, 0, 'the upstream connection is closed too');
  await t.rejects(endpoint.url(), /closed/);
});
