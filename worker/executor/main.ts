/** Entry of a Playwright executor worker thread: the handshake data arrives as `workerData` (`ExecutorStartup`). */
import { workerData } from 'node:worker_threads';
import type { ExecutorStartup } from '../../common/protocol/executor-messages.js';
import { serveExecutor } from './serve-executor.js';
import { silenceRuntimeExperimentalWarnings } from '../threads/runtime-warnings.js';

// Executor code that calls import() runs in a script compiled with USE_MAIN_CONTEXT_DEFAULT_LOADER.
silenceRuntimeExperimentalWarnings();

const startup = workerData as ExecutorStartup;
if (startup.port === undefined) throw new Error('executor worker started without a MessagePort');
serveExecutor({ workerId: startup.workerId, engine: startup.engine, port: startup.port, artifactsDir: startup.artifactsDir });
