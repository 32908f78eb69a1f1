/** Small timing primitives shared by the waiting helpers. */

/**
 * Sleeps `ms` milliseconds. Resolves `true` when the time passed and `false` as soon as `signal`
 * aborts (the cell ended): a wait left running by a finished cell stops quietly instead of
 * rejecting into the next cell's stderr as an unhandled rejection.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Milliseconds from now until `deadline` (Unix ms), never negative. */
export function remainingMs(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}
