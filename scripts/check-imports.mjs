#!/usr/bin/env node
// Enforces the import rule of docs/architecture.md, folder by folder (Playwright's DEPS.list is
// the model): each folder lists what it may import, and no import circle may exist, type-only
// edges included. `common/` is thread-agnostic: lib/ (main thread) and worker/ (worker threads)
// both import it and never each other. Inside worker/ the folders are layered too: the two thread
// entries (repl/, executor/) on top, the agent tools and the helpers below them, the CDP client,
// output, analyzer and other leaves at the bottom (docs/architecture.md, "Folders and the import
// rule"). test/unit/check-imports.test.mjs runs the rule on made-up trees.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Folder → folders (and single files) it may import. The most specific folder wins. A folder may
 * always import itself.
 */
export const DEPS = {
  'common': [],
  'common/cdp': ['common/errors.ts', 'common/files.ts', 'common/redact.ts', 'common/resource.ts'],
  'common/help': [],
  'common/protocol': ['common/errors.ts', 'common/limits.ts', 'common/trace'],
  'lib': ['common', 'lib'],
  'lib/chromium': ['common', 'lib/system'],
  'lib/threads': ['common'],
  'lib/repl': ['common', 'lib/chromium', 'lib/threads', 'lib/system', 'lib/client/openapi-types.ts'],
  'lib/executor': ['common', 'lib/chromium', 'lib/threads', 'lib/system', 'lib/client/openapi-types.ts'],
  'lib/webmcp': ['common', 'lib/chromium'],
  'lib/browsers': ['common', 'lib/chromium', 'lib/threads', 'lib/repl', 'lib/executor', 'lib/webmcp', 'lib/telemetry', 'lib/proxies', 'lib/pools', 'lib/profiles'],
  'lib/profiles': ['common'],
  // The warm pools' waiting line and count, generic (no browser code): lib/browsers fills them with browsers.
  'lib/pools': ['common'],
  'lib/proxies': ['common'],
  'lib/telemetry': ['common'],
  'lib/system': ['common', 'lib/client/openapi-types.ts'],
  'lib/tools': ['common', 'lib/system', 'lib/chromium', 'lib/threads', 'lib/repl', 'lib/executor', 'lib/browsers', 'lib/webmcp'],
  'lib/mcp': ['common', 'lib/chromium', 'lib/threads', 'lib/repl', 'lib/executor', 'lib/browsers', 'lib/tools', 'lib/webmcp', 'lib/trace'],
  // The trace's export and replay (docs/trace.md): the pure exporter of common/trace, Chromium's lookup.
  'lib/trace': ['common', 'lib/chromium'],
  'lib/live-view': ['common', 'lib/chromium', 'lib/browsers'],
  'lib/recordings': ['common', 'lib/chromium', 'lib/browsers', 'lib/live-view', 'lib/system'],
  'lib/extensions': ['common', 'lib/system'],
  'lib/http': ['common', 'lib/trace', 'lib/extensions', 'lib/chromium', 'lib/threads', 'lib/repl', 'lib/executor', 'lib/browsers', 'lib/system', 'lib/tools', 'lib/mcp', 'lib/webmcp', 'lib/live-view', 'lib/recordings', 'lib/telemetry', 'lib/proxies', 'lib/profiles', 'lib/client/openapi-types.ts'],
  // The HTTP answer types of lib/repl, lib/executor, lib/system and lib/http are the ones generated
  // from openapi.json into lib/client/openapi-types.ts (types only).
  // The typed client is standalone: it may be bundled for any fetch runtime, so it imports nothing of ours.
  'lib/client': [],
  'lib/cli': ['common', 'lib'],
  'worker': ['common'],
  // The thread entries. The executor's interrupt checks are the REPL's own (installChecks), the one
  // edge between the two entries.
  'worker/repl': ['common', 'worker/analyzer', 'worker/cdp', 'worker/helpers', 'worker/output', 'worker/threads', 'worker/tools', 'worker/webmcp'],
  'worker/executor': ['common', 'worker/analyzer', 'worker/threads', 'worker/webmcp', 'worker/repl/cell-interrupts.ts'],
  // What the REPL runs for agent tools and for cells.
  'worker/tools': ['common', 'worker/cdp', 'worker/helpers'],
  'worker/helpers': ['common', 'worker/analyzer', 'worker/cdp', 'worker/input', 'worker/page'],
  // Shared by both entries.
  'worker/threads': ['common', 'worker/output'],
  'worker/webmcp': ['common', 'worker/output'],
  // The leaves.
  'worker/analyzer': ['common'],
  'worker/cdp': ['common'],
  'worker/input': ['common'],
  'worker/output': ['common'],
  'worker/page': ['common'],
};
/** Packages that belong to the main thread only. */
const MAIN_THREAD_PACKAGES = ['express', 'piscina', 'ajv', '@paralleldrive/cuid2', '@modelcontextprotocol/sdk'];
/** Packages a folder may not import at all (the one CDP WebSocket lives in common/cdp/transport.ts). */
const FORBIDDEN = {
  worker: MAIN_THREAD_PACKAGES,
  common: [...MAIN_THREAD_PACKAGES, 'playwright-core', 'patchright'],
};

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function ruleFor(deps, file) {
  let folder = dirname(file);
  while (!(folder in deps)) {
    if (folder === '.' || folder === '') return { folder: '.', allowed: [] };
    folder = dirname(folder);
  }
  return { folder, allowed: deps[folder] };
}

function allowed(deps, from, target) {
  const { folder, allowed: list } = ruleFor(deps, from);
  if (target.startsWith(`${folder}/`)) return true;
  return list.some((entry) => target === entry || target.startsWith(`${entry}/`));
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The problems of one tree: `sources` maps each file's path from the root (`worker/repl/main.ts`)
 * to its text. Pure, so that tests can feed it made-up trees.
 */
export function importProblems(sources, deps = DEPS) {
  const problems = [];
  const graph = new Map();
  for (const [from, text] of sources) {
    const area = from.split('/')[0];
    const edges = [];
    graph.set(from, edges);
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (specifier.startsWith('.')) {
        const target = join(dirname(from), specifier).replace(/\.js$/, '.ts');
        edges.push(target);
        if (!allowed(deps, from, target)) {
          const rule = ruleFor(deps, from);
          problems.push(`${from} may not import ${target} (rule of ${rule.folder}: ${rule.allowed.join(', ') || 'itself only'})`);
        }
      } else {
        const forbidden = FORBIDDEN[area] ?? [];
        if (forbidden.some((name) => specifier === name || specifier.startsWith(`${name}/`))) problems.push(`${from} imports ${specifier}, which ${area}/ may not use`);
        if (specifier === 'ws' && from !== 'common/cdp/transport.ts') problems.push(`${from} imports ws: the one CDP WebSocket lives in common/cdp/transport.ts`);
      }
    }
  }

  // Import circles (type-only edges count: they couple the files just the same).
  const state = new Map();
  const stack = [];
  function visit(node) {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') problems.push(`import circle: ${[...stack.slice(stack.indexOf(next)), next].join(' → ')}`);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sources = new Map();
  for (const area of ['common', 'lib', 'worker']) {
    for (const file of files(join(root, area))) sources.set(relative(root, file), readFileSync(file, 'utf8'));
  }
  const problems = importProblems(sources);
  if (problems.length > 0) {
    process.stderr.write(`import rule violated:\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`import rule ok (${sources.size} files, no circles)\n`);
}
