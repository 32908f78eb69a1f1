// The manifest check of an uploaded extension (lib/extensions/manifest.ts), the folder an upload
// is loaded from (its top, or its one top-level folder), names, the store kept across a restart,
// and where the data directory defaults to.
import t from 'tap';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { checkManifest } from '../../dist/lib/extensions/manifest.js';
import { checkExtensionName, ExtensionStore, unpackExtension } from '../../dist/lib/extensions/extension-store.js';
import { dataDirOf } from '../../dist/lib/http/settings.js';

const valid = { manifest_version: 3, name: 'Marker', version: '1.0' };
const text = (fields) => JSON.stringify({ ...valid, ...fields });
const refusal = (input) => {
  try {
    checkManifest(input);
  } catch (error) {
    return { code: error.code, message: error.message };
  }
  throw new Error('accepted');
};

t.test('valid manifests', async (t) => {
  t.same(checkManifest(text({})), { manifestVersion: 3, name: 'Marker', version: '1.0' });
  t.same(checkManifest(text({ manifest_version: 2 })).manifestVersion, 2, 'manifest_version 2 is accepted');
  t.same(checkManifest(`\uFEFF${text({})}`).name, 'Marker', 'a byte-order mark is allowed, as Chromium allows it');
  for (const version of ['1', '0.1', '1.2.3.4', '65535.0']) t.equal(checkManifest(text({ version })).version, version, `version ${version}`);
});

t.test('refused manifests name the field', async (t) => {
  const cases = [
    ['not JSON', '{ nope', /not JSON/],
    ['an array', '[]', /JSON object/],
    ['null', 'null', /JSON object/],
    ['no manifest_version', text({ manifest_version: undefined }), /manifest_version must be 3 \(or 2\), got none/],
    ['manifest_version 4', text({ manifest_version: 4 }), /manifest_version .* got 4/],
    ['manifest_version "3"', text({ manifest_version: '3' }), /manifest_version .* got "3"/],
    ['no name', text({ name: undefined }), /name must be a non-empty string/],
    ['a blank name', text({ name: '  ' }), /name must be/],
    ['a numeric name', text({ name: 5 }), /name must be/],
    ['no version', text({ version: undefined }), /version must be .* got none/],
    ['five parts', text({ version: '1.2.3.4.5' }), /version must be/],
    ['a leading zero', text({ version: '01.0' }), /version must be/],
    ['a part past 65535', text({ version: '65536' }), /version must be/],
    ['letters', text({ version: '1.0-beta' }), /version must be/],
    ['too large', JSON.stringify({ ...valid, padding: 'x'.repeat(1024 * 1024) }), /larger than/],
  ];
  for (const [what, input, message] of cases) t.match(refusal(input), { code: 'REPL_ERR_EXTENSION_INVALID', message }, what);
});

const zipOf = (entries) => new Promise((resolve, reject) => {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks = [];
  zip.outputStream.on('data', (chunk) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
});

t.test('unpackExtension: the folder holding manifest.json; a refusal leaves nothing', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'browser-repl-manifest-test-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const limits = { zipMaxBytes: 1024 * 1024, zipMaxEntries: 10, zipMaxRatio: 100 };
  const unpack = async (entries, dest) => {
    const zip = join(folder, `${dest}.zip`);
    writeFileSync(zip, await zipOf(entries));
    return unpackExtension(zip, join(folder, dest), limits);
  };
  t.same((await unpack({ 'manifest.json': text({}), 'a.js': '1' }, 'top')).root, '', 'at the top');
  t.same((await unpack({ 'ext/manifest.json': text({}), '__MACOSX/ext/._manifest.json': 'x' }, 'nested')).root, 'ext', 'in the one top-level folder (macOS extras ignored)');
  const two = await unpack({ 'a/manifest.json': text({}), 'b/manifest.json': text({}) }, 'two').catch((error) => error);
  t.match(two, { code: 'REPL_ERR_EXTENSION_INVALID', message: /no manifest\.json/ }, 'two top-level folders: which one? refused');
  const bad = await unpack({ 'manifest.json': text({ version: 'x' }) }, 'bad').catch((error) => error);
  t.match(bad, { code: 'REPL_ERR_EXTENSION_INVALID', message: /version/ });
  t.same(readdirSync(folder).filter((name) => !name.endsWith('.zip')).sort(), ['nested', 'top'], 'refused ones left no folder');
});

t.test('the data directory', async (t) => {
  t.equal(dataDirOf('/srv/data', {}), '/srv/data', 'the option');
  t.equal(dataDirOf(undefined, { BROWSER_REPL_DATA_DIR: '/var/lib/repl' }), '/var/lib/repl', 'the variable');
  t.equal(dataDirOf(undefined, { XDG_STATE_HOME: '/state', HOME: '/home/u' }), '/state/chromium-repl', 'XDG_STATE_HOME');
  t.equal(dataDirOf(undefined, { HOME: '/home/u' }), '/home/u/.local/state/chromium-repl', 'else ~/.local/state');
  t.throws(() => dataDirOf('', {}), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /dataDir/ });
});

t.test('names', async (t) => {
  for (const name of ['marker', 'a', 'My_ext-1.2', 'x'.repeat(255)]) t.equal(checkExtensionName(name, 'name'), name, name);
  for (const name of ['', 'a b', 'é', 'x'.repeat(256), '.', '..', 'a/b', 5, undefined]) {
    t.throws(() => checkExtensionName(name, 'name'), { code: 'REPL_ERR_INVALID_REQUEST', message: /^name must/ }, `refused: ${JSON.stringify(name)}`);
  }
});

t.test('the store outlives its server: a new one on the same folder finds what the last one kept', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'browser-repl-store-test-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const zip = join(dataDir, 'upload.zip');
  writeFileSync(zip, await zipOf({ 'manifest.json': text({}) }));
  const limits = { zipMaxBytes: 1024 * 1024, zipMaxEntries: 10, zipMaxRatio: 100 };
  const first = new ExtensionStore({ dataDir, limits });
  t.same(await first.list(), [], 'empty, and nothing written before the first upload');
  t.same(readdirSync(dataDir), ['upload.zip']);
  const record = await first.upload(zip, 'kept');
  const second = new ExtensionStore({ dataDir, limits });
  t.same(await second.get('kept'), record, 'found by name after a restart');
  t.same(await second.resolve([{ id: record.id }], 'extensions'), [join(dataDir, 'extensions', record.id, 'unpacked')]);
  await second.delete('kept');
  t.same(await new ExtensionStore({ dataDir, limits }).list(), [], 'and the delete too');
});

t.test('--data-dir', async (t) => {
  const { serveOptions } = await import('../../dist/lib/cli/serve.js');
  t.equal(serveOptions(['--data-dir', '/srv/repl'], {}).dataDir, '/srv/repl', 'the flag becomes the option');
  t.equal(serveOptions([], {}).dataDir, undefined, 'unset: the settings decide (the variable, then the state folder)');
  t.throws(() => serveOptions(['--data-dir', ''], {}), { name: 'UsageError', message: /--data-dir must not be empty/ });
});
