// A scripted in-memory "browser" behind FakeTransports, for CdpClient unit tests. It answers the
// Target/Page/DOM/Runtime commands the client sends, logs every command, and has knobs for the
// failure cases: hanging methods, a dropped socket, a target that vanishes, a restart.
import { FakeTransport } from './fake-transport.mjs';

export class FakeBrowser {
  /** @type {FakeTransport[]} */
  connections = [];
  /** Every command received: { method, params, sessionId, connection }. */
  commands = [];
  /** Methods that are never answered (e.g. 'Page.enable' for a frozen renderer). */
  hang = new Set();
  /** Per-method overrides: (params, frame, transport) => result, or throw { code, message }. */
  handlers = new Map();
  /** Called before answering; return true to drop the socket instead of answering. */
  dropBeforeAnswer = undefined;
  /** Endpoints handed to connect(), in order. */
  endpoints = [];
  /** A dialog the fake can dismiss through Page.handleJavaScriptDialog. */
  dialogOpen = false;
  generation = 1;
  #sessionCounter = 0;
  #createdCounter = 0;

  constructor(targets = [
    { targetId: 'page-1', type: 'page', url: 'https://example.com/', title: 'Example' },
    { targetId: 'internal-1', type: 'page', url: 'chrome://newtab/', title: 'New Tab' },
    { targetId: 'frame-1', type: 'iframe', url: 'https://frame.example.com/', title: '' },
  ]) {
    this.targets = targets.map((target) => ({ ...target }));
  }

  /** The client's ConnectTransport. */
  connect = async (endpoint) => {
    this.endpoints.push(endpoint);
    if (this.refuseConnections > 0) {
      this.refuseConnections--;
      const error = new Error('connect ECONNREFUSED');
      error.code = 'REPL_ERR_CDP_CONNECT_FAILED';
      throw error;
    }
    const transport = new FakeTransport();
    transport.onsend = (frame) => this.#onCommand(transport, frame);
    this.connections.push(transport);
    return transport;
  };

  refuseConnections = 0;

  get openConnections() {
    return this.connections.filter((c) => !c.closed).length;
  }

  /** Commands with the given method. */
  sent(method) {
    return this.commands.filter((c) => c.method === method);
  }

  /** Sends an event on every open connection. */
  emit(method, params = {}, sessionId) {
    for (const connection of this.connections) if (!connection.closed) connection.emit(method, params, sessionId);
  }

  /** Drops every socket (the browser went away). */
  dropAll() {
    for (const connection of this.connections) connection.peerClose(1006, 'browser gone');
  }

  /** Simulates a browser restart: sockets drop and every target gets a new id. */
  restart() {
    this.dropAll();
    this.generation++;
    this.targets = this.targets.map((target) => ({ ...target, targetId: `${target.targetId.replace(/@\d+$/, '')}@${this.generation}` }));
  }

  #onCommand(transport, frame) {
    const { id, method, params, sessionId } = frame;
    this.commands.push({ method, params, sessionId, connection: this.connections.indexOf(transport) });
    if (this.hang.has(method)) return;
    setImmediate(() => {
      if (transport.closed) return;
      if (this.dropBeforeAnswer?.(frame, transport) === true) {
        transport.peerClose(1006, 'dropped');
        return;
      }
      try {
        transport.reply(id, this.#answer(method, params ?? {}, frame, transport));
      } catch (error) {
        transport.replyError(id, error.code ?? -32000, error.message);
      }
    });
  }

  #answer(method, params, frame, transport) {
    const handler = this.handlers.get(method);
    if (handler !== undefined) return handler(params, frame, transport);
    switch (method) {
      case 'Target.getTargets':
        return { targetInfos: this.targets.map((t) => ({ ...t, attached: false, canAccessOpener: false, browserContextId: 'ctx' })) };
      case 'Target.attachToTarget': {
        if (!this.targets.some((t) => t.targetId === params.targetId)) throw { code: -32602, message: 'No target with given id found' };
        return { sessionId: `session-${params.targetId}-${++this.#sessionCounter}` };
      }
      case 'Target.createTarget': {
        const targetId = `created-${++this.#createdCounter}`;
        this.targets.push({ targetId, type: 'page', url: params.url, title: '' });
        return { targetId };
      }
      case 'Page.handleJavaScriptDialog':
        if (!this.dialogOpen) throw { code: -32602, message: 'No dialog is showing' };
        this.dialogOpen = false;
        return {};
      case 'Runtime.evaluate':
        return { result: { type: 'string', value: params.expression } };
      case 'DOM.getDocument':
        return { root: { nodeId: 1, backendNodeId: 1, nodeType: 9, nodeName: '#document', localName: '', nodeValue: '' } };
      case 'Page.navigate':
        return { frameId: 'frame', loaderId: 'loader' };
      case 'Browser.getVersion':
        return { product: 'FakeChrome/1', protocolVersion: '1.3', revision: '', userAgent: '', jsVersion: '' };
      default:
        return {};
    }
  }
}
