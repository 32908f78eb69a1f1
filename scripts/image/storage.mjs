// Where `npm run image` keeps what it reuses between builds, and how it calls the tools it builds
// with. One cache folder per user, shared by every checkout on the machine (a fresh clone reuses
// it): ${XDG_CACHE_HOME:-~/.cache}/chromium-repl-image, holding
//   storage-<driver>/   buildah's image store: the local base, the build's layer cache, the image
//   debootstrap/        the Debian packages debootstrap downloaded (reused when the base is remade)
//   packages/           the npm tarballs of Node and npm that go into the base
//   build-trust/        the CA file npm trusts here, mounted into the build's RUN steps only
//   checkouts/          which image each checkout built last (what `npm run image:test` tests)
// buildah's run state (locks, mount counts) lives in a run folder that a reboot clears.
// docs/deploy.md ("Build and test the image without a registry") says what invalidates what.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The image `npm run image` builds: the name the dev overlay of deploy/kubernetes runs. */
export const IMAGE_NAME = 'localhost/browser-repl:dev';

/** The cache folder (see the header). */
export function cacheDir(env = process.env) {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'chromium-repl-image');
}

/**
 * buildah's storage driver: CHROMIUM_REPL_IMAGE_STORAGE_DRIVER, else `overlay` when this kernel has
 * it and we are root (layers share their files: a cached build costs little disk), else `vfs`
 * (a full copy per layer, but it works anywhere). Each driver has its own store, so switching
 * never mixes them.
 */
export function storageDriver(env = process.env) {
  const chosen = env.CHROMIUM_REPL_IMAGE_STORAGE_DRIVER;
  if (chosen !== undefined && chosen !== '') {
    if (chosen !== 'overlay' && chosen !== 'vfs') throw new Error(`CHROMIUM_REPL_IMAGE_STORAGE_DRIVER must be overlay or vfs, got ${JSON.stringify(chosen)}`);
    return chosen;
  }
  let filesystems = '';
  try {
    filesystems = readFileSync('/proc/filesystems', 'utf8');
  } catch {
    // Not Linux, or no /proc: vfs asks nothing of the kernel.
  }
  return process.getuid?.() === 0 && /\toverlay$/m.test(filesystems) ? 'overlay' : 'vfs';
}

/** The global options that point buildah at our own store, never at the user's default one. */
export function buildahStoreOptions(env = process.env) {
  const driver = storageDriver(env);
  const runBase = env.XDG_RUNTIME_DIR !== undefined && env.XDG_RUNTIME_DIR !== '' ? env.XDG_RUNTIME_DIR : process.getuid?.() === 0 ? '/run' : cacheDir(env);
  const root = join(cacheDir(env), `storage-${driver}`);
  // One run folder per store: two stores must never share locks or mount counts.
  const store = createHash('sha256').update(root).digest('hex').slice(0, 8);
  return ['--root', root, '--runroot', join(runBase, `chromium-repl-image-run-${store}`), '--storage-driver', driver];
}

/**
 * Runs a command; resolves its stdout. `stdio: 'inherit'` shows its output as it runs (then the
 * result is ''). Rejects with the command, its exit status and the end of its stderr.
 */
export function run(command, args, { stdio = 'pipe', env = process.env, cwd, signal } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'], env, cwd, signal });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    child.stderr?.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    child.once('error', (error) => reject(error.code === 'ENOENT' ? new Error(`${command} is not installed (or not on PATH)`) : error));
    child.once('close', (code, killedBy) => {
      if (code === 0) resolve(stdout);
      else reject(Object.assign(new Error(`${[command, ...args].join(' ')} failed (${killedBy ?? `exit ${code}`})${stderr.trim() === '' ? '' : `:\n${stderr.trim().split('\n').slice(-20).join('\n')}`}`), { stdout, stderr }));
    });
  });
}

/** Runs buildah against our store. */
export function buildah(args, options = {}) {
  return run('buildah', [...buildahStoreOptions(options.env), ...args], options);
}

/** True when `command --version` (or the given probe arguments) runs and exits 0. */
export async function works(command, probe = ['--version']) {
  try {
    await run(command, probe);
    return true;
  } catch {
    return false;
  }
}

/** The file that says which image a checkout built last: one per checkout folder. */
export function checkoutRecordPath(root, env = process.env) {
  const id = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 16);
  return join(cacheDir(env), 'checkouts', `${id}.json`);
}

/** Records what `npm run image` built in `root`: `{ builder, image, id, builtAt, seconds }`. */
export function writeCheckoutRecord(root, record, env = process.env) {
  const file = checkoutRecordPath(root, env);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...record, checkout: realpathSync(root) }, null, 2)}\n`);
}

/** What `npm run image` built last in `root`, or undefined when it never did. */
export function readCheckoutRecord(root, env = process.env) {
  try {
    return JSON.parse(readFileSync(checkoutRecordPath(root, env), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether process `pid` exists (EPERM: it does, as someone else's). */
export function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Runs `fn` holding the cache's build lock, so two builds on one machine (two checkouts, or CI
 * next to a developer) never make the base or rotate the store at the same time. A lock whose
 * holder is gone is taken over; a live holder is waited for, saying so once.
 */
export async function withBuildLock(env, fn) {
  const dir = cacheDir(env);
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'build.lock');
  // The pid is written first and linked into place, so the lock never exists without its holder.
  const claim = `${lock}.${process.pid}`;
  writeFileSync(claim, String(process.pid));
  let announced = false;
  try {
    for (;;) {
      try {
        linkSync(claim, lock);
        break;
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
        let holder = 0;
        try {
          holder = Number(readFileSync(lock, 'utf8').trim());
        } catch (readError) {
          if (readError.code === 'ENOENT') continue;
          throw readError;
        }
        if (!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) {
          rmSync(lock, { force: true });
          continue;
        }
        if (!announced) console.log(`image: waiting for build ${holder}, which holds ${lock}`);
        announced = true;
        await sleep(2000);
      }
    }
  } finally {
    rmSync(claim, { force: true });
  }
  try {
    return await fn();
  } finally {
    if (existsSync(lock) && readFileSync(lock, 'utf8').trim() === String(process.pid)) rmSync(lock, { force: true });
  }
}
