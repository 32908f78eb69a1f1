// installBrowser's decisions with injected discovery, OS release, uid and command runner:
// nothing runs unless it is Debian and root, and failures carry the instructions.
import t from 'tap';
import { distroFamily, installBrowser, parseOsRelease } from '../../dist/lib/install-browser.js';

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
