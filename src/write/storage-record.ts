/**
 * The storage model a project recorded (`migrations/storage.json`), read back
 * for the next migration. It is input from disk, so it is checked whole: its
 * names are quoted wherever they reach SQL, and its types are one of the
 * store's, never text to paste into a statement.
 */
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import type { StorageModel } from '../render/targets/server/storage.js';

export const STORAGE_PATH = 'migrations/storage.json';

const COLUMN_TYPES = new Set(['uuid', 'bigint', 'double precision', 'boolean', 'text', 'jsonb', 'timestamptz']);
const MIGRATION_NAME = /^\d{4,}_[\w-]+\.sql$/;

type Check = (value: unknown, at: string) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const string: Check = (value, at) => (typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\0') ? undefined : `${at} is not a name`);
const columnType: Check = (value, at) => (COLUMN_TYPES.has(value as string) ? undefined : `${at} is not a column type`);
const listOf =
  (item: Check): Check =>
  (value, at) =>
    Array.isArray(value) ? value.map((entry, index) => item(entry, `${at}[${index}]`)).find(Boolean) : `${at} is not a list`;
const shape =
  (fields: Record<string, Check>, optional: string[] = []): Check =>
  (value, at) => {
    if (!isObject(value)) return `${at} is not an object`;
    return Object.entries(fields)
      .filter(([name]) => !(optional.includes(name) && value[name] === undefined))
      .map(([name, check]) => check(value[name], `${at}.${name}`))
      .find(Boolean);
  };
const boolean: Check = (value, at) => (typeof value === 'boolean' ? undefined : `${at} is not true or false`);

const column = shape({ field: string, column: string, type: columnType });
const collection = shape(
  {
    name: string,
    resource: string,
    id: columnType,
    generatedId: boolean,
    owners: listOf(column),
    columns: listOf(column),
    search: listOf(string),
    primaryKey: listOf(string),
    unique: listOf(listOf(string)),
    foreignKey: shape({ columns: listOf(string), table: string, references: listOf(string), cascade: boolean }, ['cascade']),
    indexes: listOf(
      shape({ name: string, columns: listOf(string), trigram: boolean, descending: string, unique: shape({ fields: listOf(string) }) }, ['trigram', 'descending', 'unique']),
    ),
  },
  ['foreignKey'],
);
const singleton = shape({ name: string, resource: string });
const TABLE_KINDS: Record<string, Check> = { collection, singleton, files: singleton };
const table: Check = (value, at) => {
  const check = isObject(value) && typeof value.kind === 'string' ? TABLE_KINDS[value.kind] : undefined;
  return check ? check(value, at) : `${at} is neither a collection, a singleton nor the files table`;
};
const migration: Check = (value, at) => (typeof value === 'string' && MIGRATION_NAME.test(value) ? undefined : `${at} is not a migration file name`);
const model = shape(
  { version: (value, at) => (value === 1 ? undefined : `${at} is not 1`), migrations: listOf(migration), tables: listOf(table), base: shape({ tables: listOf(table) }) },
  ['base'],
);

/** The recorded model; a diagnostic (exit 1) when it is not one. */
export function parseStorageModel(text: string, file: string): StorageModel {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^(\/\/.*\n)+/, ''));
  } catch (error) {
    throw invalid(file, `it is not JSON (${(error as Error).message})`);
  }
  const problem = model(value, 'storage');
  if (problem) throw invalid(file, problem);
  return value as StorageModel;
}

function invalid(file: string, problem: string): SpecforgeError {
  return new SpecforgeError([diagnostic('STORAGE_MODEL_INVALID', `Cannot read the recorded storage model: ${problem}.`, { file })]);
}
