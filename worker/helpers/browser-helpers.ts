/**
 * Assembles the browser helpers that cells see as bare globals and on `browser`, in the order of
 * the help registry (common/help/help-registry.ts `BROWSER_HELPER_ORDER`). Each concept lives in
 * its own module under `core/` (raw CDP and events, navigation, page info, waits, `js`, tabs and
 * frames, screenshots, `httpGet`, `uploadFile`) or `interaction/` (actionability-aware input,
 * waits for elements, accessibility snapshots; docs/interaction.md); this file only binds them to
 * the REPL's helper context and wires the state they share.
 *
 * Start-up cost (issue 8): a fresh worker must not load what its first cell does not use. Every
 * helper is a wrapper with the implementation's `name` and `length` (test/unit/lazy-helpers.test.mjs
 * checks them) that loads its group of modules on its first call, synchronously (`require()` of
 * ES modules, Node ≥ 20.19 / 22.12), then calls the implementation: arguments, synchronous throws
 * (`waitForEvent` validates and arms before it returns), promises and call order are exactly the
 * implementation's. Groups: the raw CDP helpers; the page helpers (navigation, tabs, waits, `js`,
 * screenshots, uploads, interaction); `httpGet`, which alone brings undici. The CDP client itself
 * is created on first use too ({@link cdpClientClass}). On a Node without `require()` of ES modules
 * everything is imported at start instead, as before.
 *
 * Modules are only ever loaded here with `require()`, never with `import()`: Node refuses to
 * `require()` a module that a concurrent `import()` is still loading.
 */
import { createRequire } from 'node:module';
import { BROWSER_HELPER_ORDER } from '../../common/help/help-registry.js';
import { askedOf } from '../../common/trace/trace-recorder.js';

import type { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import type { CdpClient } from '../cdp/cdp-client.js';
import type { HelperContext } from './helper-context.js';
import type { ActionStart } from '../../common/trace/trace-recorder.js';
import type { TraceAction } from '../../common/trace/trace-types.js';

export type BrowserHelper = (...args: never[]) => unknown;
type Implementation = (...args: unknown[]) => unknown;
type Implementations = Record<string, Implementation>;

type Modules = {
  cdpClient: typeof import('../cdp/cdp-client.js');
  scopedEndpoint: typeof import('../../common/cdp/scoped-endpoint.js');
  cdp: typeof import('./core/cdp-helpers.js');
  evaluate: typeof import('./core/evaluate.js');
  navigation: typeof import('./core/navigation.js');
  pageInfo: typeof import('./core/page-info.js');
  popups: typeof import('./core/popups.js');
  screenshot: typeof import('./core/screenshot.js');
  tabs: typeof import('./core/tabs.js');
  upload: typeof import('./core/upload-file.js');
  waits: typeof import('./core/waits.js');
  dialogs: typeof import('./core/dialogs.js');
  downloads: typeof import('./core/downloads.js');
  viewport: typeof import('./core/viewport.js');
  accessibility: typeof import('./interaction/accessibility-snapshot.js');
  click: typeof import('./interaction/click.js');
  fill: typeof import('./interaction/fill-input.js');
  keys: typeof import('./interaction/keys.js');
  scroll: typeof import('./interaction/scroll.js');
  waitForElement: typeof import('./interaction/wait-for-element.js');
  httpGet: typeof import('./core/http-get.js');
};

/** Where each module lives (relative to this file). */
const MODULE_PATHS: Readonly<Record<keyof Modules, string>> = {
  cdpClient: '../cdp/cdp-client.js',
  scopedEndpoint: '../../common/cdp/scoped-endpoint.js',
  cdp: './core/cdp-helpers.js',
  evaluate: './core/evaluate.js',
  navigation: './core/navigation.js',
  pageInfo: './core/page-info.js',
  popups: './core/popups.js',
  screenshot: './core/screenshot.js',
  tabs: './core/tabs.js',
  upload: './core/upload-file.js',
  waits: './core/waits.js',
  dialogs: './core/dialogs.js',
  downloads: './core/downloads.js',
  viewport: './core/viewport.js',
  accessibility: './interaction/accessibility-snapshot.js',
  click: './interaction/click.js',
  fill: './interaction/fill-input.js',
  keys: './interaction/keys.js',
  scroll: './interaction/scroll.js',
  waitForElement: './interaction/wait-for-element.js',
  httpGet: './core/http-get.js',
};

const requireModule = createRequire(import.meta.url);
const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;
/** Without `require()` of ES modules (Node 20.18), every module is imported now. */
const preloaded: Partial<Modules> = {};
if (!canRequireEsm) {
  const names = Object.keys(MODULE_PATHS) as Array<keyof Modules>;
  const namespaces = await Promise.all(names.map((name) => import(MODULE_PATHS[name])));
  names.forEach((name, index) => Object.assign(preloaded, { [name]: namespaces[index] }));
}

function load<K extends keyof Modules>(name: K): Modules[K] {
  return (preloaded[name] ??= requireModule(MODULE_PATHS[name]) as Modules[K]);
}

/** The CDP client class, loaded on first use (a cell that never drives the browser never loads it). */
export function cdpClientClass(): typeof CdpClient {
  return load('cdpClient').CdpClient;
}

/** The scoped endpoint class (a cell's CDP_ENDPOINT), loaded on first use like the client. */
export function scopedEndpointClass(): typeof ScopedEndpoint {
  return load('scopedEndpoint').ScopedEndpoint;
}

/** A group of helpers: the implementations of one context, and each wrapper's `length`. */
interface HelperGroup {
  load(context: HelperContext): Implementations;
  /** What `Function.length` reports for each implementation (parameters before a default or rest). */
  lengths: Readonly<Record<string, number>>;
}

const GROUPS: readonly HelperGroup[] = [
  {
    load: (context) => load('cdp').createCdpHelpers(context) as unknown as Implementations,
    lengths: { cdp: 3, drainEvents: 0, waitForEvent: 2 },
  },
  {
    load(context) {
      const navigation = load('navigation');
      const accessibility = load('accessibility');
      const click = load('click');
      const fill = load('fill');
      const keys = load('keys');
      const scroll = load('scroll');
      const waitForElement = load('waitForElement');
      const viewport = load('viewport');
      // The navigation record is shared: gotoUrl and newTab write it, waitForLoad reads it.
      const tracker = new navigation.NavigationTracker();
      // So is the viewport each tab was given: setViewport writes it, switchTab sets it again.
      const viewports = new viewport.ViewportMemory();
      return {
        ...navigation.createNavigationHelpers(context, tracker, (helper, state, seconds, committed) => load('waits').waitForDocument(context, tracker, helper, state, seconds, committed)),
        ...load('pageInfo').createPageInfoHelpers(context),
        ...load('screenshot').createScreenshotHelpers(context),
        ...load('tabs').createTabHelpers(context, tracker, viewports),
        ...load('popups').createPopupHelpers(context),
        ...viewport.createViewportHelpers(context, viewports),
        ...load('waits').createWaitHelpers(context, tracker),
        ...load('evaluate').createEvaluateHelpers(context),
        ...load('upload').createUploadHelpers(context),
        ...load('dialogs').createDialogHelpers(context),
        ...load('downloads').createDownloadHelpers(context),
        accessibilitySnapshot: (options) => accessibility.accessibilitySnapshot(context, options),
        click: (target, options) => click.click(context, target, options),
        typeText: (text) => keys.typeText(context, text),
        fillInput: (target, text, options) => fill.fillInput(context, target, text, options),
        pressKey: (key, modifiers) => keys.pressKey(context, key, modifiers),
        scroll: (x, y, dy, dx) => scroll.scroll(context, x, y, dy, dx),
        waitForElement: (target, options) => waitForElement.waitForElement(context, target, options),
      } as Implementations;
    },
    lengths: {
      gotoUrl: 1, pageInfo: 0, accessibilitySnapshot: 1, click: 2, typeText: 1, fillInput: 3, pressKey: 2,
      scroll: 4, captureScreenshot: 0, setViewport: 1, listTabs: 0, currentTab: 0, switchTab: 1, newTab: 0, closeTab: 1,
      waitForPopup: 2,
      ensureRealTab: 0, iframeTarget: 1, waitMs: 0, waitForLoad: 1, waitForElement: 2, waitForNetworkIdle: 2,
      js: 2, uploadFile: 3,
      handleDialog: 1, onDialog: 1, waitForDownload: 2, listDownloads: 0,
    },
  },
  {
    load: (context) => load('httpGet').createHttpGetHelpers(context) as unknown as Implementations,
    lengths: { httpGet: 3 },
  },
];

/** Every helper's `length` by name, as the wrappers declare them (test/unit/lazy-helpers.test.mjs). */
export const HELPER_LENGTHS: Readonly<Record<string, number>> = Object.freeze(
  Object.assign({}, ...GROUPS.map((group) => group.lengths)) as Record<string, number>);

/** Every helper's implementation for `context`, loaded now (tests compare them with the wrappers). */
export function loadHelperImplementations(context: HelperContext): Readonly<Implementations> {
  return Object.assign({}, ...GROUPS.map((group) => group.load(context))) as Implementations;
}

/** A traced helper (docs/trace.md): what it records, whether its answer means it failed, the tab it opened. */
interface Traced {
  action: TraceAction;
  args(args: readonly unknown[]): Record<string, unknown>;
  /** The typed text (kept out of `args` until the target is known not to be a password field). */
  text?: (args: readonly unknown[]) => unknown;
  failed?: (result: unknown) => boolean;
  opened?: (result: unknown) => string | undefined;
}

/** A target as the trace keeps what was asked: a selector or a semantic target (a snapshot node is described by the page instead). */
function givenTarget(target: unknown): unknown {
  if (typeof target === 'string') return target;
  if (target === null || typeof target !== 'object' || Object.hasOwn(target, 'backendNodeId')) return undefined;
  const { role, name, text, label, exact } = target as Record<string, unknown>;
  const plain = (value: unknown): unknown => (Object.prototype.toString.call(value) === '[object RegExp]' ? undefined : value);
  return JSON.parse(JSON.stringify({ role, name: plain(name), text: plain(text), label: plain(label), exact })) as unknown;
}

function option(options: unknown, key: string): unknown {
  return options !== null && typeof options === 'object' ? (options as Record<string, unknown>)[key] : undefined;
}

function tabId(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  const id = option(target, 'targetId');
  return typeof id === 'string' ? id : undefined;
}

const notTrue = (result: unknown): boolean => result !== true;

/** The helpers the trace records, by name (docs/trace.md, "What is recorded"). */
const TRACED: Readonly<Record<string, Traced>> = {
  gotoUrl: {
    action: 'goto',
    args: ([url]) => ({ url }),
    failed: (result) => typeof option(result, 'errorText') === 'string' && option(result, 'errorText') !== '',
  },
  click: { action: 'click', args: ([target, options]) => ({ target: givenTarget(target), clickCount: option(options, 'clickCount') }) },
  fillInput: { action: 'fill', args: ([target]) => ({ target: givenTarget(target) }), text: ([, text]) => text },
  typeText: { action: 'type', args: () => ({}), text: ([text]) => text },
  pressKey: {
    action: 'press',
    args: ([key, modifiers]) => ({ key: Array.isArray(modifiers) && modifiers.length > 0 ? [...modifiers.map(String), String(key)].join('+') : key }),
  },
  uploadFile: { action: 'upload', args: ([target, paths]) => ({ target: givenTarget(target), paths: typeof paths === 'string' ? [paths] : paths }) },
  handleDialog: { action: 'dialog', args: ([options]) => ({ accept: option(options, 'accept') ?? true, promptText: option(options, 'promptText') }) },
  waitForElement: { action: 'waitForElement', args: ([target, options]) => ({ target: givenTarget(target), state: option(options, 'state') }), failed: notTrue },
  waitForLoad: { action: 'waitForLoad', args: () => ({}), failed: notTrue },
  waitForNetworkIdle: { action: 'waitForNetworkIdle', args: () => ({}), failed: notTrue },
  switchTab: { action: 'switchTab', args: ([target]) => ({ tab: tabId(target) }) },
  newTab: { action: 'newTab', args: ([url]) => ({ url }), opened: (result) => (typeof result === 'string' ? result : undefined) },
  closeTab: { action: 'closeTab', args: ([target]) => ({ tab: tabId(target) }) },
};

/** The error a traced helper's `false` answer records (the helper itself still answers `false`). */
class UnmetWait extends Error {}

/** Runs one traced helper call as an action of the REPL's trace. */
async function traced(context: HelperContext, name: string, spec: Traced, args: unknown[], call: () => unknown): Promise<unknown> {
  const text = spec.text?.(args);
  const start: ActionStart = { source: 'cell', action: spec.action, asked: askedOf(name, spec.text === undefined ? args : args.map((arg) => (arg === text ? '…' : arg))), args: spec.args(args) };
  if (typeof text === 'string') start.text = text;
  let answer: unknown;
  try {
    await context.trace.run(start, async () => {
      answer = await call();
      const opened = spec.opened?.(answer);
      if (opened !== undefined) context.trace.opened(opened);
      if (spec.failed?.(answer) === true) throw new UnmetWait(`${name} answered ${JSON.stringify(answer)}`);
    });
  } catch (error) {
    if (!(error instanceof UnmetWait)) throw error;
  }
  return answer;
}

/** Wrappers for one group: the first call of any of them loads the group, then every call goes straight through. */
function lazyGroup(context: HelperContext, group: HelperGroup): Record<string, BrowserHelper> {
  let implementations: Implementations | undefined;
  const helpers: Record<string, BrowserHelper> = {};
  for (const [name, length] of Object.entries(group.lengths)) {
    // Method shorthand, like the implementations: named after the key, no `prototype`, not a constructor.
    const helper = {
      [name](...args: unknown[]): unknown {
        implementations ??= group.load(context);
        const spec = TRACED[name];
        if (spec !== undefined) return traced(context, name, spec, args, () => implementations![name]!(...args));
        return implementations[name]!(...args);
      },
    }[name]!;
    Object.defineProperty(helper, 'length', { value: length });
    helpers[name] = helper;
  }
  return helpers;
}

/** Every helper of one REPL, by name (core ones listed in `CORE_BROWSER_HELP`, interaction ones in `INTERACTION_HELP`). */
export function createCoreHelpers(context: HelperContext): Record<string, BrowserHelper> {
  const all: Record<string, BrowserHelper> = {};
  for (const group of GROUPS) Object.assign(all, lazyGroup(context, group));
  return all;
}

export function createBrowserHelpers(context: HelperContext): Readonly<Record<string, BrowserHelper>> {
  const all = createCoreHelpers(context);
  const ordered: Record<string, BrowserHelper> = {};
  for (const name of BROWSER_HELPER_ORDER) {
    const helper = all[name];
    if (helper !== undefined) ordered[name] = helper;
  }
  return Object.freeze(ordered);
}
