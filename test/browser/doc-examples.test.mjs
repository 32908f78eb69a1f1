// Issue 27: every example of README.md and docs/*.md marked runnable (<!-- doctest: … -->, see
// test/helpers/doc-examples.mjs) runs against a real server on port 0 with a real Chromium, file by
// file, in document order: cells must succeed, scripts and modules must exit 0 (and a /repl answer
// they print must not say success: false). So an example that rots fails here, naming its line.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../dist/lib/index.js';
import { ROOT, allExamples, localised, moduleSources } from '../helpers/doc-examples.mjs';

t.setTimeout(900_000);
const MAIN = join(ROOT, 'dist/lib/cli/main.js');
/** Bound of one example: a hanging one fails instead of holding the suite. */
const EXAMPLE_BOUND_MS = 120_000;

// What the examples open instead of example.com: one page, whatever the path.
const pages = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end('<!doctype html><html><head><title>Example Domain</title></head><body><h1>Example Domain</h1><p>A page for the documentation\'s examples.</p><button>Search</button></body></html>');
});
pages.listen(0, '127.0.0.1');
await once(pages, 'listening');
const pageOrigin = `http://127.0.0.1:${pages.address().port}`;
t.teardown(() => new Promise((resolve) => { pages.closeAllConnections(); pages.close(resolve); }));

/** Runs a child to its end, bounded: `{ code, stdout, stderr }`. */
async function child(command, args, options) {
  const process_ = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  process_.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
  process_.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  const timer = setTimeout(() => process_.kill('SIGKILL'), EXAMPLE_BOUND_MS);
  const [code, signal] = await once(process_, 'close');
  clearTimeout(timer);
  return { code: signal === null ? code : `killed by ${signal} (the example ran past ${EXAMPLE_BOUND_MS / 1000}s)`, stdout, stderr };
}

/** Passes when the example exited 0; otherwise fails with everything it printed. */
function exited(t, run, label) {
  if (run.code === 0) t.pass(`${label} exits 0`);
  else t.fail(`${label} exited ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
}

/** The `/repl` answers a script printed that say the cell failed. */
function failedAnswers(stdout) {
  return stdout.split('\n').filter((line) => {
    try {
      return JSON.parse(line)?.success === false;
    } catch {
      return false;
    }
  });
}

const SH_PRELUDE = [
  'set -e -o pipefail',
  `chromium-repl() { node ${JSON.stringify(MAIN)} "$@"; }`,
  `npx() { if [ "$1" = chromium-repl ]; then shift; node ${JSON.stringify(MAIN)} "$@"; else command npx "$@"; fi; }`,
  // An HTTP error answer fails the example, as it would fail the reader.
  'curl() { command curl --fail-with-body "$@"; }',
].join('\n');

const byFile = new Map();
for (const example of allExamples()) byFile.set(example.file, [...(byFile.get(example.file) ?? []), example]);
for (const [file, examples] of byFile) {
  t.test(file, async (t) => {
    const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, tools: { permission: 'allow' }, primaryBrowser: { browser: { cdpEndpoint: null } } });
    t.teardown(() => server.close());
    const work = mkdtempSync(join(tmpdir(), 'chromium-repl-doctest-'));
    t.teardown(() => rmSync(work, { recursive: true, force: true }));
    // Modules import the package by its name, as a project that installed it does; one that
    // embeds it in its Express app has express of its own.
    mkdirSync(join(work, 'node_modules'));
    symlinkSync(ROOT, join(work, 'node_modules', 'chromium-repl'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', 'express'), join(work, 'node_modules', 'express'), 'dir');
    const env = { ...process.env, BROWSER_REPL_URL: server.url, HOME: work, BROWSER_REPL_HISTORY: '' };
    for (const name of ['BROWSER_REPL_TOKEN', 'CDP_ENDPOINT', 'PORT', 'HOST']) delete env[name];
    const where = { serverUrl: server.url, pageOrigin };
    const modules = new Map(moduleSources(examples).map((example) => [example.line, example.source]));

    for (const example of examples) {
      const label = `${file}:${example.line} (${example.kind})`;
      if (example.kind === 'cell') {
        const response = await fetch(`${server.url}/repl`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: localised(example.code, where), timeout_sec: 120 }),
        });
        const answer = await response.json();
        if (answer.success === true) t.pass(`${label} succeeds`);
        else t.fail(`${label} failed: ${answer.error ?? answer.message ?? JSON.stringify(answer)}`);
      } else if (example.kind === 'sh') {
        const run = await child('bash', ['-c', `${SH_PRELUDE}\n${localised(example.code, where)}`], { cwd: work, env });
        exited(t, run, label);
        t.same(failedAnswers(run.stdout), [], `${label}: no answer says success: false`);
      } else {
        const path = join(work, `example-${example.line}.mjs`);
        writeFileSync(path, localised(modules.get(example.line), where));
        const run = await child(process.execPath, [path], { cwd: work, env });
        exited(t, run, label);
      }
    }
  });
}
