/**
 * Raw CDP access from cells: `cdp` (routed like the hosted product), `drainEvents` and
 * `waitForEvent` over the client's event ring and one-shot waiters (docs/repl.md, `browser.cdp`,
 * `browser.drainEvents`, `browser.waitForEvent`).
 */
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';

import type { CdpEvent, CdpMethod } from '../../../common/cdp/cdp-session.js';
import type { HelperContext } from '../helper-context.js';

/** Methods that `cdp()` sends browser-level when no session argument is given. */
const BROWSER_LEVEL_METHOD = /^(Target|Browser|SystemInfo|Storage)\./;

const DEFAULT_EVENT_TIMEOUT_SEC = 30;

function readSessionArgument(helper: string, value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || value === '') throw invalidArgument(`${helper}: sessionId must be a non-empty string or null`);
  return value;
}

export function createCdpHelpers(context: HelperContext) {
  const { client } = context;

  /**
   * Sends one raw CDP command. `sessionId === null`: browser-level; a string: that session, sent
   * as is (never retried); omitted: Target/Browser/SystemInfo/Storage go browser-level and
   * everything else to the attached page (attaching first, safe methods retried once).
   */
  async function cdp(method: unknown, params?: unknown, sessionId?: unknown): Promise<unknown> {
    if (typeof method !== 'string' || method.trim() === '') throw invalidArgument('cdp: method must be a non-empty string');
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
      throw invalidArgument('cdp: params must be an object');
    }
    const session = readSessionArgument('cdp', sessionId);
    // The typed client accepts any protocol method; user input is by nature untyped.
    const name = method as CdpMethod;
    const args = params as never;
    if (session === null) return client.browserCommand(name, args, context.callOptions());
    if (session !== undefined) return client.send(name, args, context.callOptions({ sessionId: session }));
    if (BROWSER_LEVEL_METHOD.test(method)) return client.browserCommand(name, args, context.callOptions());
    return client.sessionCommand(name, args, context.callOptions());
  }

  /** Attaches a page if none is, then returns and clears the connection-wide event buffer. */
  async function drainEvents(): Promise<CdpEvent[]> {
    await client.ensureAttached(context.callOptions());
    return client.drainEvents();
  }

  /**
   * Arms a one-shot waiter for the next `method` event and returns its promise (event or `null`
   * on timeout). Validation throws synchronously, so arm → act → await is safe.
   */
  function waitForEvent(method: unknown, options?: unknown): Promise<CdpEvent | null> {
    if (typeof method !== 'string' || method.trim() === '') throw invalidArgument('waitForEvent: method must be a non-empty string');
    const opts = readOptions('waitForEvent', options, ['sessionId', 'timeoutSec', 'predicate']);
    const timeoutSec = nonNegativeSeconds('waitForEvent', opts['timeoutSec'], DEFAULT_EVENT_TIMEOUT_SEC);
    const predicate = opts['predicate'];
    if (predicate !== undefined && typeof predicate !== 'function') throw invalidArgument('waitForEvent: predicate must be a function');
    let sessionId: string | null | undefined;
    if (Object.hasOwn(opts, 'sessionId')) {
      sessionId = readSessionArgument('waitForEvent', opts['sessionId']);
      // An explicit `undefined` reads as "the attached page", like an absent key.
      if (sessionId === undefined) sessionId = attachedSession();
    } else {
      sessionId = attachedSession();
    }
    // No cell signal: a waiter the cell did not await resolves null at the (clamped) timeout
    // instead of rejecting into a later cell as an unhandled rejection.
    return client.waitForEvent(method, context.callOptions({
      sessionId,
      timeoutMs: timeoutSec * 1000,
      predicate: predicate as ((event: CdpEvent) => boolean) | undefined,
    }));
  }

  function attachedSession(): string {
    const session = client.sessionId;
    if (session === undefined) {
      throw new ReplError(
        'REPL_ERR_TARGET_NOT_FOUND',
        'waitForEvent: no target is attached; call ensureRealTab() or newTab() before arming a page event',
      );
    }
    return session;
  }

  return { cdp, drainEvents, waitForEvent };
}
