// Issue 25: every message an agent tool answers names tools and refs, never the REPL's helpers,
// CDP methods or backend node ids (docs/agent-tools.md "Messages"). An MCP client (the SDK's
// Client over an in-memory transport, on a real Chromium and real pages on 127.0.0.1) walks the
// error paths of every tool, and what a successful action says about what it set off (a dialog,
// a popup, a download). Every text a tool answers is held to `speaksInternals`, and each error to
// the words that tell the model what to do next.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Browser, BrowserTools, createMcpServer } from '../../dist/lib/index.js';
import { HELPER_NAMES, speaksInternals } from '../../dist/lib/tools/tool-wording.js';
import { startFixtureServer } from '../helpers/fixture-server.mjs';

t.setTimeout(240_000);

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
const host = new Browser({ browser: { cdpEndpoint: null }, warmSpare: false });
t.teardown(() => host.close());

/** An MCP client of a server over one tool session; `call` answers { text, isError }. */
async function connect(t, options = {}) {
  const tools = new BrowserTools({ host, permission: 'allow', settleMs: 0, timeoutMs: 4_000, coveredTimeoutMs: 1_000, ...options.tools });
  const server = createMcpServer({ tools, sessionId: 'messages', caps: options.caps });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'message-walk', version: '1.0.0' });
  await client.connect(clientSide);
  t.teardown(async () => {
    await client.close();
    await server.close();
    await tools.close();
  });
  const texts = [];
  return {
    texts,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const text = result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');
      texts.push({ name, text });
      return { text, isError: result.isError === true };
    },
  };
}

/** The ref of the element whose snapshot line holds `label`. */
function refOf(text, label) {
  const line = text.split('\n').find((candidate) => /^\[\d+\]/.test(candidate) && candidate.includes(label));
  if (line === undefined) throw new Error(`no element line with ${JSON.stringify(label)} in:\n${text}`);
  return Number(/^\[(\d+)\]/.exec(line)[1]);
}

/** An error result whose message matches `pattern`. */
async function fails(t, mcp, name, args, pattern, what) {
  const { text, isError } = await mcp.call(name, args);
  t.ok(isError, `${what}: an error result`);
  t.match(text, pattern, `${what}: ${text.split('\n')[0]}`);
  return text;
}

t.test('the error paths of every page tool speak of tools and refs', async (t) => {
  const mcp = await connect(t);
  const page = fixtures.url('agent-errors.html');

  // Before any page: page tools, going back.
  await fails(t, mcp, 'webmcp_list_tools', {}, /no page yet: open one first \(browser_open\)/, 'page tools before a page');
  await fails(t, mcp, 'browser_back', {}, /browser_back: there is no previous page in this tab's history/, 'no page to go back to');
  await fails(t, mcp, 'browser_open', { url: 'file:///etc/passwd' }, /file: URLs are refused/, 'a file: URL');
  await fails(t, mcp, 'browser_open', { url: 'not a url' }, /not an absolute URL/, 'a relative URL');
  await fails(t, mcp, 'browser_open', { url: `http://127.0.0.1:${fixtures.port + 1 === 65536 ? 1 : 9}/` }, /browser_open: navigation to .* failed: net::ERR_/, 'a refused connection');

  let { text } = await mcp.call('browser_open', { url: page });
  const nameRef = refOf(text, 'Display name');
  await fails(t, mcp, 'browser_click', { ref: refOf(text, 'Delete account') }, /browser_click: \[\d+\] button "Delete account" could not be clicked within 4 s: it stayed disabled/, 'a disabled button');
  await fails(t, mcp, 'browser_type', { ref: refOf(text, 'Member since'), text: 'x' }, /browser_type: \[\d+\] input "Member since" could not be typed into within 4 s: it stayed not editable \(read-only\)/, 'a read-only field');
  await fails(t, mcp, 'browser_type', { ref: refOf(text, 'Save'), text: 'x' }, /browser_type: \[\d+\] button "Save" could not be typed into within 4 s: it stayed not editable/, 'typing into a button');
  await fails(t, mcp, 'browser_type', { ref: refOf(text, 'Birthday'), text: 'tomorrow' }, /browser_type: \[\d+\] input:date "Birthday" rejected the text: .*give a value in the field's own format/, 'a date in the wrong format');
  await fails(t, mcp, 'browser_select_option', { ref: refOf(text, 'Plan'), values: ['Gold'] }, /no option "Gold"; options: "Free", "Pro"/, 'an option that does not exist');
  await fails(t, mcp, 'browser_select_option', { ref: nameRef, values: ['x'] }, /not a <select>/, 'choosing in a text field');
  await fails(t, mcp, 'browser_file_upload', { ref: nameRef, files: [{ name: 'a.txt', content: 'a' }] }, /browser_file_upload: \[\d+\] input "Display name" is not a file input; give the ref of an input:file element/, 'uploading to a text field');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar'), paths: ['nothing-here.png'] }, /does not exist/, 'a workspace file that does not exist');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar'), paths: ['../../etc/passwd'] }, /outside the session's workspace/, 'a path that leaves the workspace');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar'), files: [{ name: '../a.txt', content: 'a' }] }, /files\[0\]\.name must be a plain file name/, 'an inline file named with a folder');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar'), files: [{ name: 'a.bin', content: '%%%', encoding: 'base64' }] }, /files\[0\]\.content is not valid base64/, 'content that is not base64');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar'), files: [{ name: 'big.bin', content: 'x'.repeat(5 * 1024 * 1024 + 1) }] }, /more than the 5242880 a call may hand over/, 'more than the inline cap');
  await fails(t, mcp, 'browser_file_upload', { ref: refOf(text, 'Avatar') }, /needs files \(their content\) or paths/, 'nothing to upload');
  await fails(t, mcp, 'browser_press_key', { key: 'Hyper' }, /browser_press_key: unknown key "Hyper": give a key name such as "Enter"/, 'an unknown key');
  await fails(t, mcp, 'browser_wait_for', { text: 'never on this page', timeout_ms: 300 }, /browser_wait_for: text "never on this page" did not appear within 0 s|did not appear within/, 'text that never appears');
  await fails(t, mcp, 'browser_wait_for', { selector: '##', timeout_ms: 300 }, /browser_wait_for: /, 'an invalid selector');
  await fails(t, mcp, 'browser_wait_for', { text: 'a', selector: 'b' }, /exactly one of text or selector/, 'both a text and a selector');
  await fails(t, mcp, 'browser_handle_dialog', { accept: true }, /browser_handle_dialog: no dialog is open on the page/, 'no dialog to answer');
  await fails(t, mcp, 'browser_find', { query: '(', regex: true }, /invalid regular expression/, 'an invalid regular expression');
  await fails(t, mcp, 'browser_tabs', { action: 'select' }, /needs an index \(list the tabs first\)/, 'select without an index');
  await fails(t, mcp, 'browser_tabs', { action: 'select', index: 7 }, /browser_tabs: no tab 7; this session has 1 \(0\.\.0\)/, 'a tab that does not exist');
  await fails(t, mcp, 'browser_tabs', { action: 'close', index: 0 }, /the session's only tab; close the session instead \(browser_close\)/, 'closing the only tab');
  await fails(t, mcp, 'browser_screenshot', { path: '/etc/shot.png' }, /outside the session's workspace/, 'a screenshot path outside the workspace');
  await fails(t, mcp, 'browser_scroll', { ref: 99_999 }, /ref 99999 is stale: it is not in the latest snapshot; take a new snapshot \(browser_snapshot\)/, 'a ref never given');
  await fails(t, mcp, 'webmcp_invoke_tool', { tool_ref: 'no-such-tool' }, /webmcp_invoke_tool: tool_ref "no-such-tool" names no page tool of this session .*list them again with webmcp_list_tools/, 'a page tool that does not exist');

  // A cover: the action fails fast, naming the cover and its control by ref.
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Show the promotion') }));
  t.match(text, /^Overlay: <div id="cover"> covers the page; dismiss it first with one of its controls: \[\d+\]/m, 'the snapshot says a layer covers the page');
  const dismiss = refOf(text, 'No thanks');
  t.ok(text.indexOf('No thanks') < text.indexOf('Display name'), 'the cover\'s control is listed before the page under it');
  const covered = await fails(t, mcp, 'browser_type', { ref: nameRef, text: 'Ada' }, new RegExp(`browser_type: \\[${nameRef}\\] input "Display name" cannot be typed into: it is covered by <div id="cover">; dismiss it first with browser_click on \\[${dismiss}\\] button "No thanks"`), 'typing under a cover');
  t.notMatch(covered, /within/, 'it did not wait out the timeout');
  await fails(t, mcp, 'browser_click', { ref: refOf(text, 'Save') }, new RegExp(`browser_click: \\[\\d+\\] button "Save" cannot be clicked: it is covered by .*\\[${dismiss}\\] button "No thanks"`), 'clicking under a cover');
  ({ text } = await mcp.call('browser_click', { ref: dismiss }));
  t.notMatch(text, /^Overlay:/m, 'dismissed: no overlay line any more');

  // A dialog: the action that opened it says so; the others are refused with the way out.
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Reset preferences'), snapshot: 'diff' }));
  t.match(text, /It opened a confirm dialog "Reset every preference\?", which holds the page: answer it with browser_handle_dialog\./, 'the click reports the dialog it opened');
  t.notMatch(text, /A new document/, 'the dialog is no new document');
  await fails(t, mcp, 'browser_click', { ref: dismiss }, /browser_click: a confirm dialog \("Reset every preference\?"\) holds the page; answer it with browser_handle_dialog/, 'a click while a dialog holds the page');
  await fails(t, mcp, 'browser_type', { ref: nameRef, text: 'x' }, /browser_type: a confirm dialog .* holds the page; answer it with browser_handle_dialog/, 'typing while a dialog holds the page');
  ({ text } = await mcp.call('browser_handle_dialog', { accept: false, snapshot: 'diff' }));
  t.match(text, /dismissed the dialog/);
  t.notMatch(text, /A new document/, 'answering a dialog is no new document (issue 25, item 8)');
  t.match(text, /\+ Kept\./, 'the diff shows what the page did with the answer');

  // A stale ref after a navigation.
  ({ text } = await mcp.call('browser_snapshot'));
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Go on') }));
  await fails(t, mcp, 'browser_click', { ref: nameRef }, /ref \d+ is stale: .*take a new snapshot \(browser_snapshot\)/, 'a ref of the page before a navigation');

  for (const { name, text: said } of mcp.texts) {
    t.notOk(speaksInternals(said), `${name} speaks of tools and refs only: ${said.split('\n')[0]}`);
  }
});

t.test('what an action set off: a download and a popup, in the tools\' words', async (t) => {
  const mcp = await connect(t);
  let { text } = await mcp.call('browser_open', { url: fixtures.url('agent-form.html') });
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Download report'), snapshot: 'none' }));
  t.match(text, /Downloaded "report\.txt": saved as downloads\/report\.txt \(\d+ bytes\); browser_downloads lists it\./, 'the click says what it downloaded');
  ({ text } = await mcp.call('browser_downloads'));
  t.match(text, /^downloads\/report\.txt \(\d+ bytes\) from http/m, 'and the listing has it at once');
  ({ text } = await mcp.call('browser_snapshot'));
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Open popup') }));
  t.match(text, /It opened a new tab, tab \[1\] ".*" http:\/\/127\.0\.0\.1:\d+\/agent-next\.html\?popup=1, now the active tab/, 'the click says which tab it opened');
  t.match(text, /^URL: http:\/\/127\.0\.0\.1:\d+\/agent-next\.html\?popup=1$/m, 'and its snapshot is of that tab');
  ({ text } = await mcp.call('browser_tabs', { action: 'list' }));
  t.match(text, /^0: .*agent-form\.html\n1: \(active\) .*popup=1$/, 'tabs keep their opening order');
  for (const { name, text: said } of mcp.texts) t.notOk(speaksInternals(said), `${name}: ${said.split('\n')[0]}`);
});

t.test('the code tools are a capability: not listed unless the operator turns them on', async (t) => {
  const plain = await connect(t);
  t.equal((await plain.call('browser_repl', { code: '1' })).isError, true, 'without caps the tool does not exist');
  const withCode = await connect(t, { caps: ['code'] });
  const { text, isError } = await withCode.call('browser_repl', { code: 'repl.write(String(6 * 7))' });
  t.notOk(isError);
  t.equal(text, '42');
});

t.test('speaksInternals catches helper names, CDP methods and backend node ids', async (t) => {
  for (const name of HELPER_NAMES) t.ok(speaksInternals(`handle it with ${name.replace('(', '')}(…)`), name);
  t.ok(speaksInternals('Runtime.evaluate timed out'));
  t.ok(speaksInternals('backend node 28 was not editable'));
  t.notOk(speaksInternals('browser_click: [12] button "Save" could not be clicked within 30 s: it stayed disabled'));
});

t.test('a click that something moved away from is stopped before the page sees it and tried again: in the page and in a cross-site frame', async (t) => {
  const mcp = await connect(t);
  const url = `${fixtures.url('agent-dodge.html')}?frame=${encodeURIComponent(`http://localhost:${fixtures.port}/agent-dodge-frame.html`)}`;
  let { text } = await mcp.call('browser_open', { url });
  for (let i = 0; i < 50 && !/Pay now/.test(text); i++) ({ text } = await mcp.call('browser_snapshot'));
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Catch me') }));
  t.match(text, /^clicked \[\d+\] button "Catch me"/, 'the click is reported done');
  t.match(text, /clicks: 1, stray: 0/, 'once it reached the button, which moved away from the first try; the miss never reached the page');
  ({ text } = await mcp.call('browser_click', { ref: refOf(text, 'Pay now') }));
  t.match(text, /^clicked \[\d+\] button "Pay now"/);
  t.match(text, /paid: 1, stray: 0/, 'the same in the cross-site frame');
});
