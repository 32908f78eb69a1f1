/**
 * The pure part of proxies (docs/browsers.md#proxies): what a `POST /proxies` body may say, what
 * an answer shows of a stored proxy (never its password), the bypass rules the relay applies, the
 * `Proxy-Authorization` it adds, and the Chromium flags that send a browser to its relay.
 *
 * Only `custom` proxies exist here: the other types of the hosted product (datacenter, isp,
 * residential, mobile) are its proxy network, which this server does not have.
 */
import { ReplError } from '../../common/errors.js';

/** The proxy types of the SDK's `ProxyCreateParams`. */
export const PROXY_TYPES = ['datacenter', 'isp', 'residential', 'mobile', 'custom'] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];
export type ProxyProtocol = 'http' | 'https';

/** Where a custom proxy is and how to log in to it: what the relay and `check` need. */
export interface ProxyUpstream {
  protocol: ProxyProtocol;
  host: string;
  port: number;
  username?: string | undefined;
  password?: string | undefined;
  /** The proxy's `bypass_hosts`, as given. */
  bypassHosts: readonly string[];
}

/** A proxy as the store keeps it (password included: the file is the server's own, mode 0600). */
export interface StoredProxy extends ProxyUpstream {
  id: string;
  type: 'custom';
  name?: string | undefined;
  createdAt: string;
  /** Of the last `check` without a `url` (the hosted product's rule: a check of a given URL does not change the health). */
  lastChecked?: string | undefined;
  status?: 'available' | 'unavailable' | undefined;
}

/** The SDK's `ProxyCreateResponse` (and retrieve, list, update): the password only as `has_password`. */
export interface WireProxy {
  id: string;
  type: 'custom';
  name?: string;
  protocol: ProxyProtocol;
  bypass_hosts: string[];
  config: { host: string; port: number; username?: string; has_password: boolean };
  last_checked?: string;
  status?: 'available' | 'unavailable';
}

/** The hosted product's minimum password length (its custom-proxy docs). */
const MIN_PASSWORD = 5;
const MAX_FIELD = 1024;
const MAX_NAME = 255;
const MAX_BYPASS_HOSTS = 100;
/** A host name or IPv4 address, or an IPv6 literal in brackets or bare. */
const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/;
/** A bypass entry: `host`, `*.domain`, `.domain`, `*` , each optionally `:port`, or Chromium's `<local>` / `<-loopback>`. */
const BYPASS_PATTERN = /^(?:<local>|<-loopback>|\*|(?:\*\.|\.)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?::\d{1,5})?|\[[0-9A-Fa-f:.]+\](?::\d{1,5})?)$/;

/** What a valid `POST /proxies` body becomes (before the store gives it an id). */
export type ProxyInit = Omit<StoredProxy, 'id' | 'createdAt' | 'lastChecked' | 'status'>;

/**
 * Checks a `POST /proxies` body (already shaped by openapi.json's `ProxyCreateRequest`).
 *
 * @throws ReplError `REPL_ERR_PROXY_TYPE_UNSUPPORTED` for a type other than `custom`,
 *   `REPL_ERR_INVALID_REQUEST` naming the field for the rest.
 */
export function checkProxyCreate(body: Record<string, unknown>): ProxyInit {
  const type = body['type'];
  if (typeof type !== 'string' || !(PROXY_TYPES as readonly string[]).includes(type)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `type must be one of ${PROXY_TYPES.join(', ')}`);
  }
  if (type !== 'custom') {
    throw new ReplError('REPL_ERR_PROXY_TYPE_UNSUPPORTED',
      `type "${type}" needs the hosted product's proxy network, which this server does not have: create a type "custom" proxy with config.host and config.port of a proxy you run (docs/browsers.md#proxies)`);
  }
  const config = body['config'];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'config is required for a custom proxy: {host, port, username?, password?}');
  }
  const fields = config as Record<string, unknown>;
  const host = checkHost(fields['host']);
  const port = fields['port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'config.port must be an integer from 1 to 65535');
  }
  const username = optionalText(fields['username'], 'config.username');
  const password = optionalText(fields['password'], 'config.password');
  if (password !== undefined && password.length < MIN_PASSWORD) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `config.password must be at least ${MIN_PASSWORD} characters`);
  }
  if (password !== undefined && username === undefined) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'config.password needs config.username (Basic proxy authentication sends both)');
  }
  if (username !== undefined && username.includes(':')) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', 'config.username must not contain ":" (Basic authentication separates it from the password with one)');
  }
  const protocol = body['protocol'] ?? 'https';
  if (protocol !== 'http' && protocol !== 'https') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'protocol must be http or https');
  const name = body['name'] === undefined ? undefined : checkName(body['name'], 'name');
  return { type: 'custom', name, protocol, host, port, username, password, bypassHosts: checkBypassHosts(body['bypass_hosts']) };
}

/** A proxy's new name (`PATCH /proxies/{id}`): trimmed, 1 to 255 characters; duplicates allowed, as the hosted product. */
export function checkName(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be string`);
  const name = value.trim();
  if (name === '' || name.length > MAX_NAME) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be 1 to ${MAX_NAME} characters (trimmed)`);
  return name;
}

function checkHost(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'config.host is required: the proxy\'s host name or IP address');
  if (value.length > 253 || !HOST_PATTERN.test(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `config.host is not a host name or IP address: ${JSON.stringify(value.slice(0, 80))}`);
  // Stored bare: brackets are the URL's business.
  return value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
}

function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be string`);
  if (value.length > MAX_FIELD || /[\r\n\0]/.test(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be at most ${MAX_FIELD} characters, without line breaks or NUL`);
  return value;
}

/** @throws ReplError `REPL_ERR_INVALID_REQUEST` naming `bypass_hosts[i]`. */
export function checkBypassHosts(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'bypass_hosts must be an array of host names');
  if (value.length > MAX_BYPASS_HOSTS) throw new ReplError('REPL_ERR_INVALID_REQUEST', `bypass_hosts may hold at most ${MAX_BYPASS_HOSTS} entries`);
  return value.map((entry: unknown, index) => {
    if (typeof entry !== 'string' || entry.length > 253 || !BYPASS_PATTERN.test(entry.trim())) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST',
        `bypass_hosts[${index}] must be a host name, "*.domain", ".domain", optionally with ":port", or "<local>" / "<-loopback>"`);
    }
    return entry.trim().toLowerCase();
  });
}

/** What an answer shows of a stored proxy: never the password (the hosted product's `has_password`). */
export function wireProxy(proxy: StoredProxy): WireProxy {
  const config: WireProxy['config'] = { host: proxy.host, port: proxy.port, has_password: proxy.password !== undefined };
  if (proxy.username !== undefined) config.username = proxy.username;
  const wire: WireProxy = { id: proxy.id, type: proxy.type, protocol: proxy.protocol, bypass_hosts: [...proxy.bypassHosts], config };
  if (proxy.name !== undefined) wire.name = proxy.name;
  if (proxy.lastChecked !== undefined) wire.last_checked = proxy.lastChecked;
  if (proxy.status !== undefined) wire.status = proxy.status;
  return wire;
}

/** `Basic base64(user:password)` toward the upstream proxy; undefined without a username. */
export function proxyAuthorization(upstream: Pick<ProxyUpstream, 'username' | 'password'>): string | undefined {
  if (upstream.username === undefined) return undefined;
  return `Basic ${Buffer.from(`${upstream.username}:${upstream.password ?? ''}`, 'utf8').toString('base64')}`;
}

/**
 * Chromium's flags for a browser behind its relay. Every request goes to the relay, loopback
 * ones included (`<-loopback>` removes Chromium's implicit loopback bypass): the relay applies
 * the proxy's bypass list itself, so that switching the proxy of a running browser (PATCH
 * `proxy_id`) switches its bypass list too, which Chromium's own flag could not do without a
 * restart.
 */
export function relayChromiumArgs(port: number): string[] {
  return [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'];
}

/** One bypass rule, parsed. */
interface BypassRule {
  kind: 'exact' | 'suffix' | 'all' | 'local';
  host: string;
  port: number | undefined;
}

/** The bypass rules of a proxy, in Chromium's sense (its `--proxy-bypass-list` syntax, the subset above). */
export class BypassList {
  readonly #rules: BypassRule[] = [];
  /** Chromium bypasses loopback implicitly unless the list says `<-loopback>`; so does the relay. */
  readonly #loopback: boolean = true;

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (entry === '<-loopback>') {
        this.#loopback = false;
        continue;
      }
      if (entry === '<local>') {
        this.#rules.push({ kind: 'local', host: '', port: undefined });
        continue;
      }
      if (entry === '*') {
        this.#rules.push({ kind: 'all', host: '', port: undefined });
        continue;
      }
      const { host, port } = splitHostPort(entry);
      if (host.startsWith('*.')) this.#rules.push({ kind: 'suffix', host: host.slice(1), port });
      else if (host.startsWith('.')) this.#rules.push({ kind: 'suffix', host, port });
      else this.#rules.push({ kind: 'exact', host, port });
    }
  }

  /** Whether a request to `host:port` goes straight to its target rather than through the upstream. */
  bypasses(hostname: string, port: number): boolean {
    const host = bare(hostname.toLowerCase()).replace(/\.$/, '');
    if (this.#loopback && isLoopback(host)) return true;
    return this.#rules.some((rule) => {
      if (rule.port !== undefined && rule.port !== port) return false;
      switch (rule.kind) {
        case 'all': return true;
        case 'local': return !host.includes('.') && !host.includes(':');
        // `*.example.com` and `.example.com` match the subdomains and, as in Chromium, the domain itself.
        case 'suffix': return host.endsWith(rule.host) || host === rule.host.slice(1);
        case 'exact': return host === rule.host;
      }
      return false;
    });
  }
}

function splitHostPort(entry: string): { host: string; port: number | undefined } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (v6 !== null) return { host: v6[1]!, port: v6[2] === undefined ? undefined : Number(v6[2]) };
  const match = /^(.*?)(?::(\d+))?$/.exec(entry)!;
  return { host: match[1]!, port: match[2] === undefined ? undefined : Number(match[2]) };
}

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Chromium's loopback set: `localhost`, `*.localhost`, 127.0.0.0/8, `::1`. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
}
