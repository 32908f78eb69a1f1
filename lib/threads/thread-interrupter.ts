/**
 * Raises a flag on a busy worker thread (issue 26): what makes a REPL cell's interrupt checks cost
 * nothing (worker/repl/cell-interrupts.ts). A thread stuck in a loop reads no message, but V8
 * interrupts it at the loop's own stack check whenever another thread asks, and Node's inspector
 * asks when it has a message for that thread. A main-thread inspector session attached to the
 * worker (the `NodeWorker` domain) sends it `Runtime.addBinding`: V8 defines a global of that name
 * in each of the thread's contexts, natively, within a millisecond even in the middle of a loop or
 * at the bottom of a recursion that exhausted its stack. The checks read that global, and V8
 * throws away the optimised code that had folded it to a constant.
 *
 * One session per process, created with the first REPL worker; it attaches every worker thread of
 * this process and detaches at once from those that are not REPL workers (an embedding
 * application's own threads). A connected session does not keep the process alive, and with no
 * domain but `NodeWorker` enabled it costs the attached threads nothing while they run.
 */
import { createRequire } from 'node:module';
import { debuglog } from 'node:util';

import type { Session } from 'node:inspector';

const debug = debuglog('browser-repl:interrupter');

/** What `NodeWorker.attachedToWorker` tells about a worker. */
interface AttachedToWorker {
  sessionId: string;
  workerInfo: { workerId: string; title: string };
}

/** Delivers expressions to worker threads through the inspector; see the module comment. */
export class ThreadInterrupter {
  readonly #session: Session;
  /** threadId → inspector session id of the REPL workers attached. */
  readonly #attached = new Map<number, string>();
  readonly #titleMarker: string;
  #messageId = 0;

  private constructor(session: Session, titleMarker: string) {
    this.#session = session;
    this.#titleMarker = titleMarker;
    session.on('NodeWorker.attachedToWorker', ({ params }: { params: AttachedToWorker }) => this.#onAttached(params));
    session.on('NodeWorker.detachedFromWorker', ({ params }: { params: { sessionId: string } }) => {
      for (const [threadId, sessionId] of this.#attached) if (sessionId === params.sessionId) this.#attached.delete(threadId);
    });
    session.post('NodeWorker.enable', { waitForDebuggerOnStart: false }, (error) => {
      if (error !== null) debug('NodeWorker.enable failed: %s', error.message);
    });
  }

  static #shared: ThreadInterrupter | null | undefined;

  /**
   * The process's interrupter for worker threads whose `name` contains `titleMarker`, or undefined
   * when this Node has no inspector (built without it) or its session cannot connect. Workers
   * started before the first call are attached too.
   */
  static shared(titleMarker: string): ThreadInterrupter | undefined {
    if (ThreadInterrupter.#shared === undefined) ThreadInterrupter.#shared = ThreadInterrupter.#connect(titleMarker);
    return ThreadInterrupter.#shared ?? undefined;
  }

  static #connect(titleMarker: string): ThreadInterrupter | null {
    if (process.features.inspector !== true) return null;
    try {
      // Loaded here, not imported: a Node built without the inspector throws on loading it.
      const { Session } = createRequire(import.meta.url)('node:inspector') as typeof import('node:inspector');
      const session = new Session();
      session.connect();
      return new ThreadInterrupter(session, titleMarker);
    } catch (error) {
      debug('no inspector session: %s', (error as Error).message);
      return null;
    }
  }

  #onAttached({ sessionId, workerInfo }: AttachedToWorker): void {
    if (!workerInfo.title.includes(this.#titleMarker)) {
      this.#session.post('NodeWorker.detach', { sessionId }, () => {});
      return;
    }
    this.#attached.set(Number(workerInfo.workerId), sessionId);
  }

  /**
   * Defines the global `name` (as a binding: a function) in every context of worker `threadId`,
   * as soon as the thread reaches its next interrupt check (a loop back-edge, a function entry,
   * its event loop). Returns false when that thread is not attached (yet): the caller then relies
   * on what the worker reads by itself.
   */
  raise(threadId: number, name: string): boolean {
    const sessionId = this.#attached.get(threadId);
    if (sessionId === undefined) return false;
    // Removed from the agent at once: it stays defined where it was set, but contexts the worker
    // creates later do not get it, and the next raise defines it again.
    for (const method of ['Runtime.addBinding', 'Runtime.removeBinding']) {
      const message = JSON.stringify({ id: ++this.#messageId, method, params: { name } });
      this.#session.post('NodeWorker.sendMessageToWorker', { sessionId, message }, (error) => {
        if (error !== null) debug('%s on thread %d failed: %s', method, threadId, error.message);
      });
    }
    return true;
  }
}
