// Extensions (docs/browsers.md#extensions) through the official @onkernel/sdk unchanged, against a
// real server and real headless Chromiums: every client.extensions method with its effect checked
// (on disk and in the answers); a browser created with an uploaded extension whose content script
// marks every page, the mark read by a cell; browsers.loadExtensions on a running browser (no
// restart: a binding of its REPL survives), the mark then seen, and again after Chromium crashed
// and was relaunched; hostile zips and bad input answer
// a 4xx naming what is wrong, and nothing is written outside the data directory's own folders.
// The fixture extension (test/fixtures/extensions/marker) is zipped here, at run time.
import t from 'tap';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Kernel, { toFile } from '@onkernel/sdk';
import yazl from 'yazl';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const MIB = 1024 * 1024;
const outer = realpathSync(mkdtempSync(join(tmpdir(), 'browser-repl-extensions-test-')));
t.teardown(() => rmSync(outer, { recursive: true, force: true }));
const dataDir = join(outer, 'data');
const store = join(dataDir, 'extensions');

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, {
  primaryBrowser: { browser: false }, maxBrowsers: 3, dataDir,
  files: { uploadMaxMb: 2, zipMaxMb: 2, zipMaxRatio: 100, zipMaxEntries: 50 },
});
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });
const page = fixtures.url('basic.html');

/** A zip of `entries` ({ name, data }) built with yazl. */
function buildZip(entries) {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(Buffer.from(entry.data), entry.name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/** A name yazl refuses (`../x`), written over a placeholder of the same length in both headers. */
function renameEntry(zip, placeholder, name) {
  if (placeholder.length !== name.length) throw new Error('same length needed');
  return Buffer.from(zip.toString('latin1').split(placeholder).join(name), 'latin1');
}

const markerDir = new URL('../fixtures/extensions/marker/', import.meta.url);
const markerFiles = readdirSync(markerDir).map((name) => ({ name, data: readFileSync(new URL(name, markerDir)) }));
const markerZip = await buildZip(markerFiles);
// The same extension in one top-level folder, as `zip -r marker.zip marker/` makes it.
const nestedZip = await buildZip(markerFiles.map(({ name, data }) => ({ name: `marker/${name}`, data })));
const sha256 = (buffer) => createHash('sha256').update(buffer).digest('hex');

/** The SDK's error for a call that must fail, as { status, code, message }. */
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    return { status: error.status, code: error.error?.code, message: error.error?.message ?? error.message };
  }
  throw new Error('the call succeeded');
}

/** Every path under `dir`, relative. */
function walk(dir, prefix = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${prefix}${entry.name}`;
    return entry.isDirectory() ? [relative, ...walk(join(dir, entry.name), `${relative}/`)] : [relative];
  });
}

/** The temporary folders of loadExtensions (lib/extensions/live-extensions.ts). */
const liveFolders = () => readdirSync(tmpdir()).filter((name) => /^browser-repl-extensions-(?!test-)/.test(name)).map((name) => join(tmpdir(), name));

/** What a cell of `browserId` reads from the fixture page: the mark, or 'none'. */
async function markSeen(browserId, extra = '') {
  const response = await api.call('POST', `/browsers/${browserId}/repl`, {
    code: `await gotoUrl(${JSON.stringify(page)}); await waitForLoad(); repl.write(JSON.stringify({ mark: await js("document.documentElement.dataset.markedBy ?? 'none'")${extra} }));`,
    timeout_sec: 60,
  });
  if (response.status !== 200 || response.json.success !== true) throw new Error(`the cell failed: ${response.text}`);
  return JSON.parse(response.json.content.find((item) => item.type === 'text' && item.channel === 'write').text);
}

let marker;

t.test('client.extensions: upload, list, get, download, delete, downloadFromChromeStore', async (t) => {
  marker = await kernel.extensions.upload({ file: await toFile(markerZip, 'marker.zip'), name: 'marker' });
  t.match(marker, { id: /^[a-z0-9]+$/, name: 'marker', size_bytes: markerZip.length, checksum: sha256(markerZip), last_used_at: null });
  t.ok(!Number.isNaN(Date.parse(marker.created_at)), 'created_at is a date');
  t.same(readFileSync(join(store, marker.id, 'extension.zip')), markerZip, 'the archive is stored as uploaded');
  t.ok(existsSync(join(store, marker.id, 'unpacked', 'manifest.json')), 'and unpacked beside it');

  const nested = await kernel.extensions.upload({ file: await toFile(nestedZip, 'nested.zip') });
  t.equal(nested.name, null, 'a name is optional');
  t.ok(existsSync(join(store, nested.id, 'unpacked', 'marker', 'manifest.json')), 'a zip of the folder is accepted (manifest.json in its one top-level folder)');

  const all = [];
  // limit 1: the SDK's pager follows X-Next-Offset over two pages.
  for await (const row of kernel.extensions.list({ limit: 1 })) all.push(row.id);
  t.same(all, [marker.id, nested.id], 'list pages through both, oldest first');
  t.same((await kernel.extensions.list({ name: 'marker' })).getPaginatedItems().map((row) => row.id), [marker.id], 'list by name');
  t.same((await kernel.extensions.list({ query: 'MARK' })).getPaginatedItems().map((row) => row.id), [marker.id], 'list by a substring of the name, any case');
  t.same((await kernel.extensions.list({ query: nested.id })).getPaginatedItems().map((row) => row.id), [nested.id], 'list by id');

  t.same(await kernel.extensions.get('marker'), marker, 'get by name');
  t.same(await kernel.extensions.get(nested.id), nested, 'get by id');
  const downloaded = Buffer.from(await (await kernel.extensions.download('marker')).arrayBuffer());
  t.same(downloaded, markerZip, 'download answers the zip as uploaded');

  t.match(await refusal(kernel.extensions.upload({ file: await toFile(markerZip, 'again.zip'), name: 'marker' })),
    { status: 409, code: 'REPL_ERR_EXTENSION_NAME_TAKEN' }, 'a taken name answers 409');

  await kernel.extensions.delete(nested.id);
  t.notOk(existsSync(join(store, nested.id)), 'delete removes its folder');
  t.match(await refusal(kernel.extensions.get(nested.id)), { status: 404, code: 'REPL_ERR_EXTENSION_NOT_FOUND' }, 'and it is gone');
  t.match(await refusal(kernel.extensions.delete(nested.id)), { status: 404, code: 'REPL_ERR_EXTENSION_NOT_FOUND' }, 'deleting it again answers 404');
  t.match(await refusal(kernel.extensions.download('no-such-extension')), { status: 404, code: 'REPL_ERR_EXTENSION_NOT_FOUND' });

  t.match(await refusal(kernel.extensions.downloadFromChromeStore({ url: 'https://chromewebstore.google.com/detail/x/abcdefghijklmnopabcdefghijklmnop' })),
    { status: 400, code: 'REPL_ERR_EXTENSION_STORE_OFFLINE', message: /offline/ }, 'the Chrome Web Store answers a clear error: the server is offline');
  const noUrl = await api.call('GET', '/extensions/from_chrome_store');
  t.match({ status: noUrl.status, ...noUrl.json }, { status: 400, code: 'REPL_ERR_INVALID_REQUEST', message: /url/ }, 'without url: 400 naming it');
});

t.test('a browser created with the extension: a cell sees the mark', async (t) => {
  const browser = await kernel.browsers.create({ extensions: [{ name: 'marker' }] });
  t.teardown(() => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined));
  t.same(await markSeen(browser.session_id), { mark: 'fixture-extension' }, 'the content script marked the page');
  t.type((await kernel.extensions.get(marker.id)).last_used_at, 'string', 'last_used_at is set');

  // A second extension loaded live into this browser runs beside the first (Chromium's
  // --disable-extensions-except would disable it: the server does not pass it).
  const second = await buildZip([
    { name: 'manifest.json', data: JSON.stringify({ manifest_version: 3, name: 'Second', version: '1.0', content_scripts: [{ matches: ['<all_urls>'], js: ['second.js'], run_at: 'document_start' }] }) },
    { name: 'second.js', data: "document.documentElement.dataset.second = 'yes';" },
  ]);
  await kernel.browsers.loadExtensions(browser.session_id, { extensions: [{ name: 'second', zip_file: await toFile(second, 'second.zip') }] });
  t.same(await markSeen(browser.session_id, ', second: await js("document.documentElement.dataset.second")'), { mark: 'fixture-extension', second: 'yes' }, 'both extensions ran');
});

t.test('loadExtensions on a running browser: no restart, then the mark', async (t) => {
  const browser = await kernel.browsers.create({});
  t.teardown(() => kernel.browsers.deleteByID(browser.session_id).catch(() => undefined));
  const before = await api.call('POST', `/browsers/${browser.session_id}/repl`, { code: 'var kept = 41;' });
  t.equal(before.json.success, true);
  t.same(await markSeen(browser.session_id), { mark: 'none' }, 'without the extension, no mark');
  await kernel.browsers.loadExtensions(browser.session_id, { extensions: [{ name: 'live-marker', zip_file: await toFile(nestedZip, 'live.zip') }] });
  t.same(await markSeen(browser.session_id, ', kept: kept + 1'), { mark: 'fixture-extension', kept: 42 }, 'the mark, and the REPL binding survived (no restart)');
  // Chromium killed: the relaunched one gets the extension again before the next cell runs.
  const chromium = api.server.app.browsers.get(browser.session_id).chromium;
  const exited = new Promise((resolve) => {
    const dispose = chromium.onExit(() => {
      dispose();
      resolve();
    });
  });
  const pid = chromium.pid;
  process.kill(pid, 'SIGKILL');
  await exited;
  t.same(await markSeen(browser.session_id, ', kept'), { mark: 'fixture-extension', kept: 41 }, 'after a crash and relaunch, the extension is loaded again');
  t.not(chromium.pid, pid, 'a new Chromium');
  const unpacked = liveFolders().filter((folder) => existsSync(join(folder, 'live-marker', 'marker', 'manifest.json')));
  t.equal(unpacked.length, 1, 'unpacked into a temporary folder of its own');

  const hostile = renameEntry(await buildZip([...markerFiles, { name: 'AA/evil.txt', data: 'evil' }]), 'AA/evil.txt', '../evil.txt');
  t.match(await refusal(kernel.browsers.loadExtensions(browser.session_id, { extensions: [{ name: 'evil', zip_file: await toFile(hostile, 'evil.zip') }] })),
    { status: 400, code: 'REPL_ERR_ZIP_UNSAFE_ENTRY' }, 'a ../ entry is refused');
  t.match(await refusal(kernel.browsers.loadExtensions(browser.session_id, { extensions: [{ name: '..', zip_file: await toFile(markerZip, 'x.zip') }] })),
    { status: 400, code: 'REPL_ERR_INVALID_REQUEST', message: /extensions\[0\]\.name/ }, 'a name that would leave its folder answers 400 naming it');
  t.match(await refusal(kernel.browsers.loadExtensions(browser.session_id, { extensions: [{ name: 'empty', zip_file: await toFile(await buildZip([{ name: 'readme.txt', data: 'x' }]), 'x.zip') }] })),
    { status: 400, code: 'REPL_ERR_EXTENSION_INVALID', message: /manifest\.json/ }, 'a zip without a manifest answers 400');
  t.match(await refusal(kernel.browsers.loadExtensions('no-such-browser', { extensions: [{ name: 'x', zip_file: await toFile(markerZip, 'x.zip') }] })),
    { status: 404 }, 'an unknown browser answers 404');

  await kernel.browsers.deleteByID(browser.session_id);
  // The folder goes as the browser ends, which DELETE does not wait for.
  for (let tries = 0; tries < 100 && existsSync(unpacked[0]); tries++) await sleep(50);
  t.notOk(existsSync(unpacked[0]), 'the folder goes with the browser');
});

t.test('hostile zips and bad input: a clear 4xx, nothing written outside', async (t) => {
  const manifest = (fields) => JSON.stringify({ manifest_version: 3, name: 'x', version: '1.0', ...fields });
  const cases = [
    ['a ../ entry', renameEntry(await buildZip([...markerFiles, { name: 'AA/evil.txt', data: 'evil' }]), 'AA/evil.txt', '../evil.txt'), 400, 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['a deeper ../ entry', renameEntry(await buildZip([...markerFiles, { name: 'a/AAAAAAAAAAA/evil.txt', data: 'evil' }]), 'a/AAAAAAAAAAA/evil.txt', 'a/../../../../evil.txt'), 400, 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['a bomb (3 MiB of zeros, limit 2 MiB)', await buildZip([...markerFiles, { name: 'zeros.bin', data: Buffer.alloc(3 * MIB) }]), 413, 'REPL_ERR_ZIP_TOO_LARGE'],
    ['no manifest', await buildZip([{ name: 'mark.js', data: 'x' }]), 400, 'REPL_ERR_EXTENSION_INVALID'],
    ['manifest_version 4', await buildZip([{ name: 'manifest.json', data: manifest({ manifest_version: 4 }) }]), 400, 'REPL_ERR_EXTENSION_INVALID', /manifest_version/],
    ['no name', await buildZip([{ name: 'manifest.json', data: manifest({ name: undefined }) }]), 400, 'REPL_ERR_EXTENSION_INVALID', /name/],
    ['a manifest that is not JSON', await buildZip([{ name: 'manifest.json', data: '{ nope' }]), 400, 'REPL_ERR_EXTENSION_INVALID', /not JSON/],
    ['not a zip', Buffer.from('plain text, not a zip'), 400, 'REPL_ERR_INVALID_REQUEST'],
  ];
  for (const [what, zip, status, code, message = /./] of cases) {
    t.match(await refusal(kernel.extensions.upload({ file: await toFile(zip, 'x.zip'), name: 'hostile' })), { status, code, message }, what);
  }
  t.same(walk(store).filter((path) => !path.startsWith(`${marker.id}`)), [], 'the store holds nothing but the one extension (no leftovers of a refused upload)');
  t.same(walk(outer).filter((path) => path.endsWith('evil.txt')), [], 'no entry landed anywhere');
  t.same((await kernel.extensions.list()).getPaginatedItems().map((row) => row.id), [marker.id], 'the list is unchanged');

  t.match(await refusal(kernel.extensions.upload({ file: await toFile(markerZip, 'x.zip'), name: 'a name with spaces' })), { status: 400, message: /^name must be/ }, 'a bad name answers 400 naming it');
  const noFile = await api.call('POST', '/extensions', '--b\r\ncontent-disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n', { raw: true, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
  t.match({ status: noFile.status, ...noFile.json }, { status: 400, message: /file is required/ }, 'without file: 400 naming it');
  t.match(await refusal(kernel.browsers.create({ extensions: [{ name: 'no-such-extension' }] })), { status: 404, code: 'REPL_ERR_EXTENSION_NOT_FOUND' }, 'create with an unknown extension answers 404');
  t.match(await refusal(kernel.browsers.create({ extensions: [{}] })), { status: 400, message: /extensions\[0\]/ }, 'an entry without id or name answers 400 naming it');
  t.match(await refusal(kernel.browsers.create({ extensions: 'marker' })), { status: 400, message: /extensions/ }, 'extensions not an array answers 400 naming it');
  t.match(await refusal(kernel.browsers.create({ extensions: [{ id: marker.id, name: 'other', extra: 1 }] })), { status: 400, message: /extensions/ }, 'an unknown field of an entry answers 400');
  const mv2 = await kernel.extensions.upload({ file: await toFile(await buildZip([{ name: 'manifest.json', data: manifest({ manifest_version: 2 }) }]), 'mv2.zip'), name: 'mv2' });
  t.match(await refusal(kernel.browsers.create({ extensions: [{ name: 'mv2' }] })), { status: 400, code: 'REPL_ERR_EXTENSION_INVALID', message: /extensions\[0\].*Manifest V2/ },
    'a Manifest V2 extension is stored, but a create with it is refused (Chromium 156 would drop it silently)');
  await kernel.extensions.delete(mv2.id);
  t.equal(api.server.app.browsers.list().length, 0, 'no browser was left behind');
  t.equal((await api.call('GET', '/healthz')).status, 200, 'the server still answers');
});
