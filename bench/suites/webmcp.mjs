// Issue 12: WebMCP from a cell against the same work done by raw CDP from the same cell, side by
// side in one run. Three tabs (three named REPLs of one host) each load a page that registers ten
// imperative tools; a fourth REPL measures, so both sides share its worker thread, event loop and
// vm context. Each iteration times one of ours and one raw, in alternating order.
// - listTools(): `webmcp.listTools()` (30 tools) vs, on raw sessions attached to the three tabs,
//   WebMCP.enable (whose replay lists a tab's tools) and WebMCP.disable on each, in parallel.
// - invokeTool(): one `webmcp.invokeTool` round trip vs WebMCP.invokeTool on a raw session with the
//   domain enabled, until its toolResponded event.
// - The same invocation from the main thread (the library's `host.webmcp.invokeTool`, what the HTTP
//   route and the MCP server call) vs a raw client on the main thread: the monitor without the
//   worker's two MessagePort hand-offs.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { Browser } from '../../dist/lib/index.js';
import { check } from '../bench-page.mjs';
import { rawCdp } from '../raw-cdp.mjs';

const TOOLS_PER_TAB = 10;
const PAGE = `<!doctype html><html><head><title>webmcp bench</title></head><body><h1>Ten tools</h1><script>
for (let i = 0; i < ${TOOLS_PER_TAB}; i++) {
  document.modelContext.registerTool({
    name: 'tool_' + i,
    description: 'Bench tool number ' + i + '; echoes its input.',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    execute: async (input) => ({ tool: i, input }),
  });
}
</script></body></html>`;

export async function run({ quick }) {
  const iterations = quick ? 50 : 300;
  const warmup = quick ? 10 : 30;
  const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${server.address().port}/`;
  const host = new Browser({ warmSpare: false });
  try {
    const tabs = [];
    for (const name of ['tab1', 'tab2', 'tab3']) {
      const repl = host.repl(name);
      check(await repl.run(`await gotoUrl(${JSON.stringify(url)}); await waitForLoad();`));
      tabs.push(host.tabs.peek(`repl:${name}`));
    }
    const endpoint = await host.chromium.endpoint();
    const bench = host.repl('bench');
    // The raw side: a bare ws client in the cell, on the browser's own endpoint (a cell's
    // CDP_ENDPOINT hides the tabs other REPLs own).
    check(await bench.run(`
      const { default: BenchWebSocket } = await import('ws');
      const benchSocket = new BenchWebSocket(${JSON.stringify(endpoint)}, { perMessageDeflate: false });
      await new Promise((resolve, reject) => { benchSocket.once('open', resolve); benchSocket.once('error', reject); });
      let benchNextId = 1;
      const benchPending = new Map();
      const benchEvents = new Set();
      benchSocket.on('message', (data) => {
        const message = JSON.parse(data.toString());
        if (message.id !== undefined) {
          const settle = benchPending.get(message.id);
          benchPending.delete(message.id);
          if (message.error) settle?.reject(new Error(message.error.message)); else settle?.resolve(message.result);
          return;
        }
        for (const listener of benchEvents) listener(message);
      });
      const benchRaw = (method, params, sessionId) => new Promise((resolve, reject) => {
        const id = benchNextId++;
        benchPending.set(id, { resolve, reject });
        benchSocket.send(JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }));
      });
      const benchTabs = ${JSON.stringify(tabs)};
      const benchListSessions = [];
      for (const targetId of benchTabs) benchListSessions.push((await benchRaw('Target.attachToTarget', { targetId, flatten: true })).sessionId);
      const benchInvokeSession = (await benchRaw('Target.attachToTarget', { targetId: benchTabs[0], flatten: true })).sessionId;
      await benchRaw('WebMCP.enable', {}, benchInvokeSession);
      async function rawList() {
        const seen = [];
        const listener = (message) => { if (message.method === 'WebMCP.toolsAdded') seen.push(...message.params.tools); };
        benchEvents.add(listener);
        try {
          await Promise.all(benchListSessions.map(async (sessionId) => {
            await benchRaw('WebMCP.enable', {}, sessionId);
            await benchRaw('WebMCP.disable', {}, sessionId);
          }));
        } finally {
          benchEvents.delete(listener);
        }
        return seen;
      }
      function rawInvoke(toolName, input) {
        return new Promise((resolve, reject) => {
          let invocationId;
          const early = [];
          const listener = (message) => {
            if (message.method !== 'WebMCP.toolResponded' || message.sessionId !== benchInvokeSession) return;
            if (invocationId === undefined) { early.push(message.params); return; }
            if (message.params.invocationId === invocationId) { benchEvents.delete(listener); resolve(message.params); }
          };
          benchEvents.add(listener);
          benchRaw('WebMCP.invokeTool', { frameId: benchTabs[0], toolName, input }, benchInvokeSession).then((result) => {
            invocationId = result.invocationId;
            const answered = early.find((params) => params.invocationId === invocationId);
            if (answered !== undefined) { benchEvents.delete(listener); resolve(answered); }
          }, reject);
        });
      }
      const benchTool = (await webmcp.listTools()).find((tool) => tool.source.target_id === benchTabs[0] && tool.tool.name === 'tool_3');
    `));
    const measured = check(await bench.run(`{
      const ours = { list: [], invoke: [] };
      const raw = { list: [], invoke: [] };
      for (let i = 0; i < ${warmup + iterations}; i++) {
        const keep = i >= ${warmup};
        const order = i % 2 === 0 ? ['ours', 'raw'] : ['raw', 'ours'];
        for (const side of order) {
          let start = performance.now();
          if (side === 'ours') {
            const listed = await webmcp.listTools();
            if (listed.length !== ${3 * TOOLS_PER_TAB}) throw new Error('listTools found ' + listed.length + ' tools');
            if (keep) ours.list.push(performance.now() - start);
            start = performance.now();
            const result = await webmcp.invokeTool(benchTool.tool_ref, { n: i });
            if (result.status !== 'completed' || result.output.input.n !== i) throw new Error('invokeTool: ' + JSON.stringify(result));
            if (keep) ours.invoke.push(performance.now() - start);
          } else {
            const seen = await rawList();
            if (seen.length !== ${3 * TOOLS_PER_TAB}) throw new Error('raw listing found ' + seen.length + ' tools');
            if (keep) raw.list.push(performance.now() - start);
            start = performance.now();
            const result = await rawInvoke('tool_3', { n: i });
            if (result.status !== 'Completed' || result.output.input.n !== i) throw new Error('raw invokeTool: ' + JSON.stringify(result));
            if (keep) raw.invoke.push(performance.now() - start);
          }
        }
      }
      benchSocket.close();
      repl.write(JSON.stringify({ ours, raw }));
    }`));
    const { ours, raw } = JSON.parse(measured.content[0].text);

    // The main thread: the monitor as the routes call it, against a raw client here.
    const tool = (await host.webmcp.listTools({ scope: { targetIds: [tabs[0]] } })).find((listed) => listed.tool.name === 'tool_3');
    const mainRaw = await rawCdp(endpoint);
    const listeners = new Set();
    mainRaw.onEvent((message) => { for (const listener of listeners) listener(message); });
    const { sessionId: mainSession } = await mainRaw.send('Target.attachToTarget', { targetId: tabs[0], flatten: true });
    await mainRaw.send('WebMCP.enable', {}, mainSession);
    ours.main = [];
    raw.main = [];
    for (let i = 0; i < warmup + iterations; i++) {
      const order = i % 2 === 0 ? ['ours', 'raw'] : ['raw', 'ours'];
      for (const side of order) {
        const start = performance.now();
        if (side === 'ours') {
          const result = await host.webmcp.invokeTool(tool.tool_ref, { n: i });
          if (result.status !== 'completed') throw new Error('main-thread invokeTool: ' + JSON.stringify(result));
          if (i >= warmup) ours.main.push(performance.now() - start);
        } else {
          const answered = new Promise((resolve) => {
            const listener = (message) => {
              if (message.method === 'WebMCP.toolResponded' && message.sessionId === mainSession && message.params.output?.input?.n === i) {
                listeners.delete(listener);
                resolve();
              }
            };
            listeners.add(listener);
          });
          await mainRaw.send('WebMCP.invokeTool', { frameId: tabs[0], toolName: 'tool_3', input: { n: i } }, mainSession);
          await answered;
          if (i >= warmup) raw.main.push(performance.now() - start);
        }
      }
    }
    mainRaw.close();
    const p50 = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    const p99 = (samples) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))];
    const rows = [];
    for (const [key, label, target] of [
      ['list', `listTools() over 3 tabs × ${TOOLS_PER_TAB} tools, from a cell`, { ratio: 1.2 }],
      ['invoke', 'invokeTool() round trip, from a cell', { ratio: 1.2 }],
      ['main', 'invokeTool() round trip, from the main thread (library, HTTP, MCP)', undefined],
    ]) {
      rows.push({ name: label, unit: 'p50', ours: p50(ours[key]), baseline: p50(raw[key]), ...(target === undefined ? {} : { target }) });
      rows.push({ name: label, unit: 'p99', ours: p99(ours[key]), baseline: p99(raw[key]) });
    }
    return {
      title: 'WebMCP (issue 12)',
      baselineName: 'the same work by raw CDP from the same cell (a bare ws client on the browser endpoint): WebMCP.enable/disable on the three tabs for a listing, WebMCP.invokeTool until toolResponded for an invocation',
      rows,
      notes: [
        `${iterations} samples each after ${warmup} warm-up rounds; ours and raw alternate, which goes first flipping every iteration.`,
        'Ours crosses the worker\'s MessagePort twice per call and is answered by the main thread\'s monitor, which already knows every tool (a listing flushes each tab with one round trip and reads titles with one Target.getTargets; the raw listing needs two round trips per tab).',
        'invokeTool from a cell is not within 1.2×: the monitor itself is (the main-thread row), and the two MessagePort hand-offs cost about 0.1 ms when the machine is idle (measured with a call the monitor refuses at once), but with a tool running, the main thread\'s share of a call grows from about 0.7 ms to about 1.2 ms: each call wakes two more threads while Chromium\'s processes use this machine\'s two cores. The price buys one monitor per browser (frame and navigation tracking, cancellation, cell scoping) instead of one per REPL worker.',
      ],
    };
  } finally {
    await host.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
