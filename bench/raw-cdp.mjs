// A bare CDP client on its own WebSocket: the floor the helpers are measured against.
import { once } from 'node:events';
import WebSocket from 'ws';

export async function rawCdp(endpoint) {
  const ws = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await once(ws, 'open');
  let nextId = 1;
  const pending = new Map();
  const eventListeners = new Set();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id === undefined) {
      for (const listener of eventListeners) listener(message);
      return;
    }
    const callback = pending.get(message.id);
    if (callback === undefined) return;
    pending.delete(message.id);
    if (message.error) callback.reject(new Error(message.error.message));
    else callback.resolve(message.result);
  });
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }));
  });
  /** Every event (`{method, params, sessionId?}`) as it arrives. */
  const onEvent = (listener) => eventListeners.add(listener);
  return { send, onEvent, close: () => ws.close() };
}
