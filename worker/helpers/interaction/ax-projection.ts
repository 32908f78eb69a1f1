/**
 * Projects Chromium's accessibility trees (`Accessibility.getFullAXTree` of the page and of each
 * same-process frame) onto the compact node list of `accessibilitySnapshot()` (pure;
 * test/unit/ax-projection.test.mjs).
 *
 * Compared with the hosted product's flat dump (docs/interaction.md, "Accessibility snapshot"):
 * - only element nodes an action can target are listed; text nodes (StaticText, InlineTextBox)
 *   are folded into their parent's `text`, and the document nodes are dropped;
 * - layout wrappers (`generic` without name, text or focus) are dropped, their children move up;
 * - same-process iframes are stitched in under their `Iframe` node;
 * - `depth` gives the hierarchy, `maxNodes` bounds the size (`truncated` tells);
 * - `value` is present only when the node has one (never the string "undefined");
 * - a `<label>` (Chromium's nameless `LabelText`) that labels a control is dropped, since the
 *   control's name says it; one that labels nothing gets its text as its name;
 * - the segments of date and time inputs lose Chromium's doubled names ("Month Month") and
 *   their layout wrappers;
 * - a file input, a nameless-looking `button` in Chromium's tree, is reported as role
 *   `file input` with `fileInput: true` (and `multiple` when it takes several files), so it is
 *   recognisable as uploadFile's target; which buttons are file inputs is a DOM fact
 *   ({@link DomFacts}), asked for the {@link fileInputCandidates} only.
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
  /** An `<input type=file>` (role `file input`): set its files with uploadFile, do not click it. */
  fileInput?: true;
  /** A file input that takes several files. */
  multiple?: true;
}

/** What the DOM says about some nodes, where the AX tree does not tell. */
export interface DomFacts {
  /** File inputs by backend node id, with whether they take several files. */
  fileInputs: ReadonlyMap<number, { multiple: boolean }>;
}

const NO_FACTS: DomFacts = { fileInputs: new Map() };

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
/** Chromium's roles of date and time inputs, whose segments (spinbuttons, picker button) it names twice. */
const DATE_FIELD_ROLES = new Set(['Date', 'DateTime', 'InputTime']);
/** Chromium's role of a `<label>`. */
const LABEL_ROLE = 'LabelText';
/** The role a file input gets in a snapshot (Chromium says `button`). */
export const FILE_INPUT_ROLE = 'file input';
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

/** Where a node sits, as far as the projection cares. */
interface Place {
  /** Inside a date or time input (its segments and picker button). */
  inDateField: boolean;
  /** Backend ids of the elements that label some control (Chromium's `labelledby` relations). */
  labels: ReadonlySet<number>;
}

function isKept(entry: Entry, entries: Map<string, Entry>, options: ProjectionOptions, place: Place): boolean {
  const { node } = entry;
  const role = String(axValue(node.role) ?? '');
  if (!node.backendDOMNodeId || TEXT_ROLES.has(role) || DOCUMENT_ROLES.has(role)) return false;
  // An ignored element is listed only for text nothing else above it could carry (see projectAxTree).
  if (node.ignored) return !options.interactiveOnly && entry.text.trim() !== '';
  const focusable = property(node, 'focusable') === true;
  if (options.interactiveOnly) return INTERACTIVE_ROLES.has(role) || (focusable && !WRAPPER_ROLES.has(role));
  // A label's text is the name of the control it labels; listing it as well says it twice.
  if (role === LABEL_ROLE) return !place.labels.has(node.backendDOMNodeId);
  if (!WRAPPER_ROLES.has(role)) return true;
  if (place.inDateField) return false;
  const parentRole = entry.parent === undefined ? undefined : axValue(entries.get(entry.parent)?.node.role);
  if (typeof parentRole === 'string' && FIELD_ROLES.has(parentRole)) return false;
  return collapse(String(axValue(node.name) ?? '')) !== '' || entry.text !== '' || focusable;
}

/** "Month Month" → "Month": Chromium names a date segment by its aria-label and its label, the same text. */
function undouble(name: string): string {
  const words = name.split(' ');
  if (words.length % 2 !== 0) return name;
  const half = words.length / 2;
  const first = words.slice(0, half).join(' ');
  return first === words.slice(half).join(' ') ? first : name;
}

function toSnapshotNode(entry: Entry, depth: number, place: Place, facts: DomFacts): SnapshotNode {
  const { node } = entry;
  let name = collapse(String(axValue(node.name) ?? ''));
  if (place.inDateField) name = undouble(name);
  let role = node.ignored === true ? 'generic' : String(axValue(node.role) ?? '');
  const text = collapse(entry.text);
  // A label that labels nothing is named by its text (Chromium leaves its name empty).
  if (role === LABEL_ROLE && name === '') name = text;
  const fileInput = node.backendDOMNodeId === undefined ? undefined : facts.fileInputs.get(node.backendDOMNodeId);
  if (fileInput !== undefined) role = FILE_INPUT_ROLE;
  const result: SnapshotNode = { backendNodeId: node.backendDOMNodeId ?? 0, role, name, depth };
  const value = axValue(node.value);
  if (value !== undefined && value !== null) result.value = String(value);
  if (text !== '' && text !== name) result.text = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
  const checked = triState(property(node, 'checked'));
  if (checked !== undefined) result.checked = checked;
  const pressed = triState(property(node, 'pressed'));
  if (pressed !== undefined) result.pressed = pressed;
  for (const state of ['selected', 'expanded', 'disabled'] as const) {
    const flag = property(node, state);
    if (typeof flag === 'boolean') result[state] = flag;
  }
  for (const state of ['focused', 'required', 'readonly'] as const) {
    if (property(node, state) === true) result[state] = true;
  }
  const level = property(node, 'level');
  if (typeof level === 'number') result.level = level;
  if (fileInput !== undefined) {
    result.fileInput = true;
    if (fileInput.multiple) result.multiple = true;
  }
  return result;
}

function labellingElements(entries: Map<string, Entry>): Set<number> {
  const labels = new Set<number>();
  for (const { node } of entries.values()) {
    const related = node.properties?.find((candidate) => candidate.name === 'labelledby')?.value.relatedNodes ?? [];
    for (const { backendDOMNodeId } of related) labels.add(backendDOMNodeId);
  }
  return labels;
}

/**
 * Backend ids of the nodes that may be file inputs: Chromium exposes one as a `button` with a
 * value ("No file chosen", or the file names) and no children, which a real button never is.
 * The caller asks the DOM about these few and passes the answer to {@link projectAxTree}.
 */
export function fileInputCandidates(trees: ReadonlyArray<readonly Protocol.Accessibility.AXNode[]>): number[] {
  const candidates: number[] = [];
  for (const nodes of trees) {
    for (const node of nodes) {
      if (node.ignored || node.backendDOMNodeId === undefined || axValue(node.role) !== 'button') continue;
      if ((node.childIds ?? []).length === 0 && axValue(node.value) !== undefined) candidates.push(node.backendDOMNodeId);
    }
  }
  return candidates;
}

/** The snapshot nodes of `main` with `frames` stitched in, in document order. */
export function projectAxTree(
  main: readonly Protocol.Accessibility.AXNode[],
  frames: readonly FrameTree[],
  options: ProjectionOptions,
  facts: DomFacts = NO_FACTS,
): Projection {
  const { entries, roots } = index(main, frames);
  // Text first: a wrapper's own text decides whether it is kept.
  for (const entry of entries.values()) {
    if (axValue(entry.node.role) !== 'StaticText' || entry.node.ignored || entry.parent === undefined) continue;
    // The nearest ancestor that is listed can carry it: Chromium often ignores the element right
    // above a text (a custom element, a shadow root's host, a slot), which would lose the text.
    // When every element above it is ignored (text straight in a custom element's shadow root),
    // the text stays with the element right above it, which is then listed for it.
    const direct = entries.get(entry.parent);
    let parent = direct;
    while (parent !== undefined && (parent.node.ignored === true || parent.node.backendDOMNodeId === undefined)) parent = parent.parent === undefined ? undefined : entries.get(parent.parent);
    if (parent === undefined || DOCUMENT_ROLES.has(String(axValue(parent.node.role)))) parent = direct?.node.backendDOMNodeId === undefined ? undefined : direct;
    if (parent !== undefined) parent.text += String(axValue(entry.node.name) ?? '');
  }
  const labels = labellingElements(entries);
  const outside: Place = { inDateField: false, labels };
  const inside: Place = { inDateField: true, labels };
  const nodes: SnapshotNode[] = [];
  let total = 0;
  const seen = new Set<string>();
  // Iterative pre-order walk: pages can nest deeper than the call stack.
  interface Step { id: string; depth: number; place: Place }
  const stack: Step[] = roots.map((id) => ({ id, depth: 0, place: outside })).reverse();
  while (stack.length > 0) {
    const { id, depth, place } = stack.pop() as Step;
    const entry = entries.get(id);
    if (entry === undefined || seen.has(id)) continue;
    seen.add(id);
    const kept = isKept(entry, entries, options, place);
    if (kept) {
      total++;
      if (nodes.length < options.maxNodes) nodes.push(toSnapshotNode(entry, depth, place, facts));
    }
    const childDepth = kept ? depth + 1 : depth;
    const childPlace = place.inDateField || DATE_FIELD_ROLES.has(String(axValue(entry.node.role))) ? inside : outside;
    for (let i = entry.children.length - 1; i >= 0; i--) stack.push({ id: entry.children[i] ?? '', depth: childDepth, place: childPlace });
  }
  return { nodes, total, truncated: total > nodes.length };
}
