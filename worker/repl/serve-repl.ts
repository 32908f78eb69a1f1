/**
 * The REPL runtime's message loop. Reads top to bottom: build the runtime (repl-runtime.ts) →
 * post `ready` → route each message from the host to the handler of its kind until the host ends
 * the thread. Every message from the host is validated first; a malformed one is a host bug and
 * ends this worker (uncaught). Requests that run code (`execute`, `tool`, `warm`, `env`,
 * `shutdown`) wait their turn in one queue; answers and signals (`interrupt`, `endpoint-reply`,
 * `webmcp-reply`, `configure`) are handled at once, since what they answer or stop is what the
 * queue is running.
 *
 * Uncaught exceptions are deliberately not handled here: they end the worker, and the host turns
 * its `error`/`exit` events into the destructive outcomes (docs/lifecycle.md, "Outcomes").
 *
 * Cells run in this thread and can reach its built-ins and its port; the loop defends itself
 * (worker/threads/realm-integrity.ts, realm-guard.ts): built-ins are put back around every
 * request, the port's listener is put back if a cell removed it, and a failure of the runtime
 * itself after a cell still answers the host.
 */
import { PROTOCOL_VERSION } from '../../common/protocol/repl-messages.js';
import type { MainToWorkerMessage, ReadyMessage, EnvAppliedMessage, WorkerToMainMessage } from '../../common/protocol/repl-messages.js';
import { validateReplHostMessage } from '../../common/protocol/validate.js';
import { ReflectApply, utilInspect } from '../output/primordials.js';
import { CellInterrupts } from './cell-interrupts.js';
import { createReplRuntime } from './repl-runtime.js';
import type { ReplRuntimeOptions } from './repl-runtime.js';
import { createExecuteHandler } from './handlers/execute.js';
import { createToolHandler } from './handlers/tool.js';
import { warmUp } from './handlers/warm.js';

/** What the loop needs of its transport: a MessagePort, or an adapter over child-process IPC. */
export interface ReplPort {
  postMessage(message: WorkerToMainMessage, transfer?: ArrayBuffer[]): void;
  /** Messages arrive unchecked: the loop validates them. */
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** A MessagePort's: lets the loop notice that a cell removed its listener. */
  listenerCount?(event: 'message'): number;
}

export interface ReplStartup extends ReplRuntimeOptions {
  port: ReplPort;
}

/** The handler of each kind of message the host sends, each given its message. */
type HostMessageHandlers = { [Kind in MainToWorkerMessage['type']]: (message: Extract<MainToWorkerMessage, { type: Kind }>) => void };

export function serveRepl(startup: ReplStartup): void {
  const { port } = startup;
  // Captured before any cell runs: a cell may replace the port's methods (it is reachable).
  const portPostMessage = port.postMessage;
  const portOn = port.on;
  const portListenerCount = port.listenerCount;
  const post = (message: WorkerToMainMessage, transfer?: ArrayBuffer[]) => ReflectApply(portPostMessage, port, [message, transfer]);
  const runtime = createReplRuntime(startup, post);
  const { realm, collector } = runtime;

  // A check that threw its interrupt in a callback Node called (a timer of an earlier cell firing
  // while this one is interrupted, an event listener) has no cell code to catch it: that is no
  // fault of the worker. Any other uncaught exception still ends it, with the error as it was
  // (rethrown once this listener is gone, it reaches the host as the worker's 'error').
  process.on('uncaughtException', function passInterrupts(error) {
    realm.touched = true;
    if (CellInterrupts.isInterrupt(error)) return;
    process.removeListener('uncaughtException', passInterrupts);
    throw error;
  });
  process.on('unhandledRejection', (reason) => {
    realm.touched = true;
    // A promise chain of an interrupted cell that ended at its next check: nothing to report.
    if (CellInterrupts.isInterrupt(reason)) return;
    const stack = reason !== null && typeof reason === 'object' ? (reason as { stack?: unknown }).stack : undefined;
    const detail = typeof stack === 'string' ? stack : utilInspect(reason);
    collector.text('stderr',
      `browser-repl: unhandled promise rejection (the REPL survives; only the rejected promise is settled):\n${detail}`);
  });

  /**
   * A cell that removed this loop's listener from the port (`workerData.port.removeAllListeners()`)
   * would leave the worker deaf: the host's next cell would wait for its deadline. Checked after
   * every request, before its answer goes out, so the next message finds the listener again.
   */
  function ensureListening(): void {
    if (portListenerCount === undefined) return;
    if ((ReflectApply(portListenerCount, port, ['message']) as number) === 0) ReflectApply(portOn, port, ['message', onMessage]);
  }

  // The host already serialises calls; this chain is a second guard so two cells can never interleave.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => void | Promise<void>): void => {
    queue = queue.then(async () => {
      try {
        await work();
      } finally {
        ensureListening();
      }
    });
  };

  const execute = createExecuteHandler(runtime);
  const runTool = createToolHandler(runtime);
  const handlers: HostMessageHandlers = {
    'execute': (message) => enqueue(() => execute(message)),
    'tool': (message) => enqueue(() => runTool(message)),
    'env': (message) => enqueue(() => {
      for (const [name, value] of Object.entries(message.set)) {
        if (value === null) delete process.env[name];
        else process.env[name] = value;
      }
      post({ type: 'env-applied', requestId: message.requestId } satisfies EnvAppliedMessage);
    }),
    // In the queue, so a cell sent after it finds the page attached (or its own attach running).
    'warm': (message) => enqueue(() => warmUp(runtime, message)),
    // Let queued work finish first; then close the browser connection cleanly and exit.
    'shutdown': () => enqueue(async () => {
      await runtime.helperContext.closeClient().catch(() => undefined);
      realm.exit(0);
    }),
    // Not queued: the cell it stops is what the queue is running.
    'interrupt': (message) => runtime.interrupts.requested(message.requestId),
    // Before any cell by the host's order, and before the CDP client exists (it is created by the
    // first browser helper), so the client is built for the right REPL.
    'configure': (message) => {
      runtime.identity.name = message.name;
      runtime.identity.ownsTab = message.ownsTab;
    },
    // Answers the host sends settle promises that code of a cell may await, between requests too.
    'endpoint-reply': (message) => {
      realm.touched = true;
      runtime.endpoints.receive(message);
    },
    // Not queued: the cell that waits for it is what the queue is running.
    'webmcp-reply': (message) => {
      realm.touched = true;
      runtime.webmcp.receive(message);
    },
    'human-reply': (message) => {
      realm.touched = true;
      runtime.human.receive(message);
    },
  };
  const onMessage = (raw: unknown): void => {
    const checked = validateReplHostMessage(raw);
    if (!checked.ok) throw new TypeError(`browser REPL received a malformed message from the host (${checked.error})`);
    const message = checked.message;
    (handlers[message.type] as (message: MainToWorkerMessage) => void)(message);
  };
  ReflectApply(portOn, port, ['message', onMessage]);

  post({ type: 'ready', protocolVersion: PROTOCOL_VERSION, replId: startup.replId } satisfies ReadyMessage);
}
