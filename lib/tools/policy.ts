/**
 * What `open` may reach (docs/agent-tools.md, "Security"): only http: and https: URLs, so a page can never
 * read the host's files through `file:` or run script through `javascript:`; and, when configured,
 * only allowed origins and never blocked ones. Pure, so it is unit-tested without a browser
 * (test/unit/tool-policy.test.mjs).
 */
import { ReplError } from '../../common/errors.js';

/** One origin pattern: `https://example.com[:port]` (that origin), `example.com` (that host, any scheme), `*.example.com` (its subdomains). */
interface OriginPattern {
  text: string;
  test(url: URL): boolean;
}

function refused(message: string): ReplError {
  return new ReplError('REPL_ERR_URL_NOT_ALLOWED', message);
}

export function parseOriginPattern(text: string, field: string): OriginPattern {
  if (typeof text !== 'string' || text.trim() === '') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}: origin patterns must be non-empty strings`);
  const pattern = text.trim().toLowerCase();
  if (pattern.includes('://')) {
    let origin: string;
    try {
      origin = new URL(pattern).origin;
    } catch {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}: ${JSON.stringify(text)} is not an origin (write https://example.com, example.com or *.example.com)`);
    }
    return { text, test: (url) => url.origin === origin };
  }
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return { text, test: (url) => url.hostname.endsWith(suffix) && url.hostname.length > suffix.length };
  }
  if (!/^[a-z0-9.-]+(?::\d+)?$|^\[[0-9a-f:.]+\](?::\d+)?$/.test(pattern)) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field}: ${JSON.stringify(text)} is not an origin (write https://example.com, example.com or *.example.com)`);
  }
  return { text, test: (url) => (pattern.includes(':') && !pattern.startsWith('[') ? url.host === pattern : url.hostname === pattern || url.host === pattern) };
}

export class UrlPolicy {
  readonly #allowed: OriginPattern[] | undefined;
  readonly #blocked: OriginPattern[];

  constructor(options: { allowedOrigins?: readonly string[] | undefined; blockedOrigins?: readonly string[] | undefined } = {}) {
    this.#allowed = options.allowedOrigins?.map((text) => parseOriginPattern(text, 'allowedOrigins'));
    this.#blocked = (options.blockedOrigins ?? []).map((text) => parseOriginPattern(text, 'blockedOrigins'));
  }

  /**
   * The URL `open` navigates to, or why not.
   * @throws ReplError `REPL_ERR_URL_NOT_ALLOWED`
   */
  check(raw: unknown): URL {
    if (typeof raw !== 'string' || raw.trim() === '') throw refused('url must be a non-empty string such as https://example.com/');
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw refused(`${JSON.stringify(raw.slice(0, 200))} is not an absolute URL; give one with its scheme, such as https://example.com/`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refused(`only http: and https: URLs are opened; ${url.protocol} URLs are refused, since they could read local files, run script or reach browser internals`);
    }
    const blocked = this.#blocked.find((pattern) => pattern.test(url));
    if (blocked !== undefined) throw refused(`${url.origin} is blocked by the tool policy (blockedOrigins: ${blocked.text})`);
    if (this.#allowed !== undefined && !this.#allowed.some((pattern) => pattern.test(url))) {
      throw refused(`${url.origin} is not in the allowed origins (${this.#allowed.map((pattern) => pattern.text).join(', ') || 'none'})`);
    }
    return url;
  }
}
