/**
 * Interaction helpers: accessibilitySnapshot, click, typeText, fillInput, pressKey, scroll,
 * waitForElement. Each lives in its own module under `interaction/`; this factory binds them to
 * the REPL's helper context. docs/interaction.md explains actionability, keyboard and waits.
 */
import { accessibilitySnapshot } from './interaction/accessibility-snapshot.js';
import { click } from './interaction/click.js';
import { fillInput } from './interaction/fill-input.js';
import { pressKey, typeText } from './interaction/keys.js';
import { scroll } from './interaction/scroll.js';
import { waitForElement } from './interaction/wait-for-element.js';

import type { BrowserHelper } from './browser-helpers.js';
import type { HelperContext } from './helper-context.js';

/** The interaction helpers of one REPL, by name (listed in `INTERACTION_HELP`). */
export function createInteractionHelpers(context: HelperContext): Record<string, BrowserHelper> {
  // Method shorthand: each helper's `name` is its global name (`click.name === "click"`).
  const helpers = {
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
  return helpers;
}
