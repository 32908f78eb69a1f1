/**
 * `POST /process/exec` for one browser host, in the shapes of the Kernel SDK
 * (`client.browsers.process.exec`); docs/process-and-files.md has the rules. The background
 * processes (`process/spawn` and the routes of one `process_id`) are added here too, from
 * lib/http/routes/process-spawn-routes.ts.
 */
import { Router } from 'express';
import type { Request, Response } from 'express';
import { LIMITS } from '../../../common/limits.js';
import type { components } from '../../client/openapi-types.js';
import type { Browser } from '../../browsers/browser.js';
import { checkIdentity, execProcess } from '../../system/process-exec.js';
import type { ExecResult } from '../../system/process-exec.js';
import type { SpawnedProcesses } from '../../system/process-spawn.js';
import { addProcessSpawnRoutes } from './process-spawn-routes.js';
import { jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

interface ProcessExecBody {
  command: string;
  args?: string[];
  cwd?: string | null;
  env?: Record<string, string>;
  timeout_sec?: number | null;
  as_user?: string | null;
  as_root?: boolean | null;
}

/** `ProcessExecResult` of openapi.json (the generated type); the optional fields appear only when true or set. */
export type WireExecResult = components['schemas']['ProcessExecResult'];

export function toWireExecResult(result: ExecResult): WireExecResult {
  const wire: WireExecResult = {
    exit_code: result.exitCode,
    stdout_b64: result.stdout.toString('base64'),
    stderr_b64: result.stderr.toString('base64'),
    duration_ms: result.durationMs,
  };
  if (result.stdoutTruncated) wire.stdout_truncated = true;
  if (result.stderrTruncated) wire.stderr_truncated = true;
  if (result.timedOut) wire.timed_out = true;
  if (result.signal !== null) wire.signal = result.signal;
  return wire;
}

/**
 * The endpoint of the host's browser when one is already there (attached, or launched and
 * running), so a command can drive it; never launches one. Read in the same tick as `launched`,
 * so `endpoint()` takes its synchronous path and cannot start a launch.
 */
async function runningBrowserEndpoint(host: Browser, signal: AbortSignal): Promise<string | undefined> {
  const browser = host.chromium;
  if (browser === null || browser.closed) return undefined;
  if (browser.mode !== 'attach' && !browser.launched) return undefined;
  try {
    return await browser.endpoint({ signal });
  } catch {
    // The browser went away meanwhile; the command runs without it.
    return undefined;
  }
}

/**
 * A command's complete environment: the server's, then `CDP_ENDPOINT` when the host's browser
 * already runs, then the request's variables (they win over both).
 */
async function commandEnvironment(host: Browser, signal: AbortSignal, extra: Record<string, string>): Promise<Record<string, string | undefined>> {
  const cdpEndpoint = await runningBrowserEndpoint(host, signal);
  const env: Record<string, string | undefined> = { ...process.env };
  if (cdpEndpoint !== undefined) env['CDP_ENDPOINT'] = cdpEndpoint;
  return Object.assign(env, extra);
}

/** The process routes of one browser host; `processes` adds the background processes' routes. */
export function processRoutes(browserOf: BrowserOf, processes?: SpawnedProcesses): Router {
  const router = Router();

  router.post('/process/exec', jsonBody(LIMITS.processExecBodyBytes), async (req: Request, res: Response) => {
    // The Kernel SDK retries 5xx answers; a retried command would run twice.
    noRetry(res);
    const host = browserOf(req, res);
    requireBody(req.body);
    validateBody('ProcessExecRequest', req.body);
    const body = req.body as ProcessExecBody;
    checkIdentity(body.as_user, body.as_root);
    const signal = requestSignal(req, res);
    // The request's variables win over the server's and over CDP_ENDPOINT.
    const env = await commandEnvironment(host, signal, body.env ?? {});
    const result = await execProcess({
      command: body.command,
      args: body.args ?? [],
      cwd: body.cwd ?? undefined,
      env,
      timeoutMs: (body.timeout_sec ?? LIMITS.processTimeoutSecDefault) * 1000,
      signal,
    });
    res.removeHeader('x-should-retry');
    res.json(toWireExecResult(result));
  });

  if (processes !== undefined) addProcessSpawnRoutes(router, browserOf, processes, commandEnvironment);
  return router;
}
