/**
 * `js(expressionOrFunction, {arg?, targetId?})`: evaluates in the attached page (or any target)
 * exactly once. Strings go to `Runtime.evaluate` verbatim; functions are rebuilt in the page from
 * their source and exchange their argument and result as tagged trees, so bigint, NaN, ±Infinity,
 * -0, undefined and sparse arrays survive both ways at any depth (page-value-codec.ts;
 * docs/browser-helpers.md, "js()").
 *
 * Hot path (benchmarked against raw CDP): one `Runtime.evaluate` on the cached attached session;
 * no attach, target listing or enable work once a page is attached.
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument } from '../helper-options.js';
import { buildFunctionExpression, decodeEvaluateResponse, serializePageFunction } from '../../page/page-value-codec.js';
import { declaredNamesOfFunction } from '../../analyzer/declared-names.js';
import { assertPageResponsive, guardDialog } from './page-guard.js';

import type { Protocol } from 'devtools-protocol';
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

/** First line of a page ReferenceError for an undeclared name, as Chromium describes it. */
const PAGE_NAME_NOT_DEFINED = /^ReferenceError: ([^\s]+) is not defined$/;

/**
 * A page function that names a REPL variable fails in the page with "x is not defined": the page
 * never sees REPL bindings. When `x` really is a binding of the REPL whose cell made `fn` (the
 * binding store knows), the error says so and how to pass it; any other page error is returned
 * as it is.
 */
function withReplVariableHint(error: unknown, fn: object, hasArg: boolean): unknown {
  if (!(error instanceof ReplError) || error.code !== 'REPL_ERR_PAGE_EVALUATION') return error;
  const message = error.message;
  const lineEnd = message.indexOf('\n');
  const firstLine = lineEnd === -1 ? message : message.slice(0, lineEnd);
  const name = PAGE_NAME_NOT_DEFINED.exec(firstLine)?.[1];
  if (name === undefined || declaredNamesOfFunction(fn)?.kindOf(name) === undefined) return error;
  const pass = hasArg ? `add it to arg: js(fn, { arg: { ${name}, … } })` : `pass it as js(fn, { arg: ${name} })`;
  const hinted = `${firstLine}: \`${name}\` is a REPL variable; functions run in the page and cannot see REPL variables: ${pass}`
    + (lineEnd === -1 ? '' : message.slice(lineEnd));
  const { stack } = error;
  const shown = `${error.name}: ${message}`;
  error.message = hinted;
  if (stack?.startsWith(shown) === true) error.stack = `${error.name}: ${hinted}${stack.slice(shown.length)}`;
  return error;
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
      expression = buildFunctionExpression(serializePageFunction(code as (...args: never[]) => unknown, (source) => context.sourceAsWritten(source)), arg, hasArg);
      mode = 'function';
    } else {
      throw invalidArgument('js: expected a JavaScript expression string or page function');
    }
    const decode = (response: Protocol.Runtime.EvaluateResponse): unknown => {
      try {
        return decodeEvaluateResponse(response, mode);
      } catch (error) {
        throw mode === 'function' ? withReplVariableHint(error, code as object, hasArg) : error;
      }
    };
    // Another target (an OOPIF, another tab) gets a transient session; the attached one is reused.
    if (targetId !== undefined && targetId !== client.targetId) {
      return decode(await client.evaluateOnTarget(targetId, expression, context.callOptions()));
    }
    const sessionId = await client.ensureAttached(context.callOptions());
    if (client.pendingDialog !== null || !client.rendererResponsive) await assertPageResponsive('js', context);
    const response = await guardDialog('js', context, sessionId, () => client.evaluate(sessionId, expression, context.callOptions()));
    return decode(response);
  }

  return { js };
}
