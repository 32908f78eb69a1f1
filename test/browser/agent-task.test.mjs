// Issue 25's proof: a whole task on a site of the kind agents meet (test/helpers/shop-site.mjs:
// a sign-in under a covering cookie banner, an orders list in an open shadow root with pagination
// and a debounced search, order details in popups, a CSV download, a file input, a payment form in
// a cross-site iframe of the popup, a confirm() on cancel, a WebMCP page tool), done by a scripted
// agent through MCP tools alone (test/helpers/agent-task.mjs), on real headless Chromium.
//
// - 20 runs over streamable HTTP, each a fresh MCP session of one `chromium-repl serve` (one
//   browser context, REPL and workspace per session, as the server gives every agent), all 20 must
//   complete: every check of the issue holds in every answer, no call takes 5 s or more except an
//   explicit wait, and every effect reached the shop (the login, the cancel, the invoice download
//   and the file byte for byte in the session's workspace, the upload byte for byte, the payment
//   of EUR 218.30, the note). One server for the 20 sessions: that is how the server serves agents,
//   a leak between sessions would show, and 20 stdio processes would add a browser launch each.
// - The same task once over stdio (`chromium-repl mcp`, one session per process), the downloaded
//   file also checked on disk in the workspace folder.
// - Two concurrent HTTP MCP sessions that cannot see each other's REPL bindings, pages or cookies.
//
// Runs stop at the first one that fails (each failed check and effect is reported), so that a
// product that stalls costs this file seconds, not 20 runs of stalls.
import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { invoiceCsv, PAY_ORDER_ID, SHOP_PASSWORD, startShopSite } from '../helpers/shop-site.mjs';
import { connectHttp, connectStdio, ourMcpArgs } from '../helpers/mcp-agent-client.mjs';
import { runOurTask, shopEffectsFailures, shopTask } from '../helpers/agent-task.mjs';
import { serveEnv, spawnServe } from '../helpers/serve-process.mjs';

const RUNS = 20;
const TOKEN = randomBytes(16).toString('hex');

const site = await startShopSite();
// Whatever the servers and their Chromium leave in the temporary folder goes with this one. Short
// names: Chromium's singleton socket lives in a folder of TMPDIR, and a Unix socket's path may
// not be longer than 107 bytes.
const scratch = mkdtempSync(join(tmpdir(), 'agent-task-'));
const serveTmp = join(scratch, 'http');
mkdirSync(serveTmp);
const serve = await spawnServe(t, {
  env: serveEnv({ BROWSER_REPL_TOKEN: TOKEN, BROWSER_REPL_TOOLS_PERMISSION: 'allow', BROWSER_REPL_MCP_CAPS: 'code', TMPDIR: serveTmp }),
  teardownSignal: 'SIGINT',
});
t.teardown(async () => {
  if (serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill('SIGINT');
    await serve.closed;
  }
  await site.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** What went wrong in a run: its failed checks, the effects the shop did not get, the downloaded file's bytes. */
async function runFailures(client, task, { workspace } = {}) {
  const report = await runOurTask(client, task);
  const failures = report.failures.map((check) => `${check.name}${check.detail === '' ? '' : `: ${check.detail.replace(/\s+/g, ' ').slice(0, 300)}`}`);
  failures.push(...shopEffectsFailures(site, task, { noteSource: 'webmcp' }).map((effect) => `the shop did not get ${effect}`));
  const link = report.facts.download;
  if (link !== undefined) {
    const read = await client.sdk.readResource({ uri: link.uri }).catch((error) => ({ contents: [], error }));
    const item = read.contents[0];
    const bytes = item === undefined ? undefined : item.blob !== undefined ? Buffer.from(item.blob, 'base64') : Buffer.from(item.text ?? '', 'utf8');
    if (bytes === undefined || !bytes.equals(invoiceCsv(PAY_ORDER_ID))) failures.push(`the invoice read through resources/read is not the file the shop served (${read.error?.message ?? `${bytes?.length} bytes`})`);
    if (workspace !== undefined) {
      const onDisk = readdirSync(workspace, { recursive: true }).find((name) => String(name).endsWith(`invoice-${PAY_ORDER_ID}.csv`));
      if (onDisk === undefined || !readFileSync(join(workspace, String(onDisk))).equals(invoiceCsv(PAY_ORDER_ID))) failures.push(`the invoice in the workspace folder is not the file the shop served (${onDisk ?? 'no file'})`);
    }
  }
  return { failures, stats: report.stats };
}

const summary = (stats) => `${stats.calls} calls, ${stats.chars} characters of results, ${Math.round(stats.callMs)} ms in calls`;

// The server's browser is launched before the agents arrive: a launch is not a step of the task.
const warmUp = await connectHttp('warm-up', serve.url, { token: TOKEN });
await warmUp.call('browser_tabs', { action: 'list' });
await warmUp.close();

t.test(`the whole task, ${RUNS} runs over streamable HTTP, each a fresh MCP session of one server: all complete`, async (t) => {
  let completed = 0;
  for (let run = 1; run <= RUNS; run++) {
    const client = await connectHttp(`run ${run}`, serve.url, { token: TOKEN });
    let outcome;
    try {
      outcome = await runFailures(client, shopTask(site, run));
    } finally {
      await client.close();
    }
    if (outcome.failures.length > 0) {
      for (const failure of outcome.failures) t.fail(`run ${run}: ${failure}`);
      t.comment(`run ${run} (${summary(outcome.stats)}) failed; runs ${run + 1}-${RUNS} were not started`);
      break;
    }
    completed += 1;
    t.pass(`run ${run} complete: ${summary(outcome.stats)}`);
  }
  t.equal(completed, RUNS, `${RUNS} runs of ${RUNS} complete`);
});

t.test('the whole task over stdio (chromium-repl mcp), the download also checked in the workspace folder', async (t) => {
  const workspace = join(scratch, 'stdio-workspace');
  const stdioTmp = join(scratch, 'stdio');
  mkdirSync(stdioTmp);
  const client = await connectStdio('stdio', ourMcpArgs(['--workspace', workspace]), { env: serveEnv({ TMPDIR: stdioTmp }) });
  let outcome;
  try {
    // Launches its browser, which is not a step of the task.
    await client.call('browser_tabs', { action: 'list' });
    client.resetStats();
    outcome = await runFailures(client, shopTask(site, RUNS + 1), { workspace });
  } finally {
    await client.close();
  }
  for (const failure of outcome.failures) t.fail(failure);
  t.same(outcome.failures, [], `the task completes over stdio: ${summary(outcome.stats)}`);
});

t.test('two concurrent HTTP MCP sessions cannot see each other\'s bindings, pages or cookies', async (t) => {
  const [a, b] = await Promise.all([connectHttp('A', serve.url, { token: TOKEN }), connectHttp('B', serve.url, { token: TOKEN })]);
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const email = `isolation-${process.pid}@northwind.test`;
  const must = async (client, name, args) => {
    const answer = await client.call(name, args);
    if (answer.isError) throw new Error(`${client.label} ${name} failed: ${answer.text.slice(0, 500)}`);
    return answer.text;
  };
  const refIn = (text, label) => Number(new RegExp(`^\\[(\\d+)\\] \\S+ ${JSON.stringify(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').exec(text)?.[1]);

  // A signs in; B, at the same time, opens the orders page without signing in (the shop sends it to /login).
  const signIn = async () => {
    const page = await must(a, 'browser_open', { url: site.url('/login') });
    await must(a, 'browser_click', { ref: refIn(page, 'Reject optional'), snapshot: 'none' });
    await must(a, 'browser_type', { ref: refIn(page, 'Email'), text: email, snapshot: 'none' });
    return must(a, 'browser_type', { ref: refIn(page, 'Password'), text: SHOP_PASSWORD, submit: true });
  };
  const [signedIn, stranger] = await Promise.all([signIn(), must(b, 'browser_open', { url: site.url('/orders') })]);
  t.match(signedIn, new RegExp(`Signed in as ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'A is signed in');
  t.match(stranger, /^URL: .*\/login$/m, 'B is on the sign-in page');
  t.equal(site.sessionsOf(email), 1, 'the shop saw one sign-in, A\'s');

  t.test('browser_tabs and snapshots: each session sees its own page only', async (t) => {
    const [tabsA, tabsB] = await Promise.all([must(a, 'browser_tabs', { action: 'list' }), must(b, 'browser_tabs', { action: 'list' })]);
    t.match(tabsA, /\/orders/, 'A lists its orders tab');
    t.notMatch(tabsA, /\/login/, 'and not B\'s sign-in tab');
    t.notMatch(tabsB, /\/orders/, 'B does not list A\'s tab');
    t.notMatch(await must(b, 'browser_snapshot', {}), new RegExp(email), 'B\'s snapshot shows nothing of A\'s page');
  });

  t.test('browser_repl: bindings stay in their session, and the cell runs on the session\'s own page', async (t) => {
    const cell = async (client, code) => {
      const answer = await client.call('browser_repl', { code });
      t.notOk(answer.isError, `${client.label}'s cell runs: ${answer.text.slice(0, 300)}`);
      return answer.text;
    };
    await Promise.all([cell(a, 'var secretOfA = "a-secret"; globalThis.markOfA = 1;'), cell(b, 'var secretOfB = "b-secret"; globalThis.markOfB = 1;')]);
    const [seenByA, seenByB] = await Promise.all([
      cell(a, 'repl.write(JSON.stringify([typeof secretOfA, typeof secretOfB, typeof markOfB]))'),
      cell(b, 'repl.write(JSON.stringify([typeof secretOfB, typeof secretOfA, typeof markOfA]))'),
    ]);
    t.same(JSON.parse(seenByA), ['string', 'undefined', 'undefined'], 'A sees its own binding, none of B\'s');
    t.same(JSON.parse(seenByB), ['string', 'undefined', 'undefined'], 'B sees its own binding, none of A\'s');
    const where = 'repl.write(JSON.stringify({ url: (await pageInfo()).url, cookie: await js("document.cookie") }))';
    const [pageOfA, pageOfB] = (await Promise.all([cell(a, where), cell(b, where)])).map((text) => {
      try {
        return JSON.parse(text);
      } catch {
        return { url: text, cookie: text };
      }
    });
    t.match(pageOfA.url, /\/orders$/, 'A\'s cell is on A\'s page');
    t.match(pageOfA.cookie, /shop_user=/, 'with A\'s cookies');
    t.match(pageOfB.url, /\/login$/, 'B\'s cell is on B\'s page');
    t.notMatch(pageOfB.cookie, /shop_user=/, 'without A\'s cookies');
  });

  t.test('execute_playwright_code: page and context are the session\'s own', async (t) => {
    const code = 'return { url: page.url(), pages: context.pages().map((p) => p.url()), cookies: (await context.cookies()).map((c) => c.name) };';
    const [resultA, resultB] = await Promise.all([a.call('execute_playwright_code', { code }), b.call('execute_playwright_code', { code })]);
    for (const [label, result] of [['A', resultA], ['B', resultB]]) t.notOk(result.isError, `${label}'s code runs: ${result.text.slice(0, 300)}`);
    const parse = (text) => JSON.parse(/^result: ([\s\S]*?)(?:\nstdout:|\nstderr:|$)/.exec(text)?.[1] ?? 'null');
    const [ofA, ofB] = [parse(resultA.text) ?? {}, parse(resultB.text) ?? {}];
    t.match(ofA.url, /\/orders$/, 'A\'s page is A\'s orders page');
    t.ok(ofA.cookies?.includes('shop_session'), 'A\'s context has A\'s session cookie');
    t.equal(ofA.pages?.some((url) => url.endsWith('/login')), false, 'A\'s context has none of B\'s pages');
    t.match(ofB.url, /\/login$/, 'B\'s page is B\'s sign-in page');
    t.equal(ofB.cookies?.includes('shop_session'), false, 'B\'s context has no session cookie');
    t.equal(ofB.pages?.some((url) => url.endsWith('/orders')), false, 'B\'s context has none of A\'s pages');
  });
});
