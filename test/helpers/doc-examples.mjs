// The runnable examples of README.md and docs/*.md (issue 27: examples must not rot). A fence is
// runnable when an HTML comment right before it says so, which GitHub does not render:
//
//   <!-- doctest: cell -->             a cell of POST /repl (the file's cells share one REPL, in order)
//   <!-- doctest: sh -->               a bash script (chromium-repl, npx chromium-repl and curl work)
//   <!-- doctest: module -->           a Node ES module (chromium-repl and its subpaths import)
//   <!-- doctest: module continues --> a module run after the file's last plain `module` example's
//                                      code, in a block of its own (fragments that use its `client`)
//
// Examples name the addresses a reader uses; the runner points them at its own servers.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const MARKER = /^<!--\s*doctest:\s*(cell|sh|module|module continues)\s*-->\s*$/;
const FENCE = /^```(\w*)\s*$/;
/** Fence languages each kind may mark. */
const LANGUAGES = { cell: ['js', 'javascript'], sh: ['sh', 'bash', 'shell'], module: ['js', 'javascript'], 'module continues': ['js', 'javascript'] };

/** The markdown files whose examples run: README.md and every docs/*.md. */
export function documentedFiles() {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
}

/**
 * The marked examples of one markdown text, in order: `{ file, line, kind, code }`. Throws for a
 * marker not followed by a fence of a language its kind runs (a typo must not skip an example).
 */
export function extractExamples(markdown, file) {
  const lines = markdown.split('\n');
  const examples = [];
  for (let index = 0; index < lines.length; index += 1) {
    const marker = MARKER.exec(lines[index]);
    if (marker === null) {
      if (/^\s*<!--\s*doctest/.test(lines[index])) throw new Error(`${file}:${index + 1}: unknown doctest marker ${lines[index].trim()}`);
      continue;
    }
    const kind = marker[1];
    const fence = FENCE.exec(lines[index + 1] ?? '');
    if (fence === null || !LANGUAGES[kind].includes(fence[1])) {
      throw new Error(`${file}:${index + 1}: a "${kind}" doctest marker must come right before a \`\`\`${LANGUAGES[kind][0]} fence`);
    }
    const start = index + 2;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    if (end === lines.length) throw new Error(`${file}:${index + 2}: the fence never closes`);
    examples.push({ file, line: index + 2, kind, code: lines.slice(start, end).join('\n') });
    index = end;
  }
  return examples;
}

/** Every marked example of README.md and docs/*.md. */
export function allExamples() {
  return documentedFiles().flatMap((file) => extractExamples(readFileSync(join(ROOT, file), 'utf8'), file));
}

/**
 * The code as the runner runs it: the server a reader would have (127.0.0.1:10001, localhost)
 * becomes the runner's, and the public pages the examples open (example.com, a local site on
 * :8080) become its fixture page, so no example reaches the internet.
 */
export function localised(code, { serverUrl, pageOrigin }) {
  return code
    .replaceAll('http://127.0.0.1:10001', serverUrl)
    .replaceAll('http://localhost:10001', serverUrl)
    .replace(/(?<![\w./:-])(?:localhost|127\.0\.0\.1):10001/g, serverUrl)
    .replaceAll('https://example.com', pageOrigin)
    .replaceAll('http://127.0.0.1:8080', pageOrigin);
}

/** The scripts of a file's `module` examples, each `continues` one prefixed by the plain one before it. */
export function moduleSources(examples) {
  let base;
  return examples.filter((example) => example.kind.startsWith('module')).map((example) => {
    if (example.kind === 'module') {
      base = example.code;
      return { ...example, source: example.code };
    }
    if (base === undefined) throw new Error(`${example.file}:${example.line}: "module continues" needs a "module" example before it`);
    return { ...example, source: `${base}\n{\n${example.code}\n}\n` };
  });
}
