/**
 * The single source of every method's help text: `repl.help()` inside the REPL, the generated
 * section of docs/repl.md and the descriptions in openapi.json all read this table
 * (`npm run generate` rewrites the docs; test/unit/help-registry.test.mjs fails on drift).
 */

import { CORE_BROWSER_HELP } from './browser-help-core.js';
import { INTERACTION_HELP } from './browser-help-interaction.js';
import { WEBMCP_HELP } from './webmcp-help.js';
import { HAND_OVER_HELP } from './hand-over-help.js';
import type { HelpEntry } from './format-help.js';

export type { HelpEntry, HelpGroup } from './format-help.js';

const REPL_HELP: readonly HelpEntry[] = [
  {
    name: 'repl.help',
    group: 'REPL',
    signature: 'repl.help(methodName?: string): string',
    description: 'Writes help as one write item and returns it. Without an argument it lists every method; with a name (qualified like "browser.click" or unqualified when unique) it shows the signature, behaviour, defaults and an example.',
    example: 'repl.help("repl.emitImage")',
  },
  {
    name: 'repl.write',
    group: 'REPL',
    signature: 'repl.write(value: unknown): void',
    description: 'Emits one text item on the "write" channel, without a newline. Strings are written as they are; other values are formatted with util.inspect (depth 4, 100 array items, 8192 characters per string, line width 120). Expression values are never emitted automatically: use repl.write for the answer of a cell.',
    example: 'const info = { title: "Example", links: 3 };\nrepl.write(JSON.stringify(info));',
  },
  {
    name: 'repl.emitImage',
    group: 'REPL',
    signature: 'repl.emitImage(input: string | Buffer | ArrayBufferView | ArrayBuffer | { bytes, mimeType? } | { path, mimeType? }): Promise<void>',
    description: 'Emits one image item in call order with the text output. Accepts an image/* data URL, the path of an image file as a string (absolute or starting with ./ or ../, such as what captureScreenshot resolves), binary data (PNG, JPEG and WebP are recognised from their bytes), { bytes, mimeType? } or { path, mimeType? } read from disk. An image may be at most 8 MiB; a response carries at most 16 MiB of images, beyond which images are dropped with a stderr note and content_truncated set.',
    example: 'await repl.emitImage(await captureScreenshot());',
  },
  {
    name: 'repl.trace',
    group: 'REPL',
    signature: 'repl.trace(options?: { clear?: boolean, title?: string }): Promise<{ entries, dropped, playwright, repl, env, omitted }>',
    description: 'This REPL\'s trace of actions (docs/trace.md): every gotoUrl, click, fillInput, typeText, pressKey, uploadFile, handleDialog, waitForElement, waitForLoad, waitForNetworkIdle, tab change and webmcp.invokeTool so far (the newest 500), with the target as the page described it, and their export: playwright is a @playwright/test file and repl one cell with the same steps, without failed attempts and superseded retries, waits as web-first assertions, and text typed into password fields read from process.env (env lists the names; the text is in no entry). clear: true empties the trace after the export. GET /repl/trace answers the same from outside, and can replay it.',
    example: 'const { playwright } = await repl.trace();\nrepl.write(playwright);',
  },
];


/** The order in which browser helpers are listed (as in the hosted product's help); `requestHuman` (not a lazy helper: worker/webmcp/human-client.ts) comes after them. */
export const BROWSER_HELPER_ORDER: readonly string[] = [
  'cdp', 'drainEvents', 'waitForEvent', 'gotoUrl', 'pageInfo', 'accessibilitySnapshot', 'click', 'typeText',
  'fillInput', 'pressKey', 'scroll', 'captureScreenshot', 'setViewport', 'listTabs', 'currentTab', 'switchTab', 'newTab',
  'closeTab', 'waitForPopup', 'ensureRealTab', 'iframeTarget', 'waitMs', 'waitForLoad', 'waitForElement', 'waitForNetworkIdle',
  'js', 'uploadFile', 'waitForDownload', 'listDownloads', 'handleDialog', 'onDialog', 'httpGet',
];

/** Every method, in the order `repl.help()` lists them. */
export const HELP_ENTRIES: readonly HelpEntry[] = [
  ...REPL_HELP,
  ...[...CORE_BROWSER_HELP, ...INTERACTION_HELP, ...HAND_OVER_HELP].sort(
    (a, b) => helperRank(a.name) - helperRank(b.name)),
  ...WEBMCP_HELP,
];

function helperRank(qualified: string): number {
  const index = BROWSER_HELPER_ORDER.indexOf(qualified.slice(qualified.indexOf('.') + 1));
  return index === -1 ? BROWSER_HELPER_ORDER.length : index;
}
