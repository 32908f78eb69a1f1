// Stored profiles through @onkernel/sdk unchanged (docs/browsers.md#profiles), against real
// headless Chromiums and a real cookie login on the fixture server: a login made in a browser
// created with `profile: {name, save_changes: true}` is there after that browser is deleted and
// another is created on the profile, and absent without it; a browser reaped by its timeout saves
// too; every method of client.profiles is called with its effect checked (created, listed in
// pages, retrieved, renamed, downloaded as a tar holding the cookie database, sealed on disk with
// the server's profile key, deleted); unknown
// and malformed profiles answer 404 and 400 naming them; `chromium-repl mcp --profile` keeps an
// agent's login across a restart of the MCP server, and a closing HTTP server saves its browsers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const TOKEN = 'test-token-profiles';
const dataDir = mkdtempSync(join(tmpdir(), 'chromium-repl-test-profiles-'));
const fixtures = await startFixtureServer();
// Profiles encrypted at rest (test/unit/profiles.test.mjs covers the plain store as well).
const PROFILE_KEY = Buffer.alloc(32, 9).toString('hex');
const api = await apiServer(t, { token: TOKEN, dataDir, profileKey: PROFILE_KEY, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 3 });
t.teardown(async () => {
  await api.server.close();
  await fixtures.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });
const MAIN = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));

const cell = async (browser, code) => {
  const answer = await kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code, timeout_sec: 30 } });
  if (answer.success !== true) throw new Error(`cell failed: ${JSON.stringify(answer)}`);
  return answer.content?.find((item) => item.channel === 'write')?.text;
};
const signInCode = (user) => `await gotoUrl(${JSON.stringify(fixtures.url('profile-login.html'))}, { waitUntil: 'load' });
  await js(${JSON.stringify(`document.querySelector('input[name=user]').value = ${JSON.stringify(user)}; document.getElementById('sign-in').click()`)});
  for (let i = 0; i < 200 && (await js("location.pathname")) !== "/__account"; i++) await waitMs(25);
  await waitForLoad();
  repl.write(await js("document.getElementById('who').textContent"))`;
const whoAmICode = () => `await gotoUrl(${JSON.stringify(`${fixtures.origin}/__account`)}, { waitUntil: 'load' });
  repl.write(await js("document.getElementById('who').textContent"))`;
const signIn = (browser, user) => cell(browser, signInCode(user));
const whoAmI = (browser) => cell(browser, whoAmICode());

t.test('a login is kept in a profile across delete and re-create, and absent without it', async (t) => {
  const profile = await kernel.profiles.create({ name: 'login-kept' });
  t.match(profile, { id: String, name: 'login-kept', created_at: String }, 'profiles.create answers the Profile');
  t.teardown(() => kernel.profiles.delete(profile.id).catch(() => undefined));

  const writer = await kernel.browsers.create({ profile: { name: 'login-kept', save_changes: true } });
  t.equal(writer.profile?.id, profile.id, 'the browser names its profile');
  t.equal(await signIn(writer, 'ada'), 'signed in as ada', 'the fixture login worked');
  await kernel.browsers.deleteByID(writer.session_id);

  const reader = await kernel.browsers.create({ profile: { id: profile.id } });
  t.teardown(() => kernel.browsers.deleteByID(reader.session_id).catch(() => undefined));
  t.equal(await whoAmI(reader), 'signed in as ada', 'a new browser on the profile is signed in');
  const stranger = await kernel.browsers.create({});
  t.teardown(() => kernel.browsers.deleteByID(stranger.session_id).catch(() => undefined));
  t.equal(await whoAmI(stranger), 'signed out', 'a browser without the profile is not');
  t.equal(stranger.profile, undefined);

  // The reader had no save_changes: a login there does not reach the profile.
  t.equal(await signIn(reader, 'mallory'), 'signed in as mallory');
  await kernel.browsers.deleteByID(reader.session_id);
  await kernel.browsers.deleteByID(stranger.session_id);

  // A browser reaped by its timeout saves as a deleted one does.
  const before = await kernel.profiles.retrieve(profile.id);
  const reaped = await kernel.browsers.create({ profile: { name: 'login-kept', save_changes: true }, timeout_seconds: 1 });
  t.equal(await signIn(reaped, 'grace'), 'signed in as grace');
  const until = Date.now() + 30_000;
  let after = before;
  while (Date.now() < until) {
    after = await kernel.profiles.retrieve(profile.id);
    if (after.updated_at !== before.updated_at) break;
    await sleep(100);
  }
  t.not(after.updated_at, before.updated_at, 'the reaped browser saved the profile');
  await t.rejects(kernel.browsers.retrieve(reaped.session_id), { status: 404 }, 'and it is gone');
  const next = await kernel.browsers.create({ profile: { name: 'login-kept' } });
  t.equal(await whoAmI(next), 'signed in as grace', 'its login is the profile\'s now, not the reader\'s');
  await kernel.browsers.deleteByID(next.session_id);
});

t.test('every method of client.profiles, with its effect', async (t) => {
  const made = [];
  t.teardown(() => Promise.all(made.map((id) => kernel.profiles.delete(id).catch(() => undefined))));
  for (const name of ['page-a', 'page-b', 'page-c']) made.push((await kernel.profiles.create({ name })).id);
  const unnamed = await kernel.profiles.create({});
  made.push(unnamed.id);
  t.equal(unnamed.name, null);

  // list: the SDK pages with X-Has-More / X-Next-Offset.
  const first = await kernel.profiles.list({ limit: 2 });
  t.equal(first.getPaginatedItems().length, 2, 'a page of two');
  t.ok(first.hasNextPage());
  const all = [];
  for await (const profile of kernel.profiles.list({ limit: 2 })) all.push(profile.id);
  t.same(all.filter((id) => made.includes(id)), made, 'every page, oldest first, none twice');
  const byName = [];
  for await (const profile of kernel.profiles.list({ name: 'PAGE-B' })) byName.push(profile.id);
  t.same(byName, [made[1]], 'name filters exactly, without case');
  const byQuery = [];
  for await (const profile of kernel.profiles.list({ query: 'page-' })) byQuery.push(profile.id);
  t.same(byQuery, made.slice(0, 3), 'query is a substring');

  // retrieve by id and by name; update renames.
  t.equal((await kernel.profiles.retrieve('page-a')).id, made[0]);
  const renamed = await kernel.profiles.update(made[0], { name: 'page-a2' });
  t.equal(renamed.name, 'page-a2');
  t.equal((await kernel.profiles.retrieve('page-a2')).id, made[0]);
  await t.rejects(kernel.profiles.retrieve('page-a'), { status: 404 }, 'the old name is free');
  await t.rejects(kernel.profiles.update(made[1], { name: 'Page-A2' }), { status: 409, error: { code: 'REPL_ERR_PROFILE_NAME_TAKEN' } });

  // download: a tar of the user data, holding the cookie database once a browser saved it.
  const browser = await kernel.browsers.create({ profile: { id: made[1], save_changes: true } });
  t.equal(await signIn(browser, 'tar'), 'signed in as tar');
  await kernel.browsers.deleteByID(browser.session_id);
  const response = await kernel.profiles.download('page-b', { format: 'tar' });
  t.equal(response.headers.get('content-type'), 'application/x-tar');
  const scratch = mkdtempSync(join(tmpdir(), 'chromium-repl-test-profile-tar-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  writeFileSync(join(scratch, 'p.tar'), Buffer.from(await response.arrayBuffer()));
  const extracted = spawnSync('tar', ['-xf', 'p.tar'], { cwd: scratch, encoding: 'utf8' });
  t.equal(extracted.status, 0, extracted.stderr);
  t.ok(statSync(join(scratch, 'page-b', 'Default', 'Cookies')).size > 0, 'the archive holds the cookie database');
  t.notOk(readdirSync(join(scratch, 'page-b')).some((name) => name.startsWith('Singleton')), 'and not the lock files of the browser that wrote it');
  t.notOk(readdirSync(join(scratch, 'page-b', 'Default')).some((name) => /Cache$/.test(name)), 'nor its caches');
  t.equal(readFileSync(join(scratch, 'page-b', 'Default', 'Cookies')).subarray(0, 15).toString('latin1'), 'SQLite format 3', 'the download is in the clear');
  const stored = join(dataDir, 'profiles', made[1]);
  const generation = readdirSync(stored).find((name) => name.startsWith('data-'));
  t.not(readFileSync(join(stored, generation, 'Default', 'Cookies')).subarray(0, 15).toString('latin1'), 'SQLite format 3', 'while on disk the cookie database is sealed');

  // tar.zst where the runtime has zstd; a clear 400 naming the format where it has not.
  if (typeof zlib.zstdDecompressSync === 'function') {
    const zst = await kernel.profiles.download('page-b');
    t.equal(zst.headers.get('content-type'), 'application/zstd');
    const tar = zlib.zstdDecompressSync(Buffer.from(await zst.arrayBuffer()));
    t.ok(tar.includes(Buffer.from('page-b/Default/Cookies')), 'the default download is tar.zst, of the same files');
  } else {
    const plain = await kernel.profiles.download('page-b');
    t.equal(plain.headers.get('content-type'), 'application/x-tar', 'without zstd the default is plain tar');
    await plain.arrayBuffer();
    await t.rejects(kernel.profiles.download('page-b', { format: 'tar.zst' }), { status: 400, error: { code: 'REPL_ERR_PROFILE_FORMAT_UNSUPPORTED', message: /tar\.zst/ } });
  }

  // delete: gone from retrieve and list, its folder removed.
  await kernel.profiles.delete(made[2]);
  await t.rejects(kernel.profiles.retrieve(made[2]), { status: 404 });
  const left = [];
  for await (const profile of kernel.profiles.list()) left.push(profile.id);
  t.notOk(left.includes(made[2]));
  t.notOk(readdirSync(join(dataDir, 'profiles')).includes(made[2]), 'its folder is removed');
  t.equal((statSync(join(dataDir, 'profiles')).mode & 0o777).toString(8), '700', 'the profiles folder is the server user\'s alone');
});

t.test('unknown and malformed profiles are refused, naming them', async (t) => {
  await t.rejects(kernel.browsers.create({ profile: { name: 'no-such-profile' } }),
    { status: 404, error: { code: 'REPL_ERR_PROFILE_NOT_FOUND', message: /"no-such-profile"/ } });
  await t.rejects(kernel.browsers.create({ profile: { id: 'nope', name: 'nope' } }), { status: 400, error: { message: /profile/ } });
  await t.rejects(kernel.browsers.create({ profile: { name: 'bad name' } }), { status: 400, error: { code: 'REPL_ERR_INVALID_REQUEST', message: /profile/ } });
  await t.rejects(kernel.browsers.create({ profile: {} }), { status: 400, error: { message: /profile must have either id or name/ } });
  await t.rejects(kernel.profiles.create({ name: 'bad name' }), { status: 400, error: { code: 'REPL_ERR_INVALID_REQUEST', message: /name/ } });
  await t.rejects(kernel.profiles.retrieve('missing-one'), { status: 404, error: { code: 'REPL_ERR_PROFILE_NOT_FOUND', message: /"missing-one"/ } });
  await t.rejects(kernel.profiles.delete('missing-one'), { status: 404 });
  await t.rejects(kernel.profiles.download('missing-one'), { status: 404 });
  await t.rejects(kernel.profiles.download('missing-one', { format: 'zip' }), { status: 400, error: { message: /format/ } });
  const made = await kernel.profiles.create({ name: 'patch-check' });
  t.teardown(() => kernel.profiles.delete(made.id).catch(() => undefined));
  await t.rejects(kernel.profiles.update(made.id, { name: '' }), { status: 400, error: { message: /name/ } });
  const browser = await kernel.browsers.create({});
  t.teardown(() => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined));
  await t.rejects(kernel.browsers.update(browser.session_id, { profile: { name: 'patch-check' } }), { status: 400, error: { message: /^profile is not supported/ } });
  t.equal((await api.call('GET', '/healthz')).status, 200, 'the server lives on');
});

t.test('a server that closes saves its browsers\' profiles, and the next server on the data folder loads them', async (t) => {
  const restartData = mkdtempSync(join(tmpdir(), 'chromium-repl-test-profile-restart-'));
  t.teardown(() => rmSync(restartData, { recursive: true, force: true }));
  const { startServer } = await import('../../dist/lib/index.js');
  const options = { port: 0, host: '127.0.0.1', token: undefined, dataDir: restartData, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 1 };
  const first = await startServer(options);
  const firstKernel = new Kernel({ apiKey: 'unused', baseURL: first.url, maxRetries: 0 });
  try {
    await firstKernel.profiles.create({ name: 'restart' });
    const browser = await firstKernel.browsers.create({ profile: { name: 'restart', save_changes: true } });
    t.match((await firstKernel.post(`/browsers/${browser.session_id}/repl`, { body: { code: signInCode('linus'), timeout_sec: 30 } })).content, [{ text: 'signed in as linus' }]);
  } finally {
    // The browser is still running: the close ends it, and saves it.
    await first.close();
  }
  const second = await startServer(options);
  t.teardown(() => second.close());
  const secondKernel = new Kernel({ apiKey: 'unused', baseURL: second.url, maxRetries: 0 });
  const browser = await secondKernel.browsers.create({ profile: { name: 'restart' } });
  const answer = await secondKernel.post(`/browsers/${browser.session_id}/repl`, { body: { code: whoAmICode(), timeout_sec: 30 } });
  t.match(answer.content, [{ text: 'signed in as linus' }], 'the login made before the restart');
  await secondKernel.browsers.deleteByID(browser.session_id);
});

t.test('mcp --profile keeps an agent\'s login across a restart of the MCP server', async (t) => {
  const mcpData = mkdtempSync(join(tmpdir(), 'chromium-repl-test-mcp-profile-'));
  t.teardown(() => rmSync(mcpData, { recursive: true, force: true }));
  const env = { ...process.env };
  for (const name of ['CDP_ENDPOINT', 'BROWSER_REPL_TOKEN', 'BROWSER_REPL_TOOLS_PERMISSION', 'BROWSER_REPL_DATA_DIR']) delete env[name];
  /** One run of the stdio server on the profile: one browser_repl cell, then the client closes stdin and the server exits. */
  const session = async (code) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--profile', 'agent', '--data-dir', mcpData, '--caps', 'code', '--permission', 'allow'],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'profiles-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid;
    try {
      const result = await client.callTool({ name: 'browser_repl', arguments: { code } });
      if (result.isError) throw new Error(`browser_repl failed: ${JSON.stringify(result.content)}`);
      return result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');
    } finally {
      await client.close();
      const until = Date.now() + 20_000;
      while (Date.now() < until) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        await sleep(50);
      }
    }
  };
  t.match(await session(signInCode('agent-smith')), /signed in as agent-smith/, 'the agent signed in');
  t.match(await session(whoAmICode()), /signed in as agent-smith/, 'and is still signed in after the restart');
  t.ok(readdirSync(join(mcpData, 'profiles')).length === 1, 'one stored profile, in the data folder given');
});
