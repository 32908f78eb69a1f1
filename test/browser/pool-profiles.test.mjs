// Browser pools with a stored profile (docs/browsers.md#pools-with-a-profile) through the official
// @onkernel/sdk, unchanged, against real headless Chromiums and the cookie login of the fixture
// server: a pool with a profile keeps a login (and the site's local storage) across a release with
// reuse, while its REPL bindings do not survive; a pool without one is signed out after reuse; with
// save_changes the login reaches the stored profile when the pool's browser ends (released without
// reuse, flushed, deleted while acquired), and a browser that was never acquired saves nothing; of
// two pool browsers saving one profile the one that ends last is the profile; a save of the profile ends
// the idle browsers of a pool that refreshes, so the next acquire starts from the save; the answers
// name the profile (profile_id, browser_pool_config.profile, the acquired browser's profile); the
// profile is removed with `{ id: "" }`; bad profile input is a 4xx naming the field; and
// PATCH /browsers/{id} with a profile answers 400 naming it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { until } from '../helpers/loopback.mjs';

const fixtures = await startFixtureServer();
const dataDir = mkdtempSync(join(tmpdir(), 'chromium-repl-test-pool-profiles-'));
const api = await apiServer(t, { dataDir, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 4 });
t.teardown(async () => {
  await api.server.close();
  await fixtures.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });

/** Runs a cell in the browser and returns what it wrote last. */
async function cell(browser, code) {
  const answer = await kernel.post(`/browsers/${browser.session_id}/repl`, { body: { code, timeout_sec: 30 } });
  if (answer.success !== true) throw new Error(`cell failed: ${JSON.stringify(answer)}`);
  return answer.content?.filter((item) => item.channel === 'write').at(-1)?.text;
}
const signIn = (browser, user) => cell(browser, `await gotoUrl(${JSON.stringify(fixtures.url('profile-login.html'))}, { waitUntil: 'load' });
  await js(${JSON.stringify(`localStorage.setItem('remember', ${JSON.stringify(user)}); document.querySelector('input[name=user]').value = ${JSON.stringify(user)}; document.getElementById('sign-in').click()`)});
  for (let i = 0; i < 200 && (await js("location.pathname")) !== "/__account"; i++) await waitMs(25);
  await waitForLoad();
  repl.write(await js("document.getElementById('who').textContent"))`);
const whoAmI = (browser) => cell(browser, `await gotoUrl(${JSON.stringify(`${fixtures.origin}/__account`)}, { waitUntil: 'load' });
  repl.write(await js("document.getElementById('who').textContent"))`);
const remembered = (browser) => cell(browser, `await gotoUrl(${JSON.stringify(`${fixtures.origin}/__account`)}, { waitUntil: 'load' });
  repl.write(String(await js("localStorage.getItem('remember')")))`);

async function savedAfter(profileId, before) {
  let after;
  await until(async () => {
    after = await kernel.profiles.retrieve(profileId);
    return after.updated_at !== before;
  }, `profile ${profileId} to be saved`);
  return after;
}

t.test('a pool with a profile keeps the login across reuse; a pool without one does not', async (t) => {
  const profile = await kernel.profiles.create({ name: 'pool-login' });
  const pool = await kernel.browserPools.create({ name: 'with-profile', size: 1, profile: { name: 'pool-login' } });
  t.teardown(async () => {
    await kernel.browserPools.delete(pool.id, { force: true }).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  t.equal(pool.profile_id, profile.id, 'profile_id is the profile the name resolved to');
  t.same(pool.browser_pool_config.profile, { name: 'pool-login' }, 'the config echoes the profile as sent');
  t.equal(pool.browser_pool_config.refresh_on_profile_update, true, 'refresh_on_profile_update defaults to true with a profile');
  t.equal((await kernel.browserPools.retrieve('with-profile')).profile_id, profile.id, 'retrieve names it too');

  const first = await kernel.browserPools.acquire(pool.id, {});
  t.equal(first.profile?.id, profile.id, 'the acquired browser names its profile');
  t.equal(first.profile?.name, 'pool-login');
  t.equal(await signIn(first, 'ada'), 'signed in as ada', 'the fixture login worked');
  await cell(first, 'globalThis.leftover = 1; var lastUser = "ada"; repl.write("set")');
  await kernel.browserPools.release(pool.id, { session_id: first.session_id, reuse: true });

  const second = await kernel.browserPools.acquire(pool.id, {});
  t.not(second.session_id, first.session_id, 'the reused browser has a new id');
  t.equal(await whoAmI(second), 'signed in as ada', 'still signed in after reuse: the cookies are the profile\'s');
  t.equal(await remembered(second), 'ada', 'and the site\'s local storage stayed');
  t.equal(await cell(second, 'repl.write(typeof leftover + " " + typeof lastUser)'), 'undefined undefined', 'the last user\'s REPL bindings are gone');
  await kernel.browserPools.release(pool.id, { session_id: second.session_id, reuse: true });

  // Without save_changes the stored profile is untouched by all of it.
  const stored = await kernel.profiles.retrieve(profile.id);
  t.equal(stored.updated_at, profile.updated_at, 'the profile was not saved');
  const reader = await kernel.browsers.create({ profile: { id: profile.id } });
  t.equal(await whoAmI(reader), 'signed out', 'a browser created on the profile starts from what is stored: signed out');
  await kernel.browsers.deleteByID(reader.session_id);
  await kernel.browserPools.delete(pool.id, { force: true });

  const plain = await kernel.browserPools.create({ name: 'without-profile', size: 1 });
  t.teardown(() => kernel.browserPools.delete(plain.id, { force: true }).catch(() => undefined));
  t.equal(plain.profile_id, undefined, 'a pool without profile has no profile_id');
  t.equal(plain.browser_pool_config.profile, undefined);
  const lease = await kernel.browserPools.acquire(plain.id, {});
  t.equal(lease.profile, undefined);
  t.equal(await signIn(lease, 'bob'), 'signed in as bob');
  await kernel.browserPools.release(plain.id, { session_id: lease.session_id, reuse: true });
  const again = await kernel.browserPools.acquire(plain.id, {});
  t.equal(await whoAmI(again), 'signed out', 'signed out after reuse without a profile');
  t.equal(await remembered(again), 'null', 'and the local storage is cleared');
  await kernel.browserPools.release(plain.id, { session_id: again.session_id, reuse: true });
  await kernel.browserPools.delete(plain.id, { force: true });
});

t.test('with save_changes the profile is written back when the pool\'s browser ends', async (t) => {
  const profile = await kernel.profiles.create({ name: 'pool-writer' });
  const pool = await kernel.browserPools.create({ name: 'writer', size: 1, profile: { id: profile.id, save_changes: true } });
  t.teardown(async () => {
    await kernel.browserPools.delete(pool.id, { force: true }).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  t.same(pool.browser_pool_config.profile, { id: profile.id, save_changes: true }, 'save_changes is echoed');

  // A browser that was never acquired saves nothing when it ends.
  await until(async () => (await kernel.browserPools.retrieve(pool.id)).available_count === 1, 'the pool to fill');
  await kernel.browserPools.flush(pool.id);
  await until(async () => (await kernel.browserPools.retrieve(pool.id)).available_count === 1, 'the pool to refill');
  t.equal((await kernel.profiles.retrieve(profile.id)).updated_at, profile.updated_at, 'an idle browser flushed unused did not save');

  // Released without reuse: the browser ends, and saves.
  const first = await kernel.browserPools.acquire(pool.id, {});
  t.equal(await signIn(first, 'grace'), 'signed in as grace');
  await kernel.browserPools.release(pool.id, { session_id: first.session_id, reuse: false });
  const saved = await savedAfter(profile.id, profile.updated_at);
  const reader = await kernel.browsers.create({ profile: { id: profile.id } });
  t.equal(await whoAmI(reader), 'signed in as grace', 'the login reached the stored profile');
  await kernel.browsers.deleteByID(reader.session_id);

  // The pool's next browsers launch on the save.
  const second = await kernel.browserPools.acquire(pool.id, {});
  t.equal(await whoAmI(second), 'signed in as grace', 'a browser the pool launched after the save starts signed in');
  t.equal(await signIn(second, 'hopper'), 'signed in as hopper');
  // Released with reuse it stays alive and is not saved; flushed idle, it ends and saves.
  await kernel.browserPools.release(pool.id, { session_id: second.session_id, reuse: true });
  await until(async () => (await kernel.browserPools.retrieve(pool.id)).available_count === 1, 'the released browser to be idle');
  t.equal((await kernel.profiles.retrieve(profile.id)).updated_at, saved.updated_at, 'a release with reuse does not save');
  await kernel.browserPools.flush(pool.id);
  await savedAfter(profile.id, saved.updated_at);
  const later = await kernel.browsers.create({ profile: { name: 'pool-writer' } });
  t.equal(await whoAmI(later), 'signed in as hopper', 'the flushed browser saved its lease\'s login');
  await kernel.browsers.deleteByID(later.session_id);

  // Deleted while acquired: DELETE answers once the profile is saved.
  const third = await kernel.browserPools.acquire(pool.id, {});
  t.equal(await signIn(third, 'lovelace'), 'signed in as lovelace');
  await kernel.browsers.deleteByID(third.session_id);
  const last = await kernel.browsers.create({ profile: { name: 'pool-writer' } });
  t.equal(await whoAmI(last), 'signed in as lovelace', 'a browser created right after the delete starts from its save');
  await kernel.browsers.deleteByID(last.session_id);
  t.equal((await kernel.browserPools.retrieve(pool.id)).acquired_count, 0, 'the deleted browser is no longer the pool\'s');
});

t.test('two browsers of one pool saving one profile: the last to end wins, whole', async (t) => {
  const profile = await kernel.profiles.create({ name: 'pool-two-writers' });
  const pool = await kernel.browserPools.create({ name: 'two-writers', size: 2, profile: { name: 'pool-two-writers', save_changes: true } });
  t.teardown(async () => {
    await kernel.browserPools.delete(pool.id, { force: true }).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  const [a, b] = await Promise.all([kernel.browserPools.acquire(pool.id, {}), kernel.browserPools.acquire(pool.id, {})]);
  t.not(a.session_id, b.session_id, 'two browsers');
  t.equal(await signIn(a, 'first-writer'), 'signed in as first-writer');
  t.equal(await signIn(b, 'second-writer'), 'signed in as second-writer');
  await kernel.browsers.deleteByID(b.session_id);
  t.equal(await whoAmI(await kernel.browsers.create({ profile: { id: profile.id }, name: 'check-1' })), 'signed in as second-writer', 'after the first save');
  await kernel.browsers.deleteByID('check-1');
  await kernel.browsers.deleteByID(a.session_id);
  const reader = await kernel.browsers.create({ profile: { id: profile.id } });
  t.equal(await whoAmI(reader), 'signed in as first-writer', 'the browser that ended last is the profile, not a merge');
  t.equal(await remembered(reader), 'first-writer', 'its local storage too');
  await kernel.browsers.deleteByID(reader.session_id);
});

t.test('a save of the profile refreshes the idle browsers of a pool on it', async (t) => {
  const profile = await kernel.profiles.create({ name: 'pool-refresh' });
  const pool = await kernel.browserPools.create({ name: 'refreshing', size: 1, profile: { name: 'pool-refresh' } });
  const still = await kernel.browserPools.create({ name: 'not-refreshing', size: 1, profile: { name: 'pool-refresh' }, refresh_on_profile_update: false });
  t.teardown(async () => {
    await kernel.browserPools.delete(pool.id, { force: true }).catch(() => undefined);
    await kernel.browserPools.delete(still.id, { force: true }).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  t.equal(still.browser_pool_config.refresh_on_profile_update, false);
  await until(async () => (await kernel.browserPools.retrieve(pool.id)).available_count === 1
    && (await kernel.browserPools.retrieve(still.id)).available_count === 1, 'both pools to fill');

  const writer = await kernel.browsers.create({ profile: { id: profile.id, save_changes: true } });
  t.equal(await signIn(writer, 'turing'), 'signed in as turing');
  await kernel.browsers.deleteByID(writer.session_id);

  const fresh = await kernel.browserPools.acquire(pool.id, {});
  t.equal(await whoAmI(fresh), 'signed in as turing', 'the refreshing pool\'s browser was relaunched on the save');
  const stale = await kernel.browserPools.acquire(still.id, {});
  t.equal(await whoAmI(stale), 'signed out', 'the other pool\'s idle browser kept the snapshot it launched on');
  await kernel.browserPools.release(pool.id, { session_id: fresh.session_id });
  await kernel.browserPools.release(still.id, { session_id: stale.session_id });
});

t.test('updating and removing a pool\'s profile; bad profile input', async (t) => {
  const profile = await kernel.profiles.create({ name: 'pool-update' });
  const pool = await kernel.browserPools.create({ name: 'updated', size: 0 });
  t.teardown(async () => {
    await kernel.browserPools.delete(pool.id, { force: true }).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  const refused = await api.call('PATCH', `/browser_pools/${pool.id}`, { refresh_on_profile_update: true });
  t.equal(refused.status, 400);
  t.match(refused.json?.message, /refresh_on_profile_update/, 'refresh without a profile names the field');

  const withProfile = await kernel.browserPools.update(pool.id, { profile: { name: 'pool-update' } });
  t.equal(withProfile.profile_id, profile.id, 'update sets the profile');
  t.equal(withProfile.browser_pool_config.refresh_on_profile_update, true);
  const renamedOnly = await kernel.browserPools.update(pool.id, { size: 0 });
  t.equal(renamedOnly.profile_id, profile.id, 'an update without profile keeps it');
  const cleared = await kernel.browserPools.update(pool.id, { profile: { id: '' } });
  t.equal(cleared.profile_id, undefined, 'profile: { id: "" } removes it');
  t.equal(cleared.browser_pool_config.profile, undefined);
  t.not(cleared.browser_pool_config.refresh_on_profile_update, true, 'and its refresh');

  const cases = [
    [{ size: 0, profile: { name: 'no-such-profile' } }, 404, /no-such-profile/],
    [{ size: 0, profile: { id: 'a', name: 'b' } }, 400, /profile/],
    [{ size: 0, profile: { name: 'pool-update', save_changes: 'yes' } }, 400, /profile\.save_changes/],
    [{ size: 0, profile: 'pool-update' }, 400, /profile/],
    [{ size: 0, refresh_on_profile_update: true }, 400, /refresh_on_profile_update/],
  ];
  for (const [body, status, message] of cases) {
    const answer = await api.call('POST', '/browser_pools', body);
    t.equal(answer.status, status, `${JSON.stringify(body)} answers ${status}`);
    t.match(answer.json?.message, message, 'naming what is wrong');
  }
  const patched = await api.call('PATCH', `/browser_pools/${pool.id}`, { profile: { name: 'no-such-profile' } });
  t.equal(patched.status, 404, 'an unknown profile on update is a 404');
  t.equal((await kernel.browserPools.retrieve(pool.id)).profile_id, undefined, 'and changes nothing');
  const names = [];
  for await (const each of kernel.browserPools.list()) names.push(each.name);
  t.same(names.filter((name) => name !== 'default'), ['updated'], 'no refused create left a pool');
});

t.test('PATCH /browsers/{id} with profile answers 400 naming the field', async (t) => {
  const profile = await kernel.profiles.create({ name: 'patch-refused' });
  const browser = await kernel.browsers.create({});
  t.teardown(async () => {
    await kernel.browsers.deleteByID(browser.session_id).catch(() => undefined);
    await kernel.profiles.delete(profile.id).catch(() => undefined);
  });
  await t.rejects(kernel.browsers.update(browser.session_id, { profile: { name: 'patch-refused' } }), { status: 400, error: { message: /profile/ } });
  t.equal((await kernel.browsers.retrieve(browser.session_id)).profile, undefined, 'the browser has no profile after the refusal');
});
