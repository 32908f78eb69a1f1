/**
 * Projects Chromium's accessibility trees (`Accessibility.getFullAXTree` of the page and of each
 * same-process frame) onto the compact node list of `accessibilitySnapshot()` (pure;
 * test/unit/ax-projection.test.mjs).
 *
 * Compared with the hosted product's flat dump (browser-helpers.md §14, §18):
 * - only element nodes an action can target are listed; text nodes (StaticText, InlineTextBox)
 *   are folded into their parent's `text`, and the document nodes are dropped;
 * - layout wrappers (`generic` without name, text or focus) are dropped, their children move up;
 * - same-process iframes are stitched in under their `Iframe` node;
 * - `depth` gives the hierarchy, `maxNodes` bounds the size (`truncated` tells);
 * - `value` is present only when the node has one (never the string "undefined").
 */
import type { Protocol } from 'devtools-protocol';

/** One node of a snapshot. Pass it to click, fillInput, waitForElement or uploadFile as is. */
export interface SnapshotNode {
  /** The handle: Chromium's `DOM.BackendNodeId`, stable while the element lives. */
  backendNodeId: number;
  role: string;
  name: string;
  /** Nesting among the listed nodes (0 = top level). */
  depth: number;
  value?: string;
  /** Text inside the element that its name does not already say (at most 200 characters). */
  text?: string;
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  selected?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  focused?: true;
  required?: true;
  readonly?: true;
  /** Heading level. */
  level?: number;
}

/** An AX tree of a child frame and the iframe element that holds it. */
export interface FrameTree {
  ownerBackendNodeId: number;
  nodes: readonly Protocol.Accessibility.AXNode[];
}

/** Filters of {@link projectAxTree}. */
export interface ProjectionOptions {
  maxNodes: number;
  /** Keep only widgets (buttons, links, fields, …) and other focusable nodes. */
  interactiveOnly: boolean;
}

/** Result of {@link projectAxTree}. */
export interface Projection {
  nodes: SnapshotNode[];
  /** Nodes that passed the filters, including those cut by `maxNodes`. */
  total: number;
  truncated: boolean;
}

const TEXT_ROLES = new Set(['StaticText', 'InlineTextBox', 'LineBreak', 'ListMarker']);
const DOCUMENT_ROLES = new Set(['RootWebArea', 'WebArea']);
/** Roles that only structure layout; kept only when they carry a name, text or focus. */
const WRAPPER_ROLES = new Set(['generic', 'none', 'presentation', 'MenuListPopup', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell']);
/** Fields whose inner editor nodes repeat their value. */
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const INTERACTIVE_ROLES = new Set([
  'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio',
  'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem',
]);
const TEXT_LIMIT = 200;

interface Entry {
  readonly node: Protocol.Accessibility.AXNode;
  readonly children: string[];
  readonly parent: string | undefined;
  text: string;
}

function axValue(value: Protocol.Accessibility.AXValue | undefined): unknown {
  return value?.value;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function property(node: Protocol.Accessibility.AXNode, name: string): unknown {
  return node.properties?.find((candidate) => candidate.name === name)?.value.value;
}

function triState(value: unknown): boolean | 'mixed' | undefined {
  if (value === 'mixed') return 'mixed';
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** Builds one id space over all trees: ids of frame `i` get the prefix `f<i>:`. */
function index(main: readonly Protocol.Accessibility.AXNode[], frames: readonly FrameTree[]): { entries: Map<string, Entry>; roots: string[] } {
  const entries = new Map<string, Entry>();
  const add = (nodes: readonly Protocol.Accessibility.AXNode[], prefix: string): string[] => {
    const roots: string[] = [];
    for (const node of nodes) {
      const id = prefix + node.nodeId;
      const parent = node.parentId === undefined ? undefined : prefix + node.parentId;
      entries.set(id, { node, parent, children: (node.childIds ?? []).map((child) => prefix + child), text: '' });
      if (parent === undefined) roots.push(id);
    }
    return roots;
  };
  const roots = add(main, '');
  const frameRoots = frames.map((frame, i) => ({ owner: frame.ownerBackendNodeId, roots: add(frame.nodes, `f${i}:`) }));
  // Hang each frame's document under the AX node of its <iframe>.
  const byBackendId = new Map<number, Entry>();
  for (const entry of entries.values()) {
    if (entry.node.role?.value === 'Iframe' && entry.node.backendDOMNodeId !== undefined) byBackendId.set(entry.node.backendDOMNodeId, entry);
  }
  for (const frame of frameRoots) byBackendId.get(frame.owner)?.children.push(...frame.roots);
  return { entries, roots };
}

function isKept(entry: Entry, entries: Map<string, Entry>, options: ProjectionOptions): boolean {
  const { node } = entry;
  const role = String(axValue(node.role) ?? '');
  if (node.ignored || !node.backendDOMNodeId || TEXT_ROLES.has(role) || DOCUMENT_ROLES.has(role)) return false;
  const focusable = property(node, 'focusable') === true;
  if (options.interactiveOnly) return INTERACTIVE_ROLES.has(role) || (focusable && !WRAPPER_ROLES.has(role));
  if (!WRAPPER_ROLES.has(role)) return true;
  const parentRole = entry.parent === undefined ? undefined : axValue(entries.get(entry.parent)?.node.role);
  if (typeof parentRole === 'string' && FIELD_ROLES.has(parentRole)) return false;
  return collapse(String(axValue(node.name) ?? '')) !== '' || entry.text !== '' || focusable;
}

function toSnapshotNode(entry: Entry, depth: number): SnapshotNode {
  const { node } = entry;
  const name = collapse(String(axValue(node.name) ?? ''));
  const result: SnapshotNode = { backendNodeId: node.backendDOMNodeId ?? 0, role: String(axValue(node.role) ?? ''), name, depth };
  const value = axValue(node.value);
  if (value !== undefined && value !== null) result.value = String(value);
  const text = collapse(entry.text);
  if (text !== '' && text !== name) result.text = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
  const checked = triState(property(node, 'checked'));
  if (checked !== undefined) result.checked = checked;
  const pressed = triState(property(node, 'pressed'));
  if (pressed !== undefined) result.pressed = pressed;
  for (const name of ['selected', 'expanded', 'disabled'] as const) {
    const state = property(node, name);
    if (typeof state === 'boolean') result[name] = state;
  }
  for (const name of ['focused', 'required', 'readonly'] as const) {
    if (property(node, name) === true) result[name] = true;
  }
  const level = property(node, 'level');
  if (typeof level === 'number') result.level = level;
  return result;
}

/** The snapshot nodes of `main` with `frames` stitched in, in document order. */
export function projectAxTree(main: readonly Protocol.Accessibility.AXNode[], frames: readonly FrameTree[], options: ProjectionOptions): Projection {
  const { entries, roots } = index(main, frames);
  // Text first: a wrapper's own text decides whether it is kept.
  for (const entry of entries.values()) {
    if (axValue(entry.node.role) !== 'StaticText' || entry.node.ignored || entry.parent === undefined) continue;
    const parent = entries.get(entry.parent);
    if (parent !== undefined) parent.text += String(axValue(entry.node.name) ?? '');
  }
  const nodes: SnapshotNode[] = [];
  let total = 0;
  const seen = new Set<string>();
  // Iterative pre-order walk: pages can nest deeper than the call stack.
  const stack: Array<{ id: string; depth: number }> = roots.map((id) => ({ id, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { id, depth } = stack.pop() as { id: string; depth: number };
    const entry = entries.get(id);
    if (entry === undefined || seen.has(id)) continue;
    seen.add(id);
    const kept = isKept(entry, entries, options);
    if (kept) {
      total++;
      if (nodes.length < options.maxNodes) nodes.push(toSnapshotNode(entry, depth));
    }
    const childDepth = kept ? depth + 1 : depth;
    for (let i = entry.children.length - 1; i >= 0; i--) stack.push({ id: entry.children[i] ?? '', depth: childDepth });
  }
  return { nodes, total, truncated: total > nodes.length };
}
