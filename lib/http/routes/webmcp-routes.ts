/**
 * `GET /webmcp/tools` and `POST /webmcp/invoke` for one browser host: the tools its pages declare
 * (WebMCP, docs/webmcp.md), listed and invoked in Kernel's shapes through the host's monitor
 * (lib/webmcp). The routes see every tab except those of agent-tool sessions' isolated contexts
 * (the monitor leaves those out when no scope is given). Everything a tool's metadata and output
 * hold is written by a page: the routes pass it on as data and never interpret it.
 */
import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import { checkInvocation } from '../../webmcp/invocations.js';
import type { WebMcpTools } from '../../webmcp/types.js';
import { browserPart, jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

/** Kernel's raw body limit: the largest `input` (1 MiB of JSON) plus 4 KiB for `tool_ref` and `timeout_sec`. */
const WEBMCP_INVOKE_BODY_BYTES = LIMITS.webmcpInputBytes + 4 * 1024;

interface InvokeRequestBody {
  tool_ref: string;
  input: Record<string, unknown>;
  timeout_sec?: number;
}

/** The body of a 504: the registry's `{message, code}` plus the invocation id, when the page got as far as giving one. */
function outcomeUnknownBody(error: ReplError): { message: string; code: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN'; invocation_id?: string } {
  const invocationId = error.data?.['invocationId'];
  return {
    message: error.message,
    code: 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN',
    ...(typeof invocationId === 'string' ? { invocation_id: invocationId } : {}),
  };
}

/** The WebMCP routes of `host`; a host without a browser answers them with `REPL_ERR_BROWSER_NOT_FOUND`. */
export function webmcpRoutes(browserOf: BrowserOf): Router {
  const router = Router();

  const webmcp = (req: Request, res: Response): WebMcpTools => browserPart(browserOf(req, res).webmcp, 'page tools (WebMCP)');

  router.get('/webmcp/tools', async (req: Request, res: Response) => {
    const tools = await webmcp(req, res).listTools({ signal: requestSignal(req, res) });
    res.json({ tools });
  });

  // Every answer but a success says "do not retry" (a retried invocation may run the tool twice),
  // set before the body is read so that a 413 says it too.
  const noRetryFirst = (_req: Request, res: Response, next: NextFunction) => {
    noRetry(res);
    next();
  };

  router.post('/webmcp/invoke', noRetryFirst, jsonBody(WEBMCP_INVOKE_BODY_BYTES), async (req: Request, res: Response, next: NextFunction) => {
    // All of the validation comes before the host is asked anything: a bad request never reaches the browser.
    requireBody(req.body);
    validateBody('WebMcpInvokeRequest', req.body);
    const body = req.body as InvokeRequestBody;
    // The schema checks shapes; the size of `input` as JSON is the monitor's own rule, applied here too.
    checkInvocation(body.tool_ref, body.input, body.timeout_sec);
    const tools = webmcp(req, res);
    try {
      const invocation = await tools.invokeTool(body.tool_ref, body.input, {
        timeoutSec: body.timeout_sec ?? LIMITS.webmcpTimeoutSecDefault,
        // A client that goes away stops the wait and cancels the page's invocation (best effort).
        signal: requestSignal(req, res),
      });
      res.removeHeader('x-should-retry');
      res.json(invocation);
    } catch (error) {
      // The one failure whose answer carries more than {message, code}: the invocation id, so the caller can tell the page's log.
      if (error instanceof ReplError && error.code === 'REPL_ERR_WEBMCP_OUTCOME_UNKNOWN') {
        res.status(504).json(outcomeUnknownBody(error));
        return;
      }
      next(error);
    }
  });

  return router;
}
