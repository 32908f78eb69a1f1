/**
 * The REPL runtime's message loop. Reads top to bottom: build the context → post `ready` → serve
 * `execute` / `env` messages one at a time until the host ends the thread.
 *
 * Uncaught exceptions are deliberately not handled here: they end the worker, and the host turns
 * its `error`/`exit` events into the contract's destructive outcomes (contract §4).
 */
import { performance } from 'node:perf_hooks';
import { HELP_ENTRIES } from '../../common/help/help-registry.js';
import { PROTOCOL_VERSION } from '../../common/protocol/repl-messages.js';
import type {
  EnvMessage, ExecuteMessage, MainToWorkerMessage, WorkerToMainMessage,
} from '../../common/protocol/repl-messages.js';
import { EndpointBridge } from '../threads/endpoint-bridge.js';
import { CdpClient } from '../cdp/cdp-client.js';
import { HelperContext } from '../helpers/helper-context.js';
import { createBrowserHelpers } from '../helpers/browser-helpers.js';
import { createCapturedConsole } from '../output/captured-console.js';
import { OutputCollector } from '../output/output-collector.js';
import { utilInspect } from '../output/primordials.js';
import { CellEvaluator } from './cell-evaluator.js';
import { createReplContext } from './create-context.js';
import { describeError } from './describe-error.js';
import { createReplNamespace } from './repl-namespace.js';

/** What the loop needs of its transport: a MessagePort, or an adapter over child-process IPC. */
export interface ReplPort {
  postMessage(message: WorkerToMainMessage, transfer?: ArrayBuffer[]): void;
  on(event: 'message', listener: (message: MainToWorkerMessage) => void): unknown;
}

export function serveRepl(startup: { replId: string; port: ReplPort; browserAvailable: boolean }): void {
  const { port } = startup;
  const post = (message: WorkerToMainMessage, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

  const collector = new OutputCollector();
  const endpoints = new EndpointBridge({ post, available: startup.browserAvailable });
  const client = new CdpClient({
    endpointProvider: async ({ previous }) => {
      const endpoint = await endpoints.request(previous);
      // Contract §9: cells find the effective endpoint here (connectOverCDP(process.env.CDP_ENDPOINT)).
      process.env['CDP_ENDPOINT'] = endpoint;
      return endpoint;
    },
  });
  const helperContext = new HelperContext({ client, note: (message) => collector.text('stderr', message) });
  // The client's notes are complete stderr lines already (they carry the browser-repl: prefix).
  client.onNote = (message) => collector.text('stderr', message);
  const repl = createReplNamespace({ id: startup.replId, collector, help: HELP_ENTRIES });
  const context = createReplContext({
    console: createCapturedConsole(collector),
    repl,
    helpers: createBrowserHelpers(helperContext),
    webmcp: Object.freeze({}),
  });
  const evaluator = new CellEvaluator({ context });

  /**
   * A cell that reads CDP_ENDPOINT (to connect Playwright) needs a running browser before it
   * starts: the browser is launched lazily, so make sure it is up and the variable is current.
   */
  async function prepareEndpoint(code: string): Promise<void> {
    if (!startup.browserAvailable || !code.includes('CDP_ENDPOINT')) return;
    try {
      process.env['CDP_ENDPOINT'] = await endpoints.request();
    } catch (error) {
      helperContext.note(`CDP_ENDPOINT is not available: ${(error as Error).message}`);
    }
  }

  process.on('unhandledRejection', (reason) => {
    const stack = reason !== null && typeof reason === 'object' ? (reason as { stack?: unknown }).stack : undefined;
    const detail = typeof stack === 'string' ? stack : utilInspect(reason);
    collector.text('stderr',
      `browser-repl: unhandled promise rejection (the REPL survives; only the rejected promise is settled):\n${detail}`);
  });

  async function execute(message: ExecuteMessage): Promise<void> {
    const { requestId } = message;
    const started = performance.now();
    post({ type: 'started', requestId });
    collector.begin((item, transfer) => post({ type: 'output', requestId, item }, transfer));
    helperContext.beginCell(message.deadline);
    let outcome: { success: true } | ({ success: false } & ReturnType<typeof describeError>);
    try {
      await prepareEndpoint(message.code);
      await evaluator.evaluate(message.code);
      outcome = { success: true };
    } catch (thrown) {
      outcome = { success: false, ...describeError(thrown) };
    }
    helperContext.endCell();
    const { contentTruncated } = collector.end();
    post({
      type: 'result',
      requestId,
      ...outcome,
      contentTruncated,
      durationMs: Math.round(performance.now() - started),
    });
  }

  function applyEnv(message: EnvMessage): void {
    for (const [name, value] of Object.entries(message.set)) {
      if (value === null) delete process.env[name];
      else process.env[name] = value;
    }
    post({ type: 'env-applied', requestId: message.requestId });
  }

  // The host already serialises calls; this chain is a second guard so two cells can never interleave.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (message: MainToWorkerMessage) => {
    switch (message.type) {
      case 'execute':
        queue = queue.then(() => execute(message));
        break;
      case 'env':
        queue = queue.then(() => applyEnv(message));
        break;
      case 'endpoint-reply':
        endpoints.receive(message);
        break;
      case 'shutdown':
        // Let queued work finish first; then close the browser connection cleanly and exit.
        queue = queue.then(async () => {
          await client.close().catch(() => undefined);
          process.exit(0);
        });
        break;
    }
  });

  post({ type: 'ready', protocolVersion: PROTOCOL_VERSION, replId: startup.replId });
}
