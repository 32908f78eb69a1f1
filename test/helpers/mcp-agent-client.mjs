// An MCP client as an agent uses one (issue 25): every tool call is timed and counted with the
// characters of its result text, a failed call is a result the agent reads (never a throw), and a
// call that stalls is cut by the client after STALL_CUT_MS (an explicit wait: after its own timeout
// plus that margin) and recorded as cut, so that a product that hangs costs the suite seconds, not
// minutes. Connects over stdio (our `chromium-repl mcp`, or Playwright MCP) and over streamable HTTP.
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The issue's bound: no call may take this long, except an explicit wait. */
export const SLOW_CALL_MS = 5_000;
/** When the client gives up on a call that is not an explicit wait (twice the bound: a slow call is still measured). */
export const STALL_CUT_MS = 10_000;

export const OUR_CLI = fileURLToPath(new URL('../../dist/lib/cli/main.js', import.meta.url));

let capsFlagKnown;
/**
 * `chromium-repl mcp` argv with the code tools on: `--caps code` once the CLI knows the flag (issue
 * 25 puts the code tools behind it); before that the tools are on by default and the flag is refused.
 */
export function ourMcpArgs(extra = []) {
  capsFlagKnown ??= /--caps\b/.test(spawnSync(process.execPath, [OUR_CLI, 'help', 'mcp'], { encoding: 'utf8' }).stdout);
  return [OUR_CLI, 'mcp', '--permission', 'allow', ...(capsFlagKnown ? ['--caps', 'code'] : []), ...extra];
}

const textOf = (result) => (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text).join('\n');

/** One MCP connection and the record of every tool call made through it. */
export class AgentClient {
  /** Every tool call: `{ name, ms, chars, isError, cut, wait }`. */
  calls = [];
  #client;
  #close;

  constructor(label, client, close) {
    this.label = label;
    this.#client = client;
    this.#close = close;
  }

  /** The SDK client, for what is not a tool call (resources/read). */
  get sdk() {
    return this.#client;
  }

  /**
   * Calls a tool: `{ text, isError, cut, ms, content }`. `wait: true` marks an explicit wait
   * (exempt from the 5 s bound); `waitMs` is how long that wait may take.
   */
  async call(name, args = {}, { wait = false, waitMs = 30_000 } = {}) {
    const timeout = wait ? waitMs + STALL_CUT_MS : STALL_CUT_MS;
    const start = process.hrtime.bigint();
    let result;
    let cut = false;
    try {
      result = await this.#client.callTool({ name, arguments: args }, undefined, { timeout });
    } catch (error) {
      // -32001 is the SDK's request timeout: the call was cut (and cancelled on the server).
      cut = error?.code === -32001;
      result = { isError: true, content: [{ type: 'text', text: cut ? '' : `protocol error: ${error?.message ?? error}` }] };
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const text = textOf(result);
    this.calls.push({ name, ms, chars: text.length, isError: result.isError === true, cut, wait });
    return { text, isError: result.isError === true, cut, ms, content: result.content ?? [] };
  }

  /** Calls, characters of result text, summed call time, and the calls of 5 s or more that were no explicit wait. */
  stats() {
    const slow = this.calls.filter((call) => !call.wait && (call.cut || call.ms >= SLOW_CALL_MS));
    return {
      calls: this.calls.length,
      chars: this.calls.reduce((sum, call) => sum + call.chars, 0),
      callMs: this.calls.reduce((sum, call) => sum + call.ms, 0),
      slow: slow.map((call) => `${call.name} ${call.cut ? `cut after ${STALL_CUT_MS} ms` : `${Math.round(call.ms)} ms`}`),
    };
  }

  /** Forgets the calls made so far (a warm-up is not part of the task). */
  resetStats() {
    this.calls = [];
  }

  close() {
    return this.#close();
  }
}

/**
 * Spawns a stdio MCP server (`node <args>`) and connects: an {@link AgentClient} whose close()
 * ends the child and waits until it is gone (the server closes its browser when stdin ends).
 */
export async function connectStdio(label, args, { cwd, env = process.env } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
  const client = new Client({ name: 'agent-task', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw new Error(`${label}: could not connect (${error.message}); stderr: ${stderr}`);
  }
  const { pid } = transport;
  const gone = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  return new AgentClient(label, client, async () => {
    await client.close();
    for (let attempt = 0; pid !== undefined && attempt < 300 && !gone(); attempt++) await sleep(50);
    if (pid !== undefined && !gone()) process.kill(pid, 'SIGKILL');
  });
}

/** Connects to `/mcp` of a running server over streamable HTTP; close() ends the MCP session (DELETE). */
export async function connectHttp(label, url, { token } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'agent-task', version: '1.0.0' });
  await client.connect(transport);
  return new AgentClient(label, client, async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });
}
