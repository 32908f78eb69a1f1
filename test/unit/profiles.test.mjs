// Stored profiles without a browser (docs/browsers.md#profiles): the name and cache rules, the
// store's create, rename, delete, save and copy, its tar archive, and a save SIGKILLed midway.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkProfileName, isExcludedPath } from '../../dist/lib/profiles/profile-rules.js';
import { ProfileStore } from '../../dist/lib/profiles/profile-store.js';
import { paxRecord } from '../../dist/lib/profiles/tar.js';

const CHILD = fileURLToPath(new URL('../fixtures/profile-save-child.mjs', import.meta.url));

function tempDir(t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'profiles-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A user-data-like folder: a cookie DB and local storage to keep, caches and locks to leave out. */
function userDataDir(root, marker) {
  const files = {
    'Local State': `{"marker":"${marker}"}`,
    'Default/Cookies': `cookies ${marker}`,
    'Default/Local Storage/leveldb/000003.log': `storage ${marker}`,
    'Default/Cache/Cache_Data/data_0': 'cache',
    'Default/Code Cache/js/index': 'code cache',
    'Default/Service Worker/CacheStorage/abc/index': 'sw cache',
    'Default/Service Worker/Database/000001.log': `sw db ${marker}`,
    'GrShaderCache/data_0': 'shader',
    'Crashpad/settings.dat': 'crash',
    'SingletonLock': 'lock',
    'DevToolsActivePort': '1234',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function treeOf(root) {
  const out = {};
  const walk = (dir, rel) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child, name);
      else out[name] = readFileSync(child, 'utf8');
    }
  };
  walk(root, '');
  return out;
}

t.test('profile names follow the hosted rule and the message names the field', async (t) => {
  for (const good of ['a', 'my-profile_1.2', 'x'.repeat(255)]) t.equal(checkProfileName(good), good);
  for (const bad of ['', 'has space', 'slash/name', 'x'.repeat(256), 7, null, '..\u0000']) {
    t.throws(() => checkProfileName(bad, 'profile.name'), { code: 'REPL_ERR_INVALID_REQUEST', message: /^profile\.name must be/ });
  }
});

t.test('caches, crash dumps and the writer\'s locks are left out; site data is kept', async (t) => {
  for (const kept of ['Default/Cookies', 'Local State', 'Default/Local Storage/leveldb/000003.log', 'Default/IndexedDB/x.leveldb/LOG', 'Default/Service Worker/Database/000001.log', 'Default/Preferences', 'Default/SingletonLock']) {
    t.notOk(isExcludedPath(kept), kept);
  }
  for (const left of ['Default/Cache', 'Default/Cache/Cache_Data/data_0', 'Default/Code Cache/js', 'Default/GPUCache', 'ShaderCache', 'GrShaderCache/x', 'DawnCache',
    'Default/Service Worker/CacheStorage', 'Default/Service Worker/ScriptCache/x', 'Crashpad', 'SingletonLock', 'SingletonSocket', 'SingletonCookie', 'DevToolsActivePort', 'Default\\Cache\\x']) {
    t.ok(isExcludedPath(left), left);
  }
  t.notOk(isExcludedPath(''), 'the root itself is kept');
});

t.test('a PAX record counts its own length', async (t) => {
  for (const value of ['a', 'x'.repeat(90), 'y'.repeat(995), 'é'.repeat(60)]) {
    const record = paxRecord('path', value);
    const length = Number(record.toString('utf8').split(' ')[0]);
    t.equal(length, record.length, `${value.length} characters`);
  }
});

t.test('the store: create, list, rename, save and copy without caches, delete', async (t) => {
  const dir = path.join(tempDir(t), 'profiles');
  const store = new ProfileStore({ dir });
  t.same(await store.list(), [], 'no folder yet: no profiles, nothing created');
  t.notOk(existsSync(dir));
  const a = await store.create({ name: 'Work' });
  const b = await store.create({});
  t.equal(b.name, null);
  t.equal((statSync(dir).mode & 0o777).toString(8), '700', 'the profiles folder is private');
  await t.rejects(store.create({ name: 'work' }), { code: 'REPL_ERR_PROFILE_NAME_TAKEN' }, 'names are compared without case');
  await t.rejects(store.create({ name: 'bad name' }), { code: 'REPL_ERR_INVALID_REQUEST', message: /^name must be/ });
  t.same((await store.list()).map((p) => p.id), [a.id, b.id], 'oldest first');
  t.same((await store.list({ name: 'WORK' })).map((p) => p.id), [a.id]);
  t.same((await store.list({ query: b.id.slice(2, 8) })).map((p) => p.id), [b.id]);
  t.equal((await store.get('work')).id, a.id, 'found by name without case');
  await t.rejects(store.get('nope'), { code: 'REPL_ERR_PROFILE_NOT_FOUND', message: /"nope"/ });

  const renamed = await store.rename(a.id, 'Home');
  t.equal(renamed.name, 'Home');
  await t.rejects(store.get('Work'), { code: 'REPL_ERR_PROFILE_NOT_FOUND' });

  const source = userDataDir(path.join(tempDir(t), 'ud'), 'one');
  t.equal(await store.save(a.id, source), true);
  const copy = path.join(tempDir(t), 'copy');
  mkdirSync(copy);
  await store.copyInto(a.id, copy);
  t.same(Object.keys(treeOf(copy)).sort(), ['Default/Cookies', 'Default/Local Storage/leveldb/000003.log', 'Default/Service Worker/Database/000001.log', 'Local State']);
  t.equal(treeOf(copy)['Default/Cookies'], 'cookies one');
  t.ok((await store.get(a.id)).last_used_at, 'a copy marks it used');

  // A second save replaces the first whole (the last one to finish wins) and retires its generation.
  userDataDir(source, 'two');
  await store.save(a.id, source);
  const generations = readdirSync(path.join(dir, a.id)).filter((name) => name.startsWith('data-'));
  t.equal(generations.length, 1, 'one generation left');
  const again = path.join(tempDir(t), 'again');
  mkdirSync(again);
  await store.copyInto(a.id, again);
  t.equal(treeOf(again)['Default/Cookies'], 'cookies two');

  // The archive holds the profile's files under its name, readable by tar(1).
  const { stream } = await store.archive(a.id);
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  const tarFile = path.join(tempDir(t), 'p.tar');
  writeFileSync(tarFile, Buffer.concat(chunks));
  const listing = spawnSync('tar', ['-tf', tarFile], { encoding: 'utf8' });
  t.equal(listing.status, 0, listing.stderr);
  t.match(listing.stdout, /^Home\/Default\/Cookies$/m);
  t.notMatch(listing.stdout, /Cache_Data/);

  await store.delete('home');
  await t.rejects(store.get(a.id), { code: 'REPL_ERR_PROFILE_NOT_FOUND' });
  t.notOk(existsSync(path.join(dir, a.id)));
  t.equal(await store.save(a.id, source), false, 'a save to a deleted profile is dropped, not recreated');
  t.notOk(existsSync(path.join(dir, a.id)));
});

t.test('a save SIGKILLed midway leaves the previous profile whole, and the next open removes its leftovers', async (t) => {
  const dir = path.join(tempDir(t), 'profiles');
  const store = new ProfileStore({ dir });
  const profile = await store.create({ name: 'fault' });
  const before = userDataDir(path.join(tempDir(t), 'before'), 'before');
  await store.save(profile.id, before);

  // A big folder (many files: the copy and its fsyncs take a while), of new contents.
  const big = userDataDir(path.join(tempDir(t), 'big'), 'after');
  const blob = Buffer.alloc(256 * 1024, 7);
  for (let i = 0; i < 300; i++) {
    mkdirSync(path.join(big, 'Default', 'IndexedDB', `site${i % 20}`), { recursive: true });
    writeFileSync(path.join(big, 'Default', 'IndexedDB', `site${i % 20}`, `${i}.ldb`), blob);
  }
  const folder = path.join(dir, profile.id);
  const child = spawn(process.execPath, [CHILD, dir, profile.id, big], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => child.kill('SIGKILL'));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // Killed once its temporary copy exists, i.e. in the middle of the save.
  let killedMidway = false;
  for (;;) {
    if (readdirSync(folder).some((name) => name.startsWith('.tmp-'))) {
      child.kill('SIGKILL');
      killedMidway = true;
      break;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const exit = await exited;
  t.ok(killedMidway, 'the child was killed while its copy was being written');
  t.equal(exit.signal, 'SIGKILL');
  t.ok(readdirSync(folder).some((name) => name.startsWith('.tmp-')), 'it left a half copy behind');

  const reopened = new ProfileStore({ dir });
  const copy = path.join(tempDir(t), 'copy');
  mkdirSync(copy);
  await reopened.copyInto(profile.id, copy);
  const tree = treeOf(copy);
  t.equal(tree['Default/Cookies'], 'cookies before', 'the previous contents, whole');
  t.notOk(Object.keys(tree).some((name) => name.includes('IndexedDB')), 'nothing of the killed save');
  t.same(readdirSync(folder).filter((name) => name !== 'profile.json').length, 1, 'the leftovers are gone: one generation, no temporary folder');
});

t.test('mcp --profile: a checked name, the shared default context, and --data-dir only with it', async (t) => {
  const { mcpOptions } = await import('../../dist/lib/cli/mcp.js');
  const options = mcpOptions(['--profile', 'agent', '--data-dir', '/tmp/x'], {});
  t.same(options.profile, { name: 'agent', dataDir: '/tmp/x' });
  t.equal(options.tools.isolation, 'none', 'the sessions share the profile\'s cookies');
  t.equal(mcpOptions([], {}).profile, undefined);
  t.throws(() => mcpOptions(['--profile', 'bad name'], {}), { message: /--profile must be/ });
  t.throws(() => mcpOptions(['--profile', 'agent', '--isolation', 'context'], {}), { message: /--profile needs --isolation none/ });
  t.throws(() => mcpOptions(['--data-dir', '/tmp/x'], {}), { message: /--data-dir only matters with --profile/ });
});

t.test('encryption at rest: sealed files on disk, read back with the key, refused without it or with another', async (t) => {
  const { parseProfileKey, seal, unseal } = await import('../../dist/lib/profiles/encryption.js');
  const key = Buffer.alloc(32, 1);
  t.same(parseProfileKey(key.toString('hex'), 'k'), key);
  t.throws(() => parseProfileKey('nope', 'the key'), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /^the key must be a 32-byte key/ });
  const sealed = seal(Buffer.from('secret cookie'), key, 'Default/Cookies');
  t.same(unseal(sealed, key, 'Default/Cookies'), Buffer.from('secret cookie'));
  t.throws(() => unseal(sealed, key, 'Default/History'), { code: 'REPL_ERR_PROFILE_KEY' }, 'a file moved to another name does not open');
  const altered = Buffer.from(sealed);
  altered[altered.length - 1] ^= 1;
  t.throws(() => unseal(altered, key, 'Default/Cookies'), { code: 'REPL_ERR_PROFILE_KEY' }, 'an altered file does not open');

  const dir = path.join(tempDir(t), 'profiles');
  const store = new ProfileStore({ dir, key });
  t.equal(store.encrypted, true);
  const profile = await store.create({ name: 'sealed' });
  await store.save(profile.id, userDataDir(path.join(tempDir(t), 'ud'), 'marker-sealed'));
  const generation = readdirSync(path.join(dir, profile.id)).find((name) => name.startsWith('data-'));
  const onDisk = readFileSync(path.join(dir, profile.id, generation, 'Default', 'Cookies'));
  t.notOk(onDisk.includes(Buffer.from('marker-sealed')), 'the cookie database is not readable on disk');
  t.equal((statSync(path.join(dir, profile.id, generation, 'Default', 'Cookies')).mode & 0o777).toString(8), '600');
  const copy = path.join(tempDir(t), 'copy');
  mkdirSync(copy);
  await store.copyInto(profile.id, copy);
  t.equal(treeOf(copy)['Default/Cookies'], 'cookies marker-sealed', 'a browser gets it back in the clear');
  t.notOk(Object.keys(treeOf(copy)).some((name) => name.includes('Cache')), 'caches are left out of a sealed save too');
  const { stream } = await store.archive(profile.id);
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  t.ok(Buffer.concat(chunks).includes(Buffer.from('cookies marker-sealed')), 'the download is in the clear');

  const keyless = new ProfileStore({ dir });
  await t.rejects(keyless.copyInto(profile.id, copy), { code: 'REPL_ERR_PROFILE_KEY', message: /no profile key/ });
  await t.rejects(keyless.archive(profile.id), { code: 'REPL_ERR_PROFILE_KEY' }, 'a download is refused before any byte');
  const otherKey = new ProfileStore({ dir, key: Buffer.alloc(32, 2) });
  await t.rejects(otherKey.copyInto(profile.id, copy), { code: 'REPL_ERR_PROFILE_KEY', message: /another profile key/ });
  t.equal((await keyless.get(profile.id)).name, 'sealed', 'its metadata stays readable');
});
