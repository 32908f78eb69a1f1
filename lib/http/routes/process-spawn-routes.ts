/**
 * The background processes of one browser host, in the paths and shapes of the Kernel SDK
 * (`client.browsers.process.spawn`, `status`, `stdin`, `stdoutStream`, `kill`, `resize`);
 * docs/process-and-files.md#background-processes has the rules, lib/system/process-spawn.ts the
 * engine. Mounted with `process/exec` (lib/http/routes/process-routes.ts), so every route exists
 * at the top level and below `/browsers/{id_or_name}/`.
 *
 * The stream: unnamed SSE events (`data:` JSON only, as the SDK's `Stream` reads them), first the
 * output kept so far, then each new chunk, then `{"event":"exit",…}`, and the response ends. A
 * reader that falls 8 MiB behind is cut off; connecting again replays the kept output.
 */
import type { Request, Response, Router } from 'express';
import { ReplError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import type { Browser } from '../../browsers/browser.js';
import { checkIdentity } from '../../system/process-exec.js';
import type { ExitInfo, KillSignal, SpawnedProcess, SpawnedProcesses } from '../../system/process-spawn.js';
import { jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';
import { EventStream } from '../sse.js';

interface ProcessSpawnBody {
  command: string;
  args?: string[];
  cwd?: string | null;
  env?: Record<string, string>;
  timeout_sec?: number | null;
  as_user?: string | null;
  as_root?: boolean | null;
  allocate_tty?: boolean | null;
  cols?: number | null;
  rows?: number | null;
}

/** The size of a new terminal when `cols` or `rows` is left out (a VT100's). */
const DEFAULT_TTY = { cols: 80, rows: 24 };
/** JSON bodies of stdin (base64 of up to 1 MiB of bytes fits), kill and resize. */
const STDIN_BODY_BYTES = 2 * 1024 * 1024;
const SMALL_BODY_BYTES = 64 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The SDK's exit event, plus `signal` and `timed_out` when they apply. */
function exitEvent(info: ExitInfo): Record<string, unknown> {
  const event: Record<string, unknown> = { event: 'exit', exit_code: info.exitCode };
  if (info.signal !== null) event['signal'] = info.signal;
  if (info.timedOut) event['timed_out'] = true;
  return event;
}

/**
 * Adds the routes of background processes to `router`. `environment` gives a command's complete
 * environment (the server's, `CDP_ENDPOINT`, then the request's), as `process/exec` builds it.
 */
export function addProcessSpawnRoutes(router: Router, browserOf: BrowserOf, processes: SpawnedProcesses,
  environment: (host: Browser, signal: AbortSignal, extra: Record<string, string>) => Promise<Record<string, string | undefined>>): void {
  // The browsers whose end already kills their processes (one hook each).
  const hooked = new WeakSet<Browser>();
  const processOf = (req: Request, res: Response): SpawnedProcess => processes.get(browserOf(req, res).id, String(req.params['process_id']));

  router.post('/process/spawn', jsonBody(LIMITS.processExecBodyBytes), async (req: Request, res: Response) => {
    // The Kernel SDK retries 5xx answers; a retried spawn would start the command twice.
    noRetry(res);
    const host = browserOf(req, res);
    requireBody(req.body);
    validateBody('ProcessSpawnRequest', req.body);
    const body = req.body as ProcessSpawnBody;
    checkIdentity(body.as_user, body.as_root);
    if (body.allocate_tty !== true && (typeof body.cols === 'number' || typeof body.rows === 'number')) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', 'cols and rows size a terminal: set allocate_tty: true with them');
    }
    if (host.closed) throw new ReplError('REPL_ERR_CLOSED', 'this browser is shutting down');
    if (!hooked.has(host)) {
      hooked.add(host);
      // Before its Chromium goes: nothing a browser's user started outlives the browser.
      // Forgotten when it runs: a pooled browser's cleaning runs it too, and its next user's processes need it again.
      host.onEnd(async () => {
        hooked.delete(host);
        await processes.endOwner(host.id);
      });
    }
    const spawned = await processes.spawn(host.id, {
      command: body.command,
      args: body.args ?? [],
      cwd: body.cwd ?? undefined,
      env: await environment(host, requestSignal(req, res), body.env ?? {}),
      timeoutMs: typeof body.timeout_sec === 'number' ? body.timeout_sec * 1000 : undefined,
      tty: body.allocate_tty === true ? { cols: body.cols ?? DEFAULT_TTY.cols, rows: body.rows ?? DEFAULT_TTY.rows } : undefined,
    });
    res.removeHeader('x-should-retry');
    res.json({ process_id: spawned.id, pid: spawned.pid, started_at: spawned.startedAt.toISOString() });
  });

  router.get('/process/:process_id/status', (req: Request, res: Response) => {
    res.json(processOf(req, res).status());
  });

  router.post('/process/:process_id/stdin', jsonBody(STDIN_BODY_BYTES), (req: Request, res: Response) => {
    // A retried write would send the bytes twice.
    noRetry(res);
    const spawned = processOf(req, res);
    requireBody(req.body);
    validateBody('ProcessStdinRequest', req.body);
    const { data_b64: data } = req.body as { data_b64: string };
    if (!BASE64.test(data)) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'data_b64 must be base64 (RFC 4648, padded)');
    const written = spawned.write(Buffer.from(data, 'base64'));
    res.removeHeader('x-should-retry');
    res.json({ written_bytes: written });
  });

  router.get('/process/:process_id/stdout/stream', (req: Request, res: Response) => {
    const spawned = processOf(req, res);
    const stream = new EventStream(res, { headers: { 'x-sse-content-type': 'application/json' } });
    let dispose: () => void = () => undefined;
    let done = false;
    const end = (): void => {
      if (done) return;
      done = true;
      dispose();
      stream.end();
    };
    dispose = spawned.follow({
      chunk: (chunk) => {
        if (done) return;
        // Cut off rather than buffered without bound; connecting again replays the kept output.
        if (stream.backlog > LIMITS.processSpawnStreamBacklogBytes) {
          end();
          return;
        }
        stream.sendData(undefined, { stream: chunk.stream, data_b64: chunk.data.toString('base64') });
      },
      exit: (info) => {
        stream.sendData(undefined, exitEvent(info));
        end();
      },
    });
    // `follow` may have ended the stream already (an exited process); `end` is idempotent.
    if (done) dispose();
    res.once('close', end);
  });

  router.post('/process/:process_id/kill', jsonBody(SMALL_BODY_BYTES), (req: Request, res: Response) => {
    const spawned = processOf(req, res);
    requireBody(req.body);
    validateBody('ProcessKillRequest', req.body);
    spawned.kill((req.body as { signal: KillSignal }).signal);
    res.json({ ok: true });
  });

  router.post('/process/:process_id/resize', jsonBody(SMALL_BODY_BYTES), async (req: Request, res: Response) => {
    const spawned = processOf(req, res);
    requireBody(req.body);
    validateBody('ProcessResizeRequest', req.body);
    const { cols, rows } = req.body as { cols: number; rows: number };
    await spawned.resize({ cols, rows });
    res.json({ ok: true });
  });
}
