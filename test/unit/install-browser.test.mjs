// installBrowser's decisions with injected discovery, OS release, uid and command runner:
// nothing runs unless it is Debian and root, and failures carry the instructions.
import t from 'tap';
import { distroFamily, installBrowser, installFfmpeg, parseOsRelease } from '../../dist/lib/install-browser.js';
import { findFfmpeg } from '../../dist/lib/recordings/ffmpeg.js';

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const notFound = () => {
  throw Object.assign(new Error('none'), { code: 'REPL_ERR_BROWSER_NOT_FOUND' });
};

function harness(overrides = {}) {
  const output = [];
  const ran = [];
  const options = {
    platform: 'linux',
    osRelease: DEBIAN,
    isRoot: true,
    write: (text) => output.push(text),
    runCommand: async (command, args) => {
      ran.push([command, ...args].join(' '));
      return 0;
    },
    find: notFound,
    ...overrides,
  };
  return { options, output, ran };
}

t.test('installBrowser', async (t) => {
  t.test('reports an existing browser and runs nothing', async (t) => {
    const { options, output, ran } = harness({ find: () => ({ executable: '/usr/bin/chromium', source: 'path' }) });
    t.same(await installBrowser(options), { status: 'found', executable: '/usr/bin/chromium', source: 'path' });
    t.match(output.join(''), /found \/usr\/bin\/chromium/);
    t.same(ran, []);
  });

  t.test('Debian as root: announces and runs apt-get update and install, then finds the browser', async (t) => {
    let installed = false;
    const { options, output, ran } = harness({
      find: () => (installed ? { executable: '/usr/bin/chromium', source: 'path' } : notFound()),
      runCommand: async (command, args) => {
        ran.push([command, ...args].join(' '));
        if (args[0] === 'install') installed = true;
        return 0;
      },
    });
    t.same(await installBrowser(options), { status: 'installed', executable: '/usr/bin/chromium', source: 'path' });
    t.same(ran, ['apt-get update', 'apt-get install -y chromium']);
    t.match(output.join(''), /running: apt-get install -y chromium/);
  });

  t.test('Debian as root with dryRun prints the commands only', async (t) => {
    const { options, ran } = harness({ dryRun: true });
    t.same(await installBrowser(options), { status: 'dry-run', commands: ['apt-get update', 'apt-get install -y chromium'] });
    t.same(ran, []);
  });

  t.test('Debian without root: the error carries the sudo command and nothing runs', async (t) => {
    const { options, ran } = harness({ isRoot: false });
    await t.rejects(installBrowser(options), { code: 'REPL_ERR_BROWSER_NOT_FOUND', message: /sudo apt-get update && sudo apt-get install -y chromium/ });
    t.same(ran, []);
  });

  t.test('a failing apt-get is reported with its exit code', async (t) => {
    const { options } = harness({ runCommand: async () => 100 });
    await t.rejects(installBrowser(options), { message: /apt-get update` exited with code 100/ });
  });

  t.test('Ubuntu and other systems get instructions, nothing runs', async (t) => {
    const ubuntu = harness({ osRelease: UBUNTU });
    await t.rejects(installBrowser(ubuntu.options), { code: 'REPL_ERR_BROWSER_NOT_FOUND', message: /npx playwright-core install chromium[\s\S]*snap/ });
    t.same(ubuntu.ran, []);
    const mac = harness({ platform: 'darwin', osRelease: undefined });
    await t.rejects(installBrowser(mac.options), { message: /CDP_ENDPOINT/ });
    t.same(mac.ran, []);
  });
});

t.test('parseOsRelease and distroFamily', async (t) => {
  t.same(parseOsRelease(DEBIAN), { PRETTY_NAME: 'Debian GNU/Linux 12 (bookworm)', ID: 'debian', VERSION_ID: '12' });
  t.equal(distroFamily(parseOsRelease(DEBIAN)), 'debian');
  t.equal(distroFamily(parseOsRelease(UBUNTU)), 'ubuntu');
  t.equal(distroFamily(parseOsRelease('ID=raspbian\nID_LIKE=debian\n')), 'debian');
  t.equal(distroFamily(parseOsRelease('ID=linuxmint\nID_LIKE="ubuntu debian"\n')), 'ubuntu');
  t.equal(distroFamily(parseOsRelease('ID=fedora\n')), 'other');
  t.equal(distroFamily(parseOsRelease(undefined)), 'other');
});

// --ffmpeg (recordings, docs/recordings.md): the same rules for Debian's ffmpeg package.
t.test('installFfmpeg', async (t) => {
  t.test('reports an existing ffmpeg and runs nothing', async (t) => {
    const { options, output, ran } = harness({ find: () => '/usr/bin/ffmpeg' });
    t.same(await installFfmpeg(options), { status: 'found', executable: '/usr/bin/ffmpeg' });
    t.match(output.join(''), /found ffmpeg at \/usr\/bin\/ffmpeg/);
    t.same(ran, []);
  });

  t.test('Debian as root: says what it installs, then runs apt-get and finds it', async (t) => {
    let installed = false;
    const { options, output, ran } = harness({
      find: () => (installed ? '/usr/bin/ffmpeg' : null),
      runCommand: async (command, args) => {
        ran.push([command, ...args].join(' '));
        if (args.includes('ffmpeg')) installed = true;
        return 0;
      },
    });
    t.same(await installFfmpeg(options), { status: 'installed', executable: '/usr/bin/ffmpeg' });
    t.same(ran, ['apt-get update', 'apt-get install -y ffmpeg']);
    const text = output.join('');
    t.ok(text.indexOf("installing Debian's ffmpeg package") < text.indexOf('running: apt-get update'), 'announced before anything runs');
  });

  t.test('not root: the sudo commands, nothing run', async (t) => {
    const { options, ran } = harness({ isRoot: false, find: () => null });
    await t.rejects(installFfmpeg(options), { code: 'REPL_ERR_FFMPEG_NOT_FOUND', message: /sudo apt-get install -y ffmpeg/ });
    t.same(ran, []);
  });

  t.test('elsewhere: instructions, nothing run', async (t) => {
    const { options, ran } = harness({ osRelease: 'ID=fedora\n', find: () => null });
    await t.rejects(installFfmpeg(options), { code: 'REPL_ERR_FFMPEG_NOT_FOUND', message: /BROWSER_REPL_FFMPEG/ });
    t.same(ran, []);
  });
});

t.test('findFfmpeg: BROWSER_REPL_FFMPEG, then PATH, then /usr/bin/ffmpeg', async (t) => {
  const files = new Set(['/opt/ff/ffmpeg', '/usr/bin/ffmpeg', '/custom/ffmpeg']);
  const is = (file) => files.has(file);
  t.equal(findFfmpeg({ PATH: '/opt/ff:/usr/bin' }, is), '/opt/ff/ffmpeg');
  t.equal(findFfmpeg({ PATH: '/nowhere' }, is), '/usr/bin/ffmpeg');
  t.equal(findFfmpeg({ PATH: '/opt/ff', BROWSER_REPL_FFMPEG: '/custom/ffmpeg' }, is), '/custom/ffmpeg');
  t.equal(findFfmpeg({ PATH: '/opt/ff', BROWSER_REPL_FFMPEG: '/missing/ffmpeg' }, is), null, 'a configured one that is missing is not replaced by another');
  t.equal(findFfmpeg({ PATH: '' }, () => false), null);
});
