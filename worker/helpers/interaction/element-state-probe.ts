/**
 * The page-side probe of `waitForElement` (docs/interaction.md, "Waits"), as JavaScript source:
 * `elementState(target, state)` answers whether `state` holds now, over *all* matches of a
 * selector or semantic query (in the document, its open shadow roots and same-origin frames), so
 * a hidden duplicate never masks a visible match and vice versa. In node mode (`target === null`,
 * `this` = the node) a node that left the document is detached and hidden. An invalid selector
 * returns `{invalid}`.
 */
import { PAGE_LIBRARY } from './page-library.js';

/** `elementState(target, state)`: `true`/`false`, or `{invalid}` for a selector the page rejects. */
export const STATE_PROBE = String.raw`function elementState(target, state) {
  'use strict';
  ${PAGE_LIBRARY}
  let attached = false, visible = false;
  if (target === null) {
    const el = asElement(this);
    attached = el !== null && el.isConnected;
    visible = attached && isVisible(el);
  } else {
    const all = allMatches(target);
    if (all.invalid !== undefined) return { invalid: all.invalid };
    attached = all.length > 0;
    for (let i = 0; i < all.length && !visible; i++) visible = isVisible(all[i]);
  }
  if (state === 'attached') return attached;
  if (state === 'detached') return !attached;
  if (state === 'visible') return visible;
  return !visible;
}`;
