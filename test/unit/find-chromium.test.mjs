// findChromium's discovery order, with an injected environment and file system (no disk access),
// plus the sandbox decision that BrowserManager takes from the same kind of probes.
import t from 'tap';
import { findChromium } from '../../dist/lib/chromium/find-chromium.js';
import { detectContainer, detectNoSandbox } from '../../dist/lib/chromium/sandbox.js';

/** A fake file system: `files` are executables, `dirs` map a directory to its entries. */
function fs(files = [], dirs = {}) {
  const executables = new Set(files);
  return {
    isExecutable: (file) => executables.has(file),
    listDir: (dir) => dirs[dir] ?? [],
  };
}

const linux = (env = {}, files = [], dirs = {}, extra = {}) =>
  findChromium({ platform: 'linux', homeDir: '/home/u', env: { PATH: '/usr/local/bin:/usr/bin', ...env }, ...fs(files, dirs), ...extra });

t.test('findChromium', async (t) => {
  t.test('the executable option wins over everything', async (t) => {
    const found = linux({ BROWSER_REPL_CHROME: '/env/chrome', CHROME_PATH: '/cp/chrome' }, ['/opt/mine/chrome', '/env/chrome', '/cp/chrome', '/usr/bin/chromium'], {}, { executable: '/opt/mine/chrome' });
    t.same(found, { executable: '/opt/mine/chrome', source: 'option' });
  });

  t.test('a bare name in the option is looked up on PATH', async (t) => {
    t.same(linux({}, ['/usr/bin/google-chrome', '/usr/bin/chromium'], {}, { executable: 'google-chrome' }), { executable: '/usr/bin/google-chrome', source: 'option' });
  });

  t.test('BROWSER_REPL_CHROME comes before CHROME_PATH, which comes before PATH', async (t) => {
    const files = ['/env/chrome', '/cp/chrome', '/usr/bin/chromium'];
    t.same(linux({ BROWSER_REPL_CHROME: '/env/chrome', CHROME_PATH: '/cp/chrome' }, files), { executable: '/env/chrome', source: 'env:BROWSER_REPL_CHROME' });
    t.same(linux({ CHROME_PATH: '/cp/chrome' }, files), { executable: '/cp/chrome', source: 'env:CHROME_PATH' });
    t.same(linux({ BROWSER_REPL_CHROME: '', CHROME_PATH: '' }, files), { executable: '/usr/bin/chromium', source: 'path' }, 'empty variables count as unset');
  });

  t.test('an explicit choice that is not executable is an error, not a fall-through', async (t) => {
    const files = ['/usr/bin/chromium'];
    t.throws(() => linux({}, files, {}, { executable: '/nope/chrome' }), {
      code: 'REPL_ERR_BROWSER_NOT_FOUND',
      message: /the `executable` option is "\/nope\/chrome", which is not an executable file/,
    });
    t.throws(() => linux({ BROWSER_REPL_CHROME: '/nope' }, files), { message: /BROWSER_REPL_CHROME is "\/nope"/ });
    t.throws(() => linux({ CHROME_PATH: 'no-such-name' }, files), { message: /CHROME_PATH is "no-such-name"/ });
  });

  t.test('PATH names are tried in order, PATH directories in order', async (t) => {
    t.same(linux({}, ['/usr/bin/chromium', '/usr/local/bin/google-chrome']), { executable: '/usr/bin/chromium', source: 'path' });
    t.same(linux({}, ['/usr/bin/chromium-browser', '/usr/local/bin/chromium-browser']), { executable: '/usr/local/bin/chromium-browser', source: 'path' });
    t.same(linux({}, ['/usr/bin/microsoft-edge']), { executable: '/usr/bin/microsoft-edge', source: 'path' });
    t.same(linux({}, ['/usr/bin/msedge']), { executable: '/usr/bin/msedge', source: 'path' });
  });

  t.test('then the Playwright cache (newest build first), honouring PLAYWRIGHT_BROWSERS_PATH and XDG_CACHE_HOME', async (t) => {
    const root = '/home/u/.cache/ms-playwright';
    const dirs = { [root]: ['chromium-999', 'chromium-1200', 'firefox-1', 'chromium_headless_shell-1200'] };
    const files = [`${root}/chromium-999/chrome-linux/chrome`, `${root}/chromium-1200/chrome-linux64/chrome`];
    t.same(linux({}, files, dirs), { executable: `${root}/chromium-1200/chrome-linux64/chrome`, source: 'playwright-cache' });
    t.same(linux({}, [files[0]], dirs), { executable: `${root}/chromium-999/chrome-linux/chrome`, source: 'playwright-cache' }, 'old layout');

    const custom = { '/pw': ['chromium-5'] };
    t.same(linux({ PLAYWRIGHT_BROWSERS_PATH: '/pw' }, ['/pw/chromium-5/chrome-linux64/chrome'], custom), { executable: '/pw/chromium-5/chrome-linux64/chrome', source: 'playwright-cache' });
    t.same(linux({ XDG_CACHE_HOME: '/xdg' }, ['/xdg/ms-playwright/chromium-5/chrome-linux64/chrome'], { '/xdg/ms-playwright': ['chromium-5'] }).source, 'playwright-cache');
  });

  t.test('then the Puppeteer cache', async (t) => {
    const root = '/home/u/.cache/puppeteer/chrome';
    const dirs = { [root]: ['linux-120.0.6099.109', 'linux-131.0.6778.85'] };
    t.same(linux({}, [`${root}/linux-120.0.6099.109/chrome-linux64/chrome`, `${root}/linux-131.0.6778.85/chrome-linux64/chrome`], dirs), {
      executable: `${root}/linux-131.0.6778.85/chrome-linux64/chrome`,
      source: 'puppeteer-cache',
    });
    t.same(linux({ PUPPETEER_CACHE_DIR: '/pc' }, ['/pc/chrome/linux-1/chrome-linux64/chrome'], { '/pc/chrome': ['linux-1'] }).source, 'puppeteer-cache');
  });

  t.test('the Playwright cache comes before the Puppeteer cache, PATH before both', async (t) => {
    const pw = '/home/u/.cache/ms-playwright';
    const pp = '/home/u/.cache/puppeteer/chrome';
    const dirs = { [pw]: ['chromium-1'], [pp]: ['linux-1'] };
    const files = [`${pw}/chromium-1/chrome-linux64/chrome`, `${pp}/linux-1/chrome-linux64/chrome`];
    t.equal(linux({}, files, dirs).source, 'playwright-cache');
    t.equal(linux({}, [...files, '/usr/bin/google-chrome-stable'], dirs).source, 'path');
  });

  t.test('macOS: app bundles after the caches', async (t) => {
    const found = findChromium({
      platform: 'darwin',
      homeDir: '/Users/u',
      env: { PATH: '/usr/bin' },
      ...fs(['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge', '/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium']),
    });
    t.same(found, { executable: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge', source: 'platform' });
    const cached = findChromium({
      platform: 'darwin',
      homeDir: '/Users/u',
      env: {},
      ...fs(
        ['/Users/u/Library/Caches/ms-playwright/chromium-7/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
        { '/Users/u/Library/Caches/ms-playwright': ['chromium-7'] },
      ),
    });
    t.equal(cached.source, 'playwright-cache');
  });

  t.test('Windows: chrome.exe on PATH, then the caches, then Program Files and LOCALAPPDATA', async (t) => {
    const env = { PATH: 'C:\\Windows;C:\\Tools', PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' };
    const cache = 'C:\\Users\\u\\AppData\\Local\\ms-playwright';
    const win = (files, dirs) => findChromium({ platform: 'win32', homeDir: 'C:\\Users\\u', env, ...fs(files, dirs) });
    t.same(win(['C:\\Tools\\chrome.exe']), { executable: 'C:\\Tools\\chrome.exe', source: 'path' });
    t.same(win([`${cache}\\chromium-3\\chrome-win64\\chrome.exe`, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'], { [cache]: ['chromium-3'] }), {
      executable: `${cache}\\chromium-3\\chrome-win64\\chrome.exe`,
      source: 'playwright-cache',
    });
    t.same(win(['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe']), {
      executable: 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
      source: 'platform',
    });
  });

  t.test('nothing found: REPL_ERR_BROWSER_NOT_FOUND naming the option, the variables and the installer', async (t) => {
    const error = (() => {
      try {
        linux({ PATH: '' });
      } catch (e) {
        return e;
      }
    })();
    t.equal(error.code, 'REPL_ERR_BROWSER_NOT_FOUND');
    for (const needle of ['`executable` option', 'BROWSER_REPL_CHROME', 'CHROME_PATH', 'CDP_ENDPOINT', 'npx chromium-repl install-browser', 'apt-get install chromium', 'ms-playwright', 'puppeteer']) {
      t.ok(error.message.includes(needle), `mentions ${needle}`);
    }
  });
});

t.test('detectNoSandbox', async (t) => {
  const probe = (over = {}) => ({ platform: 'linux', env: {}, uid: 1000, exists: () => false, readFile: () => undefined, ...over });
  t.same(detectNoSandbox(probe()), { noSandbox: false, reason: undefined }, 'a desktop user keeps the sandbox');
  t.same(detectNoSandbox(probe({ uid: 0 })), { noSandbox: true, reason: 'running as root' });
  t.equal(detectNoSandbox(probe({ exists: (f) => f === '/.dockerenv' })).noSandbox, true);
  t.equal(detectNoSandbox(probe({ exists: (f) => f === '/run/.containerenv' })).noSandbox, true);
  t.equal(detectNoSandbox(probe({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' } })).noSandbox, true);
  t.equal(detectNoSandbox(probe({ env: { container: 'podman' } })).noSandbox, true);
  t.equal(detectNoSandbox(probe({ readFile: (f) => (f === '/proc/1/cgroup' ? '12:pids:/kubepods/besteffort/pod1/abc\n' : undefined) })).noSandbox, true);
  t.equal(detectNoSandbox(probe({ readFile: () => '0::/\n' })).noSandbox, false, 'cgroup v2 root says nothing');
  t.same(detectNoSandbox(probe({ platform: 'darwin', uid: 0 })), { noSandbox: false, reason: undefined }, 'never on macOS');
  t.equal(detectContainer(probe()), undefined);
});
