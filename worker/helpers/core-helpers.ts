/** Core browser helpers: navigation, evaluation, tabs, events, screenshots, files. */
import type { BrowserHelper } from './browser-helpers.js';
import type { HelperContext } from './helper-context.js';

export function createCoreHelpers(_context: HelperContext): Record<string, BrowserHelper> {
  return {};
}
