/**
 * Decides whether Chromium must run with `--no-sandbox`, and whether its shared memory should
 * move out of a small `/dev/shm`. Probes are injectable for unit tests.
 *
 * Chromium's Linux sandbox puts each renderer into new user, PID and network namespaces (or uses
 * a setuid helper, which Debian's package does not ship). Root is refused outright ("Running as
 * root without --no-sandbox is not supported"). Inside a container, a non-root process may create
 * those namespaces only when the kernel allows unprivileged user namespaces and the runtime's
 * seccomp profile lets `clone`/`unshare` ask for them: Podman's default profile does, Docker's
 * and containerd's (Kubernetes' `RuntimeDefault`) do not without CAP_SYS_ADMIN. So in a container
 * the sandbox stays on only when a child process actually managed to create them; otherwise the
 * container is the isolation boundary and Chromium runs with `--no-sandbox`.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';

/** Probes of the environment; each defaults to the running process. */
export interface SandboxProbe {
  platform?: NodeJS.Platform | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Effective uid; `undefined` where there is none (Windows). */
  uid?: number | undefined;
  exists?: ((file: string) => boolean) | undefined;
  /** Reads a text file (the container hints and the user-namespace sysctls); `undefined` when it cannot. */
  readFile?: ((file: string) => string | undefined) | undefined;
  /**
   * Tries, in a child process, to create the namespaces Chromium's sandbox creates (user, PID,
   * network). Returns `undefined` when that worked, else what stopped it. Default: runs
   * `unshare --user --pid --net --fork true` once per process and remembers the answer.
   */
  tryUserNamespaces?: (() => string | undefined) | undefined;
}

/** Result of {@link detectNoSandbox}. */
export interface SandboxDecision {
  readonly noSandbox: boolean;
  /** Why the sandbox is off (for diagnostics), when it is. */
  readonly reason: string | undefined;
}

const CGROUP_HINTS = /docker|kubepods|containerd|libpod|lxc|\/ecs\//;

/** The sysctls that gate unprivileged user namespaces, read by {@link detectUserNamespaces}. */
export const USERNS_SYSCTLS = {
  /** Debian's and Ubuntu's switch (absent on other kernels, where nothing else forbids them): `0` forbids. */
  clone: '/proc/sys/kernel/unprivileged_userns_clone',
  /** The per-user limit (every kernel since 4.9): `0` forbids. */
  max: '/proc/sys/user/max_user_namespaces',
  /** AppArmor's restriction (Ubuntu 23.10 and later): `1` leaves created namespaces without capabilities. */
  apparmor: '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
} as const;

/**
 * `noSandbox: 'auto'`: never on macOS or Windows. On Linux: true when running as root; true in a
 * container (see {@link detectContainer}) whose kernel or runtime denies unprivileged user
 * namespaces (see {@link detectUserNamespaces}), with a reason naming both; false otherwise, so
 * a non-root server in a container that allows them keeps Chromium's sandbox.
 */
export function detectNoSandbox(probe: SandboxProbe = {}): SandboxDecision {
  const platform = probe.platform ?? process.platform;
  if (platform !== 'linux') return { noSandbox: false, reason: undefined };
  const uid = 'uid' in probe ? probe.uid : process.getuid?.();
  if (uid === 0) return { noSandbox: true, reason: 'running as root' };
  const container = detectContainer(probe);
  if (container === undefined) return { noSandbox: false, reason: undefined };
  const denied = detectUserNamespaces(probe);
  return denied === undefined ? { noSandbox: false, reason: undefined } : { noSandbox: true, reason: `${container}, where ${denied}` };
}

/**
 * Names what keeps a non-root process from creating the namespaces of Chromium's sandbox, or
 * returns `undefined` when nothing does. Checked in order, the first finding wins: the three
 * sysctls of {@link USERNS_SYSCTLS} (an unreadable `max_user_namespaces` counts as denied: the
 * kernel is too old or `/proc/sys` is hidden), then a real attempt in a child process, which also
 * catches what no file shows (a seccomp profile that blocks `clone` and `unshare`).
 */
export function detectUserNamespaces(probe: SandboxProbe = {}): string | undefined {
  const readFile = probe.readFile ?? readTextFile;
  const clone = readFile(USERNS_SYSCTLS.clone)?.trim();
  if (clone === '0') return `the kernel forbids unprivileged user namespaces (${USERNS_SYSCTLS.clone} is 0)`;
  const max = readFile(USERNS_SYSCTLS.max)?.trim();
  if (max === undefined) return `the user-namespace limit cannot be read (${USERNS_SYSCTLS.max})`;
  if (!/^\d+$/.test(max) || Number(max) === 0) return `no user namespaces are allowed (${USERNS_SYSCTLS.max} is ${JSON.stringify(max)})`;
  if (readFile(USERNS_SYSCTLS.apparmor)?.trim() === '1') return `AppArmor restricts unprivileged user namespaces (${USERNS_SYSCTLS.apparmor} is 1)`;
  const failure = (probe.tryUserNamespaces ?? tryUserNamespacesOnce)();
  return failure === undefined ? undefined : `creating user namespaces failed (${failure})`;
}

/** Names the container hint that matched, or `undefined` outside a (detectable) container. */
export function detectContainer(probe: SandboxProbe = {}): string | undefined {
  const env = probe.env ?? process.env;
  const exists = probe.exists ?? existsSync;
  const readFile = probe.readFile ?? readTextFile;
  if (exists('/.dockerenv')) return 'inside a Docker container (/.dockerenv)';
  if (exists('/run/.containerenv')) return 'inside a Podman container (/run/.containerenv)';
  if (env.KUBERNETES_SERVICE_HOST !== undefined && env.KUBERNETES_SERVICE_HOST !== '') return 'inside Kubernetes (KUBERNETES_SERVICE_HOST)';
  if (env.container !== undefined && env.container !== '') return `inside a container (container=${env.container})`;
  for (const file of ['/proc/1/cgroup', '/proc/self/cgroup']) {
    const text = readFile(file);
    if (text !== undefined && CGROUP_HINTS.test(text)) return `inside a container (${file})`;
  }
  return undefined;
}

/**
 * True when `/dev/shm` is smaller than `minBytes` (Docker's default is 64 MiB). Chromium keeps
 * rendering buffers there and crashes on large pages when it fills; `--disable-dev-shm-usage`
 * moves them to the temp directory.
 */
export function hasSmallDevShm(minBytes = 512 * 1024 * 1024, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    const stats = statfsSync('/dev/shm');
    return stats.blocks * stats.bsize < minBytes;
  } catch {
    return true; // No /dev/shm at all: Chromium must not rely on it either.
  }
}

function readTextFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `unshare` exits at once; beyond this the attempt counts as failed rather than stalling a launch. */
const UNSHARE_TIMEOUT_MS = 5_000;
let userNamespaceAttempt: { failure: string | undefined } | undefined;

/**
 * The kernel, the seccomp profile and the process's uid do not change while it runs, so the
 * attempt is made once (a few milliseconds, synchronously, on the first launch) and remembered.
 */
function tryUserNamespacesOnce(): string | undefined {
  userNamespaceAttempt ??= { failure: tryUnshare() };
  return userNamespaceAttempt.failure;
}

function tryUnshare(): string | undefined {
  // The same three namespaces Chromium's zygote asks for; `--fork` because a new PID namespace
  // takes effect for children only. AppArmor's restriction lets the user namespace be created
  // and then refuses the other two, so asking for all three catches it too.
  const result = spawnSync('unshare', ['--user', '--pid', '--net', '--fork', 'true'], { encoding: 'utf8', timeout: UNSHARE_TIMEOUT_MS, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.error !== undefined) return `could not run unshare: ${result.error.message}`;
  if (result.status === 0) return undefined;
  const said = result.stderr.trim().split('\n').at(-1);
  return `unshare --user --pid --net: ${said !== undefined && said !== '' ? said : `exit code ${result.status}, signal ${result.signal}`}`;
}
