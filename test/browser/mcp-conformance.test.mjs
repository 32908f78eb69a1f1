// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// run against our /mcp endpoint on 127.0.0.1 (no token: the suite's client sends none, and the
// DNS rebinding scenario is meant for exactly such a server). Every scenario of the default
// ("active") suite must pass except those listed below; docs/mcp.md explains each. The list is
// exact both ways: a scenario that starts passing must leave it (the suite's own baseline rule).
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../dist/lib/index.js';

const CONFORMANCE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

/**
 * Scenario → why it fails against us. Each needs a fixture a test server exposes (tools, prompts or
 * resources with names the suite chooses) or a feature that has no use here.
 */
const EXPECTED_FAILURES = {
  'completion-complete': 'completes the argument of the fixture prompt test_prompt_with_arguments; we have no prompts (our completion covers the workspace template\'s path)',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content; we produce no audio',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'calls the fixture tool test_tool_with_logging',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress',
  'tools-call-sampling': 'calls the fixture tool test_sampling; we never ask the client\'s model',
  'tools-call-elicitation': 'calls the fixture tool test_elicitation (our elicitation approves browser_open)',
  'elicitation-sep1034-defaults': 'calls the fixture tool test_elicitation_sep1034_defaults',
  'elicitation-sep1330-enums': 'calls the fixture tool test_elicitation_sep1330_enums',
  'resources-read-text': 'reads the fixture resource test://static-text',
  'resources-read-binary': 'reads the fixture resource test://static-binary',
  'resources-templates-read': 'reads the fixture template test://template/{id}/data',
  'resources-subscribe': 'subscribes to test://watched-resource; we accept subscriptions to browser-repl://workspace/ resources only',
  'resources-unsubscribe': 'subscribes to test://watched-resource first (as resources-subscribe)',
  'prompts-list': 'we offer no prompts',
  'prompts-get-simple': 'gets the fixture prompt test_simple_prompt',
  'prompts-get-with-args': 'gets the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'gets the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'gets the fixture prompt test_prompt_with_image',
};

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

t.test('the MCP conformance suite passes, but for the listed fixture scenarios', async (t) => {
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: { cdpEndpoint: null } } });
  t.teardown(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const baseline = join(dir, 'baseline.yml');
  await writeFile(baseline, `server:\n${Object.keys(EXPECTED_FAILURES).map((name) => `  - ${name}\n`).join('')}`);
  const results = join(dir, 'results');

  const { code, output } = await run(CONFORMANCE, ['server', '--url', `${server.url}/mcp`, '--output-dir', results, '--expected-failures', baseline]);

  // Results: one folder per scenario, `server-<scenario>-<timestamp>/checks.json`.
  const outcomes = {};
  for (const folder of await readdir(results)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(results, folder, 'checks.json'), 'utf8'));
    const failures = checks.filter((check) => check.status === 'FAILURE');
    outcomes[scenario] = { passed: failures.length === 0 && checks.some((check) => check.status === 'SUCCESS'), failures };
  }
  t.ok(Object.keys(outcomes).length >= 25, `the suite ran its scenarios (${Object.keys(outcomes).length})`);
  for (const mustPass of ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'resources-list', 'server-sse-multiple-streams', 'dns-rebinding-protection']) {
    t.ok(outcomes[mustPass], `${mustPass} ran`);
  }
  const failed = Object.entries(outcomes).filter(([, outcome]) => !outcome.passed).map(([scenario]) => scenario).sort();
  const unexpected = failed.filter((scenario) => !(scenario in EXPECTED_FAILURES));
  t.same(unexpected, [], 'no scenario fails that is not expected to', {
    details: Object.fromEntries(unexpected.map((scenario) => [scenario, outcomes[scenario].failures.map((check) => `${check.id}: ${check.errorMessage ?? ''}`)])),
  });
  const stale = Object.keys(EXPECTED_FAILURES).filter((scenario) => outcomes[scenario]?.passed === true);
  t.same(stale, [], 'every expected failure still fails (else remove it from the list and docs/mcp.md)');
  t.equal(code, 0, 'and the suite agrees with the baseline', { output: output.slice(-4000) });
  t.equal(server.app.mcp.size > 0, true, 'the suite\'s sessions are open until the server closes them');
});
