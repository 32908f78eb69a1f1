/**
 * The errors an element action ends with. Texts follow the contract (docs/interaction.md, "Actionability"):
 * `<helper>: selector "<s>" was not actionable within <t>s (<last status>)`, the
 * multiple-visible-matches message, and so on; tests match them verbatim. Targets are named by
 * `targetLabel` (`element-target.ts`).
 */
import { ReplError } from '../../../common/errors.js';

/**
 * `REPL_ERR_ACTION_FAILED`: the target (named by `label`, see `targetLabel`) never passed the
 * checks in time; `status` says which failed last.
 */
export function notReadyError(helper: string, label: string, verb: 'actionable' | 'editable', timeoutSec: number, status: string): ReplError {
  return new ReplError('REPL_ERR_ACTION_FAILED', `${helper}: ${label} was not ${verb} within ${timeoutSec}s (${status})`, {
    data: { status },
  });
}

/**
 * `REPL_ERR_ACTION_FAILED`: the same element covered the target for `coveredSec` in a row (a
 * banner that stays until dismissed), so waiting out the timeout would change nothing.
 * `data.covered` tells callers (the agent tools) to name the cover's controls.
 */
export function coveredError(helper: string, label: string, verb: 'actionable' | 'editable', coveredSec: number, status: string): ReplError {
  return new ReplError('REPL_ERR_ACTION_FAILED', `${helper}: ${label} was not ${verb}: ${status} for ${coveredSec}s; dismiss what covers it first`, {
    data: { status, covered: true },
  });
}

/** `REPL_ERR_ACTION_FAILED`, thrown at once: clicking one of several visible matches would be a guess. */
export function multipleMatchesError(helper: string, selector: string, count: number): ReplError {
  return new ReplError('REPL_ERR_ACTION_FAILED', `${helper}: selector "${selector}" matches ${count} visible elements; use a more specific selector`, {
    data: { status: 'multiple', count },
  });
}

/**
 * `REPL_ERR_ACTION_FAILED`, thrown at once, for a semantic target with several visible matches:
 * lists them (role and name) so the agent can pick a narrower target at once.
 */
export function ambiguousTargetError(helper: string, description: string, count: number, candidates: readonly string[]): ReplError {
  const listed = candidates.join(', ') + (count > candidates.length ? ', …' : '');
  return new ReplError('REPL_ERR_ACTION_FAILED',
    `${helper}: ${description} matched ${count} elements: ${listed}; narrow it (a longer name, exact: true, a RegExp) or use a CSS selector or snapshot node`, {
      data: { status: 'multiple', count, candidates: [...candidates] },
    });
}

/** `REPL_ERR_TARGET_NOT_FOUND`, thrown at once: the node of an old snapshot is gone for good. */
export function staleNodeError(helper: string, label: string, backendNodeId: number): ReplError {
  return new ReplError(
    'REPL_ERR_TARGET_NOT_FOUND',
    `${helper}: ${label} is stale: it is no longer in the document (the page navigated or re-rendered); take a new accessibilitySnapshot() and use its nodes`,
    { data: { backendNodeId } },
  );
}

/** `REPL_ERR_INVALID_ARGUMENT`: the page rejected the selector's syntax. */
export function invalidSelectorError(helper: string, selector: string, detail: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_ARGUMENT', `${helper}: invalid selector "${selector}": ${detail}`);
}
