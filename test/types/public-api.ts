// Type tier: compiles against the published declarations (dist/lib/*.d.ts) the way a user would.
// `npm run test:types` runs tsc on this file; it never executes.
import { Browser, createApp, createRepl, MAX_NAMED_REPLS, ReplError, startServer, TabRegistry, toWireResult } from 'chromium-repl';
import type { CellResult, ErrorCode, Repl, ReplInfo, ReplOptions, WireCellResult } from 'chromium-repl';
import { createTestRepl, replFixture } from 'chromium-repl/testing';
import type { CellFailedError, TestRepl } from 'chromium-repl/testing';

async function usage(): Promise<void> {
  const options: ReplOptions = { heapMb: 128, browser: false, warmSpare: false };
  const repl = createRepl(options);
  const result: CellResult = await repl.run('repl.write(1)', { timeoutSec: 5, reset: false, signal: AbortSignal.timeout(1000) });
  for (const item of result.content ?? []) {
    if (item.type === 'image') item.data.byteLength satisfies number;
    else item.channel satisfies 'write' | 'stdout' | 'stderr';
  }
  const wire: WireCellResult = toWireResult(result);
  wire.repl_id satisfies string;
  await repl[Symbol.asyncDispose]();

  const app = createApp({ token: 'secret' });
  await app.browsers.close();
  const server = await startServer({ port: 0 });
  server.url satisfies string;
  await server.close();

  try {
    await repl.run('');
  } catch (error) {
    if (error instanceof ReplError) {
      const code: ErrorCode = error.code;
      code satisfies string;
    }
  }
  const testRepl: TestRepl = createTestRepl();
  (await testRepl.text('repl.write(1)')) satisfies string;
  (await testRepl.stdout('console.log(1)')) satisfies string;
  (await testRepl.stderr('console.error(1)')) satisfies string;
  try {
    await testRepl.run('throw new Error("x")');
  } catch (error) {
    const failed = error as CellFailedError;
    failed.code satisfies string | undefined;
    failed.result.success satisfies boolean;
    // @ts-expect-error the result is read-only
    failed.result = failed.result;
  }
  replFixture({ after: () => undefined });
  // @ts-expect-error timeoutSec is a number
  await repl.run('1', { timeoutSec: '5' });

  const host = new Browser({ browser: false, maxNamedRepls: MAX_NAMED_REPLS });
  const named: Repl = host.repl('search');
  named.name satisfies string;
  named.busy satisfies boolean;
  named.targetId satisfies string | undefined;
  const infos: ReplInfo[] = await host.listRepls();
  infos[0]?.replId satisfies string | null | undefined;
  await host.deleteRepl('search');
  host.tabs satisfies TabRegistry | null;
  await host.close();
}

void usage;
