// Starts one container of a built image the way a pod plan (test/helpers/kubernetes.mjs) says:
// the image's ENTRYPOINT and CMD in its WORKDIR, its ENV under the plan's env, the plan's uid, gid
// and fsGroup, no capabilities, no privilege escalation, a read-only root, and the plan's emptyDir
// volumes (on disk: a folder of ours; medium Memory: a tmpfs of the size limit).
//
// An image built with buildah has no container runtime to run it here, so this is one: the image's
// root from `buildah mount` of a working container, a child in new mount, PID, UTS and IPC
// namespaces that mounts /proc, a minimal /dev with its own devpts, a read-only /sys, the volumes
// and /etc/hosts, /etc/hostname and /etc/resolv.conf, remounts the root read-only, changes root
// into it and becomes, through the image's own setpriv, the plan's user with no capabilities and
// no_new_privs set, before it executes the entrypoint. The entrypoint (tini) is PID 1 of its
// namespace, as in a container. The network is the host's: the server and the test reach each
// other on loopback. What differs from a real runtime: no cgroup (no memory or CPU limit), no
// seccomp filter, no network namespace (docs/deploy.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildahStoreOptions, pidAlive, run } from '../../scripts/image/storage.mjs';

/** Names of our working containers: the pid of the test process that made it, so stale ones can be told apart. */
const CONTAINER_PREFIX = 'chromium-repl-image-test-';

/**
 * Runs inside the new namespaces as their PID 1, then becomes the entrypoint:
 *   sh -c SCRIPT sh <root> <workdir> <hostname> ro|rw <mount>... -- <argv>...
 * where each <mount> is three words: `memory <path> <tmpfs options>`, `disk <path> <host folder>`
 * or `file <path> <host file>` (bound read-only).
 */
const SETUP_SCRIPT = String.raw`set -eu
root=$1 workdir=$2 name=$3 rootmode=$4
shift 4
mount --bind "$root" "$root"
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount -t tmpfs -o nosuid,noexec,mode=755,size=65536k tmpfs "$root/dev"
for node in null zero full random urandom tty; do
  touch "$root/dev/$node"
  mount --bind "/dev/$node" "$root/dev/$node"
done
mkdir "$root/dev/pts" "$root/dev/shm" "$root/dev/mqueue"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5,nosuid,noexec devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mount -t mqueue -o nosuid,nodev,noexec mqueue "$root/dev/mqueue"
mount --bind /sys "$root/sys"
mount -o remount,bind,ro,nosuid,nodev,noexec "$root/sys"
while [ "$1" != -- ]; do
  kind=$1 target=$root$2 source=$3
  shift 3
  case $kind in
    memory) mkdir -p "$target"; mount -t tmpfs -o "$source" tmpfs "$target" ;;
    disk) mkdir -p "$target"; mount --bind "$source" "$target" ;;
    file) [ -e "$target" ] || touch "$target"; mount --bind "$source" "$target"; mount -o remount,bind,ro "$target" ;;
  esac
done
shift
hostname "$name"
if [ "$rootmode" = ro ]; then mount -o remount,bind,ro "$root"; fi
exec unshare --root="$root" --wd="$workdir" -- "$@"
`;

/**
 * `env -i NAME=value…`: the container's environment and nothing else. A test runner may add its
 * own variables to every child's environment (tap's coverage hook adds NODE_OPTIONS, which would
 * make the image's node load a file of this checkout); env(1) starts from nothing.
 */
function exactly(env) {
  return ['-i', ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
}

/** Parses `Uid:`, `Gid:`, `Groups:`, `NoNewPrivs:`, `CapEff:` and `CapBnd:` of /proc/<pid>/status. */
function processStatus(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim() ?? '';
  return {
    pid,
    name: field('Name'),
    uid: Number(field('Uid').split(/\s+/)[0]),
    gid: Number(field('Gid').split(/\s+/)[0]),
    groups: field('Groups') === '' ? [] : field('Groups').split(/\s+/).map(Number),
    noNewPrivileges: field('NoNewPrivs') === '1',
    effectiveCapabilities: BigInt(`0x${field('CapEff')}`),
    boundingCapabilities: BigInt(`0x${field('CapBnd')}`),
    cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '),
  };
}

/** Host pids of the processes in PID namespace `namespace` (a /proc/<pid>/ns/pid link text). */
function processesIn(namespace) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/ns/pid`) === namespace) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** The config of an image in the store: `{ entrypoint, cmd, env, workdir, user, healthcheck }` (healthcheck: the docker format's, or undefined). */
export async function imageConfig(buildah, image) {
  const inspected = JSON.parse(await buildah(['inspect', '--type', 'image', image]));
  const config = inspected.Docker?.config ?? inspected.OCIv1?.config ?? {};
  return {
    entrypoint: config.Entrypoint ?? [],
    cmd: config.Cmd ?? [],
    env: config.Env ?? [],
    workdir: config.WorkingDir || '/',
    user: config.User ?? '',
    healthcheck: inspected.Docker?.config?.Healthcheck,
  };
}

/**
 * The environment a container of `config` under `plan` gets: the image's ENV, then what the kubelet
 * adds to every container (HOSTNAME, the pod's name, and the API Service's address, which it sets
 * even with enableServiceLinks: false; a stand-in here, nothing listens there), then the plan's
 * env, then `overrides`.
 */
export function containerEnv(config, plan, overrides = {}) {
  const env = {};
  for (const entry of config.env) {
    const at = entry.indexOf('=');
    env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  env.HOSTNAME = plan.podName;
  env.KUBERNETES_SERVICE_HOST = '10.96.0.1';
  env.KUBERNETES_SERVICE_PORT = '443';
  for (const [name, value] of plan.env) env[name] = value;
  return { ...env, ...overrides };
}

/**
 * The image `npm run image` recorded (scripts/image/storage.mjs), in a buildah store this helper
 * can start it from: `{ buildah(args), image, release() }`. An image buildah built is there
 * already; one Docker or Podman built is saved as an archive and pulled into our store (and
 * removed from it again by `release()`), so every image is started the same way.
 */
export async function imageInStore(record) {
  if (record.builder === 'buildah') return { buildah: (args) => run('buildah', [...record.store, ...args]), image: record.id, release: async () => {} };
  const buildah = (args) => run('buildah', [...buildahStoreOptions(), ...args]);
  const folder = mkdtempSync(join(tmpdir(), `${CONTAINER_PREFIX}${process.pid}-`));
  try {
    const archive = join(folder, 'image.tar');
    await run(record.builder, ['save', ...(record.builder === 'podman' ? ['--format', 'docker-archive'] : []), '--output', archive, record.id]);
    const image = (await buildah(['pull', '--quiet', `docker-archive:${archive}`])).trim();
    return { buildah, image, release: () => buildah(['rmi', image]) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The pid in one of our names (`chromium-repl-image-test-<pid>-…`) when that process is gone, else undefined. */
function goneOwner(name) {
  const owner = new RegExp(`^${CONTAINER_PREFIX}(\\d+)-`).exec(name)?.[1];
  return owner !== undefined && !pidAlive(Number(owner)) ? Number(owner) : undefined;
}

/**
 * Removes the working containers and temporary folders of test processes that are gone (killed
 * before their teardown; their watchdog already ended the container's processes).
 */
export async function removeStaleContainers(buildah) {
  const containers = JSON.parse(await buildah(['containers', '--json'])) ?? [];
  for (const container of containers) {
    if (goneOwner(container.containername) === undefined) continue;
    await buildah(['umount', container.id]).catch(() => {});
    await buildah(['rm', container.id]).catch(() => {});
  }
  for (const name of readdirSync(tmpdir())) {
    if (goneOwner(name) !== undefined) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * Starts a container of `image` (an id or name in the store `buildah` runs against) under `plan`,
 * with `overrides` on top of its environment. Resolves once PID 1 is known:
 * `{ pid, namespace, config, env, stdout(), stderr(), closed, exitStatus(), processes(), volumeFolder(path), exec(argv, env), signal(name), destroy() }`:
 * - `closed` resolves `[code, signal]` when PID 1 exits (then every process of the container is gone),
 *   and `exitStatus()` is that pair once it did, undefined before;
 * - `processes()` lists the container's processes (`processStatus` of each), PID 1 first;
 * - `volumeFolder(path)` is the host folder behind a disk volume (to see what the server left there);
 * - `exec(argv, env)` runs a command in the container (its namespaces and root, as its user), as
 *   a runtime's exec and HEALTHCHECK do; resolves `{ code, stdout, stderr }`;
 * - `destroy()` kills whatever still runs, unmounts and removes the working container and our
 *   folders; idempotent, and what the test's teardown calls.
 */
export async function startContainer({ buildah, image, plan, overrides = {} }) {
  await removeStaleContainers(buildah);
  const config = await imageConfig(buildah, image);
  const folder = mkdtempSync(join(tmpdir(), `${CONTAINER_PREFIX}${process.pid}-`));
  const name = `${CONTAINER_PREFIX}${process.pid}-${folder.slice(-6)}`;
  let container;
  let child;
  let watchdog;
  let closed;
  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      if (pid1 !== undefined && pidAlive(pid1)) process.kill(pid1, 'SIGKILL');
      child.kill('SIGKILL');
      await closed;
    }
    if (watchdog !== undefined && watchdog.exitCode === null && watchdog.signalCode === null) {
      // Unreferenced while it watches; referenced again so that this process waits for its end.
      watchdog.ref();
      const ended = once(watchdog, 'exit');
      watchdog.kill('SIGKILL');
      await ended;
    }
    watchdog?.stdin.destroy();
    if (container !== undefined) {
      await buildah(['umount', container]);
      await buildah(['rm', container]);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  let pid1;
  try {
    container = (await buildah(['from', '--pull-never', '--name', name, image])).trim();
    const root = (await buildah(['mount', container])).trim();
    // The volumes: on disk a folder of ours, owned as the kubelet leaves an emptyDir with an
    // fsGroup (group fsGroup, setgid, writable by all); in memory a tmpfs of the size limit.
    const volumeFolders = new Map();
    const mounts = [];
    const group = plan.groups[0] ?? plan.gid;
    for (const volume of plan.volumes) {
      if (volume.medium === 'memory') {
        const size = volume.sizeBytes === undefined ? '' : `,size=${volume.sizeBytes}`;
        mounts.push('memory', volume.path, `nosuid,nodev,mode=2777,gid=${group}${size}`);
      } else {
        const host = join(folder, 'volumes', volume.name);
        mkdirSync(host, { recursive: true });
        chownSync(host, 0, group);
        chmodSync(host, 0o2777);
        volumeFolders.set(volume.path, host);
        mounts.push('disk', volume.path, host);
      }
    }
    // The files a runtime provides: this pod's name, loopback names, and the machine's resolver.
    writeFileSync(join(folder, 'hostname'), `${plan.podName}\n`);
    writeFileSync(join(folder, 'hosts'), `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t${plan.podName}\n`);
    mounts.push('file', '/etc/hostname', join(folder, 'hostname'), 'file', '/etc/hosts', join(folder, 'hosts'), 'file', '/etc/resolv.conf', '/etc/resolv.conf');

    const user = [
      '/usr/bin/setpriv', `--reuid=${plan.uid}`, `--regid=${plan.gid}`,
      ...(plan.groups.length > 0 ? [`--groups=${plan.groups.join(',')}`] : ['--clear-groups']),
      ...(plan.dropAllCapabilities ? ['--inh-caps=-all', '--bounding-set=-all'] : []),
      ...(plan.noNewPrivileges ? ['--no-new-privs'] : []),
      '--',
    ];
    const env = containerEnv(config, plan, overrides);
    child = spawn('/usr/bin/env', [...exactly(env), 'unshare', '--mount', '--uts', '--ipc', '--pid', '--fork', '--', '/bin/sh', '-c', SETUP_SCRIPT, 'sh',
      root, config.workdir, plan.podName, plan.readOnlyRoot ? 'ro' : 'rw', ...mounts, '--', ...user, ...config.entrypoint, ...config.cmd,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    closed = once(child, 'close');
    let exitStatus;
    closed.then((status) => { exitStatus = status; });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    // PID 1 is unshare's only child. util-linux's unshare ignores SIGTERM while it waits for it,
    // so signals go to PID 1 itself.
    const deadline = Date.now() + 10_000;
    while (pid1 === undefined) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the container exited while starting: ${stderr.trim()}`);
      if (Date.now() > deadline) throw new Error('the container\'s PID 1 did not appear within 10 s');
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
      if (children !== '') pid1 = Number(children.split(/\s+/)[0]);
      else await sleep(20);
    }
    const namespace = readlinkSync(`/proc/${pid1}/ns/pid`);
    // If this process dies without its teardown, the watchdog's stdin closes and it kills PID 1
    // (the kernel then ends every process of the namespace), once it has checked that the pid
    // still is that PID 1.
    watchdog = spawn('/bin/sh', ['-c', 'read _ || true; [ "$(readlink "/proc/$1/ns/pid" 2>/dev/null)" = "$2" ] && kill -KILL "$1"', 'watchdog', String(pid1), namespace], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    watchdog.unref();
    return {
      pid: pid1,
      namespace,
      config,
      env,
      stdout: () => stdout,
      stderr: () => stderr,
      closed,
      exitStatus: () => exitStatus,
      processes: () => processesIn(namespace).sort((a, b) => (a === pid1 ? -1 : b === pid1 ? 1 : a - b)).flatMap((pid) => {
        try {
          return [processStatus(pid)];
        } catch {
          return [];
        }
      }),
      volumeFolder: (path) => volumeFolders.get(path),
      exec: (argv, execEnv = env) => new Promise((resolve, reject) => {
        const exec = spawn('/usr/bin/env', [...exactly(execEnv), 'nsenter', `--target=${pid1}`, '--mount', '--uts', '--ipc', '--pid', '--root', '--wd', '--', ...user, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        exec.stdout.setEncoding('utf8').on('data', (chunk) => { out += chunk; });
        exec.stderr.setEncoding('utf8').on('data', (chunk) => { err += chunk; });
        exec.once('error', reject);
        exec.once('close', (code) => resolve({ code, stdout: out, stderr: err }));
      }),
      signal: (name) => process.kill(pid1, name),
      destroy,
    };
  } catch (error) {
    await destroy().catch(() => {});
    throw error;
  }
}
