// Background processes (docs/process-and-files.md#background-processes) through @onkernel/sdk
// unchanged: spawn → status → stdin → stdoutStream → kill, a terminal's size and resize, the
// timeout, a flood refused, and nothing left running: a browser's end kills its processes, the
// server's end kills the rest. The created browser is a real Chromium (its end is what is tested).
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { startServer } from '../../dist/lib/index.js';
import { SpawnedProcesses } from '../../dist/lib/system/process-spawn.js';
import { apiServer } from '../helpers/api-server.mjs';

const TOKEN = 'test-token-process-spawn';
const api = await apiServer(t, {
  token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 2,
  processes: { maxPerBrowser: 3, maxTotal: 4, retentionSeconds: 60 },
});
const auth = { authorization: `Bearer ${TOKEN}` };
// No automatic retries: a test must see each answer as it is.
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });
const b64 = (text) => Buffer.from(text).toString('base64');
const decode = (events, stream = 'stdout') => events.filter((event) => event.stream === stream)
  .map((event) => Buffer.from(event.data_b64, 'base64').toString('utf8')).join('');

/** Live (non-zombie) processes whose process group is `pgid`, read from /proc. */
function groupMembers(pgid) {
  const members = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
  }
  return members;
}

/** Polls `check` until it holds (at most 20 s, for a loaded machine); returns its last value. */
async function eventually(check) {
  const until = Date.now() + 20_000;
  let value = await check();
  while (!value && Date.now() < until) {
    await sleep(25);
    value = await check();
  }
  return value;
}

/** Reads the stream of `processId` in browser `id` to its end: every event. */
async function allEvents(id, processId) {
  const events = [];
  for await (const event of await kernel.browsers.process.stdoutStream(processId, { id })) events.push(event);
  return events;
}

/** Reads events from `iterator` until the stdout text so far matches `pattern`; returns that text. */
async function readUntil(iterator, pattern) {
  let text = '';
  while (!pattern.test(text)) {
    const { value, done } = await iterator.next();
    if (done) break;
    if (value.data_b64 !== undefined) text += Buffer.from(value.data_b64, 'base64').toString('utf8');
  }
  return text;
}

const created = await kernel.browsers.create({});
const id = created.session_id;

t.test('a spawned cat echoes stdin on its stream; status shows running, then the kill', async (t) => {
  const spawned = await kernel.browsers.process.spawn(id, { command: 'cat' });
  t.match(spawned, { process_id: /^[0-9a-f-]{36}$/, pid: Number, started_at: String }, 'the SDK\'s ProcessSpawnResponse');
  t.ok(groupMembers(spawned.pid).includes(spawned.pid), 'pid is the running cat, leading its own group');
  const running = await kernel.browsers.process.status(spawned.process_id, { id });
  t.match(running, { state: 'running', exit_code: null, cpu_pct: Number }, 'running');
  t.ok(running.mem_bytes > 0, `memory of its group is measured (${running.mem_bytes} bytes)`);

  const iterator = (await kernel.browsers.process.stdoutStream(spawned.process_id, { id }))[Symbol.asyncIterator]();
  const written = await kernel.browsers.process.stdin(spawned.process_id, { id, data_b64: b64('hello\n') });
  t.same(written, { written_bytes: 6 });
  t.equal(await readUntil(iterator, /hello\n/), 'hello\n', 'the stream carries what cat echoed');

  t.same(await kernel.browsers.process.kill(spawned.process_id, { id, signal: 'TERM' }), { ok: true });
  const rest = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
  t.same(rest.at(-1), { event: 'exit', exit_code: 143, signal: 'SIGTERM' }, 'the stream ends with the exit, naming the signal');
  t.match(await kernel.browsers.process.status(spawned.process_id, { id }), { state: 'exited', exit_code: 143, signal: 'SIGTERM', cpu_pct: 0, mem_bytes: 0 });
  await t.rejects(kernel.browsers.process.stdin(spawned.process_id, { id, data_b64: b64('x') }), { status: 409, error: { code: 'REPL_ERR_PROCESS_EXITED' } });
  await t.rejects(kernel.browsers.process.kill(spawned.process_id, { id, signal: 'KILL' }), { status: 409, error: { code: 'REPL_ERR_PROCESS_EXITED' } });
});

t.test('a reader that connects after the exit gets the output (stdout and stderr) and the exit code', async (t) => {
  // The created browser runs (create launched it): its endpoint is in the environment.
  const script = 'echo out; echo err >&2; echo "$GREETING ${CDP_ENDPOINT%%:*}"; exit 3';
  const spawned = await kernel.browsers.process.spawn(id, { command: 'sh', args: ['-c', script], env: { GREETING: 'hi' } });
  t.ok(await eventually(async () => (await kernel.browsers.process.status(spawned.process_id, { id })).state === 'exited'), 'it exited');
  t.match(await kernel.browsers.process.status(spawned.process_id, { id }), { state: 'exited', exit_code: 3 });
  const events = await allEvents(id, spawned.process_id);
  t.equal(decode(events), 'out\nhi ws\n', 'stdout; env and the browser\'s CDP_ENDPOINT reach it, as with exec');
  t.equal(decode(events, 'stderr'), 'err\n');
  t.same(events.at(-1), { event: 'exit', exit_code: 3 }, 'no signal: it exited by itself');
  t.same(await allEvents(id, spawned.process_id), events, 'a second late reader gets the same');

  // More than the ring holds: a late reader gets its last 1 MiB, the newest output.
  const loud = await kernel.browsers.process.spawn(id, { command: 'sh', args: ['-c', 'head -c 1100000 /dev/zero; echo end'] });
  t.ok(await eventually(async () => (await kernel.browsers.process.status(loud.process_id, { id })).state === 'exited'), 'the loud one exited');
  const kept = decode(await allEvents(id, loud.process_id));
  t.equal(kept.length, 1024 * 1024, 'exactly the ring\'s 1 MiB is kept');
  t.ok(kept.endsWith('\0end\n'), 'and it is the end of the output');
});

t.test('the record of an exited process is dropped after the retention time', async (t) => {
  const processes = new SpawnedProcesses({ maxPerBrowser: 1, maxTotal: 1, retentionSeconds: 0 });
  t.teardown(() => processes.close());
  const spawned = await processes.spawn('owner', { command: 'true', env: process.env });
  t.equal(processes.get('owner', spawned.id), spawned, 'found while it runs');
  await spawned.ended;
  t.ok(await eventually(() => {
    try {
      processes.get('owner', spawned.id);
      return false;
    } catch (error) {
      return error.code === 'REPL_ERR_PROCESS_NOT_FOUND';
    }
  }), 'gone after the retention time');
  t.equal(processes.runningCount(), 0, 'and no longer counted');
});

t.test('a terminal: the initial size, SIGWINCH after resize, kill ends it', async (t) => {
  const script = 'trap \'stty size\' WINCH; stty size; echo ready; while :; do sleep 0.05; done';
  const spawned = await kernel.browsers.process.spawn(id, { command: 'sh', args: ['-c', script], allocate_tty: true, cols: 100, rows: 30 });
  const iterator = (await kernel.browsers.process.stdoutStream(spawned.process_id, { id }))[Symbol.asyncIterator]();
  const first = await readUntil(iterator, /ready/);
  t.match(first, /^30 100\r?\n/, 'stty size reads the size spawn asked for, before anything else');
  t.same(await kernel.browsers.process.resize(spawned.process_id, { id, cols: 120, rows: 40 }), { ok: true });
  t.match(await readUntil(iterator, /40 120/), /40 120/, 'the trap on SIGWINCH printed the new size');
  await kernel.browsers.process.kill(spawned.process_id, { id, signal: 'KILL' });
  const rest = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
  t.same(rest.at(-1), { event: 'exit', exit_code: 137, signal: 'SIGKILL' }, 'the command on the terminal was killed');
  t.ok(await eventually(() => groupMembers(spawned.pid).length === 0), 'nothing of it is left');

  const plain = await kernel.browsers.process.spawn(id, { command: 'true' });
  await t.rejects(kernel.browsers.process.resize(plain.process_id, { id, cols: 10, rows: 10 }), { status: 400, error: { message: /has no terminal/ } });
});

t.test('timeout_sec kills the whole group', async (t) => {
  const spawned = await kernel.browsers.process.spawn(id, { command: 'sh', args: ['-c', 'sleep 300 & sleep 300'], timeout_sec: 1 });
  t.ok(await eventually(() => groupMembers(spawned.pid).length >= 2), 'the shell and its sleeps run');
  const events = await allEvents(id, spawned.process_id);
  t.same(events.at(-1), { event: 'exit', exit_code: 137, signal: 'SIGKILL', timed_out: true });
  t.match(await kernel.browsers.process.status(spawned.process_id, { id }), { state: 'exited', timed_out: true });
  t.ok(await eventually(() => groupMembers(spawned.pid).length === 0), 'both sleeps are gone too');
});

t.test('a flood is refused with 429, per browser and in all, and the server keeps serving', async (t) => {
  const flood = await Promise.allSettled(Array.from({ length: 6 }, () => kernel.browsers.process.spawn('default', { command: 'sleep', args: ['300'] })));
  const started = flood.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value);
  const refused = flood.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason);
  t.equal(started.length, 3, 'exactly the limit per browser started');
  t.match(refused, Array(3).fill({ status: 429, error: { code: 'REPL_ERR_PROCESS_LIMIT', message: /this browser already runs 3/ } }));
  t.equal(refused[0].headers.get('x-should-retry'), 'false');
  const one = await kernel.browsers.process.spawn(id, { command: 'sleep', args: ['300'] });
  await t.rejects(kernel.browsers.process.spawn(id, { command: 'true' }), { status: 429, error: { message: /this server already runs 4/ } }, 'the total counts every browser');
  // The top-level route is the same default browser.
  const top = await api.call('GET', `/process/${started[0].process_id}/status`, undefined, { headers: auth });
  t.match(top, { status: 200, json: { state: 'running' } }, 'the server still serves; /process/… is the default browser');
  for (const process of started) await kernel.browsers.process.kill(process.process_id, { id: 'default', signal: 'KILL' });
  t.ok(await eventually(() => started.every((process) => groupMembers(process.pid).length === 0)), 'killed');
  t.ok(await eventually(async () => (await kernel.browsers.process.status(started[0].process_id, { id: 'default' })).state === 'exited'));
  const again = await kernel.browsers.process.spawn('default', { command: 'true' });
  t.ok(again.process_id, 'slots are free again once they exited');

  // The browser's end kills what it still runs.
  t.ok(groupMembers(one.pid).length > 0, 'a sleep runs in the created browser');
  await kernel.browsers.deleteByID(id);
  t.ok(await eventually(() => groupMembers(one.pid).length === 0), 'deleting the browser killed its process');
  await t.rejects(kernel.browsers.process.status(one.process_id, { id }), { status: 404 });
});

t.test('bad input answers 4xx naming the field', async (t) => {
  const call = (method, path, body) => api.call(method, path, body, { headers: auth });
  for (const [body, message] of [
    [{}, 'command is required'],
    [{ command: 'true', cols: 80 }, 'cols and rows size a terminal: set allocate_tty: true with them'],
    [{ command: 'true', allocate_tty: true, rows: 0 }, 'rows must be between 1 and 4096'],
    [{ command: 'true', timeout_sec: 0 }, 'timeout_sec must be between 1 and 86400'],
    [{ command: 'browser-repl-no-such-command' }, /^command "browser-repl-no-such-command" was not found/],
    [{ command: 'browser-repl-no-such-command', allocate_tty: true }, /^command "browser-repl-no-such-command" was not found/],
  ]) {
    const response = await call('POST', '/process/spawn', body);
    t.equal(response.status, 400, JSON.stringify(body));
    if (typeof message === 'string') t.equal(response.json.message, message);
    else t.match(response.json.message, message);
  }
  const missing = await call('GET', '/process/00000000-0000-4000-8000-000000000000/status');
  t.match(missing, { status: 404, json: { code: 'REPL_ERR_PROCESS_NOT_FOUND' } });
  const spawned = await kernel.browsers.process.spawn('default', { command: 'cat' });
  t.teardown(() => kernel.browsers.process.kill(spawned.process_id, { id: 'default', signal: 'KILL' }).catch(() => undefined));
  t.match(await call('POST', `/process/${spawned.process_id}/stdin`, { data_b64: 'not base64!' }), { status: 400, json: { message: /data_b64 must be base64/ } });
  t.match(await call('POST', `/process/${spawned.process_id}/kill`, { signal: 'STOP' }), { status: 400, json: { message: 'signal must be one of TERM, KILL, INT, HUP' } });
  t.match(await call('POST', `/process/${spawned.process_id}/resize`, { cols: 5000, rows: 1 }), { status: 400, json: { message: 'cols must be between 1 and 4096' } });
});

t.test('the server\'s end kills what is still running', async (t) => {
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: { executable: '/nonexistent/chromium', cdpEndpoint: null } } });
  t.teardown(() => server.close());
  const response = await fetch(`${server.url}/process/spawn`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'sh', args: ['-c', 'sleep 300 & sleep 300'] }) });
  const { pid } = await response.json();
  t.ok(await eventually(() => groupMembers(pid).length >= 2), 'the shell and its sleeps run');
  await server.close();
  t.same(groupMembers(pid), [], 'closing the server killed the whole group');
});
