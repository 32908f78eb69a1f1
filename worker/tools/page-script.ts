/**
 * What runs inside a page for the agent tools, as source text evaluated in an isolated world of
 * each frame (`Page.createIsolatedWorld`): the page's own scripts cannot see or change the
 * element table kept there, and a page that overrides `Element.prototype` methods in its main
 * world does not affect these reads.
 *
 * One call returns the document's title, URL, visible text and interactive elements. Each
 * element gets a per-document number the first time it is seen (a WeakMap keeps it, so the same
 * element keeps its number across reads); the worker maps those to the session's refs
 * (`ref-table.ts`). The selection follows seed 004 (a, button, input, textarea, select, ARIA
 * button/link, contenteditable) plus the ARIA widget roles a model acts on (checkbox, radio,
 * switch, tab, menuitem, option, combobox, textbox, searchbox, slider, spinbutton) and `summary`.
 * Zero-size and invisible elements are left out; password values never leave the page.
 */

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

/** Options of one read, as the page function receives them. */
export interface PageScriptOptions {
  maxText: number;
  maxElements: number;
}

/** One element as the page function returns it: the worker replaces `id` with the session's ref and adds the frame. */
export type RawElement = Omit<SnapshotElement, 'ref' | 'frame'> & { id: number };

export interface RawRead {
  url: string;
  title: string;
  text: string;
  elements: RawElement[];
}

/**
 * The page function. Written as plain JavaScript in a template (it runs in the page, not here);
 * `${TABLE_KEY}` holds `{ ids: WeakMap<Element, number>, elements: Map<number, WeakRef<Element>>, next }`.
 */
export const READ_PAGE = String.raw`(options) => {
  const table = globalThis.${TABLE_KEY} ??= { ids: new WeakMap(), elements: new Map(), next: 1 };
  ${WATCH_MUTATIONS}
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const SELECTOR = 'a[href], button, input, textarea, select, summary, [contenteditable=""], [contenteditable="true"], '
    + '[contenteditable="plaintext-only"], [role]';
  const LABEL_MAX = 100;
  const VALUE_MAX = 200;
  const clean = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  const cut = (text, max) => (text.length > max ? text.slice(0, max - 1) + '…' : text);

  const found = [];
  const visit = (root) => {
    for (const element of root.querySelectorAll(SELECTOR)) found.push(element);
    // Open shadow roots hold elements too (closed ones are the component's own business).
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.shadowRoot) visit(node.shadowRoot);
    }
  };
  visit(document);

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

  const elements = [];
  let total = 0;
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
    total += 1;
    if (elements.length >= options.maxElements) continue;
    let id = table.ids.get(element);
    if (id === undefined) {
      id = table.next++;
      table.ids.set(element, id);
    }
    table.elements.set(id, new WeakRef(element));
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
    const lines = document.body.innerText.split('\n').map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim()).filter((line) => line !== '');
    text = lines.join('\n');
    if (text.length > options.maxText) text = text.slice(0, options.maxText);
  }
  return { url: location.href, title: document.title, text, elements, total };
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

/** Centre of the element in its frame's viewport after scrolling it into view, or null when it has no box. */
export const CENTER_IN_VIEW = String.raw`function () {
  this.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const rect = this.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return null;
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
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

/** Focuses an editable element and selects its content, so typing replaces it. */
export const FOCUS_AND_SELECT = String.raw`function () {
  this.scrollIntoView({ block: 'center', behavior: 'instant' });
  this.focus();
  if (typeof this.select === 'function') this.select();
  else if (this.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(this);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  return document.activeElement === this || this.contains(document.activeElement);
}`;
