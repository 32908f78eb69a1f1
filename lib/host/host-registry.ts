/** Holds the browsers a server serves, by id. Today the server creates `default`; the /browsers API adds more. */
import { ReplError } from '../../common/errors.js';
import { BrowserHost } from './browser-host.js';
import type { BrowserHostOptions } from './browser-host.js';

export class HostRegistry {
  readonly #hosts = new Map<string, BrowserHost>();
  #closed = false;

  /** Adds a host; its id must be new. */
  add(options: BrowserHostOptions = {}): BrowserHost {
    if (this.#closed) throw new ReplError('REPL_ERR_CLOSED', 'browser REPL is shutting down');
    const host = new BrowserHost(options);
    if (this.#hosts.has(host.id)) throw new ReplError('REPL_ERR_CONFLICT', `a browser with id "${host.id}" already exists`);
    this.#hosts.set(host.id, host);
    return host;
  }

  get(id: string): BrowserHost {
    const host = this.#hosts.get(id);
    if (host === undefined) throw new ReplError('REPL_ERR_NOT_FOUND', `no browser with id "${id}"`);
    return host;
  }

  get size(): number {
    return this.#hosts.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#hosts.values()].map((host) => host.close()));
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#hosts.values()].map((host) => host.destroy()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
