/**
 * Cuts UTF-8 text to a byte budget without splitting a character: the contract counts text in
 * UTF-8 bytes, and a cut inside a multi-byte sequence would put U+FFFD into the response.
 */
import { BufferByteLength, BufferFrom, BufferPrototypeToString } from './primordials.js';

/** Returns `text` shortened to at most `maxBytes` UTF-8 bytes, ending on a character boundary. */
export function cutUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (text.length <= maxBytes / 3 || BufferByteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = BufferFrom(text, 'utf8');
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut lands before a lead byte.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return BufferPrototypeToString(bytes, 'utf8', 0, end);
}
