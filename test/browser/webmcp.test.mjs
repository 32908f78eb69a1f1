// WebMCP page tools (lib/webmcp; docs/webmcp.md) against a real headless Chromium 156 and fixture
// pages on 127.0.0.1 (and on localhost, another site, for an out-of-process frame): listing in
// Kernel's shape, imperative and declarative invocations, frames, removal and stale refs,
// navigation during a call, cancellation, a closed tab, pages that were open before the monitor
// attached, scopes, and the launch flag.
import t from 'tap';
import { Browser, BrowserManager } from '../../dist/lib/index.js';
import { BrowserLink } from '../../dist/common/cdp/browser-link.js';
import { chromiumArgs } from '../../dist/lib/chromium/launch-chromium.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const host = new Browser({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => host.close());

/** Runs a cell on `repl` and fails the test with its error if it throws. */
async function cell(t, repl, code) {
  const result = await repl.run(code);
  if (!result.success) t.fail(`cell failed: ${result.error}\n${code}`);
  return result.content.filter((item) => item.type === 'text').map((item) => item.text).join('');
}

/** A named REPL of its own tab, with `page` loaded. */
async function openPage(t, name, page) {
  const repl = host.repl(name);
  t.teardown(() => host.deleteRepl(name).catch(() => undefined));
  await cell(t, repl, `await gotoUrl(${JSON.stringify(page)}); await waitForLoad();`);
  const targetId = host.tabs.peek(`repl:${name}`);
  return { repl, targetId };
}

async function toolsOf(targetId, { wanted = 0 } = {}) {
  // A cross-site frame loads after its parent's load event: wait until the tab shows what it should.
  for (let attempt = 0; ; attempt++) {
    const tools = await host.webmcp.listTools({ scope: { targetIds: [targetId] } });
    if (tools.length >= wanted || attempt === 50) return Object.fromEntries(tools.map((tool) => [tool.tool.name, tool]));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A Chromium of its own (no host, so no monitor) whose first tab has loaded `page` through a bare
 * CDP session: what a server finds when it attaches to a browser that was already running.
 */
async function browserWithOpenPage(t, page) {
  const manager = new BrowserManager({ cdpEndpoint: null });
  t.teardown(() => manager.close());
  const endpoint = await manager.endpoint();
  const link = new BrowserLink({ endpointProvider: async () => endpoint });
  t.teardown(() => link.close());
  const { targetId } = (await link.send('Target.getTargets')).targetInfos.find((target) => target.type === 'page');
  const session = await (await link.connection()).attachToTarget(targetId);
  await session.send('Page.enable');
  const loaded = new Promise((resolve) => session.on('Page.loadEventFired', resolve));
  await session.send('Page.navigate', { url: page });
  await loaded;
  return { endpoint, link, targetId, session };
}

t.test('the launched Chromium exposes the page API (WebMCPTesting), merged with the caller\'s features', async (t) => {
  const args = chromiumArgs({ userDataDir: '/tmp/x', args: ['--enable-features=Foo,Bar', '--lang=de'] });
  const features = args.filter((arg) => arg.startsWith('--enable-features='));
  t.same(features, ['--enable-features=WebMCPTesting,DevToolsWebMCPSupport,Foo,Bar'], 'one switch holds ours and the caller\'s');
  t.ok(args.includes('--lang=de'), 'other flags pass through');
  const { repl } = await openPage(t, 'flag', fixtures.url('basic.html'));
  t.equal(await cell(t, repl, `console.log(await js('typeof document.modelContext'))`), 'object');
});

t.test('an imperative tool: listed in Kernel\'s shape, invoked, its result returned', async (t) => {
  const { targetId } = await openPage(t, 'imperative', `${fixtures.url('webmcp-tools.html')}#section`);
  const tools = await toolsOf(targetId, { wanted: 4 });
  t.same(Object.keys(tools).sort(), ['echo', 'fail', 'remove_me', 'slow']);
  const echo = tools.echo;
  t.match(echo.tool_ref, /^wmcp_[a-z][a-z0-9]{23}$/, 'an opaque wmcp_ ref');
  t.same(echo.tool, {
    name: 'echo',
    description: 'Returns its input unchanged.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] },
    annotations: { readOnlyHint: true, untrustedContentHint: true, consequentialHint: false, autosubmit: false },
  });
  t.equal(tools.fail.tool.annotations, undefined, 'no annotations when the page declared none');
  t.same(tools.fail.tool.inputSchema, {}, 'no schema becomes {}');
  t.equal(echo.source.page_title, 'WebMCP tools');
  t.equal(echo.source.page_url, fixtures.url('webmcp-tools.html'), 'the URL without its fragment');
  t.equal(echo.source.frame, null, 'a top-level tool has frame null');
  t.equal(echo.source.target_id, targetId);
  t.ok(Number.isInteger(echo.source.tab_id) && echo.source.tab_id > 0, 'a positive tab id');
  t.ok(Number.isInteger(echo.source.window_id) && echo.source.window_id >= 0, 'a window id');

  const again = await toolsOf(targetId);
  t.equal(again.echo.tool_ref, echo.tool_ref, 'a second listing keeps the refs');

  const result = await host.webmcp.invokeTool(echo.tool_ref, { text: 'hi' }, { timeoutSec: 10 });
  t.match(result, { status: 'completed', output: { echoed: { text: 'hi' } } });
  t.match(result.invocation_id, /^[0-9A-F]{32}$/);
  t.same(Object.keys(result).sort(), ['invocation_id', 'output', 'status'], 'no error_text on success');
});

t.test('a tool that throws: status error, with the thrown message as error_text', async (t) => {
  const { targetId } = await openPage(t, 'throws', fixtures.url('webmcp-tools.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const result = await host.webmcp.invokeTool(tools.fail.tool_ref, {});
  t.equal(result.status, 'error');
  t.equal(result.error_text, 'Error: nothing to do here', 'Chromium leaves errorText empty; the exception says it');
  t.equal(result.output, undefined);
});

t.test('declarative forms: autosubmit completes with the page\'s answer; without it the form waits for a human', async (t) => {
  const { repl, targetId } = await openPage(t, 'forms', fixtures.url('webmcp-forms.html'));
  const tools = await toolsOf(targetId, { wanted: 2 });
  const reserve = tools.reserve_table;
  t.equal(reserve.tool.annotations.autosubmit, true);
  t.match(reserve.tool.inputSchema, {
    type: 'object',
    properties: { name: { type: 'string' }, party_size: { type: 'number', minimum: 1, maximum: 8 }, seating: { enum: ['dining_room', 'terrace'] } },
    required: ['name', 'party_size'],
  }, 'Chromium builds the schema from the controls');

  const booked = await host.webmcp.invokeTool(reserve.tool_ref, { name: 'Ann', party_size: 4, seating: 'terrace' }, { timeoutSec: 10 });
  t.same(booked.output, { confirmed: true, name: 'Ann', party_size: '4', seating: 'terrace' }, 'respondWith\'s value, form values as strings');
  t.equal(booked.status, 'completed');

  const invalid = await host.webmcp.invokeTool(reserve.tool_ref, { name: 'Ann', party_size: 40 }, { timeoutSec: 10 });
  t.equal(invalid.status, 'error');
  t.match(invalid.error_text, /party_size/, 'Chromium validates declarative input and says which field');

  const draft = await host.webmcp.invokeTool(tools.draft_note.tool_ref, { subject: 'Hello', body: 'Dear team' }, { timeoutSec: 10 });
  t.same({ status: draft.status, output: draft.output }, { status: 'awaiting_submission', output: { form_populated: true, submitted: false } });
  const state = JSON.parse(await cell(t, repl, `console.log(JSON.stringify(await js(\`({
    submissions: window.submissions.map((s) => s.form + ':' + s.agentInvoked),
    subject: document.querySelector('[name=subject]').value,
    focused: document.activeElement?.id,
  })\`)))`));
  t.same(state, { submissions: ['reserve:true'], subject: 'Hello', focused: 'send' }, 'filled, focused on its button, not submitted; the invalid call submitted nothing');
  // The human submits; the invocation already answered, and nothing breaks.
  await cell(t, repl, `await js("document.getElementById('send').click()")`);
  t.equal(await cell(t, repl, `console.log(await js('window.submissions.length'))`), '2');
});

t.test('tools in a same-origin and in a cross-site iframe: listed with their frame, invoked in it', async (t) => {
  const { targetId } = await openPage(t, 'frames', fixtures.url('webmcp-frames.html'));
  const tools = await toolsOf(targetId, { wanted: 3 });
  t.same(Object.keys(tools).sort(), ['frame_echo', 'site_echo', 'top_echo']);
  t.equal(tools.top_echo.source.frame, null);
  t.equal(tools.frame_echo.source.frame.url, fixtures.url('webmcp-frame.html?name=frame_echo'));
  t.equal(tools.site_echo.source.frame.url, `http://localhost:${fixtures.port}/webmcp-frame.html?name=site_echo`, 'the out-of-process frame, through its own session');
  t.not(tools.frame_echo.source.frame.frame_id, tools.site_echo.source.frame.frame_id);
  for (const name of ['frame_echo', 'site_echo']) {
    t.equal(tools[name].source.page_title, 'WebMCP frames', `${name}: the tab's title`);
    const result = await host.webmcp.invokeTool(tools[name].tool_ref, { value: 7 });
    t.same(result.output, { frame: name === 'site_echo' ? `localhost:${fixtures.port}` : `127.0.0.1:${fixtures.port}`, name, input: { value: 7 } }, `${name} ran in its frame`);
  }
});

t.test('a tool removed: gone from the listing, its ref fails clearly, the others keep theirs; a navigation ends every ref', async (t) => {
  const { repl, targetId } = await openPage(t, 'removal', fixtures.url('webmcp-tools.html'));
  const before = await toolsOf(targetId, { wanted: 4 });
  await cell(t, repl, `await js('window.removeTool()')`);
  const after = await toolsOf(targetId);
  t.same(Object.keys(after).sort(), ['echo', 'fail', 'slow']);
  t.equal(after.echo.tool_ref, before.echo.tool_ref, 'other tools keep their refs');
  const stale = await host.webmcp.invokeTool(before.remove_me.tool_ref, {}).catch((error) => error);
  t.equal(stale.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND');
  t.equal(stale.status, 404);
  t.match(stale.message, /no longer available.*listTools/);

  await cell(t, repl, `await js("window.addTool('added')")`);
  const added = await toolsOf(targetId, { wanted: 4 });
  t.ok(added.added, 'a tool registered later is listed');
  t.same((await host.webmcp.invokeTool(added.added.tool_ref, {})).output, { added: 'added' });

  await cell(t, repl, `await gotoUrl(${JSON.stringify(fixtures.url('webmcp-tools.html'))}); await waitForLoad();`);
  const reloaded = await toolsOf(targetId, { wanted: 4 });
  t.not(reloaded.echo.tool_ref, before.echo.tool_ref, 'the new document\'s tools have new refs');
  const gone = await host.webmcp.invokeTool(before.echo.tool_ref, { text: 'x' }).catch((error) => error);
  t.equal(gone.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', 'the old document\'s ref is dead');
});

t.test('the page navigates during a call: outcome unknown after the navigation grace, not at the timeout', async (t) => {
  const { repl, targetId } = await openPage(t, 'navigates', fixtures.url('webmcp-tools.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const started = Date.now();
  const pending = host.webmcp.invokeTool(tools.slow.tool_ref, {}, { timeoutSec: 60 }).catch((error) => error);
  await cell(t, repl, `await gotoUrl(${JSON.stringify(fixtures.url('basic.html'))}); await waitForLoad();`);
  const error = await pending;
  t.comment(`outcome_unknown ${Date.now() - started} ms after the call started (timeout 60 s)`);
  t.equal(error.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
  t.equal(error.status, 504);
  t.match(error.message, /navigated before it answered.*do not retry automatically/);
  t.match(error.data.invocationId, /^[0-9A-F]{32}$/, 'the invocation id is reported');
});

t.test('an aborted call and a timed-out call end as outcome unknown and cancel the page\'s invocation', async (t) => {
  const { repl, targetId } = await openPage(t, 'cancel', fixtures.url('webmcp-tools.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const controller = new AbortController();
  const aborted = host.webmcp.invokeTool(tools.slow.tool_ref, {}, { signal: controller.signal }).catch((error) => error);
  await new Promise((resolve) => setTimeout(resolve, 100));
  controller.abort();
  const error = await aborted;
  t.equal(error.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
  t.match(error.message, /aborted/);
  const timedOut = await host.webmcp.invokeTool(tools.slow.tool_ref, {}, { timeoutSec: 1 }).catch((error) => error);
  t.equal(timedOut.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
  t.match(timedOut.message, /did not answer within 1s/);
  let cancelled = [];
  for (let i = 0; i < 50 && cancelled.length < 2; i++) {
    cancelled = JSON.parse(await cell(t, repl, `console.log(JSON.stringify(await js('window.cancelled')))`));
    if (cancelled.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.same(cancelled, ['slow', 'slow'], 'the page saw both cancellations (toolcancel)');
  t.equal((await host.webmcp.invokeTool(tools.echo.tool_ref, { text: 'after' })).status, 'completed', 'the page still answers');
});

t.test('the tab closes during a call: outcome unknown at once', async (t) => {
  const { targetId } = await openPage(t, 'closes', fixtures.url('webmcp-tools.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const pending = host.webmcp.invokeTool(tools.slow.tool_ref, {}, { timeoutSec: 60 }).catch((error) => error);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await host.deleteRepl('closes');
  const error = await pending;
  t.equal(error.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
  t.match(error.message, /closed before it answered/);
});

t.test('bad input is refused before anything reaches the browser, naming the field', async (t) => {
  const { targetId } = await openPage(t, 'validation', fixtures.url('webmcp-tools.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const ref = tools.echo.tool_ref;
  const cases = [
    ['', {}, undefined, /tool_ref/],
    ['x'.repeat(129), {}, undefined, /tool_ref/],
    [ref, [], undefined, /input/],
    [ref, null, undefined, /input/],
    [ref, { big: 'x'.repeat(1024 * 1024) }, undefined, /input exceeds/],
    [ref, {}, 0, /timeout_sec/],
    [ref, {}, 121, /timeout_sec/],
    [ref, {}, 1.5, /timeout_sec/],
  ];
  for (const [toolRef, input, timeoutSec, message] of cases) {
    const error = await host.webmcp.invokeTool(toolRef, input, { timeoutSec }).catch((thrown) => thrown);
    t.equal(error.code, 'REPL_ERR_INVALID_REQUEST', `${String(toolRef).slice(0, 10)} ${JSON.stringify(input)?.slice(0, 20)} ${timeoutSec}`);
    t.match(error.message, message);
  }
  const none = await host.webmcp.invokeTool('wmcp_nothing', {}).catch((error) => error);
  t.equal(none.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND');
  const empty = await host.webmcp.listTools({ scope: { targetIds: [] } }).catch((error) => error);
  t.equal(empty.code, 'REPL_ERR_WEBMCP_NO_TABS');
  t.equal(empty.status, 404);
});

t.test('scopes: an invocation reaches only tools a listing of the same scope shows', async (t) => {
  const { targetId } = await openPage(t, 'scoped', fixtures.url('webmcp-tools.html'));
  const { targetId: otherTab } = await openPage(t, 'scoped-other', fixtures.url('basic.html'));
  const tools = await toolsOf(targetId, { wanted: 4 });
  const outside = await host.webmcp.invokeTool(tools.echo.tool_ref, { text: 'x' }, { scope: { targetIds: [otherTab] } }).catch((error) => error);
  t.equal(outside.code, 'REPL_ERR_WEBMCP_TOOL_NOT_FOUND', 'a tool of another tab is not found in that scope');
  const everything = await host.webmcp.listTools();
  t.ok(everything.some((tool) => tool.tool_ref === tools.echo.tool_ref), 'the unscoped listing has every tab');
  t.equal(host.webmcp.countTools(targetId), 4, 'countTools counts the tab\'s tools');
  t.equal(host.webmcp.countTools(otherTab), 0);
});

t.test('a page that was open before the monitor attached: its same-origin iframe\'s tool is still found, the renderer lives', async (t) => {
  const { endpoint, link, targetId: pageTarget, session } = await browserWithOpenPage(t, fixtures.url('webmcp-frames.html'));
  // The frame registers on load; a moment later it is there.
  for (let i = 0; i < 50; i++) {
    const { result } = await session.send('Runtime.evaluate', { expression: 'document.getElementById("same").contentWindow.registered', awaitPromise: true, returnByValue: true });
    if (result.value === 'ok') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await session.detach();

  const late = new Browser({ browser: { cdpEndpoint: endpoint }, warmSpare: false });
  t.teardown(() => late.close());
  let tools = {};
  for (let i = 0; i < 50 && Object.keys(tools).length < 3; i++) {
    tools = Object.fromEntries((await late.webmcp.listTools()).map((tool) => [tool.tool.name, tool]));
    if (Object.keys(tools).length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.same(Object.keys(tools).sort(), ['frame_echo', 'site_echo', 'top_echo'], 'Chromium replays only the top frame; the child frame\'s tool comes from the backfill');
  t.same(tools.frame_echo.tool.inputSchema, { type: 'object', properties: { value: { type: 'number' } } });
  t.same((await late.webmcp.invokeTool(tools.frame_echo.tool_ref, { value: 1 })).output.input, { value: 1 }, 'and it can be invoked');
  const { result } = await (await (await link.connection()).attachToTarget(pageTarget)).send('Runtime.evaluate', { expression: '1 + 1', returnByValue: true });
  t.equal(result.value, 2, 'the renderer is alive');
});

t.test('a renderer too busy to answer the monitor\'s set-up in time: the next listing finishes the backfill', async (t) => {
  const { endpoint, session } = await browserWithOpenPage(t, fixtures.url('webmcp-frames.html'));
  for (let i = 0; i < 100; i++) {
    const { result } = await session.send('Runtime.evaluate', { expression: 'document.getElementById("same").contentWindow.registered', awaitPromise: true, returnByValue: true });
    if (result.value === 'ok') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The page and its same-origin frame share one main thread: blocked for 8 s, longer than the
  // monitor's 5 s per set-up command, as a page on a loaded machine may be.
  await session.send('Runtime.evaluate', { expression: 'setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); }, 0); 1' });
  await session.detach();
  const late = new Browser({ browser: { cdpEndpoint: endpoint }, warmSpare: false });
  t.teardown(() => late.close());
  let names = [];
  for (let i = 0; i < 100 && !names.includes('frame_echo'); i++) {
    names = (await late.webmcp.listTools()).map((tool) => tool.tool.name);
    if (!names.includes('frame_echo')) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.ok(names.includes('frame_echo'), `the child frame's tool is found once the renderer answers (${names.join(', ')})`);
  t.ok(names.includes('top_echo'), 'and the top frame\'s');
});

t.test('from a cell: the same tools, the frozen client, and a call left unawaited is aborted with its cell', async (t) => {
  const { repl } = await openPage(t, 'cells', fixtures.url('webmcp-tools.html'));
  const listed = JSON.parse(await cell(t, repl, `
    const ownTab = (await currentTab()).targetId;
    let tools = [];
    for (let i = 0; i < 50 && tools.length < 4; i++) {
      tools = (await webmcp.listTools()).filter((tool) => tool.source.target_id === ownTab);
      if (tools.length < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.tool.name, tool.tool_ref]));
    console.log(JSON.stringify({ names: tools.map((tool) => tool.tool.name), frozen: Object.isFrozen(webmcp), same: browser.webmcp === webmcp }));`));
  t.same(listed, { names: ['echo', 'fail', 'remove_me', 'slow'], frozen: true, same: true });
  t.same(JSON.parse(await cell(t, repl, `console.log(JSON.stringify(await webmcp.invokeTool(byName.echo, { text: 'cell' })))`)).output, { echoed: { text: 'cell' } });
  t.equal(await cell(t, repl, `console.log((await webmcp.invokeTool(byName.fail)).error_text)`), 'Error: nothing to do here', 'input defaults to {}');

  const failure = JSON.parse(await cell(t, repl, `
    const caught = await webmcp.invokeTool(byName.slow, {}, { timeoutSec: 1 }).catch((error) => error);
    console.log(JSON.stringify({ name: caught.name, statusCode: caught.statusCode, code: caught.code, errorCode: caught.errorCode, id: caught.invocationId, message: caught.message }));`));
  t.match(failure, { name: 'WebMCPRequestError', statusCode: 504, code: 'outcome_unknown', errorCode: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN' });
  t.match(failure.message, new RegExp(`^WebMCP outcome_unknown, invocation ${failure.id}: `), 'Kernel\'s message: code and invocation id first');

  // The cell starts an invocation and returns without awaiting it: at once, and once the page runs it.
  for (const [label, code] of [['at once', `webmcp.invokeTool(byName.slow, {}); 'returned'`], ['after it started', `webmcp.invokeTool(byName.slow, {}); await new Promise((resolve) => setTimeout(resolve, 200)); 'returned'`]]) {
    const left = await repl.run(code);
    t.equal(left.success, true, label);
    const next = await repl.run(`await new Promise((resolve) => setTimeout(resolve, 300)); console.log('next cell')`);
    t.same(next.content, [{ type: 'text', channel: 'stdout', text: 'next cell' }], `${label}: nothing of the aborted call appears in the next cell`);
  }
  // Every invocation of slow that reached the page was cancelled (the one aborted at once may never have been sent).
  let page = {};
  for (let i = 0; i < 50; i++) {
    page = JSON.parse(await cell(t, repl, `console.log(JSON.stringify(await js("({ calls: window.calls.filter((c) => c.name === 'slow').length, cancelled: window.cancelled.filter((n) => n === 'slow').length })")))`));
    if (page.calls === page.cancelled) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.ok(page.calls >= 2, 'the timed-out call and the one left after it started reached the page');
  t.equal(page.cancelled, page.calls, 'each was cancelled in the page when its cell ended or timed out');
});

t.test('from a Playwright executor: webmcp lists and invokes the tools of the page it drives', async (t) => {
  const url = fixtures.url('webmcp-tools.html');
  const result = await host.executors.execute({
    executor: 'webmcp',
    code: `
      await page.goto(${JSON.stringify(url)});
      let tools = [];
      for (let i = 0; i < 50 && tools.length < 4; i++) {
        tools = (await webmcp.listTools()).filter((tool) => tool.source.page_url === ${JSON.stringify(url)});
        if (tools.length < 4) await page.waitForTimeout(100);
      }
      const echo = tools.find((tool) => tool.tool.name === 'echo');
      const answer = await webmcp.invokeTool(echo.tool_ref, { text: 'executor' });
      return { names: tools.map((tool) => tool.tool.name).sort(), answer: answer.output, frozen: Object.isFrozen(webmcp) };`,
  });
  t.teardown(() => host.executors.delete('webmcp').catch(() => undefined));
  t.equal(result.success, true, result.error);
  t.same(result.result, { names: ['echo', 'fail', 'remove_me', 'slow'], answer: { echoed: { text: 'executor' } }, frozen: true });
});

t.test('from a cell of a REPL attached to a browser whose page was open before: the tools are there', async (t) => {
  const { endpoint, session } = await browserWithOpenPage(t, fixtures.url('webmcp-tools.html'));
  await session.detach();
  const late = new Browser({ browser: { cdpEndpoint: endpoint }, warmSpare: false });
  t.teardown(() => late.close());
  const repl = late.repl('default');
  const names = await cell(t, repl, `
    let tools = [];
    for (let i = 0; i < 50 && tools.length < 4; i++) {
      tools = await webmcp.listTools();
      if (tools.length < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(tools.map((tool) => tool.tool.name).join(','));
    console.log((await webmcp.invokeTool(tools.find((tool) => tool.tool.name === 'echo').tool_ref, { text: 'late' })).status);`);
  t.equal(names, 'echo,fail,remove_me,slow' + 'completed');
});

t.test('a page that read modelContext on a scratch document survives a late listing (no renderer kill)', async (t) => {
  const { endpoint, link, targetId } = await browserWithOpenPage(t, fixtures.url('webmcp-scratch.html'));
  const late = new Browser({ browser: { cdpEndpoint: endpoint }, warmSpare: false });
  t.teardown(() => late.close());
  // The backfill runs on the child frame (the page was open before the monitor): it finds the
  // scratch document's ModelContext and must not touch the real one.
  t.same(await late.webmcp.listTools({ scope: { targetIds: [targetId] } }), [], 'no tools, and no failure');
  const session = await (await link.connection()).attachToTarget(targetId);
  let crashed = false;
  session.on('Inspector.targetCrashed', () => { crashed = true; });
  const { result } = await session.send('Runtime.evaluate', { expression: 'window.marker + ":" + document.getElementById("child").contentWindow.scratch', returnByValue: true, timeout: 5000 });
  t.equal(result.value, 'alive:object', 'the page and its frame kept their state: the renderer was not killed');
  t.equal(crashed, false);
});
