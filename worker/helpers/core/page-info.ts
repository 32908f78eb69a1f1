/**
 * `pageInfo()`: one evaluation for url, title, viewport, scroll, page size and ready state, plus
 * the open dialog. With a dialog open nothing is evaluated (the renderer is frozen): url and title
 * then come from the browser's target list.
 */
import { assertPageResponsive, dialogInfo, raceDialog, retryIfDisconnected } from './page-guard.js';
import { pageEvaluationError } from '../../page/page-value-codec.js';

import type { DialogInfo } from './page-guard.js';
import type { HelperContext } from '../helper-context.js';

/** The normal-path result. */
export interface PageInfo {
  url: string;
  title: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
  page: { width: number; height: number };
  ready_state: string;
  dialog: DialogInfo | null;
}

/** The result while a dialog blocks the page. */
export interface BlockedPageInfo {
  url: string;
  title: string;
  dialog: DialogInfo;
}

// Field names and order are the hosted product's (docs/repl.md, `browser.pageInfo`).
const PAGE_INFO_EXPRESSION = `(() => {
  const root = document.documentElement;
  return {
    url: location.href,
    title: document.title,
    viewport: { width: innerWidth, height: innerHeight },
    scroll: { x: scrollX, y: scrollY },
    page: { width: root ? root.scrollWidth : 0, height: root ? root.scrollHeight : 0 },
    ready_state: document.readyState,
  };
})()`;

export function createPageInfoHelpers(context: HelperContext) {
  const { client } = context;

  async function blocked(dialog: DialogInfo): Promise<BlockedPageInfo> {
    const targetId = client.targetId;
    const target = targetId === undefined ? undefined : (await client.listTargets(context.callOptions())).find((entry) => entry.targetId === targetId);
    return { url: target?.url ?? '', title: target?.title ?? '', dialog };
  }

  /** Describes the attached page, or the dialog blocking it. */
  function pageInfo(): Promise<PageInfo | BlockedPageInfo> {
    return retryIfDisconnected(describe);
  }

  async function describe(): Promise<PageInfo | BlockedPageInfo> {
    const sessionId = await client.ensureAttached(context.callOptions());
    const known = client.pendingDialog;
    if (known !== null) return blocked(dialogInfo(known));
    try {
      await assertPageResponsive('pageInfo', context);
    } catch (error) {
      const opened = client.pendingDialog;
      if (opened !== null) return blocked(dialogInfo(opened));
      throw error;
    }
    const outcome = await raceDialog(context, sessionId, () => client.evaluate(sessionId, PAGE_INFO_EXPRESSION, context.callOptions()));
    if (outcome.dialog !== undefined) return blocked(outcome.dialog);
    const response = outcome.value;
    if (response.exceptionDetails !== undefined) throw pageEvaluationError(response.exceptionDetails);
    const info = response.result.value as Omit<PageInfo, 'dialog'>;
    // Re-read after the evaluation: a dialog may have opened in the meantime.
    const dialog = client.pendingDialog;
    return { ...info, dialog: dialog === null ? null : dialogInfo(dialog) };
  }

  return { pageInfo };
}
