/**
 * Turns a worker's `webmcp-call` messages into calls of the host's WebMCP monitor (lib/webmcp):
 * what `webmcp.listTools()` and `webmcp.invokeTool()` do in a cell or in executor code. The
 * worker has checked the ref, the input and the timeout already; the monitor checks them again,
 * since a cell can post any message on its port.
 */
import { ReplError } from '../../common/errors.js';
import type { WebMcpCallHandler } from '../threads/browser-calls.js';
import type { WebMcpScope, WebMcpTools } from '../webmcp/types.js';

/**
 * The handler of one REPL's or of the executors' WebMCP calls. `scope`, asked on every call, names
 * the tabs they may see (an agent-tool session's); without it, the monitor's default applies:
 * every tab but those of isolated agent-tool contexts.
 */
export function webMcpCallHandler(tools: WebMcpTools, scope?: () => WebMcpScope): WebMcpCallHandler {
  return async (call, signal) => {
    const scoped = scope === undefined ? {} : { scope: scope() };
    if (call.operation === 'list') return { tools: await tools.listTools({ ...scoped, signal }) };
    if (call.toolRef === undefined || call.inputJson === undefined) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'tool_ref and input are required');
    }
    let input: unknown;
    try {
      input = JSON.parse(call.inputJson);
    } catch {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'input must be JSON');
    }
    const invocation = await tools.invokeTool(call.toolRef, input, { timeoutSec: call.timeoutSec, ...scoped, signal });
    return { invocation };
  };
}
