/** Rules for REPL environment variables (contract §9.1), shared by the HTTP route and the library. */
import { ReplError } from '../errors.js';
import { LIMITS } from '../limits.js';

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['CDP_ENDPOINT', 'KERNEL_API_ENDPOINT', 'PORT', 'NODE_OPTIONS']);

function invalid(message: string): ReplError {
  return new ReplError('REPL_ERR_INVALID_REQUEST', message);
}

/** Throws REPL_ERR_INVALID_REQUEST with the contract's message for the first offending entry. */
export function validateEnv(env: unknown): asserts env is Record<string, string> {
  if (env === undefined || env === null) throw invalid('env is required');
  if (typeof env !== 'object' || Array.isArray(env)) throw invalid('invalid request body: env must be object');
  const entries = Object.entries(env as Record<string, unknown>);
  if (entries.length > LIMITS.envMaxVariables) throw invalid(`env may contain at most ${LIMITS.envMaxVariables} variables`);
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!NAME_PATTERN.test(name) || Buffer.byteLength(name) > LIMITS.envNameBytes) throw invalid(`invalid env name ${JSON.stringify(name)}`);
    if (RESERVED.has(name) || name.startsWith('BROWSER_REPL_')) throw invalid(`env name ${JSON.stringify(name)} is reserved`);
    if (typeof value !== 'string') throw invalid(`invalid request body: env.${name} must be string`);
    if (Buffer.byteLength(value) > LIMITS.envValueBytes) throw invalid(`env value for ${JSON.stringify(name)} exceeds ${LIMITS.envValueBytes} bytes`);
    if (value.includes('\0')) throw invalid(`env value for ${JSON.stringify(name)} contains a NUL byte`);
  }
}
