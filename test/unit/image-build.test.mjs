// The pure parts of `npm run image` (scripts/image/) and of the container `npm run image:test`
// starts (test/helpers/kubernetes.mjs, test/helpers/image-container.mjs): what the local base is
// made of, which mirrors it comes from, the command line, and a pod's environment. The builds and
// the container themselves run in `npm run image` and `npm run image:test` (CI).
import t from 'tap';
import { parseArguments } from '../../scripts/image/build.mjs';
import { baseFromContainerfile, debianMirrors } from '../../scripts/image/local-base.mjs';
import { cacheDir, storageDriver } from '../../scripts/image/storage.mjs';
import { containerEnv } from '../helpers/image-container.mjs';
import { expandEnvValue } from '../helpers/kubernetes.mjs';

t.test('baseFromContainerfile reads the Node major and Debian suite of ARG BASE_IMAGE', async (t) => {
  t.same(baseFromContainerfile('# x\nARG BASE_IMAGE=docker.io/library/node:24-bookworm-slim\nFROM ${BASE_IMAGE}\n'),
    { image: 'docker.io/library/node:24-bookworm-slim', nodeMajor: 24, suite: 'bookworm' });
  t.same(baseFromContainerfile('ARG BASE_IMAGE=node:22.11.0-trixie-slim\n'), { image: 'node:22.11.0-trixie-slim', nodeMajor: 22, suite: 'trixie' });
  t.throws(() => baseFromContainerfile('FROM node:24-bookworm-slim\n'), /no `ARG BASE_IMAGE=<image>` before its first FROM/);
  t.throws(() => baseFromContainerfile('ARG BASE_IMAGE=node:24-alpine\n'), /ARG BASE_IMAGE=node:24-alpine: a local base can stand in only for a node:<major>-<debian suite>-slim image/);
  t.throws(() => baseFromContainerfile('ARG BASE_IMAGE=node:24-bookworm\n'), /only for a node:<major>-<debian suite>-slim/, 'the full image is not what the local base makes');
});

t.test('debianMirrors finds the suite\'s mirrors in apt sources, or falls back to deb.debian.org', async (t) => {
  const deb822 = [
    'Types: deb',
    '# http://snapshot.debian.org/archive/debian/20250520T000000Z',
    'URIs: http://mirror.example/debian/',
    'Suites: bookworm bookworm-updates',
    'Components: main',
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
    '',
    'Types: deb',
    'URIs: http://mirror.example/debian-security',
    'Suites: bookworm-security',
    'Components: main',
  ].join('\n');
  t.same(debianMirrors('bookworm', [deb822]), { main: 'http://mirror.example/debian', security: 'http://mirror.example/debian-security' }, 'deb822 .sources, trailing slash dropped');
  t.same(debianMirrors('bookworm', ['deb-src http://src.example/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main contrib\n']),
    { main: 'http://one.example/debian', security: 'http://deb.debian.org/debian-security' }, 'one-line entries with options; deb-src is not a mirror of packages');
  t.same(debianMirrors('bookworm', ['deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main\nTypes: deb\nURIs: https://deb.nodesource.com/node_20.x\nSuites: nodistro\nComponents: main\n']),
    { main: 'http://deb.debian.org/debian', security: 'http://deb.debian.org/debian-security' }, 'third-party repositories are not Debian mirrors');
  t.same(debianMirrors('trixie', [deb822]), { main: 'http://deb.debian.org/debian', security: 'http://deb.debian.org/debian-security' }, 'another suite than the machine\'s');
  t.same(debianMirrors('bookworm', ['deb http://x.example/debian bookworm contrib\n']).main, 'http://deb.debian.org/debian', 'main must be among the components');
});

t.test('parseArguments: the builder and build arguments of `npm run image`', async (t) => {
  t.same(parseArguments([], {}), { builder: 'auto', buildArgs: [], save: undefined });
  t.same(parseArguments(['--builder=buildah'], {}), { builder: 'buildah', buildArgs: [], save: undefined });
  t.equal(parseArguments(['--save=/tmp/browser-repl.tar'], {}).save, '/tmp/browser-repl.tar');
  t.match(parseArguments(['--save=image.tar'], {}).save, /^\/.+\/image\.tar$/, 'a relative path, made absolute');
  t.same(parseArguments([], { CHROMIUM_REPL_IMAGE_BUILDER: 'podman' }).builder, 'podman', 'CHROMIUM_REPL_IMAGE_BUILDER');
  t.same(parseArguments(['--builder=docker'], { CHROMIUM_REPL_IMAGE_BUILDER: 'podman' }).builder, 'docker', 'the flag wins');
  t.same(parseArguments(['--build-arg', 'A=1', '--build-arg=B=two words'], {}).buildArgs, ['A=1', 'B=two words']);
  t.throws(() => parseArguments(['--builder=kaniko'], {}), /--builder \(or CHROMIUM_REPL_IMAGE_BUILDER\) must be auto, docker, podman or buildah, got "kaniko"/);
  t.throws(() => parseArguments(['--build-arg', '=x'], {}), /--build-arg takes NAME=VALUE, got "=x"/);
  t.throws(() => parseArguments(['--tag', 'x'], {}), /unknown argument "--tag"; usage: npm run image/);
  t.throws(() => parseArguments(['--save='], {}), /unknown argument "--save="/, 'an empty file name');
});

t.test('cacheDir and storageDriver', async (t) => {
  t.equal(cacheDir({ XDG_CACHE_HOME: '/c' }), '/c/chromium-repl-image');
  t.match(cacheDir({}), /\/\.cache\/chromium-repl-image$/);
  t.equal(storageDriver({ CHROMIUM_REPL_IMAGE_STORAGE_DRIVER: 'vfs' }), 'vfs');
  t.throws(() => storageDriver({ CHROMIUM_REPL_IMAGE_STORAGE_DRIVER: 'btrfs' }), /must be overlay or vfs, got "btrfs"/);
});

t.test('expandEnvValue expands $(NAME) as Kubernetes does', async (t) => {
  const defined = new Map([['POD_NAMESPACE', 'browser-repl-dev']]);
  t.equal(expandEnvValue('http://{node}.browser-repl.$(POD_NAMESPACE).svc:10001', defined), 'http://{node}.browser-repl.browser-repl-dev.svc:10001');
  t.equal(expandEnvValue('$(UNDEFINED) stays', defined), '$(UNDEFINED) stays');
  t.equal(expandEnvValue('$$(POD_NAMESPACE) is escaped, $$ alone too', defined), '$(POD_NAMESPACE) is escaped, $ alone too');
});

t.test('containerEnv: the image\'s ENV, what the kubelet adds, the pod\'s env, then the overrides', async (t) => {
  const env = containerEnv(
    { env: ['PATH=/usr/local/bin:/usr/bin', 'PORT=10001', 'HOST=0.0.0.0', 'A=b=c'] },
    { podName: 'browser-repl-0', env: [['PORT', '10001'], ['BROWSER_REPL_DRAIN_SEC', '15']] },
    { PORT: '0' },
  );
  t.same(env, {
    PATH: '/usr/local/bin:/usr/bin',
    PORT: '0',
    HOST: '0.0.0.0',
    A: 'b=c',
    HOSTNAME: 'browser-repl-0',
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    BROWSER_REPL_DRAIN_SEC: '15',
  });
});
