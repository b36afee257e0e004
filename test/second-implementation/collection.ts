/**
 * In-memory collections of the second implementation, and their lists:
 * equality filters, search, creation-date range, sort (`sort`/`order`),
 * sparse fieldsets, and paging by keyset cursors (its own encoding: hex JSON
 * of the last item's sort key, signed with an HMAC) or by page number.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalid, Refusal } from './http-kit.js';
import { problemWith, type Problem, type Rule } from './schema-check.js';

export type Value = string | number | boolean | null | undefined;
export type Row = Record<string, Value>;

export interface CollectionSpec {
  /** The resource kind (`type` of the typed shape). */
  type: string;
  shape: 'typed' | 'flat';
  paging: 'cursor' | 'offset';
  /** Fields a list filters on by equality, with the rule their query value follows. */
  filters: Record<string, Rule>;
  sortable: string[];
  searchable: string[];
  /** Fields `fields=` may leave out: those the response schema does not require. */
  optional: string[];
  /** Whether `created_after`/`created_before` apply, on `created_at`. */
  createdRange: boolean;
  maxLimit: number;
  defaultLimit: number;
}

interface Stored {
  row: Row;
  /** Order of insertion: the tie-breaker of every sort. */
  seq: number;
}

/** A cursor signing key of its own, per process. */
const CURSOR_KEY = randomBytes(32);
const CURSOR = /^k1\.([0-9a-f]+)\.([0-9a-f]{24})$/;

function sign(payload: string): string {
  return createHmac('sha256', CURSOR_KEY).update(payload).digest('hex').slice(0, 24);
}

interface CursorKey {
  sort: string;
  values: Value[];
  seq: number;
}

function encodeCursor(key: CursorKey): string {
  const payload = Buffer.from(JSON.stringify(key)).toString('hex');
  return `k1.${payload}.${sign(payload)}`;
}

const BAD_CURSOR = new Refusal(400, 'BAD_REQUEST', 'This cursor was not issued by this service, or was altered.');

function decodeCursor(cursor: string, sort: string): CursorKey {
  const match = CURSOR.exec(cursor);
  if (!match) throw BAD_CURSOR;
  const [, payload, mac] = match as unknown as [string, string, string];
  if (!timingSafeEqual(Buffer.from(mac), Buffer.from(sign(payload)))) throw BAD_CURSOR;
  const key = JSON.parse(Buffer.from(payload, 'hex').toString('utf8')) as CursorKey;
  if (key.sort !== sort) throw new Refusal(400, 'BAD_REQUEST', 'The cursor belongs to another sort order.');
  return key;
}

/** Its own order of values: numbers by value, text by code unit, false before true, a missing value after every other. */
function compareValues(a: Value, b: Value): number {
  const [aMissing, bMissing] = [a === undefined || a === null, b === undefined || b === null];
  if (aMissing || bMissing) return Number(aMissing) - Number(bMissing);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

interface SortKey {
  field: string;
  descending: boolean;
}

function parseSort(spec: CollectionSpec, query: URLSearchParams, problems: Problem[]): SortKey[] {
  const sort = query.get('sort');
  if (!sort) return [];
  const directions = (query.get('order') ?? '').split(',').filter(Boolean);
  return sort.split(',').flatMap((term, index) => {
    const field = term.replace(/^-/, '');
    if (!spec.sortable.includes(field)) {
      problems.push({ field: 'query.sort', code: 'NOT_SORTABLE', message: `cannot sort by ${field}` });
      return [];
    }
    const order = directions[index];
    if (order !== undefined && order !== 'asc' && order !== 'desc')
      problems.push({ field: 'query.order', code: 'NOT_ALLOWED', message: 'must be asc or desc' });
    return [{ field, descending: order ? order === 'desc' : term.startsWith('-') }];
  });
}

function compareBy(keys: SortKey[], a: { values: Value[]; seq: number }, b: { values: Value[]; seq: number }): number {
  for (const [index, key] of keys.entries()) {
    const order = compareValues(a.values[index], b.values[index]);
    if (order !== 0) return key.descending ? -order : order;
  }
  return a.seq - b.seq;
}

/** A date or date-time bound as an instant; a date is its midnight UTC. */
function instantOf(value: string): number | undefined {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(date)) return undefined;
  const time = Date.parse(date);
  return Number.isNaN(time) ? undefined : time;
}

/** A query value as the field's type holds it. */
function typed(rule: Rule, text: string): Value {
  if (rule.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : text;
  if (rule.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function integerParam(query: URLSearchParams, name: string, fallback: number, max: number, problems: Problem[]): number {
  const text = query.get(name);
  if (text === null) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= max))
    problems.push({ field: `query.${name}`, code: 'OUT_OF_BOUNDS', message: `must be a whole number from 1 to ${max}` });
  return value;
}

export interface Listed {
  data: unknown[];
  pagination: object;
}

export class Collection {
  private readonly rows = new Map<string, Stored>();
  private inserted = 0;

  constructor(readonly spec: CollectionSpec) {}

  get(id: string): Row | undefined {
    return this.rows.get(id)?.row;
  }

  put(row: Row): Row {
    const before = this.rows.get(String(row.id));
    this.rows.set(String(row.id), { row, seq: before?.seq ?? ++this.inserted });
    return row;
  }

  remove(id: string): boolean {
    return this.rows.delete(id);
  }

  all(): Row[] {
    return [...this.rows.values()].map(({ row }) => row);
  }

  /** The resource as answered: flat, or `{ id, type, attributes }`; optional fields left out unless `fields` names them. */
  show(row: Row, fields?: string | null): object {
    const named = fields ? new Set(fields.split(',')) : undefined;
    const kept = Object.fromEntries(
      Object.entries(row).filter(([name, value]) => value !== undefined && (!named || !this.spec.optional.includes(name) || named.has(name))),
    );
    if (this.spec.shape === 'flat') return kept;
    const { id, ...attributes } = kept;
    return { id, type: this.spec.type, attributes };
  }

  /** A page of the rows `within` keeps, as the list query asks. */
  list(query: URLSearchParams, within: (row: Row) => boolean = () => true, breaks?: { overlap?: boolean }): Listed {
    const problems: Problem[] = [];
    const spec = this.spec;
    const limit = integerParam(query, 'limit', spec.defaultLimit, spec.maxLimit, problems);
    const page = spec.paging === 'offset' ? integerParam(query, 'page', 1, Number.MAX_SAFE_INTEGER, problems) : 1;
    const keys = parseSort(spec, query, problems);
    const tests: ((row: Row) => boolean)[] = [within];
    for (const [field, rule] of Object.entries(spec.filters)) {
      const text = query.get(field);
      if (text === null) continue;
      const problem = problemWith(`query.${field}`, typed(rule, text), rule);
      if (problem) problems.push(problem);
      tests.push((row) => row[field] !== undefined && row[field] !== null && String(row[field]) === text);
    }
    const search = query.get('search');
    if (search) {
      const needle = search.toLowerCase();
      tests.push((row) => spec.searchable.some((field) => typeof row[field] === 'string' && (row[field] as string).toLowerCase().includes(needle)));
    }
    if (spec.createdRange)
      for (const [name, keep] of [
        ['created_after', (created: number, bound: number) => created >= bound],
        ['created_before', (created: number, bound: number) => created < bound],
      ] as const) {
        const text = query.get(name);
        if (text === null) continue;
        const bound = instantOf(text);
        if (bound === undefined) problems.push({ field: `query.${name}`, code: 'INVALID_FORMAT', message: 'is not a date or date-time' });
        else tests.push((row) => keep(Date.parse(String(row.created_at)), bound));
      }
    if (problems.length > 0) throw invalid(problems);

    const signature = keys.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(',');
    const ordered = [...this.rows.values()]
      .filter(({ row }) => tests.every((test) => test(row)))
      .map(({ row, seq }) => ({ row, seq, values: keys.map((key) => row[key.field]) }))
      .sort((a, b) => compareBy(keys, a, b));
    const fields = query.get('fields');
    if (spec.paging === 'offset') {
      const slice = ordered.slice((page - 1) * limit, page * limit);
      return {
        data: slice.map(({ row }) => this.show(row, fields)),
        pagination: { page, limit, total: ordered.length, total_pages: Math.ceil(ordered.length / limit) },
      };
    }
    const cursor = query.get('cursor');
    let start = 0;
    if (cursor) {
      const after = decodeCursor(cursor, signature);
      start = ordered.findIndex((entry) => compareBy(keys, entry, after) > 0);
      if (start < 0) start = ordered.length;
      // The deliberate flaw: each page starts again with the previous page's last item.
      if (breaks?.overlap && start > 0) start--;
    }
    const slice = ordered.slice(start, start + limit);
    const hasMore = start + limit < ordered.length;
    const last = slice[slice.length - 1];
    return {
      data: slice.map(({ row }) => this.show(row, fields)),
      pagination: {
        cursor: hasMore && last ? encodeCursor({ sort: signature, values: last.values, seq: last.seq }) : null,
        has_more: hasMore,
      },
    };
  }
}
