/** Help entries of the interaction helpers (click, fill, keyboard, scroll, waits, accessibility snapshot). */
import type { HelpEntry } from './help-registry.js';

export const INTERACTION_HELP: readonly HelpEntry[] = [];
