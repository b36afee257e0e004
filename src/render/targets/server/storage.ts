/**
 * The storage model: a table for each resource the default store keeps, the
 * columns its fields and owners take, its keys and indexes. It is what the
 * migrations create (migrations.ts writes them) and what the project
 * records (`migrations/storage.json`), so that a later `generate` can write the migration between two.
 */
import type { ApiModel, FieldModel, ResourceModel } from '../../../model/index.js';
import { sqlName, sqlNameRegistry, type NameRegistry } from '../../../model/names.js';
import type { CollectionView, ServerView, SingletonView } from './view.js';

export type ColumnType = 'uuid' | 'bigint' | 'double precision' | 'boolean' | 'text' | 'jsonb' | 'timestamptz';

export interface ColumnModel {
  /** The field (or, for an owner, the path parameter) as the spec names it. */
  field: string;
  column: string;
  type: ColumnType;
}

export interface IndexModel {
  name: string;
  columns: string[];
  /** A trigram index (for `search`) rather than a B-tree. */
  trigram?: boolean;
  /** The column kept in descending order (missing values last), for a sort by it in that direction. */
  descending?: string;
  /** No two rows share its columns' values (`x-specforge.store.unique`): a write that would is 409. */
  unique?: { fields: string[] };
}

export interface ForeignKeyModel {
  columns: string[];
  table: string;
  references: string[];
  /** Deleting the parent deletes its items (`onParentDelete: cascade`), rather than being refused. */
  cascade?: boolean;
}

export interface CollectionTable {
  kind: 'collection';
  name: string;
  /** The resource it keeps, by its key (`authors/books`). */
  resource: string;
  id: ColumnType;
  /** Made by the store (an identity for integers, a UUID otherwise) unless a key field names the item. */
  generatedId: boolean;
  owners: ColumnModel[];
  columns: ColumnModel[];
  /** The columns `search` matches, lower-cased into `_search`. */
  search: string[];
  primaryKey: string[];
  unique: string[][];
  foreignKey?: ForeignKeyModel;
  indexes: IndexModel[];
}

export interface SingletonTable {
  kind: 'singleton';
  name: string;
  resource: string;
}

/** The files of the items that have some (uploads): a row per file, its bytes beside what describes them. */
export interface FilesTable {
  kind: 'files';
  name: string;
  resource: string;
}

export type TableModel = CollectionTable | SingletonTable | FilesTable;

export interface StorageModel {
  version: 1;
  /** The migration files that bring a database to this model, in order. */
  migrations: string[];
  tables: TableModel[];
  /** The tables before the last migration (none when it is the first): a later run writes that migration again, the same. */
  base?: { tables: TableModel[] };
}

/** The table of the items' files: a name of specforge's own, as its migrations table, which no resource takes. */
export const FILES_TABLE = 'specforge_files';

/** Names the store's own columns take; no field column takes them. */
export const RESERVED_COLUMNS = ['_seq', '_extra', '_search', '_owner'];

/** The tables of the default store, parents before their children. */
export function storageModelOf(model: ApiModel, view: ServerView): StorageModel {
  const resources = new Map(model.resources.map((resource) => [resource.identifier, resource]));
  // Tables and indexes share one namespace in PostgreSQL: one registry for both.
  const tableNames = sqlNameRegistry(['specforge_migrations', FILES_TABLE]);
  const tables = new Map<string, CollectionTable>();
  for (const collection of view.collections) {
    const resource = resources.get(collection.variable)!;
    const parent = collection.parent === undefined ? undefined : tables.get(collection.parent);
    tables.set(collection.variable, collectionTable(resource, collection, parent, tableNames.claim(sqlName(resource.key, 'items')), tableNames));
  }
  const singletons = view.singletons.map((singleton: SingletonView): SingletonTable => {
    const resource = resources.get(singleton.variable)!;
    return { kind: 'singleton', name: tableNames.claim(sqlName(resource.key, 'settings')), resource: resource.key };
  });
  const files: FilesTable[] = view.uploads.length > 0 ? [{ kind: 'files', name: FILES_TABLE, resource: 'uploaded files' }] : [];
  return { version: 1, migrations: [], tables: [...tables.values(), ...singletons, ...files] };
}

function collectionTable(resource: ResourceModel, collection: CollectionView, parent: CollectionTable | undefined, name: string, relationNames: NameRegistry): CollectionTable {
  const columnNames = sqlNameRegistry(['id', ...RESERVED_COLUMNS]);
  const timestamps = new Set([collection.createdField, collection.updatedField].filter(Boolean));
  const fields = resource.fields.filter((field) => field.name !== 'id');
  const columns = fields.map((field) => ({
    field: field.name,
    column: columnNames.claim(sqlName(field.name, 'field', { keepCase: true })),
    type: timestamps.has(field.name) && field.type === 'string' ? ('timestamptz' as const) : columnTypeOf(field),
  }));
  const keyField = collection.keyField ? columns.find((column) => column.field === collection.keyField) : undefined;
  // Ids the store makes are UUIDs or an identity; a key field's, or a seed's from the spec's examples, are as written.
  const written = collection.keyField ? keyField?.type : collection.seed !== undefined && collection.ids !== 'integer' ? 'text' : undefined;
  const id: ColumnType = written ? (written === 'bigint' ? 'bigint' : 'text') : collection.ids === 'integer' ? 'bigint' : 'uuid';
  const owners = collection.scope.map((param, index): ColumnModel => {
    const shared = columns.find((column) => column.field === param && collection.pathFields.includes(param));
    const type = ownerTypeOf(collection, parent, index);
    // The item's field that repeats its parent's id is the owner column itself: a uuid is text too.
    if (shared && (shared.type === type || (shared.type === 'text' && type === 'uuid'))) {
      shared.type = type;
      return { field: param, column: shared.column, type };
    }
    return { field: param, column: columnNames.claim(sqlName(`_${param}`, 'owner', { keepCase: true })), type };
  });
  const ownerColumns = owners.map((owner) => owner.column);
  const primaryKey = collection.keyField ? [...ownerColumns, 'id'] : ['id'];
  const unique = ownerColumns.length > 0 && !collection.keyField ? [[...ownerColumns, 'id']] : [];
  const index = (suffix: string, indexed: string[], options: Omit<IndexModel, 'name' | 'columns'> = {}): IndexModel => ({
    name: relationNames.claim(sqlName(`${name}_${suffix}_idx`, 'index')),
    columns: indexed,
    ...options,
  });
  const columnOf = (field: string) => columns.find((column) => column.field === field)!.column;
  // An owner column is constant within a list: the owner index serves it.
  const ownColumns = (kept: (field: FieldModel) => boolean) =>
    fields.filter(kept).map((field) => columnOf(field.name)).filter((column) => !ownerColumns.includes(column));
  const sortable = ownColumns((field) => field.sortable || field.name === collection.createdField);
  const filterable = ownColumns((field) => field.filterable && !field.sortable);
  const enumOrdered = new Set(Object.keys(collection.sortOrders ?? {}).flatMap((field) => columns.find((column) => column.field === field)?.column ?? []));
  // Any string of the item: in a text column, inside a jsonb one (a oneOf of string and object), or kept in `_extra`.
  const search = columns.filter((column) => column.type === 'text' || column.type === 'jsonb').map((column) => column.column);
  const indexes = [
    ...(ownerColumns.length > 0 ? [index('owner', [...ownerColumns, '_seq'])] : []),
    // A page sorted by one field, either way (missing values last, then insertion order), reads its index in order;
    // an enum sorts by its declared order (an expression no index holds), so its one index serves filters.
    ...sortable.flatMap((column) => [
      index(column, [...ownerColumns, column, '_seq']),
      ...(enumOrdered.has(column) ? [] : [index(`${column}_desc`, [...ownerColumns, column, '_seq'], { descending: column })]),
    ]),
    ...filterable.map((column) => index(column, [...ownerColumns, column])),
    ...(search.length > 0 ? [index('search', ['_search'], { trigram: true })] : []),
    // Unique within the parent: the same name may stand under two parents.
    ...(resource.store?.unique ?? []).map((unique) =>
      index(`${unique.join('_')}_unique`, [...ownerColumns, ...unique.map(columnOf)], { unique: { fields: unique } }),
    ),
  ];
  const foreignKey = parent && foreignKeyOf(collection, parent, ownerColumns, resource.store?.onParentDelete === 'cascade');
  return {
    kind: 'collection',
    name,
    resource: resource.key,
    id,
    generatedId: !collection.keyField,
    owners,
    columns,
    search,
    primaryKey,
    unique,
    ...(foreignKey ? { foreignKey } : {}),
    indexes,
  };
}

function columnTypeOf(field: FieldModel): ColumnType {
  switch (field.type) {
    case 'string':
      return 'text';
    case 'integer':
      return 'bigint';
    case 'number':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    default:
      return 'jsonb';
  }
}

/**
 * An owner column holds what the parent's column it names holds (the
 * parent's id, or one of its own owners), so a foreign key can join them;
 * text where the owner is no kept item (GitHub's `{owner}`).
 */
function ownerTypeOf(collection: CollectionView, parent: CollectionTable | undefined, index: number): ColumnType {
  const referenced = parent && referencedColumns(collection, parent);
  return (referenced && referenced[index]?.type) ?? 'text';
}

/** The parent's columns the item's first owners name, in order. */
function referencedColumns(collection: CollectionView, parent: CollectionTable): { column: string; type: ColumnType }[] {
  const parentParams = collection.parentParams ?? [...parent.owners.map((owner) => owner.field), 'id'];
  // The parent's item parameters, with the id last: its own id parameter name is not kept, only the position.
  const all = [...parent.owners.map((owner) => ({ column: owner.column, type: owner.type })), { column: 'id', type: parent.id }];
  return all.slice(all.length - parentParams.length);
}

/**
 * Items under a parent reference it: deleting a parent that still has items
 * is refused (409). Only where the columns referenced are a key of the parent.
 */
function foreignKeyOf(collection: CollectionView, parent: CollectionTable, ownerColumns: string[], cascade: boolean): ForeignKeyModel | undefined {
  const referenced = referencedColumns(collection, parent).map((column) => column.column);
  const keys = [parent.primaryKey, ...parent.unique];
  if (!keys.some((key) => sameColumns(key, referenced))) return undefined;
  return { columns: ownerColumns.slice(0, referenced.length), table: parent.name, references: referenced, ...(cascade ? { cascade } : {}) };
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((column, index) => column === b[index]);
