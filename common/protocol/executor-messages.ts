/**
 * The messages between the main thread (lib/executor) and a Playwright executor worker
 * (worker/executor), declared once and imported by both sides. Like the REPL protocol, every
 * request carries a `requestId`, every answer repeats it, and a mismatch is treated as protocol
 * corruption (the worker is terminated). Both sides validate what they receive (`validate.ts`).
 *
 * Values cross as JSON text (`resultJson`): the worker applies `JSON.stringify` semantics
 * (`toJSON`, dropped functions, `Map` → `{}`) that structured clone would not.
 */
import type { MessagePort } from 'node:worker_threads';
import type { SerializedError } from '../errors.js';
import { INTERRUPT_ABANDONED, INTERRUPT_REQUESTED } from './repl-messages.js';
import type { EndpointReplyMessage, EndpointRequestMessage } from './repl-messages.js';
import type { WebMcpAbortMessage, WebMcpCallMessage, WebMcpReplyMessage } from './webmcp-messages.js';
import type { HumanAbortMessage, HumanReplyMessage, HumanRequestMessage } from './human-messages.js';

/** Bumped when a message shape changes incompatibly; checked in the startup handshake. */
export const EXECUTOR_PROTOCOL_VERSION = 5;

/** The Playwright flavour an executor drives the browser with. */
export type PlaywrightEngine = 'playwright-core' | 'patchright';

/** Names every executor must match (`default` included). */
export { NAME_PATTERN as EXECUTOR_NAME_PATTERN } from '../limits.js';

/** `workerData` of every executor worker. */
export interface ExecutorStartup {
  protocolVersion: number;
  /** Unique per worker: a replaced worker gets a new id, so tests and logs can tell them apart. */
  workerId: string;
  engine: PlaywrightEngine;
  /** Absent when the port is not a MessagePort (the child-process benchmark baseline). */
  port?: MessagePort;
  /** Where Playwright keeps its temporary files (downloads, traces); the main thread removes it after the worker exits. */
  artifactsDir?: string;
  /**
   * Int32 slots shared with the main thread (issue 27), read by the liveness checks compiled into
   * the code without a message: {@link EXECUTOR_STOP_REQUESTED}, {@link EXECUTOR_STOP_ABANDONED},
   * {@link EXECUTOR_STOP_REASON}. The REPL's checks read the first two the same way.
   */
  interrupts?: SharedArrayBuffer;
}

/** Slot the main thread writes: the `requestId` of the call to stop, or 0 (the REPL's `INTERRUPT_REQUESTED`: the checks are the same). */
export const EXECUTOR_STOP_REQUESTED = INTERRUPT_REQUESTED;
/** Slot the worker writes: 1 once any call was stopped (what it left behind must stay inert; the REPL's `INTERRUPT_ABANDONED`). */
export const EXECUTOR_STOP_ABANDONED = INTERRUPT_ABANDONED;
/** Slot the main thread writes before the request id: why ({@link STOP_REASON_CODES}). */
export const EXECUTOR_STOP_REASON = 2;
/** Size in bytes of `ExecutorStartup.interrupts`. */
export const EXECUTOR_STOP_BUFFER_BYTES = 12;

/** Why a call is stopped: past its `timeout_sec`, or an interrupt asked for (`POST /playwright/interrupt`). */
export type StopReason = 'timeout' | 'interrupt';
/** {@link StopReason} as the number in slot {@link EXECUTOR_STOP_REASON}. */
export const STOP_REASON_CODES: Readonly<Record<StopReason, number>> = { timeout: 1, interrupt: 2 };

// ----- main → worker -------------------------------------------------------------------------

/** Runs one call. The worker starts the `timeoutMs` clock when it receives the message. */
export interface ExecutorRunMessage {
  type: 'run';
  requestId: number;
  code: string;
  /** What is left of the call's budget when the message is sent: the worker's deadline. */
  timeoutMs: number;
  /**
   * The caller's whole budget, which a timeout's message names ("timed out after 1000ms"): the
   * executor's start and tab may have used part of it, so `timeoutMs` can be smaller.
   */
  budgetMs?: number;
  /** Named executors: the tab `page` is bound to (opened and owned by the main thread). */
  targetId?: string;
  /** True when the main thread opened `targetId` for this call (the page may need time to attach). */
  tabCreated?: boolean;
  /** The default executor: tabs that named REPLs and other executors own, never bound as `page`. */
  foreignTargetIds?: string[];
  /**
   * An agent-tool session's executor: every tab of its owner (its own tab and the popups it
   * adopted), all visible to its Playwright besides `targetId`.
   */
  ownTargetIds?: string[];
  /**
   * An agent-tool session's executor: the session's browser context, which its Playwright sees as
   * the default context (its cookies, its new pages; common/cdp/scoped-endpoint.ts).
   */
  browserContextId?: string;
  /** Post each accepted console write as an `output` message while the call runs (a streaming caller). */
  streamOutput?: boolean;
}

/**
 * Stops the running call `requestId` cooperatively (issue 27), for code that waits (on a
 * Playwright call, a timer): its pending Playwright calls are aborted, the connection is kept.
 * Code that computes is reached by the checks through `ExecutorStartup.interrupts` instead.
 */
export interface ExecutorInterruptMessage {
  type: 'interrupt';
  requestId: number;
  reason: StopReason;
}

export type MainToExecutorMessage = ExecutorRunMessage | ExecutorInterruptMessage | EndpointReplyMessage | WebMcpReplyMessage | HumanReplyMessage;

// ----- worker → main -------------------------------------------------------------------------

export interface ExecutorReadyMessage {
  type: 'ready';
  protocolVersion: number;
  workerId: string;
}

/** The tab `page` was bound to for a call. */
export interface ExecutorTab {
  targetId: string;
  created: boolean;
}

/**
 * One console write of the running call, as it happens (only with `streamOutput`): exactly the
 * text the reply's `stdout`/`stderr` gets for it, the truncation note included, so the chunks of
 * a channel joined are that field. Always posted before the call's reply.
 */
export interface ExecutorOutputMessage {
  type: 'output';
  requestId: number;
  channel: 'stdout' | 'stderr';
  text: string;
}

export interface ExecutorReplyMessage {
  type: 'reply';
  requestId: number;
  success: boolean;
  /** `JSON.stringify` of the returned value (`null` for `undefined`); only on success. */
  resultJson?: string;
  /** Why the call failed; its `stack` is already mapped to the user's line numbers. */
  error?: SerializedError;
  /** Captured `console` output of the call. */
  stdout: string;
  stderr: string;
  tab?: ExecutorTab;
  /** The call ran past its timeout and was stopped (its browser connection kept, or dropped when it could not be stopped). */
  timedOut?: boolean;
  /** The call was stopped by an interrupt (`ExecutorInterruptMessage` reason `interrupt`). */
  interrupted?: boolean;
  /** The named executor's tab no longer exists; the code did not run. */
  tabMissing?: boolean;
}

export type ExecutorToMainMessage =
  | ExecutorReadyMessage
  | ExecutorOutputMessage
  | ExecutorReplyMessage
  | EndpointRequestMessage
  | WebMcpCallMessage
  | WebMcpAbortMessage
  | HumanRequestMessage
  | HumanAbortMessage;
