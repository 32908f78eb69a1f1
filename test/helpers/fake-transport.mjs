// In-memory Transport for CdpConnection/CdpClient unit tests: records what was sent and lets the
// test play the browser (replies, errors, events, a dropped socket). No I/O.

export class FakeTransport {
  /** Frames sent by the connection, parsed. */
  sent = [];
  onmessage = undefined;
  onclose = undefined;
  closed = false;
  /** Called with each parsed frame after it is recorded (the fake browser hooks in here). */
  onsend = undefined;
  /** When set, send() throws as a socket that is no longer open does. */
  failSends = false;

  send(text) {
    if (this.closed || this.failSends) throw new Error('WebSocket is not open (readyState 3)');
    const frame = JSON.parse(text);
    this.sent.push(frame);
    this.onsend?.(frame);
  }

  close() {
    this.peerClose(1000, 'closed locally');
  }

  /** The browser end goes away. */
  peerClose(code = 1006, reason = '') {
    if (this.closed) return;
    this.closed = true;
    const onclose = this.onclose;
    this.onmessage = undefined;
    this.onclose = undefined;
    onclose?.({ code, reason });
  }

  receive(object) {
    this.onmessage?.(typeof object === 'string' ? object : JSON.stringify(object));
  }

  reply(id, result = {}) {
    this.receive({ id, result });
  }

  replyError(id, code, message, data) {
    this.receive({ id, error: data === undefined ? { code, message } : { code, message, data } });
  }

  emit(method, params = {}, sessionId) {
    this.receive(sessionId === undefined ? { method, params } : { method, params, sessionId });
  }

  /** The last frame sent. */
  last() {
    return this.sent.at(-1);
  }
}
