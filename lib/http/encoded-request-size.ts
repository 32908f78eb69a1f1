/**
 * Size of a cell as the contract's daemon request line (`{"id","code","timeout_ms"}`), so the
 * `code too large` rule (contract §1.1 step 6) gives the same answer as the hosted product.
 */
const UUID_LENGTH = 36;
// Go's encoder escapes \b and \f as \u0008/\u000c and U+2028/U+2029 as \u2028/\u2029; JSON.stringify does not.
const EXTRA_ESCAPES = /[\b\f\u2028\u2029]/g;

export function encodedRequestBytes(code: string, timeoutMs: number): number {
  const line = JSON.stringify({ id: 'x'.repeat(UUID_LENGTH), code, timeout_ms: timeoutMs });
  let bytes = Buffer.byteLength(line, 'utf8');
  for (const match of code.matchAll(EXTRA_ESCAPES)) bytes += match[0] === '\b' || match[0] === '\f' ? 4 : 3;
  return bytes;
}
