// Unit tests for worker/helpers/interaction/ax-projection.ts: how Chromium's AX trees become the
// compact nodes of accessibilitySnapshot() (docs/interaction.md, "Accessibility snapshot"). The input trees are
// shaped like Chromium 156's Accessibility.getFullAXTree answers.
import t from 'tap';

import { fileInputCandidates, projectAxTree } from '../../dist/worker/helpers/interaction/ax-projection.js';

const options = { maxNodes: Infinity, interactiveOnly: false };
let nextBackendId = 100;
/** An AX node; `b: null` means no DOM node. */
function ax(id, role, { parent, children = [], name, value, ignored = false, b, props = {} } = {}) {
  return {
    nodeId: String(id),
    ignored,
    role: { type: 'role', value: role },
    ...(name === undefined ? {} : { name: { type: 'computedString', value: name } }),
    ...(value === undefined ? {} : { value: { type: 'string', value } }),
    properties: Object.entries(props).map(([pname, pvalue]) => ({ name: pname, value: { type: typeof pvalue === 'boolean' ? 'boolean' : 'token', value: pvalue } })),
    ...(parent === undefined ? {} : { parentId: String(parent) }),
    childIds: children.map(String),
    ...(b === null ? {} : { backendDOMNodeId: b ?? nextBackendId++ }),
  };
}

const page = [
  ax(1, 'RootWebArea', { children: [2], name: 'Title', b: 1 }),
  ax(2, 'none', { parent: 1, children: [3, 4, 6, 8, 10, 13, 15], ignored: true, b: 2 }),
  ax(3, 'heading', { parent: 2, children: [20], name: 'Welcome', b: 3, props: { level: 2 } }),
  ax(4, 'paragraph', { parent: 2, children: [21, 22], name: '', b: 4 }),
  ax(6, 'generic', { parent: 2, children: [7], name: '', b: 6 }),
  ax(7, 'generic', { parent: 6, children: [23], name: '', b: 7 }),
  ax(8, 'textbox', { parent: 2, children: [9], name: 'Email', value: 'a@b.c', b: 8, props: { focusable: true, focused: true, required: true, invalid: 'false' } }),
  ax(9, 'generic', { parent: 8, children: [24], name: '', b: 9, props: { editable: 'plaintext' } }),
  ax(10, 'checkbox', { parent: 2, children: [], name: 'Agree', b: 10, props: { checked: 'mixed' } }),
  ax(13, 'button', { parent: 2, children: [25], name: 'Send', b: 13, props: { disabled: true, pressed: 'false', expanded: false } }),
  ax(15, 'Iframe', { parent: 2, children: [], name: '', b: 15 }),
  ax(20, 'StaticText', { parent: 3, children: [-1], name: 'Welcome', b: 30 }),
  ax(-1, 'InlineTextBox', { parent: 20, name: 'Welcome', b: null }),
  ax(21, 'StaticText', { parent: 4, name: 'Hello  ', b: 31 }),
  ax(22, 'StaticText', { parent: 4, name: '\nworld', b: 32 }),
  ax(23, 'StaticText', { parent: 7, name: 'nested text', b: 33 }),
  ax(24, 'StaticText', { parent: 9, name: 'a@b.c', b: 34 }),
  ax(25, 'StaticText', { parent: 13, name: 'Send', b: 35 }),
];
// The child frame's tree reuses node ids of the page's tree, as Chromium's per-frame trees do.
const frame = [
  ax(1, 'RootWebArea', { children: [2], name: 'Inner', b: 50 }),
  ax(2, 'generic', { parent: 1, children: [3], ignored: true, b: 51 }),
  ax(3, 'link', { parent: 2, children: [4], name: 'Inner link', b: 52, props: { focusable: true } }),
  ax(4, 'StaticText', { parent: 3, name: 'Inner link', b: 53 }),
];

t.test('keeps element nodes with role, name, states and depth; folds text; stitches frames', async (t) => {
  const { nodes, total, truncated } = projectAxTree(page, [{ ownerBackendNodeId: 15, nodes: frame }], options);
  t.same(nodes, [
    { backendNodeId: 3, role: 'heading', name: 'Welcome', depth: 0, level: 2 },
    { backendNodeId: 4, role: 'paragraph', name: '', depth: 0, text: 'Hello world' },
    { backendNodeId: 7, role: 'generic', name: '', depth: 0, text: 'nested text' },
    { backendNodeId: 8, role: 'textbox', name: 'Email', depth: 0, value: 'a@b.c', focused: true, required: true },
    { backendNodeId: 10, role: 'checkbox', name: 'Agree', depth: 0, checked: 'mixed' },
    { backendNodeId: 13, role: 'button', name: 'Send', depth: 0, pressed: false, expanded: false, disabled: true },
    { backendNodeId: 15, role: 'Iframe', name: '', depth: 0 },
    { backendNodeId: 52, role: 'link', name: 'Inner link', depth: 1 },
  ]);
  t.equal(total, 8);
  t.equal(truncated, false);
});

t.test('a frame whose owner is unknown is left out; frames are optional', async (t) => {
  const { nodes } = projectAxTree(page, [{ ownerBackendNodeId: 999, nodes: frame }], options);
  t.notOk(nodes.some((node) => node.name === 'Inner link'));
  t.equal(projectAxTree(page, [], options).nodes.length, 7);
});

t.test('maxNodes cuts the list and says how many there were', async (t) => {
  const { nodes, total, truncated } = projectAxTree(page, [], { maxNodes: 2, interactiveOnly: false });
  t.same(nodes.map((node) => node.backendNodeId), [3, 4]);
  t.equal(total, 7);
  t.equal(truncated, true);
});

t.test('interactiveOnly keeps widgets and focusable nodes', async (t) => {
  const { nodes } = projectAxTree(page, [{ ownerBackendNodeId: 15, nodes: frame }], { maxNodes: Infinity, interactiveOnly: true });
  t.same(nodes.map((node) => [node.role, node.depth]), [['textbox', 0], ['checkbox', 0], ['button', 0], ['link', 0]]);
});

t.test('depth follows nesting among the kept nodes; values are never "undefined"', async (t) => {
  const nested = [
    ax(1, 'RootWebArea', { children: [2], b: 1 }),
    ax(2, 'main', { parent: 1, children: [3], name: '', b: 2 }),
    ax(3, 'generic', { parent: 2, children: [4], name: '', b: 3 }),
    ax(4, 'list', { parent: 3, children: [5], name: '', b: 4 }),
    ax(5, 'listitem', { parent: 4, children: [6, 7], name: '', b: 5 }),
    ax(6, 'ListMarker', { parent: 5, name: '• ', b: 6 }),
    ax(7, 'StaticText', { parent: 5, name: 'Item', b: 7 }),
    { ...ax(8, 'textbox', { parent: 2, name: 'No value', b: 8 }), value: { type: 'string' } },
  ];
  nested[1].childIds.push('8');
  const { nodes } = projectAxTree(nested, [], options);
  t.same(nodes, [
    { backendNodeId: 2, role: 'main', name: '', depth: 0 },
    { backendNodeId: 4, role: 'list', name: '', depth: 1 },
    { backendNodeId: 5, role: 'listitem', name: '', depth: 2, text: 'Item' },
    { backendNodeId: 8, role: 'textbox', name: 'No value', depth: 1 },
  ]);
});

t.test('long text is cut to 200 characters', async (t) => {
  const tree = [
    ax(1, 'RootWebArea', { children: [2], b: 1 }),
    ax(2, 'paragraph', { parent: 1, children: [3], name: '', b: 2 }),
    ax(3, 'StaticText', { parent: 2, name: 'x'.repeat(500), b: 3 }),
  ];
  const [paragraph] = projectAxTree(tree, [], options).nodes;
  t.equal(paragraph.text.length, 200);
  t.ok(paragraph.text.endsWith('…'));
});

t.test('a label of a control is dropped (the control is named by it); a label of nothing is named by its text', async (t) => {
  // Chromium's relation from a control to the elements that label it.
  const labelledBy = (label) => ({ name: 'labelledby', value: { type: 'nodeList', relatedNodes: [{ backendDOMNodeId: label, text: '' }] } });
  const tree = [
    ax(1, 'RootWebArea', { children: [2, 4, 6], b: 1 }),
    ax(2, 'LabelText', { parent: 1, children: [3, 5], name: '', b: 2 }),
    ax(3, 'StaticText', { parent: 2, name: 'Nickname ', b: 3 }),
    ax(5, 'textbox', { parent: 2, name: 'Nickname', b: 5 }),
    ax(4, 'LabelText', { parent: 1, children: [7], name: '', b: 4 }),
    ax(7, 'StaticText', { parent: 4, name: 'Terms apply', b: 7 }),
    ax(6, 'checkbox', { parent: 1, name: 'Agree', b: 6 }),
  ];
  tree[3].properties.push(labelledBy(2));
  t.same(projectAxTree(tree, [], options).nodes, [
    { backendNodeId: 5, role: 'textbox', name: 'Nickname', depth: 0 },
    { backendNodeId: 4, role: 'LabelText', name: 'Terms apply', depth: 0 },
    { backendNodeId: 6, role: 'checkbox', name: 'Agree', depth: 0 },
  ]);
});

t.test('date and time segments are named once and lose their wrappers; a real "Bora Bora" keeps its name', async (t) => {
  const tree = [
    ax(1, 'RootWebArea', { children: [2, 9], b: 1 }),
    ax(2, 'Date', { parent: 1, children: [3, 8], name: 'Departure', b: 2, props: { focusable: true } }),
    ax(3, 'generic', { parent: 2, children: [4], name: '', b: 3 }),
    ax(4, 'generic', { parent: 3, children: [5, 6, 7], name: '', b: 4 }),
    ax(5, 'spinbutton', { parent: 4, name: 'Month Month', value: '0', b: 5 }),
    ax(6, 'StaticText', { parent: 4, name: '/', b: 6 }),
    ax(7, 'spinbutton', { parent: 4, name: 'Day Day', b: 7 }),
    ax(8, 'button', { parent: 2, name: 'Show date picker Show date picker', b: 8 }),
    ax(9, 'button', { parent: 1, children: [10], name: 'Bora Bora', b: 9 }),
    ax(10, 'StaticText', { parent: 9, name: 'Bora Bora', b: 10 }),
  ];
  t.same(projectAxTree(tree, [], options).nodes.map(({ role, name, depth }) => [role, name, depth]), [
    ['Date', 'Departure', 0],
    ['spinbutton', 'Month', 1],
    ['spinbutton', 'Day', 1],
    ['button', 'Show date picker', 1],
    ['button', 'Bora Bora', 0],
  ]);
});

t.test('file inputs: the candidates are childless buttons with a value; the DOM facts make them file inputs', async (t) => {
  const tree = [
    ax(1, 'RootWebArea', { children: [2, 3, 4], b: 1 }),
    ax(2, 'button', { parent: 1, name: 'Passport', value: 'No file chosen', b: 2 }),
    ax(3, 'button', { parent: 1, children: [5], name: 'Send', b: 3 }),
    ax(4, 'button', { parent: 1, name: 'Extras', value: 'a.pdf, b.pdf', b: 4 }),
    ax(5, 'StaticText', { parent: 3, name: 'Send', b: 5 }),
  ];
  const frameTree = [ax(1, 'RootWebArea', { children: [2], b: 60 }), ax(2, 'button', { parent: 1, name: 'Inner', value: 'x', b: 61 })];
  t.same(fileInputCandidates([tree, frameTree]), [2, 4, 61]);
  const fileInputs = new Map([[2, { multiple: false }], [4, { multiple: true }]]);
  t.same(projectAxTree(tree, [], options, { fileInputs }).nodes, [
    { backendNodeId: 2, role: 'file input', name: 'Passport', depth: 0, value: 'No file chosen', fileInput: true },
    { backendNodeId: 3, role: 'button', name: 'Send', depth: 0 },
    { backendNodeId: 4, role: 'file input', name: 'Extras', depth: 0, value: 'a.pdf, b.pdf', fileInput: true, multiple: true },
  ]);
  t.equal(projectAxTree(tree, [], options).nodes[0].role, 'button', 'without DOM facts a button stays a button');
});
