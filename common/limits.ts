/** Every numeric limit of the contract, in one place (docs/repl.md lists them). */
export const LIMITS = {
  /** POST /repl body. */
  replBodyBytes: 8 * 1024 * 1024,
  /** PUT /repl/env body. */
  envBodyBytes: 1024 * 1024,
  /** Encoded cell request (`{"id","code","timeout_ms"}` JSON line). */
  encodedRequestBytes: 8 * 1024 * 1024,
  textBytesPerResponse: 256 * 1024,
  imageBytes: 8 * 1024 * 1024,
  imageBytesPerResponse: 16 * 1024 * 1024,
  itemsPerExecution: 10_000,
  strayItems: 1_000,
  errorBytes: 64 * 1024,
  stackBytes: 256 * 1024,
  /** Upper bound on everything one cell may send back; beyond it the worker is treated as corrupt. */
  responseBytes: 48 * 1024 * 1024,
  timeoutSecDefault: 60,
  timeoutSecMin: 1,
  timeoutSecMax: 300,
  heapMbDefault: 512,
  /** Cap on a worker's memory outside the V8 heap (Buffers, ArrayBuffers): `BROWSER_REPL_EXTERNAL_MEMORY_MB` (lib/threads/memory-watch.ts). */
  externalMemoryMbDefault: 1024,
  envMaxVariables: 100,
  envNameBytes: 256,
  envValueBytes: 32_768,
  /** POST /process/exec body (command, args, env). */
  processExecBodyBytes: 1024 * 1024,
  /** Bytes kept of each of a command's stdout and stderr; the rest is read and dropped. */
  processOutputBytes: 16 * 1024 * 1024,
  processTimeoutSecDefault: 60,
  processTimeoutSecMin: 1,
  processTimeoutSecMax: 600,
  /** Output kept of one spawned process (stdout and stderr together) for stream readers that connect late; the oldest goes first. */
  processSpawnRingBytes: 1024 * 1024,
  /** Bytes written to a spawned process's stdin that it has not read yet; a write beyond them is refused. */
  processSpawnStdinBacklogBytes: 4 * 1024 * 1024,
  /** Bytes an output stream's reader may fall behind before its stream is ended (it can connect again). */
  processSpawnStreamBacklogBytes: 8 * 1024 * 1024,
  /** Exited processes one browser keeps a record of (the oldest is dropped first). */
  processSpawnExitedKept: 64,
  /** PUT /fs/write_file raw body. */
  fsWriteFileBytes: 64 * 1024 * 1024,
  /** JSON bodies of the other fs routes (paths and a mode). */
  fsBodyBytes: 64 * 1024,
  /** Files an agent tool hands the page inline (`browser_file_upload`'s `files`), decoded, all of one call together. */
  inlineUploadBytes: 5 * 1024 * 1024,
  /** One file put into an MCP session's workspace over REST (`PUT /mcp/files/{path}`). */
  workspaceFileBytes: 64 * 1024 * 1024,
  /** `webmcp.invokeTool`'s input: its JSON, as UTF-8 (Kernel's limit). */
  webmcpInputBytes: 1024 * 1024,
  /** A `tool_ref`'s length in characters (code points), as Kernel checks it. */
  webmcpToolRefMaxChars: 128,
  webmcpTimeoutSecMin: 1,
  webmcpTimeoutSecMax: 120,
  webmcpTimeoutSecDefault: 60,
  /** Largest tool output handed back; a bigger one becomes an `error` result (the page controls its size). */
  webmcpOutputBytes: 1024 * 1024,
  /** `requestHuman`'s and `browser_request_human`'s timeout (docs/live-view.md#hand-over): a person may need minutes. */
  humanTimeoutSecMin: 1,
  humanTimeoutSecMax: 3600,
  humanTimeoutSecDefault: 300,
} as const;

/** Every deadline of worker threads and their tabs, in one place (milliseconds). */
export const TIMEOUTS = {
  /**
   * How long a new REPL worker, or an executor's warm spare started with no call waiting, may take
   * to answer its handshake; an executor worker a call waits for may use the rest of its timeout_sec.
   */
  workerStartupMs: 15_000,
  /**
   * How long a cell past its timeout has to stop once interrupted before its worker is ended: a
   * check throws within microseconds and a waiting cell answers on the message, so only a worker
   * no check reaches uses it up.
   */
  interruptGraceMs: 400,
  /**
   * How much longer the host waits, past the grace period, for a cell whose worker said it acted
   * on the interrupt (`INTERRUPT_SEEN`): it is unwinding a deep stack and its answer is coming.
   */
  interruptUnwindMs: 5_000,
  /** How long a closing worker may take to exit by itself before it is terminated. */
  shutdownGraceMs: 2_000,
  /** How long a running REPL may take to acknowledge an environment update. */
  envApplyMs: 5_000,
  /** A Playwright executor worker silent this long past `timeout_sec` has a blocked event loop and is replaced. */
  executorResponseGraceMs: 5_000,
  /** Shutdown budget for closing the tabs of named executors. */
  tabCloseBudgetMs: 3_000,
  /** How long closing a tab waits until Chromium no longer lists it. */
  tabCloseSettleMs: 5_000,
} as const;

/**
 * Inside a cell, every CDP command and helper wait ends this long before the cell's destructive
 * deadline (the worker is terminated there), so it fails cleanly with its own message instead.
 */
export const DEADLINE_MARGIN_MS = 500;

/** Options of `util.inspect` for `repl.write(nonString)`. */
export const WRITE_INSPECT_OPTIONS = {
  depth: 4,
  maxArrayLength: 100,
  maxStringLength: 8192,
  breakLength: 120,
  compact: true,
} as const;

/**
 * Names of named REPLs and named Playwright executors (`default` included): letters, digits, `_`
 * and `-`, 1 to 64 characters, so a name is safe in a URL path segment as it is.
 */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
