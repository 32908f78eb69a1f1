// The file-transfer and watch routes (docs/process-and-files.md): upload, upload_zip,
// download_dir_zip, set_file_permissions and watch, driven by the official @onkernel/sdk unchanged
// against a real server on loopback (no Chromium: every browser of a server shares its file
// system, so the server's own browser is enough), each with its effect checked on disk. Then the
// hostile inputs: zips that climb out, links, bombs (small limits are configured for this server),
// multipart bodies over the limits, watches past theirs; nothing lands outside the temporary root
// and the server keeps answering.
import t from 'tap';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel from '@onkernel/sdk';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { apiServer } from '../helpers/api-server.mjs';
import { liveFileWatchers } from '../../dist/lib/system/file-watch.js';

const isRoot = process.getuid() === 0;
const MIB = 1024 * 1024;
const LIMITS = { uploadMaxMb: 2, uploadMaxFiles: 3, zipMaxMb: 2, zipMaxRatio: 100, zipMaxEntries: 50, maxWatches: 2 };

// The temporary root of everything this test writes: the hostile cases must leave nothing beside it either.
const outer = realpathSync(mkdtempSync(join(tmpdir(), 'browser-repl-files-')));
t.teardown(() => rmSync(outer, { recursive: true, force: true }));
const root = join(outer, 'root');
mkdirSync(root);

const api = await apiServer(t, { primaryBrowser: { browser: false }, files: LIMITS });
const id = api.server.app.browsers.primary.id;
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });

const bytes = (length, seed) => Buffer.from(Array.from({ length }, (_, index) => (index * 31 + seed) % 256));
const readBack = async (path) => Buffer.from(await (await kernel.browsers.fs.readFile(id, { path })).arrayBuffer());

/** A zip of `entries` ({ name, data } files, { name, dir: true }, { name, link }) built with yazl. */
function buildZip(entries) {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.dir) zip.addEmptyDirectory(entry.name);
    else if (entry.link !== undefined) zip.addBuffer(Buffer.from(entry.link), entry.name, { mode: 0o120777 });
    else zip.addBuffer(entry.data, entry.name, entry.mode === undefined ? {} : { mode: entry.mode });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/** A name yazl refuses (`../x`, `/x`), written over a placeholder of the same length in both headers. */
function renameEntry(zip, placeholder, name) {
  if (placeholder.length !== name.length) throw new Error('same length needed');
  return Buffer.from(zip.toString('latin1').split(placeholder).join(name), 'latin1');
}

/** Every file entry of a zip buffer: name → bytes (directories as name/ → null). */
function unzip(buffer) {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const found = new Map();
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) {
          found.set(entry.fileName, null);
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks = [];
          stream.on('data', (chunk) => chunks.push(chunk)).on('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          }).on('error', reject);
        });
      });
      zip.on('end', () => resolve(found)).on('error', reject);
      zip.readEntry();
    });
  });
}

/** A fresh folder under the root, for one subtest. */
function folder(name) {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  return path;
}

/** What the hostile cases must never touch: the root's sibling list, and no staging folder anywhere. */
const outsideBefore = readdirSync(outer).sort();
function assertNothingOutside(t, dest) {
  t.same(readdirSync(outer).sort(), outsideBefore, 'nothing was written beside the root');
  if (existsSync(dest)) t.same(readdirSync(dest).filter((name) => name.startsWith('.upload-zip-')), [], 'no staging folder is left in the destination');
}

async function assertServing(t) {
  const health = await api.call('GET', '/healthz');
  t.equal(health.status, 200, 'the server still answers');
}

/** The SDK's error for a call that must fail, as { status, code, message }. */
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    return { status: error.status, code: error.error?.code, message: error.error?.message ?? error.message };
  }
  throw new Error('the call succeeded');
}

t.test('fs.upload writes two files, each to its path, byte for byte', async (t) => {
  const dir = folder('upload');
  const first = bytes(70_000, 1);
  const second = bytes(4097, 2);
  const source = join(outer, 'streamed.bin');
  writeFileSync(source, second);
  t.teardown(() => rmSync(source, { force: true }));
  // The second file is a stream: the SDK appends it after the other fields, so parts come out of order.
  await kernel.browsers.fs.upload(id, {
    files: [
      { dest_path: join(dir, 'one.bin'), file: new File([first], 'one.bin') },
      { dest_path: join(dir, 'nested', 'two.bin'), file: createReadStream(source) },
    ],
  });
  t.same(await readBack(join(dir, 'one.bin')), first, 'the first file reads back byte for byte');
  t.same(await readBack(join(dir, 'nested', 'two.bin')), second, 'the second, in a created parent, too');
  t.same(readdirSync(dir).filter((name) => name.endsWith('.partial')), [], 'no temporary file is left');

  const relative = await refusal(kernel.browsers.fs.upload(id, { files: [{ dest_path: 'relative/x', file: new File(['x'], 'x') }] }));
  t.match(relative, { status: 400, code: 'REPL_ERR_INVALID_REQUEST', message: /files\[0\]\[dest_path\] must be an absolute path/ }, 'a relative dest_path answers 400 naming it');
  const onDirectory = await refusal(kernel.browsers.fs.upload(id, {
    files: [{ dest_path: join(dir, 'three.bin'), file: new File(['3'], '3') }, { dest_path: dir, file: new File(['x'], 'x') }],
  }));
  t.match(onDirectory, { status: 400, message: /files\[1\]\.dest_path .* is a directory/ }, 'a directory in the way answers 400');
  t.notOk(existsSync(join(dir, 'three.bin')), 'and nothing was written, the valid file neither');
});

t.test('fs.uploadZip extracts a zip built here, byte for byte', async (t) => {
  const dest = join(root, 'unzipped', 'deeper');
  const big = bytes(300_000, 3);
  const zip = await buildZip([
    { name: 'top.txt', data: Buffer.from('top level\n') },
    { name: 'sub/dir/big.bin', data: big },
    { name: 'run.sh', data: Buffer.from('#!/bin/sh\n'), mode: 0o100755 },
    { name: 'empty/', dir: true },
  ]);
  await kernel.browsers.fs.uploadZip(id, { dest_path: dest, zip_file: new File([zip], 'archive.zip') });
  t.equal((await readBack(join(dest, 'top.txt'))).toString(), 'top level\n');
  t.same(await readBack(join(dest, 'sub/dir/big.bin')), big, 'a nested file reads back byte for byte');
  t.equal(statSync(join(dest, 'run.sh')).mode & 0o777, 0o755, 'permission bits come from the zip');
  t.same(await kernel.browsers.fs.listFiles(id, { path: join(dest, 'empty') }), [], 'an empty directory entry becomes an empty directory');
  t.same(readdirSync(dest).filter((name) => name.startsWith('.upload-zip-')), [], 'the staging folder is gone');

  // A second zip merges into the same tree and replaces a file.
  await kernel.browsers.fs.uploadZip(id, { dest_path: dest, zip_file: new File([await buildZip([{ name: 'top.txt', data: Buffer.from('replaced') }])], 'b.zip') });
  t.equal(readFileSync(join(dest, 'top.txt'), 'utf8'), 'replaced', 'an existing file is replaced');
  t.ok(existsSync(join(dest, 'sub/dir/big.bin')), 'and the rest of the tree stays');
});

t.test('fs.downloadDirZip streams the directory; unzipped here it matches byte for byte', async (t) => {
  const dir = folder('download');
  const files = { 'a.txt': Buffer.from('alpha'), 'deep/b.bin': bytes(200_000, 4), 'deep/er/c.bin': bytes(10, 5) };
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  mkdirSync(join(dir, 'hollow'));
  const response = await kernel.browsers.fs.downloadDirZip(id, { path: dir });
  t.equal(response.headers.get('content-type'), 'application/zip');
  const entries = await unzip(Buffer.from(await response.arrayBuffer()));
  for (const [name, data] of Object.entries(files)) t.same(entries.get(name), data, `${name} matches byte for byte`);
  t.ok(entries.has('hollow/'), 'the empty directory is an entry');

  const notDir = await refusal(kernel.browsers.fs.downloadDirZip(id, { path: join(dir, 'a.txt') }));
  t.match(notDir, { status: 400, message: /is not a directory/ }, 'a file answers 400');
  const missing = await refusal(kernel.browsers.fs.downloadDirZip(id, { path: join(dir, 'nope') }));
  t.match(missing, { status: 404, code: 'REPL_ERR_NOT_FOUND' }, 'a missing directory answers 404');
});

t.test('fs.setFilePermissions sets the mode (and the owner), stat shows it', async (t) => {
  const dir = folder('permissions');
  const path = join(dir, 'file.txt');
  writeFileSync(path, 'x', { mode: 0o644 });
  await kernel.browsers.fs.setFilePermissions(id, { path, mode: '0640' });
  t.equal(statSync(path).mode & 0o7777, 0o640, 'stat shows the mode');
  t.equal((await kernel.browsers.fs.fileInfo(id, { path })).mode, '-rw-r-----', 'and so does fileInfo');
  if (isRoot) {
    await kernel.browsers.fs.setFilePermissions(id, { path, mode: '600', owner: '65534', group: '65534' });
    t.match(statSync(path), { uid: 65534, gid: 65534 }, 'owner and group are changed by id');
    t.equal(statSync(path).mode & 0o7777, 0o600);
  }
  const unknown = await refusal(kernel.browsers.fs.setFilePermissions(id, { path, mode: '644', owner: 'no-such-user-here' }));
  t.match(unknown, { status: 400, message: /owner "no-such-user-here" is not a user/ }, 'an unknown user answers 400 naming owner');
  const badMode = await refusal(kernel.browsers.fs.setFilePermissions(id, { path, mode: '99' }));
  t.match(badMode, { status: 400, message: /mode/ }, 'a bad mode answers 400 naming mode');
  const missing = await refusal(kernel.browsers.fs.setFilePermissions(id, { path: join(dir, 'nope'), mode: '644' }));
  t.equal(missing.status, 404, 'a missing path answers 404');
});

t.test('fs.createDirectory, writeFile, move, deleteFile and deleteDirectory, each seen on disk', async (t) => {
  const folder = join(root, 'made', 'deep');
  await kernel.browsers.fs.createDirectory(id, { path: folder, mode: '750' });
  t.ok(statSync(folder).isDirectory(), 'the directory and its parent were created');
  t.equal(statSync(folder).mode & 0o777, 0o750, 'with the mode asked for');
  const first = join(folder, 'a.txt');
  await kernel.browsers.fs.writeFile(id, 'written through the SDK', { path: first });
  t.equal(readFileSync(first, 'utf8'), 'written through the SDK', 'writeFile wrote it');
  const moved = join(root, 'made', 'b.txt');
  await kernel.browsers.fs.move(id, { src_path: first, dest_path: moved });
  t.notOk(existsSync(first), 'move took it away');
  t.equal(readFileSync(moved, 'utf8'), 'written through the SDK', 'and put it at its destination');
  await kernel.browsers.fs.deleteFile(id, { path: moved });
  t.notOk(existsSync(moved), 'deleteFile removed it');
  await kernel.browsers.fs.deleteDirectory(id, { path: join(root, 'made') });
  t.notOk(existsSync(join(root, 'made')), 'deleteDirectory removed the tree');
});

t.test('fs.watch sees a file created, written, renamed and deleted, then stops', async (t) => {
  const dir = folder('watched');
  const { watch_id: watchId } = await kernel.browsers.fs.watch.start(id, { path: dir });
  t.type(watchId, 'string');
  const stream = await kernel.browsers.fs.watch.events(watchId, { id });
  const events = stream[Symbol.asyncIterator]();
  const seen = [];
  /** Reads events until one of `type` for `name` arrives (at most 10 s). */
  const expect = async (type, name) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const next = await Promise.race([events.next(), new Promise((resolve) => setTimeout(resolve, deadline - Date.now(), { timeout: true }))]);
      if (next.timeout || next.done) break;
      seen.push(next.value);
      if (next.value.type === type && next.value.name === name) return next.value;
    }
    return undefined;
  };
  writeFileSync(join(dir, 'a.txt'), 'one');
  t.match(await expect('CREATE', 'a.txt'), { path: join(dir, 'a.txt'), is_dir: false }, 'CREATE, in the SDK\'s shape');
  t.ok(await expect('WRITE', 'a.txt'), 'WRITE for the content');
  writeFileSync(join(dir, 'a.txt'), 'two', { flag: 'a' });
  t.ok(await expect('WRITE', 'a.txt'), 'WRITE for an append');
  renameSync(join(dir, 'a.txt'), join(dir, 'b.txt'));
  t.match(await expect('RENAME', 'a.txt'), { path: join(dir, 'a.txt') }, 'RENAME of the old name');
  t.ok(await expect('CREATE', 'b.txt'), 'then CREATE of the new one');
  unlinkSync(join(dir, 'b.txt'));
  t.match(await expect('DELETE', 'b.txt'), { is_dir: false }, 'DELETE');
  mkdirSync(join(dir, 'sub'));
  t.match(await expect('CREATE', 'sub'), { is_dir: true }, 'a directory is_dir');
  t.notOk(seen.some((event) => event.type === 'DELETE' && event.name === 'a.txt'), 'a move is not a deletion');

  await kernel.browsers.fs.watch.stop(watchId, { id });
  t.same(await Promise.race([events.next(), new Promise((resolve) => setTimeout(resolve, 5000, 'open'))]), { done: true, value: undefined }, 'stop ends the event stream');
  t.match(await refusal(kernel.browsers.fs.watch.stop(watchId, { id })), { status: 404 }, 'a stopped watch is gone');
  t.equal(liveFileWatchers(), 0, 'its inotify watch is closed');
});

t.test('a recursive watch follows new subdirectories', async (t) => {
  const dir = folder('recursive');
  mkdirSync(join(dir, 'old'));
  const { watch_id: watchId } = await kernel.browsers.fs.watch.start(id, { path: dir, recursive: true });
  const events = (await kernel.browsers.fs.watch.events(watchId, { id }))[Symbol.asyncIterator]();
  const until = async (check, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const next = await Promise.race([events.next(), new Promise((resolve) => setTimeout(resolve, deadline - Date.now(), { timeout: true }))]);
      if (next.timeout || next.done) return undefined;
      if (check(next.value)) return next.value;
    }
    return undefined;
  };
  writeFileSync(join(dir, 'old', 'in-old.txt'), 'x');
  t.ok(await until((event) => event.type === 'CREATE' && event.path === join(dir, 'old', 'in-old.txt')), 'an existing subdirectory is watched');
  mkdirSync(join(dir, 'new'));
  t.ok(await until((event) => event.type === 'CREATE' && event.name === 'new'), 'a new subdirectory is seen');
  // The new directory's watcher is added asynchronously: write until its file is reported.
  let found;
  for (let attempt = 0; attempt < 20 && found === undefined; attempt++) {
    writeFileSync(join(dir, 'new', `f${attempt}.txt`), 'x');
    found = await until((event) => event.path.startsWith(join(dir, 'new') + '/'), 250);
  }
  t.ok(found, 'and a file in it too');
  await kernel.browsers.fs.watch.stop(watchId, { id });
});

t.test('hostile zips are refused before anything is written, and the server keeps serving', async (t) => {
  const dest = join(root, 'hostile');
  const cases = [
    ['a ../ entry', renameEntry(await buildZip([{ name: 'ok.txt', data: Buffer.from('ok') }, { name: 'AA/evil.txt', data: Buffer.from('evil') }]), 'AA/evil.txt', '../evil.txt'), 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['a deeper ../ entry', renameEntry(await buildZip([{ name: 'a/AAAAA/evil.txt', data: Buffer.from('evil') }]), 'a/AAAAA/evil.txt', 'a/../../evil.txt'), 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['an absolute entry', renameEntry(await buildZip([{ name: `A${outer.slice(1)}/evil.txt`, data: Buffer.from('evil') }]), `A${outer.slice(1)}/evil.txt`, `${outer}/evil.txt`), 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['a symbolic link entry', await buildZip([{ name: 'link', link: outer }, { name: 'link/evil.txt', data: Buffer.from('evil') }]), 'REPL_ERR_ZIP_UNSAFE_ENTRY'],
    ['a bomb (3 MiB of zeros, limit 2 MiB)', await buildZip([{ name: 'zeros.bin', data: Buffer.alloc(3 * MIB) }]), 'REPL_ERR_ZIP_TOO_LARGE'],
    ['an entry compressed past the ratio (1.5 MiB of zeros, ratio limit 100)', await buildZip([{ name: 'small.txt', data: Buffer.from('fine') }, { name: 'zeros.bin', data: Buffer.alloc(1.5 * MIB) }]), 'REPL_ERR_ZIP_TOO_LARGE'],
    ['too many entries (limit 50)', await buildZip(Array.from({ length: 51 }, (_, index) => ({ name: `f${index}`, data: Buffer.from('x') }))), 'REPL_ERR_ZIP_TOO_LARGE'],
    ['not a zip', Buffer.from('PK\u0003\u0004 but nothing else of a zip'), 'REPL_ERR_INVALID_REQUEST'],
  ];
  for (const [label, zip, code] of cases) {
    const answer = await refusal(kernel.browsers.fs.uploadZip(id, { dest_path: dest, zip_file: new File([zip], 'hostile.zip') }));
    t.match(answer, { status: code === 'REPL_ERR_ZIP_TOO_LARGE' ? 413 : 400, code }, `${label}: ${answer.message}`);
    t.notOk(existsSync(dest), `${label}: the destination was not even left behind`);
    assertNothingOutside(t, dest);
  }

  // Sizes in the headers that lie: the entry claims 100 bytes and inflates to 1.5 MiB.
  const honest = await buildZip([{ name: 'liar.bin', data: Buffer.alloc(1.5 * MIB, 1) }]);
  const liar = Buffer.from(honest);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(1.5 * MIB);
  for (let at = liar.indexOf(size); at !== -1; at = liar.indexOf(size, at + 4)) liar.writeUInt32LE(100, at);
  const lied = await refusal(kernel.browsers.fs.uploadZip(id, { dest_path: dest, zip_file: new File([liar], 'liar.zip') }));
  t.match(lied, { status: 413, code: 'REPL_ERR_ZIP_TOO_LARGE', message: /more bytes than its header declares/ }, `sizes that lie are refused by the bytes that came out: ${lied.message}`);
  t.notOk(existsSync(dest), 'and nothing of it stays');

  // A link already in the destination is never written through.
  const linked = folder('linked');
  const { symlinkSync } = await import('node:fs');
  symlinkSync(outer, join(linked, 'out'));
  const through = await refusal(kernel.browsers.fs.uploadZip(id, { dest_path: linked, zip_file: new File([await buildZip([{ name: 'out/evil.txt', data: Buffer.from('evil') }])], 'z.zip') }));
  t.match(through, { status: 400, code: 'REPL_ERR_ZIP_UNSAFE_ENTRY', message: /symbolic link/ }, 'an entry under an existing link is refused');
  assertNothingOutside(t, linked);
  await assertServing(t);
});

t.test('multipart limits and malformed bodies answer 4xx', async (t) => {
  const dir = folder('limits');
  const tooMany = await refusal(kernel.browsers.fs.upload(id, {
    files: Array.from({ length: 4 }, (_, index) => ({ dest_path: join(dir, `f${index}`), file: new File(['x'], `f${index}`) })),
  }));
  t.match(tooMany, { status: 413, code: 'REPL_ERR_BODY_TOO_LARGE', message: /3 files/ }, 'more files than the limit: 413');
  const tooBig = await api.call('POST', `/browsers/${id}/fs/upload`, undefined, {});
  t.equal(tooBig.status, 400, 'no body at all: 400');
  const form = new FormData();
  form.append('files[0][dest_path]', join(dir, 'big'));
  form.append('files[0][file]', new File([Buffer.alloc(3 * MIB)], 'big'));
  const big = await fetch(`${api.url}/fs/upload`, { method: 'POST', body: form });
  t.equal(big.status, 413, 'files over the byte limit: 413');
  t.equal((await big.json()).code, 'REPL_ERR_BODY_TOO_LARGE');
  const json = await api.call('POST', '/fs/upload_zip', { dest_path: dir });
  t.match(json, { status: 400, json: { message: /multipart\/form-data/ } }, 'a JSON body answers 400 saying what the route takes');
  const unknownField = new FormData();
  unknownField.append('files[0][dest_path]', join(dir, 'x'));
  unknownField.append('surprise', 'x');
  const unknown = await fetch(`${api.url}/fs/upload`, { method: 'POST', body: unknownField });
  t.match(await unknown.json(), { code: 'REPL_ERR_INVALID_REQUEST', message: /invalid form field: "surprise"/ }, 'an unknown field is named');
  t.same(readdirSync(dir), [], 'nothing was written');
  await assertServing(t);
});

t.test('watches: bad paths and the limit', async (t) => {
  const dir = folder('watch-limits');
  writeFileSync(join(dir, 'file'), 'x');
  t.match(await refusal(kernel.browsers.fs.watch.start(id, { path: 'relative' })), { status: 400, message: /path must be an absolute path/ });
  t.match(await refusal(kernel.browsers.fs.watch.start(id, { path: join(dir, 'nope') })), { status: 404 });
  t.match(await refusal(kernel.browsers.fs.watch.start(id, { path: join(dir, 'file') })), { status: 400, message: /is not a directory/ });
  const first = await kernel.browsers.fs.watch.start(id, { path: dir });
  const second = await kernel.browsers.fs.watch.start(id, { path: dir, recursive: true });
  const third = await refusal(kernel.browsers.fs.watch.start(id, { path: dir }));
  t.match(third, { status: 409, code: 'REPL_ERR_WATCH_LIMIT' }, 'past the limit: 409');
  t.match(await refusal(kernel.browsers.fs.watch.events('no-such-watch', { id })), { status: 404 }, 'an unknown watch answers 404');
  await kernel.browsers.fs.watch.stop(first.watch_id, { id });
  await kernel.browsers.fs.watch.stop(second.watch_id, { id });
  await assertServing(t);
});

t.test('watches end with their server', async (t) => {
  const other = await apiServer(t, { primaryBrowser: { browser: false } });
  const dir = folder('server-end');
  const started = await other.call('POST', '/fs/watch', { path: dir, recursive: true });
  t.equal(started.status, 201);
  t.ok(liveFileWatchers() > 0, 'the watch holds an inotify watch');
  await other.server.close();
  t.equal(liveFileWatchers(), 0, 'closing the server closed it');
});
