/**
 * The typed HTTP client of a chromium-repl server: `openapi-fetch` over the types generated from
 * openapi.json (`.api`, every route as the spec types it), plus convenience methods that address
 * the default browser or one of `/browsers/{id_or_name}/…`, throw a {@link ClientError} for every
 * 4xx/5xx answer, and turn the server's Server-Sent Events into async iterables.
 *
 * Standalone on purpose (scripts/check-imports.mjs: `lib/client` imports nothing of ours): it runs
 * on any runtime with `fetch`, `ReadableStream` and `TextDecoder` (Node 18+, Deno, Bun, browsers).
 */
import createOpenApiClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { components, paths } from './openapi-types.js';
import { parseEventStream } from './sse.js';
import type { SseEvent } from './sse.js';

type Schemas = components['schemas'];

/** `POST /repl` body. */
export type ReplRequest = Schemas['BrowserReplRequest'];
/** `POST /repl` answer (also the `result` event of a stream). */
export type ReplResult = Schemas['BrowserReplResult'];
/** One output item of a cell. */
export type ReplContent = Schemas['BrowserReplContent'];
/** `POST /playwright/execute` body. */
export type ExecuteRequest = Schemas['ExecutePlaywrightRequest'];
/** `POST /playwright/execute` answer (also the `result` event of a stream). */
export type ExecuteResult = Schemas['ExecutePlaywrightResult'];
/** `POST /playwright/interrupt` body. */
export type ExecuteInterruptRequest = Schemas['PlaywrightInterruptRequest'];
/** `POST /playwright/interrupt` answer. */
export type ExecuteInterruptResult = Schemas['PlaywrightInterruptResult'];
/** A row of `GET /repls`. */
export type ReplInfo = Schemas['ReplInfo'];
/** `POST /repl/interrupt` body. */
export type ReplInterruptRequest = Schemas['ReplInterruptRequest'];
/** `POST /repl/interrupt` answer. */
export type ReplInterruptResult = Schemas['ReplInterruptResult'];
/** The `{message, code}` body of every failed answer. */
export type ErrorBody = Schemas['Error'];

/** A row of `GET /webmcp/tools`: a tool a page declares. Its metadata is untrusted page data. */
export type WebMcpTool = Schemas['WebMcpTool'];
/** `POST /webmcp/invoke` body. */
export type WebMcpInvokeRequest = Schemas['WebMcpInvokeRequest'];
/** `POST /webmcp/invoke` answer; `output` and `error_text` are untrusted page data. */
export type WebMcpInvocation = Schemas['WebMcpInvocation'];
/** The body of a 504 of `POST /webmcp/invoke` (the `body` of its {@link ClientError}). */
export type WebMcpOutcomeUnknown = Schemas['WebMcpOutcomeUnknownError'];

/** A browser's page area in CSS pixels. */
export type BrowserViewport = Schemas['BrowserViewport'];
/** A browser session (`POST /browsers`, `GET /browsers/{id_or_name}`), in the Kernel SDK's shape. */
export type Browser = Schemas['BrowserSession'];
/** `POST /browsers` body: the fields this server supports. */
export type BrowserCreateParams = Schemas['BrowserCreateRequest'];
/** `PATCH /browsers/{id_or_name}` body. */
export type BrowserUpdateParams = Schemas['BrowserUpdateRequest'];

/** One page of `GET /browsers`. */
export interface BrowserPage {
  browsers: Browser[];
  /** `X-Has-More`: a later page exists. */
  hasMore: boolean;
  /** `X-Next-Offset`: the `offset` of the next page, when {@link hasMore}. */
  nextOffset?: number;
}

/** The first event of a streamed cell: the id under which `GET /repl/results/{cell_id}` keeps its result. */
export type CellStarted = Schemas['ReplStreamCell'];
/** `GET /repl/results/{cell_id}` of a cell that has not ended yet (HTTP 202). */
export type CellRunning = Schemas['ReplCellRunning'];
/** Data of a `stdout` or `stderr` event of a streamed execute. */
export type ExecuteOutput = Schemas['PlaywrightStreamOutput'];

/** An event of {@link ChromiumReplClient.replStream}, in the order the server sends them. */
export type ReplStreamEvent =
  | { event: 'cell'; data: CellStarted; id: string }
  | { event: 'content'; data: ReplContent; id: string }
  | { event: 'result'; data: ReplResult; id: string };

/** An event of {@link ChromiumReplClient.executeStream}. */
export type ExecuteStreamEvent =
  | { event: 'stdout' | 'stderr'; data: ExecuteOutput; id: string }
  | { event: 'result'; data: ExecuteResult; id: string };

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:10001` (a path prefix such as `/browser` is kept). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** A fetch implementation; default `globalThis.fetch`. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
}

/** Per-call options of the convenience methods. */
export interface CallOptions {
  /** A browser's `session_id` or `name`: the call goes to `/browsers/{browser}/…`. Default: the default browser. */
  browser?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** Codes of failures the client itself detects (the server's codes are `REPL_ERR_*`). */
export type ClientErrorCode = 'CLIENT_ERR_CONNECTION' | 'CLIENT_ERR_BAD_RESPONSE' | 'CLIENT_ERR_HTTP' | 'CLIENT_ERR_STREAM_ENDED';

/**
 * A failed call: the server's `{message, code}` and HTTP status, or a failure the client saw
 * itself (`CLIENT_ERR_*`, status 0 when no answer arrived). Match on `code`. An aborted call
 * rejects with the signal's reason instead, as `fetch` does.
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  /** HTTP status; 0 when no answer arrived; the stream's (200) for an `error` event inside a stream. */
  readonly status: number;
  /** `REPL_ERR_*` from the server, or a {@link ClientErrorCode}. */
  readonly code: string;
  /** The parsed error body (e.g. a 409's list of REPLs), when there was one. */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, options: { body?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.body = options.body;
  }
}

/** What {@link createClient} returns. */
export interface ChromiumReplClient {
  /** The raw typed client: every route of openapi.json, `{ data, error, response }` answers, no throwing. */
  readonly api: Client<paths>;
  /** `GET /healthz` of the server. */
  health(options?: Pick<CallOptions, 'signal'>): Promise<Schemas['Health']>;
  /**
   * Runs one cell and answers its result (a failed cell is `success: false`, not a throw).
   * Aborting `signal` while the cell runs closes the request, and the server interrupts that very
   * cell (its REPL and bindings kept when an interrupt check reaches it, docs/lifecycle.md); the
   * call rejects with the signal's reason. Use {@link interrupt} to stop a cell and still read
   * its answer.
   */
  repl(body: ReplRequest, options?: CallOptions): Promise<ReplResult>;
  /**
   * `POST /repl/interrupt`: stops the running cell of `body.repl` (default `default`), or only the
   * cell `body.cell_id` names (running or queued). Its own answer then says `interrupted: true`.
   * Resolves once the cell has stopped; `interrupted: false` when none ran. An unknown named REPL
   * throws `REPL_ERR_NOT_FOUND`.
   */
  interrupt(body?: ReplInterruptRequest, options?: CallOptions): Promise<ReplInterruptResult>;
  /**
   * Runs one cell and yields its events as they arrive: `cell`, each `content` item, then
   * `result`. A server that answers JSON instead yields the `result` alone. The request is sent
   * when iteration starts; leaving the loop early, or aborting `signal`, closes the connection
   * and the cell goes on (fetch its result with {@link replResult}, or stop it with
   * {@link interrupt} and the `cell_id` of the `cell` event).
   */
  replStream(body: ReplRequest, options?: CallOptions): AsyncGenerator<ReplStreamEvent, void, undefined>;
  /**
   * `GET /repl/results/{cell_id}`: a cell's result again (kept for a while after it ended), or
   * `{status: 'running'}` while it runs. An unknown or expired id throws `REPL_ERR_NOT_FOUND`.
   */
  replResult(cellId: string, options?: CallOptions): Promise<ReplResult | CellRunning>;
  /** `POST /playwright/execute`. */
  execute(body: ExecuteRequest, options?: CallOptions): Promise<ExecuteResult>;
  /**
   * `POST /playwright/interrupt`: stops the running call of `body.executor` (default `default`);
   * the call answers `execution interrupted after …`, the executor keeps its worker and browser
   * connection. Resolves once it stopped; `interrupted: false` when none ran.
   */
  interruptExecute(body?: ExecuteInterruptRequest, options?: CallOptions): Promise<ExecuteInterruptResult>;
  /** `POST /playwright/execute` as a stream: `stdout`/`stderr` chunks, then `result`. */
  executeStream(body: ExecuteRequest, options?: CallOptions): AsyncGenerator<ExecuteStreamEvent, void, undefined>;
  /** `GET /repls`: `default` first, then named REPLs oldest first. */
  repls(options?: CallOptions): Promise<ReplInfo[]>;
  /** `DELETE /repls/{name}` (for `default`: a reset). */
  deleteRepl(name: string, options?: CallOptions): Promise<void>;
  /** The tools the browser's pages declare (WebMCP, docs/webmcp.md). */
  readonly webmcp: {
    /** `GET /webmcp/tools`; no tab at all throws `REPL_ERR_WEBMCP_NO_TABS`. */
    listTools(options?: CallOptions): Promise<WebMcpTool[]>;
    /**
     * `POST /webmcp/invoke`. A stale ref throws `REPL_ERR_WEBMCP_TOOL_NOT_FOUND`; an outcome that
     * could not be observed throws `REPL_ERR_WEBMCP_OUTCOME_UNKNOWN` (status 504, `body.invocation_id`):
     * the tool may have run, so never retry that automatically.
     */
    invokeTool(body: WebMcpInvokeRequest, options?: CallOptions): Promise<WebMcpInvocation>;
  };
  readonly browsers: {
    create(params?: BrowserCreateParams, options?: Pick<CallOptions, 'signal'>): Promise<Browser>;
    list(query?: NonNullable<paths['/browsers']['get']['parameters']['query']>, options?: Pick<CallOptions, 'signal'>): Promise<BrowserPage>;
    retrieve(idOrName: string, options?: Pick<CallOptions, 'signal'>): Promise<Browser>;
    update(idOrName: string, params: BrowserUpdateParams, options?: Pick<CallOptions, 'signal'>): Promise<Browser>;
    delete(idOrName: string, options?: Pick<CallOptions, 'signal'>): Promise<void>;
  };
}

// The convenience methods choose their path at run time (`/repl` or `/browsers/{browser}/repl`),
// which openapi-fetch's per-path types cannot express; they go through its `request` with this
// narrower view and take their answer types from the generated schemas instead.
interface LooseInit {
  params?: { path?: Record<string, string>; query?: Record<string, string | number> };
  body?: unknown;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string>;
  parseAs?: 'json' | 'stream';
}
type LooseRequest = (method: string, path: string, init?: LooseInit) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const SSE = 'text/event-stream';

/** Creates a client of the server at `options.baseUrl`. */
export function createClient(options: ClientOptions): ChromiumReplClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined && options.token !== '') headers['authorization'] = `Bearer ${options.token}`;
  const userFetch = options.fetch;
  const api = createOpenApiClient<paths>({
    baseUrl,
    headers,
    // Looked up per call, not captured: a test or polyfill may replace globalThis.fetch later.
    fetch: (request: Request) => (userFetch ?? globalThis.fetch)(request),
  });
  const request = api.request as unknown as LooseRequest;

  /** Sends through `send` and throws a {@link ClientError} for anything but a 2xx answer. */
  const settle = async <D>(send: () => Promise<{ data?: D; error?: unknown; response: Response }>, signal: AbortSignal | undefined): Promise<{ data: D; response: Response }> => {
    let answer: { data?: D; error?: unknown; response: Response };
    try {
      answer = await send();
    } catch (error) {
      throw transportError(error, signal, baseUrl);
    }
    if (!answer.response.ok) throw responseError(answer.response, answer.error);
    // openapi-fetch leaves `data` undefined only for answers without a body (204).
    return { data: answer.data as D, response: answer.response };
  };

  const call = (method: string, path: string, init: LooseInit): Promise<{ data: unknown; response: Response }> => settle(() => request(method, path, init), init.signal);

  const json = async <T>(method: string, path: string, init: LooseInit = {}): Promise<T> => {
    const { data } = await call(method, path, { ...init, headers: { accept: 'application/json', ...init.headers } });
    return data as T;
  };

  async function* stream(path: string, body: unknown, signal: AbortSignal | undefined): AsyncGenerator<SseEvent | { json: unknown }, void, undefined> {
    const { data, response } = await call('POST', path, { body, signal, parseAs: 'stream', headers: { accept: `${SSE}, application/json;q=0.5` } });
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.toLowerCase().startsWith(SSE)) {
      // A server without streaming answers the same call as JSON: one result, nothing before it.
      yield { json: await readJson(response, signal, baseUrl) };
      return;
    }
    if (data === null || data === undefined) throw new ClientError(response.status, 'CLIENT_ERR_BAD_RESPONSE', 'the event stream has no body');
    try {
      yield* parseEventStream(data as ReadableStream<Uint8Array>);
    } catch (error) {
      throw transportError(error, signal, baseUrl);
    }
  }

  /** Decodes the events of a stream, throws on `error`, and ends at `result`. */
  async function* typedStream<E extends { event: string }>(path: string, body: unknown, signal: AbortSignal | undefined, names: readonly string[]): AsyncGenerator<E, void, undefined> {
    for await (const event of stream(path, body, signal)) {
      if ('json' in event) {
        yield { event: 'result', data: event.json, id: '' } as unknown as E;
        return;
      }
      if (event.event === 'error') {
        const error = parseData(event) as Partial<ErrorBody>;
        throw new ClientError(200, String(error.code ?? 'REPL_ERR_INTERNAL'), String(error.message ?? 'the server reported an error'), { body: error });
      }
      // Events this client does not know (a newer server) are skipped, not failed on.
      if (!names.includes(event.event)) continue;
      yield { event: event.event, data: parseData(event), id: event.id } as unknown as E;
      if (event.event === 'result') return;
    }
    throw new ClientError(200, 'CLIENT_ERR_STREAM_ENDED', 'the event stream ended before its result event (the server stopped or the connection broke)');
  }

  const prefix = (options?: CallOptions) => (options?.browser === undefined ? '' : `/browsers/${encodeURIComponent(options.browser)}`);

  return {
    api,
    health: async (callOptions) => {
      const signal = callOptions?.signal;
      return (await settle(() => api.GET('/healthz', { signal }), signal)).data;
    },
    repl: (body, callOptions) => json('POST', `${prefix(callOptions)}/repl`, { body, signal: callOptions?.signal }),
    interrupt: (body = {}, callOptions) => json('POST', `${prefix(callOptions)}/repl/interrupt`, { body, signal: callOptions?.signal }),
    replStream: (body, callOptions) => typedStream<ReplStreamEvent>(`${prefix(callOptions)}/repl`, body, callOptions?.signal, ['cell', 'content', 'result']),
    replResult: (cellId, callOptions) => json('GET', `${prefix(callOptions)}/repl/results/${encodeURIComponent(cellId)}`, { signal: callOptions?.signal }),
    execute: (body, callOptions) => json('POST', `${prefix(callOptions)}/playwright/execute`, { body, signal: callOptions?.signal }),
    interruptExecute: (body = {}, callOptions) => json('POST', `${prefix(callOptions)}/playwright/interrupt`, { body, signal: callOptions?.signal }),
    executeStream: (body, callOptions) => typedStream<ExecuteStreamEvent>(`${prefix(callOptions)}/playwright/execute`, body, callOptions?.signal, ['stdout', 'stderr', 'result']),
    repls: async (callOptions) => (await json<{ repls: ReplInfo[] }>('GET', `${prefix(callOptions)}/repls`, { signal: callOptions?.signal })).repls,
    deleteRepl: async (name, callOptions) => {
      await call('DELETE', `${prefix(callOptions)}/repls/${encodeURIComponent(name)}`, { signal: callOptions?.signal });
    },
    webmcp: {
      listTools: async (callOptions) => (await json<{ tools: WebMcpTool[] }>('GET', `${prefix(callOptions)}/webmcp/tools`, { signal: callOptions?.signal })).tools,
      invokeTool: (body, callOptions) => json('POST', `${prefix(callOptions)}/webmcp/invoke`, { body, signal: callOptions?.signal }),
    },
    // Fixed paths: these go through the typed client, so a change of the spec that breaks them fails to compile.
    browsers: {
      create: async (params = {}, callOptions) => {
        const signal = callOptions?.signal;
        return (await settle(() => api.POST('/browsers', { body: params, signal }), signal)).data;
      },
      list: async (query = {}, callOptions) => {
        const signal = callOptions?.signal;
        const { data, response } = await settle(() => api.GET('/browsers', { params: { query }, signal }), signal);
        const next = response.headers.get('x-next-offset');
        const page: BrowserPage = { browsers: data, hasMore: response.headers.get('x-has-more') === 'true' };
        // The server sends X-Next-Offset: 0 on the last page; only a page that has a successor gets one.
        if (page.hasMore && next !== null && next !== '' && Number.isInteger(Number(next))) page.nextOffset = Number(next);
        return page;
      },
      retrieve: async (idOrName, callOptions) => {
        const signal = callOptions?.signal;
        return (await settle(() => api.GET('/browsers/{id_or_name}', { params: { path: { id_or_name: idOrName } }, signal }), signal)).data;
      },
      update: async (idOrName, params, callOptions) => {
        const signal = callOptions?.signal;
        return (await settle(() => api.PATCH('/browsers/{id_or_name}', { params: { path: { id_or_name: idOrName } }, body: params, signal }), signal)).data;
      },
      delete: async (idOrName, callOptions) => {
        const signal = callOptions?.signal;
        await settle(() => api.DELETE('/browsers/{id_or_name}', { params: { path: { id_or_name: idOrName } }, signal }), signal);
      },
    },
  };
}

function parseData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch (error) {
    throw new ClientError(200, 'CLIENT_ERR_BAD_RESPONSE', `the server sent a "${event.event}" event whose data is not JSON: ${event.data.slice(0, 200)}`, { cause: error });
  }
}

async function readJson(response: Response, signal: AbortSignal | undefined, baseUrl: string): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw transportError(error, signal, baseUrl);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ClientError(response.status, 'CLIENT_ERR_BAD_RESPONSE', `the server answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

/** A failure before or while reading an answer: an abort stays what it is, anything else says which server could not be reached. */
function transportError(error: unknown, signal: AbortSignal | undefined, baseUrl: string): unknown {
  if (signal?.aborted === true) return error;
  if (error instanceof ClientError) return error;
  if (error instanceof SyntaxError) {
    return new ClientError(0, 'CLIENT_ERR_BAD_RESPONSE', `the server's answer is not valid JSON: ${error.message}`, { cause: error });
  }
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, a reset, DNS) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ClientError(0, 'CLIENT_ERR_CONNECTION', `cannot reach ${baseUrl}: ${reason}`, { cause: error });
}

function responseError(response: Response, body: unknown): ClientError {
  if (body !== null && typeof body === 'object' && typeof (body as ErrorBody).message === 'string' && typeof (body as ErrorBody).code === 'string') {
    const { message, code } = body as ErrorBody;
    return new ClientError(response.status, code, message, { body });
  }
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new ClientError(response.status, 'CLIENT_ERR_HTTP', `the server answered ${response.status} ${response.statusText}${text === '' ? '' : `: ${text}`}`, { body });
}
