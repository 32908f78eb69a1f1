// The staging folder of an upload (lib/system/file-upload.ts, docs/process-and-files.md) goes in
// every outcome, including a client that went away before the server began reading the body: an
// earlier version listened for 'aborted' only after creating the folder, so a request destroyed in
// that gap left the parser waiting forever and the folder behind (seen once by the CI leak check).
import t from 'tap';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { receiveParts } from '../../dist/lib/system/file-upload.js';

const BOUNDARY = 'chromium-repl-test';
const stagingFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('browser-repl-upload-')).sort();
const limits = { maxFiles: 2, maxBytes: 1024, fields: 'files[<i>][file] and files[<i>][dest_path]' };

/** A stand-in for an IncomingMessage: a readable body with multipart headers. */
function request() {
  const req = new PassThrough();
  req.headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  return req;
}

t.test('a request destroyed before its body is read is refused, and its folder removed', async (t) => {
  const before = stagingFolders();
  const req = request();
  req.destroy();
  await t.rejects(receiveParts(req, limits), { code: 'REPL_ERR_ABORTED' }, 'refused as aborted, not left waiting');
  t.same(stagingFolders(), before, 'no staging folder left');
});

t.test('a request that ends its stream in the middle of a file is refused, and its folder removed', async (t) => {
  const before = stagingFolders();
  const req = request();
  const answer = receiveParts(req, limits);
  req.write(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="files[0][file]"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\nhalf a fi`);
  // As a socket that closed: the stream ends without its 'end'.
  setImmediate(() => req.destroy());
  await t.rejects(answer, 'refused');
  t.same(stagingFolders(), before, 'no staging folder left');
});

t.test('a whole body is received, and dispose() removes its folder', async (t) => {
  const before = stagingFolders();
  const req = request();
  const answer = receiveParts(req, limits);
  req.end([
    `--${BOUNDARY}`, 'content-disposition: form-data; name="files[0][dest_path]"', '', '/tmp/x.txt',
    `--${BOUNDARY}`, 'content-disposition: form-data; name="files[0][file]"; filename="x.txt"', 'content-type: text/plain', '', 'hello',
    `--${BOUNDARY}--`, '',
  ].join('\r\n'));
  const received = await answer;
  t.same(received.parts.map((part) => part.name), ['files[0][dest_path]', 'files[0][file]'], 'both parts');
  t.equal(stagingFolders().length, before.length + 1, 'staged in one folder');
  await received.dispose();
  t.same(stagingFolders(), before, 'gone after dispose()');
});
