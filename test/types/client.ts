// Type tier: `chromium-repl/client` as a user compiles against it (dist/lib/client/*.d.ts).
// `npm run test:types` runs tsc on this file; it never executes.
import { ClientError, createClient, parseEventStream, SseParser } from 'chromium-repl/client';
import type { Browser, ChromiumReplClient, ExecuteStreamEvent, ReplContent, ReplResult, ReplStreamEvent, SseEvent, WebMcpInvocation, WebMcpTool, paths } from 'chromium-repl/client';

async function usage(): Promise<void> {
  const client: ChromiumReplClient = createClient({ baseUrl: 'http://127.0.0.1:10001', token: 'secret', fetch: (request) => fetch(request) });
  const result: ReplResult = await client.repl({ code: 'repl.write(1)', timeout_sec: 5, repl: 'scraper' }, { browser: 'b1', signal: AbortSignal.timeout(1000) });
  result.success satisfies boolean;
  for (const item of result.content ?? []) {
    if (item.type === 'image') item.data_b64 satisfies string;
    else item.channel satisfies 'write' | 'stdout' | 'stderr';
  }
  for await (const event of client.replStream({ code: '1' })) {
    const typed: ReplStreamEvent = event;
    if (typed.event === 'cell') typed.data.cell_id satisfies string;
    else if (typed.event === 'content') typed.data satisfies ReplContent;
    else typed.data.repl_id satisfies string;
  }
  for await (const event of client.executeStream({ code: 'return 1', executor: 'e1' })) {
    const typed: ExecuteStreamEvent = event;
    if (typed.event === 'result') typed.data.stdout satisfies string;
    else typed.data.text satisfies string;
  }
  const again = await client.replResult('cell-id');
  if ('status' in again) again.status satisfies 'running';
  else again.success satisfies boolean;
  (await client.execute({ code: 'return 1' })).success satisfies boolean;
  (await client.repls()).map((info) => info.name satisfies string);
  await client.deleteRepl('scraper', { browser: 'b1' });

  const browser: Browser = await client.browsers.create({ name: 'b1', timeout_seconds: 60, viewport: { width: 800, height: 600 }, tags: { team: 'x' } });
  browser.cdp_ws_url satisfies string;
  browser.browser_live_view_url satisfies string;
  const page = await client.browsers.list({ offset: 0, limit: 10 });
  page.browsers satisfies Browser[];
  page.nextOffset satisfies number | undefined;
  await client.browsers.update('b1', { name: null });
  await client.browsers.retrieve(browser.session_id);
  await client.browsers.delete('b1');

  const tools: WebMcpTool[] = await client.webmcp.listTools({ browser: 'b1' });
  tools[0]?.source.frame?.frame_id satisfies number | undefined;
  tools[0]?.tool.inputSchema satisfies Record<string, unknown> | undefined;
  const invocation: WebMcpInvocation = await client.webmcp.invokeTool({ tool_ref: 'wmcp_x', input: { text: 'hi' }, timeout_sec: 30 });
  invocation.status satisfies 'completed' | 'canceled' | 'error' | 'awaiting_submission';
  invocation.output satisfies unknown;

  const raw = await client.api.POST('/repl', { body: { code: '1' } });
  // /repl answers JSON or an event stream (a string to openapi-fetch's types).
  if (raw.data !== undefined && typeof raw.data !== 'string') raw.data.repl_id satisfies string;
  const path: keyof paths = '/repl';
  path satisfies string;

  try {
    await client.health();
  } catch (error) {
    if (error instanceof ClientError) {
      error.status satisfies number;
      error.code satisfies string;
    }
  }
  const events: SseEvent[] = new SseParser().push('data: x\n\n');
  events[0]?.data satisfies string | undefined;
  for await (const event of parseEventStream(new ReadableStream<Uint8Array>())) event.event satisfies string;
}

void usage;
