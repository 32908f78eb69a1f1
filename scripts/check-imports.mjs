#!/usr/bin/env node
// Enforces the one-way imports of docs/architecture.md: worker/ never imports Express or the
// main-thread modules; lib/ never imports worker internals. Only the listed shared modules cross.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SHARED_FROM_LIB = ['lib/protocol.ts', 'lib/errors.ts', 'lib/limits.ts', 'lib/help/help-registry.ts', 'lib/help/format-help.ts', 'lib/playwright/executor-protocol.ts'];
const FORBIDDEN_IN_WORKER = ['express', 'piscina', 'ajv'];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const problems = [];
const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
for (const area of ['lib', 'worker']) {
  for (const file of files(join(root, area))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      const from = relative(root, file);
      if (specifier.startsWith('.')) {
        const target = relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts');
        if (area === 'lib' && target.startsWith('worker/')) problems.push(`${from} imports worker internals (${specifier})`);
        if (area === 'worker' && target.startsWith('lib/') && !SHARED_FROM_LIB.includes(target)) {
          problems.push(`${from} imports main-thread module ${target}; only ${SHARED_FROM_LIB.join(', ')} are shared`);
        }
      } else if (area === 'worker' && FORBIDDEN_IN_WORKER.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
        problems.push(`${from} imports ${specifier}, which belongs to the main thread`);
      }
    }
  }
}
if (problems.length > 0) {
  process.stderr.write(`import boundaries violated:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write('import boundaries ok\n');
