// chromium-repl/client against a real server on loopback (no browser): the convenience methods,
// their ClientErrors, streaming (and its JSON fallback), the raw typed client, and, against a
// scripted SSE server, what the real one never sends (an error event, a stream cut short).
import t from 'tap';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { ClientError, createClient } from '../../dist/lib/client/index.js';
import { startServer } from '../../dist/lib/index.js';

async function server(t, options = {}) {
  const started = await startServer({ port: 0, host: '127.0.0.1', token: undefined, primaryBrowser: { browser: false }, ...options });
  t.teardown(() => started.close());
  return started;
}

/** A plain HTTP server answering every request with `handler`; its URL. */
async function scripted(t, handler) {
  const stub = createServer(handler);
  stub.listen(0, '127.0.0.1');
  await once(stub, 'listening');
  t.teardown(() => new Promise((resolve) => {
    stub.closeAllConnections();
    stub.close(resolve);
  }));
  return `http://127.0.0.1:${stub.address().port}`;
}

/** A port nothing listens on: bound, then released. */
async function refusedPort() {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function collect(iterable) {
  const events = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

t.test('createClient', async (t) => {
  const api = await server(t);
  const client = createClient({ baseUrl: `${api.url}/` });

  t.test('#health answers the server status', async (t) => {
    t.same(await client.health(), { status: 'ok' });
  });

  t.test('#repl runs a cell; bindings persist; a failing cell is a result, not a throw', async (t) => {
    const first = await client.repl({ code: 'let visits = 1; repl.write(`v${visits}`)' });
    t.equal(first.success, true);
    t.same(first.content, [{ type: 'text', channel: 'write', text: 'v1' }]);
    const second = await client.repl({ code: 'visits += 1; console.log(visits)' });
    t.same(second.content, [{ type: 'text', channel: 'stdout', text: '2' }]);
    const failed = await client.repl({ code: 'throw new RangeError("nope")' });
    t.equal(failed.success, false);
    t.equal(failed.error, 'nope');
    t.match(failed.stack, /^RangeError: nope/);
  });

  t.test('#repl with { browser } goes to /browsers/{browser}/repl', async (t) => {
    const seen = [];
    const spying = createClient({ baseUrl: api.url, fetch: (request) => { seen.push(new URL(request.url).pathname); return fetch(request); } });
    const result = await spying.repl({ code: 'repl.write(typeof visits)' }, { browser: 'default' });
    t.same(result.content, [{ type: 'text', channel: 'write', text: 'number' }], 'the default browser, addressed by its id');
    t.same(seen, ['/browsers/default/repl']);
  });

  t.test('#repl throws a ClientError with the server\'s status and code', async (t) => {
    const error = await rejection(client.repl({ code: '1', timeout_sec: 0 }));
    t.type(error, ClientError);
    t.equal(error.status, 400);
    t.equal(error.code, 'REPL_ERR_INVALID_REQUEST');
    t.match(error.message, /timeout_sec/);
    t.same(error.body, { message: error.message, code: error.code });
    const missing = await rejection(client.repl({ code: '1' }, { browser: 'no-such-browser' }));
    t.equal(missing.status, 404);
    t.equal(missing.code, 'REPL_ERR_NOT_FOUND');
  });

  t.test('#replStream yields cell, each content item, then the result', async (t) => {
    const events = await collect(client.replStream({ code: 'repl.write("a"); await new Promise((r) => setTimeout(r, 50)); console.error("b")' }));
    t.same(events.map((event) => event.event), ['cell', 'content', 'content', 'result']);
    t.match(events[0].data, { cell_id: /^[0-9a-f-]{36}$/, repl: 'default' });
    t.same(events[1].data, { type: 'text', channel: 'write', text: 'a' });
    t.same(events[2].data, { type: 'text', channel: 'stderr', text: 'b' });
    t.equal(events[3].data.success, true);
    t.same(events[3].data.content, [events[1].data, events[2].data], 'the result carries every item again');

    t.test('#replResult fetches that result again', async (t) => {
      const again = await client.replResult(events[0].data.cell_id);
      t.same(again, events[3].data);
      const unknown = await rejection(client.replResult('00000000-0000-0000-0000-000000000000'));
      t.equal(unknown.status, 404);
      t.equal(unknown.code, 'REPL_ERR_NOT_FOUND');
    });
  });

  t.test('#replStream ends an early loop by closing the connection; the cell runs on', async (t) => {
    let cellId;
    for await (const event of client.replStream({ code: 'repl.write("first"); await new Promise((r) => setTimeout(r, 300)); repl.write("second")', repl: 'early' })) {
      if (event.event === 'cell') cellId = event.data.cell_id;
      if (event.event === 'content') break;
    }
    t.ok(cellId);
    let answer = await client.replResult(cellId);
    const states = new Set();
    while ('status' in answer) {
      states.add(answer.status);
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await client.replResult(cellId);
    }
    t.ok(states.size === 0 || (states.size === 1 && states.has('running')), 'running until it ended');
    t.same(answer.content.map((item) => item.text), ['first', 'second']);
  });

  t.test('#replStream of a server that answers JSON yields the result alone', async (t) => {
    // Without the Accept header the server answers as one that cannot stream would.
    const jsonOnly = createClient({
      baseUrl: api.url,
      fetch: (request) => {
        const headers = new Headers(request.headers);
        headers.delete('accept');
        return fetch(new Request(request, { headers }));
      },
    });
    const events = await collect(jsonOnly.replStream({ code: 'repl.write("x")' }));
    t.same(events.map((event) => event.event), ['result']);
    t.same(events[0].data.content, [{ type: 'text', channel: 'write', text: 'x' }]);
  });

  t.test('#replStream rejects before the first event when the call is refused', async (t) => {
    const error = await rejection(collect(client.replStream({ code: '' })));
    t.equal(error.status, 400);
    t.equal(error.code, 'REPL_ERR_INVALID_REQUEST');
  });

  t.test('an aborted call rejects with the signal\'s reason, not a ClientError', async (t) => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const iteration = collect(client.replStream({ code: 'repl.write(1); await new Promise((r) => setTimeout(r, 500))', repl: 'aborted' }, { signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 50);
    t.equal(await rejection(iteration), reason);
    const before = await rejection(client.repl({ code: '1' }, { signal: AbortSignal.abort(reason) }));
    t.equal(before, reason);
  });

  t.test('#repls and #deleteRepl', async (t) => {
    await client.repl({ code: 'repl.write(1)', repl: 'named' });
    const names = (await client.repls()).map((info) => info.name);
    t.ok(names.includes('default') && names.includes('named'), names.join());
    t.equal(await client.deleteRepl('named'), undefined);
    t.notOk((await client.repls()).some((info) => info.name === 'named'));
    const error = await rejection(client.deleteRepl('named'));
    t.equal(error.status, 404);
  });

  t.test('#execute and #executeStream throw the server\'s failure when no browser exists', async (t) => {
    const error = await rejection(client.execute({ code: 'return 1' }));
    t.equal(error.status, 500);
    t.equal(error.code, 'REPL_ERR_BROWSER_NOT_FOUND');
    const streamed = await rejection(collect(client.executeStream({ code: 'return 1' })));
    t.equal(streamed.code, 'REPL_ERR_BROWSER_NOT_FOUND');
  });

  t.test('#webmcp throws the server\'s failures: validation first, then the missing browser', async (t) => {
    const invalid = await rejection(client.webmcp.invokeTool({ tool_ref: '', input: {} }));
    t.equal(invalid.status, 400);
    t.equal(invalid.code, 'REPL_ERR_INVALID_REQUEST');
    t.match(invalid.message, /tool_ref/);
    const listing = await rejection(client.webmcp.listTools({ browser: 'default' }));
    t.equal(listing.status, 500);
    t.equal(listing.code, 'REPL_ERR_BROWSER_NOT_FOUND');
  });

  t.test('#browsers', async (t) => {
    const page = await client.browsers.list();
    t.same(page, { browsers: [], hasMore: false }, 'the default browser is not listed, and the last page has no next offset');
    const own = await client.browsers.retrieve('default');
    t.equal(own.session_id, 'default');
    t.equal(own.stealth, false);
    const missing = await rejection(client.browsers.retrieve('nope'));
    t.equal(missing.status, 404);
    t.equal((await rejection(client.browsers.update('nope', { name: 'x' }))).status, 404);
    t.equal((await rejection(client.browsers.delete('nope'))).status, 404);
    // An unknown proxy (docs/browsers.md#proxies) is a 404 naming the field.
    const unsupported = await rejection(client.browsers.create({ proxy_id: 'p' }));
    t.equal(unsupported.status, 404);
    t.match(unsupported.message, /proxy_id/);
  });

  t.test('.api is the typed openapi-fetch client: answers, never throws', async (t) => {
    const ok = await client.api.POST('/repl', { body: { code: 'repl.write(1)' } });
    t.equal(ok.response.status, 200);
    t.equal(ok.data.success, true);
    const bad = await client.api.POST('/repl', { body: { code: '1', timeout_sec: 999 } });
    t.equal(bad.response.status, 400);
    t.equal(bad.error.code, 'REPL_ERR_INVALID_REQUEST');
  });
});

t.test('a server with a token', async (t) => {
  const api = await server(t, { token: 'sesame' });
  t.same((await createClient({ baseUrl: api.url, token: 'sesame' }).repl({ code: 'repl.write(1)' })).content[0].text, '1');
  for (const token of [undefined, 'wrong']) {
    const error = await rejection(createClient({ baseUrl: api.url, token }).repl({ code: '1' }));
    t.equal(error.status, 401, `token ${token}`);
    t.equal(error.code, 'REPL_ERR_UNAUTHORIZED');
  }
});

t.test('a server that cannot be reached: CLIENT_ERR_CONNECTION, status 0', async (t) => {
  const port = await refusedPort();
  const client = createClient({ baseUrl: `http://127.0.0.1:${port}` });
  for (const call of [() => client.repl({ code: '1' }), () => collect(client.replStream({ code: '1' }))]) {
    const error = await rejection(call());
    t.type(error, ClientError);
    t.equal(error.status, 0);
    t.equal(error.code, 'CLIENT_ERR_CONNECTION');
    t.match(error.message, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  }
});

t.test('streams the real server never sends', async (t) => {
  const sse = (body) => (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  };

  t.test('an error event throws its code and message', async (t) => {
    const url = await scripted(t, sse('event: cell\ndata: {"cell_id":"c","repl":"default"}\n\n: keepalive\n\nevent: error\r\ndata: {"message":"worker gone","code":"REPL_ERR_START_FAILED"}\r\n\r\n'));
    const seen = [];
    const error = await rejection((async () => {
      for await (const event of createClient({ baseUrl: url }).replStream({ code: '1' })) seen.push(event.event);
    })());
    t.same(seen, ['cell']);
    t.type(error, ClientError);
    t.equal(error.code, 'REPL_ERR_START_FAILED');
    t.equal(error.message, 'worker gone');
    t.equal(error.status, 200, 'the status of the stream');
  });

  t.test('execute output events, then the result; unknown events are skipped', async (t) => {
    const url = await scripted(t, sse([
      'id: 1\nevent: stdout\ndata: {"text":"hello\\n"}\n\n',
      'id: 2\nevent: progress\ndata: {}\n\n',
      'id: 3\nevent: stderr\ndata: {"text":"warn\\n"}\n\n',
      'id: 4\nevent: result\ndata: {"success":true,"result":2,"stdout":"hello\\n","stderr":"warn\\n"}\n\n',
    ].join('')));
    const events = await collect(createClient({ baseUrl: url }).executeStream({ code: 'return 2' }));
    t.same(events, [
      { event: 'stdout', data: { text: 'hello\n' }, id: '1' },
      { event: 'stderr', data: { text: 'warn\n' }, id: '3' },
      { event: 'result', data: { success: true, result: 2, stdout: 'hello\n', stderr: 'warn\n' }, id: '4' },
    ]);
  });

  t.test('a stream that ends before its result: CLIENT_ERR_STREAM_ENDED', async (t) => {
    const url = await scripted(t, sse('event: cell\ndata: {"cell_id":"c","repl":"default"}\n\nevent: content\ndata: {"type":"text","channel":"write","text":"1"}\n\n'));
    const error = await rejection(collect(createClient({ baseUrl: url }).replStream({ code: '1' })));
    t.equal(error.code, 'CLIENT_ERR_STREAM_ENDED');
  });

  t.test('event data that is not JSON: CLIENT_ERR_BAD_RESPONSE', async (t) => {
    const url = await scripted(t, sse('event: result\ndata: {oops\n\n'));
    const error = await rejection(collect(createClient({ baseUrl: url }).replStream({ code: '1' })));
    t.equal(error.code, 'CLIENT_ERR_BAD_RESPONSE');
  });

  t.test('a failure answer that is not ours: CLIENT_ERR_HTTP with the status', async (t) => {
    const url = await scripted(t, (req, res) => {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad Gateway</h1>');
    });
    const error = await rejection(createClient({ baseUrl: url }).repl({ code: '1' }));
    t.equal(error.status, 502);
    t.equal(error.code, 'CLIENT_ERR_HTTP');
    t.match(error.message, /502.*Bad Gateway/);
  });

  t.test('#webmcp: the routes, bodies and answers of listTools and invokeTool; a 504 keeps its invocation id', async (t) => {
    const seen = [];
    const tool = { tool_ref: 'wmcp_a', tool: { name: 'echo', description: 'Echo.', inputSchema: {} }, source: { window_id: 1, tab_id: 1, page_title: 'T', page_url: 'http://127.0.0.1/', frame: null, target_id: 'T1' } };
    const url = await scripted(t, async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method, path: req.url, body: body === '' ? undefined : JSON.parse(body) });
      if (req.url.endsWith('/webmcp/tools')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tools: [tool] }));
      } else if (JSON.parse(body).tool_ref === 'wmcp_lost') {
        res.writeHead(504, { 'content-type': 'application/json', 'x-should-retry': 'false' })
          .end(JSON.stringify({ message: 'outcome unknown', code: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN', invocation_id: 'inv-9' }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ invocation_id: 'inv-1', status: 'completed', output: { echoed: { text: 'hi' } } }));
      }
    });
    const client = createClient({ baseUrl: url });
    t.same(await client.webmcp.listTools(), [tool], 'the tools array, unwrapped');
    t.same(await client.webmcp.listTools({ browser: 'b 1' }), [tool]);
    t.same(await client.webmcp.invokeTool({ tool_ref: 'wmcp_a', input: { text: 'hi' }, timeout_sec: 5 }), { invocation_id: 'inv-1', status: 'completed', output: { echoed: { text: 'hi' } } });
    const lost = await rejection(client.webmcp.invokeTool({ tool_ref: 'wmcp_lost', input: {} }, { browser: 'b1' }));
    t.type(lost, ClientError);
    t.equal(lost.status, 504);
    t.equal(lost.code, 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN');
    t.equal(lost.body.invocation_id, 'inv-9');
    t.same(seen, [
      { method: 'GET', path: '/webmcp/tools', body: undefined },
      { method: 'GET', path: '/browsers/b%201/webmcp/tools', body: undefined },
      { method: 'POST', path: '/webmcp/invoke', body: { tool_ref: 'wmcp_a', input: { text: 'hi' }, timeout_sec: 5 } },
      { method: 'POST', path: '/browsers/b1/webmcp/invoke', body: { tool_ref: 'wmcp_lost', input: {} } },
    ]);
  });

  t.test('sends the token and extra headers, and Accept: text/event-stream when streaming', async (t) => {
    const seen = [];
    const url = await scripted(t, (req, res) => {
      seen.push({ authorization: req.headers.authorization, accept: req.headers.accept, extra: req.headers['x-extra'] });
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true,"repl_id":"r"}');
    });
    const client = createClient({ baseUrl: url, token: 'tok', headers: { 'x-extra': 'yes' } });
    await client.repl({ code: '1' });
    await collect(client.replStream({ code: '1' }));
    t.equal(seen.length, 2);
    t.match(seen[0], { authorization: 'Bearer tok', accept: /application\/json/, extra: 'yes' });
    t.match(seen[1], { authorization: 'Bearer tok', accept: /^text\/event-stream/, extra: 'yes' });
  });
});
