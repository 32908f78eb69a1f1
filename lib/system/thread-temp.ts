/**
 * Temporary folders that belong to one worker thread. `worker.terminate()` runs none of the
 * thread's own cleanup, so whatever it made in its temporary folder (a Playwright connection's
 * `playwright-artifacts-*`, a cell's scratch files) would outlive it: the thread gets a folder
 * of its own instead, made before it starts and removed once it has exited, however it ended.
 * The process may end before a thread's 'exit' (and the removal after it) comes: at exit, what
 * is left goes synchronously. Named after this process (lib/system/child-lifetime.ts), so a
 * server that was killed leaves nothing the next one keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ownedTempPrefix, type TempFolderKind } from './child-lifetime.js';

const liveFolders = new Set<string>();
let exitHookInstalled = false;

/** A thread's folder: {@link path} exists until {@link removeAfter}'s promise settles. */
export interface ThreadTempFolder {
  readonly path: string;
  /** Removes the folder once `exited` settles (the thread's exit, whatever its outcome). */
  removeAfter(exited: Promise<unknown>): void;
}

/** Makes a folder of `kind` in `parent` (default: this process's temporary folder) for one thread. */
export function makeThreadTempFolder(kind: TempFolderKind, parent: string = tmpdir()): ThreadTempFolder {
  const path = mkdtempSync(ownedTempPrefix(kind, parent));
  liveFolders.add(path);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const left of liveFolders) rmSync(left, { recursive: true, force: true });
    });
  }
  return {
    path,
    removeAfter(exited) {
      const remove = (): Promise<void> => rm(path, { recursive: true, force: true, maxRetries: 3 });
      void exited.then(remove, remove).then(() => liveFolders.delete(path), () => undefined);
    },
  };
}
