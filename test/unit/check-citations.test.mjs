// scripts/check-citations.mjs on made-up text: a citation of a document outside the repository
// is reported with its file and line, a pointer into docs/ is not. The strings are assembled so
// that this file does not match the rule itself.
import t from 'tap';
import { citationProblems } from '../../scripts/check-citations.mjs';

const SECTION = String.fromCharCode(0xa7);

t.test('section signs and outside paths are reported, with file and line', async (t) => {
  const text = [
    '/** Default per-command timeout (docs/architecture.md, "Limits of the CDP layer"). */',
    `/** Default connect timeout (repl-${'contract'} ${SECTION}3). */`,
    `// as the notes say (${'..'}/${'shared'}/spec/webmcp.md)`,
    `// (spec/${'landscape'}.md, the medians)`,
    `// fixtures: ${'seeds'}/pages`,
    `// as ${'seed'} 004 describes; (${'quirk'} 12 kills the renderer)`,
    'const ok = "docs/repl.md, \\"Bindings\\"";',
  ].join('\n');
  const problems = citationProblems('lib/x.ts', text);
  t.equal(problems.length, 8, 'lines 2, 3 and 6 have two each, lines 4 and 5 one, lines 1 and 7 none');
  t.ok(problems.every((line) => /^lib\/x\.ts:[2-6]: /.test(line)), problems.join('\n'));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:2: a section sign')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:2: the REPL contract notes')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:3: a path outside the repository')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:4: a note outside the repository')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:5: a path outside the repository')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:6: a seed outside the repository')));
  t.ok(problems.some((line) => line.startsWith('lib/x.ts:6: a numbered quirk')));
});

t.test('pointers inside the repository pass', async (t) => {
  const text = [
    '// docs/repl.md, "Bindings, and what a name costs"',
    '// test/fixtures/pages/form.html, the openapi.json spec, docs/spec-notes.md',
    '// RFC 9110, section 7.6.1',
    '// Found by the fuzzer (seed 1519646826); FUZZ_SEED replays a run',
  ].join('\n');
  t.strictSame(citationProblems('worker/y.ts', text), []);
});
