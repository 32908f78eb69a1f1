/** Entry of a Playwright executor worker thread: the handshake data arrives as `workerData` (`ExecutorStartup`). */
import { parentPort, workerData } from 'node:worker_threads';
import type { ExecutorStartup } from '../../common/protocol/executor-messages.js';
import { serveExecutor } from './serve-executor.js';
import { silenceRuntimeExperimentalWarnings } from '../threads/runtime-warnings.js';
import { lockPromiseSpecies } from '../threads/realm-integrity.js';

// Executor code that calls import() runs in a script compiled with USE_MAIN_CONTEXT_DEFAULT_LOADER.
silenceRuntimeExperimentalWarnings();
// Executor code shares this realm: changing Promise's species or `then` would make V8 abort the
// whole server process (see realm-integrity.ts).
lockPromiseSpecies(Promise);
// As in the REPL worker: the executor talks over workerData.port, so parentPort is closed and a
// message posted on it costs the server's main thread nothing.
parentPort?.close();

const startup = workerData as ExecutorStartup;
if (startup.port === undefined) throw new Error('executor worker started without a MessagePort');
serveExecutor({ workerId: startup.workerId, engine: startup.engine, port: startup.port, artifactsDir: startup.artifactsDir, interrupts: startup.interrupts });
