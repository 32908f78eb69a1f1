/**
 * Page-side matching of semantic targets (`{role, name}`, `{text}`, `{label}`), as JavaScript
 * source appended to `PAGE_LIBRARY` (it uses that library's helpers: `composedParent`,
 * `styleOf`, `isFrameElement`, `contentDocumentOf`, `describe`).
 *
 * Roles and names are computed here, in the page, rather than read from Chromium's
 * accessibility tree: `Accessibility.queryAXTree` costs about 17 ms per call on a small page
 * (it brings the whole tree up to date first; one `Runtime.evaluate` costs about 1 ms), matches
 * names exactly only (a substring match would fetch every node of the role), does not search
 * iframes, and needs a `DOM.resolveNode` per candidate before the actionability probe can run.
 * Here the whole match is part of the one probe call. The rules follow WAI-ARIA, HTML-AAM and
 * accname 1.2 as Playwright's getByRole / getByText / getByLabel apply them (trimmed to what
 * pages use); test/browser/semantic-targets.test.mjs checks the names against Chromium's own.
 *
 * Like the library, it runs in the page's main world and uses plain loops.
 */
export const PAGE_SEMANTICS = String.raw`
  const ARIA_ROLES = ' alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img image insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem ';
  // Roles whose name comes from their content (accname 1.2 "name from content").
  const CONTENT_NAMED = ' button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option radio row rowheader switch tab tooltip treeitem ';
  const NO_TEXT = ' script style noscript template head title ';
  // Elements a label can name: labelable ones (HTML) and any with an ARIA label.
  const LABELLED = 'input:not([type=hidden]),textarea,select,button,meter,output,progress,[aria-label],[aria-labelledby]';

  function hasWord(list, word) {
    return list.indexOf(' ' + word + ' ') !== -1;
  }

  function normalizeText(text) {
    return String(text).replace(/\s+/g, ' ').trim();
  }

  function inputType(el) {
    return String(el.type || 'text').toLowerCase();
  }

  // The landmark roles of header and footer apply only outside sectioning content.
  function inSection(el) {
    for (let n = el.parentElement; n; n = n.parentElement) {
      const tag = n.localName;
      if (tag === 'article' || tag === 'aside' || tag === 'main' || tag === 'nav' || tag === 'section') return true;
    }
    return false;
  }

  function implicitRole(el) {
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'blockquote': return 'blockquote';
      case 'button': return 'button';
      case 'caption': return 'caption';
      case 'code': return 'code';
      case 'datalist': return 'listbox';
      case 'dd': return 'definition';
      case 'del': return 'deletion';
      case 'details': case 'fieldset': case 'optgroup': case 'address': case 'hgroup': return 'group';
      case 'dfn': case 'dt': return 'term';
      case 'dialog': return 'dialog';
      case 'em': return 'emphasis';
      case 'figure': return 'figure';
      case 'footer': return inSection(el) ? null : 'contentinfo';
      case 'form': return 'form';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'header': return inSection(el) ? null : 'banner';
      case 'hr': return 'separator';
      case 'html': return 'document';
      case 'img': return el.getAttribute('alt') === '' && !el.getAttribute('title') && !el.getAttribute('aria-label') ? 'presentation' : 'img';
      case 'ins': return 'insertion';
      case 'li': return 'listitem';
      case 'main': return 'main';
      case 'math': return 'math';
      case 'menu': case 'ol': case 'ul': return 'list';
      case 'meter': return 'meter';
      case 'nav': return 'navigation';
      case 'option': return 'option';
      case 'output': return 'status';
      case 'p': return 'paragraph';
      case 'progress': return 'progressbar';
      case 'search': return 'search';
      case 'section': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title') ? 'region' : null;
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'strong': return 'strong';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'svg': return 'img';
      case 'table': return 'table';
      case 'tbody': case 'thead': case 'tfoot': return 'rowgroup';
      case 'td': return 'cell';
      case 'textarea': return 'textbox';
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'time': return 'time';
      case 'tr': return 'row';
      case 'input': {
        const type = inputType(el);
        switch (type) {
          case 'hidden': return null;
          case 'button': case 'image': case 'reset': case 'submit': return 'button';
          // HTML-AAM gives file inputs no role; every browser exposes them as a button (so does Playwright).
          case 'file': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'number': return 'spinbutton';
          case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
          default: return el.hasAttribute('list') && (type === 'text' || type === 'email' || type === 'tel' || type === 'url') ? 'combobox' : 'textbox';
        }
      }
      default: return null;
    }
  }

  function isNativelyFocusable(el) {
    const tag = el.localName;
    if (tag === 'button' || tag === 'select' || tag === 'textarea' || (tag === 'input' && inputType(el) !== 'hidden')) return !el.disabled;
    return (tag === 'a' && el.hasAttribute('href')) || el.hasAttribute('tabindex');
  }

  // The first valid token of the role attribute, else the implicit role. none/presentation are
  // ignored on focusable elements (ARIA's conflict resolution).
  function roleOf(el) {
    const tokens = (el.getAttribute('role') || '').toLowerCase().split(/\s+/);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (!token || !hasWord(ARIA_ROLES, token)) continue;
      if ((token === 'none' || token === 'presentation') && isNativelyFocusable(el)) break;
      return token === 'image' ? 'img' : token;
    }
    return implicitRole(el);
  }

  // Elements that can have a role, as a selector: the tags that carry it implicitly (or stand for
  // a snapshot role name) plus any explicit role. The native selector engine then narrows a page
  // of thousands of elements to the few worth computing a role and name for.
  function roleCandidates(role) {
    let tags = '';
    switch (role) {
      case 'button': case 'checkbox': case 'radio': case 'slider': case 'spinbutton': case 'searchbox':
      case 'file input': case 'date': case 'datetime': case 'inputtime': tags = role === 'button' ? 'button,input' : 'input'; break;
      case 'textbox': tags = 'input,textarea'; break;
      case 'combobox': tags = 'input,select'; break;
      case 'listbox': tags = 'select,datalist'; break;
      case 'link': tags = 'a[href],area[href]'; break;
      case 'heading': tags = 'h1,h2,h3,h4,h5,h6'; break;
      case 'img': case 'image': case 'presentation': case 'none': tags = 'img,svg'; break;
      case 'list': tags = 'ul,ol,menu'; break;
      case 'listitem': tags = 'li'; break;
      case 'option': tags = 'option'; break;
      case 'row': tags = 'tr'; break;
      case 'cell': tags = 'td'; break;
      case 'columnheader': case 'rowheader': tags = 'th'; break;
      case 'rowgroup': tags = 'tbody,thead,tfoot'; break;
      case 'group': tags = 'details,fieldset,optgroup,address,hgroup'; break;
      case 'term': tags = 'dfn,dt'; break;
      case 'banner': tags = 'header'; break;
      case 'contentinfo': tags = 'footer'; break;
      case 'complementary': tags = 'aside'; break;
      case 'region': tags = 'section'; break;
      case 'navigation': tags = 'nav'; break;
      case 'labeltext': tags = 'label'; break;
      case 'iframe': tags = 'iframe,frame'; break;
      case 'definition': tags = 'dd'; break;
      case 'deletion': tags = 'del'; break;
      case 'insertion': tags = 'ins'; break;
      case 'emphasis': tags = 'em'; break;
      case 'separator': tags = 'hr'; break;
      case 'status': tags = 'output'; break;
      case 'progressbar': tags = 'progress'; break;
      case 'subscript': tags = 'sub'; break;
      case 'superscript': tags = 'sup'; break;
      case 'document': tags = 'html'; break;
      case 'paragraph': tags = 'p'; break;
      default:
        // Roles whose name is also their element's tag (article, blockquote, caption, code, dialog,
        // figure, form, main, math, meter, search, strong, table, time).
        if (/^[a-z]+$/.test(role)) tags = role;
    }
    return (tags ? tags + ',' : '') + '[role]';
  }

  function isInputOf(el, types) {
    return el.localName === 'input' && types.indexOf(' ' + inputType(el) + ' ') !== -1;
  }

  // Role names as accessibilitySnapshot() prints them (Chromium's own, where they differ from
  // ARIA) match the elements they stand for, so a role read off a snapshot works as a target.
  function roleMatches(el, wanted) {
    const role = roleOf(el);
    if (role === wanted) return true;
    switch (wanted) {
      case 'image': return role === 'img';
      case 'file input': return isInputOf(el, ' file ');
      case 'date': return isInputOf(el, ' date ');
      case 'datetime': return isInputOf(el, ' datetime-local month week ');
      case 'inputtime': return isInputOf(el, ' time ');
      case 'labeltext': return el.localName === 'label';
      case 'iframe': return isFrameElement(el);
      default: return false;
    }
  }

  // Not part of the accessibility tree: aria-hidden on the element or an ancestor (frames included).
  function isAriaHidden(el) {
    for (let n = el; n; n = composedParent(n)) {
      if (n.nodeType === ELEMENT_NODE && n.getAttribute('aria-hidden') === 'true') return true;
    }
    return false;
  }

  // Children in the flat tree: an open shadow root's content, a slot's assigned nodes.
  function flatChildren(node) {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
      const assigned = node.assignedNodes();
      if (assigned.length > 0) return assigned;
    }
    return node.childNodes;
  }

  function idRefs(el, attribute) {
    const value = el.getAttribute(attribute);
    if (!value) return null;
    const root = el.getRootNode();
    const ids = value.split(/\s+/);
    const found = [];
    for (let i = 0; i < ids.length; i++) {
      if (!ids[i]) continue;
      const ref = typeof root.getElementById === 'function' ? root.getElementById(ids[i]) : el.ownerDocument.getElementById(ids[i]);
      if (ref) found.push(ref);
    }
    return found.length > 0 ? found : null;
  }

  function isHiddenForName(el) {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    const style = styleOf(el);
    return style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse';
  }

  // CSS generated content (::before, ::after) is part of a name, as Chromium has it.
  function pseudoText(el, which) {
    const content = el.ownerDocument.defaultView.getComputedStyle(el, which).content;
    if (!content || content === 'none' || content === 'normal') return '';
    const quoted = /^["'](.*)["']$/.exec(content);
    return quoted ? quoted[1] : '';
  }

  function isBlock(el) {
    const display = styleOf(el).display;
    return display !== 'inline' && display !== 'contents' && display.indexOf('inline') !== 0;
  }

  // The value an embedded control contributes to another element's name (accname 2C).
  function embeddedValue(el, role) {
    if (role === 'textbox' || role === 'searchbox') return el.localName === 'input' || el.localName === 'textarea' ? el.value : el.textContent;
    if (role === 'combobox' || role === 'listbox') {
      if (el.localName === 'select') {
        const texts = [];
        for (let i = 0; i < el.options.length; i++) if (el.options[i].selected) texts.push(el.options[i].textContent);
        return texts.join(' ');
      }
      return el.localName === 'input' ? el.value : null;
    }
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar') {
      return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || (el.localName === 'input' ? el.value : '');
    }
    return null;
  }

  function labelsOf(el) {
    try { return el.labels || null; } catch (e) { return null; }
  }

  // The name HTML gives an element (HTML-AAM), after aria-labelledby and aria-label.
  function nativeName(el, state) {
    const tag = el.localName;
    if (tag === 'input') {
      const type = inputType(el);
      if (type === 'button' || type === 'submit' || type === 'reset') {
        if (el.hasAttribute('value')) return el.value;
        return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
      }
      if (type === 'image') return el.getAttribute('alt') || el.getAttribute('value') || el.getAttribute('title') || 'Submit';
    }
    const labels = tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'output' || tag === 'progress' ? labelsOf(el) : null;
    if (labels && labels.length > 0) {
      const texts = [];
      for (let i = 0; i < labels.length; i++) texts.push(contentText(labels[i], state));
      const text = normalizeText(texts.join(' '));
      if (text) return text;
    }
    if (tag === 'input' && inputType(el) === 'file') return el.getAttribute('title') || (el.multiple ? 'Choose Files' : 'Choose File');
    if (tag === 'input' || tag === 'textarea') return el.getAttribute('title') || el.getAttribute('placeholder') || '';
    if (tag === 'img' || tag === 'area') return el.getAttribute('alt') || '';
    const captionTag = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : tag === 'figure' ? 'figcaption' : tag === 'svg' ? 'title' : null;
    if (captionTag) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === captionTag) return contentText(c, state);
    }
    return '';
  }

  function contentText(el, state) {
    let text = pseudoText(el, '::before');
    const children = flatChildren(el);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child.nodeType === TEXT_NODE) { text += child.data; continue; }
      if (child.nodeType !== ELEMENT_NODE || hasWord(NO_TEXT, child.localName)) continue;
      const part = nameOf(child, state, false);
      text += isBlock(child) ? ' ' + part + ' ' : part;
    }
    return text + pseudoText(el, '::after');
  }

  // accname 1.2, step 2, for el; root is the element whose name is being computed.
  function nameOf(el, state, isRoot) {
    if (state.visited.indexOf(el) !== -1) return '';
    state.visited.push(el);
    if (!isRoot && !state.referenced && isHiddenForName(el)) return '';
    if (!state.referenced) {
      const refs = idRefs(el, 'aria-labelledby');
      if (refs) {
        const parts = [];
        const inner = { visited: state.visited, referenced: true, root: state.root };
        for (let i = 0; i < refs.length; i++) parts.push(nameOf(refs[i], inner, true));
        const joined = normalizeText(parts.join(' '));
        if (joined) return joined;
      }
    }
    const role = roleOf(el);
    if (!isRoot || (state.referenced && el !== state.root)) {
      // The control being named contributes nothing to its own label.
      if (el === state.root) return '';
      const value = embeddedValue(el, role);
      if (value !== null) return value;
    }
    const ariaLabel = el.getAttribute('aria-label');
    if (ariaLabel && ariaLabel.trim()) return ariaLabel;
    if (role !== 'presentation' && role !== 'none') {
      const native = nativeName(el, state);
      if (native && native.trim()) return native;
    }
    if (!isRoot || state.referenced || hasWord(CONTENT_NAMED, role)) {
      const content = contentText(el, state);
      if (content.trim()) return content;
    }
    return el.getAttribute('title') || '';
  }

  function accessibleName(el) {
    return normalizeText(nameOf(el, { visited: [], referenced: false, root: el }, true));
  }

  // Text as getByText reads it: the flat tree's text nodes (shadow content included), a
  // button-like input's value; memo holds what was computed during this probe.
  function textOf(el, memo) {
    const known = memo.get(el);
    if (known !== undefined) return known;
    let text = '';
    if (el.localName === 'input') {
      const type = inputType(el);
      if (type === 'button' || type === 'submit' || type === 'reset') text = el.value;
    } else {
      const children = flatChildren(el);
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        if (child.nodeType === TEXT_NODE) text += child.data;
        else if (child.nodeType === ELEMENT_NODE && !hasWord(NO_TEXT, child.localName)) text += textOf(child, memo);
      }
    }
    memo.set(el, text);
    return text;
  }

  function compileMatch(match) {
    if (typeof match.source === 'string') {
      const pattern = new RegExp(match.source, match.flags);
      return function (text) { return pattern.test(normalizeText(text)); };
    }
    const wanted = normalizeText(match.value);
    if (match.exact) return function (text) { return normalizeText(text) === wanted; };
    const lower = wanted.toLowerCase();
    return function (text) { return normalizeText(text).toLowerCase().indexOf(lower) !== -1; };
  }

  // The texts getByLabel matches an element by: its aria-labelledby elements, else its
  // aria-label, else its <label> elements.
  function labelTexts(el, memo) {
    const refs = idRefs(el, 'aria-labelledby');
    const texts = [];
    if (refs) {
      for (let i = 0; i < refs.length; i++) texts.push(textOf(refs[i], memo));
      return texts;
    }
    const ariaLabel = el.getAttribute('aria-label');
    if (ariaLabel && ariaLabel.trim()) return [ariaLabel];
    if (el.localName === 'label') return texts;
    const labels = labelsOf(el);
    if (labels) for (let i = 0; i < labels.length; i++) texts.push(textOf(labels[i], memo));
    return texts;
  }

  // Every element of every scope (document, open shadow roots, same-origin frames), in turn.
  function forEachDeepElement(visit) {
    unsearchedFrames = 0;
    const scopes = [document];
    for (let i = 0; i < scopes.length && i < 10000; i++) {
      const scope = scopes[i];
      const owner = scope.nodeType === DOCUMENT_NODE ? scope : scope.ownerDocument;
      const walker = owner.createTreeWalker(scope, 1);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        visit(n);
        if (n.shadowRoot) scopes.push(n.shadowRoot);
        if (isFrameElement(n)) {
          const inner = contentDocumentOf(n);
          if (inner && inner.documentElement) scopes.push(inner);
          else if (!inner) unsearchedFrames++;
        }
      }
    }
  }

  // Every element a semantic query matches, visible or not (callers filter).
  function semanticQuery(query) {
    const found = [];
    const memo = new Map();
    if (typeof query.role === 'string') {
      const nameMatches = query.name ? compileMatch(query.name) : null;
      const candidates = deepQuery(roleCandidates(query.role));
      for (let i = 0; i < candidates.length; i++) {
        const el = candidates[i];
        if (!roleMatches(el, query.role)) continue;
        // A <label> has no role and so no name of its own; the snapshot names it by its text.
        const name = nameMatches === null ? '' : query.role === 'labeltext' ? textOf(el, memo) : accessibleName(el);
        if ((nameMatches === null || nameMatches(name)) && !isAriaHidden(el)) found.push(el);
      }
      return found;
    }
    if (query.label) {
      const labelMatches = compileMatch(query.label);
      const candidates = deepQuery(LABELLED);
      for (let i = 0; i < candidates.length; i++) {
        const texts = labelTexts(candidates[i], memo);
        for (let j = 0; j < texts.length; j++) if (labelMatches(texts[j])) { found.push(candidates[i]); break; }
      }
      return found;
    }
    // Text: the innermost elements whose text matches (an ancestor of a match matches too).
    const textMatches = compileMatch(query.text);
    const all = [];
    forEachDeepElement(function (el) {
      if (!hasWord(NO_TEXT, el.localName) && el.localName !== 'html' && textMatches(textOf(el, memo))) all.push(el);
    });
    const outer = new Set();
    for (let i = 0; i < all.length; i++) {
      const parent = all[i].assignedSlot || all[i].parentElement || (all[i].parentNode && all[i].parentNode.host) || null;
      if (parent) outer.add(parent);
    }
    for (let i = 0; i < all.length; i++) if (!outer.has(all[i])) found.push(all[i]);
    return found;
  }

  // A match as the ambiguity error lists it: button "Book now", or <p> "Welcome to…"; a file
  // input as the snapshot calls it.
  function describeMatch(el) {
    const role = isInputOf(el, ' file ') ? 'file input' : roleOf(el);
    let name = role ? accessibleName(el) : '';
    if (!name) name = normalizeText(textOf(el, new Map()));
    if (name.length > 50) name = name.slice(0, 49) + '…';
    return (role && role !== 'generic' && role !== 'presentation' ? role : '<' + el.localName + '>') + (name ? ' ' + JSON.stringify(name) : '');
  }
`;
