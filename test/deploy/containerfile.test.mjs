// The Containerfile, checked by parsing it: stages and bases, what the runtime stage installs and
// copies, the user, the init, the command, the environment, the port, and the healthcheck, which
// is also run against stand-in servers. `npm run image` builds it, and `npm run image:test`
// (test/image) runs what it built.
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { baseFromContainerfile } from '../../scripts/image/local-base.mjs';
import { CONTAINERFILE, envOf, execForm, globalArgs, healthcheckOf, imageRuntime, parseStages, resolveFrom, resolveUser } from '../helpers/containerfile.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const stages = parseStages(readFileSync(CONTAINERFILE, 'utf8'));
const args = globalArgs(readFileSync(CONTAINERFILE, 'utf8'));
const final = stages.at(-1);
const runtime = imageRuntime();

const keyword = (stage, name) => stage.instructions.filter((i) => i.getKeyword() === name);
const runText = (instruction) => instruction.getArgumentsContent() ?? '';
/** The shell commands of a RUN, split at `&&`, `||` and `;`, each as words. */
const commandsOf = (instruction) => runText(instruction).split(/&&|\|\||;/).map((command) => command.trim().split(/\s+/).filter(Boolean)).filter((words) => words.length > 0);

/** `apt-get install` commands of a stage: `{ run, words, packages }`. */
function aptInstalls(stage) {
  return keyword(stage, 'RUN').flatMap((run) => commandsOf(run)
    .filter((words) => (words[0] === 'apt-get' || words[0] === 'apt') && words.includes('install'))
    .map((words) => ({ run, words, packages: words.slice(words.indexOf('install') + 1).filter((word) => !word.startsWith('-')) })));
}

/** The stage a stage starts from, following `FROM <earlier stage>` back to one that names an image. */
function rootStage(stage) {
  const image = stage.from.getImage();
  const earlier = stages.slice(0, stages.indexOf(stage)).find((s) => s.name !== undefined && s.name === image);
  return earlier === undefined ? stage : rootStage(earlier);
}

/** True when a stage's RUNs produce node_modules without dev dependencies (and never reinstall them after). */
function installsProductionOnly(stage) {
  let productionOnly = false;
  for (const run of keyword(stage, 'RUN')) {
    for (const words of commandsOf(run)) {
      if (words[0] !== 'npm') continue;
      const verb = words[1];
      if (verb === 'ci' || verb === 'install' || verb === 'i') productionOnly = words.includes('--omit=dev') || words.includes('--production');
      else if (verb === 'prune' && (words.includes('--omit=dev') || words.includes('--production'))) productionOnly = true;
    }
  }
  return productionOnly;
}

t.test('stages and base images', async (t) => {
  t.ok(stages.length >= 2, `a multi-stage build (${stages.length} stages)`);
  t.ok('BASE_IMAGE' in args, 'ARG BASE_IMAGE before the first FROM: the base is a build argument');
  for (const stage of stages) {
    const label = `FROM ${stage.from.getImage()}${stage.name === undefined ? '' : ` AS ${stage.name}`}`;
    const root = rootStage(stage);
    // One base for every stage, so --build-arg BASE_IMAGE=… swaps all of them at once (npm run image
    // without a registry) and the runtime stage copies files built for exactly its Node and glibc.
    t.match(root.from.getImage(), /^\$\{?BASE_IMAGE\}?$/, `${label}: starts from \${BASE_IMAGE}`);
    const from = resolveFrom(root, args);
    t.ok(from.getRegistry() === null || from.getRegistry() === 'docker.io', `${label}: by default Docker Hub's official image`);
    t.ok(['node', 'library/node'].includes(from.getImageName()), `${label}: the node image`);
    t.match(from.getImageTag() ?? '', /^24(\.\d+){0,2}-(bookworm|trixie)-slim$/, `${label}: Node 24 on Debian slim`);
  }
  t.test('a local base replaces every stage\'s base', async (t) => {
    const local = 'localhost/chromium-repl-base:bookworm-node24.0.0-0123456789ab';
    t.same(stages.map((stage) => resolveFrom(rootStage(stage), args, { BASE_IMAGE: local }).getImage()), stages.map(() => local));
  });
  t.test('scripts/image/local-base.mjs reads the Node major and the Debian suite of the default', async (t) => {
    const { nodeMajor, suite } = baseFromContainerfile(readFileSync(CONTAINERFILE, 'utf8'));
    const tag = resolveFrom(rootStage(final), args).getImageTag();
    t.equal(`${nodeMajor}-${suite}-slim`, tag.replace(/^(\d+)(\.\d+)*/, '$1'));
  });
  t.test('every COPY --from names an earlier stage', async (t) => {
    for (const [index, stage] of stages.entries()) {
      for (const copy of keyword(stage, 'COPY').filter((c) => c.getFromFlag() !== null)) {
        const source = copy.getFromFlag().getValue();
        t.ok(stages.slice(0, index).some((s) => s.name === source), `COPY --from=${source}`);
      }
    }
  });
});

t.test('the runtime stage installs Chromium, fonts, tini, certificates and ffmpeg from Debian, without recommends or package lists', async (t) => {
  const installs = aptInstalls(final);
  const packages = installs.flatMap((install) => install.packages);
  for (const name of ['chromium', 'fonts-liberation', 'fonts-noto-cjk', 'fonts-noto-color-emoji', 'tini', 'ca-certificates', 'ffmpeg']) {
    t.ok(packages.includes(name), `installs ${name}`);
  }
  t.ok(installs.length > 0);
  for (const install of installs) {
    t.ok(install.words.includes('--no-install-recommends'), `${install.words.slice(0, 3).join(' ')} … has --no-install-recommends`);
    t.ok(install.words.includes('-y') || install.words.includes('--yes') || install.words.includes('-qy'), 'is non-interactive');
    t.match(runText(install.run), /rm -rf \/var\/lib\/apt\/lists/, 'removes the package lists in the same RUN (same layer)');
    t.match(runText(install.run), /apt-get update/, 'updates the lists in the same RUN (a cached old layer would install stale versions)');
  }
});

t.test('the runtime stage runs as a non-root user with a fixed uid', async (t) => {
  t.ok(runtime.user !== undefined, `USER ${runtime.user}`);
  t.type(runtime.uid, 'number', 'the uid is numeric or created with a fixed --uid in this stage');
  t.not(runtime.uid, 0, 'not root');
  t.notMatch(runtime.user, /^(root|0)(:|$)/);
  const lastUser = keyword(final, 'USER').at(-1);
  const afterUser = final.instructions.slice(final.instructions.indexOf(lastUser) + 1);
  t.notOk(afterUser.some((i) => i.getKeyword() === 'RUN'), 'nothing runs after USER that might need root (or silently use it)');
});

t.test('tini from Debian is PID 1 and CMD starts the server', async (t) => {
  t.ok(['tini', '/usr/bin/tini'].includes(runtime.entrypoint[0]), `ENTRYPOINT ${JSON.stringify(runtime.entrypoint)}`);
  t.equal(runtime.entrypoint.at(-1), '--', 'tini passes every CMD argument to the server');
  t.notOk(runtime.entrypoint.includes('-g'), 'no -g: SIGTERM reaches the server only, which drains before ending Chromium');
  t.ok(aptInstalls(final).some((install) => install.packages.includes('tini')), 'installed with apt in this stage');
  t.same(runtime.cmd, ['node', 'dist/lib/cli/main.js', 'serve']);
  t.same(runtime.argv, [...runtime.entrypoint, 'node', 'dist/lib/cli/main.js', 'serve']);
  t.ok(existsSync(join(root, 'lib/cli/main.ts')), 'dist/lib/cli/main.js is compiled from lib/cli/main.ts');
});

t.test('environment and port', async (t) => {
  const env = runtime.env;
  t.equal(env.HOST, '0.0.0.0', 'listens beyond loopback (so the server requires a token)');
  t.match(env.PORT, /^\d+$/);
  t.equal(env.BROWSER_REPL_CHROME, '/usr/bin/chromium', "Debian's chromium");
  t.equal(env.NODE_ENV, 'production');
  for (const name of ['BROWSER_REPL_TOKEN', 'BROWSER_REPL_HEAP_MB', 'BROWSER_REPL_MAX_BROWSERS']) {
    t.notOk(name in env, `${name} is not baked in (the token belongs to run; the limits derive from the cgroup)`);
  }
  t.same(runtime.expose.map((port) => port.replace(/\/tcp$/, '')), [env.PORT], 'EXPOSE is PORT');
  t.test('build stages set nothing the runtime relies on', async (t) => {
    t.same(stages.slice(0, -1).map(envOf).filter((e) => 'PORT' in e || 'HOST' in e), []);
  });
});

t.test('no dev dependencies reach the runtime stage', async (t) => {
  const copies = keyword(final, 'COPY').concat(keyword(final, 'ADD'));
  for (const copy of copies) {
    const args = copy.getArguments().map((a) => a.getValue());
    const sources = args.slice(0, -1);
    const from = copy.getFromFlag()?.getValue();
    for (const source of sources) {
      t.notOk(['.', './', '*'].includes(source), `${copy.getKeyword()} ${source}: never the whole context`);
      if (/(^|\/)node_modules\/?$/.test(source)) {
        t.ok(from !== undefined, `${source} comes from a stage, not from the context`);
        const stage = stages.find((s) => s.name === from);
        t.ok(stage !== undefined && installsProductionOnly(stage), `node_modules of stage ${from} is installed with --omit=dev`);
      }
    }
  }
  t.ok(copies.some((c) => c.getArguments().some((a) => /node_modules/.test(a.getValue()))), 'node_modules is copied');
  t.ok(copies.some((c) => c.getArguments().some((a) => /(^|\/)dist\/?$/.test(a.getValue())) && c.getFromFlag() !== null), 'dist is copied from a build stage');
  t.notOk(keyword(final, 'RUN').some((run) => commandsOf(run).some((words) => words[0] === 'npm' || words[0] === 'npx')), 'the runtime stage runs no npm');
});

t.test('the build context', async (t) => {
  const containerignore = readFileSync(join(root, '.containerignore'), 'utf8');
  t.equal(readFileSync(join(root, '.dockerignore'), 'utf8'), containerignore, '.dockerignore is a copy of .containerignore');
  const patterns = containerignore.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  for (const name of ['node_modules', 'dist', '.git', '.tap', 'coverage']) t.ok(patterns.includes(name), `ignores ${name}`);
  // Every file the stages copy from the context exists and is not ignored.
  for (const stage of stages) {
    for (const copy of keyword(stage, 'COPY').filter((c) => c.getFromFlag() === null)) {
      for (const source of copy.getArguments().map((a) => a.getValue()).slice(0, -1)) {
        t.ok(existsSync(join(root, source)), `${source} exists`);
        t.notOk(patterns.includes(source.split('/')[0]), `${source} is not in .containerignore`);
      }
    }
  }
});

t.test('HEALTHCHECK requests /healthz without the token, and its command works', async (t) => {
  const healthcheck = healthcheckOf(final);
  t.ok(healthcheck?.argv, 'HEALTHCHECK CMD …');
  const [command, ...args] = healthcheck.argv;
  t.equal(command, 'node', 'uses node (the slim base has no curl or wget)');
  t.match(args.join(' '), /\/healthz/);
  t.notMatch(args.join(' '), /BROWSER_REPL_TOKEN|authorization/i, '/healthz needs no token');
  for (const flag of ['interval', 'timeout', 'start-period', 'retries']) t.ok(healthcheck.flags[flag], `--${flag}`);

  /** Runs the healthcheck against a stand-in server answering `status`; resolves `{ code, requests }`. */
  async function check(status) {
    const requests = [];
    const server = createServer((request, response) => {
      requests.push({ url: request.url, authorization: request.headers.authorization });
      response.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"status":"ok"}' : '{"status":"draining"}');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      return { code: await exitCode(String(server.address().port)), requests };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }
  const exitCode = (port) => promisify(execFile)(process.execPath, args, { env: { ...runtime.env, PORT: port }, timeout: 30_000 }).then(() => 0, (error) => error.code);

  const healthy = await check(200);
  t.equal(healthy.code, 0, 'exit 0 on 200');
  t.same(healthy.requests, [{ url: '/healthz', authorization: undefined }], 'one GET /healthz, no Authorization header');
  t.equal((await check(500)).code, 1, 'exit 1 on an error status');
  // A port nothing listens on: bind one, close it, use it.
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = String(probe.address().port);
  await new Promise((resolve) => probe.close(resolve));
  t.equal(await exitCode(closedPort), 1, 'exit 1 when nothing answers');
});

t.test('imageRuntime (test/helpers/containerfile.mjs)', async (t) => {
  t.same(runtime.argv, ['/usr/bin/tini', '--', 'node', 'dist/lib/cli/main.js', 'serve']);
  t.match(runtime, { user: '10001:10001', uid: 10001, gid: 10001, workdir: '/opt/browser-repl', env: { HOST: '0.0.0.0', PORT: '10001' } });
  const named = parseStages('FROM node:24-bookworm-slim\nRUN groupadd --gid 2000 app && useradd --uid 2000 --gid 2000 app\nUSER app\nCMD node x.js\n');
  t.same(resolveUser(named[0], 'app'), { uid: 2000, gid: 2000 }, 'a named user resolves through useradd --uid in its stage');
  t.same(resolveUser(named[0], 'nobody'), { uid: undefined, gid: undefined }, 'a user the stage does not create has no known uid');
  t.throws(() => execForm(keyword(named[0], 'CMD')[0]), /CMD on line 4 is not in exec form/);
});
