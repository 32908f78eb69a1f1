#!/usr/bin/env node
// Regenerates the parts of docs/ and openapi.json that derive from the registries in lib/
// (errors, help). `--check` writes nothing and exits 1 when a generated part is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, HELP_ENTRIES } from '../dist/lib/index.js';
import { formatHelpEntry, formatHelpIndex } from '../dist/common/help/format-help.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const stale = [];

function update(path, next) {
  const file = `${root}${path}`;
  let current = '';
  try { current = readFileSync(file, 'utf8'); } catch {}
  if (current === next) return;
  if (check) stale.push(path);
  else writeFileSync(file, next);
}

const BEGIN = '<!-- BEGIN GENERATED: do not edit; npm run generate -->';
const END = '<!-- END GENERATED -->';
function replaceSection(path, body) {
  const current = readFileSync(`${root}${path}`, 'utf8');
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${path} lacks the generated-section markers`);
  update(path, `${current.slice(0, start + BEGIN.length)}\n${body}\n${current.slice(end)}`);
}

// docs/errors.md: Code | Meaning | HTTP status | How to fix
const errorRows = Object.entries(ERROR_CODES).map(([code, def]) => `| <a id="${code.toLowerCase()}"></a>\`${code}\` | ${def.meaning} | ${def.status} | ${def.fix} |`);
replaceSection('docs/errors.md', ['| Code | Meaning | HTTP status | How to fix |', '|---|---|---|---|', ...errorRows].join('\n'));

// docs/repl.md: the method reference, exactly as repl.help prints it.
const helpBody = [
  '```text', formatHelpIndex(HELP_ENTRIES), '```', '',
  ...HELP_ENTRIES.flatMap((entry) => [`### \`${entry.name}\``, '', '```text', formatHelpEntry(entry), '```', '']),
].join('\n').trimEnd();
replaceSection('docs/repl.md', helpBody);

// openapi.json: the error-code enum and the /repl description.
const openapi = JSON.parse(readFileSync(`${root}openapi.json`, 'utf8'));
openapi.components.schemas.ErrorCode.enum = Object.keys(ERROR_CODES);
openapi.paths['/repl'].post.description = [
  'Runs `code` as one cell of a persistent JavaScript REPL (an ES module evaluated in one long-lived context; top-level',
  'var/let/const/function/class bindings persist). Expression values are ignored: emit output with repl.write, console',
  'or repl.emitImage. Calls to one REPL are serialised; REPLs of different names (`repl`) run concurrently, each with its own',
  'worker, bindings and tab. A timeout, crash or out-of-memory destroys that REPL (`repl_terminated: true`).',
  '',
  'Methods available inside a cell:',
  '',
  ...HELP_ENTRIES.map((entry) => `- \`${entry.signature}\`: ${entry.description}`),
].join('\n');
update('openapi.json', `${JSON.stringify(openapi, null, 2)}\n`);

if (stale.length > 0) {
  process.stderr.write(`generated files are out of date: ${stale.join(', ')}; run npm run generate\n`);
  process.exit(1);
}
process.stdout.write(check ? 'generated files are up to date\n' : 'generated files written\n');
