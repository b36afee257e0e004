/**
 * The default store: each resource a table (see ../generated/tables.ts and
 * migrations/), every list convention in SQL: equality filters, the
 * creation-date range, search (trigram index), sort with a total order,
 * cursor pages by keyset, offset pages with a total. specforge created this
 * file once; it is yours.
 */
import { randomUUID } from 'node:crypto';
import type { ListQuery, Position, SortKey } from '../generated/conventions/paging.js';
import { errors } from '../generated/conventions/errors.js';
import { typed } from '../generated/conventions/representation.js';
import type { Collection, ListPage } from './collection.js';
import type { Database } from './database.js';
import { identifier, join, parameters, run, sql, type Fragment } from './statement.js';
import { keptOf, placedPath, storable, unchangedFields, type CollectionOptions } from './memory.js';

/** How a column keeps its field. */
export type ColumnType =
  'uuid' | 'bigint' | 'double precision' | 'boolean' | 'text' | 'jsonb' | 'timestamptz';

export interface Column {
  /** The field of the item, as the spec names it. */
  field: string;
  /** Its column: the field's name where that is a plain SQL name, else a safe one. */
  column: string;
  type: ColumnType;
}

/** A resource's table, as the migrations make it. */
export interface Table {
  name: string;
  /** The item's id: written by a key field, or made by the store. */
  id: ColumnType;
  /** The columns of the path parameters that place an item under its parent, in scope order. */
  owners: Column[];
  columns: Column[];
  /** Whether it has the `_search` column that `search` matches. */
  search: boolean;
  /** Unique indexes the spec asks for (`x-specforge.store.unique`), with the fields each keeps unique. */
  unique?: { index: string; fields: string[] }[];
}

/** Columns of the store's own, beside the fields': `_` names no field column takes. */
const SEQ = '_seq';
const EXTRA = '_extra';
const SEARCH = '_search';

type Row = Record<string, unknown>;
type Path = Record<string, unknown>;
type Identified = Record<string, unknown> & { id: string | number };

/** A value that a column of this type cannot hold (a string in an integer column, a NUL in text). */
const MISFIT = Symbol('misfit');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BIGINT = 9_223_372_036_854_775_807;

/** The value as the column keeps it, or MISFIT: the item then keeps it in `_extra`. */
export function columnValue(value: unknown, type: ColumnType): unknown {
  switch (type) {
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value : MISFIT;
    case 'bigint':
      return Number.isSafeInteger(value) && Math.abs(value as number) < BIGINT ? value : MISFIT;
    case 'double precision':
      return typeof value === 'number' && Number.isFinite(value) ? value : MISFIT;
    case 'boolean':
      return typeof value === 'boolean' ? value : MISFIT;
    case 'text':
      return typeof value === 'string' && !value.includes('\0') ? value : MISFIT;
    case 'timestamptz':
      return typeof value === 'string' && isTimestamp(value) ? value : MISFIT;
    case 'jsonb': {
      if (value === null || value === undefined) return MISFIT;
      const text = JSON.stringify(value);
      // jsonb holds no NUL character, escaped or not.
      return text.includes('\\u0000') ? MISFIT : text;
    }
  }
}

/** A timestamp PostgreSQL reads back as the same instant and text (ISO 8601 in UTC, milliseconds). */
function isTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
}

/** A path value, or a filter's, as the column compares it; MISFIT: no row holds it. */
function keyValue(value: unknown, type: ColumnType): unknown {
  if (typeof value === 'string' && (type === 'bigint' || type === 'double precision'))
    return /^-?\d+(\.\d+)?$/.test(value) ? columnValue(Number(value), type) : MISFIT;
  if (typeof value === 'string' && type === 'boolean')
    return value === 'true' ? true : value === 'false' ? false : MISFIT;
  if (typeof value === 'number' && (type === 'text' || type === 'uuid'))
    return columnValue(String(value), type);
  return columnValue(value, type);
}

/** The value as the item shows it. */
function fieldValue(value: unknown, type: ColumnType): unknown {
  if (value instanceof Date) return value.toISOString();
  if (type === 'bigint' && typeof value === 'string') return Number(value);
  return value;
}

const id = identifier;

export interface SqlCollectionOptions extends Omit<CollectionOptions, 'parent'> {
  table: Table;
  /** The collection of the parent, when there is one: items exist only under an existing parent. */
  parent?: SqlCollection<unknown>;
}

/**
 * Items as the API shows them. Each method may be asked for another item type
 * (`Out`, inferred from the handler it serves): a list's items can be a
 * narrower view of the resource than its read.
 */
export class SqlCollection<Item> implements Collection<Item> {
  /** The seed's writing, per database: a reopened database, or another one, gets it too. */
  private readonly seeding = new WeakMap<Database, Promise<void>>();
  /** The databases whose seed is written: a request on them waits for nothing more. */
  private readonly seeded = new WeakSet<Database>();

  constructor(
    private readonly database: () => Promise<Database>,
    private readonly options: SqlCollectionOptions,
  ) {}

  /** A page of the items under the path's parent; undefined when that parent does not exist. */
  async list<Out = Item>(request: {
    path: object;
    list: ListQuery;
  }): Promise<ListPage<Out> | undefined> {
    const db = await this.db();
    const scope = this.scopeOf(request.path as Path);
    if (scope === undefined || (await this.parentMissing(request.path as Path))) return undefined;
    const { list } = request;
    const conditions = [...scope, ...this.listConditions(list)];
    const sort = list.sort.map((key) => this.sortColumn(key));
    if (list.after !== undefined) conditions.push(this.after(list.after, sort));
    const where = conditions.length > 0 ? sql`where ${join(conditions, ' and ')}` : sql``;
    const order = join([...sort.map(orderTerm), sql`${id(SEQ)} asc`]);
    const from = id(this.table.name);
    const columns = list.fields
      ? this.columnsFor([...list.fields, ...sort.map((key) => key.field)])
      : sql`*`;
    const page = run<Row>(
      db,
      sql`select ${columns} from ${from} ${where} order by ${order} limit ${list.limit + 1}${
        list.offset === undefined ? sql`` : sql` offset ${list.offset}`
      }`,
    );
    const total =
      list.offset === undefined
        ? undefined
        : run<{ count: number }>(db, sql`select count(*)::int as count from ${from} ${where}`);
    const rows = (await page).rows;
    const more = rows.length > list.limit;
    const shown = rows.slice(0, list.limit);
    const last = shown.at(-1);
    return {
      items: shown.map((row) => this.present<Out>(row)),
      total: total === undefined ? 0 : ((await total).rows[0]?.count ?? 0),
      ...(more && last
        ? {
            next: {
              values: sort.map((key) => positionValue(this.itemOf(last)[key.field])),
              seq: Number(last[SEQ]),
            },
          }
        : {}),
    } as ListPage<Out>;
  }

  async get<Out = Item>(request: { path: object }): Promise<Out | undefined> {
    const row = await this.find(request.path as Path);
    return row && this.present<Out>(row);
  }

  async create<Out = Item>(request: { path: object; body: unknown }): Promise<Out | undefined> {
    const path = this.placed(request.path as Path, request.body);
    const owners = await this.ownerValues(path);
    if (owners === undefined) return undefined;
    const now = new Date().toISOString();
    const body = request.body as Row;
    const key = this.options.keyField && body?.[this.options.keyField];
    // An integer id column makes its own (an identity); a text or uuid one takes a UUID.
    const itemId =
      typeof key === 'string' || typeof key === 'number'
        ? key
        : this.table.id === 'bigint'
          ? undefined
          : randomUUID();
    const item: Row = {
      ...this.options.defaults,
      ...this.written(body),
      ...(itemId === undefined ? {} : { id: itemId }),
      ...this.fromPath(path),
    };
    if (this.options.createdField) item[this.options.createdField] = now;
    if (this.options.updatedField) item[this.options.updatedField] = now;
    const row = {
      ...this.rowOf(storable(item)),
      ...Object.fromEntries(this.table.owners.map((owner, index) => [owner.column, owners[index]])),
    };
    try {
      const inserted = await this.insert(row);
      return this.present<Out>(inserted);
    } catch (error) {
      throw this.conflictOf(error, `An item named ${JSON.stringify(itemId)} exists already.`);
    }
  }

  async replace<Out = Item>(request: { path: object; body: unknown }): Promise<Out | undefined> {
    return this.write<Out>(request.path as Path, (item) => ({
      ...this.options.defaults,
      ...this.written(request.body),
      ...pick(item, this.kept()),
    }));
  }

  async update<Out = Item>(request: { path: object; body: unknown }): Promise<Out | undefined> {
    return this.write<Out>(request.path as Path, (item) => ({
      ...item,
      ...this.written(request.body),
      ...pick(item, this.kept()),
    }));
  }

  /** Deletes the item and answers it (for a DELETE whose spec returns the deleted resource). */
  async take<Out = Item>(request: { path: object }): Promise<Out | undefined> {
    const row = await this.find(request.path as Path);
    if (!row) return undefined;
    const deleted = await this.deleteRow(row);
    return deleted ? this.present<Out>(row) : undefined;
  }

  async remove(request: { path: object }): Promise<boolean> {
    const row = await this.find(request.path as Path);
    return row !== undefined && (await this.deleteRow(row));
  }

  /** The path parameters that name one item: its parents', then its own. */
  get itemParams(): string[] {
    return [...(this.options.scope ?? []), this.options.idParam];
  }

  /**
   * The stored row the path names, when it and every parent exist. A path that
   * names no parent finds it by its id under whichever parent it lives.
   */
  async find(path: Path): Promise<Row | undefined> {
    const db = await this.db();
    const scope = this.scopeOf(path);
    const value = keyValue(path[this.options.idParam], this.table.id);
    if (scope === undefined || value === MISFIT) return undefined;
    const conditions = [...scope, sql`${id('id')} = ${value}`];
    const found = await run<Row>(
      db,
      sql`select * from ${id(this.table.name)} where ${join(conditions, ' and ')} limit 1`,
    );
    return found.rows[0];
  }

  private get table(): Table {
    return this.options.table;
  }

  /** The database, with the items the collection starts with (a seed) written once. */
  private async db(): Promise<Database> {
    const db = await this.database();
    if (this.seeded.has(db)) return db;
    let seeding = this.seeding.get(db);
    if (!seeding) {
      seeding = this.seed(db).then(() => void this.seeded.add(db));
      this.seeding.set(db, seeding);
    }
    await seeding;
    return db;
  }

  /** The seed's items, unless they are there already (another instance wrote them, or a restart). */
  private async seed(db: Database): Promise<void> {
    for (const item of this.options.seed ?? []) {
      const row = this.rowOf(
        storable({ ...item, id: item.id ?? item[this.options.keyField ?? 'id'] } as Identified),
      );
      const columns = Object.keys(row);
      await run(
        db,
        sql`insert into ${id(this.table.name)} (${join(columns.map(id))}) values (${parameters(columns.map((column) => row[column]))}) on conflict do nothing`,
      );
    }
    // New integer ids follow the seed's.
    if (this.table.id === 'bigint' && (this.options.seed ?? []).length > 0)
      await run(
        db,
        sql`select setval(pg_get_serial_sequence(${this.table.name}, 'id'), greatest((select max(id) from ${id(this.table.name)}), 1))`,
      );
  }

  private async insert(row: Row): Promise<Row> {
    const db = await this.db();
    const columns = Object.keys(row);
    const inserted = await run<Row>(
      db,
      sql`insert into ${id(this.table.name)} (${join(columns.map(id))}) values (${parameters(columns.map((column) => row[column]))}) returning *`,
    );
    return inserted.rows[0]!;
  }

  private async write<Out>(path: Path, change: (item: Row) => Row): Promise<Out | undefined> {
    const row = await this.find(path);
    if (!row) return undefined;
    const item = change(this.itemOf(row));
    if (this.options.updatedField) item[this.options.updatedField] = new Date().toISOString();
    const next = this.rowOf(storable(item as Identified));
    const assignments = this.table.columns.map(
      ({ column }) => sql`${id(column)} = ${next[column] ?? null}`,
    );
    assignments.push(sql`${id(EXTRA)} = ${next[EXTRA] ?? null}`);
    const db = await this.db();
    const updated = await run<Row>(
      db,
      sql`update ${id(this.table.name)} set ${join(assignments)} where ${id(SEQ)} = ${row[SEQ]} returning *`,
    ).catch((error: unknown) => {
      throw this.conflictOf(error, 'The item conflicts with another.');
    });
    const written = updated.rows[0];
    return written && this.present<Out>(written);
  }

  private async deleteRow(row: Row): Promise<boolean> {
    const db = await this.db();
    try {
      const deleted = await run(
        db,
        sql`delete from ${id(this.table.name)} where ${id(SEQ)} = ${row[SEQ]}`,
      );
      return Number(deleted.numAffectedRows ?? 0) > 0;
    } catch (error) {
      throw this.conflictOf(error, 'The item has items under it: delete those first.');
    }
  }

  /** A broken key as 409 CONFLICT: a unique index the spec asks for names its fields. */
  private conflictOf(error: unknown, message: string): unknown {
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code !== '23505' && code !== '23503') return error;
    const unique = this.table.unique?.find((index) => index.index === constraint);
    if (!unique) return errors.conflict(message);
    const fields = unique.fields.join(', ');
    const said = `Another item has the same ${fields}.`;
    return errors.conflict(
      said,
      unique.fields.map((field) => ({ field: `body.${field}`, code: 'CONFLICT', message: said })),
    );
  }

  /**
   * The conditions that keep to the parents the path names; undefined when a
   * value cannot name any (a word where the id is a number).
   */
  private scopeOf(path: Path): Fragment[] | undefined {
    const scope = this.options.scope ?? [];
    const conditions: Fragment[] = [];
    for (const [index, param] of scope.entries()) {
      if (path[param] === undefined) continue;
      const owner = this.table.owners[index]!;
      const value = keyValue(path[param], owner.type);
      if (value === MISFIT) return undefined;
      conditions.push(sql`${id(owner.column)} = ${value}`);
    }
    return conditions;
  }

  /**
   * Whether the path names a parent that does not exist. Only a path that
   * names the parent's item can name a missing one.
   */
  private async parentMissing(path: Path): Promise<boolean> {
    if (!this.options.parent) return false;
    const scope = this.options.scope ?? [];
    const namesParent = scope
      .slice(0, this.parentParams.length)
      .every((param) => path[param] !== undefined);
    return namesParent && !(await this.parentExists(path));
  }

  /** The owner columns' values of an item created under the path; undefined when its parent does not exist. */
  private async ownerValues(path: Path): Promise<unknown[] | undefined> {
    if (this.options.parent && !(await this.parentExists(path))) return undefined;
    const values = this.table.owners.map((owner, index) =>
      keyValue(path[this.options.scope![index]!], owner.type),
    );
    return values.includes(MISFIT) ? undefined : values;
  }

  /** The parent's own paths may name the same ids differently (`/owners/{id}`, `/owners/{owner_id}/pets`): matched by position. */
  private async parentExists(path: Path): Promise<boolean> {
    const scope = this.options.scope ?? [];
    const parentPath = Object.fromEntries(
      this.parentParams.map((name, index) => [name, path[scope[index]!]]),
    );
    return (await this.options.parent!.find(parentPath)) !== undefined;
  }

  private get parentParams(): string[] {
    return this.options.parentParams ?? this.options.parent?.itemParams ?? [];
  }

  private placed(path: Path, body: unknown): Path {
    return placedPath(path, body, this.options.scope ?? [], this.options.parent !== undefined);
  }

  private listConditions(list: ListQuery): Fragment[] {
    const conditions: Fragment[] = [];
    for (const [field, value] of Object.entries(list.filters)) {
      const column = this.columnOf(field);
      const compared = column ? keyValue(value, column.type) : MISFIT;
      conditions.push(compared === MISFIT ? sql`false` : sql`${id(column!.column)} = ${compared}`);
    }
    const created = this.options.createdField && this.columnOf(this.options.createdField);
    if (list.createdAfter)
      conditions.push(
        created ? sql`${id(created.column)} > ${list.createdAfter.toISOString()}` : sql`false`,
      );
    if (list.createdBefore)
      conditions.push(
        created ? sql`${id(created.column)} < ${list.createdBefore.toISOString()}` : sql`false`,
      );
    if (list.search !== undefined)
      conditions.push(
        // PostgreSQL refuses a NUL in a text parameter, and `_search` holds none (a value with one is kept in `_extra` as \u0000): nothing matches.
        this.table.search && !list.search.includes('\0')
          ? sql`${id(SEARCH)} like ${`%${likePattern(list.search.toLowerCase())}%`}`
          : sql`false`,
      );
    return conditions;
  }

  /** A sort key's column, with the rank of its values where the enum declares their order. */
  private sortColumn(key: SortKey): SortColumn {
    const column = this.columnOf(key.field);
    const declared = this.options.sortOrders?.[key.field];
    // A field with no column of its own (written beside the spec) sorts by its text in `_extra`.
    if (!column) return { ...key, expression: sql`(${id(EXTRA)}::jsonb ->> ${key.field})` };
    const ref = id(column.column);
    const expression = declared
      ? sql`array_position(${declared.map(String)}::text[], ${ref}::text)`
      : ref;
    return { ...key, expression, ranks: declared?.map(String) };
  }

  /**
   * After a page's end, in the sort's total order (missing values last in
   * either direction, then insertion order): the keyset condition.
   */
  private after(position: Position, sort: SortColumn[]): Fragment {
    const valid =
      typeof position === 'object' &&
      position !== null &&
      !Array.isArray(position) &&
      Array.isArray(position.values) &&
      Number.isInteger(position.seq) &&
      position.values.length === sort.length;
    if (!valid)
      throw errors.badRequest(
        'The cursor does not fit this list; start again from the first page.',
      );
    const values = (position as { values: Position[] }).values;
    const seq = (position as { seq: number }).seq;
    const alternatives: Fragment[] = [];
    const equal: Fragment[] = [];
    for (const [index, key] of sort.entries()) {
      const value = comparable(values[index] ?? null, key);
      if (value !== null) {
        const beyond = key.descending
          ? sql`${key.expression} < ${value}`
          : sql`${key.expression} > ${value}`;
        alternatives.push(
          sql`(${join([...equal, sql`(${beyond} or ${key.expression} is null)`], ' and ')})`,
        );
      }
      equal.push(
        value === null ? sql`${key.expression} is null` : sql`${key.expression} = ${value}`,
      );
    }
    alternatives.push(sql`(${join([...equal, sql`${id(SEQ)} > ${seq}`], ' and ')})`);
    return sql`(${join(alternatives, ' or ')})`;
  }

  /** The columns that hold these fields, with those every item is read by (a field with no column of its own is in `_extra`). */
  private columnsFor(fields: string[]): Fragment {
    const wanted = new Set(fields);
    const columns = this.table.columns.filter((column) => wanted.has(column.field));
    return join([SEQ, 'id', EXTRA, ...columns.map((column) => column.column)].map(id));
  }

  private columnOf(field: string): Column | undefined {
    if (field === 'id') return { field, column: 'id', type: this.table.id };
    return this.table.columns.find((column) => column.field === field);
  }

  /** The row that keeps the item: each field in its column where it fits, the rest in `_extra`. */
  private rowOf(item: Row): Row {
    const row: Row = {};
    const extra: Row = {};
    const columns = new Map(this.table.columns.map((column) => [column.field, column]));
    for (const [field, value] of Object.entries(item)) {
      if (field === 'id') {
        const kept = columnValue(value, this.table.id);
        if (kept === MISFIT)
          throw new Error(
            `The item's id ${JSON.stringify(value)} does not fit its ${this.table.id} column.`,
          );
        row.id = kept;
        continue;
      }
      const column = columns.get(field);
      const kept = column && value !== null ? columnValue(value, column.type) : MISFIT;
      if (kept === MISFIT) extra[field] = value;
      else row[column!.column] = kept;
    }
    row[EXTRA] = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null;
    return row;
  }

  /** The item a row keeps. */
  private itemOf(row: Row): Row {
    const item: Row = { id: fieldValue(row.id, this.table.id) };
    for (const column of this.table.columns) {
      const value = row[column.column];
      if (value !== null && value !== undefined)
        item[column.field] = fieldValue(value, column.type);
    }
    const extra = row[EXTRA];
    const more = typeof extra === 'string' ? (JSON.parse(extra) as Row) : (extra as Row | null);
    return { ...item, ...more };
  }

  private present<Out>(row: Row): Out {
    const item = this.itemOf(row);
    return (
      this.options.shape === 'typed' ? typed(this.options.type, item as Identified) : item
    ) as Out;
  }

  /** What the store keeps of a request body. */
  private written(body: unknown): Row {
    return keptOf(body as Row, this.options) as Row;
  }

  private kept(): string[] {
    return unchangedFields(this.options);
  }

  private fromPath(path: Path): Row {
    return Object.fromEntries((this.options.pathFields ?? []).map((field) => [field, path[field]]));
  }
}

interface SortColumn extends SortKey {
  expression: Fragment;
  ranks?: string[] | undefined;
}

function orderTerm(key: SortColumn): Fragment {
  return key.descending
    ? sql`${key.expression} desc nulls last`
    : sql`${key.expression} asc nulls last`;
}

/** A cursor's sort value as the sort expression compares it: an enum's by its rank. */
function comparable(value: Position, key: SortColumn): unknown {
  if (value === null) return null;
  if (key.ranks) {
    const rank = key.ranks.indexOf(String(value));
    return rank < 0 ? null : rank + 1;
  }
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/** A field's value as a cursor carries it. */
function positionValue(value: unknown): Position {
  return (value ?? null) as Position;
}

/** `like` matches the text as written: its wildcards escaped. */
function likePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function pick(row: Row, fields: string[]): Row {
  return Object.fromEntries(
    fields.filter((field) => field in row).map((field) => [field, row[field]]),
  );
}
