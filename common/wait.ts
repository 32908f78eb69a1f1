/**
 * Bounded waits that never reject: a shutdown or a settle step waits for work to finish, but only
 * so long, and a caller's abort ends the wait early without turning it into an error.
 */

/** Resolves when `promise` settles, `ms` pass (never, if undefined) or `signal` aborts. */
export async function waitAtMost(promise: Promise<unknown>, ms: number | undefined, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      promise.then(() => {}, () => {}),
      new Promise<void>((resolve) => {
        if (ms !== undefined) timer = setTimeout(resolve, ms);
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** What `promise` resolves to within `ms`, or `undefined` when it takes longer; rejects as it does. */
export async function valueWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => { timer = setTimeout(resolve, ms, undefined); })]);
  } finally {
    clearTimeout(timer);
  }
}
