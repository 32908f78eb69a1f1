/**
 * Decides whether Chromium must run with `--no-sandbox`, and whether its shared memory should
 * move out of a small `/dev/shm`. Probes are injectable for unit tests.
 *
 * Chromium's sandbox needs user namespaces or a setuid helper that containers and root sessions
 * usually lack; Chromium then refuses to start ("Running as root without --no-sandbox is not
 * supported"). In those environments the container is the isolation boundary.
 */

import { existsSync, readFileSync, statfsSync } from 'node:fs';

/** Probes of the environment; each defaults to the running process. */
export interface SandboxProbe {
  platform?: NodeJS.Platform | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Effective uid; `undefined` where there is none (Windows). */
  uid?: number | undefined;
  exists?: ((file: string) => boolean) | undefined;
  readFile?: ((file: string) => string | undefined) | undefined;
}

/** Result of {@link detectNoSandbox}. */
export interface SandboxDecision {
  readonly noSandbox: boolean;
  /** Why the sandbox is off (for diagnostics), when it is. */
  readonly reason: string | undefined;
}

const CGROUP_HINTS = /docker|kubepods|containerd|libpod|lxc|\/ecs\//;

/**
 * `noSandbox: 'auto'`: true on Linux when running as root, in Docker (`/.dockerenv`), Podman
 * (`/run/.containerenv`), Kubernetes (`KUBERNETES_SERVICE_HOST`), a systemd/OCI container
 * (`container` variable) or a cgroup that names a container runtime. Never on macOS or Windows.
 */
export function detectNoSandbox(probe: SandboxProbe = {}): SandboxDecision {
  const platform = probe.platform ?? process.platform;
  if (platform !== 'linux') return { noSandbox: false, reason: undefined };
  const uid = 'uid' in probe ? probe.uid : process.getuid?.();
  if (uid === 0) return { noSandbox: true, reason: 'running as root' };
  const container = detectContainer(probe);
  return container === undefined ? { noSandbox: false, reason: undefined } : { noSandbox: true, reason: container };
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
