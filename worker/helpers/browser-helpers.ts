/**
 * Assembles the browser helpers that cells see as bare globals and on `browser`, in the order of
 * the help registry (lib/help/help-registry.ts `BROWSER_HELPER_ORDER`).
 */
import { BROWSER_HELPER_ORDER } from '../../lib/help/help-registry.js';
import { createCoreHelpers } from './core-helpers.js';
import type { HelperContext } from './helper-context.js';
import { createInteractionHelpers } from './interaction-helpers.js';

export type BrowserHelper = (...args: never[]) => unknown;

/** Every helper factory contributes some names; the registry order decides how they are listed. */
const FACTORIES: Array<(context: HelperContext) => Record<string, BrowserHelper>> = [
  createCoreHelpers,
  createInteractionHelpers,
];

export function createBrowserHelpers(context: HelperContext): Readonly<Record<string, BrowserHelper>> {
  const all: Record<string, BrowserHelper> = {};
  for (const factory of FACTORIES) Object.assign(all, factory(context));
  const ordered: Record<string, BrowserHelper> = {};
  for (const name of BROWSER_HELPER_ORDER) {
    const helper = all[name];
    if (helper !== undefined) ordered[name] = helper;
  }
  return Object.freeze(ordered);
}
