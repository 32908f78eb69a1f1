/**
 * `GET /browsers/{id}/telemetry/stream` and `GET /browsers/{id}/telemetry/events`, with the Kernel
 * SDK's paths, parameters and shapes (`client.browsers.telemetry.*`; docs/telemetry.md). Both read
 * the browser's ring (lib/telemetry/event-ring.ts); capture itself is turned on by `telemetry` of
 * `POST /browsers` or `PATCH /browsers/{id}`.
 *
 * The stream: unnamed SSE events, `id:` the envelope's seq, `data:` the envelope as JSON; a
 * keepalive comment every 15 s; `Last-Event-ID` resumes after that seq (it wins over `replay`),
 * `replay=all` starts at the oldest retained event, otherwise only new events are sent. A client
 * that does not keep up (its unread backlog passes {@link MAX_BACKLOG_BYTES}) is cut off rather
 * than buffered without bound: it reconnects with its `Last-Event-ID` and resumes from the ring.
 */
import { Router } from 'express';
import type { Request, Response } from 'express';
import { ReplError } from '../../../common/errors.js';
import { lastEventId, streamStart } from '../../telemetry/event-ring.js';
import type { Envelope } from '../../telemetry/event-ring.js';
import { TELEMETRY_CATEGORIES } from '../../telemetry/config.js';
import type { TelemetryEvent } from '../../telemetry/telemetry.js';
import type { BrowserOf } from '../middleware.js';
import { EventStream } from '../sse.js';

/** Unread bytes a stream's client may fall behind by before it is cut off. */
export const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1_000;
/** The window `since` defaults to (the SDK's "Defaults to 5m"). */
const DEFAULT_SINCE_MS = 5 * 60_000;
/** Categories of the `category` filter: the configurable ones and `monitor`. */
const FILTER_CATEGORIES = new Set<string>([...TELEMETRY_CATEGORIES, 'monitor']);

export interface TelemetryRoutesOptions {
  /** @internal Test seam: the keepalive interval. */
  keepaliveMs?: number | undefined;
}

export function telemetryRoutes(browserOf: BrowserOf, options: TelemetryRoutesOptions = {}): Router {
  const router = Router();

  router.get('/telemetry/stream', (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    const { telemetry } = browser;
    const { ring } = telemetry;
    const replay = single(req, 'replay');
    let sent = streamStart(ring, lastEventId(req.headers['last-event-id']), replay);
    const stream = new EventStream(res, options.keepaliveMs === undefined ? {} : { keepaliveMs: options.keepaliveMs });
    const disposers: Array<() => void> = [];
    const end = (): void => {
      for (const dispose of disposers.splice(0)) dispose();
      stream.end();
    };
    const deliver = (envelope: Envelope<TelemetryEvent>): void => {
      if (envelope.seq <= sent) return;
      if (stream.backlog > MAX_BACKLOG_BYTES) {
        end();
        return;
      }
      sent = envelope.seq;
      stream.sendData(envelope.seq, envelope);
    };
    // The ring pushes synchronously: subscribing and then replaying leaves no gap between the two.
    disposers.push(ring.subscribe(deliver));
    for (const envelope of ring.after(sent)) deliver(envelope);
    // The stream closes when the browser session ends (the SDK's promise).
    disposers.push(telemetry.onClose(end));
    res.once('close', end);
  });

  router.get('/telemetry/events', (req: Request, res: Response) => {
    const browser = browserOf(req, res);
    const offset = integer(single(req, 'offset'), 'offset', 0);
    const limit = integer(single(req, 'limit'), 'limit', DEFAULT_PAGE);
    if (limit < 1 || limit > MAX_PAGE) throw new ReplError('REPL_ERR_INVALID_REQUEST', `limit must be from 1 to ${MAX_PAGE}`);
    const order = single(req, 'order') ?? 'asc';
    if (order !== 'asc' && order !== 'desc') throw new ReplError('REPL_ERR_INVALID_REQUEST', 'order must be asc or desc');
    const sinceText = single(req, 'since');
    if (order === 'desc' && sinceText !== undefined) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'since cannot be combined with order=desc (page back from offset or until instead)');
    const now = Date.now();
    const until = instant(single(req, 'until'), 'until', now);
    // Ignored once an offset cursor is given (the SDK's rule).
    const since = offset > 0 ? undefined : instant(sinceText, 'since', now) ?? now - DEFAULT_SINCE_MS;
    const categories = categoryFilter(req.query['category']);

    const inWindow = (envelope: Envelope<TelemetryEvent>): boolean =>
      (since === undefined || envelope.event.ts >= since * 1000) && (until === undefined || envelope.event.ts < until * 1000);
    const retained = browser.telemetry.ring.all().filter(inWindow);
    let page: Array<Envelope<TelemetryEvent>>;
    let next = 0;
    if (order === 'asc') {
      const rest = retained.filter((envelope) => envelope.seq >= offset);
      page = rest.slice(0, limit);
      if (rest.length > limit) next = rest[limit]!.seq;
    } else {
      const rest = retained.filter((envelope) => offset === 0 || envelope.seq <= offset).reverse();
      page = rest.slice(0, limit);
      if (rest.length > limit) next = rest[limit]!.seq;
    }
    res.setHeader('X-Has-More', String(next !== 0));
    // The absolute start of the next page, 0 on the last one (the SDK's pager stops on it).
    res.setHeader('X-Next-Offset', String(next));
    // The filter applies within the page: a filtered page may be empty while X-Has-More is true.
    res.json(categories === undefined ? page : page.filter((envelope) => categories.has(envelope.event.category)));
  });

  return router;
}

/** One query parameter as a string, or undefined (Express gives an array when it is repeated). */
function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be given once, as a plain value`);
  return value;
}

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return number;
}

/** `category` (repeatable): the categories to keep, or undefined for all. */
function categoryFilter(value: unknown): Set<string> | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]));
  for (const item of list) {
    if (typeof item !== 'string' || !FILTER_CATEGORIES.has(item)) {
      throw new ReplError('REPL_ERR_INVALID_REQUEST', `category must be one of ${[...FILTER_CATEGORIES].join(', ')}, got ${JSON.stringify(item)}`);
    }
  }
  return new Set(list as string[]);
}

const DURATION_UNITS_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * `since` / `until` as epoch milliseconds: an RFC 3339 timestamp, or a Go-style duration (`5m`,
 * `1h30m`, `90s`) meaning that long before `now`.
 */
export function instant(value: string | undefined, name: string, now: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(value)) {
    const time = Date.parse(value);
    if (Number.isFinite(time)) return time;
  }
  if (/^((\d+(\.\d+)?)(ns|us|µs|ms|s|m|h))+$/.test(value)) {
    let ms = 0;
    for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(amount) * DURATION_UNITS_MS[unit!]!;
    return now - ms;
  }
  throw new ReplError('REPL_ERR_INVALID_REQUEST', `${name} must be an RFC 3339 timestamp (2026-01-02T15:04:05Z) or a duration such as 5m, got ${JSON.stringify(value)}`);
}
