/**
 * `POST /repl`, `POST /repl/interrupt`, `GET /repl/results/{cell_id}`, `/repl/env`, `GET /repls`
 * and `DELETE /repls/{name}` for one browser host (docs/repl.md). `POST /repl` answers
 * JSON, or streams the cell as Server-Sent Events when the request accepts `text/event-stream`
 * (docs/repl.md#streaming).
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import { CELL_TIMEOUT } from '../../../common/timeout-sec.js';
import { Operation } from '../../../common/operation.js';
import type { Browser, ReplInfo } from '../../browsers/browser.js';
import { toWireContent, toWireResult } from '../../repl/cell-result.js';
import type { CellResult } from '../../repl/cell-result.js';
import { CellResults } from '../../repl/cell-results.js';
import type { Repl, RunOptions } from '../../repl/repl.js';
import { toWireExecutor } from '../../executor/execute-result.js';
import type { WireExecutor } from '../../executor/execute-result.js';
import { jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';
import { EventStream, wantsEventStream } from '../sse.js';
import { appBasePath, publicUrl } from '../public-url.js';
import { stringQuery } from '../paging.js';
import { exportRawTrace } from '../../trace/trace-export.js';

interface ReplRequestBody {
  code?: string;
  timeout_sec?: number;
  reset?: boolean;
  repl?: string;
  journal?: boolean;
  restore?: boolean;
}

interface InterruptRequestBody {
  repl?: string;
  cell_id?: string;
}

/** `ReplInterruptResult` of openapi.json. */
export interface WireInterrupt {
  interrupted: boolean;
  repl: string;
  cell_id?: string;
  repl_terminated?: true;
}

/** How long reading a trace may wait behind the REPL's running cell. */
const TRACE_READ_TIMEOUT_MS = 60_000;

/** A `true`/`false` query parameter (absent: false). */
function booleanQuery(value: unknown, field: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be "true" or "false"`);
}

/** Size limit of an interrupt body: two short fields. */
const INTERRUPT_BODY_BYTES = 4 * 1024;

/** `ReplInfo` of openapi.json: the fields of an executor's entry, plus the REPL's `repl_id`. */
export type WireRepl = WireExecutor & { repl_id: string | null };

export function toWireRepl(info: ReplInfo): WireRepl {
  return { ...toWireExecutor(info), repl_id: info.replId };
}

export function replRoutes(browserOf: BrowserOf): Router {
  const router = Router();

  router.post('/repl', jsonBody(LIMITS.replBodyBytes), async (req: Request, res: Response, next: NextFunction) => {
    // Every answer but a success says "do not retry": a retried cell would run twice.
    noRetry(res);
    const host = browserOf(req, res);
    requireBody(req.body);
    validateBody('BrowserReplRequest', req.body);
    const body = req.body as ReplRequestBody;
    const code = body.code ?? '';
    const reset = body.reset ?? false;
    const restore = body.restore ?? false;
    const streaming = wantsEventStream(req);
    // A streamed cell outlives its client (its result stays fetchable); a plain one is dropped with it.
    const operation = Operation.fromTimeoutSec(body.timeout_sec, CELL_TIMEOUT, { signal: streaming ? undefined : requestSignal(req, res) });
    if (code === '' && !reset && !restore) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'code is required (it may be empty only when reset or restore is true)');
    const encoded = mayExceedEncodedLimit(code) ? encodedRequestBytes(code, operation.timeoutMs) : 0;
    if (encoded > LIMITS.encodedRequestBytes) {
      throw new ReplError('REPL_ERR_CODE_TOO_LARGE',
        `code too large: encoded request is ${encoded} bytes, maximum is ${LIMITS.encodedRequestBytes}`);
    }
    let repl: Repl;
    try {
      repl = host.repl(body.repl ?? 'default');
    } catch (error) {
      // The limit answer carries the REPLs, so the caller can pick one to delete.
      const listed = error instanceof ReplError && error.code === 'REPL_ERR_CONFLICT' ? error.data?.['repls'] : undefined;
      if (!Array.isArray(listed)) {
        next(error);
        return;
      }
      res.status(409).json({ message: (error as ReplError).message, code: 'REPL_ERR_CONFLICT', repls: (listed as ReplInfo[]).map(toWireRepl) });
      return;
    }
    if (body.journal !== undefined) repl.journaling = body.journal;
    // Admitted: from here on the cell has an id under which its result can be fetched again.
    const results = cellResults(host);
    const cellId = randomUUID();
    results.start(cellId);
    if (streaming) {
      await streamCell(res, repl, cellId, resultUrl(req, res, cellId), results, code, { operation, reset, restore, cellId });
      return;
    }
    res.setHeader('x-cell-id', cellId);
    let result: CellResult;
    try {
      result = await repl.run(code, { operation, reset, restore, cellId });
    } catch (error) {
      results.fail(cellId, error);
      throw error;
    }
    results.finish(cellId, result);
    if (result.success) res.removeHeader('x-should-retry');
    res.json(toWireResult(result));
  });

  router.post('/repl/interrupt', jsonBody(INTERRUPT_BODY_BYTES), async (req: Request, res: Response) => {
    const host = browserOf(req, res);
    const body = (req.body ?? {}) as InterruptRequestBody;
    validateBody('ReplInterruptRequest', body);
    const name = body.repl ?? 'default';
    const outcome = await host.interruptRepl(name, body.cell_id === undefined ? {} : { cellId: body.cell_id });
    const answer: WireInterrupt = { interrupted: outcome.interrupted, repl: name };
    if (outcome.cellId !== undefined) answer.cell_id = outcome.cellId;
    if (outcome.replTerminated === true) answer.repl_terminated = true;
    res.json(answer);
  });

  router.get('/repl/results/:cell_id', (req: Request, res: Response) => {
    const cellId = String(req.params['cell_id']);
    const record = cellResults(browserOf(req, res)).get(cellId);
    if (record === undefined) {
      throw new ReplError('REPL_ERR_NOT_FOUND',
        `no result for cell "${cellId.slice(0, 64)}": unknown, or no longer kept (results are kept for 10 minutes, the last 32 per browser)`);
    }
    switch (record.state) {
      case 'running':
        res.status(202).json({ status: 'running', cell_id: cellId, result_url: resultUrl(req, res, cellId) });
        return;
      case 'failed':
        // The same answer as the call itself gave (or would have given) on the JSON path.
        throw record.error;
      case 'finished':
        res.json(toWireResult(record.result));
    }
  });

  // docs/trace.md: the REPL's trace of actions, exported (and replayed when asked).
  router.get('/repl/trace', async (req: Request, res: Response) => {
    const host = browserOf(req, res);
    const name = stringQuery(req.query['repl'], 'repl') ?? 'default';
    validateBody('ReplName', name);
    const replay = booleanQuery(req.query['replay'], 'replay');
    const clear = booleanQuery(req.query['clear'], 'clear');
    const title = stringQuery(req.query['title'], 'title');
    if (title !== undefined && (title === '' || title.length > 200)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'title must be 1 to 200 characters');
    const options = { replay, ...(title === undefined ? {} : { title }) };
    if (!host.replNames().includes(name)) {
      // The default REPL before its first cell has done nothing yet; any other name must exist.
      if (name !== 'default') throw new ReplError('REPL_ERR_NOT_FOUND', `no REPL named "${name}" (GET /repls lists them)`);
      res.json(await exportRawTrace({ entries: [], dropped: 0 }, options));
      return;
    }
    const operation = new Operation({ timeoutMs: TRACE_READ_TIMEOUT_MS, signal: requestSignal(req, res) });
    const outcome = await host.repl(name).tool(clear ? { op: 'trace', secrets: replay, clear } : { op: 'trace', secrets: replay }, { read: false, operation });
    res.json(await exportRawTrace(outcome.trace ?? { entries: [], dropped: 0 }, options));
  });

  router.get('/repls', async (req: Request, res: Response) => {
    const host = browserOf(req, res);
    res.json({ repls: (await host.listRepls()).map(toWireRepl) });
  });

  router.delete('/repls/:name', async (req: Request, res: Response) => {
    const name = String(req.params['name']);
    validateBody('ReplName', name);
    await browserOf(req, res).deleteRepl(name);
    res.status(204).end();
  });

  router.get('/repl/env', (req: Request, res: Response) => {
    res.json({ names: browserOf(req, res).envNames });
  });

  const putEnv = async (env: Record<string, string>, req: Request, res: Response) => {
    const host = browserOf(req, res);
    const { replTerminated } = await host.setEnv(env, { signal: requestSignal(req, res) });
    res.json(replTerminated ? { names: host.envNames, repl_terminated: true } : { names: host.envNames });
  };

  router.put('/repl/env', jsonBody(LIMITS.envBodyBytes), async (req: Request, res: Response) => {
    requireBody(req.body);
    const body = req.body as unknown;
    validateBody('ReplEnvRequest', body);
    await putEnv((body as { env: Record<string, string> }).env, req, res);
  });

  router.delete('/repl/env', async (req: Request, res: Response) => {
    await putEnv({}, req, res);
  });

  return router;
}

/**
 * Where `GET /repl/results/{cell_id}` answers for this cell, as the client reaches it: below the
 * same browser (`/browsers/{id}/…`) and the app's mount path (lib/http/public-url.ts).
 */
function resultUrl(req: Request, res: Response, cellId: string): string {
  return publicUrl(req, res, `${appBasePath(req, res)}/repl/results/${encodeURIComponent(cellId)}`).href;
}

/**
 * The results store of each host. Keyed by the host object, so a deleted browser's results go
 * with it, and both mounts of one host (`/repl`, `/browsers/{id}/repl`) share one store.
 */
const resultStores = new WeakMap<Browser, CellResults>();

function cellResults(host: Browser): CellResults {
  let store = resultStores.get(host);
  if (store === undefined) {
    store = new CellResults();
    resultStores.set(host, store);
  }
  return store;
}

/**
 * Runs an admitted cell as an event stream: `cell`, a `content` event per item as the worker
 * produces it, then `result` (or `error` for a host failure). The cell is not tied to the
 * connection: a client that goes away stops receiving events, the cell runs on, and its result
 * lands in the store like every other.
 */
async function streamCell(
  res: Response, repl: Repl, cellId: string, resultUrl: string, results: CellResults, code: string,
  options: Pick<RunOptions, 'operation' | 'reset' | 'restore' | 'cellId'>,
): Promise<void> {
  const stream = new EventStream(res, { headers: { 'x-cell-id': cellId } });
  stream.send('cell', { cell_id: cellId, repl: repl.name, result_url: resultUrl });
  try {
    const result = await repl.run(code, {
      ...options,
      // Base64 only while someone listens; the result still carries every item.
      onOutput: (item) => {
        if (stream.connected) stream.send('content', toWireContent(item));
      },
    });
    results.finish(cellId, result);
    stream.send('result', toWireResult(result));
  } catch (error) {
    results.fail(cellId, error);
    stream.sendError(error);
  } finally {
    stream.end();
  }
}

/**
 * Size of a cell as the hosted product's daemon request line (`{"id","code","timeout_ms"}`), so
 * the `code too large` rule (docs/repl.md, "Request") gives the same answer as the hosted product.
 */
const UUID_LENGTH = 36;
// Go's encoder escapes \b and \f as \u0008/\u000c and U+2028/U+2029 as \u2028/\u2029; JSON.stringify does not.
const EXTRA_ESCAPES = /[\b\f\u2028\u2029]/g;

/**
 * False when `code` cannot reach the limit however it encodes: a UTF-16 unit becomes at most six
 * bytes of the request line (`\u0000`, a lone surrogate, `\u2028`), and the rest of the line is
 * under 100 bytes. Spares a trivial cell the encoding (issue 26's fixed cost).
 */
function mayExceedEncodedLimit(code: string): boolean {
  return code.length * 6 + 100 > LIMITS.encodedRequestBytes;
}

export function encodedRequestBytes(code: string, timeoutMs: number): number {
  const line = JSON.stringify({ id: 'x'.repeat(UUID_LENGTH), code, timeout_ms: timeoutMs });
  let bytes = Buffer.byteLength(line, 'utf8');
  for (const match of code.matchAll(EXTRA_ESCAPES)) bytes += match[0] === '\b' || match[0] === '\f' ? 4 : 3;
  return bytes;
}
