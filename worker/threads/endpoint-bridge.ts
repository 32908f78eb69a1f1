/**
 * The worker's side of the endpoint protocol: the CDP client asks for the browser's DevTools
 * endpoint, the main thread answers (launching or relaunching Chromium when it owns it).
 */
import { ReplError, fromSerialized } from '../../common/errors.js';
import type { EndpointReplyMessage, EndpointRequestMessage } from '../../common/protocol/repl-messages.js';

interface Pending {
  resolve: (endpoint: string) => void;
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

  /** Asks the host for the current endpoint; `previous` is one that stopped answering (so the host relaunches). */
  request(previous?: string): Promise<string> {
    if (!this.#available) {
      return Promise.reject(new ReplError('REPL_ERR_BROWSER_NOT_FOUND',
        'this REPL was created without a browser (browser: false); pure JavaScript cells work, browser helpers do not'));
    }
    const requestId = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(requestId, { resolve, reject });
      this.#post({ type: 'endpoint-request', requestId, ...(previous === undefined ? {} : { previous }) });
    });
  }

  /** Handles the host's answer. */
  receive(message: EndpointReplyMessage): void {
    const pending = this.#pending.get(message.requestId);
    if (pending === undefined) return;
    this.#pending.delete(message.requestId);
    if (message.endpoint !== undefined) {
      pending.resolve(message.endpoint);
    } else {
      pending.reject(fromSerialized(message.error ?? { name: 'ReplError', message: 'no browser endpoint' }));
    }
  }
}
