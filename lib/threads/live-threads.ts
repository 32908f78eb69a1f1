/**
 * Worker threads of this process that have not emitted 'exit' yet, by kind: the source of
 * `liveWorkerThreads()` / `liveExecutorThreads()` (diagnostics, future metrics, leak tests).
 */
import type { Worker } from 'node:worker_threads';

const live = { repl: new Set<Worker>(), executor: new Set<Worker>() };

export type ThreadKind = keyof typeof live;

/** Counts `worker` until its 'exit'. Call right after construction, before other 'exit' listeners. */
export function trackThread(kind: ThreadKind, worker: Worker): void {
  live[kind].add(worker);
  worker.once('exit', () => live[kind].delete(worker));
}

export function liveThreadCount(kind: ThreadKind): number {
  return live[kind].size;
}
