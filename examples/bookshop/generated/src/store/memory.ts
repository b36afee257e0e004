/**
 * The in-memory store (STORE=memory): every resource in this process's
 * memory, lost when it stops, with the list features of the conventions
 * (equality filters, creation-date range, search, sort, cursor and offset
 * pages). For mocks and tests; the default store is the database's
 * (./sql.ts). specforge created this file once; it is yours.
 */
import { randomUUID } from 'node:crypto';
import type { ListRequest } from '../generated/conventions/operation.js';
import type { ListQuery, Position, SortKey } from '../generated/conventions/paging.js';
import { errors } from '../generated/conventions/errors.js';
import {
  renderedCopy,
  renderingFor,
  typed,
  type Rendering,
  type ResourceShape,
} from '../generated/conventions/representation.js';
import type { Collection, ListPage } from './collection.js';

type Row = Record<string, unknown> & { id: string | number };
type Path = Record<string, unknown>;

export interface CollectionOptions {
  /** The resource kind: the `type` of a typed resource. */
  type: string;
  shape: ResourceShape;
  /** The path parameter that names one item, `book_id`. */
  idParam: string;
  ids: 'uuid' | 'integer';
  /** The path parameters that name the parent(s), `author_id`: items live apart under each parent. */
  scope?: string[];
  /** The collection of the parent, when there is one: items exist only under an existing parent. */
  parent?: MemoryCollection<unknown>;
  /**
   * The parent's item parameters the scope's first ones give, where the path
   * names only the last of them (`/books/{book_id}/reviews`, books kept under
   * authors): the parent is then found by its id alone. By default all of them, by position.
   */
  parentParams?: string[];
  /** Fields a new item takes from the path: the parent's id (`author_id`). */
  pathFields?: string[];
  createdField?: string;
  updatedField?: string;
  /** Fields that sort in the order their enum declares (`low`, `medium`, `high`), not alphabetically. */
  sortOrders?: Record<string, readonly unknown[]>;
  /** Items the collection starts with. */
  seed?: Row[];
  /**
   * What an item holds where no write gave it a value: the response's required
   * fields that a server makes (`url`, `node_id`), valid for their schema, so
   * every answer carries what the spec promises.
   */
  defaults?: Record<string, unknown>;
  /**
   * Fields a write may name whose value the store does not keep, because it
   * does not fit what the answers declare (a sha written, an object
   * answered): the item holds its default for them instead.
   */
  serverFields?: string[];
  /** Fields a write may set to null where answers require a value: the item keeps what it held. */
  nonNullFields?: string[];
  /**
   * The field the item's path names it by, where it is not `id`
   * (`/variables/{name}`): an item's id is its written value, which writes
   * then keep.
   */
  keyField?: string;
}

/** A list's page as the store found it: its items, how many matched, whether more follow. */
interface ListedPage {
  page: Stored[];
  total: number;
  more: boolean;
}

/** The most pages a collection remembers. */
const LISTED_PAGES = 256;

/**
 * What names a page: the path and the whole query as JSON. Undefined, so the
 * page is not remembered, where JSON would show two queries the store tells
 * apart alike: a value that is undefined (but for the query's own absent
 * parts), not a finite number, a Date (but for the query's dates), a BigInt.
 */
function pageKey(path: object, list: ListQuery): string | undefined {
  try {
    if (!plainJson(path)) return undefined;
    for (const [part, value] of Object.entries(list)) {
      const absent = value === undefined;
      const date = (part === 'createdAfter' || part === 'createdBefore') && value instanceof Date;
      if (!absent && !date && !plainJson(value)) return undefined;
    }
    return JSON.stringify([path, list]);
  } catch {
    return undefined; // a cycle
  }
}

/** Whether JSON writes the value as it is: strings, booleans, null, finite numbers, and arrays and plain objects of them. */
function plainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(plainJson);
      if ('toJSON' in value) return false;
      for (const key in value)
        if (!plainJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

interface Stored {
  row: Row;
  scope: string;
  /** The values of the scope's parameters, in order. */
  owners: string[];
  /** Insertion order: the last sort key, so every order is total and cursors are stable. */
  seq: number;
  /** The item as the API shows it, made from `row` once: a write replaces `row`, and with it this. */
  shown?: { row: Row; rendering: Rendering | undefined };
}

/**
 * Items as the API shows them. Each method may be asked for another item type
 * (`Out`, inferred from the handler it serves): a list's items can be a
 * narrower view of the resource than its read; this store keeps what it was
 * given and does not tell them apart. Each answers at once, not with a
 * promise: nothing here waits, and a request its answer serves is then
 * answered without one (operation.ts).
 */
export class MemoryCollection<Item> implements Collection<Item> {
  private readonly rows = new Map<string, Stored>();
  /**
   * Pages listed since the items last changed, by path and query: a page
   * asked again is not filtered and sorted again. Every write empties it.
   */
  private readonly listed = new Map<string, ListedPage>();
  private seq = 0;
  private lastId = 0;

  constructor(private readonly options: CollectionOptions) {
    for (const row of options.seed ?? [])
      this.insert({ ...row, id: row.id ?? this.keyOf(row) }, '', []);
  }

  /**
   * A page of the items under the path's parent; undefined when that parent
   * does not exist. A path that names only some of the scope (`/fields` beside
   * `/fields/{collection}`) lists the items under every value of the rest.
   */
  list<Out = Item>(request: { path: object; list: ListQuery }): ListPage<Out> | undefined {
    const inScope = this.scopeFilter(request.path as Path);
    if (inScope === undefined) return undefined;
    const { list } = request;
    const key = pageKey(request.path, list);
    let listed = key === undefined ? undefined : this.listed.get(key);
    if (!listed) {
      listed = this.listedPage(inScope, list);
      if (key !== undefined) this.remember(key, listed);
    }
    const { page, total, more } = listed;
    const last = page.at(-1);
    return {
      items: page.map((stored) => this.present<Out>(stored)),
      total,
      ...(more && last ? { next: positionOf(last, list.sort) } : {}),
    };
  }

  /** Filtered, sorted and cut to the page. */
  private listedPage(inScope: (stored: Stored) => boolean, list: ListQuery): ListedPage {
    const filters = Object.entries(list.filters);
    const matching: Stored[] = [];
    for (const stored of this.rows.values())
      if (inScope(stored) && this.matches(stored.row, list, filters)) matching.push(stored);
    const sort = list.sort.map((key) => ({ ...key, order: this.options.sortOrders?.[key.field] }));
    const sorted = sortedBy(matching, sort);
    const start =
      list.offset ??
      (list.after === undefined ? 0 : afterPosition(sorted, list.after as PositionOf, sort));
    const page = sorted.slice(start, start + list.limit);
    return { page, total: sorted.length, more: start + page.length < sorted.length };
  }

  private remember(key: string, listed: ListedPage): void {
    // The oldest page goes first (a Map keeps insertion order).
    if (this.listed.size >= LISTED_PAGES) this.listed.delete(this.listed.keys().next().value!);
    this.listed.set(key, listed);
  }

  get<Out = Item>(request: { path: object }): Out | undefined {
    const stored = this.find(request.path as Path);
    return stored && this.present<Out>(stored);
  }

  create<Out = Item>(request: { path: object; body: unknown }): Out | undefined {
    const path = this.placed(request.path as Path, request.body);
    const scope = this.scopeOf(path);
    if (scope === undefined) return undefined;
    const now = new Date().toISOString();
    const id = this.keyOf(request.body as Row);
    if (this.options.keyField && this.rows.has(keyOf(scope, id)))
      throw errors.conflict(`An item named ${JSON.stringify(id)} exists already.`);
    const row: Row = {
      ...this.options.defaults,
      ...this.written(request.body),
      id,
      ...this.fromPath(path),
    };
    if (this.options.createdField) row[this.options.createdField] = now;
    if (this.options.updatedField) row[this.options.updatedField] = now;
    return this.present<Out>(this.insert(row, scope, this.ownersOf(path)));
  }

  replace<Out = Item>(request: { path: object; body: unknown }): Out | undefined {
    return this.write<Out>(
      request.path as Path,
      (row) =>
        ({
          ...this.options.defaults,
          ...this.written(request.body),
          ...pick(row, this.kept()),
        }) as Row,
    );
  }

  update<Out = Item>(request: { path: object; body: unknown }): Out | undefined {
    return this.write<Out>(
      request.path as Path,
      (row) => ({ ...row, ...this.written(request.body), ...pick(row, this.kept()) }) as Row,
    );
  }

  /** Deletes the item and answers it (for a DELETE whose spec returns the deleted resource). */
  take<Out = Item>(request: { path: object }): Out | undefined {
    const stored = this.find(request.path as Path);
    if (!stored) return undefined;
    this.rows.delete(keyOf(stored.scope, stored.row.id));
    this.listed.clear();
    return this.present<Out>(stored);
  }

  remove(request: { path: object }): boolean {
    const stored = this.find(request.path as Path);
    if (stored === undefined) return false;
    this.listed.clear();
    return this.rows.delete(keyOf(stored.scope, stored.row.id));
  }

  /**
   * The stored item the path names, when it and every parent exist. A path
   * that names no parent (`/books/{book_id}` beside `/authors/{author_id}/books`)
   * finds it by its id under whichever parent it lives: ids are unique within the collection.
   */
  find(path: Path): Stored | undefined {
    const id = path[this.options.idParam] as string | number;
    for (const param of this.options.scope ?? [])
      if (path[param] === undefined) return this.findAnywhere(path, id);
    const scope = this.scopeOf(path);
    return scope === undefined ? undefined : this.rows.get(keyOf(scope, id));
  }

  private findAnywhere(path: Path, id: string | number): Stored | undefined {
    const named = (this.options.scope ?? []).map((param) => path[param]);
    return [...this.rows.values()].find(
      (stored) =>
        String(stored.row.id) === String(id) &&
        named.every(
          (value, index) => value === undefined || stored.owners[index] === String(value),
        ),
    );
  }

  /** The path parameters that name one item: its parents', then its own. */
  get itemParams(): string[] {
    return (this.ownParams ??= [...(this.options.scope ?? []), this.options.idParam]);
  }

  private ownParams: string[] | undefined;

  /** Which stored items a list of the path shows: undefined when their parent is missing. */
  private scopeFilter(path: Path): ((stored: Stored) => boolean) | undefined {
    const named = (this.options.scope ?? []).map((param) => path[param]);
    // Only a path that names the parent's item can name a missing one.
    const namesParent = named
      .slice(0, this.parentParams.length)
      .every((value) => value !== undefined);
    if (namesParent && !this.parentExists(path)) return undefined;
    if (named.every((value) => value !== undefined)) {
      const scope = this.ownersOf(path).join('/');
      return (stored) => stored.scope === scope;
    }
    return (stored) =>
      named.every((value, index) => value === undefined || stored.owners[index] === String(value));
  }

  private ownersOf(path: Path): string[] {
    return (this.options.scope ?? []).map((param) => String(path[param]));
  }

  /** Where the path's items live: undefined when their parent is missing. */
  private scopeOf(path: Path): string | undefined {
    if (!this.parentExists(path)) return undefined;
    const { scope = [] } = this.options;
    return scope.length === 1 ? String(path[scope[0]!]) : this.ownersOf(path).join('/');
  }

  /**
   * Whether the parent the path names exists (true where there is no parent).
   * The parent's own paths may name the same ids differently (`/owners/{id}`,
   * `/owners/{owner_id}/pets`): they are matched by position.
   */
  private parentExists(path: Path): boolean {
    const { parent, scope = [] } = this.options;
    if (!parent) return true;
    const named: Path = {};
    this.parentParams.forEach((name, index) => (named[name] = path[scope[index]!]));
    return parent.find(named) !== undefined;
  }

  private get parentParams(): string[] {
    return this.options.parentParams ?? this.options.parent?.itemParams ?? [];
  }

  private placed(path: Path, body: unknown): Path {
    return placedPath(path, body, this.options.scope ?? [], this.options.parent !== undefined);
  }

  private write<Out>(path: Path, change: (row: Row) => Row): Out | undefined {
    const stored = this.find(path);
    if (!stored) return undefined;
    const row = change(stored.row);
    if (this.options.updatedField) row[this.options.updatedField] = new Date().toISOString();
    stored.row = storable(row);
    this.listed.clear();
    return this.present<Out>(stored);
  }

  /** What the store keeps of a request body. */
  private written(body: unknown): Partial<Row> {
    return keptOf(body as Row, this.options);
  }

  private kept(): string[] {
    return unchangedFields(this.options);
  }

  private insert(row: Row, scope: string, owners: string[]): Stored {
    // New integer ids follow those already held (a seed's).
    if (typeof row.id === 'number' && row.id > this.lastId) this.lastId = Math.floor(row.id);
    const stored = { row: storable(row), scope, owners, seq: this.seq++ };
    this.rows.set(keyOf(scope, row.id), stored);
    this.listed.clear();
    return stored;
  }

  /** A new item's id: the value of its key field where it has one, else a new one. */
  private keyOf(row: Partial<Row>): string | number {
    const key = this.options.keyField && row[this.options.keyField];
    if (typeof key === 'string' || typeof key === 'number') return key;
    return this.options.ids === 'integer' ? ++this.lastId : randomUUID();
  }

  private fromPath(path: Path): Row | object {
    return Object.fromEntries((this.options.pathFields ?? []).map((field) => [field, path[field]]));
  }

  private matches(row: Row, list: ListQuery, filters: [string, unknown][]): boolean {
    for (const [field, value] of filters) if (String(row[field]) !== String(value)) return false;
    if (list.createdAfter || list.createdBefore) {
      const created = this.options.createdField
        ? Date.parse(String(row[this.options.createdField]))
        : NaN;
      if (list.createdAfter && !(created > list.createdAfter.getTime())) return false;
      if (list.createdBefore && !(created < list.createdBefore.getTime())) return false;
    }
    if (list.search !== undefined) {
      const needle = list.search.toLowerCase();
      if (
        !Object.values(row).some(
          (value) => typeof value === 'string' && value.toLowerCase().includes(needle),
        )
      )
        return false;
    }
    return true;
  }

  /**
   * A copy, so what a caller does with the item does not change the store;
   * made from the item as shown, which is made once per version of the item
   * (with its JSON text and ETag, made when first answered: representation.ts).
   */
  private present<Out>(stored: Stored): Out {
    if (stored.shown?.row !== stored.row) {
      const template = this.shownOf(stored.row);
      const rendering = renderingFor(template, this.options.shape);
      stored.shown = { row: stored.row, rendering };
      // An item that cannot be rendered once is shown anew each time: this one is a fresh copy.
      if (!rendering) return template as Out;
    }
    const { rendering } = stored.shown;
    return (rendering ? renderedCopy(rendering) : this.shownOf(stored.row)) as Out;
  }

  /** A copy of the row as the API shows it; nested objects and arrays copied too, so no caller changes the store through them. */
  private shownOf(row: Row): Record<string, unknown> {
    const copy: Row = { ...row };
    for (const key in copy) {
      const value = copy[key];
      if (typeof value === 'object' && value !== null) copy[key] = structuredClone(value);
    }
    return this.options.shape === 'typed' ? typed(this.options.type, copy) : copy;
  }
}

const keyOf = (scope: string, id: string | number) => `${scope}/${String(id)}`;

/**
 * The row as JSON will show it, or an error before anything is stored: an item
 * that cannot be serialized (a cycle, a BigInt, nesting too deep) would fail
 * every later read of its list. The copy also keeps the caller's objects
 * out of the store.
 */
export function storable<Value>(row: Value): Value {
  let text: string | undefined;
  try {
    text = JSON.stringify(row);
  } catch (error) {
    throw new Error(
      `The item cannot be stored: it is not serializable as JSON (${(error as Error).message}).`,
    );
  }
  return JSON.parse(text) as Value;
}

/**
 * The path a create places the item by: a path that names none of its
 * parents (`POST /books`, books kept under authors) takes them from the
 * body's fields named like them (`author_id`); without them, a 422: the
 * item has no parent to live under.
 */
export function placedPath(path: Path, body: unknown, scope: string[], hasParent: boolean): Path {
  if (!hasParent || scope.some((param) => path[param] !== undefined)) return path;
  const given = Object.fromEntries(
    scope.map((param) => [param, (body as Row | undefined)?.[param]]),
  );
  const missing = scope.filter((param) => given[param] === undefined || given[param] === null);
  if (missing.length > 0)
    throw errors.validation(
      missing.map((field) => ({
        field,
        message: `is required: it names the parent to create the item under`,
      })),
    );
  return { ...given, ...path };
}

/** Fields a write never changes: the id (or the key that names the item), where it is nested, when it was created. */
export function unchangedFields(
  options: Pick<CollectionOptions, 'keyField' | 'pathFields' | 'createdField'>,
): string[] {
  return [
    'id',
    ...(options.keyField ? [options.keyField] : []),
    ...(options.pathFields ?? []),
    ...(options.createdField ? [options.createdField] : []),
  ];
}

/** How a store reads a body: what of it it does not keep. */
export interface BodyRules {
  serverFields?: string[];
  nonNullFields?: string[];
}

/** What a store keeps of a body: not the fields it answers its own values for, nor a null where answers require a value. */
export function keptOf<Value extends object>(
  body: Value,
  { serverFields = [], nonNullFields = [] }: BodyRules,
): Partial<Value> {
  return Object.fromEntries(
    Object.entries(body ?? {}).filter(
      ([field, value]) =>
        !serverFields.includes(field) && !(value === null && nonNullFields.includes(field)),
    ),
  ) as Partial<Value>;
}

function pick(row: Row, fields: string[]): Partial<Row> {
  return Object.fromEntries(
    fields.filter((field) => field in row).map((field) => [field, row[field]]),
  );
}

/** Where a page ended: the sort values of its last item, and its insertion number. */
type PositionOf = { values: Position[]; seq: number };

function positionOf(stored: Stored, sort: SortKey[]): PositionOf {
  return {
    values: sort.map((key) => (stored.row[key.field] ?? null) as Position),
    seq: stored.seq,
  };
}

/** A sort key with the declared order of its field's values, where it has one. */
type RankedKey = SortKey & { order?: readonly unknown[] | undefined };

function afterPosition(sorted: Stored[], position: PositionOf, sort: RankedKey[]): number {
  // The cursor is signed, but a leaked secret or another version of this store may have signed it: check what it holds.
  const valid =
    typeof position === 'object' &&
    position !== null &&
    Array.isArray(position.values) &&
    Number.isInteger(position.seq);
  if (!valid || position.values.length !== sort.length)
    throw errors.badRequest('The cursor does not fit this list; start again from the first page.');
  const index = sorted.findIndex((stored) => compareToPosition(stored, position, sort) > 0);
  return index < 0 ? sorted.length : index;
}

/** The items in the list's order, each one's sort values ranked once rather than at every comparison. */
function sortedBy(items: Stored[], sort: RankedKey[]): Stored[] {
  const keyed = items.map((stored) => ({
    stored,
    ranks: sort.map((key) => rankOf(stored.row[key.field] ?? null, key.order)),
  }));
  keyed.sort((a, b) => {
    for (let index = 0; index < sort.length; index++) {
      const order = compareRanks(a.ranks[index], b.ranks[index], sort[index]!.descending);
      if (order !== 0) return order;
    }
    return a.stored.seq - b.stored.seq;
  });
  return keyed.map(({ stored }) => stored);
}

/** Where an item falls relative to a page's end: > 0 when after it. */
function compareToPosition(stored: Stored, position: PositionOf, sort: RankedKey[]): number {
  for (const [index, key] of sort.entries()) {
    const order = compareValues(stored.row[key.field], position.values[index], key);
    if (order !== 0) return order;
  }
  return stored.seq - position.seq;
}

/**
 * An enum's values by their place in the enum, numbers by value, everything
 * else as text; missing values (undefined or null alike, even where the enum
 * lists null) last in either direction. The suite expects the same
 * (conformance/checks.ts, `compareSorted`).
 */
function compareValues(a: unknown, b: unknown, { descending, order: declared }: RankedKey): number {
  return compareRanks(rankOf(a ?? null, declared), rankOf(b ?? null, declared), descending);
}

function compareRanks(left: unknown, right: unknown, descending: boolean): number {
  if (left === right) return 0;
  if (left === null) return 1;
  if (right === null) return -1;
  const order =
    typeof left === 'number' && typeof right === 'number'
      ? left - right
      : String(left) < String(right)
        ? -1
        : String(left) > String(right)
          ? 1
          : 0;
  return descending ? -order : order;
}

function rankOf(value: unknown, declared: readonly unknown[] | undefined): unknown {
  const rank = value === null ? -1 : (declared?.indexOf(value) ?? -1);
  return rank < 0 ? value : rank;
}

export type { ListRequest };
