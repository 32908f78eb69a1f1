/**
 * Page-side helper functions shared by the probes (`actionability-probe.ts`,
 * `element-state-probe.ts`, uploadFile's in `core/upload-file.ts`). This is JavaScript *source*, pasted into the body of each probe
 * function, so every probe stays one self-contained `Runtime.evaluate` / `callFunctionOn`.
 *
 * It runs in the page's main world, where the page may have patched globals; it therefore uses
 * plain loops rather than array methods. Everything here is guarded by the browser tier
 * (test/browser/interaction.test.mjs, test/browser/actionability.test.mjs,
 * test/browser/semantic-targets.test.mjs).
 *
 * What it knows that the hosted product's probe does not (docs/interaction.md, "Where this beats the hosted product"):
 * - selectors match inside open shadow roots and same-origin iframes (`deepQuery`);
 * - boxes and hit tests work in top-level viewport coordinates across same-origin frames
 *   (`mapToTop`, `hitTest`), and hit tests descend into shadow roots, so shadow-DOM targets no
 *   longer read as "intercepted" by their host;
 * - a click point is tried per client rect and at off-centre points, so multi-line links and
 *   partly covered buttons still get a point that hits them.
 *
 * Semantic targets (`{role, name}`, `{text}`, `{label}`) are matched by `page-semantics.ts`,
 * pasted in with it.
 */
import { PAGE_SEMANTICS } from './page-semantics.js';

export const PAGE_LIBRARY = String.raw`
  const ELEMENT_NODE = 1, TEXT_NODE = 3, DOCUMENT_NODE = 9, FRAGMENT_NODE = 11;
  // How many matches an ambiguity error lists.
  const MAX_LISTED_MATCHES = 5;

  function asElement(node) {
    if (node === null || node === undefined) return null;
    if (node.nodeType === ELEMENT_NODE) return node;
    if (node.nodeType === TEXT_NODE) return node.parentElement;
    return null;
  }

  function frameElementOf(win) {
    try { return win ? win.frameElement : null; } catch (e) { return null; }
  }

  // Parent in the flat tree: slots, shadow hosts and same-origin frame owners included.
  function composedParent(node) {
    if (node.assignedSlot) return node.assignedSlot;
    const parent = node.parentNode;
    if (parent === null) return null;
    if (parent.nodeType === FRAGMENT_NODE) return parent.host || null;
    if (parent.nodeType === DOCUMENT_NODE) return frameElementOf(parent.defaultView);
    return parent;
  }

  function composedContains(ancestor, node) {
    for (let n = node; n; n = composedParent(n)) if (n === ancestor) return true;
    return false;
  }

  function isFrameElement(el) {
    return el.localName === 'iframe' || el.localName === 'frame';
  }

  // The outermost document this realm can reach: a probe called on a node runs in the node's
  // frame, but hit tests and focus checks start at the top.
  function topDocument() {
    let win = window;
    for (let frame = frameElementOf(win); frame; frame = frameElementOf(win)) win = frame.ownerDocument.defaultView;
    return win.document;
  }

  function contentDocumentOf(frame) {
    try { return frame.contentDocument; } catch (e) { return null; }
  }

  // Every match of selector in the document, its open shadow roots and its same-origin frames.
  // Each scope is matched on its own: a combinator does not cross a shadow or frame boundary.
  let unsearchedFrames = 0;
  function deepQuery(selector) {
    const found = [];
    unsearchedFrames = 0;
    const scopes = [document];
    for (let i = 0; i < scopes.length && i < 10000; i++) {
      const scope = scopes[i];
      const matches = scope.querySelectorAll(selector);
      for (let j = 0; j < matches.length; j++) found.push(matches[j]);
      const owner = scope.nodeType === DOCUMENT_NODE ? scope : scope.ownerDocument;
      const walker = owner.createTreeWalker(scope, 1);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.shadowRoot) scopes.push(n.shadowRoot);
        if (isFrameElement(n)) {
          const inner = contentDocumentOf(n);
          if (inner && inner.documentElement) scopes.push(inner);
          else if (!inner) unsearchedFrames++;
        }
      }
    }
    return found;
  }

  function styleOf(el) {
    return el.ownerDocument.defaultView.getComputedStyle(el);
  }

  function hasArea(el) {
    const rects = el.getClientRects();
    for (let i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return true;
    return false;
  }

  // Visible: connected, rendered with a non-empty box, not hidden by display, visibility,
  // content-visibility or opacity (checkVisibility), inside visible frames. display:contents
  // elements have no box of their own: they count as visible when a child is.
  function isVisible(el) {
    if (!el || !el.isConnected) return false;
    if (typeof el.checkVisibility === 'function') {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    } else {
      const style = styleOf(el);
      if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0') return false;
    }
    if (!hasArea(el)) {
      if (styleOf(el).display !== 'contents') return false;
      let anyChild = false;
      for (let c = el.firstElementChild; c && !anyChild; c = c.nextElementSibling) anyChild = isVisible(c);
      if (!anyChild) return false;
    }
    const frame = frameElementOf(el.ownerDocument.defaultView);
    return frame ? isVisible(frame) : true;
  }

  function disabledReason(el) {
    try { if (el.matches(':disabled')) return 'disabled'; } catch (e) {}
    // aria-disabled applies to the element and its descendants (WAI-ARIA), so ancestors count.
    for (let n = el; n; n = composedParent(n)) {
      if (n.nodeType === ELEMENT_NODE && n.getAttribute('aria-disabled') === 'true') return 'disabled (aria-disabled)';
    }
    return null;
  }

  function describe(el) {
    if (!el) return 'nothing';
    let text = '<' + el.localName;
    if (el.id) text += ' id="' + String(el.id).slice(0, 40) + '"';
    const classes = (el.getAttribute('class') || '').replace(/\s+/g, ' ').trim();
    if (classes) text += ' class="' + classes.slice(0, 60) + '"';
    return text + '>';
  }

  function viewportBox(win) {
    const scroller = win.document.scrollingElement || win.document.documentElement;
    const width = scroller && scroller.clientWidth ? scroller.clientWidth : win.innerWidth;
    const height = scroller && scroller.clientHeight ? scroller.clientHeight : win.innerHeight;
    return { left: 0, top: 0, right: width, bottom: height };
  }

  function intersect(a, b) {
    const box = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
    return box.right > box.left && box.bottom > box.top ? box : null;
  }

  // Where a frame's viewport starts in its parent's viewport, and its scale (CSS transforms).
  function frameOffset(frame) {
    const rect = frame.getBoundingClientRect();
    const style = styleOf(frame);
    const sx = frame.offsetWidth > 0 ? rect.width / frame.offsetWidth : 1;
    const sy = frame.offsetHeight > 0 ? rect.height / frame.offsetHeight : 1;
    return {
      left: rect.left + (frame.clientLeft + parseFloat(style.paddingLeft || '0')) * sx,
      top: rect.top + (frame.clientTop + parseFloat(style.paddingTop || '0')) * sy,
      sx: sx || 1,
      sy: sy || 1,
    };
  }

  // A box in el's own viewport, mapped to the top-level viewport. With clip, it is cut to every
  // frame viewport on the way (null when nothing is left).
  function mapToTop(box, el, clip) {
    let win = el.ownerDocument.defaultView;
    let current = clip ? intersect(box, viewportBox(win)) : box;
    for (let frame = frameElementOf(win); current && frame; frame = frameElementOf(win)) {
      const o = frameOffset(frame);
      current = { left: o.left + current.left * o.sx, top: o.top + current.top * o.sy, right: o.left + current.right * o.sx, bottom: o.top + current.bottom * o.sy };
      win = frame.ownerDocument.defaultView;
      if (clip) current = intersect(current, viewportBox(win));
    }
    return current;
  }

  function topBox(el) {
    const r = el.getBoundingClientRect();
    return mapToTop({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }, el, false);
  }

  function moved(a, b) {
    return Math.abs(a.left - b.left) >= 0.25 || Math.abs(a.top - b.top) >= 0.25
      || Math.abs((a.right - a.left) - (b.right - b.left)) >= 0.25 || Math.abs((a.bottom - a.top) - (b.bottom - b.top)) >= 0.25;
  }

  function isInViewport(el) {
    const r = el.getBoundingClientRect();
    const inner = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    const visible = mapToTop(inner, el, true);
    const whole = mapToTop(inner, el, false);
    return visible !== null && whole !== null && Math.abs((visible.right - visible.left) * (visible.bottom - visible.top) - (whole.right - whole.left) * (whole.bottom - whole.top)) < 1;
  }

  // Scrolls only when needed (a scroll the agent did not ask for changes the page); force
  // re-centres, which helps after a sticky header or a scroll container hid the target.
  // behavior 'instant' overrides a page's scroll-behavior: smooth, which would move the target
  // for a while after the scroll.
  function revealElement(el, force) {
    if (!force && isInViewport(el)) return;
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }

  // The shadow root to look into at host: its open root, or the closed root that holds target.
  function shadowScope(host, target) {
    if (host.shadowRoot) return host.shadowRoot;
    for (let root = target ? target.getRootNode() : null; root && root.nodeType === FRAGMENT_NODE; root = root.host.getRootNode()) {
      if (root.host === host) return root;
    }
    return null;
  }

  // The innermost element at a top-level point, through shadow roots and same-origin frames.
  function hitTest(x, y, target) {
    let doc = topDocument(), px = x, py = y, hit = null;
    for (let depth = 0; depth < 32; depth++) {
      let found = doc.elementFromPoint(px, py);
      if (!found) return hit;
      for (let inner = 0; inner < 32; inner++) {
        const scope = shadowScope(found, target);
        if (!scope) break;
        const deeper = scope.elementFromPoint(px, py);
        if (!deeper || deeper === found) break;
        found = deeper;
      }
      hit = found;
      if (!isFrameElement(found)) return hit;
      const inner = contentDocumentOf(found);
      if (!inner) return hit;
      const o = frameOffset(found);
      px = (px - o.left) / o.sx;
      py = (py - o.top) / o.sy;
      doc = inner;
    }
    return hit;
  }

  // Candidate click points in top-level coordinates: the centre of each visible client rect,
  // largest first, then off-centre points of the largest one.
  function clickPoints(el) {
    const rects = el.getClientRects();
    const boxes = [];
    for (let i = 0; i < rects.length && boxes.length < 8; i++) {
      const r = rects[i];
      if (r.width <= 0 || r.height <= 0) continue;
      const box = mapToTop({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }, el, true);
      if (box) boxes.push(box);
    }
    boxes.sort(function (a, b) { return (b.right - b.left) * (b.bottom - b.top) - (a.right - a.left) * (a.bottom - a.top); });
    const points = [];
    for (let i = 0; i < boxes.length && i < 4; i++) points.push({ x: (boxes[i].left + boxes[i].right) / 2, y: (boxes[i].top + boxes[i].bottom) / 2 });
    const big = boxes[0];
    if (big) {
      const fractions = [[0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75]];
      for (let i = 0; i < fractions.length; i++) {
        points.push({ x: big.left + (big.right - big.left) * fractions[i][0], y: big.top + (big.bottom - big.top) * fractions[i][1] });
      }
    }
    return points;
  }

  // True when a point that hit "hit" reaches el: el or its content (slotted included), or, with
  // viaLabel, a label of el (a floating label over a field hands focus to the field).
  function reaches(el, hit, viaLabel) {
    if (!hit) return false;
    if (composedContains(el, hit)) return true;
    if (!viaLabel) return false;
    for (let n = hit; n; n = composedParent(n)) if (n.localName === 'label') return n.control === el;
    return false;
  }

  // The first of points whose hit test reaches el, or { blocker } (what the first point hit).
  function firstReachingPoint(el, points, viaLabel) {
    let blocker = null;
    for (let i = 0; i < points.length; i++) {
      const hit = hitTest(points[i].x, points[i].y, el);
      if (reaches(el, hit, viaLabel === true)) return { x: points[i].x, y: points[i].y };
      if (i === 0) blocker = hit;
    }
    return { blocker: blocker };
  }

  function round(n) { return Math.round(n * 100) / 100; }

  // Every match of a target: a CSS selector (string) or a semantic query (page-semantics.ts).
  // Only a selector's syntax error is an answer ({invalid}); anything else a semantic query
  // throws is a fault of this code and surfaces as an evaluation error.
  function allMatches(target) {
    if (typeof target !== 'string') return semanticQuery(target);
    try { return deepQuery(target); } catch (e) { return { invalid: String(e && e.message || e) }; }
  }

  // The one visible match of a target, or a status. Several visible matches of a semantic
  // target come with their descriptions, so the error can list them.
  function pickUnique(target) {
    const all = allMatches(target);
    if (all.invalid !== undefined) return { status: 'invalid selector', message: all.invalid };
    if (all.length === 0) {
      if (unsearchedFrames === 0) return { status: 'not found' };
      return { status: 'not found; ' + unsearchedFrames + ' cross-origin iframe' + (unsearchedFrames === 1 ? ' was' : 's were') + ' not searched: reach one with iframeTarget() and switchTab()' };
    }
    const visible = [];
    for (let i = 0; i < all.length; i++) if (isVisible(all[i])) visible.push(all[i]);
    if (visible.length === 0) return { status: all.length === 1 ? 'not visible' : 'not visible (' + all.length + ' hidden matches)' };
    if (visible.length > 1) {
      const candidates = [];
      if (typeof target !== 'string') for (let i = 0; i < visible.length && i < MAX_LISTED_MATCHES; i++) candidates.push(describeMatch(visible[i]));
      return { status: 'multiple', count: visible.length, candidates: candidates };
    }
    return { element: visible[0] };
  }

  function deepActiveElement() {
    let active = topDocument().activeElement;
    for (let depth = 0; active && depth < 32; depth++) {
      if (active.shadowRoot && active.shadowRoot.activeElement) { active = active.shadowRoot.activeElement; continue; }
      if (isFrameElement(active)) {
        const inner = contentDocumentOf(active);
        if (inner && inner.activeElement && inner.activeElement !== inner.body) { active = inner.activeElement; continue; }
      }
      break;
    }
    return active;
  }
  ${PAGE_SEMANTICS}
`;
