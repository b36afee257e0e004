/**
 * The store the default handlers use: a table per resource (see
 * ../generated/tables.ts and migrations/), in the database DATABASE_URL
 * names (./database.ts). specforge created this file once; it is yours.
 */
import { TABLES } from '../generated/tables.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';
import { SqlCollection } from './sql.js';
import { SqlSingleton } from './sql-singleton.js';
import type * as TasksTypes from '../generated/resources/tasks.js';
import type * as NotesTypes from '../generated/resources/notes.js';
import type * as FieldsTypes from '../generated/resources/fields.js';
import type * as SettingsTypes from '../generated/resources/settings.js';
import type * as SummaryTypes from '../generated/resources/summary.js';

let opened: Promise<Database> | undefined;

/** The database, opened on first use. */
export function database(): Promise<Database> {
  opened ??= openDatabase(databaseSettingsFromEnv());
  return opened;
}

/** Closes the database, for a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const db = opened;
  opened = undefined;
  if (db) await (await db).destroy();
}

const tasks = new SqlCollection<TasksTypes.Task>(database, {
  table: TABLES.tasks,
  type: 'tasks',
  shape: 'flat',
  idParam: 'task_id',
  ids: 'integer',
});

const notes = new SqlCollection<NotesTypes.Note>(database, {
  table: TABLES.notes,
  type: 'notes',
  shape: 'flat',
  idParam: 'note_id',
  ids: 'uuid',
});

const fields = new SqlCollection<FieldsTypes.Field>(database, {
  table: TABLES.fields,
  type: 'fields',
  shape: 'flat',
  idParam: 'field_id',
  ids: 'integer',
  scope: ['collection'],
});

const settings = new SqlSingleton<SettingsTypes.Settings>(database, {
  table: TABLES.settings.name,
  initial: { theme: 'light', page_size: 1 },
});

const summary = new SqlSingleton<SummaryTypes.Summary>(database, {
  table: TABLES.summary.name,
  scope: ['task_id'],
  parent: tasks,
  initial: { words: 1 },
  defaults: { words: 1 },
});

export const store = {
  tasks,
  notes,
  fields,
  settings,
  summary,
};
