/**
 * Encryption at rest of stored profiles (docs/browsers.md#profiles), with a key of the server
 * (`profileKey`, `BROWSER_REPL_PROFILE_KEY`): every file of a saved generation is sealed on its
 * own with AES-256-GCM, a fresh 96-bit nonce each, and its path inside the profile as additional
 * data, so a file can be neither read, altered nor moved to another name without the key. Folder
 * names stay readable (they are Chromium's fixed layout and site origins; docs/security.md says so).
 *
 * A sealed file: `MAGIC` (8 bytes), nonce (12), tag (16), ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

import { ReplError } from '../../common/errors.js';

const MAGIC = Buffer.from('CRPROF1\u0000', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** What a sealed file adds to its plaintext. */
export const SEAL_OVERHEAD = MAGIC.length + NONCE_BYTES + TAG_BYTES;

/**
 * The 32-byte key of `text` (64 hex digits, or base64 of 32 bytes), else
 * `REPL_ERR_INVALID_ARGUMENT` naming `source`.
 */
export function parseProfileKey(text: string, source: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64') : undefined;
  if (key?.length !== 32) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${source} must be a 32-byte key: 64 hex digits or 44 base64 characters (for example \`openssl rand -hex 32\`)`);
  }
  return key;
}

/** `plain` sealed for the profile path `relative` (`/`-separated). */
export function seal(plain: Buffer, key: Buffer, relative: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(relative, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, nonce, cipher.getAuthTag(), body]);
}

/** The plaintext of a sealed file. @throws ReplError `REPL_ERR_PROFILE_KEY` (no key, another key, or an altered file) */
export function unseal(sealed: Buffer, key: Buffer | undefined, relative: string): Buffer {
  if (key === undefined) throw keyError('it is encrypted and this server has no profile key (BROWSER_REPL_PROFILE_KEY)');
  if (sealed.length < SEAL_OVERHEAD || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) throw keyError(`${relative} is not a sealed profile file`);
  const nonce = sealed.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  const tag = sealed.subarray(MAGIC.length + NONCE_BYTES, SEAL_OVERHEAD);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(relative, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(SEAL_OVERHEAD)), decipher.final()]);
  } catch (error) {
    throw keyError(`${relative} does not open with this server's profile key (another key, or the file was altered)`, error);
  }
}

function keyError(why: string, cause?: unknown): ReplError {
  return new ReplError('REPL_ERR_PROFILE_KEY', `the stored profile cannot be read: ${why}`, { cause });
}

/**
 * Copies the tree `source` into `target` (created), each regular file transformed by `transform`
 * (given its `/`-separated path relative to the roots); entries `skip` names are left out, and so
 * are links, sockets and other special files. Files are written mode 0600, folders 0700.
 */
export async function transformTree(
  source: string,
  target: string,
  transform: (content: Buffer, relative: string) => Buffer,
  skip: (relative: string) => boolean = () => false,
): Promise<void> {
  const walk = async (from: string, to: string, relative: string): Promise<void> => {
    await mkdir(to, { recursive: true, mode: 0o700 });
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (skip(rel)) continue;
      if (entry.isDirectory()) await walk(path.join(from, entry.name), path.join(to, entry.name), rel);
      else if (entry.isFile()) {
        const content = transform(await readFile(path.join(from, entry.name)), rel);
        const handle = await open(path.join(to, entry.name), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
        try {
          await handle.writeFile(content);
        } finally {
          await handle.close();
        }
      }
    }
  };
  await walk(source, target, '');
}
