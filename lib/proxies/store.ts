/**
 * The proxies of `/proxies`, kept in one file of the server's data directory
 * (`<dataDir>/proxies.json`, mode 0600 in a folder the server creates 0700): passwords are stored
 * there, in clear, because the relay must send them; no answer ever carries one (docs/security.md).
 * The file is written whole, to a temporary file renamed over it, so a crash mid-write leaves the
 * previous one. It is created only when a first proxy is, so a server that never uses proxies writes
 * nothing.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createId } from '@paralleldrive/cuid2';

import { ReplError } from '../../common/errors.js';
import type { ProxyInit, StoredProxy } from './config.js';

const FILE = 'proxies.json';
const FORMAT = 1;

export interface ProxyListQuery {
  name?: string | undefined;
  query?: string | undefined;
}

export class ProxyStore {
  readonly #dir: string;
  readonly #file: string;
  readonly #proxies = new Map<string, StoredProxy>();

  /** Reads `<dataDir>/proxies.json` when there is one. @throws when it exists but cannot be read. */
  constructor(dataDir: string) {
    this.#dir = dataDir;
    this.#file = join(dataDir, FILE);
    let text: string | undefined;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      const parsed = JSON.parse(text) as { format?: number; proxies?: StoredProxy[] };
      for (const proxy of parsed.proxies ?? []) this.#proxies.set(proxy.id, proxy);
    }
  }

  /** Where the proxies are kept. */
  get file(): string {
    return this.#file;
  }

  create(init: ProxyInit): StoredProxy {
    const proxy: StoredProxy = { ...init, bypassHosts: [...init.bypassHosts], id: createId(), createdAt: new Date().toISOString() };
    this.#proxies.set(proxy.id, proxy);
    this.#save();
    return proxy;
  }

  /** @throws ReplError `REPL_ERR_PROXY_NOT_FOUND` naming `field` */
  get(id: string, field = 'id'): StoredProxy {
    const proxy = this.#proxies.get(id);
    if (proxy === undefined) throw new ReplError('REPL_ERR_PROXY_NOT_FOUND', `${field}: no proxy with id "${id}" (GET /proxies lists them)`);
    return proxy;
  }

  /** Oldest first; `name` matches exactly, case-insensitively; `query` a substring of name or host, or the id exactly. */
  list(filter: ProxyListQuery = {}): StoredProxy[] {
    const name = filter.name?.toLowerCase();
    const query = filter.query?.toLowerCase();
    return [...this.#proxies.values()].filter((proxy) => {
      if (name !== undefined && name !== '' && proxy.name?.toLowerCase() !== name) return false;
      if (query !== undefined && query !== '') {
        return proxy.id === filter.query || (proxy.name?.toLowerCase().includes(query) ?? false) || proxy.host.toLowerCase().includes(query);
      }
      return true;
    });
  }

  rename(id: string, name: string): StoredProxy {
    const proxy = this.get(id);
    proxy.name = name;
    this.#save();
    return proxy;
  }

  /** Records a check's verdict (a check without a `url` only, as the hosted product). */
  setHealth(id: string, status: 'available' | 'unavailable'): StoredProxy {
    const proxy = this.get(id);
    proxy.status = status;
    proxy.lastChecked = new Date().toISOString();
    this.#save();
    return proxy;
  }

  /** Browsers using it keep their route (the hosted product: "sessions referencing it are not modified"). */
  delete(id: string): void {
    this.get(id);
    this.#proxies.delete(id);
    this.#save();
  }

  #save(): void {
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, proxies: [...this.#proxies.values()] }, null, 2)}\n`, { mode: 0o600 });
    // The mode of a file that existed (a leftover of a crash) is not changed by writeFileSync.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.#file);
  }
}
