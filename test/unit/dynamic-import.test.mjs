import t from 'tap';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { globalModuleRoots, importModule } from '../../dist/worker/repl/dynamic-import.js';

/** A fake global npm root with a CommonJS package and an ESM-only scoped package. */
function createGlobalRoot() {
  const root = mkdtempSync(join(tmpdir(), 'browser-repl-global-'));
  const cjs = join(root, 'browser-repl-fake-cjs');
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'browser-repl-fake-cjs', main: 'main.js' }));
  writeFileSync(join(cjs, 'main.js'), 'module.exports = { kind: "cjs" };');
  writeFileSync(join(cjs, 'other.js'), 'module.exports = { kind: "cjs-other" };');
  const esm = join(root, '@fake', 'esm-only');
  mkdirSync(esm, { recursive: true });
  writeFileSync(join(esm, 'package.json'), JSON.stringify({
    name: '@fake/esm-only',
    type: 'module',
    exports: { '.': { import: './index.js' }, './extra': { node: { import: './extra.js' } }, './features/*': './features/*.js' },
  }));
  mkdirSync(join(esm, 'features'));
  writeFileSync(join(esm, 'features', 'alpha.js'), 'export const kind = "feature-alpha";');
  writeFileSync(join(esm, 'index.js'), 'export const kind = "esm"; export default "esm-default";');
  writeFileSync(join(esm, 'extra.js'), 'export const kind = "extra";');
  return root;
}

t.test('globalModuleRoots', async (t) => {
  t.test('lists NODE_PATH entries, the npm prefix and the node install prefix, deduplicated', async (t) => {
    const roots = globalModuleRoots(
      { NODE_PATH: '/a/node_modules::/b/node_modules:/a/node_modules', npm_config_prefix: '/prefix' },
      '/opt/node/bin/node',
    );
    t.same(roots, ['/a/node_modules', '/b/node_modules', '/prefix/lib/node_modules', '/opt/node/lib/node_modules']);
  });

  t.test('always includes the node install prefix', async (t) => {
    t.same(globalModuleRoots({}, '/usr/bin/node'), ['/usr/lib/node_modules']);
  });
});

t.test('importModule', async (t) => {
  t.test('loads built-ins with and without the node: prefix', async (t) => {
    const prefixed = await importModule('node:path', 'browser-repl-cell-1.mjs');
    const bare = await importModule('path', 'browser-repl-cell-1.mjs');
    t.equal(prefixed, bare);
    t.equal(typeof prefixed.default.join, 'function');
  });

  t.test('resolves bare specifiers from the package install location', async (t) => {
    const meriyah = await importModule('meriyah', 'browser-repl-cell-1.mjs');
    t.equal(typeof meriyah.parseModule, 'function');
    const playwright = await importModule('playwright-core', 'browser-repl-cell-1.mjs');
    t.equal(typeof playwright.chromium, 'object');
  });

  t.test('falls back to the global npm roots, CommonJS and ESM-only packages', async (t) => {
    const root = createGlobalRoot();
    const saved = process.env.NODE_PATH;
    process.env.NODE_PATH = root;
    t.teardown(() => {
      if (saved === undefined) delete process.env.NODE_PATH;
      else process.env.NODE_PATH = saved;
      rmSync(root, { recursive: true, force: true });
    });
    t.same((await importModule('browser-repl-fake-cjs', 'c.mjs')).default, { kind: 'cjs' });
    const esm = await importModule('@fake/esm-only', 'c.mjs');
    t.same([esm.kind, esm.default], ['esm', 'esm-default']);
    t.equal((await importModule('@fake/esm-only/extra', 'c.mjs')).kind, 'extra');
    t.equal((await importModule('@fake/esm-only/features/alpha', 'c.mjs')).kind, 'feature-alpha', 'subpath patterns');
    t.same((await importModule('browser-repl-fake-cjs/other', 'c.mjs')).default, { kind: 'cjs-other' }, 'files of packages without exports');
    await t.rejects(importModule('@fake/esm-only/hidden', 'c.mjs'), { message: /Cannot find package '@fake\/esm-only'/ }, 'unexported subpaths stay unresolved');
  });

  t.test('resolves relative and absolute paths against process.cwd(), and file: URLs', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'browser-repl-cwd-'));
    writeFileSync(join(dir, 'local.mjs'), 'export const where = "local";');
    const cwd = process.cwd();
    process.chdir(dir);
    t.teardown(() => {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    });
    t.equal((await importModule('./local.mjs', 'c.mjs')).where, 'local');
    t.equal((await importModule(join(dir, 'local.mjs'), 'c.mjs')).where, 'local');
    t.equal((await importModule(pathToFileURL(join(dir, 'local.mjs')).href, 'c.mjs')).where, 'local');
  });

  t.test('passes import attributes through', async (t) => {
    const manifest = await importModule('./package.json', 'c.mjs', { type: 'json' });
    t.equal(manifest.default.name, 'chromium-repl');
  });

  t.test('rejects with Node\'s resolution error when nothing resolves', async (t) => {
    await t.rejects(importModule('browser-repl-missing-package', 'c.mjs'), {
      message: /^Cannot find package 'browser-repl-missing-package' imported from /,
    });
    await t.rejects(importModule('./browser-repl-missing-file.mjs', 'c.mjs'), { message: /Cannot find module/ });
  });
});
