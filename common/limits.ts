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
  startupTimeoutMs: 15_000,
  envMaxVariables: 100,
  envNameBytes: 256,
  envValueBytes: 32_768,
} as const;

/** Options of `util.inspect` for `repl.write(nonString)`. */
export const WRITE_INSPECT_OPTIONS = {
  depth: 4,
  maxArrayLength: 100,
  maxStringLength: 8192,
  breakLength: 120,
  compact: true,
} as const;
