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
import type { EndpointReplyMessage, EndpointRequestMessage } from './repl-messages.js';
import type { WebMcpAbortMessage, WebMcpCallMessage, WebMcpReplyMessage } from './webmcp-messages.js';

/** Bumped when a message shape changes incompatibly; checked in the startup handshake. */
export const EXECUTOR_PROTOCOL_VERSION = 4;

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
}

// ----- main → worker -------------------------------------------------------------------------

/** Runs one call. The worker starts the `timeoutMs` clock when it receives the message. */
export interface ExecutorRunMessage {
  type: 'run';
  requestId: number;
  code: string;
  timeoutMs: number;
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

export type MainToExecutorMessage = ExecutorRunMessage | EndpointReplyMessage | WebMcpReplyMessage;

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
  /** The call ran past its timeout; the worker dropped its browser connection. */
  timedOut?: boolean;
  /** The named executor's tab no longer exists; the code did not run. */
  tabMissing?: boolean;
}

export type ExecutorToMainMessage =
  | ExecutorReadyMessage
  | ExecutorOutputMessage
  | ExecutorReplyMessage
  | EndpointRequestMessage
  | WebMcpCallMessage
  | WebMcpAbortMessage;
