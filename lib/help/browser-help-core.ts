/** Help entries of the core browser helpers (navigation, evaluation, tabs, events, screenshots, files). */
import type { HelpEntry } from './help-registry.js';

export const CORE_BROWSER_HELP: readonly HelpEntry[] = [];
