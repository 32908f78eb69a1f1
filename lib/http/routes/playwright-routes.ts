/**
 * `POST /playwright/execute`, `POST /playwright/interrupt`, `GET /playwright/executors`,
 * `DELETE /playwright/executors/{name}` for one browser host. `POST /playwright/execute` answers JSON, or streams the call's console
 * output as Server-Sent Events when the request accepts `text/event-stream` (docs/playwright.md#streaming).
 */
import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import { CELL_TIMEOUT } from '../../../common/timeout-sec.js';
import { Operation } from '../../../common/operation.js';
import type { PlaywrightExecuteRequest, PlaywrightExecutors } from '../../executor/executor-registry.js';
import { toWireExecuteResult, toWireExecutor } from '../../executor/execute-result.js';
import type { PlaywrightExecutorInfo } from '../../executor/execute-result.js';
import { browserPart, jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';
import { EventStream, wantsEventStream } from '../sse.js';

/** Size limit of an interrupt body: one short field. */
const INTERRUPT_BODY_BYTES = 4 * 1024;

interface ExecuteRequestBody {
  code: string;
  executor?: string;
  timeout_sec?: number;
}

/** The executor routes of `host`; a host without a browser answers them with `REPL_ERR_BROWSER_NOT_FOUND`. */
export function playwrightRoutes(browserOf: BrowserOf): Router {
  const router = Router();

  const executors = (req: Request, res: Response): PlaywrightExecutors => browserPart(browserOf(req, res).executors, 'Playwright executors');

  router.post('/playwright/execute', jsonBody(LIMITS.replBodyBytes), async (req: Request, res: Response, next: NextFunction) => {
    // Every answer but a success says "do not retry": a retried call would run its code twice.
    noRetry(res);
    requireBody(req.body);
    validateBody('ExecutePlaywrightRequest', req.body);
    const body = req.body as ExecuteRequestBody;
    const streaming = wantsEventStream(req);
    // A streamed call outlives its client, as before; a plain one waiting for its turn is dropped with it.
    const operation = Operation.fromTimeoutSec(body.timeout_sec, CELL_TIMEOUT, { signal: streaming ? undefined : requestSignal(req, res) });
    const call: PlaywrightExecuteRequest = { code: body.code, executor: body.executor, operation };
    try {
      if (streaming) {
        await streamExecute(executors(req, res), call, res);
        return;
      }
      const result = await executors(req, res).execute(call);
      if (result.success) res.removeHeader('x-should-retry');
      res.json(toWireExecuteResult(result));
    } catch (error) {
      // The limit answer carries the executors, so the caller can pick one to delete.
      const listed = error instanceof ReplError && error.code === 'REPL_ERR_CONFLICT' ? error.data?.['executors'] : undefined;
      if (!Array.isArray(listed)) {
        next(error);
        return;
      }
      res.status(409).json({
        message: (error as ReplError).message,
        code: 'REPL_ERR_CONFLICT',
        executors: (listed as PlaywrightExecutorInfo[]).map(toWireExecutor),
      });
    }
  });

  router.post('/playwright/interrupt', jsonBody(INTERRUPT_BODY_BYTES), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { executor?: string };
    validateBody('PlaywrightInterruptRequest', body);
    const name = body.executor ?? 'default';
    const outcome = await executors(req, res).interrupt(name);
    res.json(outcome.workerTerminated === true
      ? { interrupted: outcome.interrupted, executor: name, worker_terminated: true }
      : { interrupted: outcome.interrupted, executor: name });
  });

  router.get('/playwright/executors', async (req: Request, res: Response) => {
    const list = await executors(req, res).list();
    res.json({ executors: list.map(toWireExecutor) });
  });

  router.delete('/playwright/executors/:name', async (req: Request, res: Response) => {
    const name = String(req.params['name']);
    validateBody('PlaywrightExecutorName', name);
    await executors(req, res).delete(name, { closeTab: parseCloseTab(req.query['close_tab']) });
    res.status(204).end();
  });

  return router;
}

/**
 * Runs one call as an event stream: a `stdout` or `stderr` event per console write, then
 * `result` (or `error` for a failure after admission). The stream opens when the executor admits
 * the call, so refusals before that (the executor limit, a bad engine) still answer plain JSON:
 * they are rethrown to the route. A client that goes away does not stop the call.
 */
async function streamExecute(executors: PlaywrightExecutors, call: PlaywrightExecuteRequest, res: Response): Promise<void> {
  let stream: EventStream | undefined;
  try {
    const result = await executors.execute({
      ...call,
      onAdmitted: () => {
        stream = new EventStream(res);
      },
      onOutput: ({ channel, text }) => stream?.send(channel, { text }),
    });
    // Some answers come without admission (the executors are shutting down): still a stream, as asked.
    stream ??= new EventStream(res);
    stream.send('result', toWireExecuteResult(result));
  } catch (error) {
    if (stream === undefined) throw error;
    stream.sendError(error);
  } finally {
    stream?.end();
  }
}

function parseCloseTab(value: unknown): boolean {
  if (value === undefined) return true;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ReplError('REPL_ERR_INVALID_REQUEST', 'close_tab must be true or false');
}
