/**
 * List operations (conventions §4): the query a handler receives (`ListQuery`)
 * and the `pagination` member built from the page it returns. Cursors are
 * opaque and stateless: the handler's position, signed, so any instance can
 * continue a walk and a tampered cursor is refused (400).
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { errors } from './errors.js';
import { listedItems } from './styles.js';

export interface PagingRule {
  style: 'cursor' | 'offset';
  defaultLimit: number;
  maxLimit: number;
  /** Query parameters that filter by equality on the field of the same name. */
  filters: string[];
  /** Present when the resource records its creation time: the field `created_after`/`_before` compare. */
  createdField?: string;
}

export interface SortKey {
  field: string;
  descending: boolean;
}

/** A JSON value a store uses to mark where a page ended. */
export type Position = string | number | boolean | null | Position[] | { [key: string]: Position };

/** What a list handler is asked for, parsed and validated. */
export interface ListQuery {
  limit: number;
  /** Cursor paging: continue after this position (from the previous page's `next`). */
  after?: Position;
  /** Offset paging: items to skip. */
  offset?: number;
  sort: SortKey[];
  /** Equality filters the caller named, values already of the field's type (see listQueryOf). */
  filters: Record<string, unknown>;
  createdAfter?: Date;
  createdBefore?: Date;
  search?: string;
  /**
   * The only fields the answer shows (a `fields` request, with those every answer keeps):
   * a store may read just these, so a handler of yours that reads other fields of the
   * items it lists should read them itself. Absent: every field.
   */
  fields?: string[];
}

/** A page of a cursor-paged list: `next` is the position to continue after; absent on the last page. */
export interface CursorPage<Item> {
  items: Item[];
  next?: Position;
}

/** A page of an offset-paged list, with the count across all pages. */
export interface OffsetPage<Item> {
  items: Item[];
  total: number;
}

export type CursorPagination = { cursor: string | null; has_more: boolean };
export type OffsetPagination = { page: number; limit: number; total: number; total_pages: number };

/**
 * The list query of a request: `query` validated (defaults filled in), `sent`
 * the names of the query parameters the caller sent.
 *
 * An equality filter applies only when the caller names it. A declared
 * filter's `default` (GitHub's `state=open`, `visibility=all`) stands for what
 * the real service shows when not asked, often a value no stored item holds
 * (`all`) or one the service itself sets on its items; matched by equality
 * against stored items it would hide every item of the default list. The
 * defaulted value stays in `query`, for a handler that knows what it means.
 */
export function listQueryOf(
  rule: PagingRule,
  { query, sent }: { query: Record<string, unknown>; sent: ReadonlySet<string> },
  secret: string,
): ListQuery {
  const limit = typeof query.limit === 'number' ? query.limit : rule.defaultLimit;
  const sort = sortOf(query.sort, query.order, rule);
  const list: ListQuery = { limit, sort, filters: {} };
  for (const field of rule.filters)
    if (sent.has(field) && query[field] !== undefined) list.filters[field] = query[field];
  if (typeof query.created_after === 'string') list.createdAfter = new Date(query.created_after);
  if (typeof query.created_before === 'string') list.createdBefore = new Date(query.created_before);
  if (typeof query.search === 'string' && query.search !== '') list.search = query.search;
  if (rule.style === 'offset')
    list.offset = ((typeof query.page === 'number' ? query.page : 1) - 1) * limit;
  else if (typeof query.cursor === 'string')
    list.after = decodeCursor(query.cursor, walkOf(list), secret);
  return list;
}

/** `sort=title,-pages` with an optional `order=asc,desc` (one entry per field; it wins over `-`). */
function sortOf(sort: unknown, order: unknown, rule: PagingRule): SortKey[] {
  const directions = listedItems(order);
  const fields = listedItems(sort);
  if (fields.length === 0 && directions.length > 0) fields.push(rule.createdField ?? 'id');
  return fields.map((field, index) => {
    const name = field.replace(/^-/, '');
    const direction = directions[index];
    return { field: name, descending: direction ? direction === 'desc' : field.startsWith('-') };
  });
}

export function paginationOf(
  rule: PagingRule,
  list: ListQuery,
  page: CursorPage<unknown> | OffsetPage<unknown>,
  secret: string,
): CursorPagination | OffsetPagination {
  if (rule.style === 'offset') {
    const total = (page as OffsetPage<unknown>).total;
    return {
      page: Math.floor((list.offset ?? 0) / list.limit) + 1,
      limit: list.limit,
      total,
      total_pages: Math.ceil(total / list.limit),
    };
  }
  const next = (page as CursorPage<unknown>).next;
  return next === undefined
    ? { cursor: null, has_more: false }
    : { cursor: cursorFor(next, list, secret), has_more: true };
}

/** The last page of a cursor walk, as JSON. */
const LAST_PAGE = '{"cursor":null,"has_more":false}';

/**
 * The `pagination` member's JSON text. A cursor's is written out: a cursor
 * is base64url and a dot, its own JSON string once quoted.
 */
export function paginationText(pagination: CursorPagination | OffsetPagination): string {
  if (!('cursor' in pagination)) return JSON.stringify(pagination);
  return pagination.cursor === null
    ? LAST_PAGE
    : `{"cursor":"${pagination.cursor}","has_more":true}`;
}

/** The last cursor signed, and all it was made from: the same page asked again is not hashed and signed again. */
let lastCursor = { madeOf: '', cursor: '' };

function cursorFor(next: Position, list: ListQuery, secret: string): string {
  const walk = walkTextOf(list);
  const madeOf = `${secret}\n${walk}\n${JSON.stringify(next)}`;
  if (madeOf !== lastCursor.madeOf)
    lastCursor = { madeOf, cursor: encodeCursor(next, walkHash(walk), secret) };
  return lastCursor.cursor;
}

/** What a cursor must be used with: the same sort, filters and search as the page it came from. */
function walkOf(list: ListQuery): string {
  return walkHash(walkTextOf(list));
}

function walkTextOf(list: ListQuery): string {
  return JSON.stringify([
    list.sort,
    list.filters,
    list.createdAfter,
    list.createdBefore,
    list.search ?? null,
  ]);
}

function walkHash(walk: string): string {
  return hash('sha256', walk, 'base64url').slice(0, 12);
}

function signature(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(position: Position, walk: string, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ p: position, w: walk })).toString('base64url');
  return `${payload}.${signature(payload, secret).toString('base64url')}`;
}

/** The position a cursor holds: 400 for anything but a cursor this service signed for this walk. */
export function decodeCursor(cursor: string, walk: string, secret: string): Position {
  const parts = cursor.split('.');
  const [payload = '', signed = ''] = parts;
  const given = Buffer.from(signed, 'base64url');
  const expected = signature(payload, secret);
  // base64url decoding skips stray characters: the signature must also be exactly as issued.
  if (
    parts.length !== 2 ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    given.toString('base64url') !== signed
  ) {
    throw errors.badRequest(
      'The cursor was not issued for this list; start again from the first page.',
    );
  }
  const decoded = payloadOf(payload);
  if (decoded.w !== walk)
    throw errors.badRequest(
      'The cursor belongs to a list with other sort, filter or search parameters.',
    );
  return decoded.p;
}

/** A signed payload is still checked: a leaked or reused secret must not turn into a 500. */
function payloadOf(payload: string): { p: Position; w: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const fits =
    typeof decoded === 'object' &&
    decoded !== null &&
    !Array.isArray(decoded) &&
    'p' in decoded &&
    typeof (decoded as { w?: unknown }).w === 'string';
  if (!fits) throw errors.badRequest('The cursor is malformed; start again from the first page.');
  return decoded as { p: Position; w: string };
}
