/** Interaction helpers: click, fillInput, typeText, pressKey, scroll, waitForElement, accessibilitySnapshot. */
import type { BrowserHelper } from './browser-helpers.js';
import type { HelperContext } from './helper-context.js';

export function createInteractionHelpers(_context: HelperContext): Record<string, BrowserHelper> {
  return {};
}
