// The WebMCP monitor's pure parts (lib/webmcp/tool-registry.ts, invocations.ts), fed with the
// events Chromium 156 sends (docs/webmcp.md, "How it works"): refs and their lifetime, the removal
// rules Chromium leaves to us, the per-session cap, Kernel's listing shape and order, annotation
// mapping, the checks made before an invocation, and how an answer becomes a result.
import t from 'tap';
import { ToolRegistry, MAX_TOOLS_PER_SESSION, newToolRef } from '../../dist/lib/webmcp/tool-registry.js';
import { InvocationBook, checkInvocation, outcomeUnknown, toInvocation } from '../../dist/lib/webmcp/invocations.js';
import { LIMITS } from '../../dist/common/limits.js';

/** A tab `T1` (main frame id = target id) with a same-process child `F1`, and an OOPIF `O1` below it. */
function world(events = {}) {
  const registry = new ToolRegistry(events);
  registry.updateTarget({ targetId: 'T1', type: 'page', title: 'Shop', url: 'https://shop.test/cart#top', browserContextId: 'C0' });
  registry.attachSession({ sessionId: 'S1', targetId: 'T1', type: 'page' });
  registry.frameSeen('S1', { id: 'T1', url: 'https://shop.test/cart', loaderId: 'L1' });
  registry.frameSeen('S1', { id: 'F1', parentId: 'T1', url: 'https://shop.test/widget#x', loaderId: 'L2' });
  registry.frameSeen('S1', { id: 'O1', parentId: 'F1', url: '', loaderId: 'L3' });
  registry.setWindow('T1', 901);
  registry.updateTarget({ targetId: 'O1', type: 'iframe', title: '', url: 'https://pay.test/element', browserContextId: 'C0' });
  registry.attachSession({ sessionId: 'S2', targetId: 'O1', type: 'iframe', parentSessionId: 'S1' });
  registry.frameSeen('S2', { id: 'O1', loaderId: 'L9' });
  return registry;
}

const names = (registry, scope) => registry.list(scope, new Set()).map((tool) => tool.tool.name);

t.test('refs: wmcp_ + 24 characters, stable for a registration, new for a new one', async (t) => {
  t.match(newToolRef(), /^wmcp_[a-z][a-z0-9]{23}$/);
  const registry = world();
  registry.toolsAdded('S1', [{ name: 'search', description: 'Find', frameId: 'T1' }]);
  const [first] = registry.list(undefined, new Set());
  registry.toolsAdded('S1', [{ name: 'search', description: 'Find things', frameId: 'T1' }]);
  const [second] = registry.list(undefined, new Set());
  t.equal(second.tool_ref, first.tool_ref, 'a second report of the same registration keeps the ref');
  t.equal(second.tool.description, 'Find things', 'and updates it');
  registry.toolsRemoved('S1', [{ name: 'search', frameId: 'T1' }]);
  t.equal(registry.byRef(first.tool_ref), undefined);
  registry.toolsAdded('S1', [{ name: 'search', description: 'Find', frameId: 'T1' }]);
  t.not(registry.list(undefined, new Set())[0].tool_ref, first.tool_ref, 'registered again: a new ref');
});

t.test('Kernel\'s shape: nested tool, source with frame null at the top, URLs without fragments, sorted', async (t) => {
  const registry = world();
  registry.toolsAdded('S1', [
    { name: 'zeta', description: 'z', frameId: 'T1', inputSchema: { type: 'object' }, annotations: { readOnly: true, debugging: true } },
    { name: 'alpha', description: 'a', frameId: 'T1' },
    { name: 'widget', description: 'w', frameId: 'F1' },
  ]);
  registry.toolsAdded('S2', [{ name: 'pay', description: 'p', frameId: 'O1', annotations: { consequential: true } }]);
  const listed = registry.list(undefined, new Set());
  t.same(listed.map((tool) => tool.tool.name), ['alpha', 'zeta', 'widget', 'pay'], 'window, tab, frame (top first), name');
  t.same(listed[0].source, { window_id: 1, tab_id: 1, page_title: 'Shop', page_url: 'https://shop.test/cart', frame: null, target_id: 'T1' });
  t.same(listed[0].tool, { name: 'alpha', description: 'a', inputSchema: {} }, 'no schema: {}; no annotations: none');
  t.same(listed[1].tool.annotations, { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false, autosubmit: false }, 'all four booleans; debugging dropped');
  t.same(listed[2].source.frame, { frame_id: 2, url: 'https://shop.test/widget' });
  t.same(listed[3].source.frame, { frame_id: 3, url: 'https://pay.test/element' }, 'an OOPIF root: its target\'s URL when its frame has none');
  t.equal(listed[3].source.page_title, 'Shop', 'frames report their tab\'s title');
  t.equal(registry.countTools('T1'), 4, 'countTools: the tab with its frames');
  t.equal(registry.tabOf('S2'), 'T1');
});

t.test('removal rules: navigation, frame removal, detach and target destruction drop tools', async (t) => {
  const dropped = [];
  const sessions = [];
  const registry = world({
    framesDropped: (sessionId, frameIds, reason) => dropped.push([sessionId, [...frameIds].sort(), reason]),
    sessionDropped: (sessionId) => sessions.push(sessionId),
  });
  registry.toolsAdded('S1', [{ name: 'top', description: 't', frameId: 'T1' }, { name: 'child', description: 'c', frameId: 'F1' }]);
  registry.toolsAdded('S2', [{ name: 'pay', description: 'p', frameId: 'O1' }]);

  registry.frameNavigated('S1', { id: 'F1', parentId: 'T1', url: 'https://shop.test/widget', loaderId: 'L2' });
  t.same(names(registry), ['top', 'child', 'pay'], 'the same loader (a repeated report) keeps the tools');
  registry.frameUrlChanged('S1', 'F1', 'https://shop.test/widget#other');
  t.same(names(registry), ['top', 'child', 'pay'], 'a same-document navigation keeps them');

  registry.frameNavigated('S1', { id: 'F1', parentId: 'T1', url: 'https://shop.test/next', loaderId: 'L5' });
  t.same(names(registry), ['top'], 'a new document in F1 drops its tools and those of frames below it, the OOPIF included');
  t.same(dropped[0], ['S1', ['F1', 'O1'], 'navigated']);
  t.same(dropped[1], ['S2', ['O1'], 'navigated'], 'the OOPIF session is told too');

  registry.toolsAdded('S1', [{ name: 'child', description: 'c', frameId: 'F1' }]);
  registry.frameRemoved('S1', 'F1');
  t.same(names(registry), ['top'], 'a removed frame takes its tools');
  t.equal(dropped.at(-1)[2], 'removed');

  registry.toolsAdded('S2', [{ name: 'pay', description: 'p', frameId: 'O1' }]);
  registry.detachSession('S1');
  t.same(names(registry), [], 'a detached tab takes its tools and its frames\' sessions');
  t.same(sessions.sort(), ['S1', 'S2']);

  const other = world();
  other.toolsAdded('S1', [{ name: 'top', description: 't', frameId: 'T1' }]);
  other.destroyTarget('T1');
  t.same(names(other), [], 'a destroyed target too');
});

t.test('scopes: isolated contexts are left out unless asked for; target ids narrow', async (t) => {
  const registry = world();
  registry.toolsAdded('S1', [{ name: 'top', description: 't', frameId: 'T1' }]);
  registry.updateTarget({ targetId: 'T2', type: 'page', title: 'Private', url: 'https://private.test/', browserContextId: 'C9' });
  registry.attachSession({ sessionId: 'S3', targetId: 'T2', type: 'page' });
  registry.toolsAdded('S3', [{ name: 'secret', description: 's', frameId: 'T2' }]);
  t.same(registry.list(undefined, new Set(['C9'])).map((tool) => tool.tool.name), ['top'], 'an agent session\'s context is not in unscoped listings');
  t.same(registry.list({ browserContextId: 'C9' }, new Set(['C9'])).map((tool) => tool.tool.name), ['secret']);
  t.same(registry.list({ targetIds: ['T2'] }, new Set(['C9'])).map((tool) => tool.tool.name), ['secret'], 'named tabs are listed whatever their context');
  t.same(registry.tabs({ targetIds: [] }, new Set()), []);
  t.equal(registry.inScope(registry.byRef(registry.list({ targetIds: ['T2'] }, new Set())[0].tool_ref), undefined, new Set(['C9'])), false);
});

t.test('bounds: 256 tools per session, long page text cut, declarative forms recognised', async (t) => {
  const registry = world();
  const many = Array.from({ length: MAX_TOOLS_PER_SESSION + 10 }, (_, i) => ({ name: `tool${i}`, description: 'd', frameId: 'T1' }));
  registry.toolsAdded('S1', many);
  t.equal(registry.countTools('T1'), MAX_TOOLS_PER_SESSION);
  registry.toolsAdded('S2', [{ name: 'long', description: 'x'.repeat(100_000), frameId: 'O1' }]);
  t.equal(registry.list({ targetIds: ['T1'] }, new Set()).find((tool) => tool.tool.name === 'long').tool.description.length, 64 * 1024);

  const forms = world();
  forms.toolsAdded('S1', [{ name: 'book', description: 'b', frameId: 'T1', backendNodeId: 12, annotations: { autosubmit: true } }, { name: 'note', description: 'n', frameId: 'T1', backendNodeId: 13 }]);
  const [book, note] = forms.list(undefined, new Set()).map((tool) => forms.byRef(tool.tool_ref));
  t.match(book, { declarative: true, autosubmit: true });
  t.match(note, { declarative: true, autosubmit: false });
  forms.toolsAdded('S1', [{ name: 'note', description: 'n', frameId: 'T1' }]);
  t.same(forms.byRef(note.ref).inputSchema, {}, 'a later report without a schema never erases one');
});

t.test('checks before an invocation name the field', async (t) => {
  t.equal(checkInvocation('wmcp_x', {}, undefined), 60_000, 'default 60 s');
  t.equal(checkInvocation('wmcp_x', {}, 120), 120_000);
  const refused = (...args) => {
    try {
      checkInvocation(...args);
      return undefined;
    } catch (error) {
      return `${error.code}: ${error.message}`;
    }
  };
  t.match(refused('', {}), /REPL_ERR_INVALID_REQUEST: tool_ref/);
  t.match(refused('é'.repeat(129), {}), /tool_ref/, 'characters, not bytes');
  t.equal(refused('é'.repeat(128), {}), undefined);
  t.match(refused('r', 'text'), /input must be a JSON object/);
  t.match(refused('r', [1]), /input must be a JSON object/);
  const circular = {};
  circular.self = circular;
  t.match(refused('r', circular), /input is not JSON-serialisable/);
  t.match(refused('r', { s: 'x'.repeat(LIMITS.webmcpInputBytes) }), /input exceeds 1048576 bytes/);
  for (const bad of [0, 121, 1.5, '10', Number.NaN]) t.match(refused('r', {}, bad), /timeout_sec must be an integer from 1 to 120/, `timeout_sec ${String(bad)}`);
});

t.test('answers become Kernel\'s results', async (t) => {
  t.same(toInvocation({ invocationId: 'A', status: 'Completed', output: 'undefined' }), { invocation_id: 'A', status: 'completed', output: 'undefined' });
  t.same(toInvocation({ invocationId: 'A', status: 'Completed', output: null }), { invocation_id: 'A', status: 'completed', output: null });
  t.same(toInvocation({ invocationId: 'B', status: 'Error', errorText: '', exception: { description: 'TypeError: boom\n    at execute (page.html:1:2)' } }),
    { invocation_id: 'B', status: 'error', error_text: 'TypeError: boom' }, 'an empty errorText: the exception\'s first line');
  t.same(toInvocation({ invocationId: 'C', status: 'Error', errorText: 'Form validation failed' }), { invocation_id: 'C', status: 'error', error_text: 'Form validation failed' });
  t.same(toInvocation({ invocationId: 'D', status: 'Canceled', errorText: '' }), { invocation_id: 'D', status: 'canceled' }, 'nothing to say: no error_text');
  t.same(toInvocation({ invocationId: 'E', status: 'Completed', output: 'x'.repeat(LIMITS.webmcpOutputBytes + 1) }).status, 'error', 'an output too big is an error, not a giant answer');
  t.throws(() => toInvocation({ invocationId: 'F', status: 'Success' }), { code: 'REPL_ERR_INTERNAL' });
  const unknown = outcomeUnknown('echo', 'its page navigated before it answered', 'ID');
  t.match(unknown, { code: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', status: 504, data: { invocationId: 'ID' } });
  t.match(unknown.message, /"echo".*navigated.*do not retry automatically/);
});

t.test('answers are matched per session, kept when early, dropped when abandoned', async (t) => {
  const book = new InvocationBook();
  book.responded('S1', { invocationId: 'I1', status: 'Completed', output: 1 });
  t.same(await book.wait('S1', 'I1').response, { invocationId: 'I1', status: 'Completed', output: 1 }, 'an answer before the wait is kept');
  const s2 = book.wait('S2', 'I2');
  const s3 = book.wait('S3', 'I2');
  book.responded('S3', { invocationId: 'I2', status: 'Completed', output: 'three' });
  book.responded('S2', { invocationId: 'I2', status: 'Completed', output: 'two' });
  t.equal((await s2.response).output, 'two', 'the same id on two sessions is two invocations');
  t.equal((await s3.response).output, 'three');
  book.wait('S1', 'I3');
  book.abandon('S1', 'I3');
  book.responded('S1', { invocationId: 'I3', status: 'Completed', output: 'late' });
  let settled = false;
  void book.wait('S1', 'I3').response.then(() => { settled = true; });
  await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(settled, false, 'a late answer to an abandoned invocation is not kept for anyone');
});

t.test('tab, window and frame numbers are never reused, though gone tabs and frames are forgotten', async (t) => {
  const registry = world();
  registry.toolsAdded('S1', [{ name: 'top', description: 't', frameId: 'T1' }]);
  registry.destroyTarget('T1');
  registry.updateTarget({ targetId: 'T2', type: 'page', title: 'Next', url: 'https://next.test/', browserContextId: 'C0' });
  registry.attachSession({ sessionId: 'S9', targetId: 'T2', type: 'page' });
  registry.frameSeen('S9', { id: 'T2', loaderId: 'L1' });
  registry.frameSeen('S9', { id: 'F9', parentId: 'T2', loaderId: 'L2' });
  registry.setWindow('T2', 902);
  registry.toolsAdded('S9', [{ name: 'next', description: 'n', frameId: 'F9' }]);
  const [tool] = registry.list(undefined, new Set());
  t.equal(tool.source.tab_id, 2, 'the second tab is tab 2, the first one gone');
  t.equal(tool.source.window_id, 2);
  t.equal(tool.source.frame.frame_id, 5, 'numbers 1 to 4 went to the first tab\'s frames and the new tab\'s main frame');
});
