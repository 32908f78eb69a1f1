/**
 * URL prefixes of browser-internal pages. Automatic attach skips these in favour of a page with
 * real content. `about:` is included (so `about:blank` is internal), as in the newest reference
 * client (browser-helpers.md §2.5).
 */
export const INTERNAL_URL_PREFIXES: readonly string[] = [
  'chrome://',
  'chrome-extension://',
  'chrome-untrusted://',
  'devtools://',
  'edge://',
  'about:',
];

/**
 * True for browser-internal URLs. An empty URL also counts: it belongs to a target that has not
 * committed a document yet, which is no better a choice than `about:blank`.
 */
export function isInternalUrl(url: string): boolean {
  if (url === '') return true;
  const lower = url.toLowerCase();
  return INTERNAL_URL_PREFIXES.some((prefix) => lower.startsWith(prefix));
}
