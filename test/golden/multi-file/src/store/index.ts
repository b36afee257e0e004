/**
 * The store the default handlers use: a table per resource (see
 * ../generated/tables.ts and migrations/), in the database DATABASE_URL
 * names (./database.ts). specforge created this file once; it is yours.
 */
import { TABLES } from '../generated/tables.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';
import { SqlCollection } from './sql.js';
import type * as NotesTypes from '../generated/resources/notes.js';

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

const notes = new SqlCollection<NotesTypes.Note>(database, {
  table: TABLES.notes,
  type: 'notes',
  shape: 'flat',
  idParam: 'note_id',
  ids: 'uuid',
  defaults: { text: 'sample' },
});

export const store = {
  notes,
};
