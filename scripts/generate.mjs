#!/usr/bin/env node
// Regenerates the parts of docs/ and openapi.json that derive from the registries in lib/
// (errors, help), and the typed client's types (lib/client/openapi-types.ts) from openapi.json.
// `--check` writes nothing and exits 1 when a generated part is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
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

// docs/errors.md: Code | Meaning | HTTP status | How to fix ("none" for a code reported inside a 200 answer)
const errorRows = Object.entries(ERROR_CODES).map(([code, def]) => `| <a id="${code.toLowerCase()}"></a>\`${code}\` | ${def.meaning} | ${def.status ?? 'none'} | ${def.fix} |`);
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
  'worker, bindings and tab. A cell past `timeout_sec` is interrupted and its REPL kept (`interrupted: true`); a crash,',
  'out-of-memory, or a timed-out cell that no interrupt check reaches destroys that REPL (`repl_terminated: true`).',
  '',
  'Methods available inside a cell:',
  '',
  ...HELP_ENTRIES.map((entry) => `- \`${entry.signature}\`: ${entry.description}`),
].join('\n');

// openapi.json: every per-browser route again below /browsers/{id_or_name}/ (lib/http/create-app.ts
// mounts them there), generated from the top-level path so the two can never disagree. Routes of
// the server itself (probes, metrics, the /browsers API, MCP, the stored profiles) have no per-browser copy.
const SERVER_ROUTES = ['/healthz', '/readyz', '/metrics', '/pressure', '/browsers', '/mcp', '/extensions', '/proxies', '/browser_pools', '/profiles'];
const BROWSER_PARAMETER = {
  name: 'id_or_name', in: 'path', required: true, schema: { type: 'string' },
  description: 'A browser id, its name, or `default` for the server\'s own browser (docs/browsers.md).',
};
for (const path of Object.keys(openapi.paths)) {
  if (openapi.paths[path]['x-per-browser-copy-of'] !== undefined) delete openapi.paths[path];
}
for (const [path, item] of Object.entries(openapi.paths)) {
  if (SERVER_ROUTES.some((root) => path === root || path.startsWith(`${root}/`))) continue;
  const copy = structuredClone(item);
  for (const [method, operation] of Object.entries(copy)) {
    if (typeof operation !== 'object' || operation === null || Array.isArray(operation)) continue;
    if (typeof operation.operationId === 'string') operation.operationId = `${operation.operationId}OfBrowser`;
    operation.parameters = [BROWSER_PARAMETER, ...(operation.parameters ?? [])];
    void method;
  }
  openapi.paths[`/browsers/{id_or_name}${path}`] = { 'x-per-browser-copy-of': path, ...copy };
}
update('openapi.json', `${JSON.stringify(openapi, null, 2)}\n`);

// lib/client/openapi-types.ts: the client's types, from openapi.json as just updated (so a change
// of the spec and of its types land together), generated from a copy with two adjustments:
// - a `discriminator` without `mapping` means "the value is the schema's name" to openapi-typescript
//   (OpenAPI's implicit mapping), but our values are the `const` of each variant (`type: "text"`).
//   The mapping is written into the copy only: Ajv, which validates requests from openapi.json,
//   refuses `discriminator.mapping`.
// - `defaultNonNullable: false`: a property with a default is still optional in a request body.
function withDiscriminatorMappings(node) {
  if (Array.isArray(node)) return node.forEach(withDiscriminatorMappings);
  if (node === null || typeof node !== 'object') return;
  const { discriminator, oneOf } = node;
  if (discriminator !== undefined && discriminator.mapping === undefined && Array.isArray(oneOf)) {
    const mapping = {};
    for (const variant of oneOf) {
      const schema = variant.$ref?.startsWith('#/components/schemas/') ? openapi.components.schemas[variant.$ref.split('/').pop()] : undefined;
      const value = schema?.properties?.[discriminator.propertyName]?.const;
      if (typeof value === 'string') mapping[value] = variant.$ref;
    }
    if (Object.keys(mapping).length === oneOf.length) discriminator.mapping = mapping;
  }
  for (const value of Object.values(node)) withDiscriminatorMappings(value);
}
const forTypes = structuredClone(openapi);
withDiscriminatorMappings(forTypes);
const CLIENT_TYPES_HEADER = [
  '// Generated from openapi.json by scripts/generate.mjs (openapi-typescript); do not edit: npm run generate.',
  '// `npm run lint` fails when it is out of date.',
  '',
].join('\n');
const clientTypes = astToString(await openapiTS(forTypes, { silent: true, defaultNonNullable: false }));
update('lib/client/openapi-types.ts', `${CLIENT_TYPES_HEADER}${clientTypes}`);

if (stale.length > 0) {
  process.stderr.write(`generated files are out of date: ${stale.join(', ')}; run npm run generate\n`);
  process.exit(1);
}
process.stdout.write(check ? 'generated files are up to date\n' : 'generated files written\n');
