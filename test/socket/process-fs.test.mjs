// POST /process/exec and the /fs/* routes over real HTTP (docs/process-and-files.md).
import t from 'tap';
import { request as httpRequest } from 'node:http';
import {
  chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { apiServer } from '../helpers/api-server.mjs';
import { execProcess } from '../../dist/lib/system/process-exec.js';
import { fsFailure, goFileMode } from '../../dist/lib/system/file-system.js';

const isRoot = process.getuid() === 0;
const b64 = (text) => Buffer.from(text).toString('base64');
const decode = (value) => Buffer.from(value, 'base64').toString('utf8');

function temporaryFolder(t, label) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `browser-repl-${label}-`)));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

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
    // Fields after "(comm)": state ppid pgrp ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
  }
  return members;
}

/** Polls `check` until it returns a truthy value (at most `limitMs`; returns the last value). */
async function eventually(check, limitMs = 15_000) {
  const end = Date.now() + limitMs;
  let value = check();
  while (!value && Date.now() < end) {
    await sleep(25);
    value = check();
  }
  return value;
}

/** Waits for the pid file a command writes, then for the group to have at least `count` members. */
async function watchGroup(pidFile, count) {
  const written = await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
  if (!written) return { pgid: undefined, seen: 0 };
  const pgid = Number(readFileSync(pidFile, 'utf8').trim());
  await eventually(() => groupMembers(pgid).length >= count);
  return { pgid, seen: groupMembers(pgid).length };
}

t.test('POST /process/exec', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: { executable: '/nonexistent/chromium', cdpEndpoint: null } } });
  const exec = (body) => api.call('POST', '/process/exec', body);

  t.test('runs a command with its arguments, without a shell', async (t) => {
    const response = await exec({ command: 'printf', args: ['%s|', 'a b', '$HOME', '*'] });
    t.equal(response.status, 200, response.text);
    t.equal(decode(response.json.stdout_b64), 'a b|$HOME|*|');
    t.equal(response.json.stderr_b64, '');
    t.equal(response.json.exit_code, 0);
    t.ok(Number.isInteger(response.json.duration_ms));
    t.same(Object.keys(response.json).sort(), ['duration_ms', 'exit_code', 'stderr_b64', 'stdout_b64'], 'no optional fields when nothing happened');
    t.notOk(response.headers['x-should-retry'], 'a success may be retried');
  });

  t.test('reports the exit code and stderr', async (t) => {
    const response = await exec({ command: 'sh', args: ['-c', 'echo out; echo oops >&2; exit 3'] });
    t.equal(response.status, 200);
    t.equal(response.json.exit_code, 3);
    t.equal(decode(response.json.stdout_b64), 'out\n');
    t.equal(decode(response.json.stderr_b64), 'oops\n');
  });

  t.test('adds env to the server environment and runs in cwd', async (t) => {
    const dir = temporaryFolder(t, 'exec-cwd');
    const response = await exec({ command: 'sh', args: ['-c', 'echo "$GREETING|$PATH"; pwd'], env: { GREETING: 'hi' }, cwd: dir });
    t.equal(decode(response.json.stdout_b64), `hi|${process.env.PATH}\n${dir}\n`);
    t.notMatch(decode((await exec({ command: 'sh', args: ['-c', 'echo "${CDP_ENDPOINT-unset}"'] })).json.stdout_b64), /ws:/,
      'no CDP_ENDPOINT while no browser runs');
    t.equal(api.server.app.browsers.primary.chromium.launchCount, 0, 'no browser was launched for it');
  });

  t.test('a command that cannot be found or run answers 400 naming command', async (t) => {
    const missing = await exec({ command: 'browser-repl-no-such-command' });
    t.equal(missing.status, 400);
    t.equal(missing.json.code, 'REPL_ERR_INVALID_REQUEST');
    t.match(missing.json.message, /^command "browser-repl-no-such-command" was not found/);
    t.equal(missing.headers['x-should-retry'], 'false');
    const dir = temporaryFolder(t, 'exec-noexec');
    writeFileSync(join(dir, 'script'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const notExecutable = await exec({ command: join(dir, 'script') });
    t.equal(notExecutable.status, 400);
    t.match(notExecutable.json.message, /is not executable/);
  });

  t.test('400 for a bad cwd, naming it', async (t) => {
    for (const [cwd, message] of [['relative/dir', /^cwd must be an absolute path/], ['/nonexistent/browser-repl', /^cwd "\/nonexistent\/browser-repl" does not exist/], [process.execPath, /is not a directory/]]) {
      const response = await exec({ command: 'true', cwd });
      t.equal(response.status, 400, cwd);
      t.match(response.json.message, message);
    }
  });

  t.test('validates the body, naming the field', async (t) => {
    for (const [body, message] of [
      [{}, 'command is required'],
      [{ command: '' }, 'command is required'],
      [{ command: 'true', shell: true }, 'invalid request body: json: unknown field "shell"'],
      [{ command: 1 }, 'invalid request body: command must be string'],
      [{ command: 'true', args: 'x' }, 'invalid request body: args must be array'],
      [{ command: 'true', args: [1] }, 'invalid request body: args.0 must be string'],
      [{ command: 'true', env: { FOO: 1 } }, 'invalid request body: env.FOO must be string'],
      [{ command: 'true', env: { 'A=B': 'x' } }, /^env has an invalid variable name "A=B"/],
      [{ command: 'true', args: ['a\u0000b'] }, 'args.0 must not contain NUL bytes'],
      [{ command: 'true', timeout_sec: 0 }, 'timeout_sec must be between 1 and 600'],
      [{ command: 'true', timeout_sec: 601 }, 'timeout_sec must be between 1 and 600'],
      [{ command: 'true', timeout_sec: '5' }, 'invalid request body: timeout_sec must be integer or null'],
      [{ command: 'true', cwd: 5 }, 'invalid request body: cwd must be string or null'],
      [{ command: 'true', as_root: 'yes' }, 'invalid request body: as_root must be boolean or null'],
    ]) {
      const response = await exec(body);
      t.equal(response.status, 400, JSON.stringify(body));
      t.equal(response.json.code, 'REPL_ERR_INVALID_REQUEST');
      if (typeof message === 'string') t.equal(response.json.message, message);
      else t.match(response.json.message, message);
    }
    const empty = await api.call('POST', '/process/exec', '', { raw: true });
    t.equal(empty.status, 400);
    t.equal(empty.json.message, 'request body is required');
    const tooLarge = await exec({ command: 'true', args: ['x'.repeat(1024 * 1024)] });
    t.equal(tooLarge.status, 413);
    t.equal(tooLarge.json.code, 'REPL_ERR_BODY_TOO_LARGE');
  });

  t.test('as_user and as_root only for the identity the server has', async (t) => {
    const me = userInfo().username;
    for (const as_user of [me, String(process.getuid()), `${process.getuid()}:${process.getgid()}`, null, '']) {
      const response = await exec({ command: 'id', args: ['-u'], as_user });
      t.equal(response.status, 200, `as_user ${as_user}`);
      t.equal(decode(response.json.stdout_b64).trim(), String(process.getuid()));
    }
    const other = await exec({ command: 'id', as_user: 'browser-repl-nobody' });
    t.equal(other.status, 400);
    t.match(other.json.message, /^as_user "browser-repl-nobody" is not available: commands run as the server's user/);
    const otherGroup = await exec({ command: 'id', as_user: `${me}:${process.getgid() + 1}` });
    t.equal(otherGroup.status, 400);
    const root = await exec({ command: 'id', args: ['-u'], as_root: true });
    if (isRoot) {
      t.equal(root.status, 200);
      t.equal(decode(root.json.stdout_b64).trim(), '0');
    } else {
      t.equal(root.status, 400);
      t.match(root.json.message, /^as_root is not available/);
    }
    t.equal((await exec({ command: 'true', as_root: false })).status, 200);
    const both = await exec({ command: 'true', as_root: true, as_user: me });
    t.equal(both.status, 400);
    t.equal(both.json.message, 'as_root and as_user cannot both be set');
  });

  t.test('the timeout kills the whole process group and keeps the output so far', async (t) => {
    const dir = temporaryFolder(t, 'exec-timeout');
    const pidFile = join(dir, 'pgid');
    const answer = exec({ command: 'sh', args: ['-c', `echo before; echo $$ > ${pidFile}; sleep 100 & sleep 100`], timeout_sec: 3 });
    const { pgid, seen } = await watchGroup(pidFile, 2);
    t.ok(pgid, 'the command started');
    t.ok(seen >= 2, `the group had the shell's sleeps (${seen} members)`);
    const response = await answer;
    t.equal(response.status, 200);
    t.equal(response.json.timed_out, true);
    t.equal(response.json.signal, 'SIGKILL');
    t.equal(response.json.exit_code, 137);
    t.equal(decode(response.json.stdout_b64), 'before\n');
    t.ok(await eventually(() => groupMembers(pgid).length === 0), 'both sleeps and the shell are gone');
  });

  t.test('a client that disconnects kills the group', async (t) => {
    const dir = temporaryFolder(t, 'exec-abort');
    const pidFile = join(dir, 'pgid');
    const controller = new AbortController();
    const answer = request(`${api.url}/process/exec`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: 'sh', args: ['-c', `echo $$ > ${pidFile}; sleep 100 & sleep 100`], timeout_sec: 600 }),
      signal: controller.signal,
    });
    const { pgid, seen } = await watchGroup(pidFile, 2);
    t.ok(pgid && seen >= 2, 'the command runs');
    controller.abort();
    await t.rejects(answer);
    t.ok(await eventually(() => groupMembers(pgid).length === 0), 'every process of the group is gone');
    t.equal((await exec({ command: 'true' })).status, 200, 'the server carries on');
  });

  t.test('bounded output (engine, with a small bound)', async (t) => {
    const result = await execProcess({ command: 'sh', args: ['-c', 'printf 0123456789abcdef; printf err >&2'], timeoutMs: 10_000, maxOutputBytes: 10 });
    t.equal(result.stdout.toString(), '0123456789');
    t.equal(result.stdoutTruncated, true);
    t.equal(result.stderr.toString(), 'err');
    t.equal(result.stderrTruncated, false);
    t.equal(result.exitCode, 0);
  });
});

t.test('POST /process/exec sets CDP_ENDPOINT to a running browser', async (t) => {
  const endpoint = 'ws://127.0.0.1:9/devtools/browser/browser-repl-test';
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: endpoint } } });
  const response = await api.call('POST', '/process/exec', { command: 'sh', args: ['-c', 'echo "$CDP_ENDPOINT"'] });
  t.equal(decode(response.json.stdout_b64), `${endpoint}\n`);
  const overridden = await api.call('POST', '/process/exec', { command: 'sh', args: ['-c', 'echo "$CDP_ENDPOINT"'], env: { CDP_ENDPOINT: 'mine' } });
  t.equal(decode(overridden.json.stdout_b64), 'mine\n', 'the request env wins');
});

t.test('/fs routes', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  const dir = temporaryFolder(t, 'fs');
  const q = (path, extra = '') => `?path=${encodeURIComponent(path)}${extra}`;
  const put = (route, body) => api.call('PUT', `/fs/${route}`, body);
  const write = (path, bytes, extra = '') => api.call('PUT', `/fs/write_file${q(path, extra)}`, bytes, { raw: true, headers: { 'content-type': 'application/octet-stream' } });
  const readRaw = async (path) => {
    const response = await request(`${api.url}/fs/read_file${q(path)}`, { headers: { accept: 'application/octet-stream' } });
    return { status: response.statusCode, headers: response.headers, bytes: Buffer.from(await response.body.arrayBuffer()) };
  };
  const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

  t.test('write_file then read_file round-trips bytes', async (t) => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    const path = join(dir, 'new', 'parents', 'bytes.bin');
    const written = await write(path, bytes);
    t.equal(written.status, 201);
    t.equal(written.text, '');
    const read = await readRaw(path);
    t.equal(read.status, 200);
    t.equal(read.headers['content-type'], 'application/octet-stream');
    t.equal(read.headers['content-length'], '256');
    t.same(read.bytes, bytes);
    t.equal(statSync(path).mode & 0o777, 0o644 & ~process.umask(), 'default mode 644 less the umask');
    t.same(readdirSync(join(dir, 'new', 'parents')), ['bytes.bin'], 'no temporary file left');
    const empty = await write(join(dir, 'empty'), Buffer.alloc(0));
    t.equal(empty.status, 201);
    t.equal((await readRaw(join(dir, 'empty'))).bytes.length, 0);
  });

  t.test('write_file modes: given exactly, else kept from the replaced file', async (t) => {
    const path = join(dir, 'script.sh');
    t.equal((await write(path, Buffer.from('#!/bin/sh\n'), '&mode=0750')).status, 201);
    t.equal(statSync(path).mode & 0o7777, 0o750);
    t.equal((await write(path, Buffer.from('#!/bin/sh\necho 2\n'))).status, 201);
    t.equal(statSync(path).mode & 0o7777, 0o750, 'kept');
    t.equal(readFileSync(path, 'utf8'), '#!/bin/sh\necho 2\n');
    t.equal((await write(path, Buffer.from('x'), '&mode=600')).status, 201);
    t.equal(statSync(path).mode & 0o7777, 0o600);
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'old');
    symlinkSync(target, join(dir, 'link.txt'));
    t.equal((await write(join(dir, 'link.txt'), Buffer.from('through'))).status, 201);
    t.equal(readFileSync(target, 'utf8'), 'through', 'a symbolic link is written through');
  });

  t.test('write_file rejects bad input', async (t) => {
    for (const [suffix, message] of [
      [q('relative/file'), 'path must be an absolute path, got "relative/file"'],
      ['', 'path is required'],
      [`${q(join(dir, 'a'))}&path=/b`, 'path must be given once'],
      [q(join(dir, 'a'), '&mode=999'), /^mode must be an octal string of 3 or 4 digits/],
      [q(join(dir, 'a'), '&mode=rw'), /^mode must be an octal string/],
      [q(join(dir, 'a'), '&mode=07555'), /^mode must be an octal string/],
    ]) {
      const response = await api.call('PUT', `/fs/write_file${suffix}`, Buffer.from('x'), { raw: true });
      t.equal(response.status, 400, suffix);
      t.equal(response.json.code, 'REPL_ERR_INVALID_REQUEST');
      if (typeof message === 'string') t.equal(response.json.message, message);
      else t.match(response.json.message, message);
    }
    const onDirectory = await write(dir, Buffer.from('x'));
    t.equal(onDirectory.status, 400);
    t.match(onDirectory.json.message, /is a directory/);
    t.notOk(existsSync(join(dir, 'a')));
  });

  t.test('write_file over 64 MiB answers 413 and leaves the old file', async (t) => {
    const path = join(dir, 'big.bin');
    writeFileSync(path, 'old');
    const declared = await new Promise((resolve, reject) => {
      const req = httpRequest(`${api.url}/fs/write_file${q(path)}`, { method: 'PUT', headers: { 'content-length': String(64 * 1024 * 1024 + 1) } }, (res) => {
        let text = '';
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.write('x');
    });
    t.equal(declared.status, 413);
    t.equal(declared.json.code, 'REPL_ERR_BODY_TOO_LARGE');
    // Chunked, so the limit is counted while the bytes arrive.
    const streamed = await new Promise((resolve) => {
      let answered = false;
      const req = httpRequest(`${api.url}/fs/write_file${q(path)}`, { method: 'PUT', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
      });
      // The server closes the connection after its answer; writes after that fail.
      req.on('error', () => {});
      const chunk = Buffer.alloc(1024 * 1024, 1);
      const pump = () => {
        for (let sent = 0; sent < 70 && !answered; sent++) {
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    t.equal(streamed.status, 413);
    t.equal(streamed.json.message, `request body exceeds ${64 * 1024 * 1024} bytes`);
    t.equal(readFileSync(path, 'utf8'), 'old');
    t.notOk(readdirSync(dir).some((name) => name.endsWith('.partial')), 'the partial upload was removed');
  });

  t.test('read_file errors', async (t) => {
    const missing = await api.call('GET', `/fs/read_file${q(join(dir, 'missing'))}`);
    t.equal(missing.status, 404);
    t.equal(missing.json.code, 'REPL_ERR_NOT_FOUND');
    t.match(missing.json.message, /does not exist$/);
    const directory = await api.call('GET', `/fs/read_file${q(dir)}`);
    t.equal(directory.status, 400);
    t.match(directory.json.message, /is a directory; use list_files$/);
    const relative = await api.call('GET', `/fs/read_file${q('etc/hostname')}`);
    t.equal(relative.status, 400);
    t.match(relative.json.message, /^path must be an absolute path/);
    const device = await api.call('GET', `/fs/read_file${q('/dev/zero')}`);
    t.equal(device.status, 400);
    t.match(device.json.message, /is not a regular file$/);
  });

  t.test('list_files and file_info', async (t) => {
    const listed = join(dir, 'listed');
    mkdirSync(join(listed, 'sub'), { recursive: true });
    chmodSync(join(listed, 'sub'), 0o755);
    writeFileSync(join(listed, 'a.txt'), 'abc');
    chmodSync(join(listed, 'a.txt'), 0o644);
    symlinkSync('a.txt', join(listed, 'link'));
    const response = await api.call('GET', `/fs/list_files${q(listed)}`);
    t.equal(response.status, 200);
    t.same(response.json.map((entry) => entry.name), ['a.txt', 'link', 'sub']);
    const [file, link, sub] = response.json;
    t.same({ ...file, mod_time: undefined }, { name: 'a.txt', path: join(listed, 'a.txt'), size_bytes: 3, is_dir: false, mode: '-rw-r--r--', mod_time: undefined });
    t.match(file.mod_time, ISO);
    t.match(link, { name: 'link', is_dir: false, mode: 'Lrwxrwxrwx' });
    t.match(sub, { name: 'sub', is_dir: true, size_bytes: 0, mode: 'drwxr-xr-x' });

    const info = await api.call('GET', `/fs/file_info${q(join(listed, 'link'))}`);
    t.equal(info.status, 200);
    t.match(info.json, { name: 'link', path: join(listed, 'link'), size_bytes: 3, is_dir: false, mode: '-rw-r--r--' }, 'file_info follows links');
    t.equal(Date.parse(info.json.mod_time), statSync(join(listed, 'a.txt')).mtime.getTime());
    t.match((await api.call('GET', `/fs/file_info${q(join(listed, 'sub'))}`)).json, { is_dir: true, size_bytes: 0, mode: 'drwxr-xr-x' });
    t.equal((await api.call('GET', `/fs/file_info${q('/')}`)).json.name, '/');

    t.equal((await api.call('GET', `/fs/list_files${q(join(dir, 'missing'))}`)).status, 404);
    const onFile = await api.call('GET', `/fs/list_files${q(join(listed, 'a.txt'))}`);
    t.equal(onFile.status, 400);
    t.match(onFile.json.message, /is not a directory/);
    t.equal((await api.call('GET', `/fs/file_info${q(join(dir, 'missing'))}`)).status, 404);
    t.equal((await api.call('GET', '/fs/file_info')).json.message, 'path is required');
  });

  t.test('create_directory', async (t) => {
    const path = join(dir, 'made', 'deep', 'leaf');
    const created = await put('create_directory', { path, mode: '0700' });
    t.equal(created.status, 201);
    t.equal(created.text, '');
    t.equal(statSync(path).mode & 0o7777, 0o700, 'applied exactly');
    t.equal((await put('create_directory', { path })).status, 201, 'an existing directory is fine');
    t.equal(statSync(path).mode & 0o7777, 0o700, 'and left as it was');
    writeFileSync(join(dir, 'plain'), '');
    const overFile = await put('create_directory', { path: join(dir, 'plain') });
    t.equal(overFile.status, 400);
    t.match(overFile.json.message, /already exists/);
    for (const [body, message] of [
      [{ path: join(dir, 'x'), mode: '8' }, 'mode must be an octal string of 3 or 4 digits such as "755"'],
      [{ path: 'x' }, 'path must be an absolute path, got "x"'],
      [{ path: 5 }, 'invalid request body: path must be string'],
      [{ path: join(dir, 'x'), recursive: true }, 'invalid request body: json: unknown field "recursive"'],
      [{}, 'path is required'],
    ]) {
      const response = await put('create_directory', body);
      t.equal(response.status, 400, JSON.stringify(body));
      t.equal(response.json.message, message);
    }
  });

  t.test('delete_file, delete_directory and move', async (t) => {
    const folder = join(dir, 'ops');
    mkdirSync(join(folder, 'tree', 'inner'), { recursive: true });
    writeFileSync(join(folder, 'tree', 'inner', 'f'), 'f');
    writeFileSync(join(folder, 'one'), '1');

    const moved = await put('move', { src_path: join(folder, 'one'), dest_path: join(folder, 'two') });
    t.equal(moved.status, 200);
    t.equal(moved.text, '');
    t.equal(readFileSync(join(folder, 'two'), 'utf8'), '1');
    t.notOk(existsSync(join(folder, 'one')));
    const srcMissing = await put('move', { src_path: join(folder, 'one'), dest_path: join(folder, 'three') });
    t.equal(srcMissing.status, 404);
    const destMissing = await put('move', { src_path: join(folder, 'two'), dest_path: join(folder, 'no', 'such', 'dir') });
    t.equal(destMissing.status, 404);
    t.match(destMissing.json.message, /^the directory of .* does not exist$/);
    const relative = await put('move', { src_path: join(folder, 'two'), dest_path: 'two' });
    t.equal(relative.status, 400);
    t.match(relative.json.message, /^dest_path must be an absolute path/);
    t.equal((await put('move', { src_path: join(folder, 'two') })).json.message, 'dest_path is required');

    const fileAsDirectory = await put('delete_directory', { path: join(folder, 'two') });
    t.equal(fileAsDirectory.status, 400);
    t.match(fileAsDirectory.json.message, /is not a directory; use delete_file$/);
    const directoryAsFile = await put('delete_file', { path: join(folder, 'tree') });
    t.equal(directoryAsFile.status, 400);
    t.match(directoryAsFile.json.message, /is a directory; use delete_directory$/);

    t.equal((await put('delete_file', { path: join(folder, 'two') })).status, 200);
    t.notOk(existsSync(join(folder, 'two')));
    t.equal((await put('delete_file', { path: join(folder, 'two') })).status, 404);
    t.equal((await put('delete_directory', { path: join(folder, 'tree') })).status, 200);
    t.notOk(existsSync(join(folder, 'tree')));
    t.equal((await put('delete_directory', { path: join(folder, 'tree') })).status, 404);
    t.equal((await put('delete_file', { path: 'ops' })).status, 400);
    t.equal((await put('delete_file', { path: join(folder, 'x'), force: true })).json.message, 'invalid request body: json: unknown field "force"');
  });
});

t.test('file modes and errors (engine)', async (t) => {
  t.test('goFileMode matches Go\'s os.FileMode.String()', async (t) => {
    for (const [mode, text] of [
      [0o100644, '-rw-r--r--'], [0o040755, 'drwxr-xr-x'], [0o120777, 'Lrwxrwxrwx'], [0o041777, 'dtrwxrwxrwx'],
      [0o104755, 'urwxr-xr-x'], [0o102755, 'grwxr-xr-x'], [0o020666, 'Dcrw-rw-rw-'], [0o060660, 'Drw-rw----'],
      [0o010644, 'prw-r--r--'], [0o140755, 'Srwxr-xr-x'], [0o100000, '----------'],
    ]) t.equal(goFileMode(mode), text, mode.toString(8));
  });

  t.test('errno codes map to registry errors', async (t) => {
    const error = (code) => Object.assign(new Error(code), { code });
    t.match(fsFailure(error('EACCES'), '/p'), { code: 'REPL_ERR_PERMISSION_DENIED', status: 403, message: /^permission denied for "\/p" \(EACCES\)/ });
    t.match(fsFailure(error('EROFS'), '/p'), { code: 'REPL_ERR_PERMISSION_DENIED' });
    t.match(fsFailure(error('ENOENT'), '/p'), { code: 'REPL_ERR_NOT_FOUND', status: 404 });
    t.match(fsFailure(error('ENOTDIR'), '/p'), { code: 'REPL_ERR_INVALID_REQUEST' });
    t.match(fsFailure(error('EIO'), '/p'), { code: 'REPL_ERR_INTERNAL', status: 500 });
  });

  t.test('a file the server\'s user may not read answers 403', { skip: isRoot ? 'root reads every file' : false }, async (t) => {
    const api = await apiServer(t, { primaryBrowser: { browser: false } });
    const dir = temporaryFolder(t, 'fs-denied');
    writeFileSync(join(dir, 'secret'), 's', { mode: 0o000 });
    const response = await api.call('GET', `/fs/read_file?path=${encodeURIComponent(join(dir, 'secret'))}`);
    t.equal(response.status, 403);
    t.equal(response.json.code, 'REPL_ERR_PERMISSION_DENIED');
  });
});
