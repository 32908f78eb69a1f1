/**
 * The proof of an export (docs/trace.md, "Replay"): the exported `@playwright/test` steps run
 * once in a fresh browser context of a Chromium of their own (launched for the replay, driven by
 * playwright-core over CDP, closed after it), and the answer says green or which step failed first.
 *
 * The steps are the exported file's own code (`replayProgram`), run with `page`, a small `expect`
 * for the two assertions the exporter writes (`toBeVisible`, `toBeHidden`: a locator's
 * `waitFor`), and a `process.env` that holds only the secrets the trace recorded, so the replay
 * types what was typed while the script itself never holds it.
 */
import { findChromium } from '../chromium/find-chromium.js';
import { launchChromium } from '../chromium/launch-chromium.js';
import { detectNoSandbox } from '../chromium/sandbox.js';
import { replayProgram } from '../../common/trace/export-script.js';

import type { TraceEntry } from '../../common/trace/trace-types.js';

/** What a replay answers (`TraceReplay` of openapi.json). */
export interface TraceReplay {
  ok: boolean;
  steps: number;
  passed: number;
  duration_ms: number;
  failed_step?: { index: number; code: string; error: string };
}

/** How long one step may wait for its element or page; the whole replay gets {@link REPLAY_LIMIT_MS}. */
export const REPLAY_STEP_TIMEOUT_MS = 10_000;
export const REPLAY_LIMIT_MS = 120_000;

type AsyncBody = (page: unknown, expect: unknown, process: unknown, step: (index: number) => void) => Promise<void>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => AsyncBody;

interface Waitable {
  waitFor(options: { state: 'visible' | 'hidden' }): Promise<void>;
}

function expectOf(locator: Waitable): { toBeVisible(): Promise<void>; toBeHidden(): Promise<void> } {
  return {
    toBeVisible: () => locator.waitFor({ state: 'visible' }),
    toBeHidden: () => locator.waitFor({ state: 'hidden' }),
  };
}

/** Replays the entries' exported steps once (see the module comment). */
export async function replayTrace(entries: readonly TraceEntry[], secrets: Readonly<Record<string, string>>, options: { executable?: string; stepTimeoutMs?: number } = {}): Promise<TraceReplay> {
  const { body, steps } = replayProgram(entries);
  const began = Date.now();
  // Nothing to run: no browser is launched for it.
  if (steps.length === 0) return { ok: true, steps: 0, passed: 0, duration_ms: 0 };
  const { chromium } = await import('playwright-core');
  // Launched as every browser of the server is (lib/chromium/launch-chromium.ts): its offline
  // flags, the sandbox rule, and a process group that cannot outlive the server, then driven
  // over CDP, so a server killed during a replay leaves no Chromium behind.
  const launched = await launchChromium({ executable: options.executable ?? findChromium().executable, noSandbox: detectNoSandbox().noSandbox });
  let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  let current = -1;
  let limit: NodeJS.Timeout | undefined;
  try {
    browser = await chromium.connectOverCDP(launched.wsEndpoint);
    const context = await browser.newContext();
    context.setDefaultTimeout(options.stepTimeoutMs ?? REPLAY_STEP_TIMEOUT_MS);
    const page = await context.newPage();
    const run = new AsyncFunction('page', 'expect', 'process', '__step', body);
    const overLimit = new Promise<never>((_resolve, reject) => {
      limit = setTimeout(() => reject(new Error(`the replay did not finish within ${REPLAY_LIMIT_MS / 1000} s`)), REPLAY_LIMIT_MS);
    });
    await Promise.race([run(page, expectOf, { env: { ...secrets } }, (index) => { current = index; }), overLimit]);
    return { ok: true, steps: steps.length, passed: steps.length, duration_ms: Date.now() - began };
  } catch (error) {
    const index = Math.max(current, 0);
    const message = String((error as { message?: unknown } | null)?.message ?? error).split('\n').slice(0, 6).join('\n');
    return {
      ok: false,
      steps: steps.length,
      passed: Math.max(current, 0),
      duration_ms: Date.now() - began,
      failed_step: { index, code: steps[index] ?? '', error: message },
    };
  } finally {
    clearTimeout(limit);
    await browser?.close().catch(() => undefined);
    await launched.close();
  }
}
