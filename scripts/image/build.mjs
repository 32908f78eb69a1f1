#!/usr/bin/env node
// `npm run image`: builds the Containerfile as localhost/browser-repl:dev (the dev overlay's image).
//
//   npm run image [-- --builder=auto|docker|podman|buildah] [--build-arg NAME=VALUE]... [--save=FILE]
//
// auto (default, or CHROMIUM_REPL_IMAGE_BUILDER) takes Docker when its daemon answers, else Podman,
// else buildah. Docker and Podman build FROM the Containerfile's default base (the official Node
// image, from its registry). buildah builds FROM a local base made here with debootstrap plus Node
// from the npm registry (scripts/image/local-base.mjs), so no container registry is needed; it
// needs root, buildah and debootstrap, which this script never installs: docs/deploy.md says how.
// The image's id is recorded for this checkout, and `npm run image:test` tests that image.
// --save writes it to a docker-archive file too, for `docker load`, `podman load` or `kind load
// image-archive` (an image built with buildah lives in this tool's own store).
import { cpus } from 'node:os';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLocalBase } from './local-base.mjs';
import { IMAGE_NAME, buildah, buildahStoreOptions, cacheDir, run, storageDriver, withBuildLock, works, writeCheckoutRecord } from './storage.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const containerfile = join(root, 'Containerfile');
const BUILDERS = ['docker', 'podman', 'buildah'];
const HOW_TO_INSTALL = 'Install Docker or Podman, or, to build without any container registry, buildah and debootstrap '
  + '(Debian or Ubuntu: `sudo apt-get install buildah debootstrap`) and run `npm run image` as root. '
  + 'docs/deploy.md, "Build and test the image without a registry", explains each way.';

const USAGE = 'usage: npm run image [-- --builder=auto|docker|podman|buildah] [--build-arg NAME=VALUE]... [--save=FILE]';

/** `{ builder, buildArgs, save }` from argv (`save`: a file path, or undefined); throws on anything else. */
export function parseArguments(argv, env = process.env) {
  let builder = env.CHROMIUM_REPL_IMAGE_BUILDER === undefined || env.CHROMIUM_REPL_IMAGE_BUILDER === '' ? 'auto' : env.CHROMIUM_REPL_IMAGE_BUILDER;
  const buildArgs = [];
  let save;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const builderFlag = /^--builder=(.*)$/.exec(argument);
    if (builderFlag !== null) builder = builderFlag[1];
    else if (argument === '--build-arg' && argv[index + 1] !== undefined) buildArgs.push(argv[++index]);
    else if (argument.startsWith('--build-arg=')) buildArgs.push(argument.slice('--build-arg='.length));
    else if (argument.startsWith('--save=') && argument.length > '--save='.length) save = resolve(argument.slice('--save='.length));
    else throw new Error(`unknown argument ${JSON.stringify(argument)}; ${USAGE}`);
  }
  if (builder !== 'auto' && !BUILDERS.includes(builder)) throw new Error(`--builder (or CHROMIUM_REPL_IMAGE_BUILDER) must be auto, docker, podman or buildah, got ${JSON.stringify(builder)}`);
  for (const buildArg of buildArgs) if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(buildArg)) throw new Error(`--build-arg takes NAME=VALUE, got ${JSON.stringify(buildArg)}`);
  return { builder, buildArgs, save };
}

/** The builder to use: the one asked for, or the first of Docker, Podman and buildah that works here. */
async function chooseBuilder(asked) {
  if (asked !== 'auto') return asked;
  const skipped = [];
  if (await works('docker', ['info'])) return 'docker';
  skipped.push(await works('docker') ? 'docker: the client is installed, but no daemon answers `docker info`' : 'docker: not installed');
  if (await works('podman', ['info'])) return 'podman';
  skipped.push(await works('podman') ? 'podman: installed, but `podman info` fails' : 'podman: not installed');
  if (await works('buildah')) {
    console.log(`image: building with buildah (${skipped.join('; ')})`);
    return 'buildah';
  }
  skipped.push('buildah: not installed');
  throw new Error(`no container builder on this machine (${skipped.join('; ')}). ${HOW_TO_INSTALL}`);
}

/**
 * The CA file this machine's npm trusts (npm's `cafile`, else NODE_EXTRA_CA_CERTS), copied into
 * the cache with an npmrc naming it: mounted over the base's empty /usr/local/etc for the build's
 * RUN steps, npm's global config there makes `npm ci` trust a TLS-inspecting proxy as npm does here.
 * A volume is no layer: neither file reaches the image. Undefined when npm trusts Node's own list.
 */
async function buildTrust(env) {
  let file = (await run('npm', ['config', 'get', 'cafile']).catch(() => '')).trim();
  if (file === '' || file === 'null' || file === 'undefined') file = env.NODE_EXTRA_CA_CERTS ?? '';
  if (file === '' || !existsSync(file)) return undefined;
  const folder = join(cacheDir(env), 'build-trust');
  mkdirSync(folder, { recursive: true });
  copyFileSync(file, join(folder, 'ca.crt'));
  writeFileSync(join(folder, 'npmrc'), 'cafile=/usr/local/etc/ca.crt\n');
  return { file, folder };
}

async function buildWithBuildah(buildArgs, env, iidfile) {
  if (process.getuid?.() !== 0) throw new Error(`building with buildah makes its base with debootstrap, which needs root: run \`sudo npm run image\`. ${HOW_TO_INSTALL}`);
  if (!(await works('debootstrap', ['--version']))) throw new Error(`buildah is installed but debootstrap is not. ${HOW_TO_INSTALL}`);
  return withBuildLock(env, async () => {
    // Under the lock no other build runs: a build's working container still here is one a killed
    // build left, and it would keep its image from ever being removed.
    const containers = JSON.parse(await buildah(['containers', '--json'], { env })) ?? [];
    for (const container of containers.filter((entry) => /-working-container$|^chromium-repl-base-\d+$/.test(entry.containername))) {
      await buildah(['rm', container.id], { env });
    }
    const base = await ensureLocalBase({ containerfile, env });
    const trust = await buildTrust(env);
    if (trust !== undefined) console.log(`image: npm in the build trusts ${trust.file}, as npm does here (mounted for RUN steps, not in the image)`);
    // chroot: RUN steps need no user namespaces or container runtime. --layers: each step is a
    // cache entry, so an unchanged lockfile skips `npm ci` and an unchanged base skips apt; only
    // with overlay, where a layer holds what changed: vfs copies the whole tree per layer, and a
    // cache of every step would take gigabytes.
    const layers = storageDriver(env) === 'overlay';
    await buildah([
      'bud',
      '--isolation', 'chroot', `--layers=${layers}`, '--force-rm', '--format', 'docker',
      '--jobs', String(Math.min(2, cpus().length)),
      '--build-arg', `BASE_IMAGE=${base}`,
      ...buildArgs.flatMap((buildArg) => ['--build-arg', buildArg]),
      ...(trust === undefined ? [] : ['--volume', `${trust.folder}:/usr/local/etc:ro`]),
      '--iidfile', iidfile,
      '--file', containerfile,
      '--tag', IMAGE_NAME,
      root,
    ], { env, stdio: 'inherit' });
    return base;
  });
}

/** The image's size as its builder reports it (`1.16 GB`), or undefined when it does not say. */
async function imageSize(builder, id, env) {
  try {
    if (builder === 'buildah') {
      const images = JSON.parse(await buildah(['images', '--json'], { env })) ?? [];
      return images.find((image) => id.replace(/^sha256:/, '').startsWith(image.id))?.size;
    }
    const bytes = Number((await run(builder, ['image', 'inspect', '--format', '{{.Size}}', id], { env })).trim());
    return Number.isFinite(bytes) ? `${(bytes / 1e9).toFixed(2)} GB` : undefined;
  } catch {
    return undefined;
  }
}

async function main() {
  const env = process.env;
  const { builder: asked, buildArgs, save } = parseArguments(process.argv.slice(2), env);
  const builder = await chooseBuilder(asked);
  const started = Date.now();
  mkdirSync(cacheDir(env), { recursive: true });
  const iidfile = join(cacheDir(env), `iid-${process.pid}`);
  let base;
  try {
    if (builder === 'buildah') {
      base = await buildWithBuildah(buildArgs, env, iidfile);
    } else {
      // Podman's default OCI format has no HEALTHCHECK; the docker format keeps it.
      await run(builder, ['build', ...(builder === 'podman' ? ['--format', 'docker'] : []),
        ...buildArgs.flatMap((buildArg) => ['--build-arg', buildArg]),
        '--iidfile', iidfile, '--file', containerfile, '--tag', IMAGE_NAME, root], { env, stdio: 'inherit' });
    }
    const id = readFileSync(iidfile, 'utf8').trim();
    const seconds = Math.round((Date.now() - started) / 1000);
    writeCheckoutRecord(root, { builder, image: IMAGE_NAME, id, base, builtAt: new Date().toISOString(), seconds, ...(builder === 'buildah' ? { store: buildahStoreOptions(env) } : {}) }, env);
    const size = await imageSize(builder, id, env);
    console.log(`image: built ${IMAGE_NAME} (${id.replace(/^sha256:/, '').slice(0, 12)}${size === undefined ? '' : `, ${size}`}) with ${builder} in ${seconds} s; npm run image:test tests it`);
    if (save !== undefined) {
      if (builder === 'buildah') await buildah(['push', '--quiet', id, `docker-archive:${save}:${IMAGE_NAME}`], { env });
      else await run(builder, ['save', ...(builder === 'podman' ? ['--format', 'docker-archive'] : []), '--output', save, IMAGE_NAME], { env });
      console.log(`image: saved ${IMAGE_NAME} to ${save} (docker load -i, podman load -i, kind load image-archive)`);
    }
  } finally {
    rmSync(iidfile, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`image: ${error.message}`);
    process.exit(1);
  });
}
