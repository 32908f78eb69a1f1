/** Entry of a REPL worker thread: the handshake data arrives as `workerData` (common/protocol/repl-messages.ts `WorkerStartup`). */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerStartup } from '../../common/protocol/repl-messages.js';
import { silenceRuntimeExperimentalWarnings } from '../threads/runtime-warnings.js';

silenceRuntimeExperimentalWarnings();

// The runtime talks over its own channel (workerData.port), never over parentPort. Closed, so
// that a cell posting on it (`parentPort.postMessage(hugeValue)`) costs the server's main thread
// nothing: every message on it would be deserialized there, for no listener.
parentPort?.close();

const startup = workerData as WorkerStartup;

// Node >= 22.1: V8 code cache on disk for the runtime's modules (in the folder the host chose,
// WorkerStartup.compileCacheDir), enabled before they load: hence the dynamic import (issue 8).
// Not under coverage collection, which a code cache makes less precise.
const { enableCompileCache } = module as { enableCompileCache?: (directory?: string) => unknown };
if (typeof enableCompileCache === 'function' && process.env['NODE_V8_COVERAGE'] === undefined) enableCompileCache(startup.compileCacheDir);
const { serveRepl } = await import('./serve-repl.js');

serveRepl({
  replId: startup.replId,
  port: startup.port,
  browserAvailable: startup.browser.available,
  interrupts: startup.interrupts,
  interruptChecks: startup.interruptChecks !== false,
  interruptFlag: startup.interruptFlag,
});
