/**
 * Argument conventions shared by every browser helper (docs/browser-helpers.md, "Shared rules"): options objects,
 * timeouts in seconds, element targets. Messages are part of the contract; keep them exact.
 */
import { ReplError } from '../../common/errors.js';

export function invalidArgument(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', message);
}

/** `undefined` → `{}`; null, arrays and non-objects throw; unknown keys throw. */
export function readOptions(helper: string, options: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgument(`${helper}: options must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw invalidArgument(`${helper}: unknown option: ${key}`);
  }
  return options as Record<string, unknown>;
}

/** A finite number ≥ 0 when given, else `fallback`. */
export function nonNegativeSeconds(helper: string, value: unknown, fallback: number, name = 'timeoutSec'): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalidArgument(`${helper}: ${name} must be a non-negative finite number`);
  }
  return value;
}

/** Where an element helper acts: a CSS selector, or a node from a snapshot / DOM (`backendNodeId`). */
export type ElementTarget = { kind: 'selector'; selector: string } | { kind: 'node'; backendNodeId: number };

/** Parses a selector string or any object with an own `backendNodeId`. */
export function readElementTarget(helper: string, target: unknown): ElementTarget | null {
  if (typeof target === 'string') {
    if (target.trim() === '') throw invalidArgument(`${helper}: selector must be a non-empty string`);
    return { kind: 'selector', selector: target };
  }
  if (target !== null && typeof target === 'object' && Object.hasOwn(target, 'backendNodeId')) {
    const id = (target as { backendNodeId: unknown }).backendNodeId;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
      throw invalidArgument(`${helper}: backendNodeId must be a positive integer`);
    }
    return { kind: 'node', backendNodeId: id };
  }
  return null;
}
