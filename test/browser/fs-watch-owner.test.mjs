// A directory watch belongs to the browser it was started on (docs/process-and-files.md#watches):
// another browser's routes do not see it, and deleting its browser stops it, its event stream
// ends and its inotify watches close. Through @onkernel/sdk, with a real browser session.
import t from 'tap';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Kernel from '@onkernel/sdk';
import { apiServer } from '../helpers/api-server.mjs';
import { liveFileWatchers } from '../../dist/lib/system/file-watch.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'browser-repl-watch-owner-')));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const api = await apiServer(t, { primaryBrowser: { browser: false } });
const kernel = new Kernel({ apiKey: 'unused', baseURL: api.url, maxRetries: 0 });

t.test('a watch is its browser\'s, and ends with it', async (t) => {
  const before = liveFileWatchers();
  const session = await kernel.browsers.create({});
  const { watch_id: watchId } = await kernel.browsers.fs.watch.start(session.session_id, { path: dir });
  t.ok(liveFileWatchers() > before, 'the watch holds an inotify watch');
  const other = api.server.app.browsers.primary.id;
  await t.rejects(kernel.browsers.fs.watch.events(watchId, { id: other }), { status: 404 }, 'another browser\'s routes answer 404 for it');
  const events = (await kernel.browsers.fs.watch.events(watchId, { id: session.session_id }))[Symbol.asyncIterator]();
  await kernel.browsers.deleteByID(session.session_id);
  const next = await Promise.race([events.next(), new Promise((resolve) => setTimeout(resolve, 10_000, 'still open'))]);
  t.same(next, { done: true, value: undefined }, 'deleting the browser ended the event stream');
  t.equal(liveFileWatchers(), before, 'and closed its inotify watch');
});
