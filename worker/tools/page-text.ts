/**
 * The visible text of a document as a model should read it, open shadow roots included (issue 25,
 * docs/agent-tools.md "Snapshots"). `innerText` walks the light DOM only: the rows a custom
 * element renders in its shadow root are on screen but not in `document.body.innerText`.
 *
 * This is page-side JavaScript source, pasted into the read function (`page-script.ts`). It walks
 * the *flat tree*, the tree that is rendered: a shadow host's shadow root in place of its light
 * children, a `<slot>`'s assigned nodes (or its fallback content) in place of the slot, so
 * slotted text appears where it renders and unassigned light children (not rendered) never do.
 * Only the ancestors of shadow hosts are walked by hand; every other subtree keeps the native
 * `innerText` (fast, and exact about CSS), so a page without shadow roots costs what it did.
 *
 * Written against a small part of the DOM (nodeType, childNodes, shadowRoot, localName,
 * assignedNodes, innerText, getComputedStyle, checkVisibility) so that test/unit/page-text.test.mjs
 * can run it on a fake tree.
 */

/** `collectShadowHosts(root)`: every element under `root` (shadow roots included) with an open shadow root. */
export const COLLECT_SHADOW_HOSTS = String.raw`function collectShadowHosts(root) {
  const hosts = [];
  const scopes = [root];
  for (let i = 0; i < scopes.length && i < 10000; i++) {
    const stack = [scopes[i]];
    while (stack.length > 0) {
      const node = stack.pop();
      const children = node.childNodes;
      for (let c = children.length - 1; c >= 0; c--) {
        const child = children[c];
        if (child.nodeType !== 1) continue;
        if (child.shadowRoot) {
          hosts.push(child);
          scopes.push(child.shadowRoot);
        }
        stack.push(child);
      }
    }
  }
  return hosts;
}`;

/**
 * `renderedText(root, hosts)`: the text of `root` in render order, as lines (not yet trimmed);
 * `hosts` are the shadow hosts under it (`collectShadowHosts`). Without hosts it is `innerText`.
 */
export const RENDERED_TEXT = String.raw`function renderedText(root, hosts) {
  if (hosts.length === 0) return root.innerText;
  // The flat-tree parent: a slotted node's slot, a shadow root's host, else the DOM parent.
  const flatParent = (node) => {
    if (node.assignedSlot) return node.assignedSlot;
    const parent = node.parentNode;
    if (!parent) return null;
    return parent.nodeType === 11 ? parent.host || null : parent;
  };
  // Elements that hold a shadow host or a slot somewhere below them in the flat tree: only these
  // are walked by hand. innerText follows the DOM, not the flat tree, so it misses a shadow root
  // below a host and the nodes assigned to a slot alike.
  const marked = new Set();
  const mark = (start) => {
    for (let node = start; node && !marked.has(node); node = flatParent(node)) marked.add(node);
  };
  for (const host of hosts) {
    mark(host);
    const stack = [...host.shadowRoot.childNodes];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node.nodeType !== 1) continue;
      if (node.localName === 'slot') mark(node);
      for (let c = 0; c < node.childNodes.length; c++) stack.push(node.childNodes[c]);
    }
  }
  const BLOCK = /^(block|flex|grid|list-item|table|table-row|table-row-group|table-header-group|table-footer-group|table-caption|flow-root)$/;
  const out = [];
  const flatChildren = (element) => {
    if (element.shadowRoot) return element.shadowRoot.childNodes;
    if (element.localName === 'slot' && typeof element.assignedNodes === 'function') {
      const assigned = element.assignedNodes({ flatten: true });
      return assigned.length > 0 ? assigned : element.childNodes;
    }
    return element.childNodes;
  };
  const styleOf = (element) => element.ownerDocument.defaultView.getComputedStyle(element);
  const rendered = (element, style) => {
    if (style.display === 'none') return false;
    if (style.display === 'contents') return true;
    return typeof element.checkVisibility !== 'function' || element.checkVisibility();
  };
  const walk = (node, visible) => {
    if (node.nodeType === 3) {
      if (visible) out.push(node.data.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const style = styleOf(node);
    if (!rendered(node, style)) return;
    const block = BLOCK.test(style.display);
    const cell = style.display === 'table-cell';
    if (node.localName === 'br') {
      out.push('\n');
      return;
    }
    if (block) out.push('\n');
    if (marked.has(node)) {
      const shown = style.visibility !== 'hidden' && style.visibility !== 'collapse';
      const children = flatChildren(node);
      for (let i = 0; i < children.length; i++) walk(children[i], shown);
    } else {
      // innerText leaves out what visibility hides, inside too.
      out.push(node.innerText);
    }
    if (block) out.push('\n');
    else if (cell) out.push('\t');
  };
  walk(root, true);
  return out.join('');
}`;
