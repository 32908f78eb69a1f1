// Issue 11: the agent browser tools over MCP against Playwright MCP (@playwright/mcp, pinned as a
// dev dependency), side by side in one run. Both servers are spawned over stdio and driven by the
// same @modelcontextprotocol/sdk client code, both on the same Chromium executable with the same
// offline flags, both against the same three pages served on loopback (bench/fixtures/): a form,
// a long article and a 500-row table.
// - Snapshot size: the characters of browser_snapshot's text content on a freshly opened page,
//   and whether every actionable element of Playwright MCP's snapshot (a ref'd node with an
//   interactive ARIA role) has a counterpart with a ref in ours, matched by accessible name.
// - Latency: the open, click and type round trips (one tool call each, as each tool answers by
//   default), with each tool's default settle time and again with settling off in both; the two
//   sides alternate call by call, which goes first flipping every iteration.
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { findChromium } from '../../dist/lib/index.js';
import { summarize } from '../stats.mjs';
import { connectStdio } from '../../test/helpers/mcp-agent-client.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const OUR_CLI = join(ROOT, 'dist/lib/cli/main.js');
const PLAYWRIGHT_MCP_CLI = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
const PLAYWRIGHT_MCP_VERSION = JSON.parse(readFileSync(join(dirname(PLAYWRIGHT_MCP_CLI), 'package.json'), 'utf8')).version;

/** The flags both browsers get (ours passes them always: lib/chromium/launch-chromium.ts OFFLINE_ARGS). */
const OFFLINE_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** As root or in a container Chromium's sandbox cannot start (ours decides the same on its own). */
const NO_SANDBOX = process.getuid?.() === 0 || existsSync('/.dockerenv');

/** The ARIA roles of Playwright MCP's snapshot that count as actionable (when the node has a ref). */
const ACTIONABLE_ROLES = new Set(['link', 'button', 'textbox', 'checkbox', 'radio', 'combobox', 'listbox', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'option']);

/** The pages, and the element each latency measure acts on (by accessible name, in both snapshots). */
const PAGES = [
  { name: 'form', file: 'agent-form.html', click: 'Check availability', type: 'Full name' },
  { name: 'article', file: 'agent-article.html', click: 'Mark as read', type: 'Search articles' },
  { name: 'table', file: 'agent-table.html', click: 'Sort by score', type: 'Filter by name' },
];
const TYPED = ['Ada Andersen', 'Ben Costa'];

const normalize = (name) => name.toLowerCase().replace(/\s+/g, ' ').trim();
const quantile = (samples, q) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** The actionable nodes of a Playwright MCP snapshot: `- button "Save" [ref=e12]` (attributes may come before the ref). */
export function playwrightElements(text) {
  const elements = [];
  for (const line of text.split('\n')) {
    const match = /^\s*-\s+'?([a-z]+)(?:\s+"((?:[^"\\]|\\.)*)")?((?:\s+\[[^\]]*\])*)/.exec(line);
    if (match === null || !ACTIONABLE_ROLES.has(match[1])) continue;
    const ref = /\[ref=([^\]]+)\]/.exec(match[3] ?? '')?.[1];
    if (ref === undefined) continue;
    elements.push({ ref, role: match[1], name: match[2] === undefined ? '' : JSON.parse(`"${match[2]}"`) });
  }
  return elements;
}

/**
 * The elements of one of our snapshots or diffs: `[12] button "Save" …` lines (lib/tools/render.ts),
 * read only outside the page-text blocks, whose lines may look alike.
 */
export function ourElements(text) {
  const elements = [];
  let inText = false;
  for (const line of text.split('\n')) {
    if (/^Text( added| removed)?( \(|:)/.test(line)) inText = true;
    else if (/^(Elements \(|Changed:|Added:)/.test(line)) inText = false;
    if (inText) continue;
    const match = /^\[(\d+)\] (\S+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(line);
    if (match === null) continue;
    elements.push({ ref: Number(match[1]), role: match[2], name: match[3] === undefined ? '' : JSON.parse(match[3]) });
  }
  return elements;
}

/** Which of Playwright's actionable elements have no counterpart with a ref in ours (a multiset match by name). */
export function missing(theirs, ours) {
  const left = new Map();
  for (const element of ours) {
    const key = normalize(element.name);
    left.set(key, (left.get(key) ?? 0) + 1);
  }
  const misses = [];
  for (const element of theirs) {
    const key = normalize(element.name);
    const count = left.get(key) ?? 0;
    if (count > 0) left.set(key, count - 1);
    else misses.push(element);
  }
  return misses;
}

/** Serves the fixtures on loopback: /agent-form, /agent-article, /agent-table. */
async function serveFixtures() {
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const page = PAGES.find((candidate) => path === `/${candidate.file.replace(/\.html$/, '')}`);
    if (path === '/favicon.ico') response.writeHead(204).end();
    else if (page === undefined) response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>Not found</p>');
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(FIXTURES, page.file)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Connects a client to a server spawned over stdio; close() ends the child and waits until it is gone.
 * The child's TMPDIR is a folder of the suite's scratch folder: what either server or its Chromium
 * leaves in the temporary folder (Chromium's org.chromium.Chromium.* singleton folders, Playwright's
 * pw-<user> socket folder) goes with the scratch folder.
 */
async function connect(label, args, { scratch }) {
  const tmp = mkdtempSync(join(scratch, 'tmp-'));
  const agent = await connectStdio(label, args, { cwd: scratch, env: { ...process.env, TMPDIR: tmp } });
  const schemas = new Map((await agent.sdk.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]));
  return {
    label,
    schemas,
    async call(name, args) {
      const { text, isError } = await agent.call(name, args, { wait: true, waitMs: 110_000 });
      if (isError) throw new Error(`${label} ${name}(${JSON.stringify(args)}) failed: ${text.slice(0, 500)}`);
      return text;
    },
    close: () => agent.close(),
  };
}

/** Playwright MCP on our Chromium: headless, isolated (in-memory profile), the offline flags via its config file. */
async function startPlaywrightMcp({ executable, settleOff, scratch }) {
  const config = join(scratch, 'playwright-mcp.json');
  writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: OFFLINE_FLAGS } } }));
  const args = [PLAYWRIGHT_MCP_CLI, '--browser', 'chromium', '--executable-path', executable, '--headless', '--isolated',
    ...(NO_SANDBOX ? ['--no-sandbox'] : []), '--config', config, '--output-dir', join(scratch, 'playwright-mcp-output'),
    ...(settleOff ? ['--timeout-settle', '0'] : [])];
  const side = await connect('Playwright MCP', args, { scratch });
  let refs = new Map();
  const remember = (text) => {
    const elements = playwrightElements(text);
    if (elements.length > 0) refs = new Map(elements.map((element) => [normalize(element.name), element.ref]));
    return text;
  };
  const refOf = async (name) => {
    if (!refs.has(normalize(name))) remember(await side.call('browser_snapshot', {}));
    const ref = refs.get(normalize(name));
    if (ref === undefined) throw new Error(`Playwright MCP: no ref for "${name}"`);
    return ref;
  };
  // Its element parameter was `ref` before `target`; take whichever this version declares.
  const refKey = side.schemas.get('browser_click')?.properties?.target === undefined ? 'ref' : 'target';
  return {
    ...side,
    elements: playwrightElements,
    // Refs carry the frame's number (`f6e15`), which a navigation changes.
    open: async (url) => { refs = new Map(); return remember(await side.call('browser_navigate', { url })); },
    snapshot: async () => remember(await side.call('browser_snapshot', {})),
    click: async (name) => remember(await side.call('browser_click', { element: name, [refKey]: await refOf(name) })),
    type: async (name, text) => remember(await side.call('browser_type', { element: name, [refKey]: await refOf(name), text })),
    /** Its action answers carry the snapshot only as a file link (to read it, a model calls browser_snapshot). */
    inlineSnapshot: (text) => text.includes('```yaml'),
  };
}

/** Our MCP server (`chromium-repl mcp`), opens allowed, on the same executable. */
async function startOurs({ executable, settleOff, scratch }) {
  const args = [OUR_CLI, 'mcp', '--permission', 'allow', '--executable', executable, ...(settleOff ? ['--settle-ms', '0'] : [])];
  const side = await connect('chromium-repl', args, { scratch });
  let refs = new Map();
  const remember = (text) => {
    const elements = ourElements(text);
    // A diff answer lists only what changed: keep the refs known so far and update those it names.
    if (elements.length > 0) for (const element of elements) refs.set(normalize(element.name), element.ref);
    return text;
  };
  const refOf = async (name) => {
    if (!refs.has(normalize(name))) remember(await side.call('browser_snapshot', {}));
    const ref = refs.get(normalize(name));
    if (ref === undefined) throw new Error(`chromium-repl: no ref for "${name}"`);
    return ref;
  };
  return {
    ...side,
    elements: ourElements,
    open: async (url) => { refs = new Map(); return remember(await side.call('browser_open', { url })); },
    snapshot: async () => remember(await side.call('browser_snapshot', {})),
    click: async (name) => remember(await side.call('browser_click', { ref: await refOf(name) })),
    type: async (name, text) => remember(await side.call('browser_type', { ref: await refOf(name), text })),
    /** Every action answers with the page (or what changed in it) in its text. */
    inlineSnapshot: () => true,
  };
}

/**
 * Times `step` on both sides, call by call, flipping which side goes first every iteration.
 * `after` (Playwright MCP only) is timed separately: the browser_snapshot a model needs to see
 * the result when the action's answer did not carry it.
 */
async function alternate(iterations, warmup, sides, step) {
  const times = sides.map(() => ({ call: [], seen: [] }));
  for (let i = 0; i < warmup + iterations; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const s of order) {
      const side = sides[s];
      const start = process.hrtime.bigint();
      const text = await step(side, i);
      const call = Number(process.hrtime.bigint() - start) / 1e6;
      let seen = call;
      if (!side.inlineSnapshot(text)) {
        const before = process.hrtime.bigint();
        await side.snapshot();
        seen += Number(process.hrtime.bigint() - before) / 1e6;
      }
      if (i >= warmup) {
        times[s].call.push(call);
        times[s].seen.push(seen);
      }
    }
  }
  return times.map(({ call, seen }) => ({ ...summarize(call), p90: quantile(call, 0.9), seen: summarize(seen) }));
}

export async function run({ quick }) {
  const iterations = quick ? 5 : 20;
  const warmup = quick ? 1 : 2;
  const executable = (await findChromium()).executable;
  const load = loadavg()[0];
  const fixtures = await serveFixtures();
  const scratch = mkdtempSync(join(tmpdir(), 'chromium-repl-bench-agent-'));
  const sizeRows = [];
  const coverageNotes = [];
  const latency = { default: [], off: [] };
  try {
    for (const mode of ['default', 'off']) {
      const settleOff = mode === 'off';
      const ours = await startOurs({ executable, settleOff, scratch });
      let theirs;
      try {
        theirs = await startPlaywrightMcp({ executable, settleOff, scratch });
        const sides = [ours, theirs];
        for (const page of PAGES) {
          const url = `${fixtures.base}${page.file.replace(/\.html$/, '')}`;
          for (const side of sides) await side.open(url);
          // Every ref is known before the timed calls (theirs: from this snapshot; later, from the one after each action).
          for (const side of sides) await side.snapshot();
          if (mode === 'default') {
            const [ourText, theirText] = [await ours.snapshot(), await theirs.snapshot()];
            const theirActionable = playwrightElements(theirText);
            const misses = missing(theirActionable, ourElements(ourText));
            sizeRows.push({ name: `snapshot size, ${page.name} page (browser_snapshot text)`, unit: 'chars', format: 'chars', ours: ourText.length, baseline: theirText.length, target: { ratio: 0.5 } });
            sizeRows.push({
              name: `actionable elements of its snapshot with a ref in ours, ${page.name} page`, unit: 'count', format: 'count',
              ours: theirActionable.length - misses.length, baseline: theirActionable.length,
              verdict: misses.length === 0 ? 'all: met' : `${misses.length} missing: NOT met`,
            });
            if (misses.length > 0) coverageNotes.push(`Missing on the ${page.name} page: ${misses.map((element) => `${element.role} "${element.name}"`).join(', ')}.`);
          }
          const open = await alternate(iterations, warmup, sides, (side) => side.open(url));
          const click = await alternate(iterations, warmup, sides, (side) => side.click(page.click));
          // Back to the page as opened, so typing does not follow a state one side's clicks left.
          for (const side of sides) await side.open(url);
          for (const side of sides) await side.snapshot();
          const type = await alternate(iterations, warmup, sides, (side, i) => side.type(page.type, TYPED[i % 2]));
          for (const [measure, label, [our, their]] of [['open', 'open (browser_open / browser_navigate)', open], ['click', `click "${page.click}"`, click], ['type', `type into "${page.type}"`, type]]) {
            latency[mode].push({ name: `${page.name}: ${label}`, unit: 'p50', ours: our.p50, baseline: their.p50, target: { ratio: 0.6 } });
            latency[mode].push({ name: `${page.name}: ${label}`, unit: 'p90', ours: our.p90, baseline: their.p90 });
            latency[mode].push({ name: `${page.name}: ${measure}, then the page in the model's context (theirs: + browser_snapshot)`, unit: 'p50', ours: our.seen.p50, baseline: their.seen.p50 });
          }
        }
      } finally {
        await Promise.all([ours.close(), theirs?.close()]);
      }
    }
  } finally {
    await fixtures.close();
    // A browser's last child may still be writing for a moment after the server's exit.
    for (let attempt = 0; attempt < 20 && existsSync(scratch); attempt++) {
      rmSync(scratch, { recursive: true, force: true });
      if (existsSync(scratch)) await sleep(50);
    }
  }

  const method = [
    `Playwright MCP ${PLAYWRIGHT_MCP_VERSION} (\`node node_modules/@playwright/mcp/cli.js --browser chromium --executable-path ${executable} --headless --isolated${NO_SANDBOX ? ' --no-sandbox' : ''}\`, the offline flags ${OFFLINE_FLAGS.join(' ')} through its config file's launchOptions.args) and`,
    `\`chromium-repl mcp --permission allow --executable ${executable}\` (its launcher always passes those flags), both spawned over stdio and driven by one @modelcontextprotocol/sdk client each,`,
    'in the same run, against bench/fixtures/agent-{form,article,table}.html served on 127.0.0.1. Each tool runs with its default caps (ours: maxTextChars 12 000, maxElements 120;',
    'the table has fewer than 120 actionable elements). Sizes are the characters of the text content browser_snapshot answers with, on the page as opened.',
    `Run on ${new Date().toISOString().slice(0, 10)}; the machine's 1-minute load average was ${load.toFixed(1)} when the suite started.`,
  ];
  return [
    {
      title: 'Agent browser tools (issue 11): snapshot size vs Playwright MCP',
      baselineName: `Playwright MCP ${PLAYWRIGHT_MCP_VERSION}'s browser_snapshot on the same page of the same Chromium, in the same run`,
      rows: sizeRows,
      notes: [
        ...method,
        'An actionable element is a node of its snapshot with a ref and one of the roles link, button, textbox, checkbox, radio, combobox, listbox, searchbox, slider, spinbutton,',
        'switch, tab, menuitem, option; it has a counterpart when our snapshot lists an element with a ref and the same accessible name (case and white space ignored, each of ours used once).',
        ...coverageNotes,
      ],
    },
    ...['default', 'off'].map((mode) => ({
      title: `Agent browser tools (issue 11): round trips vs Playwright MCP, ${mode === 'default' ? 'default settle time' : 'settling off'}`,
      baselineName: mode === 'default'
        ? 'Playwright MCP with its defaults (timeouts.settle 500 ms) on the same page of the same Chromium; ours with its default settleMs (250 ms)'
        : 'Playwright MCP with `--timeout-settle 0`; ours with `--settle-ms 0`',
      rows: latency[mode],
      notes: mode === 'default'
        ? [
          `${iterations} calls per measure and side after ${warmup} of warm-up, the sides alternating call by call (which goes first flips every iteration). A round trip is one tools/call, request to answer.`,
          'Open navigates to the page again (a full load each time); click presses the same button each time (on the table it re-sorts the 500 rows); type replaces the field\'s value, alternating two names.',
          'What each answers with by default differs: ours answer every action with a snapshot in the text; Playwright MCP answers navigate and click with the code it ran and a link to a snapshot file it wrote,',
          'and type with the code alone, so a model calls browser_snapshot to see the page: the "then the page in the model\'s context" rows add that call (timed per iteration) on its side.',
          'Settling: Playwright MCP runs click (and type only with submit or slowly) inside waitForCompletion: the action, then a settle wait (a page-side setTimeout of timeouts.settle,',
          'default 500 ms), then, if the action sent requests, it waits for them (or for the load event after a navigation request) and settles again; navigate waits for domcontentloaded and load, with no settle.',
        ]
        : [
          'Settling off: Playwright MCP has a switch for its settle wait, `--timeout-settle 0`: waitForCompletion then still evaluates a zero-length setTimeout in the page and still waits',
          'for the requests an action sent; navigate\'s load wait is not a settle and stays. Ours: `--settle-ms 0` drops the extra wait after load and after each action.',
        ],
    })),
  ];
}
