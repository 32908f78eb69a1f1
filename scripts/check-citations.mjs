#!/usr/bin/env node
// Fails when a tracked file cites a document that is not in the repository: a section sign (the
// way the notes this project was first written from number their sections) or a path into those
// notes. A reader of the repository has only the repository, so the contract the code follows is
// written in docs/ and the code points there (`docs/repl.md, "Bindings"`). Run by `npm run lint`;
// test/unit/check-citations.test.mjs runs the rule on made-up text. The patterns are spelled so
// that this file does not match them itself.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What a citation of a document outside the repository looks like, and why each is refused. */
export const OUTSIDE_CITATIONS = [
  { pattern: /\u00a7/u, why: 'a section sign: name the docs/ file and its heading instead' },
  { pattern: /repl[-]contract/u, why: 'the REPL contract notes are not in the repository: cite docs/repl.md or docs/lifecycle.md' },
  { pattern: /\.\.\/shared\b/u, why: 'a path outside the repository' },
  { pattern: /\bshared\/(?:spec|seeds)\b/u, why: 'a path outside the repository' },
  { pattern: /\bseeds\//u, why: 'a path outside the repository' },
  { pattern: /(?<![\w./-])spec\/[\w-]+\.md\b/u, why: 'a note outside the repository: cite docs/ instead' },
  // The numbered seeds ("seed" and three digits) and the numbered quirks of the WebMCP notes.
  { pattern: /\bseeds? 0\d\d\b/u, why: 'a seed outside the repository: state what it says, or cite docs/' },
  { pattern: /\bquirks? \d/u, why: 'a numbered quirk of notes outside the repository: cite docs/webmcp.md' },
];

/** Files that are generated or not ours to word. */
const SKIPPED = new Set(['package-lock.json']);

/** The citations in one file's text, as `path:line: why` lines. Pure. */
export function citationProblems(path, text) {
  const problems = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    for (const { pattern, why } of OUTSIDE_CITATIONS) {
      if (pattern.test(lines[index])) problems.push(`${path}:${index + 1}: ${why}: ${lines[index].trim().slice(0, 120)}`);
    }
  }
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter((path) => path !== '' && !SKIPPED.has(path));
  const problems = [];
  let checked = 0;
  for (const path of tracked) {
    let bytes;
    try {
      bytes = readFileSync(resolve(root, path));
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (bytes.includes(0)) continue; // binary
    checked++;
    problems.push(...citationProblems(path, bytes.toString('utf8')));
  }
  if (problems.length > 0) {
    process.stderr.write(`citations of documents outside the repository:\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`citation rule ok (${checked} files)\n`);
}
