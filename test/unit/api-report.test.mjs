// The public surface is deliberate: docs/api-report.md lists every export of every entry of
// package.json `exports` with its declaration, and this test fails when the build says otherwise
// (scripts/api-report.mjs; `npm run api-report` rewrites the report after a change that is meant).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { REPORT_PATH, buildReport, firstDifference, typedEntries } from '../../scripts/api-report.mjs';

const root = new URL('../../', import.meta.url);
const report = readFileSync(new URL(REPORT_PATH, root), 'utf8');
const built = buildReport();

/** Names listed under one entry's heading of a report. */
function namesOf(text, heading) {
  const start = text.indexOf(`\n## \`${heading}\`\n`);
  if (start === -1) return undefined;
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^### `([^`]+)`/gm)].map((match) => match[1]);
}

t.test('the checked-in report is the one the build gives', async (t) => {
  t.equal(firstDifference(report, built), undefined, 'run npm run build && npm run api-report if the change is meant');
});

t.test('every typed entry of package.json exports has its section, and nothing else does', async (t) => {
  const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const headings = [...report.matchAll(/^## `([^`]+)`$/gm)].map((match) => match[1]);
  const expected = typedEntries(packageJson).map(([subpath]) => (subpath === '.' ? 'chromium-repl' : `chromium-repl/${subpath.slice(2)}`));
  t.same(headings, expected);
  t.same(expected, ['chromium-repl', 'chromium-repl/testing', 'chromium-repl/client']);
});

t.test('every value an entry exports at run time is in its section', async (t) => {
  const entries = { 'chromium-repl': 'dist/lib/index.js', 'chromium-repl/testing': 'dist/lib/testing.js', 'chromium-repl/client': 'dist/lib/client/index.js' };
  for (const [heading, file] of Object.entries(entries)) {
    const listed = new Set(namesOf(report, heading));
    const values = Object.keys(await import(new URL(file, root)));
    t.ok(values.length > 0, heading);
    t.same(values.filter((name) => !listed.has(name)), [], `${heading}: values missing from the report`);
  }
});

t.test('internals stay out of the main entry', async (t) => {
  const listed = new Set(namesOf(report, 'chromium-repl'));
  for (const internal of ['DEFAULT_TIMEOUT_SECONDS', 'defaultMaxBrowsers', 'liveWorkerThreads', 'liveExecutorThreads', 'mcpRoutes', 'WebMcpCallMessage', 'WebMcpCallHandler', 'WebMcpMonitor', 'ServerMetrics', 'MCP_TOOLS']) {
    t.notOk(listed.has(internal), internal);
  }
  for (const documented of ['createRepl', 'Repl', 'Browser', 'BrowserTools', 'createApp', 'startServer', 'ReplError', 'ERROR_CODES', 'Browsers', 'createMcpServer', 'McpHttpSessions']) {
    t.ok(listed.has(documented), documented);
  }
});

t.test('a changed signature or a new export is a difference, and it is named', async (t) => {
  const changed = report.replace('function createRepl(options?: ReplOptions): Repl;', 'function createRepl(options: ReplOptions): Repl;');
  t.not(changed, report, 'the report holds the signature of createRepl');
  t.match(firstDifference(changed, built), /^line \d+: the report says "function createRepl\(options: ReplOptions\): Repl;"/);
  t.match(firstDifference(report, `${built}\n### \`extra\`\n`), /the build gives "### `extra`"/);
});
