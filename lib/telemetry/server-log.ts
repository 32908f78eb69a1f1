/**
 * The server's own log, for `GET /browsers/{id}/logs/stream?source=supervisor&supervisor_process=api`
 * (docs/telemetry.md#logs): the server writes no log file, so its diagnostic lines are kept in an
 * in-process ring, one line per event of the named `diagnostics_channel`s (common/diagnostics.ts:
 * cells and executor calls that ended, workers that exited, Chromium launches and exits) plus what
 * the server adds with `write()`. Bounded (the oldest lines go first); a stream reads the lines
 * already there and follows new ones.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { channels } from '../../common/diagnostics.js';
import type { CellFinishMessage, ChromiumExitMessage, ChromiumLaunchMessage, ExecuteFinishMessage, WorkerExitMessage } from '../../common/diagnostics.js';
import { EventRing } from './event-ring.js';

/** The SDK's `LogEvent`. */
export interface LogLine {
  event: 'log';
  message: string;
  /** ISO 8601. */
  timestamp: string;
}

/** The names `supervisor_process` accepts for the server's own log. */
export const SERVER_LOG_PROCESSES = ['api', 'chromium-repl'] as const;

const MAX_LINES = 2_000;
/** A line's JSON without its message's and timestamp's: `{"event":"log","message":,"timestamp":""}`. */
const LINE_OVERHEAD = '{"event":"log","message":,"timestamp":""}'.length;
const MAX_BYTES = 1024 * 1024;

/** See the module comment. Close it to unsubscribe. */
export class ServerLog {
  readonly ring = new EventRing<LogLine>({ maxEvents: MAX_LINES, maxBytes: MAX_BYTES });
  readonly #unsubscribe: Array<() => void> = [];

  constructor() {
    this.#on<CellFinishMessage>(channels.cellFinish, (m) =>
      `cell finished in ${m.durationMs} ms: ${m.success ? 'ok' : `failed${m.errorCode === undefined ? '' : ` (${m.errorCode})`}`}${m.interrupted ? ', interrupted' : ''}${m.replTerminated ? ', REPL worker ended' : ''}`);
    this.#on<ExecuteFinishMessage>(channels.executeFinish, (m) => `playwright execute on executor ${m.executor} finished in ${m.durationMs} ms: ${m.outcome}`);
    this.#on<WorkerExitMessage>(channels.workerExit, (m) =>
      `${m.kind} worker ${m.workerId} exited: ${m.cause}${m.limit === undefined ? '' : ` (${m.limit})`}${m.deliberate ? ', ended by its owner' : ''}`);
    this.#on<ChromiumLaunchMessage>(channels.chromiumLaunch, (m) => `chromium ${m.relaunch ? 'relaunched' : 'launched'}, pid ${m.pid}`);
    this.#on<ChromiumExitMessage>(channels.chromiumExit, (m) => `chromium pid ${m.pid} exited${m.expected ? '' : ' unexpectedly'}`);
  }

  /** Adds one line (line breaks become spaces: one event is one line). */
  write(message: string): void {
    const line: LogLine = { event: 'log', message: message.replace(/[\r\n]+/g, ' '), timestamp: new Date().toISOString() };
    // One shape: only the message varies, and JSON.stringify of a string is cheap (a cell's line
    // is written on every request: issue 26's fixed cost).
    this.ring.push(line, LINE_OVERHEAD + JSON.stringify(line.message).length + line.timestamp.length);
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  #on<T>(channel: diagnosticsChannel.Channel, format: (message: T) => string): void {
    // Subscribers must not throw (common/diagnostics.ts): a formatting slip is dropped.
    const listener = (message: unknown): void => {
      try {
        this.write(format(message as T));
      } catch {
        // nothing: the log is best effort
      }
    };
    channel.subscribe(listener);
    this.#unsubscribe.push(() => channel.unsubscribe(listener));
  }
}
