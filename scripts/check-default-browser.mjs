#!/usr/bin/env node
// Keeps the server's own browser (`default`) an entry of the registry of browsers like the others:
// only the registry module (lib/browsers/browsers.ts) may know its id and tell it apart (never
// reaped, never listed, neither renamed nor deleted). Anywhere else in lib/, worker/ and common/, a
// special case of it is refused: its id's constant, a `defaultHost` beside the registry, a browser
// id compared with the literal, a registry lookup of the literal, or the path `/browsers/default`.
// docs/architecture.md ("Many browsers") says why: the last special case outside it was a bug.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one module that may tell the default browser apart. */
export const REGISTRY_MODULE = 'lib/browsers/browsers.ts';
/**
 * The typed HTTP client addresses browsers from outside, where `default` is an id of the API like
 * any other (its types are generated from openapi.json, whose prose names `/browsers/default`).
 */
const OUTSIDE_THE_SERVER = 'lib/client/';

/** Names under which code holds a browser's id (not a REPL's or an executor's name). */
const BROWSER_ID = String.raw`(?:\bidOrName|\bid_or_name|\bbrowserId|\bbrowser_id|\bsessionId|\bsession_id|\bbrowser\.id|\bsession\.id|\btarget\.id)`;
const DEFAULT_LITERAL = String.raw`(?:'default'|"default"|\x60default\x60)`;
/** What may stand between an id's name and the operator (`params['id_or_name'])`), or before the name (`req.params.`). */
const AFTER_ID = String.raw`[\w$'"\])]*`;
const BEFORE_ID = String.raw`[\w$.\[('"]*?`;

const RULES = [
  { pattern: /\bDEFAULT_BROWSER_ID\b/, why: 'the default browser\'s id belongs to the registry module' },
  { pattern: /\bdefaultHost\b/, why: 'the default browser is an entry of the registry (`browsers.primary`), not a host beside it' },
  { pattern: new RegExp(`${BROWSER_ID}${AFTER_ID}\\s*[!=]==?\\s*${DEFAULT_LITERAL}|${DEFAULT_LITERAL}\\s*[!=]==?\\s*${BEFORE_ID}${BROWSER_ID}`), why: 'a browser id compared with "default": ask the registry instead' },
  { pattern: new RegExp(String.raw`\b(?:browsers|registry|sessions)\.get\(\s*${DEFAULT_LITERAL}\s*\)`), why: 'the server\'s own browser is `browsers.primary`' },
  { pattern: /\/browsers\/default\b/, why: 'a route of the default browser is the same route of any browser' },
];

/**
 * The special cases of the default browser in `files` (`{ path, text }`, paths relative to the
 * repository), as `path:line: why` strings. Comments count too: a comment that tells the default
 * browser apart describes code that should not.
 */
export function defaultBrowserProblems(files) {
  const problems = [];
  for (const { path, text } of files) {
    if (path === REGISTRY_MODULE || path.startsWith(OUTSIDE_THE_SERVER)) continue;
    text.split('\n').forEach((line, index) => {
      for (const rule of RULES) if (rule.pattern.test(line)) problems.push(`${path}:${index + 1}: ${rule.why}: ${line.trim()}`);
    });
  }
  return problems;
}

function sources(root, dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(root, path);
    return path.endsWith('.ts') ? [{ path: relative(root, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const files = ['lib', 'worker', 'common'].flatMap((area) => sources(root, join(root, area)));
  const problems = defaultBrowserProblems(files);
  if (problems.length > 0) {
    process.stderr.write(`the default browser is special-cased outside ${REGISTRY_MODULE}:\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`default browser rule ok (${files.length} files)\n`);
}
