/**
 * The trace's description of an action's target (docs/trace.md, "Targets"): one page-side call,
 * run through the action's own {@link TargetProbe} once its element was found, that answers every
 * locator candidate of the element (test id, role and accessible name, label, placeholder, text,
 * a CSS path), which of them match it alone in its document as Playwright's strict locators
 * count, the same-origin frames above it and whether it is a password field. The exporter
 * (common/trace/export-script.ts) ranks them as Playwright's locator generator does.
 *
 * A description that fails (the page navigated meanwhile, a cross-site frame) leaves the action
 * undescribed: the exporter then falls back on the target as it was asked for.
 */
import { PAGE_LIBRARY } from './page-library.js';
import { RESOLVE_ELEMENT } from './actionability-probe.js';

import type { TargetDescription } from '../../../common/trace/trace-types.js';
import type { HelperContext } from '../helper-context.js';
import type { TargetProbe } from './resolve-target.js';

/** Longest text or name a description keeps (a locator of a paragraph is no locator). */
const TEXT_LIMIT = 80;

/** What describes `el` (see the module comment): the body both probes below share. */
const DESCRIBE_BODY = String.raw`
  const LIMIT = ${TEXT_LIMIT};
  const doc = el.ownerDocument;
  const memo = new Map();
  // Every element of the element's document and its open shadow roots (not its frames: a frame's
  // locator is scoped to it, as Playwright's contentFrame() is).
  const all = [];
  const scopes = [doc];
  for (let i = 0; i < scopes.length && all.length < 20000; i++) {
    const walker = doc.createTreeWalker(scopes[i], 1);
    for (let n = walker.nextNode(); n && all.length < 20000; n = walker.nextNode()) {
      all.push(n);
      if (n.shadowRoot) scopes.push(n.shadowRoot);
    }
  }
  function count(test) {
    let found = 0;
    for (let i = 0; i < all.length && found < 2; i++) if (test(all[i])) found++;
    return found;
  }
  function cssEscape(value) {
    return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(value) : String(value).replace(/[^A-Za-z0-9_-]/g, function (c) { return '\\' + c; });
  }
  function cssPath(node) {
    const owner = node.ownerDocument;
    if (node.id && owner.querySelectorAll('#' + cssEscape(node.id)).length === 1) return '#' + cssEscape(node.id);
    const parts = [];
    for (let n = node; n && n.nodeType === ELEMENT_NODE; n = n.parentElement) {
      if (n !== node && n.id && owner.querySelectorAll('#' + cssEscape(n.id)).length === 1) { parts.unshift('#' + cssEscape(n.id)); break; }
      let part = n.localName;
      const parent = n.parentElement;
      if (parent) {
        let same = 0, index = 0;
        for (let c = parent.firstElementChild; c; c = c.nextElementSibling) if (c.localName === n.localName) { same++; if (c === n) index = same; }
        if (same > 1) part += ':nth-of-type(' + index + ')';
      }
      parts.unshift(part);
      if (n.localName === 'body' || n.localName === 'html') break;
    }
    const root = node.getRootNode();
    const path = parts.join(' > ');
    return root && root.nodeType === FRAGMENT_NODE && root.host ? cssPath(root.host) + ' ' + path : path;
  }
  const out = { tag: el.localName, unique: [], frames: [] };
  if (el.localName === 'input') out.type = inputType(el);
  const testId = el.getAttribute('data-testid');
  if (testId) {
    out.testId = testId;
    if (count(function (e) { return e.getAttribute('data-testid') === testId; }) === 1) out.unique.push('testId');
  }
  const role = roleOf(el);
  if (role && role !== 'generic' && role !== 'none' && role !== 'presentation') {
    const name = accessibleName(el);
    if (name.length <= LIMIT) {
      out.role = role;
      if (name) out.name = name;
      if (isVisible(el) && count(function (e) { return roleOf(e) === role && isVisible(e) && accessibleName(e) === name; }) === 1) out.unique.push('role');
    }
  }
  const labels = el.matches(LABELLED) ? labelTexts(el, memo) : [];
  for (let i = 0; i < labels.length && out.label === undefined; i++) {
    const text = normalizeText(labels[i]);
    if (text && text.length <= LIMIT) out.label = text;
  }
  if (out.label !== undefined) {
    const label = out.label;
    if (count(function (e) {
      if (!e.matches(LABELLED)) return false;
      const texts = labelTexts(e, memo);
      for (let i = 0; i < texts.length; i++) if (normalizeText(texts[i]) === label) return true;
      return false;
    }) === 1) out.unique.push('label');
  }
  const placeholder = el.getAttribute('placeholder');
  if (placeholder && placeholder.length <= LIMIT) {
    out.placeholder = placeholder;
    if (count(function (e) { return e.getAttribute('placeholder') === placeholder; }) === 1) out.unique.push('placeholder');
  }
  if (el.localName !== 'input' && el.localName !== 'textarea' && el.localName !== 'select') {
    const text = normalizeText(textOf(el, memo));
    if (text && text.length <= LIMIT) {
      out.text = text;
      // getByText matches the innermost elements whose text is the text.
      function innermost(e) {
        if (normalizeText(textOf(e, memo)) !== text) return false;
        for (let c = e.firstElementChild; c; c = c.nextElementSibling) if (normalizeText(textOf(c, memo)) === text) return false;
        return true;
      }
      if (innermost(el) && count(innermost) === 1) out.unique.push('text');
    }
  }
  out.css = cssPath(el);
  out.unique.push('css');
  for (let win = doc.defaultView; win && frameElementOf(win); win = frameElementOf(win).ownerDocument.defaultView) out.frames.unshift(cssPath(frameElementOf(win)));
  const autocomplete = String(el.getAttribute('autocomplete') || '').toLowerCase();
  if ((el.localName === 'input' && inputType(el) === 'password') || autocomplete.indexOf('password') !== -1) out.secret = true;
  let url = '';
  try { url = topDocument().location.href; } catch (e) { url = doc.location.href; }
  return { description: out, url: url };
`;

export const DESCRIBE_TARGET = String.raw`function describeTarget(target) {
  'use strict';
  ${PAGE_LIBRARY}
  ${RESOLVE_ELEMENT}
  ${DESCRIBE_BODY}
}`;

/** The element that has focus (through open shadow roots and same-origin frames), described: what `typeText` types into. */
export const DESCRIBE_FOCUSED = String.raw`function describeFocused() {
  'use strict';
  ${PAGE_LIBRARY}
  const el = deepActiveElement();
  if (!el || el.nodeType !== ELEMENT_NODE || el === el.ownerDocument.body || el === el.ownerDocument.documentElement) return null;
  ${DESCRIBE_BODY}
}`;

/**
 * Where a text a wait found shows (docs/trace.md): the CSS paths of the same-origin frames down to
 * the first document (the top one first, then its frames in document order) whose rendered text
 * holds it, case-insensitively as the tools' wait reads it; null when none does.
 */
export const FIND_TEXT_FRAMES = String.raw`function findTextFrames(wanted) {
  'use strict';
  ${PAGE_LIBRARY}
  const needle = String(wanted).toLowerCase();
  function cssOf(node) {
    if (node.id) return '#' + (typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(node.id) : node.id);
    const parts = [];
    for (let n = node; n && n.nodeType === ELEMENT_NODE && n.localName !== 'html'; n = n.parentElement) {
      let part = n.localName;
      const parent = n.parentElement;
      if (parent) {
        let same = 0, index = 0;
        for (let c = parent.firstElementChild; c; c = c.nextElementSibling) if (c.localName === n.localName) { same++; if (c === n) index = same; }
        if (same > 1) part += ':nth-of-type(' + index + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  }
  const queue = [{ doc: document, frames: [] }];
  for (let i = 0; i < queue.length && i < 200; i++) {
    const { doc, frames } = queue[i];
    const text = doc.body ? String(doc.body.innerText || '') : '';
    if (text.toLowerCase().indexOf(needle) !== -1) return frames;
    const owners = doc.querySelectorAll('iframe, frame');
    for (let j = 0; j < owners.length; j++) {
      const inner = contentDocumentOf(owners[j]);
      if (inner) queue.push({ doc: inner, frames: frames.concat([cssOf(owners[j])]) });
    }
  }
  return null;
}`;

/**
 * The frames of the text the running traced wait found (see {@link FIND_TEXT_FRAMES}): described
 * as a target with only `frames` and `text`, never a failure of the wait.
 */
export async function describeTextForTrace(context: HelperContext, text: string): Promise<void> {
  const trace = context.trace;
  if (!trace.wantsTarget) return;
  try {
    const sessionId = await context.client.ensureAttached(context.callOptions());
    const response = await context.client.send('Runtime.evaluate', { expression: `(${FIND_TEXT_FRAMES})(${JSON.stringify(text)})`, returnByValue: true }, context.callOptions({ sessionId, timeoutMs: 2_000 }));
    const frames = response.result.value as unknown;
    if (!Array.isArray(frames) || frames.length === 0) return;
    trace.describeTarget({ tag: '', text, css: '', unique: [], frames: frames.map(String) });
  } catch {
    // The wait itself succeeded; without frames the assertion looks in the top document.
  }
}

/**
 * Describes the focused element for the running traced action (`typeText`): one `Runtime.evaluate`,
 * so that what is typed into a password field is known to be a secret before it is recorded.
 */
export async function describeFocusedForTrace(context: HelperContext, sessionId: string): Promise<void> {
  const trace = context.trace;
  if (!trace.wantsTarget) return;
  try {
    const response = await context.client.send('Runtime.evaluate', { expression: `(${DESCRIBE_FOCUSED})()`, returnByValue: true }, context.callOptions({ sessionId, timeoutMs: 2_000 }));
    const value = response.result.value as { description?: TargetDescription; url?: string } | null;
    if (value?.description !== undefined) trace.describeTarget(value.description, typeof value.url === 'string' ? value.url : undefined);
  } catch {
    // Typing goes on; undescribed, the text is recorded as not secret only if nothing said otherwise.
  }
}

/**
 * Describes the target of the running traced action, when it still wants one: one probe run,
 * never a failure of the action (a description that fails leaves the action undescribed).
 */
export async function describeForTrace(context: HelperContext, probe: TargetProbe): Promise<void> {
  const trace = context.trace;
  if (!trace.wantsTarget) return;
  try {
    const outcome = await probe.run(DESCRIBE_TARGET, [], { awaitPromise: false, timeoutMs: 2_000 });
    if (outcome.kind !== 'value') return;
    const value = outcome.value as { description?: TargetDescription; url?: string } | null;
    if (value?.description === undefined) return;
    trace.describeTarget(value.description, typeof value.url === 'string' ? value.url : undefined);
  } catch {
    // The action itself decides whether the element was there.
  }
}
