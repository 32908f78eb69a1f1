/**
 * The worker's side of the endpoint protocol: the CDP client asks for the browser's DevTools
 * endpoint, the main thread answers (launching or relaunching Chromium when it owns it), with the
 * tab this worker owns when it owns one. Replies arrive already validated by the worker's loop.
 */
import { ReplError, fromSerialized } from '../../common/errors.js';
import type { EndpointReplyMessage, EndpointRequestMessage } from '../../common/protocol/repl-messages.js';

/** The host's answer to one endpoint request. */
export interface EndpointGrant {
  endpoint: string;
  /** The tab the requesting worker owns, if the host gave one. */
  targetId?: string;
  /** Tabs that others own (targetId → owner): never attached automatically. */
  tabOwners?: Record<string, string>;
  /** The browser context of the worker's own tab, when it has one of its own (an agent-tool session). */
  browserContextId?: string;
  /** The host's download folders for this worker. */
  downloads?: { incoming: string; folder: string };
}

interface Pending {
  resolve: (grant: EndpointGrant) => void;
  reject: (error: Error) => void;
}

export class EndpointBridge {
  readonly #post: (message: EndpointRequestMessage) => void;
  readonly #available: boolean;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  constructor(options: { post: (message: EndpointRequestMessage) => void; available: boolean }) {
    this.#post = options.post;
    this.#available = options.available;
  }

  /**
   * Asks the host for the current endpoint. `previous` is one that stopped answering (so the host
   * relaunches); `tabGone` is this worker's own tab, found closed (so the host opens another).
   */
  request(previous?: string, options: { tabGone?: string | undefined; reapplyDownloads?: boolean } = {}): Promise<EndpointGrant> {
    if (!this.#available) {
      return Promise.reject(new ReplError('REPL_ERR_BROWSER_NOT_FOUND',
        'this REPL was created without a browser (browser: false); pure JavaScript cells work, browser helpers do not'));
    }
    const requestId = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(requestId, { resolve, reject });
      this.#post({
        type: 'endpoint-request',
        requestId,
        ...(previous === undefined ? {} : { previous }),
        ...(options.tabGone === undefined ? {} : { tabGone: options.tabGone }),
        ...(options.reapplyDownloads === true ? { reapplyDownloads: true } : {}),
      } satisfies EndpointRequestMessage);
    });
  }

  /** Handles the host's (validated) answer; one for a request this bridge did not send is ignored. */
  receive(message: EndpointReplyMessage): void {
    const pending = this.#pending.get(message.requestId);
    if (pending === undefined) return;
    this.#pending.delete(message.requestId);
    if (message.endpoint !== undefined) {
      const grant: EndpointGrant = { endpoint: message.endpoint };
      if (message.targetId !== undefined) grant.targetId = message.targetId;
      if (message.tabOwners !== undefined) grant.tabOwners = message.tabOwners;
      if (message.browserContextId !== undefined) grant.browserContextId = message.browserContextId;
      if (message.downloads !== undefined) grant.downloads = message.downloads;
      pending.resolve(grant);
    } else {
      pending.reject(fromSerialized(message.error ?? { name: 'ReplError', message: 'no browser endpoint' }));
    }
  }
}
