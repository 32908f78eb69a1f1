/**
 * What every command shares: the usage error (exit code 2), flag parsing that turns
 * `node:util` parseArgs failures into usage errors, number flags with their bounds, and the
 * connection flags of the client commands (`run`, `shell`).
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** The default server of `run` and `shell` (the default of `serve`). */
export const DEFAULT_URL = 'http://127.0.0.1:10001';

/** Exit codes of every command (docs/cli.md#exit-codes). */
export const EXIT = { ok: 0, cellFailed: 1, usage: 2, interrupted: 130 } as const;

/** A wrong command line, or a server that cannot be used (refused, 401, 4xx): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command whose `help` is worth pointing at, when the command line was the problem. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** `parseArgs`, strict, with its errors (unknown flag, missing value, …) as {@link UsageError}s. */
export function parseFlags<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, ...config });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message, command);
    throw error;
  }
}

/** An integer flag within `[min, max]`, or undefined when it was not given. */
export function integerFlag(value: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER, command?: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer between ${min} and ${max}`;
    throw new UsageError(`${flag} must be ${range}, got ${JSON.stringify(value)}`, command);
  }
  return number;
}

/** Flags of the commands that talk to a server. */
export const CONNECTION_FLAGS = {
  url: { type: 'string' },
  token: { type: 'string' },
  browser: { type: 'string' },
  repl: { type: 'string' },
  timeout: { type: 'string' },
  'out-dir': { type: 'string' },
} as const;

/** The connection flags, resolved against the environment. */
export interface Connection {
  url: string;
  token: string | undefined;
  browser: string | undefined;
  repl: string | undefined;
  timeoutSec: number | undefined;
  outDir: string;
}

export function connectionFrom(
  values: { url?: string | undefined; token?: string | undefined; browser?: string | undefined; repl?: string | undefined; timeout?: string | undefined; 'out-dir'?: string | undefined },
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): Connection {
  const url = values.url ?? env['BROWSER_REPL_URL'] ?? DEFAULT_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL, got ${JSON.stringify(url)}`, command);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`--url must be an http:// or https:// URL, got ${JSON.stringify(url)}`, command);
  }
  const token = values.token ?? env['BROWSER_REPL_TOKEN'];
  for (const flag of ['browser', 'repl'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} must not be empty`, command);
  }
  return {
    url,
    token: token === '' ? undefined : token,
    browser: values.browser,
    repl: values.repl,
    // The server's bounds (openapi.json BrowserReplRequest.timeout_sec), checked here to fail before connecting.
    timeoutSec: integerFlag(values.timeout, '--timeout', 1, 300, command),
    outDir: values['out-dir'] ?? '.',
  };
}
