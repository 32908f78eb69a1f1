// The shell's multi-line rule (lib/cli/shell.ts incompleteInput): input that can only go on
// asks for another line, anything complete or wrong whatever follows goes to the server. It relies
// on meriyah's messages; these tables pin them for the meriyah version we depend on.
import t from 'tap';
import { incompleteInput, promptFor } from '../../dist/lib/cli/shell.js';

const INCOMPLETE = [
  'function f() {',
  'function add(a, b) {\n  return a + b\n',
  'let x = [1,',
  'const s = `abc',
  'y = `a\nb',
  'if (x)',
  'foo(',
  'a +',
  '/* comment',
  'x = {',
  'class A { m() {',
  '({a: 1',
  '[1, 2',
  'x = (1',
  '({a: [1, {b: 2',
  'await page(',
];

const NOT_INCOMPLETE = [
  'let x = 1;',
  'let z = {a: 1}\n',
  'await 1',
  'repl.write(1)',
  '"unterminated string',
  'let let = 1',
  '}',
  'foo)',
  'foo(1 2',
  'x = 1 }',
  '({a: 1)',
];

t.test('incompleteInput', async (t) => {
  for (const code of INCOMPLETE) {
    t.type(incompleteInput(code), SyntaxError, `asks for more after ${JSON.stringify(code)}`);
  }
  for (const code of NOT_INCOMPLETE) {
    t.equal(incompleteInput(code), undefined, `sends ${JSON.stringify(code)} as it is`);
  }
  t.match(incompleteInput('function f() {').message, /end of source/, 'the error is the parse error of the input as typed');
});

t.test('promptFor', async (t) => {
  t.equal(promptFor(undefined, 'default'), 'chromium-repl> ');
  t.equal(promptFor(undefined, 'scraper'), 'chromium-repl (repl scraper)> ');
  t.equal(promptFor('b1', 'default'), 'chromium-repl (browser b1)> ');
  t.equal(promptFor('b1', 'scraper'), 'chromium-repl (browser b1, repl scraper)> ');
});
