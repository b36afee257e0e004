/**
 * Migrations as SQL text: the first creates the storage model's tables; each
 * later one changes the previous model into the new one. Destructive steps
 * (dropping a table or column, retyping one) are written commented out,
 * with a warning: no data goes until the user says so by editing the file.
 */
import type { CollectionTable, ColumnModel, ForeignKeyModel, IndexModel, StorageModel, TableModel } from './storage.js';

/** A name as SQL reads it: double-quoted, quotes doubled. */
export function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const q = sqlIdentifier;

export interface Migration {
  sql: string;
  /** What the user must decide: the steps written commented out. */
  warnings: string[];
}

/** The statements that create the whole model. */
export function initialMigration(model: StorageModel): string {
  const extension = model.tables.some((table) => table.kind === 'collection' && table.search.length > 0)
    ? ['-- `search` matches substrings through trigram indexes.', 'create extension if not exists pg_trgm;', '']
    : [];
  return [...extension, ...model.tables.flatMap((table) => [...createTable(table), ''])].join('\n');
}

/** The steps from one model to the next; undefined when the storage did not change. */
export function migrationBetween(previous: StorageModel, next: StorageModel): Migration | undefined {
  const before = new Map(previous.tables.map((table) => [table.name, table]));
  const after = new Map(next.tables.map((table) => [table.name, table]));
  const lines: string[] = [];
  const warnings: string[] = [];
  const needsTrigram = (model: StorageModel) => model.tables.some((table) => table.kind === 'collection' && table.search.length > 0);
  if (needsTrigram(next) && !needsTrigram(previous)) lines.push('create extension if not exists pg_trgm;', '');
  for (const table of next.tables) {
    const old = before.get(table.name);
    if (!old) lines.push(`-- ${table.resource}: new.`, ...createTable(table), '');
    else if (old.kind !== table.kind) {
      warnings.push(`${table.name} changed from a ${old.kind} to a ${table.kind}: its data is not moved; the migration drops and recreates it only once you uncomment it.`);
      lines.push(`-- ${table.resource}: now a ${table.kind}. Uncomment to drop its data and recreate it:`, ...[`drop table ${q(table.name)};`, ...createTable(table)].map(commented), '');
    } else if (old.kind === 'collection' && table.kind === 'collection') {
      const changes = changedTable(old, table, warnings);
      if (changes.length > 0) lines.push(`-- ${table.resource}: changed.`, ...changes, '');
    }
  }
  for (const old of previous.tables)
    if (!after.has(old.name)) {
      warnings.push(`${old.name} (${old.resource}) is no longer in the spec: uncomment its drop in the migration to delete its data.`);
      lines.push(`-- ${old.resource}: no longer in the spec. Uncomment to delete its data:`, commented(`drop table ${q(old.name)};`), '');
    }
  return lines.length > 0 ? { sql: lines.join('\n'), warnings } : undefined;
}

function changedTable(old: CollectionTable, table: CollectionTable, warnings: string[]): string[] {
  const lines: string[] = [];
  const oldColumns = new Map([...old.owners, ...old.columns].map((column) => [column.column, column]));
  const newColumns = new Map([...table.owners, ...table.columns].map((column) => [column.column, column]));
  const alter = `alter table ${q(table.name)}`;
  if (old.id !== table.id) {
    warnings.push(`${table.name}.id changes type from ${old.id} to ${table.id}: uncomment the step in the migration once you have checked its data converts.`);
    lines.push(commented(`${alter} alter column "id" type ${table.id} using "id"::${table.id};`));
  }
  for (const column of newColumns.values()) {
    const previous = oldColumns.get(column.column);
    if (!previous) lines.push(`${alter} add column ${columnDefinition(column)};`);
    else if (previous.type !== column.type) {
      warnings.push(`${table.name}.${column.column} changes type from ${previous.type} to ${column.type}: uncomment the step in the migration once you have checked its data converts.`);
      lines.push(commented(`${alter} alter column ${q(column.column)} type ${columnType(column)} using ${q(column.column)}::${column.type};`));
    }
  }
  for (const column of oldColumns.values())
    if (!newColumns.has(column.column)) {
      warnings.push(`${table.name}.${column.column} is no longer in the spec: its data stays until you uncomment its drop in the migration.`);
      lines.push(commented(`${alter} drop column ${q(column.column)};`));
    }
  if (!sameForeignKey(old.foreignKey, table.foreignKey)) {
    if (old.foreignKey) lines.push(`${alter} drop constraint if exists ${q(foreignKeyName(table.name, old.foreignKey))};`);
    if (table.foreignKey) lines.push(`${alter} add ${foreignKeyDefinition(table.foreignKey)};`);
  }
  const searchChanged = old.search.join() !== table.search.join();
  if (searchChanged) {
    // Dropping the column drops its index too: the index is made again below.
    lines.push(...(old.search.length > 0 ? [`${alter} drop column "_search";`] : []));
    if (table.search.length > 0) lines.push(`${alter} add column ${searchColumn(table.search)};`);
  }
  const onSearch = (index: IndexModel) => searchChanged && index.columns.includes('_search');
  const oldIndexes = new Map(old.indexes.filter((index) => !onSearch(index)).map((index) => [index.name, index]));
  const newIndexes = new Set(table.indexes.map((index) => index.name));
  for (const index of old.indexes.filter((candidate) => !onSearch(candidate)))
    if (!newIndexes.has(index.name) || !sameIndex(index, table.indexes.find((next) => next.name === index.name)!))
      lines.push(`drop index if exists ${q(index.name)};`);
  for (const index of table.indexes) {
    const previous = oldIndexes.get(index.name);
    if (previous && sameIndex(previous, index)) continue;
    lines.push(createIndex(table.name, index));
    if (index.unique)
      warnings.push(`${table.name}: the unique index ${index.name} cannot be made while two items share ${index.unique.fields.join(', ')}: check the data before migrating.`);
  }
  return lines;
}

const sameIndex = (a: IndexModel, b: IndexModel) =>
  a.columns.join() === b.columns.join() &&
  Boolean(a.trigram) === Boolean(b.trigram) &&
  a.descending === b.descending &&
  Boolean(a.unique) === Boolean(b.unique);

function createTable(table: TableModel): string[] {
  if (table.kind === 'files') return FILES_TABLE(table.name);
  if (table.kind === 'singleton')
    return [
      `-- ${table.resource}: one value per owner (null once deleted).`,
      `create table ${q(table.name)} (`,
      '  "_owner" text primary key,',
      '  "value" json',
      ');',
    ];
  const idColumn = table.id === 'bigint' && table.generatedId ? '"id" bigint generated by default as identity' : `"id" ${table.id} not null`;
  const definitions = [
    '"_seq" bigint generated always as identity',
    idColumn,
    ...table.owners.filter((owner) => !table.columns.some((column) => column.column === owner.column)).map((owner) => `${columnDefinition(owner)} not null`),
    ...table.columns.map(columnDefinition),
    '"_extra" json',
    ...(table.search.length > 0 ? [searchColumn(table.search)] : []),
    `primary key (${table.primaryKey.map(q).join(', ')})`,
    ...table.unique.map((columns) => `unique (${columns.map(q).join(', ')})`),
    ...(table.foreignKey ? [foreignKeyDefinition(table.foreignKey)] : []),
  ];
  return [
    `-- ${table.resource}`,
    `create table ${q(table.name)} (`,
    definitions.map((definition, index) => `  ${definition}${index < definitions.length - 1 ? ',' : ''}`).join('\n'),
    ');',
    ...table.indexes.map((index) => createIndex(table.name, index)),
  ];
}

/** Each file by its item's collection and key, its field and its place among the field's files. */
const FILES_TABLE = (name: string) => [
  '-- uploaded files: the bytes of each item\'s files, by collection, item and field.',
  `create table ${q(name)} (`,
  '  "collection" text not null,',
  '  "item" text not null,',
  '  "field" text not null,',
  '  "position" integer not null,',
  '  "media_type" text not null,',
  '  "filename" text not null,',
  '  "size" bigint not null,',
  '  "sha256" text not null,',
  '  "bytes" bytea not null,',
  '  primary key ("collection", "item", "field", "position")',
  ');',
];

const sameForeignKey = (a: ForeignKeyModel | undefined, b: ForeignKeyModel | undefined) =>
  a === undefined || b === undefined
    ? a === b
    : a.table === b.table && a.columns.join() === b.columns.join() && a.references.join() === b.references.join() && Boolean(a.cascade) === Boolean(b.cascade);

/**
 * The name PostgreSQL gave the table's foreign key (`<table>_<columns>_fkey`,
 * the longer part shortened until it fits 63 bytes): the tables create it unnamed.
 */
export function foreignKeyName(table: string, key: ForeignKeyModel): string {
  let [name, columns] = [table, key.columns.join('_')];
  while (Buffer.byteLength(`${name}_${columns}_fkey`) > 63) {
    if (name.length > columns.length) name = name.slice(0, -1);
    else columns = columns.slice(0, -1);
  }
  return `${name}_${columns}_fkey`;
}

function foreignKeyDefinition(key: ForeignKeyModel): string {
  const references = `references ${q(key.table)} (${key.references.map(q).join(', ')})${key.cascade ? ' on delete cascade' : ''}`;
  return `foreign key (${key.columns.map(q).join(', ')}) ${references}`;
}

function columnDefinition(column: ColumnModel): string {
  return `${q(column.column)} ${columnType(column)}`;
}

/** Text compares as JavaScript does (by code point), the order lists sort in. */
function columnType(column: ColumnModel): string {
  return column.type === 'text' ? 'text collate "C"' : column.type;
}

/** The text `search` matches: every text column, lower-cased, kept up to date by PostgreSQL. */
function searchColumn(columns: string[]): string {
  const joined = [...columns, '_extra'].map((column) => `coalesce(${q(column)}::text, '')`).join(` || ' ' || `);
  return `"_search" text generated always as (lower(${joined})) stored`;
}

function createIndex(table: string, index: IndexModel): string {
  if (index.trigram) return `create index ${q(index.name)} on ${q(table)} using gin (${index.columns.map(q).join(', ')} gin_trgm_ops);`;
  const columns = index.columns.map((column) => (column === index.descending ? `${q(column)} desc nulls last` : q(column)));
  return `create ${index.unique ? 'unique index' : 'index'} ${q(index.name)} on ${q(table)} (${columns.join(', ')});`;
}

function commented(line: string): string {
  return `-- ${line}`;
}

export const INITIAL_MIGRATION = '0001_initial.sql';

export interface NextMigration {
  /** The file this run writes: the first, or the changes since the last; none when storage did not change. */
  file?: { path: string; contents: string };
  /** The model to record, with the migrations that bring a database to it. */
  storage: StorageModel;
  warnings: string[];
}

/**
 * The migration `generate` writes: on a first run the whole model; later the
 * changes from the model the project recorded, numbered after its last.
 */
export function nextMigration(current: StorageModel, previous: StorageModel | undefined): NextMigration {
  if (!previous) return { file: migrationFile(INITIAL_MIGRATION, initialMigration(current)), storage: { ...current, migrations: [INITIAL_MIGRATION] }, warnings: [] };
  const change = migrationBetween(previous, current);
  if (change) {
    const last = Math.max(0, ...previous.migrations.map((name) => Number.parseInt(name, 10)).filter(Number.isFinite));
    const name = `${String(last + 1).padStart(4, '0')}_changes.sql`;
    return { file: changesFile(name, change), storage: { ...current, migrations: [...previous.migrations, name], base: { tables: previous.tables } }, warnings: change.warnings };
  }
  // Nothing changed: the last migration is written as it was, so the output stays what `check` expects.
  const storage = { ...current, migrations: previous.migrations, ...(previous.base ? { base: previous.base } : {}) };
  const last = previous.migrations.at(-1);
  if (last === undefined) return { storage, warnings: [] };
  const again = previous.base ? migrationBetween({ ...previous, tables: previous.base.tables }, current) : undefined;
  const file = again ? changesFile(last, again) : migrationFile(last, initialMigration(current));
  return { file, storage, warnings: [] };
}

function changesFile(name: string, change: Migration): { path: string; contents: string } {
  const header = [
    "-- The storage model's changes since the last migration, written by `specforge generate`.",
    '-- Yours to edit before `npm run migrate` applies it.',
    ...change.warnings.map((warning) => `-- WARNING: ${warning}`),
    '',
  ];
  return migrationFile(name, [...header, change.sql].join('\n'));
}

const migrationFile = (name: string, contents: string) => ({ path: `migrations/${name}`, contents });
