// House style point 20: every import is declared, every declared dependency is used (or listed here with why).
import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Declared for cells to import with `await import(...)`; our own code never imports them.
const FOR_CELLS = new Set(['playwright-core', 'patchright']);

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const packageOf = (specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const imported = new Set();
// Generated types import nothing, and their doc comments quote openapi.json (`import("<package>")`).
const GENERATED = new Set([join(root, 'lib/client/openapi-types.ts')]);
for (const file of [...sources(join(root, 'common')), ...sources(join(root, 'lib')), ...sources(join(root, 'worker'))].filter((path) => !GENERATED.has(path))) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from\s+|import\(\s*)['"]([^'".][^'"]*)['"]/g)) {
    const specifier = match[1];
    if (specifier.startsWith('node:') || builtinModules.includes(specifier) || packageOf(specifier) === pkg.name) continue;
    imported.add(packageOf(specifier));
  }
}

t.test('every imported package is a declared runtime dependency', async (t) => {
  const declared = new Set(Object.keys(pkg.dependencies));
  t.same([...imported].filter((name) => !declared.has(name)), []);
});

t.test('every runtime dependency is imported, or is there for cells', async (t) => {
  t.same(Object.keys(pkg.dependencies).filter((name) => !imported.has(name) && !FOR_CELLS.has(name)), []);
});

t.test('docs/architecture.md gives every dependency a reason', async (t) => {
  const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((n) => !n.startsWith('@types/'))) {
    t.match(architecture, `\`${name}\``, name);
  }
});
