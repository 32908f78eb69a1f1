/**
 * The `telemetry` field of `POST /browsers` and `PATCH /browsers/{id}` (the SDK's
 * `BrowserCreateParams.Telemetry` / `BrowserUpdateParams.Telemetry`), checked and resolved into
 * the categories a browser captures, with the hosted product's rules (docs/telemetry.md):
 *
 * - `enabled: true` starts from the default set (the operational categories), and `browser`
 *   category settings are layered onto it; on update, `enabled: true` replaces the current set.
 * - `browser` alone merges onto the current set on update (onto the default set when none is
 *   active, or on create).
 * - `enabled: false` stops capture on update and starts none on create; it cannot be combined
 *   with `browser` settings.
 * - omitted, `null` or `{}`: nothing on create, unchanged on update.
 * - a set with every category off is no capture at all.
 *
 * Only the CDP categories (console, network, page, interaction) produce events on this server;
 * the operational ones are accepted and reported but have no producer (docs/telemetry.md).
 * `screenshot` is refused: there is no periodic screenshot producer. Pure.
 */
import { ReplError } from '../../common/errors.js';

/** The SDK's categories (`BrowserTelemetryCategoriesConfig`). */
export const TELEMETRY_CATEGORIES = ['captcha', 'connection', 'console', 'control', 'interaction', 'network', 'page', 'screenshot', 'system'] as const;
export type TelemetryCategory = (typeof TELEMETRY_CATEGORIES)[number];
/** Captured from Chromium over CDP: the collector runs while one of them is on. */
export const CDP_CATEGORIES: readonly TelemetryCategory[] = ['console', 'network', 'page', 'interaction'];
/** On by default once telemetry is enabled (opt-out). */
const DEFAULT_ON: readonly TelemetryCategory[] = ['control', 'connection', 'system', 'captcha'];
/** Categories this server cannot produce when asked to turn them on. */
const REFUSED_ON: Partial<Record<TelemetryCategory, string>> = {
  screenshot: 'periodic screenshots are not captured by this server; call captureScreenshot() in a cell',
};

/** The categories on, the wire's `BrowserTelemetryConfig.browser` once rendered. */
export type TelemetrySelection = ReadonlySet<TelemetryCategory>;

/** The wire's `BrowserTelemetryConfig`: `{browser: {<category>: {enabled}}}` for every category. */
export function telemetryWire(selection: TelemetrySelection | undefined): { browser: Record<string, { enabled: boolean }> } | undefined {
  if (selection === undefined || selection.size === 0) return undefined;
  const browser: Record<string, { enabled: boolean }> = {};
  for (const category of TELEMETRY_CATEGORIES) browser[category] = { enabled: selection.has(category) };
  return { browser };
}

/** Whether `selection` needs the CDP collector. */
export function needsCollector(selection: TelemetrySelection | undefined): boolean {
  return selection !== undefined && CDP_CATEGORIES.some((category) => selection.has(category));
}

/**
 * The selection a request's `telemetry` value asks for. `current` is the active selection on
 * update (undefined on create or when none is active). Returns `current` unchanged when the value
 * asks for no change, `undefined` for "no capture".
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST`, naming the field (`telemetry.browser.network.enabled`, …)
 */
export function resolveTelemetry(value: unknown, current: TelemetrySelection | undefined, mode: 'create' | 'update'): TelemetrySelection | undefined {
  if (value === undefined || value === null) return current;
  if (!isObject(value)) throw invalid('telemetry must be an object or null');
  for (const key of Object.keys(value)) {
    if (key !== 'enabled' && key !== 'browser') throw invalid(`telemetry.${key} is not a telemetry field (expected enabled, browser)`);
  }
  const { enabled, browser } = value as { enabled?: unknown; browser?: unknown };
  if (enabled !== undefined && enabled !== null && typeof enabled !== 'boolean') throw invalid('telemetry.enabled must be boolean');
  const settings = categorySettings(browser);
  if (enabled === false) {
    if (settings.size > 0) throw invalid('telemetry.enabled: false cannot be combined with telemetry.browser category settings');
    return undefined;
  }
  if (enabled !== true && settings.size === 0) {
    // `{}` or `{browser: {}}`: no change on update, no capture on create.
    return mode === 'update' ? current : undefined;
  }
  // enabled: true resolves fresh from the default set; browser alone merges onto what is active.
  const base = enabled === true || current === undefined ? new Set(DEFAULT_ON) : new Set(current);
  for (const [category, on] of settings) {
    if (on) base.add(category);
    else base.delete(category);
  }
  return base.size === 0 ? undefined : base;
}

/** `telemetry.browser` as category → on/off (categories it does not mention are absent). */
function categorySettings(browser: unknown): Map<TelemetryCategory, boolean> {
  const settings = new Map<TelemetryCategory, boolean>();
  if (browser === undefined || browser === null) return settings;
  if (!isObject(browser)) throw invalid('telemetry.browser must be an object');
  for (const [name, config] of Object.entries(browser)) {
    if (!(TELEMETRY_CATEGORIES as readonly string[]).includes(name)) {
      throw invalid(`telemetry.browser.${name} is not a telemetry category (expected one of ${TELEMETRY_CATEGORIES.join(', ')})`);
    }
    const category = name as TelemetryCategory;
    if (config === undefined || config === null) continue;
    if (!isObject(config)) throw invalid(`telemetry.browser.${name} must be an object like {"enabled": true}`);
    for (const key of Object.keys(config)) if (key !== 'enabled') throw invalid(`telemetry.browser.${name}.${key} is not a category field (expected enabled)`);
    const on = config['enabled'];
    if (on === undefined || on === null) continue;
    if (typeof on !== 'boolean') throw invalid(`telemetry.browser.${name}.enabled must be boolean`);
    const refused = REFUSED_ON[category];
    if (on && refused !== undefined) throw invalid(`telemetry.browser.${name}.enabled: true is not supported by this server: ${refused}`);
    settings.set(category, on);
  }
  return settings;
}

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_REQUEST', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
