/**
 * Counts the API requests being answered, so that a drain can wait until none is left. Probes,
 * scrapes and an MCP client's notification stream (GET /mcp, open for the whole session) are not
 * work a drain waits for; MCP tool calls are POSTs and count.
 */
import type { RequestHandler } from 'express';

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/pressure']);

export class InFlightRequests {
  #count = 0;
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  get count(): number {
    return this.#count;
  }

  /** Resolves once no counted request is being answered (at once, when none is). */
  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    if (this.#idle === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => { resolve = settle; });
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      if (PROBE_PATHS.has(req.path) || (req.method === 'GET' && req.path === '/mcp')) {
        next();
        return;
      }
      this.#count++;
      res.once('close', () => {
        this.#count--;
        if (this.#count === 0 && this.#idle !== undefined) {
          this.#idle.resolve();
          this.#idle = undefined;
        }
      });
      next();
    };
  }
}
