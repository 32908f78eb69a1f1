/**
 * Capabilities an operator turns on beyond the page tools (`--caps`, as Playwright MCP has them).
 * `code` lists `browser_repl` and `execute_playwright_code`: they run JavaScript with the rights of
 * the server's process (files, processes, environment, network), so a model that reads untrusted
 * pages gets them only when the operator says so (docs/security.md "Code tools"). Kept apart from
 * the tools so the command line can check a list without loading the MCP server.
 */
import { ReplError } from '../../common/errors.js';

export type McpCapability = 'code';
export const MCP_CAPABILITIES: readonly McpCapability[] = Object.freeze(['code']);

/**
 * Checks a capability list (a flag, a variable, an option): known names only, blanks and repeats
 * dropped. @throws ReplError `REPL_ERR_INVALID_ARGUMENT` naming `field` and the unknown name.
 */
export function readCapabilities(value: readonly string[], field: string): McpCapability[] {
  const caps: McpCapability[] = [];
  for (const name of value) {
    const cap = name.trim();
    if (cap === '') continue;
    if (!(MCP_CAPABILITIES as readonly string[]).includes(cap)) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}: unknown capability ${JSON.stringify(cap)}; known: ${MCP_CAPABILITIES.join(', ')}`);
    }
    if (!caps.includes(cap as McpCapability)) caps.push(cap as McpCapability);
  }
  return caps;
}

/** The capabilities `BROWSER_REPL_MCP_CAPS` of `env` names (comma separated); none when unset. */
export function capabilitiesFromEnv(env: NodeJS.ProcessEnv): McpCapability[] {
  return readCapabilities((env['BROWSER_REPL_MCP_CAPS'] ?? '').split(','), 'BROWSER_REPL_MCP_CAPS');
}
