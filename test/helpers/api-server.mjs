// Starts the real HTTP server on 127.0.0.1:0 for a test and gives a small JSON client (undici).
import { request } from 'undici';
import { startServer } from '../../dist/lib/index.js';

/** Starts a server and registers its shutdown on `t.teardown`. */
export async function apiServer(t, options = {}) {
  const server = await startServer({ port: 0, host: '127.0.0.1', token: undefined, ...options });
  t.teardown(() => server.close());
  const call = async (method, path, body, { headers = {}, raw = false } = {}) => {
    const response = await request(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
    const text = await response.body.text();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: response.statusCode, headers: response.headers, json, text };
  };
  return {
    server,
    url: server.url,
    call,
    /** POST /repl and return the parsed body (asserting 200). */
    async repl(code, extra = {}) {
      const response = await call('POST', '/repl', { code, ...extra });
      if (response.status !== 200) throw new Error(`POST /repl answered ${response.status}: ${response.text}`);
      return response.json;
    },
  };
}

/** Text of all text items of a result, joined. */
export const texts = (result) => (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text);
