/**
 * The servers of one deployment, as one server sees them (docs/deploy.md#one-service-from-many-servers):
 * the static list (`BROWSER_REPL_PEERS`) and the addresses the headless Service's DNS name resolves
 * to (`BROWSER_REPL_PEER_DNS`), each asked for its `/pressure`, which also names its node. With
 * them a server places a create it has no room for on a peer with room, lists every server's
 * browsers, and finds the owner of a name by rendezvous hashing: every server computes the same
 * owner from the same members, so names are unique across the deployment without a shared store.
 */
import { createHash } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { debuglog } from 'node:util';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';
import type { Peers } from './peers.js';
import { FORWARDED_HEADER } from './peers.js';
import type { Pressure } from './pressure.js';

const debug = debuglog('browser-repl:peers');

/** How long a peer may take to answer a directory question: a dead or stuck peer is skipped, not waited for. */
const ASK_TIMEOUT_MS = 2_000;
/** How long a DNS answer is used before it is asked again. */
const DNS_TTL_MS = 5_000;

export interface PeerDirectoryOptions {
  peers: Peers;
  /** The headless Service's name, resolved for the peers' addresses (`BROWSER_REPL_PEER_DNS`). */
  dnsName?: string | undefined;
  /** The port the peers found through DNS listen on. Default 10001. */
  dnsPort?: number | undefined;
  /** The bearer token the peers expect (the deployment shares one); undefined: none. */
  token?: string | undefined;
  /** Seam for tests: resolves a name to addresses. */
  resolve?: ((name: string) => Promise<string[]>) | undefined;
}

export interface PeerAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export class PeerDirectory extends Resource {
  readonly #peers: Peers;
  readonly #dnsName: string | undefined;
  readonly #dnsPort: number;
  readonly #token: string | undefined;
  readonly #resolve: (name: string) => Promise<string[]>;
  readonly #agent = new Agent({ connect: { timeout: ASK_TIMEOUT_MS } });
  /** Nodes found through DNS, by node id (what their /pressure says), with the address they answered on. */
  #discovered = new Map<string, URL>();
  #discoveredAt = 0;
  #discovering: Promise<void> | undefined;

  constructor(options: PeerDirectoryOptions) {
    super();
    this.#peers = options.peers;
    this.#dnsName = options.dnsName;
    this.#dnsPort = options.dnsPort ?? 10001;
    this.#token = options.token;
    this.#resolve = options.resolve ?? ((name) => dns.resolve4(name));
  }

  get nodeId(): string {
    return this.#peers.nodeId;
  }

  /** Every node this server knows of, itself included, sorted (the members of the rendezvous). */
  members(): string[] {
    return [...new Set([this.nodeId, ...this.#peers.fixedNodes(), ...this.#discovered.keys()])].sort();
  }

  /** Where a node is: the static list, else the template, else the address DNS gave. */
  urlOf(node: string): URL | undefined {
    return this.#peers.urlOf(node) ?? this.#discovered.get(node);
  }

  /**
   * The node that owns `name` (rendezvous hashing: the member with the highest hash of node and
   * name). Every server that knows the same members picks the same one.
   */
  ownerOf(name: string): string {
    let best = this.nodeId;
    let bestScore = -1n;
    for (const node of this.members()) {
      const score = createHash('sha256').update(`${node}\0${name}`).digest().readBigUInt64BE(0);
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

  /** The other nodes with an address, after refreshing what DNS says when its answer is old. */
  async others(): Promise<Array<{ node: string; url: URL }>> {
    await this.#refresh();
    const out: Array<{ node: string; url: URL }> = [];
    for (const node of this.members()) {
      if (node === this.nodeId) continue;
      const url = this.urlOf(node);
      if (url !== undefined) out.push({ node, url });
    }
    return out;
  }

  /**
   * The other node that has a browser of this name now, or undefined when none that answers in
   * time has one. Asks the name's owner first (names are created there), then every other node at
   * once (a rename gives a browser a name another server owns). Each answers for itself: the
   * question is marked as a peer's, so it is never forwarded on.
   */
  async holderOf(name: string): Promise<string | undefined> {
    const others = await this.others();
    const has = async ({ node, url }: { node: string; url: URL }): Promise<string | undefined> => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (this.#token !== undefined && this.#token !== '') headers['authorization'] = `Bearer ${this.#token}`;
      try {
        const answer = await this.send(url, `/browsers/${encodeURIComponent(name)}`, {
          method: 'GET', headers, timeoutMs: ASK_TIMEOUT_MS, signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
        });
        await answer.body.dump();
        return answer.status === 200 ? node : undefined;
      } catch (error) {
        debug('does %s hold "%s": %s', node, name, (error as Error).message);
        return undefined;
      }
    };
    const owner = this.ownerOf(name);
    const first = others.find(({ node }) => node === owner);
    if (first !== undefined && await has(first) !== undefined) return owner;
    const found = await Promise.all(others.filter(({ node }) => node !== owner).map(has));
    return found.find((node) => node !== undefined);
  }

  /**
   * Refuses a name another server's browser has: names are unique across the deployment. Checked,
   * not locked: two servers that take one name at the same instant (a rename on each) may both pass.
   *
   * @throws ReplError `REPL_ERR_CONFLICT`
   */
  async assertNameFree(name: string): Promise<void> {
    const holder = await this.holderOf(name);
    if (holder !== undefined) throw new ReplError('REPL_ERR_CONFLICT', `a browser named "${name}" already exists (on the server ${holder})`);
  }

  /** Every other node's pressure; a node that does not answer in time is left out. */
  async pressures(): Promise<Array<{ node: string; url: URL; pressure: Pressure }>> {
    const others = await this.others();
    const answers = await Promise.all(others.map(async ({ node, url }) => {
      const pressure = await this.#askPressure(url).catch((error: unknown) => {
        debug('pressure of %s: %s', node, (error as Error).message);
        return undefined;
      });
      return pressure === undefined ? undefined : { node, url, pressure };
    }));
    return answers.filter((answer) => answer !== undefined);
  }

  /** The other nodes that take a browser now, the one with most room first. */
  async withRoom(): Promise<Array<{ node: string; url: URL }>> {
    const room = (pressure: Pressure): number => pressure.max - pressure.running - (pressure.starting ?? 0) - pressure.queued;
    return (await this.pressures())
      .filter(({ pressure }) => pressure.accepting && !pressure.draining)
      .sort((a, b) => room(b.pressure) - room(a.pressure) || a.node.localeCompare(b.node))
      .map(({ node, url }) => ({ node, url }));
  }

  /**
   * Sends one request to a peer, marked as forwarded (so it is answered there, never sent on).
   * `headers` are the client's (its token, its Host: the URLs the peer builds name what the client used).
   */
  async send(url: URL, path: string, options: {
    method: 'GET' | 'POST';
    headers: Record<string, string | string[] | undefined>;
    body?: string | undefined;
    signal?: AbortSignal | undefined;
    timeoutMs?: number | undefined;
  }): Promise<PeerAnswer> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(options.headers)) {
      if (value !== undefined && !['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect'].includes(name)) headers[name] = value;
    }
    headers[FORWARDED_HEADER] = this.nodeId;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const answer = await request(new URL(path, url), {
      method: options.method,
      headers,
      body: options.body,
      dispatcher: this.#agent,
      signal: options.signal,
      headersTimeout: options.timeoutMs ?? 0,
      bodyTimeout: options.timeoutMs ?? 0,
    });
    return { status: answer.statusCode, headers: answer.headers, body: answer.body };
  }

  protected async closeGracefully(): Promise<void> {
    await this.#agent.close();
  }

  protected override async destroyNow(): Promise<void> {
    await this.#agent.destroy();
  }

  async #askPressure(url: URL): Promise<Pressure> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#token !== undefined && this.#token !== '') headers['authorization'] = `Bearer ${this.#token}`;
    const answer = await this.send(url, '/pressure', { method: 'GET', headers, timeoutMs: ASK_TIMEOUT_MS, signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    if (answer.status !== 200) {
      await answer.body.dump();
      throw new Error(`status ${answer.status}`);
    }
    return await answer.body.json() as Pressure;
  }

  /** Asks DNS again when its answer is older than its TTL; every caller waits for the same question. */
  async #refresh(): Promise<void> {
    if (this.#dnsName === undefined || this.closed) return;
    if (Date.now() - this.#discoveredAt < DNS_TTL_MS) return;
    this.#discovering ??= this.#discover(this.#dnsName).finally(() => {
      this.#discovering = undefined;
    });
    await this.#discovering;
  }

  async #discover(name: string): Promise<void> {
    let addresses: string[];
    try {
      addresses = await this.#resolve(name);
    } catch (error) {
      // No answer (no pod ready yet, a lookup failure): the static list still holds.
      debug('resolving %s: %s', name, (error as Error).message);
      addresses = [];
    }
    const found = new Map<string, URL>();
    await Promise.all(addresses.map(async (address) => {
      const url = new URL(`http://${address.includes(':') ? `[${address}]` : address}:${this.#dnsPort}`);
      try {
        const pressure = await this.#askPressure(url);
        if (pressure.node !== '') found.set(pressure.node, url);
      } catch (error) {
        debug('peer at %s: %s', url.host, (error as Error).message);
      }
    }));
    this.#discovered = found;
    this.#discoveredAt = Date.now();
  }
}
