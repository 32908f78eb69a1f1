// Issue 27: the packed package installs as written. It ships dist/ and declares no script that
// runs on install (npm 11 warns about a `prepare` of a tarball or git dependency: "install-scripts
// not yet covered by allowScripts"), and everything its exports and bin name is in the tarball.
// `npm pack --dry-run` lists what `npm pack` would put in it, without the network or a build.
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

t.test('no lifecycle script runs when the tarball is installed; packing builds dist/', async (t) => {
  for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) t.equal(pkg.scripts[name], undefined, `no ${name} script`);
  t.equal(pkg.scripts.prepack, 'npm run build', 'npm pack (and publish) compile dist/ first');
});

t.test('the tarball holds dist/ and everything exports and bin point at, and no TypeScript source', async (t) => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout);
  const files = new Set(packed.files.map((file) => file.path));
  const targets = [
    ...Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry))),
    ...Object.values(pkg.bin), pkg.main, pkg.types,
  ].map((path) => path.replace(/^\.\//, ''));
  for (const target of targets) t.ok(files.has(target), `${target} is in the tarball`);
  for (const needed of ['dist/worker/repl/main.js', 'dist/worker/executor/main.js', 'openapi.json', 'README.md', 'package.json']) t.ok(files.has(needed), needed);
  t.same([...files].filter((path) => /^(lib|worker|common|test)\//.test(path)), [], 'sources and tests stay out');
});
