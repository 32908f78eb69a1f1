/**
 * Runs tasks one at a time, in arrival order. A task whose signal aborts while it waits is
 * removed without running (a request dropped before admission never touches state: docs/lifecycle.md).
 */
import { abortError } from '../../common/operation.js';

interface Waiter {
  start: () => void;
  signal: AbortSignal | undefined;
}

export class SerialQueue {
  #busy = false;
  #waiters: Waiter[] = [];

  get size(): number {
    return this.#waiters.length + (this.#busy ? 1 : 0);
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const waiter: Waiter = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          new Promise<T>((run) => run(task())).then(
            (value) => { this.#next(); resolve(value); },
            (error: unknown) => { this.#next(); reject(error); });
        },
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index === -1) return;
        this.#waiters.splice(index, 1);
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
      if (!this.#busy) this.#next();
    });
  }

  #next(): void {
    const waiter = this.#waiters.shift();
    this.#busy = waiter !== undefined;
    waiter?.start();
  }
}

