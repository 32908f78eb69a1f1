/**
 * Runs a page-side probe against an element target, one CDP call per run:
 * - a selector or a semantic target: `Runtime.evaluate` of
 *   `(<probe>)(<selector or query JSON>, …args)`;
 * - a `{backendNodeId}` (an accessibility-snapshot node): `DOM.resolveNode` once, then
 *   `Runtime.callFunctionOn` with `this` = the node and `target = null`, reusing the object id
 *   across polls (released when the action ends).
 *
 * Outcomes distinguish what the caller must treat differently: a value, a node that no longer
 * exists (`stale`: take a new snapshot), and a transient miss (the document was navigating or
 * its context went away: poll again).
 */
import { ReplError } from '../../../common/errors.js';
import { targetLabel } from './element-target.js';

import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';
import type { ElementTarget } from './element-target.js';

/** What one probe run produced. */
export type ProbeOutcome = { kind: 'value'; value: unknown } | { kind: 'stale' } | { kind: 'transient'; reason: string };

/** Chromium's answers for a backend node id that no longer maps to a node. */
const NODE_GONE = /No node with given id|Could not find node with given id|could not resolve backend node|does not belong to the document/i;
/** Chromium's answers while a document is replaced (navigation, reload, closed frame). */
const CONTEXT_GONE =
  /Cannot find context with specified id|Execution context was destroyed|Could not find object with given id|Inspected target navigated or closed|Cannot find default execution context/i;

const OBJECT_GROUP = 'browser-repl-interaction';

/** True for a CDP error that means the document (or the node's context) went away. */
export function isContextGone(error: unknown): boolean {
  return error instanceof Error && CONTEXT_GONE.test(error.message);
}

/** Runs probes against one target on one session. Call `release()` when the action is over. */
export class TargetProbe {
  readonly target: ElementTarget;
  /** How errors name the target (`targetLabel`). */
  readonly label: string;
  readonly #context: HelperContext;
  readonly #sessionId: string;
  readonly #helper: string;
  #objectId: string | undefined;

  /** `given` is the target as the caller passed it: a snapshot node's role and name go into `label`. */
  constructor(context: HelperContext, sessionId: string, target: ElementTarget, helper: string, given: unknown) {
    this.#context = context;
    this.#sessionId = sessionId;
    this.target = target;
    this.label = targetLabel(target, given);
    this.#helper = helper;
  }

  /**
   * Runs `source` (a function declaration whose first parameter is the selector, the semantic
   * query or null) with `args` after it. `timeoutMs` bounds the CDP command (the cell's
   * deadline, passed along, also does).
   */
  async run(source: string, args: readonly unknown[], options: { awaitPromise: boolean; timeoutMs: number }): Promise<ProbeOutcome> {
    const { awaitPromise, timeoutMs } = options;
    const send = this.#context.callOptions({ sessionId: this.#sessionId, timeoutMs });
    if (this.target.kind !== 'node') {
      const first = this.target.kind === 'selector' ? this.target.selector : this.target.query;
      const call = [first, ...args].map((value) => JSON.stringify(value)).join(', ');
      try {
        const response = await this.#context.client.send('Runtime.evaluate', { expression: `(${source})(${call})`, returnByValue: true, awaitPromise }, send);
        return { kind: 'value', value: this.#decode(response) };
      } catch (error) {
        if (isContextGone(error)) return { kind: 'transient', reason: 'navigating' };
        throw error;
      }
    }
    if (this.#objectId === undefined) {
      try {
        const { object } = await this.#context.client.send('DOM.resolveNode', { backendNodeId: this.target.backendNodeId, objectGroup: OBJECT_GROUP }, send);
        if (object.objectId === undefined) return { kind: 'stale' };
        this.#objectId = object.objectId;
      } catch (error) {
        if (error instanceof Error && NODE_GONE.test(error.message)) return { kind: 'stale' };
        if (isContextGone(error)) return { kind: 'transient', reason: 'navigating' };
        throw error;
      }
    }
    const callArguments: Protocol.Runtime.CallArgument[] = [{ value: null }, ...args.map((value) => ({ value }))];
    try {
      const response = await this.#context.client.send('Runtime.callFunctionOn', {
        objectId: this.#objectId,
        functionDeclaration: source,
        arguments: callArguments,
        returnByValue: true,
        awaitPromise,
      }, send);
      return { kind: 'value', value: this.#decode(response) };
    } catch (error) {
      // The node's document was replaced; resolving again tells whether the node still exists.
      if (isContextGone(error) || (error instanceof Error && NODE_GONE.test(error.message))) {
        this.#objectId = undefined;
        return { kind: 'transient', reason: 'navigating' };
      }
      throw error;
    }
  }

  /** Releases the node's remote object, without waiting (nothing depends on the answer). */
  release(): void {
    if (this.#objectId === undefined) return;
    const objectId = this.#objectId;
    this.#objectId = undefined;
    this.#context.client.send('Runtime.releaseObject', { objectId }, this.#context.callOptions({ sessionId: this.#sessionId, timeoutMs: 5_000 })).catch(() => {});
  }

  #decode(response: Protocol.Runtime.EvaluateResponse | Protocol.Runtime.CallFunctionOnResponse): unknown {
    if (response.exceptionDetails !== undefined) {
      const details = response.exceptionDetails;
      const description = details.exception?.description ?? details.text;
      throw new ReplError('REPL_ERR_PAGE_EVALUATION', `${this.#helper}: the page-side check of ${this.label} failed: ${description}`);
    }
    return response.result.value;
  }
}
