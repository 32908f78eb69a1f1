// accessibilitySnapshot() against a real headless Chromium, through POST /repl: the compact node
// shape, frames stitched in, size bounds, and snapshot nodes used as targets by click,
// fillInput, waitForElement and uploadFile, including the stale-node error after a re-render.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interactionApi } from '../helpers/interaction-api.mjs';

const page = await interactionApi(t);
const { ok, value, failure, open } = page;

t.beforeEach(() => open('interaction-snapshot.html'));

t.test('compact nodes: element roles only, text folded, states, hierarchy, frames stitched in', async (t) => {
  const snapshot = await value('accessibilitySnapshot()');
  t.match(snapshot, { url: page.fixtures.url('interaction-snapshot.html'), title: 'Snapshot fixture' });
  t.notOk('truncated' in snapshot);
  const roles = snapshot.nodes.map((node) => node.role);
  for (const absent of ['StaticText', 'InlineTextBox', 'RootWebArea']) t.notOk(roles.includes(absent), `no ${absent} nodes`);
  for (const node of snapshot.nodes) {
    t.ok(Number.isInteger(node.backendNodeId) && node.backendNodeId > 0, 'every node has a backendNodeId');
    t.type(node.depth, 'number');
    t.not(node.value, 'undefined');
  }
  const find = (role, name) => snapshot.nodes.find((node) => node.role === role && node.name === name);
  t.match(find('heading', 'Book a flight'), { level: 1 });
  t.match(snapshot.nodes.find((node) => node.role === 'paragraph'), { name: '', text: 'Pick your route below.' });
  t.match(find('textbox', 'From'), { value: 'SFO' });
  t.match(find('checkbox', 'Flexible dates'), { checked: true });
  t.match(find('button', 'Unavailable'), { disabled: true });
  t.notOk('text' in find('button', 'Search flights'), 'text equal to the name is not repeated');
  const main = snapshot.nodes.find((node) => node.role === 'main');
  t.equal(find('button', 'Search flights').depth, main.depth + 1, 'children are one level deeper');
  const iframe = snapshot.nodes.find((node) => node.role === 'Iframe');
  const inner = find('button', 'Frame button');
  t.ok(inner, 'the same-origin frame is part of the snapshot');
  t.equal(inner.depth, iframe.depth + 1, 'under its iframe');
  t.ok(snapshot.nodes.indexOf(inner) > snapshot.nodes.indexOf(iframe));
});

t.test('maxNodes bounds the list; interactiveOnly keeps the widgets', async (t) => {
  const small = await value('accessibilitySnapshot({ maxNodes: 3 })');
  t.equal(small.nodes.length, 3);
  t.equal(small.truncated, true);
  t.ok(small.totalNodes > 3);
  const widgets = await value('accessibilitySnapshot({ interactiveOnly: true })');
  t.ok(widgets.nodes.length > 0);
  t.ok(widgets.nodes.every((node) => ['textbox', 'checkbox', 'button', 'file input'].includes(node.role)), widgets.nodes.map((node) => node.role).join());
  t.equal((await failure('await accessibilitySnapshot({ maxNodes: 0 })')).message,
    'accessibilitySnapshot: maxNodes must be a positive integer (or Infinity)');
  t.equal((await failure('await accessibilitySnapshot({ depth: 1 })')).message, 'accessibilitySnapshot: unknown option: depth');
});

t.test('snapshot nodes are targets for click, fillInput, waitForElement and uploadFile', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'interaction-upload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'pass.txt');
  writeFileSync(file, 'boarding');
  const result = await value(`(async () => {
    const { nodes } = await accessibilitySnapshot();
    const find = (role, name) => nodes.find((node) => node.role === role && node.name === name);
    const search = find('button', 'Search flights');
    await click(search);
    const shown = await waitForElement('#clicked', { timeoutSec: 5 });
    await fillInput(find('textbox', 'From'), 'LAX');
    await click(find('button', 'Frame button'));
    const upload = nodes.find((node) => node.name === 'Boarding pass');
    await uploadFile(upload, ${JSON.stringify(file)});
    return {
      shown,
      visible: await waitForElement(search, { state: 'visible', timeoutSec: 1 }),
      attached: await waitForElement(search, { state: 'attached', timeoutSec: 1 }),
      from: await js('document.getElementById("from").value'),
      frameClicks: await js('document.querySelector("iframe").contentWindow.clicks.length'),
      uploaded: await js('document.getElementById("upload").files[0]?.name'),
    };
  })()`);
  t.same(result, { shown: true, visible: true, attached: true, from: 'LAX', frameClicks: 1, uploaded: 'pass.txt' });
});

t.test('a node clicked after the DOM was replaced fails at once, telling the agent to snapshot again', async (t) => {
  await ok(`globalThis.oldSearch = (await accessibilitySnapshot()).nodes.find((node) => node.name === 'Search flights'); await js('rerender()')`);
  const caught = await failure('await click(oldSearch, { timeoutSec: 30 })');
  t.equal(caught.code, 'REPL_ERR_TARGET_NOT_FOUND');
  // The node is named by its role and name, not only its number.
  t.equal(caught.message,
    `click: node ${await value('oldSearch.backendNodeId')} (button "Search flights") is stale: it is no longer in the document (the page navigated or re-rendered); take a new accessibilitySnapshot() and use its nodes`);
  t.match((await failure(`await fillInput(oldSearch, 'x')`)).message, /^fillInput: node \d+ \(button "Search flights"\) is stale: .* take a new accessibilitySnapshot\(\)/);
  // A bare id has nothing else to name it by.
  t.match((await failure(`await click({ backendNodeId: oldSearch.backendNodeId })`)).message, /^click: backend node \d+ is stale: /);
  t.same(await value(`[await waitForElement(oldSearch, { state: 'detached', timeoutSec: 1 }), await waitForElement(oldSearch, { state: 'hidden', timeoutSec: 1 })]`), [true, true]);
  // After a navigation the node id resolves to nothing at all: the same error.
  await open('interaction-waits.html');
  t.equal((await failure('await click(oldSearch)')).code, 'REPL_ERR_TARGET_NOT_FOUND');
  t.same(await value(`[await waitForElement(oldSearch, { state: 'detached' }), await waitForElement(oldSearch, { state: 'visible', timeoutSec: 5 })]`), [true, false]);
});

t.test('a closed shadow root is reachable through its snapshot node', async (t) => {
  await open('interaction-frames.html');
  const clicks = await value(`(async () => {
    const { nodes } = await accessibilitySnapshot();
    await click(nodes.find((node) => node.name === 'Closed button'));
    return js('clicks');
  })()`);
  t.same(clicks, [{ id: 'closed-button' }]);
});

t.test('labels, date inputs and file inputs read cleanly', async (t) => {
  await open('semantic-targets.html');
  const { nodes } = await value('accessibilitySnapshot()');
  const labels = nodes.filter((node) => node.role === 'LabelText');
  // Labels of listed controls are said by the controls' names. What stays is named: the label of
  // a hidden control (a styled upload: the label is all there is to see) and the label of nothing.
  t.same(labels.map(({ name, text }) => ({ name, text })), [{ name: 'Styled upload', text: undefined }, { name: 'Terms apply', text: undefined }]);
  t.notOk(nodes.some((node) => node.name !== '' && /^(.+) \1$/.test(node.name)), 'no doubled names');
  const date = nodes.find((node) => node.role === 'Date');
  t.match(date, { name: 'Departure date' });
  const segments = nodes.filter((node) => node.depth === date.depth + 1 && nodes.indexOf(node) > nodes.indexOf(date)).slice(0, 4);
  t.same(segments.map(({ role, name }) => [role, name]), [['spinbutton', 'Month'], ['spinbutton', 'Day'], ['spinbutton', 'Year'], ['button', 'Show date picker']],
    'segments sit right under the date input, without wrappers, named once');
  t.match(nodes.find((node) => node.name === 'Passport scan'), { role: 'file input', fileInput: true, value: 'No file chosen' });
  t.notOk('multiple' in nodes.find((node) => node.name === 'Passport scan'));
  t.match(nodes.find((node) => node.name === 'Extra documents'), { role: 'file input', fileInput: true, multiple: true });
  t.notOk(nodes.some((node) => node.role === 'button' && node.value === 'No file chosen'), 'no file input is left as a button');
  const nickname = nodes.find((node) => node.name === 'Nickname');
  t.equal(nickname.depth, nodes.find((node) => node.name === 'Email address').depth, 'a control inside its label moves up to the label\'s place');
  t.match(nodes.find((node) => node.role === 'form'), { depth: nickname.depth - 1 });
});

t.test('issue 25: the text of shadow roots, slotted text and text straight in a shadow root are in the snapshot; unrendered light text is not', async (t) => {
  await open('agent-shadow.html');
  const snapshot = await value('accessibilitySnapshot()');
  const said = snapshot.nodes.map((node) => `${node.name} ${node.text ?? ''}`).join('\n');
  // The accessibility tree is what is rendered: a closed root's text too, as a screen reader reads it.
  for (const text of ['Everyone in the Lisbon office', 'Ana Ferreira', 'Rui Santos', 'Message Rui', '2 people online', 'Updated daily.', 'closed shadow text']) t.match(said, text, text);
  for (const text of ['light text the list never shows', 'Nobody matches your search.']) t.notMatch(said, text, `not: ${text}`);
});
