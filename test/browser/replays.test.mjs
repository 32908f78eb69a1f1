// Recordings (docs/recordings.md) through the official @onkernel/sdk, unchanged, against a real
// headless Chromium and the real ffmpeg: a scripted ~9 s session whose page turns from red to green
// halfway (a cell of the default executor), recorded twice at once; stop, list, download; ffprobe
// reads the MP4 (H.264, its duration within 10 % of the recorded time) and frames taken before
// and after the switch show red and then green. Also: the limits and unknown ids answer 4xx with
// their codes, a missing ffmpeg is named, the replay page plays it with its capability only, and
// deleting the browser (retention 0) then closing the server leaves no file behind.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import Kernel from '@onkernel/sdk';
import { findFfmpeg } from '../../dist/lib/recordings/ffmpeg.js';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const run = promisify(execFile);
const ffmpeg = findFfmpeg();
if (ffmpeg === null) {
  t.fail('ffmpeg is required by this test: npm run install-browser -- --ffmpeg (Debian: apt-get install -y ffmpeg)');
  process.exit(1);
}
const ffprobe = join(ffmpeg, '..', 'ffprobe');

const TOKEN = 'test-token-replays';
const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const api = await apiServer(t, {
  token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 2,
  recordings: { maxActivePerBrowser: 2, maxDurationSeconds: 60, retentionSeconds: 0 },
});
const auth = { authorization: `Bearer ${TOKEN}` };
const kernel = new Kernel({ apiKey: TOKEN, baseURL: api.url, maxRetries: 0 });

/** The recordings' folders of this process (one per server). */
function recordingFolders() {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`chromium-repl-recordings-${process.pid}-`)).map((name) => join(tmpdir(), name));
}

/** The average colour [r, g, b] of the frame at `seconds` (ffmpeg scales it to one pixel). */
async function colourAt(file, seconds) {
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
  return [...stdout.subarray(0, 3)];
}

async function eventually(check, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check()) && Date.now() < until) await sleep(50);
  return check();
}

t.test('record a session, two at once, and play it back', async (t) => {
  const browser = await kernel.browsers.create({ start_url: fixtures.url('recording.html'), viewport: { width: 640, height: 480 } });
  const id = browser.session_id;
  // The start page is up before recording, so the first frames are red.
  t.ok(await eventually(async () => (await kernel.browsers.playwright.execute(id, { code: 'return await page.evaluate(() => typeof window.goGreen)' })).result === 'function'), 'the fixture page is loaded');

  const main = await kernel.browsers.replays.start(id, { framerate: 10 });
  t.match(main, { replay_id: String, started_at: String, finished_at: null, replay_view_url: String }, 'the SDK gets ReplayStartResponse');
  await sleep(1_000);
  const second = await kernel.browsers.replays.start(id, { framerate: 5, max_duration_in_seconds: 30 });
  t.not(second.replay_id, main.replay_id, 'a second recording runs at the same time');

  // The limits: a third at once, a bad framerate, a length beyond the server's, audio.
  const third = await api.call('POST', `/browsers/${id}/replays`, {}, { headers: auth });
  t.equal(third.status, 409, 'a third recording at once is refused (maxActivePerBrowser 2)');
  t.equal(third.json?.code, 'REPL_ERR_REPLAY_LIMIT');
  const badRate = await api.call('POST', `/browsers/${id}/replays`, { framerate: 0 }, { headers: auth });
  t.equal(badRate.status, 400, 'framerate 0 is refused');
  t.match(badRate.json?.message, /framerate/, 'naming the field');
  const tooLong = await api.call('POST', `/browsers/${id}/replays`, { max_duration_in_seconds: 61 }, { headers: auth });
  t.equal(tooLong.status, 400, 'a length beyond recordings.maxDurationSeconds is refused');
  t.match(tooLong.json?.message, /max_duration_in_seconds/);
  const audio = await api.call('POST', `/browsers/${id}/replays`, { record_audio: true }, { headers: auth });
  t.equal(audio.status, 400, 'audio is refused');

  const early = await api.call('GET', `/browsers/${id}/replays/${main.replay_id}`, undefined, { headers: auth });
  t.equal(early.status, 409, 'a running recording has no video yet');
  t.equal(early.json?.code, 'REPL_ERR_REPLAY_NOT_READY');

  await sleep(3_000);
  const switched = await kernel.browsers.playwright.execute(id, { code: 'await page.evaluate(() => window.goGreen()); return "green"' });
  t.equal(switched.result, 'green', 'the page turned green (a cell of the default executor, on the recorded tab)');
  await sleep(1_000);
  await kernel.browsers.replays.stop(second.replay_id, { id });
  await sleep(4_000);
  await kernel.browsers.replays.stop(main.replay_id, { id });
  await kernel.browsers.replays.stop(main.replay_id, { id });
  t.pass('stopping a stopped recording answers the same');

  const listed = await kernel.browsers.replays.list(id);
  t.same(listed.map((row) => row.replay_id).sort(), [main.replay_id, second.replay_id].sort(), 'the list has both');
  const row = listed.find((entry) => entry.replay_id === main.replay_id);
  t.ok(row.finished_at !== null && row.replay_view_url === main.replay_view_url, 'finished, with the same view URL');
  const recordedSeconds = (Date.parse(row.finished_at) - Date.parse(row.started_at)) / 1000;

  const response = await kernel.browsers.replays.download(main.replay_id, { id });
  t.equal(response.headers.get('content-type'), 'video/mp4');
  const bytes = Buffer.from(await response.arrayBuffer());
  const folder = recordingFolders()[0];
  const file = join(folder, `${main.replay_id}.mp4`);
  t.ok(existsSync(file), 'the MP4 is in the server\'s recordings folder');

  const probe = JSON.parse((await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file])).stdout);
  const video = probe.streams.find((stream) => stream.codec_type === 'video');
  t.equal(video.codec_name, 'h264', 'H.264');
  t.equal(Number(probe.format.size), bytes.length, 'the download is the whole file');
  const duration = Number(probe.format.duration);
  t.ok(Math.abs(duration - recordedSeconds) <= recordedSeconds * 0.1, `its duration (${duration} s) is within 10 % of the recorded time (${recordedSeconds} s)`);

  const before = await colourAt(file, 1.5);
  const after = await colourAt(file, duration - 1);
  t.ok(before[0] > 150 && before[1] < 80, `a frame before the switch is red (${before})`);
  t.ok(after[1] > 150 && after[0] < 80, `a frame after it is green (${after})`);

  const secondFile = join(folder, `${second.replay_id}.mp4`);
  const secondProbe = JSON.parse((await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', secondFile])).stdout);
  t.equal(secondProbe.streams[0].r_frame_rate, '5/1', 'the second recording has its own framerate');
  t.ok(Number(secondProbe.format.duration) > 3 && Number(secondProbe.format.duration) < duration, 'and its own, shorter length');

  // The replay page: no token, its capability only.
  const page = await fetch(main.replay_view_url);
  t.equal(page.status, 200);
  t.match(await page.text(), /<video[^>]+src="view\/video\.mp4\?jwt=/, 'the page plays the video');
  const played = await fetch(new URL(`view/video.mp4${new URL(main.replay_view_url).search}`, `${main.replay_view_url}/`));
  t.equal(played.status, 200);
  t.same(Buffer.from(await played.arrayBuffer()), bytes, 'the page\'s video is the recording');
  const otherRecording = main.replay_view_url.replace(main.replay_id, second.replay_id);
  t.equal((await fetch(otherRecording)).status, 401, 'a capability opens its own recording only');
  t.equal((await fetch(main.replay_view_url.replace(/jwt=[^&]+/, 'jwt=lv1.0.r.x'))).status, 401, 'a forged one opens nothing');
  const liveWithIt = browser.browser_live_view_url.replace(/jwt=[^&]+/, new URL(main.replay_view_url).search.slice(1));
  t.equal((await fetch(liveWithIt)).status, 401, 'nor the live view');

  // Unknown ids.
  await t.rejects(kernel.browsers.replays.stop('rp_nope', { id }), { status: 404 }, 'stopping an unknown replay is a 404');
  const unknown = await api.call('GET', `/browsers/${id}/replays/rp_nope`, undefined, { headers: auth });
  t.equal(unknown.json?.code, 'REPL_ERR_REPLAY_NOT_FOUND');

  // Without ffmpeg the create route says how to install it.
  const saved = process.env.BROWSER_REPL_FFMPEG;
  process.env.BROWSER_REPL_FFMPEG = '/nonexistent/ffmpeg';
  try {
    const missing = await api.call('POST', `/browsers/${id}/replays`, {}, { headers: auth });
    t.equal(missing.json?.code, 'REPL_ERR_FFMPEG_NOT_FOUND');
    t.match(missing.json?.message, /install-browser -- --ffmpeg/, 'naming how to install it');
  } finally {
    if (saved === undefined) delete process.env.BROWSER_REPL_FFMPEG;
    else process.env.BROWSER_REPL_FFMPEG = saved;
  }

  // Deleting the browser (retention 0) removes its recordings.
  await kernel.browsers.deleteByID(id);
  t.ok(await eventually(() => !existsSync(file) && !existsSync(secondFile)), 'the browser\'s MP4s are gone with it');
  const gone = await api.call('GET', `/browsers/${id}/replays`, undefined, { headers: auth });
  t.equal(gone.status, 404, 'and so is its list');

  await api.server.close();
  t.same(recordingFolders(), [], 'closing the server removed the recordings folder');
});

t.test('a recording stopped at once, before the screencast sent a frame, still holds the tab', async (t) => {
  const quick = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 1 });
  const kernel = new Kernel({ apiKey: TOKEN, baseURL: quick.url, maxRetries: 0 });
  const { session_id: id } = await kernel.browsers.create({ start_url: fixtures.url('recording.html'), viewport: { width: 320, height: 240 } });
  const { replay_id: replayId } = await kernel.browsers.replays.start(id, { framerate: 5 });
  // No wait: the stop races the first screencast frame; the recorder then takes one screenshot.
  await kernel.browsers.replays.stop(replayId, { id });
  const video = Buffer.from(await (await kernel.browsers.replays.download(replayId, { id })).arrayBuffer());
  t.equal(video.subarray(4, 8).toString('latin1'), 'ftyp', 'an MP4, not an encoding error');
  await kernel.browsers.deleteByID(id);
  await quick.server.close();
});

t.test('recordings stay for the retention time after their browser ended, then go', async (t) => {
  const kept = await apiServer(t, { token: TOKEN, primaryBrowser: { browser: { cdpEndpoint: null } }, maxBrowsers: 1, recordings: { retentionSeconds: 2 } });
  const client = new Kernel({ apiKey: TOKEN, baseURL: kept.url, maxRetries: 0 });
  const { session_id: id } = await client.browsers.create({ start_url: fixtures.url('recording.html'), viewport: { width: 320, height: 240 } });
  const { replay_id: replayId } = await client.browsers.replays.start(id, { framerate: 5 });
  await sleep(1_500);
  // Deleting the browser stops the running recording first: it is finished and kept.
  await client.browsers.deleteByID(id);
  const listed = await eventually(async () => (await client.browsers.replays.list(id).catch(() => []))[0]?.finished_at != null, 10_000);
  t.ok(listed, 'after the delete, the browser\'s id still lists its recording, finished');
  const video = Buffer.from(await (await client.browsers.replays.download(replayId, { id })).arrayBuffer());
  t.ok(video.length > 0, 'and downloads it');
  const gone = await eventually(async () => (await kept.call('GET', `/browsers/${id}/replays`, undefined, { headers: auth })).status === 404, 10_000);
  t.ok(gone, 'after the retention time it is gone');
  await kept.server.close();
  t.same(recordingFolders(), [], 'no recordings folder is left');
});
