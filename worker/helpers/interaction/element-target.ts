/**
 * The targets of element helpers (click, fillInput, waitForElement, uploadFile), parsed before
 * the first CDP command (pure; guarded by test/browser/semantic-targets.test.mjs):
 * - a CSS selector string;
 * - an accessibility-snapshot node (any object with an own `backendNodeId`); its `role` and
 *   `name`, when present, only serve the error messages (`node 12 (button "Book")`), read by
 *   `targetLabel` from the argument as given (the parsed target is the id alone);
 * - a semantic target, matched page-side by `page-semantics.ts`, as Playwright's locators:
 *   `{role, name?, exact?}` (getByRole), `{text, exact?}` (getByText), `{label, exact?}`
 *   (getByLabel). Strings match case-insensitively as substrings unless `exact: true`; a RegExp
 *   (from any realm: cells run in their own context) travels as `{source, flags}`.
 */
import { invalidArgument, readElementTarget } from '../helper-options.js';

/** How a name, text or label is matched, as the page-side matcher reads it (JSON). */
export type TextMatch = { value: string; exact: boolean } | { source: string; flags: string };

/** A semantic query as sent to the page: exactly one of role, text or label. */
export interface SemanticQuery {
  role?: string;
  name?: TextMatch;
  text?: TextMatch;
  label?: TextMatch;
}

/**
 * Where an element helper acts: `helper-options.ts`'s selector and node targets (which
 * `readElementTarget` parses) plus semantic ones.
 */
export type ElementTarget =
  | { kind: 'selector'; selector: string }
  | { kind: 'node'; backendNodeId: number }
  | { kind: 'semantic'; query: SemanticQuery; description: string };

/** Keys that make an object a semantic target (an attempt at one, at least). */
const SEMANTIC_KEYS = ['role', 'name', 'text', 'label', 'exact'] as const;
const KINDS = ['role', 'text', 'label'] as const;
const SHAPES = '{role, name?, exact?}, {text, exact?} or {label, exact?}';
/** Longest name shown in a node's label; snapshot names can be paragraphs. */
const NAME_LIMIT = 60;

function isRegExp(value: unknown): value is RegExp {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

function readMatch(helper: string, field: string, value: unknown, exact: boolean, allowEmpty: boolean): TextMatch {
  if (isRegExp(value)) {
    // g and y make test() stateful (lastIndex); a locator has no use for them.
    return { source: value.source, flags: value.flags.replace(/[gy]/g, '') };
  }
  if (typeof value !== 'string' || (!allowEmpty && value.trim() === '')) {
    throw invalidArgument(`${helper}: target.${field} must be a ${allowEmpty ? '' : 'non-empty '}string or a RegExp`);
  }
  return { value, exact };
}

function show(value: unknown): string {
  if (isRegExp(value)) return `/${value.source}/${value.flags}`;
  return JSON.stringify(value);
}

/** `{role: "button", name: "Book"}`, as an agent would write it. */
function describeQuery(raw: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of SEMANTIC_KEYS) {
    if (raw[key] !== undefined) parts.push(`${key}: ${show(raw[key])}`);
  }
  return `{${parts.join(', ')}}`;
}

function readSemanticTarget(helper: string, raw: Record<string, unknown>): ElementTarget {
  for (const key of Object.keys(raw)) {
    if (!(SEMANTIC_KEYS as readonly string[]).includes(key)) throw invalidArgument(`${helper}: unknown target field: ${key} (a semantic target is ${SHAPES})`);
  }
  const kinds = KINDS.filter((key) => raw[key] !== undefined);
  if (kinds.length > 1) throw invalidArgument(`${helper}: target has both ${kinds[0]} and ${kinds[1]}; use one of role, text or label`);
  const exact = raw['exact'];
  if (exact !== undefined && typeof exact !== 'boolean') throw invalidArgument(`${helper}: target.exact must be a boolean`);
  const kind = kinds[0];
  if (kind === undefined) {
    if (raw['name'] !== undefined) throw invalidArgument(`${helper}: target.name needs target.role, as in {role: "button", name: "Save"}`);
    throw invalidArgument(`${helper}: target needs role, text or label (a semantic target is ${SHAPES})`);
  }
  if (kind !== 'role' && raw['name'] !== undefined) throw invalidArgument(`${helper}: target.name goes with target.role; {${kind}} matches on its own`);
  const query: SemanticQuery = {};
  if (kind === 'role') {
    const role = raw['role'];
    if (typeof role !== 'string' || role.trim() === '') throw invalidArgument(`${helper}: target.role must be a non-empty string (an ARIA role such as "button")`);
    query.role = role.trim().toLowerCase();
    if (raw['name'] !== undefined) query.name = readMatch(helper, 'name', raw['name'], exact === true, true);
  } else {
    query[kind] = readMatch(helper, kind, raw[kind], exact === true, false);
  }
  return { kind: 'semantic', query, description: describeQuery(raw) };
}

/**
 * Parses a selector, a snapshot node or a semantic target; `null` when `target` is none of them
 * (each helper words that error itself, as the contract has it).
 */
export function readTarget(helper: string, target: unknown): ElementTarget | null {
  const element = readElementTarget(helper, target);
  if (element !== null) return element;
  if (target === null || typeof target !== 'object' || Array.isArray(target) || isRegExp(target)) return null;
  const raw = target as Record<string, unknown>;
  if (!SEMANTIC_KEYS.some((key) => Object.hasOwn(raw, key))) return null;
  return readSemanticTarget(helper, raw);
}

/**
 * How messages name a target: `selector "<s>"` (as written, like the contract's messages), the
 * semantic target as written, or for a node `node 12 (button "Book")` when `given` (the
 * argument as the caller passed it, a snapshot node) has a role, else `backend node 12`.
 */
export function targetLabel(target: ElementTarget, given?: unknown): string {
  if (target.kind === 'selector') return `selector "${target.selector}"`;
  if (target.kind === 'semantic') return target.description;
  const { role, name } = (typeof given === 'object' && given !== null ? given : {}) as { role?: unknown; name?: unknown };
  if (typeof role !== 'string' || role === '') return `backend node ${target.backendNodeId}`;
  const shown = typeof name === 'string' && name !== '' ? ` ${JSON.stringify(name.length > NAME_LIMIT ? `${name.slice(0, NAME_LIMIT - 1)}…` : name)}` : '';
  return `node ${target.backendNodeId} (${role}${shown})`;
}
