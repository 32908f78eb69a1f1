// The shadow-aware text reader of the agent tools (worker/tools/page-text.ts, issue 25), run on a
// fake DOM: text in open shadow roots appears where it renders (the shadow root in place of the
// host's light children, slotted nodes at their slot, a slot's fallback when nothing is
// assigned), unassigned light children and hidden elements never do, and every subtree without a
// shadow host keeps its native innerText.
import t from 'tap';
import { COLLECT_SHADOW_HOSTS, RENDERED_TEXT } from '../../dist/worker/tools/page-text.js';

const collectShadowHosts = new Function(`return (${COLLECT_SHADOW_HOSTS})`)();
const renderedText = new Function(`return (${RENDERED_TEXT})`)();

const BLOCKS = new Set(['div', 'p', 'table', 'tr', 'li', 'ul', 'section', 'h1']);
const view = { getComputedStyle: (element) => element.style };
const doc = { defaultView: view };

/** A light-DOM-only innerText, as Chromium's: blocks on lines of their own, shadow content left out. */
function fakeInnerText(node) {
  if (node.nodeType === 3) return node.data;
  if (node.style.display === 'none' || node.style.visibility === 'hidden') return '';
  const inner = node.childNodes.map(fakeInnerText).join('');
  return BLOCKS.has(node.localName) ? `\n${inner}\n` : node.localName === 'td' ? `${inner}\t` : inner;
}

function text(data) {
  return { nodeType: 3, data, parentNode: null, assignedSlot: null };
}

function el(localName, children = [], { style = {}, slot, shadow } = {}) {
  const element = {
    nodeType: 1,
    localName,
    childNodes: [],
    parentNode: null,
    assignedSlot: null,
    shadowRoot: null,
    slot,
    ownerDocument: doc,
    style: { display: BLOCKS.has(localName) ? (localName === 'table' ? 'table' : localName === 'tr' ? 'table-row' : 'block') : localName === 'td' ? 'table-cell' : localName === 'slot' ? 'contents' : 'inline', visibility: 'visible', ...style },
    checkVisibility() { return this.style.display !== 'none'; },
    get innerText() { return fakeInnerText(this).replace(/^\n+|\n+$/g, ''); },
  };
  for (const child of children) {
    child.parentNode = element;
    element.childNodes.push(child);
  }
  if (shadow !== undefined) {
    const root = { nodeType: 11, host: element, childNodes: [] };
    for (const child of shadow) {
      child.parentNode = root;
      root.childNodes.push(child);
    }
    element.shadowRoot = root;
    // Slots take the light children that name them (or the unnamed ones), as the browser assigns them.
    const slots = [];
    const find = (node) => {
      if (node.localName === 'slot') slots.push(node);
      for (const child of node.childNodes ?? []) find(child);
    };
    for (const child of shadow) find(child);
    for (const slotElement of slots) {
      const assigned = element.childNodes.filter((child) => (child.slot ?? undefined) === (slotElement.name ?? undefined) && (child.nodeType === 1 || slotElement.name === undefined));
      for (const node of assigned) node.assignedSlot = slotElement;
      slotElement.assignedNodes = () => assigned;
    }
  }
  return element;
}

function slot(name, fallback = []) {
  const element = el('slot', fallback);
  element.name = name;
  return element;
}

const lines = (value) => value.split('\n').map((line) => line.replace(/[ \t]+/g, ' ').trim()).filter((line) => line !== '');

t.test('without shadow roots it is the native innerText', async (t) => {
  const body = el('body', [el('h1', [text('Orders')]), el('p', [text('none yet')])]);
  t.same(collectShadowHosts(body), []);
  t.equal(renderedText(body, []), body.innerText);
});

t.test('a shadow root\'s text appears in place of its host, in document order', async (t) => {
  const list = el('order-list', [text('light text nobody sees')], {
    shadow: [el('table', [el('tr', [el('td', [text('#1034')]), el('td', [text('Sofia Marino')])]), el('tr', [el('td', [text('#1033')]), el('td', [text('Noah Becker')])])])],
  });
  const body = el('body', [el('h1', [text('Orders')]), list, el('p', [text('Page 1 of 4')])]);
  const hosts = collectShadowHosts(body);
  t.same(hosts, [list]);
  t.notMatch(body.innerText, /Sofia/, 'the native innerText misses it (why the reader exists)');
  t.same(lines(renderedText(body, hosts)), ['Orders', '#1034 Sofia Marino', '#1033 Noah Becker', 'Page 1 of 4']);
});

t.test('slotted nodes render at their slot; unassigned ones never; a slot with nothing assigned shows its fallback', async (t) => {
  const caption = el('span', [text('35 orders this month')], { slot: 'caption' });
  const stray = el('span', [text('not rendered')], { slot: 'nowhere' });
  const host = el('order-list', [caption, stray], {
    shadow: [el('div', [text('Header')]), el('div', [slot('caption')]), el('div', [slot('empty', [text('No orders match.')])])],
  });
  const body = el('body', [host]);
  t.same(lines(renderedText(body, collectShadowHosts(body))), ['Header', '35 orders this month', 'No orders match.']);
});

t.test('hidden parts stay out: display none, visibility hidden; nested shadow roots are read too', async (t) => {
  const inner = el('status-badge', [], { shadow: [text('Shipped')] });
  const host = el('order-row', [], {
    shadow: [
      el('div', [text('#1031 Lucas Novak')]),
      el('div', [text('secret')], { style: { display: 'none' } }),
      el('span', [text('also hidden')], { style: { visibility: 'hidden' } }),
      el('div', [inner]),
    ],
  });
  const body = el('body', [host]);
  const hosts = collectShadowHosts(body);
  t.same(hosts, [host, inner], 'a host inside a shadow root is found');
  t.same(lines(renderedText(body, hosts)), ['#1031 Lucas Novak', 'Shipped']);
});

t.test('a host inside a hidden element contributes nothing', async (t) => {
  const host = el('order-list', [], { shadow: [text('invisible rows')] });
  const body = el('body', [el('div', [host], { style: { display: 'none' } }), el('p', [text('shown')])]);
  t.same(lines(renderedText(body, collectShadowHosts(body))), ['shown']);
});
