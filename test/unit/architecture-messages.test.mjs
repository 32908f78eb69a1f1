// docs/architecture.md, "Threads and messages", lists every message of common/protocol/: each
// `type: '…'` a message interface declares there appears in the section's tables as `name …`.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const protocolFolder = new URL('common/protocol/', root);

function declaredMessageTypes() {
  const types = new Set();
  for (const name of readdirSync(protocolFolder)) {
    if (!name.endsWith('.ts')) continue;
    const source = readFileSync(new URL(name, protocolFolder), 'utf8');
    // A message interface's discriminant, on a line of its own: `  type: 'execute';`.
    for (const match of source.matchAll(/^ {2}type: '([a-z-]+)';$/gm)) types.add(match[1]);
  }
  return types;
}

function messagesSection() {
  const doc = readFileSync(new URL('docs/architecture.md', root), 'utf8');
  const start = doc.indexOf('\n## Threads and messages\n');
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end);
}

t.test('every message of common/protocol/ is in the architecture tables', async (t) => {
  const types = declaredMessageTypes();
  // Output items and the like share the `type` field name; they are not messages.
  for (const notAMessage of ['text', 'image']) types.delete(notAMessage);
  t.ok(types.size >= 20, `found ${types.size} message types`);
  const section = messagesSection();
  for (const type of types) {
    t.ok(new RegExp(`\`${type}( \\{|\`)`).test(section), `${type} is listed`);
  }
});
