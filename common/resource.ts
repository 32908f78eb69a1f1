/**
 * The lifecycle of an owner of resources (a browser, the registry of browsers, …), written once:
 *
 *   open ──close()──▶ closing ──▶ disposed
 *     └───destroy()──▶ destroying ──▶ disposed      (destroy() during closing escalates to destroying)
 *
 * - `close()` is graceful: running work may finish. `destroy()` is forceful: running work is
 *   cancelled. Both end with everything the owner holds released.
 * - Concurrent callers of `close()` share one promise, and so do those of `destroy()`: the work
 *   runs once, and nobody is told "done" before it is.
 * - `close()` after `destroy()` began is a no-op that resolves with the destruction; `destroy()`
 *   after the owner is disposed is a no-op too. `destroy()` while `close()` runs does not wait for
 *   the graceful end: it runs the forceful one (a shutdown that ran out of patience).
 * - `[Symbol.asyncDispose]` is `close()`, so `await using` ends an owner gracefully.
 *
 * The shape is undici's dispatcher base (close, destroy, callers queued on one promise); subclasses
 * write only what closing (and, when it differs, destroying) means for them.
 */
export type ResourceState = 'open' | 'closing' | 'destroying' | 'disposed';

export abstract class Resource {
  #closing: Promise<void> | undefined;
  #destroying: Promise<void> | undefined;
  #disposed = false;
  /** Ends running now: a `destroy()` that escalates a `close()` makes two. */
  #running = 0;

  /** Ends gracefully: what the subclass waits for (running cells, say) before it releases everything. */
  protected abstract closeGracefully(): Promise<void>;

  /**
   * Ends now: running work is cancelled, everything is released. An owner without a forceful end
   * of its own (one whose close already escalates, say SIGTERM then SIGKILL) leaves this out:
   * destroying then is closing, and a `destroy()` during `close()` waits for that same end.
   */
  protected destroyNow(): Promise<void> {
    return this.#closing ?? this.closeGracefully();
  }

  /** Where the owner is in its lifecycle. */
  get state(): ResourceState {
    if (this.#disposed) return 'disposed';
    if (this.#destroying !== undefined) return 'destroying';
    return this.#closing === undefined ? 'open' : 'closing';
  }

  /** True once `close()` or `destroy()` was called: the owner takes no new work. */
  get closed(): boolean {
    return this.#closing !== undefined || this.#destroying !== undefined;
  }

  /** True once `close()` or `destroy()` has finished its work. */
  get disposed(): boolean {
    return this.#disposed;
  }

  close(): Promise<void> {
    if (this.#destroying !== undefined) return this.#destroying;
    this.#closing ??= this.#run(() => this.closeGracefully());
    return this.#closing;
  }

  destroy(): Promise<void> {
    if (this.#destroying === undefined) {
      this.#destroying = this.#disposed ? Promise.resolve() : this.#run(() => this.destroyNow());
    }
    return this.#destroying;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #run(end: () => Promise<void>): Promise<void> {
    // Deferred by one microtask, so the state is `closing`/`destroying` before any subclass code
    // runs, and a synchronous throw in it becomes a rejection shared by every caller.
    this.#running++;
    await undefined;
    try {
      await end();
    } finally {
      // Disposed once the last end finishes, not when a graceful one overtaken by destroy() does.
      if (--this.#running === 0) this.#disposed = true;
    }
  }
}

/** What {@link lifecycleOf} runs: an owner's graceful end, and its forceful one when that differs. */
export interface LifecycleEnds {
  closeGracefully(): Promise<void>;
  destroyNow?(): Promise<void>;
}

class DelegatedLifecycle extends Resource {
  readonly #ends: LifecycleEnds;

  constructor(ends: LifecycleEnds) {
    super();
    this.#ends = ends;
  }

  protected override closeGracefully(): Promise<void> {
    return this.#ends.closeGracefully();
  }

  protected override destroyNow(): Promise<void> {
    return this.#ends.destroyNow === undefined ? super.destroyNow() : this.#ends.destroyNow();
  }
}

/**
 * The same lifecycle for an owner that cannot extend {@link Resource} (its public `state` says
 * more than the lifecycle does: a REPL is idle, starting, ready or busy while it is open): it keeps
 * one of these and delegates `close()`, `destroy()` and `[Symbol.asyncDispose]` to it.
 */
export function lifecycleOf(ends: LifecycleEnds): Resource {
  return new DelegatedLifecycle(ends);
}
