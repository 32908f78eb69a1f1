// The sandbox decision inside containers: Chromium keeps its sandbox when a non-root process may
// create user namespaces, and the reason names what denied them otherwise. Every probe is
// injected (no file, no child process); find-chromium.test.mjs has the container hints.
import t from 'tap';
import { detectNoSandbox, detectUserNamespaces, USERNS_SYSCTLS } from '../../dist/lib/chromium/sandbox.js';

const ALLOWING = { [USERNS_SYSCTLS.clone]: '1\n', [USERNS_SYSCTLS.max]: '63229\n', [USERNS_SYSCTLS.apparmor]: '0\n' };

/**
 * A non-root process in Kubernetes whose kernel allows user namespaces, with `files` overriding
 * the sysctls (`undefined` removes one) and `attempt` answering the child-process attempt.
 */
function probe({ files = {}, attempt = () => undefined, ...over } = {}) {
  const table = { ...ALLOWING, ...files };
  const calls = { attempts: 0, reads: [] };
  return {
    calls,
    platform: 'linux',
    uid: 10001,
    env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' },
    exists: () => false,
    readFile: (file) => {
      calls.reads.push(file);
      return table[file];
    },
    tryUserNamespaces: () => {
      calls.attempts++;
      return attempt();
    },
    ...over,
  };
}

t.test('detectNoSandbox', async (t) => {
  t.test('keeps the sandbox in a container that allows user namespaces', async (t) => {
    const p = probe();
    t.same(detectNoSandbox(p), { noSandbox: false, reason: undefined });
    t.equal(p.calls.attempts, 1, 'after the sysctls, a real attempt decides');
  });

  t.test('keeps it on a kernel without the Debian switch or AppArmor\'s restriction (both files absent)', async (t) => {
    t.same(detectNoSandbox(probe({ files: { [USERNS_SYSCTLS.clone]: undefined, [USERNS_SYSCTLS.apparmor]: undefined } })), { noSandbox: false, reason: undefined });
  });

  t.test('turns it off when unprivileged_userns_clone is 0, naming the container and the file', async (t) => {
    const p = probe({ files: { [USERNS_SYSCTLS.clone]: '0\n' } });
    t.same(detectNoSandbox(p), {
      noSandbox: true,
      reason: 'inside Kubernetes (KUBERNETES_SERVICE_HOST), where the kernel forbids unprivileged user namespaces (/proc/sys/kernel/unprivileged_userns_clone is 0)',
    });
    t.equal(p.calls.attempts, 0, 'no child process when a sysctl already says no');
  });

  t.test('turns it off when max_user_namespaces is 0, unreadable or not a number', async (t) => {
    t.match(detectNoSandbox(probe({ files: { [USERNS_SYSCTLS.max]: '0\n' } })), { noSandbox: true, reason: /no user namespaces are allowed \(\/proc\/sys\/user\/max_user_namespaces is "0"\)$/ });
    t.match(detectNoSandbox(probe({ files: { [USERNS_SYSCTLS.max]: undefined } })), { noSandbox: true, reason: /the user-namespace limit cannot be read \(\/proc\/sys\/user\/max_user_namespaces\)$/ });
    t.match(detectNoSandbox(probe({ files: { [USERNS_SYSCTLS.max]: 'lots' } })), { noSandbox: true, reason: /max_user_namespaces is "lots"/ });
  });

  t.test('turns it off when AppArmor restricts unprivileged user namespaces', async (t) => {
    const p = probe({ files: { [USERNS_SYSCTLS.apparmor]: '1\n' } });
    t.match(detectNoSandbox(p), { noSandbox: true, reason: /, where AppArmor restricts unprivileged user namespaces \(\/proc\/sys\/kernel\/apparmor_restrict_unprivileged_userns is 1\)$/ });
    t.equal(p.calls.attempts, 0);
  });

  t.test('turns it off when the attempt fails although the sysctls allow it (a seccomp profile)', async (t) => {
    const p = probe({ attempt: () => 'unshare --user --pid --net: unshare: unshare failed: Operation not permitted' });
    t.same(detectNoSandbox(p), {
      noSandbox: true,
      reason: 'inside Kubernetes (KUBERNETES_SERVICE_HOST), where creating user namespaces failed (unshare --user --pid --net: unshare: unshare failed: Operation not permitted)',
    });
  });

  t.test('turns it off when the attempt could not be made at all', async (t) => {
    t.match(detectNoSandbox(probe({ attempt: () => 'could not run unshare: spawnSync unshare ENOENT' })), { noSandbox: true, reason: /creating user namespaces failed \(could not run unshare: spawnSync unshare ENOENT\)$/ });
  });

  t.test('root turns it off in a container that allows user namespaces, without probing them', async (t) => {
    const p = probe({ uid: 0 });
    t.same(detectNoSandbox(p), { noSandbox: true, reason: 'running as root' });
    t.equal(p.calls.attempts, 0);
    t.notOk(p.calls.reads.includes(USERNS_SYSCTLS.max));
  });

  t.test('outside a container the user-namespace probes are not consulted', async (t) => {
    const p = probe({ env: {}, attempt: () => 'would fail' });
    t.same(detectNoSandbox(p), { noSandbox: false, reason: undefined });
    t.equal(p.calls.attempts, 0);
    t.notOk(p.calls.reads.some((file) => file.startsWith('/proc/sys/')), 'only the cgroup files are read');
  });

  t.test('never probes on macOS or Windows', async (t) => {
    for (const platform of ['darwin', 'win32']) {
      const p = probe({ platform, files: { [USERNS_SYSCTLS.max]: '0' } });
      t.same(detectNoSandbox(p), { noSandbox: false, reason: undefined }, platform);
      t.equal(p.calls.attempts, 0, platform);
    }
  });

  t.test('each container hint gets the same treatment', async (t) => {
    const docker = { env: {}, exists: (file) => file === '/.dockerenv' };
    const podman = { env: {}, exists: (file) => file === '/run/.containerenv' };
    t.same(detectNoSandbox(probe(docker)), { noSandbox: false, reason: undefined }, 'Docker, namespaces allowed');
    t.match(detectNoSandbox(probe({ ...docker, attempt: () => 'refused' })), { noSandbox: true, reason: /^inside a Docker container \(\/\.dockerenv\), where creating user namespaces failed \(refused\)$/ });
    t.match(detectNoSandbox(probe({ ...podman, files: { [USERNS_SYSCTLS.clone]: '0' } })), { noSandbox: true, reason: /^inside a Podman container/ });
  });
});

t.test('detectUserNamespaces', async (t) => {
  t.test('checks the sysctls in order, then the attempt; the first finding wins', async (t) => {
    const p = probe({ files: { [USERNS_SYSCTLS.clone]: '0', [USERNS_SYSCTLS.max]: '0', [USERNS_SYSCTLS.apparmor]: '1' } });
    t.match(detectUserNamespaces(p), /unprivileged_userns_clone is 0/);
    t.same(p.calls.reads, [USERNS_SYSCTLS.clone]);
    const q = probe({ files: { [USERNS_SYSCTLS.max]: '0', [USERNS_SYSCTLS.apparmor]: '1' } });
    t.match(detectUserNamespaces(q), /max_user_namespaces is "0"/);
    t.equal(q.calls.attempts, 0);
  });

  t.test('values are read with surrounding whitespace ignored', async (t) => {
    t.equal(detectUserNamespaces(probe({ files: { [USERNS_SYSCTLS.clone]: ' 1 \n', [USERNS_SYSCTLS.max]: '\n15000\n', [USERNS_SYSCTLS.apparmor]: '0 ' } })), undefined);
    t.match(detectUserNamespaces(probe({ files: { [USERNS_SYSCTLS.apparmor]: '1 \n' } })), /AppArmor/);
  });

  t.test('returns undefined when the attempt succeeds', async (t) => {
    const p = probe();
    t.equal(detectUserNamespaces(p), undefined);
    t.equal(p.calls.attempts, 1);
  });
});
