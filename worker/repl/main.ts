/** Entry of a REPL worker thread: the handshake data arrives as `workerData` (common/protocol/repl-messages.ts `WorkerStartup`). */
import { workerData } from 'node:worker_threads';
import type { WorkerStartup } from '../../common/protocol/repl-messages.js';
import { serveRepl } from './serve-repl.js';

const startup = workerData as WorkerStartup;
serveRepl({ replId: startup.replId, port: startup.port, browserAvailable: startup.browser.available });
