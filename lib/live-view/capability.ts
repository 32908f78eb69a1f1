/**
 * The live view's capability: an HMAC over the browser id, the expiry and the read-only flag, so
 * that one URL opens one browser's view, until it expires, with the rights it was minted with.
 * The key is the server's token, or a random secret of this process when the server runs without
 * one: a capability is always required (a server without a token still must not show its
 * browsers to whoever guesses an id). Capabilities minted by a process without a token die with it.
 *
 * Form: `lv1.<expiry in Unix seconds, 0 = the browser's life>.<r|w>.<base64url HMAC-SHA256>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'lv1';

/** What a valid capability grants. */
export interface LiveViewGrant {
  readonly browserId: string;
  /** When it stops opening the view; null: for the browser's life. */
  readonly expiresAt: Date | null;
  readonly readOnly: boolean;
}

export class LiveViewKeys {
  readonly #secret: Buffer;

  /** `token`: the server's token; without one, a random secret of this process. */
  constructor(token?: string | undefined) {
    this.#secret = token === undefined || token === '' ? randomBytes(32) : Buffer.from(`live-view:${token}`);
  }

  /** The capability for `browserId` (an id, never a name: names change). */
  mint(browserId: string, options: { expiresAt?: Date | null | undefined; readOnly?: boolean | undefined } = {}): string {
    const expiry = options.expiresAt === undefined || options.expiresAt === null ? 0 : Math.ceil(options.expiresAt.getTime() / 1000);
    const mode = options.readOnly === true ? 'r' : 'w';
    return `${PREFIX}.${expiry}.${mode}.${this.#sign(browserId, expiry, mode)}`;
  }

  /**
   * What `capability` grants for `browserId`, or undefined when it is malformed, forged, another
   * browser's, or expired (at `now`).
   */
  verify(capability: string | null | undefined, browserId: string, now = Date.now()): LiveViewGrant | undefined {
    if (typeof capability !== 'string' || capability.length > 200) return undefined;
    const match = /^lv1\.(0|[1-9]\d{0,11})\.([rw])\.([A-Za-z0-9_-]{43})$/.exec(capability);
    if (match === null) return undefined;
    const expiry = Number(match[1]);
    const mode = match[2]!;
    const given = Buffer.from(match[3]!, 'base64url');
    const expected = Buffer.from(this.#sign(browserId, expiry, mode), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (expiry !== 0 && expiry * 1000 <= now) return undefined;
    return { browserId, expiresAt: expiry === 0 ? null : new Date(expiry * 1000), readOnly: mode === 'r' };
  }

  #sign(browserId: string, expiry: number, mode: string): string {
    return createHmac('sha256', this.#secret).update(`${PREFIX}\n${browserId}\n${expiry}\n${mode}`).digest('base64url');
  }
}
