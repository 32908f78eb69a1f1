// The doc-test markers (test/helpers/doc-examples.mjs): what counts as a runnable example, the
// mistakes that must fail rather than skip an example, and that the examples a new user tries
// first (the README's quick start, docs/cli.md, the REPL basics, docs/client.md) are all marked.
// test/browser/doc-examples.test.mjs runs them against a real server.
import t from 'tap';
import { allExamples, extractExamples, localised, moduleSources } from '../helpers/doc-examples.mjs';

t.test('a marker runs the fence right after it; unmarked fences do not run', async (t) => {
  const markdown = ['Text', '<!-- doctest: cell -->', '```js', 'repl.write(1)', '```', '', '```js', 'not run', '```', '<!-- doctest: sh -->', '```sh', 'echo hi', 'echo there', '```'].join('\n');
  t.same(extractExamples(markdown, 'x.md'), [
    { file: 'x.md', line: 3, kind: 'cell', code: 'repl.write(1)' },
    { file: 'x.md', line: 11, kind: 'sh', code: 'echo hi\necho there' },
  ]);
});

t.test('mistakes fail instead of skipping an example', async (t) => {
  t.throws(() => extractExamples('<!-- doctest: cel -->\n```js\n1\n```', 'x.md'), /x\.md:1: unknown doctest marker/);
  t.throws(() => extractExamples('<!-- doctest: sh -->\n```js\n1\n```', 'x.md'), /must come right before a ```sh fence/);
  t.throws(() => extractExamples('<!-- doctest: cell -->\n\n```js\n1\n```', 'x.md'), /must come right before/);
  t.throws(() => extractExamples('<!-- doctest: cell -->\n```js\n1', 'x.md'), /never closes/);
  t.throws(() => moduleSources([{ file: 'x.md', line: 2, kind: 'module continues', code: '1' }]), /needs a "module" example before it/);
});

t.test('addresses are pointed at the runner\'s servers', async (t) => {
  const code = "curl -s localhost:10001/repl; fetch('http://127.0.0.1:10001/x'); gotoUrl(\"https://example.com\"); page.goto('http://127.0.0.1:8080/')";
  t.equal(localised(code, { serverUrl: 'http://127.0.0.1:5', pageOrigin: 'http://127.0.0.1:6' }),
    "curl -s http://127.0.0.1:5/repl; fetch('http://127.0.0.1:5/x'); gotoUrl(\"http://127.0.0.1:6\"); page.goto('http://127.0.0.1:6/')");
});

t.test('the examples a new user tries first are marked', async (t) => {
  const examples = allExamples();
  const count = (file, kind) => examples.filter((example) => example.file === file && (kind === undefined || example.kind === kind)).length;
  t.ok(count('README.md', 'sh') >= 2, 'the README\'s quick start (curl, run)');
  t.ok(count('README.md', 'module') >= 2, 'the README\'s library and node --test examples');
  t.ok(count('docs/cli.md') >= 2, 'docs/cli.md');
  t.ok(count('docs/repl.md') >= 3, 'docs/repl.md basics');
  t.ok(count('docs/client.md') >= 5, 'docs/client.md');
  t.ok(examples.some((example) => example.code.includes('captureScreenshot()') && example.file === 'docs/cli.md'), 'the emitImage example of the issue');
});
