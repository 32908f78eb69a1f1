/**
 * `chromium-repl wait-idle`: the pod's preStop hook (docs/deploy.md#autoscaling). It tells the
 * server to take no new browsers (SIGUSR2; the live ones keep working, peers and the Service send
 * creates elsewhere), then waits until the server holds no browser of `POST /browsers` and no
 * create waits there (its `GET /pressure`), or until `--max-seconds` pass. The kubelet sends
 * SIGTERM only after the hook returns, so a pod that is scaled down or replaced ends idle unless
 * its browsers outlive the wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { EXIT, UsageError, integerFlag, parseFlags } from './options.js';

export const WAIT_IDLE_USAGE = `Usage: chromium-repl wait-idle [options]

Makes a running server take no new browsers (SIGUSR2 to --pid; its live browsers keep working,
/readyz and /pressure say draining), then waits until it holds no browser of POST /browsers and no
create waits on it, or until --max-seconds pass. For a pod's preStop hook (docs/deploy.md#autoscaling).

  --pid N           the process to signal (default 1: in the image tini, which passes it to the server)
  --port N          the server's port on 127.0.0.1 (default PORT, else 10001)
  --max-seconds N   wait at most this long (default 600)
  --interval-ms N   how often /pressure is asked (default 1000)

Reads BROWSER_REPL_TOKEN for /pressure. Exit codes: 0 idle, 1 still busy after --max-seconds,
2 a usage error, no server at the port, or a server that did not take the signal (a wrong --pid).
`;

interface PressureAnswer {
  running: number;
  queued: number;
  draining: boolean;
}

/** How long the server may take to say it drains after the signal. */
const SIGNAL_TAKEN_MS = 5_000;

export async function waitIdle(args: string[]): Promise<number> {
  const { values } = parseFlags('wait-idle', {
    args,
    options: {
      pid: { type: 'string' },
      port: { type: 'string' },
      'max-seconds': { type: 'string' },
      'interval-ms': { type: 'string' },
    },
  });
  const pid = integerFlag(values.pid, '--pid', 1, 2 ** 22, 'wait-idle') ?? 1;
  const port = integerFlag(values.port ?? process.env['PORT'], '--port', 1, 65_535, 'wait-idle') ?? 10001;
  const maxSeconds = integerFlag(values['max-seconds'], '--max-seconds', 0, 86_400, 'wait-idle') ?? 600;
  const intervalMs = integerFlag(values['interval-ms'], '--interval-ms', 10, 60_000, 'wait-idle') ?? 1000;
  const token = process.env['BROWSER_REPL_TOKEN'];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined && token !== '') headers['authorization'] = `Bearer ${token}`;
  const pressure = async (): Promise<PressureAnswer> => {
    let answer;
    try {
      answer = await request(`http://127.0.0.1:${port}/pressure`, { headers, headersTimeout: 5_000, bodyTimeout: 5_000 });
    } catch (error) {
      throw new UsageError(`no server answers on 127.0.0.1:${port} (${(error as Error).message})`, 'wait-idle');
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new UsageError(`GET /pressure on 127.0.0.1:${port} answered ${answer.statusCode}${answer.statusCode === 401 ? ': set BROWSER_REPL_TOKEN' : ''}`, 'wait-idle');
    }
    return await answer.body.json() as PressureAnswer;
  };
  // Asked once before the signal, so a wrong port or token is said before anything changes.
  await pressure();
  try {
    process.kill(pid, 'SIGUSR2');
  } catch (error) {
    throw new UsageError(`cannot signal process ${pid}: ${(error as Error).message}`, 'wait-idle');
  }
  // The signal's effect, seen: a --pid that is not the server (or tini before it) changes nothing.
  const taken = Date.now() + SIGNAL_TAKEN_MS;
  while (!(await pressure()).draining) {
    if (Date.now() >= taken) {
      throw new UsageError(`the server on 127.0.0.1:${port} still takes new browsers ${SIGNAL_TAKEN_MS / 1000}s after SIGUSR2 to process ${pid}: is --pid the server, or tini in front of it?`, 'wait-idle');
    }
    await sleep(50);
  }
  const deadline = Date.now() + maxSeconds * 1000;
  for (;;) {
    const { running, queued } = await pressure();
    if (running === 0 && queued === 0) {
      process.stdout.write('chromium-repl wait-idle: the server holds no browser\n');
      return EXIT.ok;
    }
    if (Date.now() >= deadline) {
      process.stdout.write(`chromium-repl wait-idle: still ${running} browsers and ${queued} waiting creates after ${maxSeconds}s\n`);
      return EXIT.cellFailed;
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}
