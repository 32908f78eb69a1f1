// Overlay detection of the agent tools (worker/tools/page-overlay.ts, issue 25), run on a fake
// document whose hit test is a list of boxes, topmost first: a layer (position: fixed, or a modal
// of the top layer) hit at the centre and at half or more of a 5×5 grid covers the page; a sticky
// header or a corner widget does not; the controls of a cover are what a hit test reaches in it
// (or in another layer: a backdrop and its dialog box are siblings), its own first.
import t from 'tap';
import { OVERLAY_LIBRARY } from '../../dist/worker/tools/page-overlay.js';

const library = new Function(`${OVERLAY_LIBRARY}; return { findOverlay, coverControls, layerOf, describeLayer, layerLabel };`)();

const VIEWPORT = { width: 1000, height: 800 };

/** A fake document: `boxes` topmost first, each an element with a rect; elementFromPoint returns the first that holds the point. */
function page(build) {
  const boxes = [];
  const view = { getComputedStyle: (element) => element.style, innerWidth: VIEWPORT.width, innerHeight: VIEWPORT.height };
  const doc = {
    defaultView: view,
    documentElement: { clientWidth: VIEWPORT.width, clientHeight: VIEWPORT.height },
    elementFromPoint(x, y) {
      return boxes.find(({ rect }) => x >= rect.left && x < rect.left + rect.width && y >= rect.top && y < rect.top + rect.height)?.element ?? body;
    },
  };
  const make = (localName, { parent = null, position = 'static', rect, id = '', modal = false, text = '' } = {}) => {
    const element = {
      nodeType: 1, localName, id, parentNode: parent, assignedSlot: null, shadowRoot: null, ownerDocument: doc, innerText: text,
      style: { position },
      getAttribute: (name) => (name === 'class' ? '' : null),
      matches: (selector) => modal && selector === ':modal',
      getClientRects: () => (rect === undefined ? [] : [rect]),
    };
    if (rect !== undefined) boxes.push({ element, rect });
    return element;
  };
  const html = make('html');
  const body = make('body', { parent: html });
  const rect = (left, top, width, height) => ({ left, top, width, height });
  build({ make, body, rect, boxes });
  return doc;
}

t.test('a full-page backdrop with a banner box covers the page; its buttons are the cover\'s controls', async (t) => {
  let accept, settings, field, backdrop;
  const doc = page(({ make, body, rect }) => {
    // Topmost first: the banner's buttons, the banner box, the backdrop, the page's field.
    accept = make('button', { parent: null, rect: rect(400, 640, 120, 40), text: 'Accept all' });
    settings = make('a', { parent: null, rect: rect(540, 640, 120, 40), text: 'Preferences' });
    const box = make('div', { parent: body, position: 'fixed', rect: rect(200, 600, 600, 150), id: 'banner-box', text: 'We value your privacy' });
    accept.parentNode = box;
    settings.parentNode = box;
    backdrop = make('div', { parent: body, position: 'fixed', rect: rect(0, 0, 1000, 800), id: 'cookie-banner' });
    field = make('input', { parent: body, rect: rect(300, 200, 300, 30) });
  });
  const cover = library.findOverlay(doc);
  t.equal(cover, backdrop, 'the backdrop covers the centre and most of the grid');
  t.equal(library.describeLayer(cover), '<div id="cookie-banner">');
  t.same(library.coverControls(cover, [field, accept, settings]), [accept, settings], 'the banner\'s controls (a sibling layer), not the field under it');
});

t.test('a sticky header, a corner chat button and an open page are no cover', async (t) => {
  const header = page(({ make, body, rect }) => {
    make('header', { parent: body, position: 'fixed', rect: rect(0, 0, 1000, 90) });
    make('button', { parent: body, position: 'fixed', rect: rect(920, 720, 60, 60) });
    make('main', { parent: body, rect: rect(0, 90, 1000, 710) });
  });
  t.equal(library.findOverlay(header), null);
  t.equal(library.findOverlay(page(() => undefined)), null, 'nothing but the body');
});

t.test('a modal dialog of the top layer covers the page without being fixed', async (t) => {
  let dialog;
  const doc = page(({ make, body, rect }) => {
    dialog = make('dialog', { parent: body, rect: rect(0, 0, 1000, 800), modal: true, text: 'Delete this order?' });
  });
  t.equal(library.findOverlay(doc), dialog);
  t.equal(library.layerLabel(dialog), 'Delete this order?');
});

t.test('a centred box alone (no backdrop) covers the page only when it spans most of it', async (t) => {
  const small = page(({ make, body, rect }) => make('div', { parent: body, position: 'fixed', rect: rect(350, 300, 300, 200) }));
  t.equal(library.findOverlay(small), null, 'hit at the centre, but at one point of 25');
  let big;
  const large = page(({ make, body, rect }) => { big = make('div', { parent: body, position: 'fixed', rect: rect(50, 50, 900, 700) }); });
  t.equal(library.findOverlay(large), big);
});

t.test('the cover\'s controls: only what a hit test reaches; a cover that is no layer offers only what it holds', async (t) => {
  let hidden, reachable, inside;
  let plainCover;
  const doc = page(({ make, body, rect }) => {
    plainCover = make('div', { parent: body, rect: rect(0, 0, 500, 500), id: 'spinner' });
    inside = make('button', { parent: plainCover, rect: rect(900, 10, 50, 20) });
    hidden = make('button', { parent: body, position: 'fixed', rect: rect(100, 100, 50, 20) });
    reachable = make('button', { parent: body, position: 'fixed', rect: rect(600, 600, 50, 20) });
  });
  t.equal(library.layerOf(plainCover), null, 'an absolutely placed box is no layer');
  t.same(library.coverControls(plainCover, [hidden, reachable, inside]), [inside], 'its own control, reached; not the fixed button under it, nor another layer\'s');
});
