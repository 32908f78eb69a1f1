/**
 * The memory this server may use, and the defaults derived from it: how many browsers
 * `POST /browsers` may run, and each REPL worker's heap cap. In a container the limit is the
 * cgroup's (`process.constrainedMemory()`), not the host's RAM that `os.totalmem()` reports: a pod
 * with 2 GiB on a 64 GiB node must plan for 2 GiB. An explicit setting always wins.
 */
import { totalmem } from 'node:os';
import { LIMITS } from './limits.js';

/** What one live browser is budgeted: Chromium, its tabs and a REPL worker. */
export const MEMORY_PER_BROWSER_BYTES = 512 * 1024 * 1024;
/** The smallest heap cap a derived default gives a REPL worker (a cap below it fails ordinary cells). */
const MIN_DERIVED_HEAP_MB = 128;
/** A REPL worker's heap may take at most this share of the memory limit by default. */
const HEAP_SHARE = 8;

export interface MemoryLimit {
  bytes: number;
  /** `cgroup`: the container's limit; `host`: the machine's RAM. */
  source: 'cgroup' | 'host';
}

/**
 * The memory limit of this process. `constrained` and `total` are seams for tests; by default
 * `process.constrainedMemory()` (0, or a huge number, when there is no limit) and `os.totalmem()`.
 */
export function memoryLimit(
  constrained: number | undefined = process.constrainedMemory?.(),
  total: number = totalmem(),
): MemoryLimit {
  if (constrained !== undefined && Number.isFinite(constrained) && constrained > 0 && constrained < total) {
    return { bytes: constrained, source: 'cgroup' };
  }
  return { bytes: total, source: 'host' };
}

/** Browsers of `POST /browsers` at once by default: one per 512 MiB of the limit, one 512 MiB kept for the server and its default browser. */
export function derivedMaxBrowsers(limit: MemoryLimit = memoryLimit()): number {
  return Math.max(1, Math.floor(limit.bytes / MEMORY_PER_BROWSER_BYTES) - 1);
}

/**
 * A REPL worker's heap cap by default: `BROWSER_REPL_HEAP_MB` when set, else 512 MiB, lowered to an
 * eighth of a smaller memory limit (never below 128 MiB), so that a few busy REPLs cannot have the
 * container killed before their own cap stops them.
 */
export function defaultHeapMb(env: NodeJS.ProcessEnv = process.env, limit: MemoryLimit = memoryLimit()): number {
  const configured = Number(env['BROWSER_REPL_HEAP_MB']);
  if (Number.isFinite(configured) && configured > 0) return configured;
  const share = Math.floor(limit.bytes / (1024 * 1024) / HEAP_SHARE);
  return Math.min(LIMITS.heapMbDefault, Math.max(MIN_DERIVED_HEAP_MB, share));
}
