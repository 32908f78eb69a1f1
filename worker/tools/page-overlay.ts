/**
 * Overlays: a cookie banner with a backdrop, a modal dialog, a newsletter pop-up covering the page
 * until it is dismissed (issue 25, docs/agent-tools.md "Overlays"). A model reading a snapshot
 * must learn that the page is covered and which controls dismiss the cover before it tries the
 * fields underneath; an action on a covered element must say the same.
 *
 * Page-side JavaScript source, pasted into the read function (`page-script.ts`) and into the
 * cover lookup of a failed action (`COVER_OF`). Written against a small part of the DOM
 * (elementFromPoint, getComputedStyle, matches, parentNode, getClientRects) so that
 * test/unit/page-overlay.test.mjs can run it on a fake document.
 *
 * - The page is **covered** when one layer (the outermost `position: fixed` ancestor of what a hit
 *   test finds, or a modal dialog or open popover of the top layer) is hit at the centre of the
 *   viewport and at half or more of a 5×5 grid of points across it.
 * - A cover's **controls** are the interactive elements that a hit test at their centre reaches
 *   and that sit inside the cover or in another layer: what a person can click while the cover is
 *   up. A backdrop and its dialog box are often siblings (the backdrop has no buttons), so the
 *   controls are looked for in every layer, the cover's own listed first.
 */

export const OVERLAY_LIBRARY = String.raw`
  const overlayStyle = (element) => element.ownerDocument.defaultView.getComputedStyle(element);
  const overlayParent = (node) => {
    if (node.assignedSlot) return node.assignedSlot;
    const parent = node.parentNode;
    if (!parent) return null;
    return parent.nodeType === 11 ? parent.host || null : parent;
  };
  const inTopLayer = (element) => {
    try { return element.matches(':modal') || element.matches(':popover-open'); } catch (e) { return false; }
  };
  // The outermost fixed-position or top-layer element holding node (itself included), or null.
  const layerOf = (node) => {
    let layer = null;
    for (let element = node && node.nodeType === 3 ? node.parentNode : node; element && element.nodeType === 1; element = overlayParent(element)) {
      if (element.localName === 'body' || element.localName === 'html') break;
      if (inTopLayer(element) || overlayStyle(element).position === 'fixed') layer = element;
    }
    return layer;
  };
  // The innermost element at a viewport point, through open shadow roots.
  const elementAt = (doc, x, y) => {
    let found = doc.elementFromPoint(x, y);
    for (let depth = 0; found && found.shadowRoot && depth < 32; depth++) {
      const deeper = found.shadowRoot.elementFromPoint(x, y);
      if (!deeper || deeper === found) break;
      found = deeper;
    }
    return found;
  };
  const containsFlat = (ancestor, node) => {
    for (let element = node; element; element = overlayParent(element)) if (element === ancestor) return true;
    return false;
  };
  // A hit test at the centre of element's first box reaches it (or its content).
  const reachable = (element) => {
    const rects = element.getClientRects();
    const box = rects.length > 0 ? rects[0] : null;
    if (!box || box.width <= 0 || box.height <= 0) return false;
    const hit = elementAt(element.ownerDocument, box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && containsFlat(element, hit);
  };
  const describeLayer = (element) => {
    let text = '<' + element.localName;
    if (element.id) text += ' id="' + String(element.id).slice(0, 40) + '"';
    else {
      const classes = (element.getAttribute('class') || '').replace(/\s+/g, ' ').trim();
      if (classes) text += ' class="' + classes.slice(0, 60) + '"';
    }
    return text + '>';
  };
  const layerLabel = (element) => {
    const aria = (element.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
    if (aria) return aria.slice(0, 80);
    const text = String(element.innerText || element.textContent || '').replace(/\s+/g, ' ').trim();
    return text.length > 80 ? text.slice(0, 79) + '…' : text;
  };
  // The layer covering doc's viewport, or null (see the module comment).
  const findOverlay = (doc) => {
    const root = doc.documentElement;
    const width = root && root.clientWidth ? root.clientWidth : doc.defaultView.innerWidth;
    const height = root && root.clientHeight ? root.clientHeight : doc.defaultView.innerHeight;
    if (!(width > 0 && height > 0)) return null;
    const fractions = [0.1, 0.3, 0.5, 0.7, 0.9];
    const counts = new Map();
    let center = null;
    for (const fy of fractions) {
      for (const fx of fractions) {
        const layer = layerOf(elementAt(doc, width * fx, height * fy));
        if (layer === null) continue;
        counts.set(layer, (counts.get(layer) || 0) + 1);
        if (fx === 0.5 && fy === 0.5) center = layer;
      }
    }
    if (center === null || (counts.get(center) || 0) * 2 < fractions.length * fractions.length) return null;
    // Another layer may be hit more often (a full-page backdrop under a centred box): the page is covered either way.
    return center;
  };
  // Of elements, those a person can click while cover is up, its own first: inside cover, or in
  // any layer, and reached by a hit test. A cover that is no layer (an absolutely placed box)
  // offers only what it holds.
  const coverControls = (cover, elements) => {
    const own = [];
    const others = [];
    const layered = layerOf(cover) !== null;
    for (const element of elements) {
      const inside = containsFlat(cover, element);
      if (!inside && (!layered || layerOf(element) === null)) continue;
      if (!reachable(element)) continue;
      (inside ? own : others).push(element);
    }
    return own.concat(others);
  };
`;

/**
 * `coverOf(id)`, run in the isolated world of the frame of a target an action found covered: what
 * covers the element of that per-document number (`page-script.ts`'s table) and the numbers of the
 * controls a person could click instead. Null when nothing covers it (any more).
 */
export const COVER_OF = (tableKey: string): string => String.raw`(id) => {
  ${OVERLAY_LIBRARY}
  const table = globalThis.${tableKey};
  const target = table && table.elements.get(id) ? table.elements.get(id).deref() : undefined;
  if (!target || !target.isConnected) return null;
  const rects = target.getClientRects();
  const box = rects.length > 0 ? rects[0] : null;
  if (!box) return null;
  const hit = elementAt(target.ownerDocument, box.left + box.width / 2, box.top + box.height / 2);
  if (hit === null || containsFlat(target, hit)) return null;
  const cover = layerOf(hit) || hit;
  const known = [];
  for (const [number, ref] of table.elements) {
    const element = ref.deref();
    if (element && element.isConnected && element !== target) known.push({ number, element });
  }
  const numbers = new Map(known.map((entry) => [entry.element, entry.number]));
  const controls = coverControls(cover, known.map((entry) => entry.element));
  return { description: describeLayer(cover), label: layerLabel(cover), ids: controls.map((element) => numbers.get(element)) };
}`;
