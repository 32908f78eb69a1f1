/**
 * The exporter of a trace (docs/trace.md, "Export"): pure, from the recorder's entries to a
 * `@playwright/test` file and a REPL cell script with the same steps.
 *
 * - Failed attempts are left out, and so are superseded retries: within one document, a fill of a
 *   field filled again later; a click repeated later on the same element after some field filled
 *   before it was filled again in between (a login tried again with a corrected password), with the
 *   waits between the two; a navigation followed at once by another.
 * - Waits become web-first assertions: `waitForElement` → `await expect(locator).toBeVisible()`,
 *   a tool's wait for text → `await expect(page.getByText(…).first()).toBeVisible()`.
 * - Locators follow Playwright's ranking: test id, role and name, label, placeholder, text, CSS
 *   path; the first the page found unique is used. Elements of same-origin iframes are reached
 *   through `locator(<frame>).contentFrame()`.
 * - What was typed into a password field is `process.env[NAME]` in both scripts, never its value.
 * - Popups: the action after which steps run on a tab not seen before is the one that opened it
 *   (`page.waitForEvent('popup')` armed before it); dialogs answered are handled by a
 *   `page.once('dialog', …)` armed before the action that opened them.
 */
import { LOCATOR_RANK } from './trace-types.js';

import type { LocatorStrategy, TargetDescription, TraceEntry, TraceExport } from './trace-types.js';

/** A chosen locator: the strategy, its value, and the frames above it. */
export interface LocatorChoice {
  strategy: LocatorStrategy;
  value: string;
  role?: string;
  frames: string[];
}

type Step =
  | { kind: 'goto'; tab: string; url: string }
  | { kind: 'back'; tab: string }
  | { kind: 'click'; tab: string; locator: LocatorChoice; double: boolean }
  | { kind: 'fill'; tab: string; locator: LocatorChoice; text?: string; env?: string }
  | { kind: 'type'; tab: string; text?: string; env?: string }
  | { kind: 'press'; tab: string; key: string }
  | { kind: 'select'; tab: string; locator: LocatorChoice; values: string[] }
  | { kind: 'upload'; tab: string; locator: LocatorChoice; paths: string[] }
  | { kind: 'expectVisible'; tab: string; locator: LocatorChoice; hidden: boolean }
  | { kind: 'expectText'; tab: string; text: string; frames: string[] }
  | { kind: 'loadState'; tab: string; state: 'load' | 'domcontentloaded' | 'networkidle' }
  | { kind: 'newTab'; tab: string; opened: string; url?: string }
  | { kind: 'closeTab'; tab: string; closed: string };

/** What each step adds around it: a popup it opens, a dialog it opens and how it was answered. */
interface Placed {
  step: Step;
  popup?: string;
  dialog?: { accept: boolean; promptText?: string };
  /** The step is on another tab than the one before it (REPL scripts switch to it). */
  switchTo?: string;
  /**
   * The step is the first in a document its tab had not shown before (a click navigated, a popup
   * opened): the load is waited for first, as the recording's tools and helpers waited for it.
   */
  loadFirst?: boolean;
}

/**
 * The one locator of a description: the first strategy of Playwright's ranking that is unique. A
 * role without a name (`getByRole("paragraph")`) holds only while the element is the only one of
 * its role, so it comes after the text, just before the CSS path.
 */
export function chooseLocator(target: TargetDescription): LocatorChoice {
  const frames = target.frames;
  const unnamedRole = target.name === undefined || target.name === '';
  const rank = unnamedRole ? [...LOCATOR_RANK.filter((strategy) => strategy !== 'role' && strategy !== 'css'), 'role' as const, 'css' as const] : LOCATOR_RANK;
  for (const strategy of rank) {
    if (!target.unique.includes(strategy)) continue;
    switch (strategy) {
      case 'testId':
        if (target.testId !== undefined) return { strategy, value: target.testId, frames };
        break;
      case 'role':
        if (target.role !== undefined) return { strategy, value: target.name ?? '', role: target.role, frames };
        break;
      case 'label':
        if (target.label !== undefined) return { strategy, value: target.label, frames };
        break;
      case 'placeholder':
        if (target.placeholder !== undefined) return { strategy, value: target.placeholder, frames };
        break;
      case 'text':
        if (target.text !== undefined) return { strategy, value: target.text, frames };
        break;
      case 'css':
        return { strategy, value: target.css, frames };
    }
  }
  return { strategy: 'css', value: target.css, frames };
}

/** The locator of an entry: its description's, else what a cell asked for (a selector, a semantic target). */
function locatorOf(entry: TraceEntry): LocatorChoice | undefined {
  if (entry.target !== undefined) return chooseLocator(entry.target);
  const given = entry.args['target'];
  if (typeof given === 'string' && given !== '') return { strategy: 'css', value: given, frames: [] };
  if (given !== null && typeof given === 'object') {
    const raw = given as Record<string, unknown>;
    if (typeof raw['role'] === 'string') return { strategy: 'role', role: raw['role'], value: typeof raw['name'] === 'string' ? raw['name'] : '', frames: [] };
    if (typeof raw['label'] === 'string') return { strategy: 'label', value: raw['label'], frames: [] };
    if (typeof raw['text'] === 'string') return { strategy: 'text', value: raw['text'], frames: [] };
  }
  return undefined;
}

function locatorKey(locator: LocatorChoice): string {
  return JSON.stringify([locator.frames, locator.strategy, locator.role ?? '', locator.value]);
}

/**
 * Which page an entry acted on, for telling retries apart: its tab and URL (without the fragment).
 * A URL rather than the document: a login that failed on the server answers the same URL again.
 */
function documentKey(entry: TraceEntry): string {
  return `${entry.page.tab}#${entry.page.url.replace(/#.*$/, '')}`;
}

const ELEMENT_ACTIONS = new Set(['click', 'fill', 'select', 'upload']);

/** Indexes (into `kept`) of the entries a later retry supersedes. */
export function supersededEntries(kept: readonly TraceEntry[]): Set<number> {
  const dropped = new Set<number>();
  const keys = kept.map((entry) => (ELEMENT_ACTIONS.has(entry.action) ? locatorOf(entry) : undefined)).map((locator) => (locator === undefined ? undefined : locatorKey(locator)));
  const sameElement = (i: number, j: number): boolean => keys[i] !== undefined && keys[i] === keys[j] && kept[i]!.action === kept[j]!.action && documentKey(kept[i]!) === documentKey(kept[j]!);
  for (let i = 0; i < kept.length; i++) {
    const entry = kept[i]!;
    if (entry.action === 'fill' || entry.action === 'select') {
      for (let j = i + 1; j < kept.length && documentKey(kept[j]!) === documentKey(entry); j++) {
        if (sameElement(i, j)) {
          dropped.add(i);
          break;
        }
      }
    } else if (entry.action === 'goto') {
      const next = kept[i + 1];
      if (next !== undefined && next.action === 'goto' && next.page.tab === entry.page.tab) dropped.add(i);
    }
  }
  for (let i = 0; i < kept.length; i++) {
    if (kept[i]!.action !== 'click') continue;
    // Fields filled in this document before the click.
    const filledBefore = new Set<string>();
    for (let k = i - 1; k >= 0 && documentKey(kept[k]!) === documentKey(kept[i]!); k--) {
      if ((kept[k]!.action === 'fill' || kept[k]!.action === 'select') && keys[k] !== undefined) filledBefore.add(keys[k]!);
    }
    let refilled = false;
    for (let j = i + 1; j < kept.length && documentKey(kept[j]!) === documentKey(kept[i]!); j++) {
      if ((kept[j]!.action === 'fill' || kept[j]!.action === 'select') && keys[j] !== undefined && filledBefore.has(keys[j]!)) refilled = true;
      if (sameElement(i, j)) {
        if (refilled) {
          dropped.add(i);
          // What the failed try waited for (its error message) will not show in the retry.
          for (let w = i + 1; w < j; w++) if (kept[w]!.action.startsWith('waitFor')) dropped.add(w);
        }
        break;
      }
    }
  }
  return dropped;
}

function stepOf(entry: TraceEntry): Step | undefined {
  const tab = entry.page.tab;
  const args = entry.args;
  const locator = locatorOf(entry);
  switch (entry.action) {
    case 'goto':
      return typeof args['url'] === 'string' ? { kind: 'goto', tab, url: args['url'] } : undefined;
    case 'back':
      return { kind: 'back', tab };
    case 'click':
      return locator === undefined ? undefined : { kind: 'click', tab, locator, double: args['clickCount'] === 2 };
    case 'fill':
      if (locator === undefined) return undefined;
      if (entry.secretEnv !== undefined) return { kind: 'fill', tab, locator, env: entry.secretEnv };
      return typeof args['text'] === 'string' ? { kind: 'fill', tab, locator, text: args['text'] } : undefined;
    case 'type':
      if (entry.secretEnv !== undefined) return { kind: 'type', tab, env: entry.secretEnv };
      return typeof args['text'] === 'string' ? { kind: 'type', tab, text: args['text'] } : undefined;
    case 'press':
      return typeof args['key'] === 'string' ? { kind: 'press', tab, key: args['key'] } : undefined;
    case 'select':
      return locator === undefined || !Array.isArray(args['values']) ? undefined : { kind: 'select', tab, locator, values: args['values'].map(String) };
    case 'upload':
      return locator === undefined || !Array.isArray(args['paths']) ? undefined : { kind: 'upload', tab, locator, paths: args['paths'].map(String) };
    case 'waitForElement':
      return locator === undefined ? undefined : { kind: 'expectVisible', tab, locator, hidden: args['state'] === 'hidden' || args['state'] === 'detached' };
    case 'waitForText':
      return typeof args['text'] === 'string' ? { kind: 'expectText', tab, text: args['text'], frames: entry.target?.frames ?? [] } : undefined;
    case 'waitForLoad':
      return { kind: 'loadState', tab, state: args['state'] === 'domcontentloaded' ? 'domcontentloaded' : 'load' };
    case 'waitForNetworkIdle':
      return { kind: 'loadState', tab, state: 'networkidle' };
    case 'newTab':
      if (entry.opened === undefined) return undefined;
      return typeof args['url'] === 'string' && args['url'] !== '' ? { kind: 'newTab', tab, opened: entry.opened, url: args['url'] } : { kind: 'newTab', tab, opened: entry.opened };
    case 'closeTab':
      return { kind: 'closeTab', tab, closed: typeof args['tab'] === 'string' ? args['tab'] : tab };
    default:
      return undefined;
  }
}

/** A tab's document right after a goto or a newTab: the next step's is the one it loaded. */
const OPENED = '*';

/** The steps of a trace, with popups, dialogs and tab switches placed, and what was left out. */
export function planSteps(entries: readonly TraceEntry[]): { placed: Placed[]; tabs: Map<string, string>; env: string[]; omitted: TraceExport['omitted'] } {
  const omitted = { failed: 0, superseded: 0, unsupported: 0 };
  const kept = entries.filter((entry) => {
    if (!entry.ok) omitted.failed++;
    return entry.ok;
  });
  const superseded = supersededEntries(kept);
  omitted.superseded = superseded.size;
  const tabs = new Map<string, string>();
  const placed: Placed[] = [];
  const env: string[] = [];
  let current: string | undefined;
  /** The document (URL) each tab's latest step was in. */
  const documents = new Map<string, string>();
  const name = (tab: string): string => {
    let variable = tabs.get(tab);
    if (variable === undefined) {
      variable = tabs.size === 0 ? 'page' : `page${tabs.size}`;
      tabs.set(tab, variable);
    }
    return variable;
  };
  kept.forEach((entry, index) => {
    if (superseded.has(index)) return;
    if (entry.action === 'switchTab') return;
    if (entry.action === 'dialog') {
      const last = [...placed].reverse().find((item) => item.step.tab === entry.page.tab);
      if (last === undefined) {
        omitted.unsupported++;
        return;
      }
      const accept = entry.args['accept'] !== false;
      last.dialog = typeof entry.args['promptText'] === 'string' ? { accept, promptText: entry.args['promptText'] } : { accept };
      return;
    }
    const step = stepOf(entry);
    if (step === undefined) {
      omitted.unsupported++;
      return;
    }
    if (!tabs.has(step.tab)) {
      // A tab not seen before: the previous step (on another tab) opened it.
      const opener = placed.at(-1);
      if (opener !== undefined && opener.popup === undefined) opener.popup = name(step.tab);
      else name(step.tab);
    }
    const item: Placed = { step };
    if (current !== undefined && step.tab !== current && placed.at(-1)?.popup !== tabs.get(step.tab)) item.switchTo = tabs.get(step.tab)!;
    // A tab's document as its URL tells it; an entry that knew no URL (a tab attached again) tells nothing.
    const document = entry.page.url === '' ? documents.get(step.tab) ?? OPENED : entry.page.url.replace(/#.*$/, '');
    const before = documents.get(step.tab);
    const opensPage = step.kind === 'goto' || step.kind === 'newTab';
    // After a goto (which waits for the load itself) whatever document comes next is the one it loaded.
    const changed = before === undefined ? placed.at(-1)?.popup === tabs.get(step.tab) : before !== OPENED && before !== document;
    if (!opensPage && changed) item.loadFirst = true;
    documents.set(step.kind === 'newTab' ? step.opened : step.tab, opensPage ? OPENED : document);
    if (step.kind === 'newTab') name(step.opened);
    if ((step.kind === 'fill' || step.kind === 'type') && step.env !== undefined && !env.includes(step.env)) env.push(step.env);
    placed.push(item);
    // A tool's type with submit pressed Enter after the text.
    if (step.kind === 'fill' && entry.args['submit'] === true) placed.push({ step: { kind: 'press', tab: step.tab, key: 'Enter' } });
    current = step.kind === 'newTab' ? step.opened : step.tab;
  });
  if (tabs.size === 0) tabs.set('', 'page');
  return { placed, tabs, env, omitted };
}

const q = (value: string): string => JSON.stringify(value);

/** `page.locator("iframe#f").contentFrame().getByRole("button", { name: "Go", exact: true })`. */
export function playwrightLocator(page: string, locator: LocatorChoice): string {
  let base = page;
  for (const frame of locator.frames) base += `.locator(${q(frame)}).contentFrame()`;
  switch (locator.strategy) {
    case 'testId':
      return `${base}.getByTestId(${q(locator.value)})`;
    case 'role':
      return locator.value === '' ? `${base}.getByRole(${q(locator.role!)})` : `${base}.getByRole(${q(locator.role!)}, { name: ${q(locator.value)}, exact: true })`;
    case 'label':
      return `${base}.getByLabel(${q(locator.value)}, { exact: true })`;
    case 'placeholder':
      return `${base}.getByPlaceholder(${q(locator.value)}, { exact: true })`;
    case 'text':
      return `${base}.getByText(${q(locator.value)}, { exact: true })`;
    case 'css':
      return `${base}.locator(${q(locator.value)})`;
  }
}

/** A REPL helper's target for a locator: a semantic target, or a CSS selector (frames are searched by the helpers). */
export function replTarget(locator: LocatorChoice): string {
  const attribute = (name: string): string => q(`[${name}=${q(locator.value)}]`);
  switch (locator.strategy) {
    case 'testId':
      return attribute('data-testid');
    case 'role':
      return locator.value === '' ? `{ role: ${q(locator.role!)} }` : `{ role: ${q(locator.role!)}, name: ${q(locator.value)}, exact: true }`;
    case 'label':
      return `{ label: ${q(locator.value)}, exact: true }`;
    case 'placeholder':
      return attribute('placeholder');
    case 'text':
      return `{ text: ${q(locator.value)}, exact: true }`;
    case 'css':
      return q(locator.value);
  }
}

/** What a REPL script's wait for text reads: the rendered text of the page and of its same-origin frames. */
const PAGE_TEXT = "(function all(d) { let text = d.body ? d.body.innerText : ''; for (const f of d.querySelectorAll('iframe, frame')) { try { if (f.contentDocument) text += '\\n' + all(f.contentDocument); } catch {} } return text; })(document)";

const env = (name: string): string => `process.env[${q(name)}] ?? ''`;

function playwrightStep(item: Placed, tabs: Map<string, string>): string[] {
  const { step } = item;
  const page = tabs.get(step.tab) ?? 'page';
  const lines: string[] = [];
  if (item.dialog !== undefined) {
    const answer = item.dialog.accept ? `dialog.accept(${item.dialog.promptText === undefined ? '' : q(item.dialog.promptText)})` : 'dialog.dismiss()';
    lines.push(`${page}.once('dialog', (dialog) => ${answer});`);
  }
  if (item.loadFirst === true) lines.push(`await ${page}.waitForLoadState();`);
  if (item.popup !== undefined) lines.push(`const ${item.popup}Promise = ${page}.waitForEvent('popup');`);
  switch (step.kind) {
    case 'goto': lines.push(`await ${page}.goto(${q(step.url)});`); break;
    case 'back': lines.push(`await ${page}.goBack();`); break;
    case 'click': lines.push(`await ${playwrightLocator(page, step.locator)}.${step.double ? 'dblclick' : 'click'}();`); break;
    case 'fill': lines.push(`await ${playwrightLocator(page, step.locator)}.fill(${step.env !== undefined ? env(step.env) : q(step.text!)});`); break;
    case 'type': lines.push(`await ${page}.keyboard.type(${step.env !== undefined ? env(step.env) : q(step.text!)});`); break;
    case 'press': lines.push(`await ${page}.keyboard.press(${q(step.key)});`); break;
    case 'select': lines.push(`await ${playwrightLocator(page, step.locator)}.selectOption(${JSON.stringify(step.values)});`); break;
    case 'upload': lines.push(`await ${playwrightLocator(page, step.locator)}.setInputFiles(${JSON.stringify(step.paths)});`); break;
    case 'expectVisible': lines.push(`await expect(${playwrightLocator(page, step.locator)}).${step.hidden ? 'toBeHidden' : 'toBeVisible'}();`); break;
    case 'expectText': {
      let base = page;
      for (const frame of step.frames) base += `.locator(${q(frame)}).contentFrame()`;
      lines.push(`await expect(${base}.getByText(${q(step.text)}).first()).toBeVisible();`);
      break;
    }
    case 'loadState': lines.push(`await ${page}.waitForLoadState(${q(step.state)});`); break;
    case 'newTab': {
      const opened = tabs.get(step.opened)!;
      lines.push(`const ${opened} = await ${page}.context().newPage();`);
      if (step.url !== undefined) lines.push(`await ${opened}.goto(${q(step.url)});`);
      break;
    }
    case 'closeTab': lines.push(`await ${tabs.get(step.closed) ?? page}.close();`); break;
  }
  if (item.popup !== undefined) lines.push(`const ${item.popup} = await ${item.popup}Promise;`);
  return lines;
}

function replStep(item: Placed, tabs: Map<string, string>): string[] {
  const { step } = item;
  const lines: string[] = [];
  if (item.switchTo !== undefined) lines.push(`await switchTab(${item.switchTo});`);
  if (item.loadFirst === true) lines.push('await waitForLoad();');
  let action: string;
  switch (step.kind) {
    case 'goto': action = `gotoUrl(${q(step.url)})`; break;
    case 'back': action = `js('history.back()')`; break;
    case 'click': action = step.double ? `click(${replTarget(step.locator)}, { clickCount: 2 })` : `click(${replTarget(step.locator)})`; break;
    case 'fill': action = `fillInput(${replTarget(step.locator)}, ${step.env !== undefined ? env(step.env) : q(step.text!)})`; break;
    case 'type': action = `typeText(${step.env !== undefined ? env(step.env) : q(step.text!)})`; break;
    case 'press': {
      const parts = step.key.length > 1 ? step.key.split(/\+(?=.)/) : [step.key];
      const key = parts.pop()!;
      action = parts.length === 0 ? `pressKey(${q(key)})` : `pressKey(${q(key)}, ${JSON.stringify(parts)})`;
      break;
    }
    case 'select':
      action = `js((args) => { const el = document.querySelector(args.css); for (const option of el.options) option.selected = args.values.includes(option.value) || args.values.includes(option.label); el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true })); }, { arg: { css: ${q(step.locator.strategy === 'css' ? step.locator.value : '')}, values: ${JSON.stringify(step.values)} } })`;
      break;
    case 'upload': action = `uploadFile(${replTarget(step.locator)}, ${JSON.stringify(step.paths)})`; break;
    case 'expectVisible': {
      const state = step.hidden ? ', { state: "hidden" }' : '';
      lines.push(`if (!(await waitForElement(${replTarget(step.locator)}${state}))) throw new Error(${q(`${step.hidden ? 'still visible' : 'not visible'}: ${replTarget(step.locator)}`)});`);
      return lines;
    }
    case 'expectText':
      // The text of the page and of its same-origin frames, as the tools' wait reads it.
      lines.push(`for (const until = Date.now() + 10_000; !String(await js(${q(PAGE_TEXT)})).toLowerCase().includes(${q(step.text.toLowerCase())}); await waitMs(100)) {`);
      lines.push(`  if (Date.now() > until) throw new Error(${q(`text not visible: ${step.text}`)});`);
      lines.push('}');
      return lines;
    case 'loadState': action = step.state === 'networkidle' ? 'waitForNetworkIdle()' : 'waitForLoad()'; break;
    case 'newTab': lines.push(`const ${tabs.get(step.opened)!} = await newTab(${step.url === undefined ? '' : q(step.url)});`); return lines;
    case 'closeTab': action = `closeTab(${tabs.get(step.closed) ?? 'undefined'})`; break;
  }
  if (item.popup !== undefined) {
    lines.push(`const ${item.popup} = await waitForPopup(() => ${action});`);
    lines.push(`await switchTab(${item.popup});`);
  } else {
    lines.push(`await ${action};`);
  }
  if (item.dialog !== undefined) {
    lines.push(`await handleDialog(${item.dialog.promptText === undefined ? `{ accept: ${item.dialog.accept} }` : `{ accept: ${item.dialog.accept}, promptText: ${q(item.dialog.promptText)} }`});`);
  }
  return lines;
}

/** Exports the entries as both scripts (see the module comment). */
export function exportTrace(entries: readonly TraceEntry[], options: { dropped?: number; title?: string } = {}): TraceExport {
  const { placed, tabs, env: envNames, omitted } = planSteps(entries);
  const title = options.title ?? 'recorded flow';
  const header = [
    `// Exported by chromium-repl from ${entries.length} recorded action(s) (docs/trace.md):`,
    `// ${omitted.failed} failed and ${omitted.superseded} superseded left out${omitted.unsupported > 0 ? `, ${omitted.unsupported} without a script equivalent` : ''}.`,
  ];
  if (envNames.length > 0) header.push(`// Secrets come from the environment: ${envNames.join(', ')}.`);
  const body = placed.flatMap((item) => playwrightStep(item, tabs)).map((line) => `  ${line}`);
  const playwright = [
    // The package's name is built so that no scan of this file's imports mistakes it for one of ours.
    `import { test, expect } from ${q(['@playwright', 'test'].join('/'))};`,
    '',
    ...header,
    `test(${q(title)}, async ({ page }) => {`,
    ...body,
    '});',
    '',
  ].join('\n');
  const first = tabs.get(placed[0]?.step.tab ?? '') ?? 'page';
  const repl = [
    ...header,
    `const ${first} = (await currentTab()).targetId;`,
    ...placed.flatMap((item) => replStep(item, tabs)),
    '',
  ].join('\n');
  return { entries: [...entries], dropped: options.dropped ?? 0, playwright, repl, env: envNames, omitted };
}

/**
 * The `@playwright/test` file's steps as one function body for a replay (lib/trace/replay.ts):
 * `__step(i)` before each step, so a failure names the step it happened in; `steps` holds each
 * step's code as the exported file writes it.
 */
export function replayProgram(entries: readonly TraceEntry[]): { body: string; steps: string[] } {
  const { placed, tabs } = planSteps(entries);
  const steps: string[] = [];
  const lines: string[] = [];
  placed.forEach((item, index) => {
    const code = playwrightStep(item, tabs);
    steps.push(code.join('\n'));
    lines.push(`__step(${index});`, ...code);
  });
  return { body: lines.join('\n'), steps };
}
