/**
 * Assembles the browser helpers that cells see as bare globals and on `browser`, in the order of
 * the help registry (common/help/help-registry.ts `BROWSER_HELPER_ORDER`). Each concept lives in
 * its own module under `core/` (raw CDP and events, navigation, page info, waits, `js`, tabs and
 * frames, screenshots, `httpGet`, `uploadFile`) or `interaction/` (actionability-aware input,
 * waits for elements, accessibility snapshots; docs/interaction.md); this file only binds them to
 * the REPL's helper context and wires the state they share.
 */
import { BROWSER_HELPER_ORDER } from '../../common/help/help-registry.js';
import { createCdpHelpers } from './core/cdp-helpers.js';
import { createEvaluateHelpers } from './core/evaluate.js';
import { createHttpGetHelpers } from './core/http-get.js';
import { NavigationTracker, createNavigationHelpers } from './core/navigation.js';
import { createPageInfoHelpers } from './core/page-info.js';
import { createScreenshotHelpers } from './core/screenshot.js';
import { createTabHelpers } from './core/tabs.js';
import { createUploadHelpers } from './core/upload-file.js';
import { createWaitHelpers } from './core/waits.js';
import { accessibilitySnapshot } from './interaction/accessibility-snapshot.js';
import { click } from './interaction/click.js';
import { fillInput } from './interaction/fill-input.js';
import { pressKey, typeText } from './interaction/keys.js';
import { scroll } from './interaction/scroll.js';
import { waitForElement } from './interaction/wait-for-element.js';

import type { HelperContext } from './helper-context.js';

export type BrowserHelper = (...args: never[]) => unknown;

/** The core helpers of one REPL, by name (listed in `CORE_BROWSER_HELP`). */
export function createCoreHelpers(context: HelperContext): Record<string, BrowserHelper> {
  // The navigation record is shared: gotoUrl and newTab write it, waitForLoad reads it.
  const navigation = new NavigationTracker();
  return {
    ...createCdpHelpers(context),
    ...createNavigationHelpers(context, navigation),
    ...createPageInfoHelpers(context),
    ...createScreenshotHelpers(context),
    ...createTabHelpers(context, navigation),
    ...createWaitHelpers(context, navigation),
    ...createEvaluateHelpers(context),
    ...createUploadHelpers(context),
    ...createHttpGetHelpers(context),
  };
}

/** The interaction helpers of one REPL, by name (listed in `INTERACTION_HELP`). */
function createInteractionHelpers(context: HelperContext): Record<string, BrowserHelper> {
  // Method shorthand: each helper's `name` is its global name (`click.name === "click"`).
  return {
    accessibilitySnapshot(options?: unknown) {
      return accessibilitySnapshot(context, options);
    },
    click(target: unknown, options?: unknown) {
      return click(context, target, options);
    },
    typeText(text: unknown) {
      return typeText(context, text);
    },
    fillInput(target: unknown, text: unknown, options?: unknown) {
      return fillInput(context, target, text, options);
    },
    pressKey(key: unknown, modifiers?: unknown) {
      return pressKey(context, key, modifiers);
    },
    scroll(x: unknown, y: unknown, dy?: unknown, dx?: unknown) {
      return scroll(context, x, y, dy, dx);
    },
    waitForElement(target: unknown, options?: unknown) {
      return waitForElement(context, target, options);
    },
  };
}

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
