/**
 * From what the worker read (`PageRead`) to what a model sees: the capped full snapshot, the diff
 * against the session's previous snapshot, and `find` over everything read. Pure (unit-tested in
 * test/unit/tool-snapshot.test.mjs); rendering is `render.ts`.
 */
import type { PageRead, SnapshotElement } from '../../common/protocol/tool-messages.js';
import type { FindMatch, PageSnapshot, SnapshotDiff, ToolTab } from './types.js';

/** What a diff compares against: the previous snapshot's elements and text, as read (uncapped). */
export interface SnapshotBaseline {
  document: string;
  url: string;
  elements: Map<number, SnapshotElement>;
  lines: Set<string>;
}

/** Lines a diff or find reports at most, and the longest line it shows. */
const MAX_LINES = 200;
const LINE_CHARS = 300;

export function tabsOf(read: PageRead): ToolTab[] {
  return read.tabs.map((tab, index) => ({ index, title: tab.title, url: tab.url, active: tab.active }));
}

/**
 * What the next diff compares with. A read taken while a dialog held the page has nothing of the
 * page in it, so it never replaces a baseline: the diff after the dialog is answered compares with
 * the page as it was before (and never reads as a new document).
 */
export function nextBaseline(previous: SnapshotBaseline | undefined, read: PageRead): SnapshotBaseline | undefined {
  return read.dialog !== undefined ? previous : baselineOf(read);
}

export function baselineOf(read: PageRead): SnapshotBaseline {
  return {
    document: read.document,
    url: read.url,
    elements: new Map(read.elements.map((element) => [element.ref, element])),
    lines: new Set(read.text.split('\n')),
  };
}

/** Most labels a line filter is built from: enough for any page a model reads, bounded for one with thousands. */
const MAX_FILTER_LABELS = 2_000;

/**
 * A test for lines of visible text that say nothing the element list does not: lines made only
 * of element labels, values and options ("Email Password Country", a select's options). Such
 * lines are left out of the snapshot's text; a line with any other word stays whole.
 */
export function controlOnlyLines(elements: readonly SnapshotElement[]): (line: string) => boolean {
  const words = new Set<string>();
  for (const element of elements) {
    for (const text of [element.label, element.value, ...(element.options ?? [])]) {
      if (text !== undefined && text.trim() !== '' && !text.endsWith('…')) words.add(text.trim());
      if (words.size >= MAX_FILTER_LABELS) break;
    }
  }
  if (words.size === 0) return () => false;
  const alternatives = [...words].sort((a, b) => b.length - a.length).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?:${alternatives.join('|')})`, 'g');
  return (line) => line.replace(pattern, '').replace(/[\s:*|•·,;–—-]+/g, '') === '';
}

/** The visible text without control-only lines, cut at `maxChars`; and whether the cut dropped anything. */
function textBeside(read: PageRead, maxChars: number): { text: string; truncated: boolean } {
  const controlOnly = controlOnlyLines(read.elements);
  const kept: string[] = [];
  let length = 0;
  for (const line of read.text.split('\n')) {
    if (line === '' || controlOnly(line)) continue;
    const added = (kept.length === 0 ? 0 : 1) + line.length;
    if (length + added > maxChars) {
      const room = maxChars - length - (kept.length === 0 ? 0 : 1);
      if (room > 0) kept.push(line.slice(0, room));
      return { text: kept.join('\n'), truncated: true };
    }
    kept.push(line);
    length += added;
  }
  return { text: kept.join('\n'), truncated: false };
}

/** The capped full snapshot (its `chars` is set by the caller once rendered). */
export function fullSnapshot(read: PageRead, caps: { maxTextChars: number; maxElements: number }): PageSnapshot {
  const { text, truncated } = textBeside(read, caps.maxTextChars);
  const snapshot: PageSnapshot = {
    mode: 'full',
    title: read.title,
    url: read.url,
    text,
    textTruncated: truncated,
    textChars: read.text.length,
    elements: read.elements.slice(0, caps.maxElements),
    elementCount: read.elements.length,
    tabs: tabsOf(read),
    chars: 0,
  };
  if (read.dialog !== undefined) snapshot.dialog = read.dialog;
  if (read.overlay !== undefined) snapshot.overlay = read.overlay;
  return snapshot;
}

function sameElement(a: SnapshotElement, b: SnapshotElement): boolean {
  return a.label === b.label && a.value === b.value && a.href === b.href && a.type === b.type
    && (a.state ?? []).join() === (b.state ?? []).join() && (a.options ?? []).join('\u0000') === (b.options ?? []).join('\u0000');
}

function capLines(lines: string[]): string[] {
  return lines.slice(0, MAX_LINES).map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line));
}

/**
 * What changed since `previous`: elements added, changed (same ref, other label, value or state)
 * and removed, and lines of text that appeared or went. Without a baseline, or after a
 * navigation to another document, everything counts as added (`navigated: true`). Added and
 * changed elements share the `maxElements` cap.
 */
export function diffSnapshot(previous: SnapshotBaseline | undefined, read: PageRead, caps: { maxTextChars: number; maxElements: number }): SnapshotDiff {
  // A dialog holds the page: nothing of it can be read, which is no change (the page under the
  // dialog is compared with what came before it once the dialog is answered).
  if (read.dialog !== undefined) {
    return {
      mode: 'diff', title: read.title, url: read.url, navigated: false, added: [], changed: [], removed: [], textAdded: [], textRemoved: [],
      elementCount: previous?.elements.size ?? 0, tabs: tabsOf(read), dialog: read.dialog, chars: 0,
    };
  }
  const navigated = previous === undefined || previous.document !== read.document;
  const added: SnapshotElement[] = [];
  const changed: SnapshotElement[] = [];
  const removed: number[] = [];
  const now = new Set<number>();
  for (const element of read.elements) {
    now.add(element.ref);
    const before = navigated ? undefined : previous.elements.get(element.ref);
    if (added.length + changed.length >= caps.maxElements) continue;
    if (before === undefined) added.push(element);
    else if (!sameElement(before, element)) changed.push(element);
  }
  if (!navigated) for (const ref of previous.elements.keys()) if (!now.has(ref)) removed.push(ref);
  const controlOnly = controlOnlyLines(read.elements);
  const lines = read.text.split('\n');
  const current = new Set(lines);
  let budget = caps.maxTextChars;
  const textAdded: string[] = [];
  for (const line of lines) {
    if (line === '' || (!navigated && previous.lines.has(line)) || controlOnly(line)) continue;
    if (budget - line.length < 0) break;
    budget -= line.length;
    textAdded.push(line);
  }
  const textRemoved = navigated ? [] : [...previous.lines].filter((line) => line !== '' && !current.has(line) && !controlOnly(line));
  const diff: SnapshotDiff = {
    mode: 'diff',
    title: read.title,
    url: read.url,
    navigated,
    added,
    changed,
    removed,
    textAdded: capLines(textAdded),
    textRemoved: capLines(textRemoved),
    elementCount: read.elements.length,
    tabs: tabsOf(read),
    chars: 0,
  };
  if (read.overlay !== undefined) diff.overlay = read.overlay;
  return diff;
}

/** A query as `find` takes it: a RegExp, or text matched case-insensitively. */
export function matcher(query: string | RegExp): (text: string) => boolean {
  if (query instanceof RegExp) {
    // g and y make test() stateful; a search has no use for them.
    const pattern = new RegExp(query.source, query.flags.replace(/[gy]/g, ''));
    return (text) => pattern.test(text);
  }
  const needle = query.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

/** Elements (label, value, href, options) and text lines of `read` that match, up to `maxElements` and 200 lines. */
export function findInRead(read: PageRead, query: string | RegExp, caps: { maxElements: number }): FindMatch {
  const test = matcher(query);
  const elements = read.elements.filter((element) => [element.label, element.value ?? '', element.href ?? '', ...(element.options ?? [])].some(test)).slice(0, caps.maxElements);
  const lines = capLines(read.text.split('\n').filter((line) => line !== '' && test(line)));
  return { elements, lines, chars: 0 };
}
