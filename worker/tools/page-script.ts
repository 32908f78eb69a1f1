/**
 * What runs inside a page for the agent tools, as source text evaluated in an isolated world of
 * each frame (`Page.createIsolatedWorld`): the page's own scripts cannot see or change the
 * element table kept there, and a page that overrides `Element.prototype` methods in its main
 * world does not affect these reads.
 *
 * One call returns the document's title, URL, visible text and interactive elements. Each
 * element gets a per-document number the first time it is seen (a WeakMap keeps it, so the same
 * element keeps its number across reads); the worker maps those to the session's refs
 * (`ref-table.ts`). The selection follows the reference plugin of docs/agent-tools.md (a,
 * button, input, textarea, select, ARIA button/link, contenteditable) plus the ARIA widget roles a model acts on (checkbox, radio,
 * switch, tab, menuitem, option, combobox, textbox, searchbox, slider, spinbutton) and `summary`.
 * Zero-size and invisible elements are left out; password values never leave the page.
 */

import { OVERLAY_LIBRARY } from './page-overlay.js';
import { COLLECT_SHADOW_HOSTS, RENDERED_TEXT } from './page-text.js';

import type { SnapshotElement } from '../../common/protocol/tool-messages.js';

/** The key of the element table in an isolated world's global object. */
export const TABLE_KEY = '__browserReplTools';

/**
 * Records when the document last changed (a MutationObserver kept in the element table), so the
 * settle after an action can tell a page that is still rendering from one that is done.
 */
const WATCH_MUTATIONS = String.raw`if (table.watch === undefined) {
    table.changedAt = performance.now();
    table.watch = new MutationObserver(() => { table.changedAt = performance.now(); });
    table.watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }`;

/**
 * How many more milliseconds the document must stay unchanged to have been quiet for `quietMs`
 * (0: it has). The first call in a document starts watching, so it answers `quietMs`.
 */
export const QUIET_FOR = String.raw`(quietMs) => {
  const table = globalThis.${TABLE_KEY} ??= { ids: new WeakMap(), elements: new Map(), next: 1 };
  ${WATCH_MUTATIONS}
  return Math.max(0, quietMs - (performance.now() - table.changedAt));
}`;

/** One element as the page function returns it: the worker replaces `id` with the session's ref and adds the frame. */
export type RawElement = Omit<SnapshotElement, 'ref' | 'frame'> & { id: number };

export interface RawRead {
  url: string;
  title: string;
  text: string;
  elements: RawElement[];
  /** The layer covering the viewport (top document only): its controls' numbers are in `ids`, listed first in `elements`. */
  overlay?: { description: string; label: string; ids: number[] };
}

/**
 * The page function. Written as plain JavaScript in a template (it runs in the page, not here);
 * `${TABLE_KEY}` holds `{ ids: WeakMap<Element, number>, elements: Map<number, WeakRef<Element>>, next }`.
 */
export const READ_PAGE = String.raw`(options) => {
  const table = globalThis.${TABLE_KEY} ??= { ids: new WeakMap(), elements: new Map(), next: 1 };
  ${WATCH_MUTATIONS}
  ${OVERLAY_LIBRARY}
  const collectShadowHosts = ${COLLECT_SHADOW_HOSTS};
  const renderedText = ${RENDERED_TEXT};
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const SELECTOR = 'a[href], button, input, textarea, select, summary, [contenteditable=""], [contenteditable="true"], '
    + '[contenteditable="plaintext-only"], [role]';
  const LABEL_MAX = 100;
  const VALUE_MAX = 200;
  const clean = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  const cut = (text, max) => (text.length > max ? text.slice(0, max - 1) + '…' : text);

  // Elements in render order. Without open shadow roots, the document's own order; with them, the
  // flat tree (a host's shadow content in its place, slotted nodes where their slot is).
  const hosts = collectShadowHosts(document);
  let found;
  if (hosts.length === 0) {
    found = document.querySelectorAll(SELECTOR);
  } else {
    found = [];
    const walk = (node) => {
      const children = node.shadowRoot ? node.shadowRoot.childNodes
        : node.localName === 'slot' && node.assignedNodes({ flatten: true }).length > 0 ? node.assignedNodes({ flatten: true }) : node.childNodes;
      for (const child of children) {
        if (child.nodeType !== 1) continue;
        if (child.matches(SELECTOR)) found.push(child);
        walk(child);
      }
    };
    walk(document);
  }

  const visible = (element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    if (typeof element.checkVisibility === 'function') return element.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    return getComputedStyle(element).visibility !== 'hidden';
  };

  const textOfIds = (element, ids) => clean(ids.split(/\s+/).map((id) => element.getRootNode().getElementById?.(id)?.textContent
    ?? document.getElementById(id)?.textContent ?? '').join(' '));

  const labelOf = (element, tag, type) => {
    const aria = clean(element.getAttribute('aria-label'));
    if (aria) return aria;
    const by = element.getAttribute('aria-labelledby');
    if (by) {
      const text = textOfIds(element, by);
      if (text) return text;
    }
    if (tag === 'input' && (type === 'submit' || type === 'button' || type === 'reset')) return clean(element.value) || type;
    if (tag === 'input' && type === 'image') return clean(element.alt) || 'image';
    if (element.labels && element.labels.length > 0) {
      // A label that wraps its control also holds the control's own text (a select's options): left out.
      const text = clean([...element.labels].map((label) => {
        const copy = label.cloneNode(true);
        for (const control of copy.querySelectorAll('select, textarea, input, button')) control.remove();
        return copy.textContent;
      }).join(' '));
      if (text) return text;
    }
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      return clean(element.getAttribute('placeholder')) || clean(element.title) || clean(element.getAttribute('name')) || '';
    }
    const text = clean(element.innerText || element.textContent);
    if (text) return text;
    const image = element.querySelector('img[alt], svg title');
    return clean(image?.getAttribute?.('alt') ?? image?.textContent) || clean(element.title);
  };

  // The interactive, visible elements, once each.
  const candidates = [];
  const seen = new Set();
  for (const element of found) {
    if (seen.has(element)) continue;
    seen.add(element);
    const tag = element.localName;
    const role = element.getAttribute('role')?.trim().toLowerCase() || undefined;
    if (tag !== 'a' && tag !== 'button' && tag !== 'input' && tag !== 'textarea' && tag !== 'select' && tag !== 'summary'
      && !element.isContentEditable && !(role && ROLES.has(role))) continue;
    if (element.isContentEditable && element.parentElement?.isContentEditable) continue; // Only the editing host.
    const type = tag === 'input' ? (element.getAttribute('type') || 'text').toLowerCase() : undefined;
    if (type === 'hidden' || !visible(element)) continue;
    candidates.push({ element, tag, role, type });
  }

  // A layer covering the top document's viewport: its controls come first, so a model reads them before the page under it.
  let overlay;
  if (options.top === true) {
    const cover = findOverlay(document);
    if (cover !== null) {
      const controls = new Set(coverControls(cover, candidates.map((candidate) => candidate.element)));
      // A layer holding every control of the page is the page itself (an app shell), not a cover.
      if (candidates.some((candidate) => !controls.has(candidate.element) && !containsFlat(cover, candidate.element))) {
        overlay = { description: describeLayer(cover), label: layerLabel(cover), ids: [] };
        candidates.sort((a, b) => Number(controls.has(b.element)) - Number(controls.has(a.element)));
        overlay.controls = controls;
      }
    }
  }

  const elements = [];
  for (const { element, tag, role, type } of candidates) {
    if (elements.length >= options.maxElements) break;
    let id = table.ids.get(element);
    if (id === undefined) {
      id = table.next++;
      table.ids.set(element, id);
    }
    table.elements.set(id, new WeakRef(element));
    if (overlay !== undefined && overlay.controls.has(element)) overlay.ids.push(id);
    const entry = { id, tag, label: cut(labelOf(element, tag, type), LABEL_MAX) };
    if (role && role !== tag) entry.role = role;
    if (type !== undefined) entry.type = type;
    const state = [];
    if (element.disabled === true || element.getAttribute('aria-disabled') === 'true') state.push('disabled');
    if (type === 'checkbox' || type === 'radio') state.push(element.indeterminate ? 'mixed' : element.checked ? 'checked' : 'unchecked');
    else {
      const checked = element.getAttribute('aria-checked');
      if (checked === 'true') state.push('checked');
      else if (checked === 'false') state.push('unchecked');
      else if (checked === 'mixed') state.push('mixed');
    }
    if (element.getAttribute('aria-selected') === 'true') state.push('selected');
    const expanded = element.getAttribute('aria-expanded');
    if (expanded === 'true') state.push('expanded');
    else if (expanded === 'false') state.push('collapsed');
    if (element.getAttribute('aria-pressed') === 'true') state.push('pressed');
    if (element.readOnly === true) state.push('readonly');
    if (element.required === true) state.push('required');
    if (element.matches(':focus')) state.push('focused');
    if (typeof element.checkValidity === 'function' && element.willValidate && element.matches(':user-invalid')) state.push('invalid');
    if (state.length > 0) entry.state = state;
    if (tag === 'a') entry.href = element.href;
    if (tag === 'select') {
      const chosen = [...element.selectedOptions].map((option) => clean(option.label || option.textContent));
      if (chosen.length > 0) entry.value = cut(chosen.join(', '), VALUE_MAX);
      entry.options = [...element.options].slice(0, 25).map((option) => cut(clean(option.label || option.textContent), 60));
    } else if (type === 'password') {
      // Never the value: not even its length.
    } else if (type === 'file') {
      if (element.files && element.files.length > 0) entry.value = [...element.files].map((file) => file.name).join(', ');
    } else if ((tag === 'input' && type !== 'checkbox' && type !== 'radio' && type !== 'submit' && type !== 'button'
      && type !== 'reset' && type !== 'image') || tag === 'textarea') {
      if (element.value !== '') entry.value = cut(element.value, VALUE_MAX);
    } else if (element.isContentEditable) {
      const text = clean(element.innerText);
      if (text) entry.value = cut(text, VALUE_MAX);
    }
    elements.push(entry);
  }
  // Forget elements that left the document, so the table does not grow with a long-lived page.
  for (const [id, ref] of table.elements) {
    const element = ref.deref();
    if (element === undefined || !element.isConnected) table.elements.delete(id);
  }

  let text = '';
  if (document.body) {
    const lines = renderedText(document.body, hosts.filter((host) => containsFlat(document.body, host)))
      .split('\n').map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim()).filter((line) => line !== '');
    text = lines.join('\n');
    if (text.length > options.maxText) text = text.slice(0, options.maxText);
  }
  const read = { url: location.href, title: document.title, text, elements, total: candidates.length };
  if (overlay !== undefined) read.overlay = { description: overlay.description, label: overlay.label, ids: overlay.ids };
  return read;
}`;

/** `(needle) => boolean`: the document's visible text (open shadow roots included) holds `needle`, lower case, white space collapsed. */
export const SHOWS_TEXT = String.raw`(needle) => {
  const collectShadowHosts = ${COLLECT_SHADOW_HOSTS};
  const renderedText = ${RENDERED_TEXT};
  if (!document.body) return false;
  const hosts = collectShadowHosts(document.body);
  return renderedText(document.body, hosts).replace(/\s+/g, ' ').toLowerCase().includes(needle);
}`;

/** Resolves a per-document element number to the element (or null when it is gone). */
export const ELEMENT_BY_ID = String.raw`(id) => {
  const element = globalThis.${TABLE_KEY}?.elements.get(id)?.deref();
  return element !== undefined && element.isConnected ? element : null;
}`;

/**
 * Chooses options of a `<select>` by value or by visible text, as a user's choice does: the
 * `input` and `change` events fire. Runs with the element as `this`; returns the chosen texts,
 * or a string saying what did not match.
 */
export const SELECT_OPTIONS = String.raw`function (values) {
  if (this.localName !== 'select') return 'the element is not a <select>';
  if (this.disabled) return 'the select is disabled';
  const options = [...this.options];
  const chosen = [];
  for (const wanted of values) {
    const match = options.find((option) => option.value === wanted)
      ?? options.find((option) => (option.label || option.textContent).trim() === wanted.trim())
      ?? options.find((option) => (option.label || option.textContent).trim().toLowerCase() === wanted.trim().toLowerCase());
    if (match === undefined) return 'no option ' + JSON.stringify(wanted) + '; options: ' + options.map((option) => JSON.stringify((option.label || option.textContent).trim())).join(', ');
    chosen.push(match);
  }
  if (chosen.length > 1 && !this.multiple) return 'the select takes one option, got ' + chosen.length;
  for (const option of options) option.selected = chosen.includes(option);
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return chosen.map((option) => (option.label || option.textContent).trim());
}`;

/** Scrolls an `<iframe>` into its page's view unless the whole of it is in view already. */
export const REVEAL_FRAME = String.raw`function () {
  const rect = this.getBoundingClientRect();
  const root = document.documentElement;
  const inView = rect.top >= 0 && rect.left >= 0 && rect.bottom <= (root.clientHeight || innerHeight) && rect.right <= (root.clientWidth || innerWidth);
  if (!inView) this.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}`;

/**
 * Null when a hit test of the page at `point` (viewport coordinates) reaches this `<iframe>`,
 * else a description of what it reaches instead (`<div id="overlay">`).
 */
export const FRAME_HIT_AT = String.raw`function (point) {
  let hit = document.elementFromPoint(point.x, point.y);
  for (let depth = 0; hit && hit.shadowRoot && depth < 32; depth++) {
    const deeper = hit.shadowRoot.elementFromPoint(point.x, point.y);
    if (!deeper || deeper === hit) break;
    hit = deeper;
  }
  if (hit === this) return null;
  if (!hit) return 'nothing (the point is outside the page)';
  let text = '<' + hit.localName;
  if (hit.id) text += ' id="' + String(hit.id).slice(0, 40) + '"';
  else if (hit.getAttribute('class')) text += ' class="' + hit.getAttribute('class').replace(/\s+/g, ' ').trim().slice(0, 60) + '"';
  return text + '>';
}`;

/** Where a frame's content starts in its parent's viewport: the iframe's box plus its border and padding. */
export const FRAME_CONTENT_ORIGIN = String.raw`function () {
  const rect = this.getBoundingClientRect();
  const style = getComputedStyle(this);
  return {
    x: rect.left + this.clientLeft + parseFloat(style.paddingLeft || '0'),
    y: rect.top + this.clientTop + parseFloat(style.paddingTop || '0'),
  };
}`;

