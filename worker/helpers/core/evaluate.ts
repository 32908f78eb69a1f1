/**
 * `js(expressionOrFunction, {arg?, targetId?})`: evaluates in the attached page (or any target)
 * exactly once. Strings go to `Runtime.evaluate` verbatim; functions are rebuilt in the page from
 * their source and exchange their argument and result as tagged trees, so bigint, NaN, ±Infinity,
 * -0, undefined and sparse arrays survive both ways at any depth (page-value-codec.ts, §9).
 *
 * Hot path (benchmarked against raw CDP): one `Runtime.evaluate` on the cached attached session;
 * no attach, target listing or enable work once a page is attached.
 */
import { invalidArgument } from '../helper-options.js';
import { buildFunctionExpression, decodeEvaluateResponse, serializePageFunction } from '../../page/page-value-codec.js';
import { assertPageResponsive, guardDialog } from './page-guard.js';

import type { HelperContext } from '../helper-context.js';

interface JsOptions {
  hasArg: boolean;
  arg: unknown;
  targetId: string | undefined;
}

function readJsOptions(options: unknown): JsOptions {
  if (options === undefined) return { hasArg: false, arg: undefined, targetId: undefined };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgument('js: options must be an object with optional arg and targetId fields');
  }
  for (const key of Object.keys(options)) {
    if (key !== 'arg' && key !== 'targetId') throw invalidArgument(`js: unknown option: ${key}`);
  }
  const record = options as { arg?: unknown; targetId?: unknown };
  const { targetId } = record;
  if (targetId !== undefined && (typeof targetId !== 'string' || targetId === '')) {
    throw invalidArgument('js: targetId must be a target id string (see iframeTarget/listTabs)');
  }
  return { hasArg: Object.hasOwn(record, 'arg'), arg: record.arg, targetId };
}

export function createEvaluateHelpers(context: HelperContext) {
  const { client } = context;

  /** Evaluates a page expression or page function; see the module comment and `repl.help("js")`. */
  async function js(code: unknown, options?: unknown): Promise<unknown> {
    const { hasArg, arg, targetId } = readJsOptions(options);
    let expression: string;
    let mode: 'expression' | 'function';
    if (typeof code === 'string') {
      if (hasArg) throw invalidArgument('js: arg is only supported when evaluating a page function');
      expression = code;
      mode = 'expression';
    } else if (typeof code === 'function') {
      expression = buildFunctionExpression(serializePageFunction(code as (...args: never[]) => unknown), arg, hasArg);
      mode = 'function';
    } else {
      throw invalidArgument('js: expected a JavaScript expression string or page function');
    }
    // Another target (an OOPIF, another tab) gets a transient session; the attached one is reused.
    if (targetId !== undefined && targetId !== client.targetId) {
      return decodeEvaluateResponse(await client.evaluateOnTarget(targetId, expression, context.callOptions()), mode);
    }
    const sessionId = await client.ensureAttached(context.callOptions());
    if (client.pendingDialog !== null || !client.rendererResponsive) await assertPageResponsive('js', context);
    const response = await guardDialog('js', context, sessionId, () => client.evaluate(sessionId, expression, context.callOptions()));
    return decodeEvaluateResponse(response, mode);
  }

  return { js };
}
