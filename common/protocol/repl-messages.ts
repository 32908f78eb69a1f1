/**
 * The messages exchanged between the main thread (lib/) and a REPL worker (worker/), declared
 * once and imported by both sides. Messages travel over a dedicated MessagePort handed to the
 * worker at startup; image bytes travel as transferred ArrayBuffers, never as base64.
 *
 * Every request from the main thread carries a `requestId`; every answer repeats it, and the
 * host treats a mismatch as protocol corruption (the worker is destroyed). The worker's own
 * requests (`endpoint-request`, `webmcp-call`) carry ids of the worker's, answered whenever the
 * host is done, outside the pending request. Both sides validate what they receive
 * (`validate.ts`); every error that crosses is a `SerializedError`.
 */
import type { MessagePort } from 'node:worker_threads';
import type { SerializedError } from '../errors.js';
import type { ToolMessage, ToolResultMessage } from './tool-messages.js';
import type { WebMcpAbortMessage, WebMcpCallMessage, WebMcpReplyMessage } from './webmcp-messages.js';
import type { HumanAbortMessage, HumanReplyMessage, HumanRequestMessage } from './human-messages.js';

export type { ToolMessage, ToolResultMessage } from './tool-messages.js';
export type { WebMcpAbortMessage, WebMcpCallMessage, WebMcpReplyMessage } from './webmcp-messages.js';
export type { HumanAbortMessage, HumanReplyMessage, HumanRequestMessage } from './human-messages.js';

/** Bumped when a message shape changes incompatibly; checked in the startup handshake. */
export const PROTOCOL_VERSION = 7;

/** `workerData` of every REPL worker. */
export interface WorkerStartup {
  protocolVersion: number;
  replId: string;
  port: MessagePort;
  /** Whether the host can provide a browser endpoint (pure-Node REPLs get a clear error instead). */
  browser: { available: boolean };
  /**
   * Four Int32 slots shared with the host (issue 15): the host writes the `requestId` of a cell
   * past its deadline into slot {@link INTERRUPT_REQUESTED}, which the cell's checks read without
   * a message; the worker sets slot {@link INTERRUPT_ABANDONED} once a cell was interrupted,
   * writes the `requestId` of each cell it begins into slot {@link CELL_STARTED}, and that of a
   * cell whose interrupt it acted on into slot {@link INTERRUPT_SEEN}.
   */
  interrupts?: SharedArrayBuffer;
  /** Whether cells get the liveness checks (default true); without them only ending the worker stops a cell. */
  interruptChecks?: boolean;
  /**
   * The name of the flag the cell checks read (a global of the cell context, an identifier), when
   * the host raises it through the inspector to interrupt a busy cell (issue 26;
   * lib/threads/thread-interrupter.ts). Absent when the host has no inspector: the checks then
   * read {@link WorkerStartup.interrupts} themselves.
   */
  interruptFlag?: string;
  /**
   * Where Node's compile cache keeps the runtime's code (Node >= 22.1): the worker's own
   * os.tmpdir() is a folder that goes with it (lib/system/thread-temp.ts), so the default would
   * cache nothing across REPLs.
   */
  compileCacheDir?: string;
}

/** Slot of `WorkerStartup.interrupts` the host writes: the `requestId` of the cell to stop, or 0. */
export const INTERRUPT_REQUESTED = 0;
/** Slot the worker writes: 1 once any cell was interrupted (what it left behind must stay inert). */
export const INTERRUPT_ABANDONED = 1;
/**
 * Slot the worker writes as it begins a cell, before any of the cell runs: its `requestId`. A
 * worker that dies before writing it never ran the cell, so the host can run it on a fresh worker
 * instead of reporting a crash (the worker may have died between cells, a moment before the host
 * noticed). Shared memory rather than a message (issue 26): seen at once, and one message fewer
 * per cell on both threads.
 */
export const CELL_STARTED = 2;
/**
 * Slot the worker writes when it acts on an interrupt (a check threw it, or the `interrupt`
 * message stopped a waiting cell): that cell's `requestId`. The cell is then unwinding and its
 * answer is coming, which may take longer than the grace period when the stack is deep: a
 * recursion that catches its own stack overflow unwinds thousands of frames, each leaving
 * optimised code that assumed the flag constant (tens to hundreds of milliseconds on a loaded
 * machine). The host then waits longer instead of ending a worker that is about to answer.
 */
export const INTERRUPT_SEEN = 3;
/** Size in bytes of `WorkerStartup.interrupts`. */
export const INTERRUPT_BUFFER_BYTES = 16;

// ----- main → worker -------------------------------------------------------------------------

export interface ExecuteMessage {
  type: 'execute';
  requestId: number;
  code: string;
  /**
   * Absolute deadline (epoch ms) that helpers clamp their own waits below. The timeout itself is
   * the host's (its timer interrupts the cell), so the worker is not told its length.
   */
  deadline: number;
}

/**
 * The cell `requestId` ran past its deadline: stop it, keep the REPL (issue 15). Sent with the
 * shared flag, for a cell that waits (on a page, a timer) and so reaches no check; answered by the
 * cell's `result` with `interrupted: true`, unless the worker is stuck where nothing can reach it.
 */
export interface InterruptMessage {
  type: 'interrupt';
  requestId: number;
}

/** Set (string) or restore/unset (null) environment variables in the running REPL. */
export interface EnvMessage {
  type: 'env';
  requestId: number;
  set: Record<string, string | null>;
}

/** The host's answer to an `endpoint-request`: the endpoint, or why there is none. */
export interface EndpointReplyMessage {
  type: 'endpoint-reply';
  requestId: number;
  endpoint?: string;
  /** The tab the requesting worker owns, when it owns one. */
  targetId?: string;
  /** Tabs that others own (targetId → owner, e.g. `repl:search`): never attached automatically. */
  tabOwners?: Record<string, string>;
  /**
   * The browser context of the requesting worker's own tab, when it has one of its own (an
   * agent-tool session): a cell's Playwright sees it as the default context.
   */
  browserContextId?: string;
  /** The host's download folders for the requesting worker (lib/chromium/downloads.ts). */
  downloads?: { incoming: string; folder: string };
  error?: SerializedError;
}

/**
 * Tells a worker which REPL it serves, once, before its first cell. Workers are started unnamed so
 * that one warm spare can serve any REPL of a host; the one that takes it names it.
 */
export interface ConfigureMessage {
  type: 'configure';
  /** Name of the REPL within its host (`repl.name` in cells). */
  name: string;
  /** True for a REPL that owns a tab of its own (a named REPL of a host); its endpoint replies name it. */
  ownsTab: boolean;
}

/**
 * Asks the worker to connect to its browser and attach its page now, before any cell needs it: a
 * browser taken from the warm pool then answers its first helper call without that set-up
 * (docs/browsers.md). Best effort: a failure leaves the connecting to the first helper, and the
 * worker answers `warmed` either way.
 */
export interface WarmMessage {
  type: 'warm';
  requestId: number;
}

/** Asks the worker to end by itself: close its browser connection and exit (graceful close). */
export interface ShutdownMessage {
  type: 'shutdown';
}

export type MainToWorkerMessage =
  | ConfigureMessage
  | ExecuteMessage
  | InterruptMessage
  | EnvMessage
  | EndpointReplyMessage
  | WarmMessage
  | ToolMessage
  | WebMcpReplyMessage
  | HumanReplyMessage
  | ShutdownMessage;

// ----- worker → main -------------------------------------------------------------------------

export interface ReadyMessage {
  type: 'ready';
  protocolVersion: number;
  replId: string;
}

export type OutputChannel = 'write' | 'stdout' | 'stderr';

export interface TextItem {
  type: 'text';
  channel: OutputChannel;
  text: string;
}

/** An image as it crosses the thread boundary: the ArrayBuffer is in the transfer list. */
export interface ImageItem {
  type: 'image';
  mimeType: string;
  bytes: ArrayBuffer;
}

export type OutputItem = TextItem | ImageItem;

/** One output item of the running cell, posted as soon as it is accepted by the collector. */
export interface OutputMessage {
  type: 'output';
  requestId: number;
  item: OutputItem;
}

export interface ResultMessage {
  type: 'result';
  requestId: number;
  success: boolean;
  /**
   * What the cell threw (`message`, `stack` with the runtime's frames trimmed, and `code` when
   * the thrown value had a string one: internal, not in the HTTP response).
   */
  error?: SerializedError;
  contentTruncated: boolean;
  durationMs: number;
  /** The cell was stopped by an interrupt (its deadline): the worker and its bindings live on. */
  interrupted?: boolean;
}

/** The answer to a `warm`: the page is attached (or attaching failed and the first helper retries). */
export interface WarmedMessage {
  type: 'warmed';
  requestId: number;
}

export interface EnvAppliedMessage {
  type: 'env-applied';
  requestId: number;
}

/** The worker asks the host for the browser's DevTools endpoint (launching it if needed). */
export interface EndpointRequestMessage {
  type: 'endpoint-request';
  requestId: number;
  /** Set when the worker saw the previous endpoint die: the host relaunches if it owns the browser. */
  previous?: string;
  /** The worker's own tab, which it found closed: the host opens a new one for it. */
  tabGone?: string;
  /** Apply the host's download behaviour again before answering (waitForDownload). */
  reapplyDownloads?: boolean;
}

/**
 * The worker's attached tab changed (switchTab, newTab, a replacement after a close): the host's
 * live view, recordings and computer controls follow the default REPL's tab (docs/live-view.md).
 * A notice, never answered.
 */
export interface AttachedMessage {
  type: 'attached';
  targetId: string;
}

export type WorkerToMainMessage =
  | ReadyMessage
  | OutputMessage
  | ResultMessage
  | EnvAppliedMessage
  | WarmedMessage
  | ToolResultMessage
  | EndpointRequestMessage
  | AttachedMessage
  | WebMcpCallMessage
  | WebMcpAbortMessage
  | HumanRequestMessage
  | HumanAbortMessage;
