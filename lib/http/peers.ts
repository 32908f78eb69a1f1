/**
 * Routing between servers (pods of a StatefulSet, docs/deploy.md): each browser lives on the
 * server that created it, and its id names that server (`<node>.<cuid>`), so any server can send
 * a request for it to its owner. A request that reaches the wrong server through a load-balanced
 * Service is forwarded there, HTTP and the `cdp_ws_url` WebSocket alike, instead of answering 404.
 *
 * Where a peer is: the headless Service's DNS name, through a URL template
 * (`BROWSER_REPL_PEER_URL=http://{node}.browser-repl.<ns>.svc:10001`), or a fixed list
 * (`BROWSER_REPL_PEERS=name=url,…`) for machines without such DNS. A forwarded request carries
 * `x-browser-repl-forwarded-by`, and a server never forwards one again: no request loops.
 */
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { debuglog } from 'node:util';
import type { Request, RequestHandler, Response } from 'express';
import { Agent, request } from 'undici';
import { ReplError } from '../../common/errors.js';
import { Resource } from '../../common/resource.js';

const debug = debuglog('browser-repl:peers');

/** Marks a request one server sent to another; its value names the sender. */
export const FORWARDED_HEADER = 'x-browser-repl-forwarded-by';
/** A node id is one DNS label: a pod's name. */
const NODE_ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** Hop-by-hop headers (RFC 9110, section 7.6.1) and what the forward sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'expect']);
/** How long a peer may take to accept a connection: a dead pod must fail fast, not hang the client. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PeerOptions {
  /** This server's node id (`BROWSER_REPL_NODE_ID`): a DNS label, the pod's name. */
  nodeId: string;
  /** A peer's base URL with `{node}` for its id (`BROWSER_REPL_PEER_URL`). */
  peerUrl?: string | undefined;
  /** Fixed peers, node id → base URL (`BROWSER_REPL_PEERS`); wins over `peerUrl`. */
  peers?: Readonly<Record<string, string>> | undefined;
  /** The headless Service's DNS name, whose addresses are the peers (`BROWSER_REPL_PEER_DNS`); see lib/http/peer-directory.ts. */
  peerDns?: string | undefined;
  /** The port of the peers found through `peerDns` (`BROWSER_REPL_PEER_PORT`). Default 10001. */
  peerPort?: number | undefined;
}

/** Set on `res.locals` of a request answered by a peer: its metrics take the route's pattern from the path. */
export const FORWARDED_LOCAL = 'browser-repl:forwarded';
/** A browser id: the node, a dot, a cuid2 (lib/browsers/browsers.ts). A name shaped otherwise is routed by its owner. */
const BROWSER_ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.[a-z][a-z0-9]{23}$/;

/** Whether this server has a browser of that id or name: it is served here, whatever its id looks like. */
export type LocalBrowserCheck = (idOrName: string) => boolean;

/** Reads `BROWSER_REPL_NODE_ID`, `BROWSER_REPL_PEER_URL` and `BROWSER_REPL_PEERS`; undefined without a node id. */
export function peerOptionsFromEnv(env: NodeJS.ProcessEnv): PeerOptions | undefined {
  const nodeId = env['BROWSER_REPL_NODE_ID'];
  if (nodeId === undefined || nodeId === '') return undefined;
  const peers: Record<string, string> = {};
  for (const entry of (env['BROWSER_REPL_PEERS'] ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `BROWSER_REPL_PEERS entries are name=url, got ${JSON.stringify(entry)}`);
    peers[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  const peerPort = env['BROWSER_REPL_PEER_PORT'] ? Number(env['BROWSER_REPL_PEER_PORT']) : undefined;
  if (peerPort !== undefined && !(Number.isInteger(peerPort) && peerPort > 0 && peerPort < 65536)) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `BROWSER_REPL_PEER_PORT must be a port number, got ${JSON.stringify(env['BROWSER_REPL_PEER_PORT'])}`);
  }
  return { nodeId, peerUrl: env['BROWSER_REPL_PEER_URL'] || undefined, peers, peerDns: env['BROWSER_REPL_PEER_DNS'] || undefined, peerPort };
}

/**
 * Checks routing options, wherever they came from (`serverSettings` checks them before anything
 * starts; a `Peers` built directly checks its own): the node id and peer names are DNS labels, the
 * template holds `{node}`, every URL is http(s). @throws ReplError `REPL_ERR_INVALID_ARGUMENT`.
 */
export function checkPeerOptions(options: PeerOptions): { nodeId: string; template: string | undefined; fixed: ReadonlyMap<string, URL> } {
  if (!NODE_ID.test(options.nodeId)) {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `the node id must be one DNS label (a pod's name: a-z, 0-9, -), got ${JSON.stringify(options.nodeId)}`);
  }
  const template = options.peerUrl;
  if (template !== undefined) {
    if (!template.includes('{node}')) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `the peer URL template must contain {node}, got ${JSON.stringify(template)}`);
    baseUrl(template.replaceAll('{node}', options.nodeId), 'the peer URL template');
  }
  const fixed = new Map<string, URL>();
  for (const [node, url] of Object.entries(options.peers ?? {})) {
    if (!NODE_ID.test(node)) throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `a peer's name must be one DNS label, got ${JSON.stringify(node)}`);
    fixed.set(node, baseUrl(url, `the URL of peer ${node}`));
  }
  return { nodeId: options.nodeId, template, fixed };
}

/** The servers one server can forward to. */
export class Peers extends Resource {
  readonly nodeId: string;
  readonly #template: string | undefined;
  readonly #fixed: ReadonlyMap<string, URL>;
  readonly #agent = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });
  readonly #isLocal: LocalBrowserCheck;
  /** The node that owns a name (lib/http/peer-directory.ts); unset: names are served where they are asked for. */
  nameOwner: ((name: string) => string) | undefined;
  /**
   * The other node that has a browser of that name now (lib/http/peer-directory.ts), asked for
   * names this server does not have: a browser renamed on its server keeps living there, whoever
   * owns the name. Unset, or no node has it: the name's owner answers.
   */
  holderOf: ((name: string) => Promise<string | undefined>) | undefined;

  /** `isLocal`: a name may contain a dot and look like another server's id (`my.browser`); a browser of this server is served here. */
  constructor(options: PeerOptions, isLocal: LocalBrowserCheck = () => false) {
    super();
    this.#isLocal = isLocal;
    const checked = checkPeerOptions(options);
    this.nodeId = checked.nodeId;
    this.#template = checked.template;
    this.#fixed = checked.fixed;
  }

  /** The prefix of the ids of this server's browsers. */
  get idPrefix(): string {
    return `${this.nodeId}.`;
  }

  /** The node a browser id names, when it names another server than this one; else undefined. */
  foreignNodeOf(idOrName: string): string | undefined {
    const dot = idOrName.indexOf('.');
    if (dot <= 0) return undefined;
    const node = idOrName.slice(0, dot);
    return node !== this.nodeId && NODE_ID.test(node) ? node : undefined;
  }

  /** The nodes of the static list (`BROWSER_REPL_PEERS`), this one included when it is listed. */
  fixedNodes(): string[] {
    return [...this.#fixed.keys()];
  }

  /** A peer's base URL, or undefined when this server does not know where it is. */
  urlOf(node: string): URL | undefined {
    const fixed = this.#fixed.get(node);
    if (fixed !== undefined) return fixed;
    if (this.#template !== undefined) return new URL(this.#template.replaceAll('{node}', node));
    return this.discovered?.(node);
  }

  /** Where a node found through DNS answers (lib/http/peer-directory.ts); asked last. */
  discovered: ((node: string) => URL | undefined) | undefined;

  /**
   * Forwards the requests under `/browsers/{id}` whose id names another server to that server,
   * streaming both ways (bodies, event streams). Mounted before any route parses a body.
   */
  forwardHttp(): RequestHandler {
    return (req, res, next) => {
      this.#targetOfRequest(req.path, req.headers).then((target) => {
        if (target === undefined) {
          next();
          return undefined;
        }
        return this.#forward(req, res, target);
      }).catch(next);
    };
  }

  /**
   * Forwards a WebSocket upgrade (`cdp_ws_url`) for another server's browser; returns false when
   * the upgrade is this server's to handle. The owner checks the credential, as for any upgrade.
   */
  forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const target = this.#targetOf(path, req.headers);
    if (target === undefined) return false;
    const { node, url } = target;
    const upstream = httpRequest(new URL(req.url ?? '/', url), {
      method: req.method,
      headers: { ...forwardedHeaders(req.headers, this.nodeId), connection: 'Upgrade', upgrade: req.headers.upgrade ?? 'websocket' },
      timeout: CONNECT_TIMEOUT_MS,
    });
    const fail = (error: Error): void => {
      debug('upgrade to %s failed: %s', node, error.message);
      if (!socket.writable) return;
      const refusal = peerUnavailable(node, error);
      const body = JSON.stringify({ message: refusal.message, code: refusal.code });
      socket.end(`HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    };
    upstream.once('timeout', () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`)));
    upstream.once('error', fail);
    upstream.once('response', (response) => {
      // The owner refused the upgrade (401, 404): its answer goes back as it is.
      let status = `HTTP/1.1 ${response.statusCode ?? 502} ${response.statusMessage ?? ''}\r\n`;
      for (let index = 0; index < response.rawHeaders.length; index += 2) status += `${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}\r\n`;
      socket.write(`${status}\r\n`);
      response.pipe(socket);
    });
    upstream.once('upgrade', (response, upstreamSocket, upstreamHead) => {
      let head101 = 'HTTP/1.1 101 Switching Protocols\r\n';
      for (let index = 0; index < response.rawHeaders.length; index += 2) head101 += `${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}\r\n`;
      socket.write(`${head101}\r\n`);
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      // The connect budget ends here: the request's timeout stays armed on its socket, and an idle
      // CDP connection may rightly be silent for hours.
      upstreamSocket.setTimeout(0);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('error', () => upstreamSocket.destroy());
      upstreamSocket.pipe(socket);
      socket.pipe(upstreamSocket);
    });
    if (head.length > 0) upstream.write(head);
    upstream.end();
    return true;
  }

  /**
   * `close()` closes the connection pool to the peers once forwards in flight have ended (undici's
   * `Agent.close`). Every caller waits for the same end (common/resource.ts).
   */
  protected async closeGracefully(): Promise<void> {
    await this.#agent.close();
  }

  /** The id or name a path under `/browsers/{id_or_name}` names, unless this server answers it itself. */
  #named(path: string, headers: IncomingMessage['headers']): string | undefined {
    const match = /^\/browsers\/([^/]+)(?:\/|$)/.exec(path);
    if (match === null) return undefined;
    let idOrName: string;
    try {
      idOrName = decodeURIComponent(match[1]!);
    } catch {
      return undefined;
    }
    // Sent here by a peer: never again, or two servers that disagree would bounce it forever.
    if (headers[FORWARDED_HEADER] !== undefined || this.#isLocal(idOrName)) return undefined;
    return idOrName;
  }

  #at(node: string | undefined): { node: string; url: URL } | undefined {
    if (node === undefined || node === this.nodeId) return undefined;
    const url = this.urlOf(node);
    return url === undefined ? undefined : { node, url };
  }

  /** Where a request for `path` goes: the owner of the browser it names, when that is another server. */
  #targetOf(path: string, headers: IncomingMessage['headers']): { node: string; url: URL } | undefined {
    const idOrName = this.#named(path, headers);
    if (idOrName === undefined) return undefined;
    // An id names its server; a name, the server that owns it (names are created there).
    return this.#at(BROWSER_ID.test(idOrName) || this.nameOwner === undefined ? this.foreignNodeOf(idOrName) : this.nameOwner(idOrName));
  }

  /**
   * `#targetOf` for an HTTP request, which may wait for an answer: a name this server does not
   * have goes to the server that has it (a renamed browser), else to its owner.
   */
  async #targetOfRequest(path: string, headers: IncomingMessage['headers']): Promise<{ node: string; url: URL } | undefined> {
    const idOrName = this.#named(path, headers);
    if (idOrName === undefined) return undefined;
    if (BROWSER_ID.test(idOrName) || this.nameOwner === undefined) return this.#at(this.foreignNodeOf(idOrName));
    const holder = await this.holderOf?.(idOrName);
    return this.#at(holder ?? this.nameOwner(idOrName));
  }

  async #forward(req: Request, res: Response, target: { node: string; url: URL }): Promise<void> {
    res.locals[FORWARDED_LOCAL] = true;
    const abort = new AbortController();
    // The client went away before the answer was out: stop the owner's work for it.
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(new URL(req.originalUrl, target.url), {
        method: req.method as 'GET',
        headers: forwardedHeaders(req.headers, this.nodeId),
        body: hasBody ? req : null,
        dispatcher: this.#agent,
        signal: abort.signal,
        // A cell may take 300 s, an event stream longer: the owner's own limits apply.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
    } catch (error) {
      if (res.headersSent || abort.signal.aborted) return;
      debug('forward to %s failed: %s', target.node, (error as Error).message);
      throw peerUnavailable(target.node, error as Error);
    }
    res.status(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
    }
    res.flushHeaders();
    try {
      await pipeline(answer.body, res);
    } catch (error) {
      // The client left, or the owner ended mid-answer: nothing more can be said on this response.
      debug('forwarded answer from %s ended early: %s', target.node, (error as Error).message);
    }
  }
}

function forwardedHeaders(headers: IncomingMessage['headers'], self: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  // The original Host stays: the owner's Host check and the URLs it builds (cdp_ws_url) are the
  // ones the client would have got from it.
  out[FORWARDED_HEADER] = self;
  return out;
}

function peerUnavailable(node: string, cause: Error): ReplError {
  return new ReplError('REPL_ERR_PEER_UNAVAILABLE',
    `the server ${node}, which holds this browser, cannot be reached (${cause.message}): it may have ended, and its browsers with it`, { cause });
}

function baseUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${what} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${what} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  return url;
}
