// `npm install -g` through POST /process/exec, then a bare import() in a cell resolves the
// package (docs/process-and-files.md). Offline: the packages are packed from folders made here.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServer, texts } from '../helpers/api-server.mjs';
import { importModule } from '../../dist/worker/repl/dynamic-import.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'browser-repl-global-import-')));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const prefix = join(root, 'prefix');
const cache = join(root, 'npm-cache');
mkdirSync(prefix);

// tap runs each file in its own process: the variables last for this file only. The server, its
// workers and the npm it runs all read them, so npm installs where the cells look.
const saved = Object.fromEntries(['npm_config_prefix', 'npm_config_cache', 'npm_config_update_notifier'].map((name) => [name, process.env[name]]));
Object.assign(process.env, { npm_config_prefix: prefix, npm_config_cache: cache, npm_config_update_notifier: 'false' });
t.teardown(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Writes a package folder and packs it (offline) into a .tgz; returns the tarball's path. */
function pack(name, files) {
  const dir = join(root, 'src', name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), typeof text === 'string' ? text : JSON.stringify(text));
  }
  const out = join(root, 'packed');
  mkdirSync(out, { recursive: true });
  const tarball = execFileSync('npm', ['pack', '--offline', '--silent', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }).trim().split('\n').at(-1);
  return join(out, tarball);
}

// ESM with `exports`: the `import` condition must win over `require`.
const esm = pack('tiny-pkg', {
  'package.json': { name: 'tiny-pkg', version: '1.0.0', type: 'module', exports: { '.': { require: './index.cjs', import: './index.mjs' }, './extra': './extra.mjs' } },
  'index.mjs': 'export function hello() { return "hello from tiny-pkg (esm)"; }\n',
  'index.cjs': 'exports.hello = () => "the require condition";\n',
  'extra.mjs': 'export const extra = "subpath";\n',
});
// CommonJS with `main` and no `exports`.
const cjs = pack('tiny-cjs', {
  'package.json': { name: 'tiny-cjs', version: '2.0.0', main: 'lib/main.js' },
  'lib/main.js': 'module.exports = { hello: () => "hello from tiny-cjs" };\n',
});

const npmInstall = (api, tarballs, extraArgs = []) => api.call('POST', '/process/exec', {
  command: 'npm',
  args: ['install', '-g', ...tarballs, '--offline', '--no-audit', '--no-fund', ...extraArgs],
  timeout_sec: 300,
});

t.test('npm install -g through process/exec, then import() in a cell', async (t) => {
  const api = await apiServer(t, { primaryBrowser: { browser: false } });

  const before = await api.repl('await import("tiny-pkg")');
  t.equal(before.success, false);
  t.match(before.error, /Cannot find package 'tiny-pkg'/);
  t.ok(before.error.includes(`also looked in the global npm folders ${join(prefix, 'lib', 'node_modules')}`), before.error);

  const installed = await npmInstall(api, [esm, cjs]);
  t.equal(installed.status, 200, installed.text);
  t.equal(installed.json.exit_code, 0, Buffer.from(installed.json.stderr_b64 ?? '', 'base64').toString());

  const result = await api.repl([
    'const m = await import("tiny-pkg");',
    'repl.write(m.hello());',
    'repl.write((await import("tiny-pkg/extra")).extra);',
    'const c = await import("tiny-cjs");',
    'repl.write(c.default.hello());',
  ].join('\n'));
  t.equal(result.success, true, result.error);
  t.same(texts(result), ['hello from tiny-pkg (esm)', 'subpath', 'hello from tiny-cjs']);
  t.equal(result.repl_id, before.repl_id, 'the same REPL, which failed the import before the install');
});

t.test('without npm_config_prefix, the answer of npm root -g is used', async (t) => {
  // An .npmrc prefix is known to npm only, not to the environment: only `npm root -g` finds it.
  const other = join(root, 'other-prefix');
  const userconfig = join(root, 'npmrc');
  writeFileSync(userconfig, `prefix=${other}\n`);
  const api = await apiServer(t, { primaryBrowser: { browser: false } });
  const installed = await npmInstall(api, [esm], ['--prefix', other]);
  t.equal(installed.json.exit_code, 0);

  // The resolver of a cell, run here with an environment that names no prefix.
  process.env.npm_config_userconfig = userconfig;
  delete process.env.npm_config_prefix;
  t.teardown(() => {
    delete process.env.npm_config_userconfig;
    process.env.npm_config_prefix = prefix;
  });
  const module = await importModule('tiny-pkg', 'cell.mjs');
  t.equal(module.hello(), 'hello from tiny-pkg (esm)');
  // No `code` check: behind tap's loader hooks the resolution error arrives without one.
  await t.rejects(importModule('browser-repl-missing-package', 'cell.mjs'), {
    message: new RegExp(`also looked in the global npm folders .*${join(other, 'lib', 'node_modules').replaceAll('/', '\\/')}`),
  });
});
