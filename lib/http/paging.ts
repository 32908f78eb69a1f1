/**
 * The paging of the hosted product's listings (`GET /browsers`, `/browser_pools`, `/profiles`,
 * `/proxies`, `/extensions`): `offset` and `limit` in the query, the page's position in
 * `X-Has-More` and `X-Next-Offset`, which the SDK's pager reads (the absolute start of the next
 * page, and 0 as "no more").
 */
import type { Request, Response } from 'express';

import { ReplError } from '../../common/errors.js';

/** `limit` of a listing when the request gives none, and its ceiling. */
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

export interface PageRequest {
  readonly offset: number;
  readonly limit: number;
}

/**
 * The `offset` and `limit` a listing was asked for.
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST` naming the field
 */
export function pageRequest(query: Request['query']): PageRequest {
  const offset = pageNumber(query['offset'], 'offset', 0);
  const limit = pageNumber(query['limit'], 'limit', DEFAULT_PAGE);
  if (limit < 1 || limit > MAX_PAGE) throw new ReplError('REPL_ERR_INVALID_REQUEST', `limit must be from 1 to ${MAX_PAGE}`);
  return { offset, limit };
}

/** The rows of the page asked for, with the paging headers set on `res`. */
export function pageOf<Row>(res: Response, rows: readonly Row[], { offset, limit }: PageRequest): Row[] {
  const page = rows.slice(offset, offset + limit);
  const hasMore = offset + page.length < rows.length;
  res.setHeader('X-Has-More', String(hasMore));
  res.setHeader('X-Next-Offset', String(hasMore ? offset + page.length : 0));
  return page;
}

/** A query parameter that must be one string when given (`?name=`, `?query=`). */
export function stringQuery(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be a string`);
  return value;
}

function pageNumber(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be a non-negative integer`);
  return number;
}
