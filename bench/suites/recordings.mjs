// Issue 29: what a recording (docs/recordings.md) costs the machine, per browser. CPU time
// (user + sys, from /proc/<pid>/stat) over a fixed window, summed over the processes a recording
// involves: the Chromium group of the recorded browser (its browser process, GPU/utility processes
// and renderers: every process under it in this process's tree), the ffmpeg child, and the server
// process (this one: the server runs in-process, so its frames' relay, the REPL worker threads and
// this driver are in it, alike in both arms). Windows with a recording running alternate with
// windows of the same page without one, in the same run, so drift hits both alike. Two pages: one
// animating without pause (Chromium sends a screencast frame for every change: the worst case) and
// a still one (the recorder writes the last frame again at the framerate). Reported as CPU % of
// one core (100 % = one core busy for the whole window), per part and in total, and the ratio.
// Linux only (/proc).
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { request } from 'undici';
import { startServer } from '../../dist/lib/index.js';

const ANIMATED = `<!doctype html><html><head><title>recording bench: animating</title></head>
<body style="margin:0;font:32px sans-serif;background:#eceff1">
<div id="box" style="position:absolute;top:200px;width:160px;height:160px;background:#1565c0"></div>
<div id="clock" style="position:absolute;left:40px;top:40px">0</div>
<script>
  const box = document.getElementById('box'), clock = document.getElementById('clock');
  const step = (now) => {
    box.style.left = (40 + (now / 4) % 1000) + 'px';
    clock.textContent = now.toFixed(0);
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
</script></body></html>`;
const STILL = `<!doctype html><html><head><title>recording bench: still</title></head>
<body style="margin:0;font:32px sans-serif;padding:40px"><h1>A still page</h1><p>Nothing moves here.</p></body></html>`;

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** pid → {ppid, pgid, comm, ticks} of every process now. */
function processes() {
  const all = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // It exited meanwhile.
    }
    // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …": comm may hold spaces.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    all.set(Number(name), { ppid: Number(fields[1]), pgid: Number(fields[2]), comm, ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return all;
}

/** The pids under `root` in the process tree (not `root` itself). */
function descendants(all, root) {
  const children = new Map();
  for (const [pid, info] of all) {
    if (!children.has(info.ppid)) children.set(info.ppid, []);
    children.get(info.ppid).push(pid);
  }
  const out = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop();
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Chromium browser processes started by this process (their own process group's leaders). */
function chromiumRoots() {
  const all = processes();
  return descendants(all, process.pid).filter((pid) => /chrom/i.test(all.get(pid).comm) && all.get(pid).pgid === pid);
}

function ffmpegRunning() {
  const all = processes();
  return descendants(all, process.pid).some((pid) => all.get(pid).comm === 'ffmpeg');
}

/** CPU ticks now of: the Chromium group of `chromiumPid` (and what runs under it), ffmpeg children, this process. */
function cpuTicks(chromiumPid) {
  const all = processes();
  const mine = descendants(all, process.pid);
  const inChromium = new Set([chromiumPid, ...descendants(all, chromiumPid)]);
  for (const pid of mine) if (all.get(pid).pgid === chromiumPid) inChromium.add(pid);
  let chromium = 0;
  let ffmpeg = 0;
  for (const pid of inChromium) chromium += all.get(pid)?.ticks ?? 0;
  for (const pid of mine) if (!inChromium.has(pid) && all.get(pid).comm === 'ffmpeg') ffmpeg += all.get(pid).ticks;
  // The server (this process): its own threads, the REPL workers among them.
  return { chromium, ffmpeg, server: all.get(process.pid).ticks };
}

export async function run({ quick }) {
  const windowMs = quick ? 3_000 : 10_000;
  const pairs = quick ? 1 : 3;
  const pages = createServer((incoming, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(incoming.url === '/still' ? STILL : ANIMATED));
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  const base = `http://127.0.0.1:${pages.address().port}`;
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined });
  const call = async (method, path, body) => {
    const response = await request(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  const before = new Set(chromiumRoots());
  const browser = await call('POST', '/browsers', { start_url: `${base}/`, viewport: { width: 1280, height: 720 } });
  const id = browser.session_id;
  const roots = chromiumRoots().filter((pid) => !before.has(pid));
  if (roots.length !== 1) throw new Error(`expected one new Chromium process group for the browser, found ${roots.length}`);
  const chromiumPid = roots[0];
  const cell = async (code) => {
    const result = await call('POST', `/browsers/${id}/repl`, { code, timeout_sec: 30 });
    if (result.success !== true) throw new Error(`bench cell failed: ${result.error}`);
  };

  /** CPU % of one core of each part over one window, with or without a recording running. */
  const measureWindow = async (recording) => {
    let replay;
    if (recording) {
      replay = await call('POST', `/browsers/${id}/replays`, {});
      // ffmpeg and the screencast are up before the window opens (the start is not what is measured).
      const deadline = Date.now() + 10_000;
      while (!ffmpegRunning() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      if (!ffmpegRunning()) throw new Error('the recording started no ffmpeg within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const start = cpuTicks(chromiumPid);
    const startedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const end = cpuTicks(chromiumPid);
    const seconds = (performance.now() - startedAt) / 1000;
    if (replay !== undefined) {
      await call('POST', `/browsers/${id}/replays/${replay.replay_id}/stop`);
      // ffmpeg has finished the file before the next window opens.
      const deadline = Date.now() + 30_000;
      while (ffmpegRunning() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const list = await call('GET', `/browsers/${id}/replays`);
      if (!list.some((item) => item.replay_id === replay.replay_id)) throw new Error('the recording is not listed after its stop');
    }
    const percent = (key) => ((end[key] - start[key]) / CLK_TCK / seconds) * 100;
    return { chromium: percent('chromium'), ffmpeg: percent('ffmpeg'), server: percent('server') };
  };

  const sections = [];
  for (const [page, path, what] of [['animating', '/', 'a page animating without pause (requestAnimationFrame moves a box and a clock)'], ['still', '/still', 'a still page']]) {
    await cell(`await gotoUrl(${JSON.stringify(`${base}${path}`)}); await waitForLoad();`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const arms = { with: [], without: [] };
    for (let pair = 0; pair < pairs; pair++) {
      // ABBA order: neither arm always comes first.
      const order = pair % 2 === 0 ? [false, true] : [true, false];
      for (const recording of order) arms[recording ? 'with' : 'without'].push(await measureWindow(recording));
    }
    const mean = (list, key) => list.reduce((sum, item) => sum + item[key], 0) / list.length;
    const total = (list) => mean(list, 'chromium') + mean(list, 'ffmpeg') + mean(list, 'server');
    const rows = [
      { name: `${page} page: total (Chromium group + ffmpeg + server)`, unit: 'CPU %', ours: total(arms.with), baseline: total(arms.without), format: 'percent' },
      { name: `${page} page: the browser's Chromium group`, unit: 'CPU %', ours: mean(arms.with, 'chromium'), baseline: mean(arms.without, 'chromium'), format: 'percent' },
      { name: `${page} page: ffmpeg`, unit: 'CPU %', ours: mean(arms.with, 'ffmpeg'), baseline: null, format: 'percent' },
      { name: `${page} page: the server process`, unit: 'CPU %', ours: mean(arms.with, 'server'), baseline: mean(arms.without, 'server'), format: 'percent' },
      { name: `${page} page: the recording's cost (total with − without)`, unit: 'CPU %', ours: total(arms.with) - total(arms.without), baseline: null, format: 'percent' },
    ];
    sections.push({
      title: `Recordings (issue 29): CPU of one browser while it is recorded, ${page} page`,
      baselineName: `the same ${(windowMs / 1000).toFixed(0)} s window of ${what}, 1280×720, without a recording; ${pairs} window(s) of each, alternating; CPU % of one core (user + sys from /proc/<pid>/stat)`,
      rows,
    });
  }

  await call('DELETE', `/browsers/${id}`).catch(() => undefined);
  await server.close();
  await new Promise((resolve) => pages.close(resolve));
  return sections;
}
