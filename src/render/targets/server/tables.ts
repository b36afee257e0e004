/**
 * The view of `src/generated/tables.ts`: each table's descriptor (what the
 * store reads: its name, id and columns) and the TypeScript type of its rows.
 */
import { stringLiteral } from '../../../model/names.js';
import { ASCII_IDENTIFIER, quoted } from '../../prettier-form.js';
import type { CollectionTable, ColumnModel, ColumnType, StorageModel } from './storage.js';

export interface TablesView {
  /** `descriptor`: what the store reads, printed by `{{js}}`; `key`s as prettier writes a property's key. */
  tables: { variable: string; descriptor: object; key: string; columns: { key: string; type: string }[] }[];
}

const TS_TYPES: Record<ColumnType, string> = {
  uuid: 'string',
  bigint: 'number',
  'double precision': 'number',
  boolean: 'boolean',
  text: 'string',
  jsonb: 'unknown',
  timestamptz: 'Timestamp',
};

/** `variables`: each table's store binding (the resource's identifier), in the model's order. */
export function tablesView(storage: StorageModel, variables: string[]): TablesView {
  return {
    tables: storage.tables.map((table, index) => {
      const variable = variables[index]!;
      if (table.kind === 'files')
        return { variable, descriptor: { name: table.name }, key: memberKey(table.name), columns: FILE_COLUMNS };
      if (table.kind === 'singleton')
        return {
          variable,
          descriptor: { name: table.name },
          key: memberKey(table.name),
          columns: [
            { key: '_owner', type: 'string' },
            { key: 'value', type: 'unknown' },
          ],
        };
      const own = new Set(table.columns.map((column) => column.column));
      const descriptor = {
        name: table.name,
        id: table.id,
        owners: table.owners.map(descriptorOf),
        columns: table.columns.map(descriptorOf),
        search: table.search.length > 0,
        ...uniqueOf(table),
      };
      const id = TS_TYPES[table.id];
      return {
        variable,
        descriptor,
        key: memberKey(table.name),
        columns: [
          { key: '_seq', type: 'GeneratedAlways<number>' },
          { key: 'id', type: table.id === 'bigint' && table.generatedId ? `Generated<${id}>` : id },
          ...table.owners.filter((owner) => !own.has(owner.column)).map((owner) => ({ key: memberKey(owner.column), type: TS_TYPES[owner.type] })),
          ...table.columns.map((column) => ({ key: memberKey(column.column), type: `${TS_TYPES[column.type]} | null` })),
          { key: '_extra', type: 'unknown' },
          ...(table.search.length > 0 ? [{ key: '_search', type: 'GeneratedAlways<string>' }] : []),
        ],
      };
    }),
  };
}

/** The files table's rows (../store/files.ts). */
const FILE_COLUMNS = [
  ...['collection', 'item', 'field'].map((key) => ({ key, type: 'string' })),
  { key: 'position', type: 'number' },
  { key: 'media_type', type: 'string' },
  { key: 'filename', type: 'string' },
  { key: 'size', type: 'ColumnType<string, number, number>' },
  { key: 'sha256', type: 'string' },
  { key: 'bytes', type: 'Uint8Array' },
];

/** A table's or column's name as a key of `Tables`: bare where prettier leaves it bare, else its string literal in prettier's quotes. */
function memberKey(name: string): string {
  return ASCII_IDENTIFIER.test(name) ? name : quoted(stringLiteral(name).slice(1, -1));
}

const descriptorOf = ({ field, column, type }: ColumnModel) => ({ field, column, type });

/** The unique indexes the spec asks for, by name: a write that breaks one is told which fields. */
function uniqueOf(table: CollectionTable): { unique?: { index: string; fields: string[] }[] } {
  const unique = table.indexes.flatMap((index) => (index.unique ? [{ index: index.name, fields: index.unique.fields }] : []));
  return unique.length > 0 ? { unique } : {};
}
