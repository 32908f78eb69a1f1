/**
 * Core browser helpers: raw CDP and events, navigation, page info, waits, `js`, tabs and frames,
 * screenshots, `httpGet` and `uploadFile`. Each concept lives in its own file under `core/`; this
 * factory only wires the state they share (the navigation record read by `waitForLoad`).
 */
import { createCdpHelpers } from './core/cdp-helpers.js';
import { createEvaluateHelpers } from './core/evaluate.js';
import { createHttpGetHelpers } from './core/http-get.js';
import { NavigationTracker, createNavigationHelpers } from './core/navigation.js';
import { createPageInfoHelpers } from './core/page-info.js';
import { createScreenshotHelpers } from './core/screenshot.js';
import { createTabHelpers } from './core/tabs.js';
import { createUploadHelpers } from './core/upload-file.js';
import { createWaitHelpers } from './core/waits.js';

import type { BrowserHelper } from './browser-helpers.js';
import type { HelperContext } from './helper-context.js';

/** The core helpers of one REPL, by name (listed in `CORE_BROWSER_HELP`). */
export function createCoreHelpers(context: HelperContext): Record<string, BrowserHelper> {
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
